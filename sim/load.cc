#include "sim/load.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "model/flush_model.h"
#include "sim/engines.h"
#include "sim/nearest_name.h"
#include "sim/shared_tree.h"

namespace innosim {
namespace {

// The caller's keys as a stream (explain --keys).
class OwnKeyStream final : public KeyStream {
 public:
  OwnKeyStream(const std::vector<Key>& keys, int width) : keys_(keys), width_(width) {}
  bool Next(Key* out) override {
    if (next_ == keys_.size()) return false;
    *out = keys_[next_++];
    return true;
  }
  int key_width() const override { return width_; }

 private:
  const std::vector<Key>& keys_;
  int width_;
  size_t next_ = 0;
};

// The checks of a spec beyond ValidateRunSpec that need no stream or table:
// the clock, the batch, the phases.
absl::Status CheckLoad(const RunSpec& spec) {
  if (spec.flush && !(spec.rows_per_sec > 0)) {
    return absl::InvalidArgumentError("--rows-per-sec must be positive (e.g. --rows-per-sec 127290)");
  }
  if (spec.flush && spec.rows_per_sec < FlushModel::kMinRowsPerSec) {
    return absl::InvalidArgumentError(absl::StrCat("rows_per_sec ", spec.rows_per_sec, " is below the floor of ",
                                                   FlushModel::kMinRowsPerSec,
                                                   " rows/s (docs/limits.md): give at least that"));
  }
  if (spec.trx_rows == 0) return absl::InvalidArgumentError("--batch must be at least 1 (e.g. --batch 1000)");
  for (const PhaseSpec& phase : spec.phases) {
    if (phase.kind == PhaseSpec::Kind::kCheckpoint && !spec.flush) {
      return absl::InvalidArgumentError(
          "--phase checkpoint writes the dirty pages of the flush model: drop --no-flush (flush = true)");
    }
    if (phase.kind == PhaseSpec::Kind::kInsert && !IsKnownStreamName(phase.stream)) {
      return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": unknown stream '", phase.stream,
                                                     "'", DidYouMean(phase.stream, GeneratorStreamNames())));
    }
  }
  for (size_t n = 0; n < spec.phases.size(); ++n) {
    if (absl::Status s = CheckDeletePhaseTarget(spec.phases, n); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Load>> Load::Prepare(const RunSpec& spec, OwnKeys own) {
  RunSpec checked = spec;
  if (own.keys != nullptr) {
    checked.rows = own.keys->size();
    // A generator of the same width stands in for the checks only.
    checked.stream.name = own.width == 8 ? "autoinc" : "uuidv4";
  }
  if (absl::Status s = ValidateRunSpec(checked); !s.ok()) return s;
  if (absl::Status s = CheckLoad(checked); !s.ok()) return s;
  absl::StatusOr<RunConfig> config = ConfigFor(checked);
  if (!config.ok()) return config.status();
  absl::StatusOr<std::unique_ptr<Load>> load = Begin(own.keys != nullptr ? checked : spec, own, *std::move(config));
  if (!load.ok()) return load.status();
  Load& l = **load;
  const EngineKind* kind = EngineKindFor(l.spec_.profile);  // ValidateRunSpec found it
  absl::StatusOr<PreparedEngine> prepared = kind->prepare(l.spec_, &l.config_, l.result_.key_width);
  if (!prepared.ok()) return prepared.status();
  l.Adopt(*std::move(prepared));
  return load;
}

absl::StatusOr<std::unique_ptr<Load>> Load::PrepareShared(const std::vector<RunSpec>& specs) {
  if (specs.size() < 2) return absl::FailedPreconditionError("a shared tree needs at least two configurations");
  const EngineKind* kind = EngineKindFor(specs[0].profile);
  if (kind == nullptr || kind->prepare_shared == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("profile ", specs[0].profile, " shares no tree"));
  }
  std::vector<RunConfig> configs;
  for (const RunSpec& spec : specs) {
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
    if (absl::Status s = CheckLoad(spec); !s.ok()) return s;
    absl::StatusOr<RunConfig> config = ConfigFor(spec);
    if (!config.ok()) return config.status();
    configs.push_back(*std::move(config));
    if (!MayShareTree(specs[0], configs[0], spec, configs.back())) {
      return absl::FailedPreconditionError("the runs cannot share a tree (sim/shared_tree.h)");
    }
  }
  absl::StatusOr<std::unique_ptr<Load>> load = Begin(specs[0], {}, configs[0]);
  if (!load.ok()) return load.status();
  Load& l = **load;
  absl::StatusOr<PreparedEngine> prepared = kind->prepare_shared(specs, &configs, l.result_.key_width);
  if (!prepared.ok()) return prepared.status();
  l.config_ = configs[0];
  l.Adopt(*std::move(prepared));
  l.shared_specs_ = specs;
  l.shared_configs_ = std::move(configs);
  return load;
}

absl::StatusOr<std::unique_ptr<Load>> Load::Begin(const RunSpec& spec, OwnKeys own, RunConfig config) {
  std::unique_ptr<Load> load(new Load());
  load->spec_ = spec;
  load->config_ = std::move(config);
  if (own.keys != nullptr) {
    load->stream_ = std::make_unique<OwnKeyStream>(*own.keys, own.width);
  } else {
    StreamSpec stream_spec = spec.stream;  // autoinc takes the table's integer width
    if (absl::Status s = EngineKindFor(spec.profile)->bind_stream(spec.table, &stream_spec); !s.ok()) return s;
    absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(stream_spec);
    if (!stream.ok()) return stream.status();
    load->stream_ = *std::move(stream);
  }
  RunResult& result = load->result_;
  result.spec = load->spec_;
  result.spec.page_size = load->config_.profile.page_size;
  if (result.spec.label.empty()) result.spec.label = load->spec_.stream.name;
  result.key_width = load->stream_->key_width();
  return load;
}

void Load::Adopt(PreparedEngine prepared) {
  result_.table = std::move(prepared.table_sql);
  encoders_ = std::move(prepared.encoders);
  driver_ = std::move(prepared.driver);
  result_.warnings = config_.server.warnings;
}

RunResult Load::FinishInstance(size_t i) {
  if (shared_specs_.empty()) {
    driver_->Finish(&result_);
    return result_;
  }
  RunResult r = result_;
  r.spec = shared_specs_[i];
  r.spec.page_size = shared_configs_[i].profile.page_size;
  if (r.spec.label.empty()) r.spec.label = r.spec.stream.name;
  r.warnings = shared_configs_[i].server.warnings;
  driver_->FinishInstance(i, &r);
  return r;
}

absl::Status Load::BindStream(StreamSpec* stream) const {
  return EngineKindFor(spec_.profile)->bind_stream(spec_.table, stream);
}

absl::Status Load::Insert(KeyStream& source, uint64_t rows, uint64_t base, const InsertKeeping& keep,
                          RowObserver* observer) {
  TableEngine& engine = driver_->engine();
  if (keep.keys != nullptr) keep.keys->reserve(rows);
  if (keep.rows != nullptr) keep.rows->reserve(keep.rows->size() + rows);
  // Keys are read kLookahead rows ahead, and each announced to the engine
  // (TableEngine::PrefetchRow) that far before its insert; never past rows,
  // so a stream is read exactly as far as without the lookahead.
  constexpr uint64_t kLookahead = 3;
  constexpr uint64_t kRing = 4;  // a power of two above kLookahead: slots by mask
  Key ring[kRing];
  uint64_t read = 0;  // keys taken from the stream so far
  bool ended = false;
  auto read_one = [&]() __attribute__((always_inline)) {
    if (ended || read == rows) return;
    Key& k = ring[read & (kRing - 1)];
    if (!source.Next(&k)) {
      ended = true;
      return;
    }
    engine.PrefetchRow(k);
    ++read;
  };
  for (uint64_t j = 0; j < kLookahead; ++j) read_one();
  const uint64_t series_every = spec_.series_every;
  ProgressCounter* const progress = spec_.progress;
  for (uint64_t i = 0; i < rows; ++i) {
    read_one();
    if (i >= read) {
      if (!source.status().ok()) return source.status();
      return absl::InvalidArgumentError(absl::StrCat("the stream ended after ", i, " of ", rows,
                                                     " rows: lower --rows or give a longer key file"));
    }
    const Key key = ring[i & (kRing - 1)];
    const uint64_t row = base + i;
    if (absl::Status s = engine.InsertRow(key); !s.ok()) {
      if (!absl::IsAlreadyExists(s)) return s;
      return absl::InvalidArgumentError(absl::StrCat("row ", row + 1, ": duplicate primary key in the stream (",
                                                     "the server would refuse it): remove it from the keys"));
    }
    keys_ascending_ = keys_ascending_ && (keys_inserted_ == 0 || last_key_ < key);
    last_key_ = key;
    ++keys_inserted_;
    if (observer != nullptr) {
      if (absl::Status s = observer->RowInserted(row, key); !s.ok()) return s;
    }
    if (keep.keys != nullptr) keep.keys->push_back(key);
    if (keep.rows != nullptr) keep.rows->emplace_back(key, row);
    // The clustered index (or heap) first, then each secondary index in
    // order (InnoDB's row_ins, PostgreSQL's ExecInsertIndexTuples).
    for (size_t ix = 0; ix < encoders_.size(); ++ix) {
      const absl::Status s = engine.InsertSecondary(ix, encoders_[ix]->Encode(row, key));
      if (absl::IsAlreadyExists(s)) {
        ++result_.secondary_ties;
      } else if (!s.ok()) {
        return s;
      }
    }
    if (absl::Status s = engine.EndRow(); !s.ok()) return s;
    if (series_every > 0 && (row + 1) % series_every == 0) driver_->Sample(row + 1, &result_);
    if (observer != nullptr) {
      if (absl::Status s = observer->RowEnded(row, key); !s.ok()) return s;
    }
    // The progress line's count, in batches: one shared atomic add per row
    // would cost more than some rows do.
    if (progress != nullptr && ((i + 1) & (ProgressCounter::kBatch - 1)) == 0) {
      progress->AddRows(ProgressCounter::kBatch);
    }
  }
  if (progress != nullptr) progress->AddRows(rows & (ProgressCounter::kBatch - 1));
  return absl::OkStatus();
}

}  // namespace innosim
