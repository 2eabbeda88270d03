#include "sim/phase_runner.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

constexpr uint64_t kPurged = ~uint64_t{0};

}  // namespace

PhaseRunner::PhaseRunner(Load& load) : load_(load) {
  const RunSpec& spec = load.spec();
  keep_keys_.assign(spec.phases.size() + 2, false);
  phase_keys_.resize(spec.phases.size() + 2);
  bool deletes = false;
  for (const PhaseSpec& phase : spec.phases) {
    deletes = deletes || IsDeletePhase(phase.kind);
    if (phase.kind == PhaseSpec::Kind::kDeletePhase) keep_keys_[phase.of_phase] = true;
  }
  track_rows_ = deletes && !load.encoders().empty();
}

InsertKeeping PhaseRunner::Keeping(size_t n) {
  InsertKeeping k;
  if (n < keep_keys_.size() && keep_keys_[n]) k.keys = &phase_keys_[n];
  if (track_rows_) k.rows = &row_of_;
  return k;
}

absl::Status PhaseRunner::Run() {
  const RunSpec& spec = load_.spec();
  if (spec.phases.empty()) return absl::OkStatus();
  TableEngine& engine = load_.engine();
  EngineDriver& driver = load_.driver();
  RunResult* result = &load_.result();
  PhaseSpec first;
  first.stream = spec.stream.name;
  first.rows = spec.rows;
  first.text = absl::StrCat("insert:", spec.stream.name, ":", spec.rows);
  driver.RecordPhase(first, result);
  done_ = spec.rows;
  autoinc_rows_ = ServerAssigns(spec.stream.name) ? spec.rows : 0;
  for (size_t n = 0; n < spec.phases.size(); ++n) {
    const PhaseSpec& phase = spec.phases[n];
    if (IsDeletePhase(phase.kind)) {
      if (absl::Status s = Delete(phase); !s.ok()) return s;
    } else if (phase.kind == PhaseSpec::Kind::kCheckpoint) {
      if (absl::Status s = engine.Checkpoint(); !s.ok()) return s;
    } else if (phase.kind == PhaseSpec::Kind::kOptimize) {
      // A DDL commits the open transaction first (an implicit commit).
      engine.CommitTrx();
      if (absl::Status s = engine.Rebuild(); !s.ok()) return s;
    } else {
      if (absl::Status s = InsertPhase(n); !s.ok()) return s;
    }
    driver.RecordPhase(phase, result);
  }
  return absl::OkStatus();
}

absl::Status PhaseRunner::Delete(const PhaseSpec& phase) {
  TableEngine& engine = load_.engine();
  const std::vector<std::unique_ptr<EntryEncoder>>& encoders = load_.encoders();
  // DELETE ... in key order (a scan of the primary key), committed, then
  // cleaned up row by row in the same order.
  engine.CommitTrx();
  std::vector<Key> doomed;
  if (phase.kind == PhaseSpec::Kind::kDeleteEvery) {
    uint64_t ordinal = 0;
    engine.ForEachPrimaryKey([&](const Key& k) {
      if (++ordinal % phase.every == 0) doomed.push_back(k);
    });
  } else if (phase.kind == PhaseSpec::Kind::kDeleteRange) {
    // WHERE id >= A AND id < B: the rows ranked [first, last) in key order.
    uint64_t first = 0;
    uint64_t last = 0;
    DeleteRangeRanks(phase, engine.rows(), &first, &last);
    uint64_t rank = 0;
    engine.ForEachPrimaryKey([&](const Key& k) {
      if (rank >= first && rank < last) doomed.push_back(k);
      ++rank;
    });
  } else {
    // WHERE id IN (the keys phase N inserted), found by a scan of the
    // primary key: key order; rows an earlier delete took are not there.
    doomed = std::move(phase_keys_[phase.of_phase]);
    phase_keys_[phase.of_phase] = {};
    std::sort(doomed.begin(), doomed.end());
  }
  if (track_rows_) std::sort(row_of_.begin(), row_of_.end());
  std::vector<Key> entries(encoders.size());
  for (const Key& k : doomed) {
    if (track_rows_) {
      auto it = std::lower_bound(row_of_.begin(), row_of_.end(), std::pair<Key, uint64_t>{k, 0});
      if (it == row_of_.end() || !(it->first == k) || it->second == kPurged) continue;  // deleted before
      for (size_t ix = 0; ix < encoders.size(); ++ix) entries[ix] = encoders[ix]->Encode(it->second, k);
      it->second = kPurged;
    }
    absl::Status s = engine.DeleteRow(k, entries);
    if (!s.ok() && !(phase.kind == PhaseSpec::Kind::kDeletePhase && absl::IsNotFound(s))) return s;
  }
  return engine.EndDeletes();
}

absl::Status PhaseRunner::InsertPhase(size_t n) {
  const RunSpec& spec = load_.spec();
  const PhaseSpec& phase = spec.phases[n];
  StreamSpec ps = PhaseStreamSpec(spec, n, done_, autoinc_rows_);
  if (ServerAssigns(phase.stream)) autoinc_rows_ += phase.rows;
  if (absl::Status s = load_.BindStream(&ps); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(ps);
  if (!stream.ok()) return stream.status();
  const int width = load_.result().key_width;
  if ((*stream)->key_width() != width) {
    return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": its keys are ", (*stream)->key_width(),
                                                   " bytes wide, the table's ", width,
                                                   ": use a stream of the table's key type"));
  }
  if (absl::Status s = load_.Insert(**stream, phase.rows, done_, Keeping(n + 2)); !s.ok()) return s;
  done_ += phase.rows;
  return absl::OkStatus();
}

}  // namespace innosim
