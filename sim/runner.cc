#include "sim/runner.h"

#include <algorithm>
#include <utility>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "sim/defaults_file.h"
#include "sim/engines.h"
#include "sim/load.h"
#include "sim/phase_runner.h"
#include "sim/nearest_name.h"
#include "sim/secondary_keys.h"
#include "sim/shared_tree.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

absl::Status UnknownProfile(const std::string& profile) {
  const std::vector<std::string> names = ProfileNames();
  return absl::InvalidArgumentError(absl::StrCat("unknown profile '", profile, "'", DidYouMean(profile, names),
                                                 ": use ", absl::StrJoin(names, ", ")));
}

}  // namespace

absl::Status ValidateRunSpec(const RunSpec& spec) {
  if (spec.rows == 0) return absl::InvalidArgumentError("--rows must be at least 1 (e.g. --rows 10M)");
  if (!IsKnownStreamName(spec.stream.name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown stream '", spec.stream.name, "'",
        DidYouMean(spec.stream.name, GeneratorStreamNames()), ": use ", absl::StrJoin(GeneratorStreamNames(), ", "),
        " or file:PATH"));
  }
  if (spec.stream.rows_per_ms == 0) {
    return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  }
  if (spec.table.empty()) {
    return absl::InvalidArgumentError("--table is empty: give seed000, seed004 or a CREATE TABLE statement");
  }
  const EngineKind* kind = EngineKindFor(spec.profile);
  if (kind == nullptr) return UnknownProfile(spec.profile);
  if (kind->check != nullptr) return kind->check(spec);
  return absl::OkStatus();
}

absl::Status CheckRunTable(const RunSpec& spec) {
  const EngineKind* kind = EngineKindFor(spec.profile);
  if (kind == nullptr) return UnknownProfile(spec.profile);
  StreamSpec bound = spec.stream;  // autoinc takes the table's integer width
  if (absl::Status s = kind->bind_stream(spec.table, &bound); !s.ok()) return s;
  const int width = StreamKeyWidth(bound);
  if (absl::StartsWith(spec.stream.name, "file:") || width < 1 || width > 16) return absl::OkStatus();
  return kind->check_table(spec, width);
}

absl::StatusOr<TableSchema> ResolveRunTable(const RunSpec& spec, int key_width, const ServerSettings* settings) {
  TableOptions options;
  options.payload_bytes = spec.payload_bytes;
  options.payload_given = spec.payload_bytes_given;
  options.profile = spec.profile;  // the server's default charset and collations
  if (settings != nullptr) {  // ... unless the server's variables say otherwise
    options.server_charset = settings->TextOf("character_set_server");
    options.server_collation = settings->TextOf("collation_server");
  }
  // The page size the row-size rules take: the server's (its settings,
  // --page-size included), or --page-size alone before they are known.
  if (settings != nullptr) {
    options.page_size = static_cast<uint32_t>(settings->innodb_page_size);
  } else if (spec.page_size != 0) {
    options.page_size = spec.page_size;
  }
  absl::StatusOr<TableSchema> schema = ResolveTable(spec.table, key_width, options);
  if (!schema.ok()) return schema.status();
  if (absl::Status s = CheckColumnSources(*schema, spec.columns); !s.ok()) return s;
  return schema;
}

std::string TableSql(const TableDef& t) {
  std::vector<std::string> cols;
  for (const ColumnDef& c : t.columns) {
    cols.push_back(absl::StrCat(c.name, " ", c.type, c.nullable ? "" : " NOT NULL"));
  }
  std::vector<std::string> pk;
  for (uint32_t c : t.primary.columns) pk.push_back(t.columns[c].name);
  cols.push_back(absl::StrCat("PRIMARY KEY (", absl::StrJoin(pk, ", "), ")"));
  for (const IndexDef& ix : t.secondary) {
    std::vector<std::string> k;
    for (uint32_t c : ix.columns) k.push_back(t.columns[c].name);
    cols.push_back(absl::StrCat(ix.unique ? "UNIQUE KEY " : "KEY ", ix.name, " (", absl::StrJoin(k, ", "), ")"));
  }
  return absl::StrCat("CREATE TABLE ", t.name, " (", absl::StrJoin(cols, ", "), ") ENGINE=InnoDB");
}

absl::StatusOr<RunConfig> ConfigFor(const RunSpec& spec) {
  const EngineKind* kind = EngineKindFor(spec.profile);
  if (kind == nullptr) return UnknownProfile(spec.profile);
  return kind->configure(spec);
}

const char* OrderedStreamName(int key_width) { return key_width <= 8 ? "autoinc" : "uuidv7-counter"; }

StreamSpec PhaseStreamSpec(const RunSpec& spec, size_t n, uint64_t rows_before, uint64_t autoinc_rows) {
  StreamSpec ps = spec.stream;
  ps.name = spec.phases[n].stream;
  ps.seed = spec.stream.seed + n + 1;
  // The clock goes on: this phase's first row comes in the first millisecond
  // after the last row before it. A phase is a new writer (its own seed), so
  // sharing that row's millisecond would draw sub-millisecond bits that sort
  // below keys already in the table (seed 002's 10,000 uuidv7() rows came
  // after a CHECKPOINT, later than every row before them).
  const uint64_t rpms = std::max<uint64_t>(1, spec.stream.rows_per_ms);
  ps.start_ms = spec.stream.start_ms + (rows_before + rpms - 1) / rpms;
  ps.autoinc_start = autoinc_rows;
  return ps;
}

namespace {

void NoteSecondaryTies(RunResult* result) {
  if (result->secondary_ties > 0) {
    result->warnings.push_back(absl::StrCat(result->secondary_ties,
                                            " secondary-index entries tied after the compact encoding of entries past 32 bytes and "
                                            "were not inserted (see sim/secondary_keys.h)"));
  }
}

// One simulation: the engine lives only as long as this call, so that the
// key-order reference run after it never holds a second tree in memory.
absl::StatusOr<RunResult> RunOnce(const RunSpec& spec, const std::function<void(const EngineDriver&)>& at_end,
                                   bool* keys_ascending = nullptr) {
  absl::StatusOr<std::unique_ptr<Load>> prepared = Load::Prepare(spec);
  if (!prepared.ok()) return prepared.status();
  Load& load = **prepared;
  PhaseRunner phases(load);
  const auto t0 = std::chrono::steady_clock::now();
  if (absl::Status s = load.Insert(load.stream(), spec.rows, 0, phases.Keeping(1)); !s.ok()) return s;
  if (absl::Status s = phases.Run(); !s.ok()) return s;
  if (absl::Status s = load.engine().EndLoad(); !s.ok()) return s;
  RunResult& result = load.result();
  result.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  load.driver().Finish(&result);
  if (at_end) at_end(load.driver());
  if (keys_ascending != nullptr) *keys_ascending = load.keys_ascending();
  NoteSecondaryTies(&result);
  return std::move(result);
}

// Several configurations sharing one tree (sim/shared_tree.h), each
// result in specs' order with its share of the shared load's wall time. FailedPrecondition
// when they cannot share; the load's first error (any configuration's) as
// it comes, `loaded` set once rows went in. The caller runs them one by one
// after either.
absl::StatusOr<std::vector<RunResult>> RunSharedOnce(const std::vector<RunSpec>& specs, bool* keys_ascending,
                                                     bool* loaded) {
  absl::StatusOr<std::unique_ptr<Load>> prepared = Load::PrepareShared(specs);
  if (!prepared.ok()) return prepared.status();
  Load& load = **prepared;
  *loaded = true;
  const auto t0 = std::chrono::steady_clock::now();
  if (absl::Status s = load.Insert(load.stream(), specs[0].rows, 0); !s.ok()) return s;
  if (absl::Status s = load.engine().EndLoad(); !s.ok()) return s;
  // Each configuration's equal share of the shared load's wall time, so that
  // a sum over runs (an experiment of several files, `innosim merge`)
  // counts it once.
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                           static_cast<double>(load.n_instances());
  std::vector<RunResult> results;
  for (size_t i = 0; i < load.n_instances(); ++i) {
    results.push_back(load.FinishInstance(i));
    results.back().elapsed_s = elapsed_s;
    NoteSecondaryTies(&results.back());
  }
  *keys_ascending = load.keys_ascending();
  return results;
}

// Whether two key-order reference runs are the same run: every field a
// structure-only run without phases reads (RunSpec has no operator==: its
// progress pointer and label are not part of a run's result).
bool SameReference(const RunSpec& a, const RunSpec& b) {
  return a.stream == b.stream && a.rows == b.rows && a.profile == b.profile && a.page_size == b.page_size &&
         a.settings == b.settings && a.rows_per_sec == b.rows_per_sec && a.trx_rows == b.trx_rows &&
         a.table == b.table && a.payload_bytes == b.payload_bytes &&
         a.payload_bytes_given == b.payload_bytes_given && a.columns == b.columns;
}

// The key-order reference's DATA_LENGTH (0: no ascending stream fits the
// table), run once per reference in a process: an experiment's streams
// over one table and row count share it, as RunMany's threads may. A
// reference is a pure function of its spec, so the figure is the same
// whichever run computed it.
uint64_t KeyOrderDataLength(const RunSpec& ordered) {
  static std::mutex mu;
  static std::vector<std::pair<RunSpec, uint64_t>>* done = new std::vector<std::pair<RunSpec, uint64_t>>;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [spec, length] : *done) {
      if (SameReference(spec, ordered)) return length;
    }
  }
  absl::StatusOr<RunResult> reference = RunOnce(ordered, nullptr);
  const uint64_t length = reference.ok() ? reference->report.data_length : 0;
  std::lock_guard<std::mutex> lock(mu);
  done->emplace_back(ordered, length);
  return length;
}

// The key-order reference of a finished run (RunResult::
// data_length_in_key_order): InnoDB's DATA_LENGTH at 15/16 (seed 000's
// fill); an engine that reports its own figures has none.
void AddKeyOrderReference(const RunSpec& spec, bool keys_ascending, RunResult* result) {
  if (result->engine_result != nullptr) return;
  // The same rows appended in key order, structure only: the size a fill
  // computed from DATA_LENGTH (seed 000's) is measured against. Appends
  // cost about 0.03 s per million rows.
  RunSpec ordered = spec;
  ordered.stream = StreamSpec();  // one writer: strictly ascending
  ordered.stream.name = OrderedStreamName(result->key_width);
  ordered.stream.seed = spec.stream.seed;
  ordered.stream.rows_per_ms = spec.stream.rows_per_ms;
  ordered.stream.start_ms = spec.stream.start_ms;
  ordered.flush = false;
  ordered.series_every = 0;
  // With phases: the rows the table ends with (deletes aside), appended.
  for (const PhaseSpec& phase : spec.phases) ordered.rows += phase.rows;
  ordered.phases.clear();
  ordered.progress = nullptr;  // not rows the user asked for
  // A table no ascending generator fits (a fileN: key of a width other than
  // an integer's or 16) has no reference: the fill is then not reported.
  if (spec.phases.empty() && keys_ascending) {
    // The run's own rows went in ascending: the clustered index is already
    // the appended tree (InnoDB's records of one table are all one size, so
    // the pages depend on the rows' order alone, not on the key values or
    // on flushing), and a second run would only repeat it. The reference's
    // stream must still fit the table, or there is no figure, as below.
    if (Load::Prepare(ordered).ok()) result->data_length_in_key_order = result->report.data_length;
    return;
  }
  result->data_length_in_key_order = KeyOrderDataLength(ordered);
}

// The runs of specs[group], sharing one tree when they can (RunSharedOnce),
// else one by one (Run); results into (*results)[group[k]].
void RunGroup(const std::vector<RunSpec>& specs, const std::vector<size_t>& group,
              std::vector<absl::StatusOr<RunResult>>* results) {
  if (group.size() > 1) {
    std::vector<RunSpec> shared;
    for (size_t i : group) shared.push_back(specs[i]);
    bool keys_ascending = false;
    bool loaded = false;
    absl::StatusOr<std::vector<RunResult>> r = RunSharedOnce(shared, &keys_ascending, &loaded);
    if (r.ok()) {
      for (size_t k = 0; k < group.size(); ++k) {
        AddKeyOrderReference(shared[k], keys_ascending, &(*r)[k]);
        (*results)[group[k]] = std::move((*r)[k]);
      }
      return;
    }
    // Not shareable after all, or one configuration failed: alone, each run
    // gives exactly its own result or error. The progress line's total held
    // the shared load's rows once: now each run's, and the rows the shared
    // load inserted before it failed.
    for (size_t k = loaded ? 0 : 1; k < group.size(); ++k) {
      if (ProgressCounter* p = specs[group[k]].progress; p != nullptr) p->total_rows += RowsToInsert(specs[group[k]]);
    }
  }
  for (size_t i : group) (*results)[i] = Run(specs[i]);
}

}  // namespace

absl::StatusOr<RunResult> Run(const RunSpec& spec, const std::function<void(const EngineDriver&)>& at_end) {
  bool keys_ascending = false;
  absl::StatusOr<RunResult> result = RunOnce(spec, at_end, &keys_ascending);
  if (!result.ok()) return result;
  AddKeyOrderReference(spec, keys_ascending, &*result);
  return result;
}

absl::StatusOr<RunResult> Run(const RunSpec& spec, const std::function<void(const Engine&)>& at_end) {
  bool innodb = true;
  absl::StatusOr<RunResult> r = Run(spec, [&](const EngineDriver& driver) {
    if (driver.innodb() == nullptr) {
      innodb = false;
    } else if (at_end) {
      at_end(*driver.innodb());
    }
  });
  if (r.ok() && !innodb) {
    return absl::InvalidArgumentError(absl::StrCat("profile ", spec.profile, " is not an InnoDB profile: this view needs "
                                                   "mysql-8.4 or mariadb-10.11"));
  }
  return r;
}

uint64_t RowsToInsert(const RunSpec& spec) {
  uint64_t rows = spec.rows;
  for (const PhaseSpec& phase : spec.phases) rows += phase.kind == PhaseSpec::Kind::kInsert ? phase.rows : 0;
  return rows;
}

std::vector<absl::StatusOr<RunResult>> RunMany(const std::vector<RunSpec>& specs, int threads,
                                               std::vector<double>* ended_s, bool share_trees) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<absl::StatusOr<RunResult>> results(specs.size(), absl::UnknownError("not run"));
  if (ended_s != nullptr) ended_s->assign(specs.size(), 0.0);
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // The runs that load the same rows into the same table share one tree
  // (sim/shared_tree.h), at most ceil(runs / threads) to a tree and at least
  // two: a sweep of pool sizes then still fills every thread.
  const size_t cap = std::max<size_t>(2, (specs.size() + threads - 1) / threads);
  std::vector<absl::StatusOr<RunConfig>> configs;
  for (const RunSpec& s : specs) configs.push_back(share_trees ? ConfigFor(s) : absl::UnknownError("not shared"));
  std::vector<std::vector<size_t>> groups;
  std::vector<bool> grouped(specs.size(), false);
  for (size_t i = 0; i < specs.size(); ++i) {
    if (grouped[i]) continue;
    groups.push_back({i});
    grouped[i] = true;
    for (size_t j = i + 1; configs[i].ok() && j < specs.size() && groups.back().size() < cap; ++j) {
      if (!grouped[j] && configs[j].ok() && MayShareTree(specs[i], *configs[i], specs[j], *configs[j])) {
        groups.back().push_back(j);
        grouped[j] = true;
      }
    }
  }
  threads = std::min<int>(threads, static_cast<int>(groups.size()));
  // Longest runs first, so that no long run starts last and leaves the
  // other threads idle: uniformly random keys miss the CPU cache on every
  // insert and cost several times what a time-ordered stream of the same
  // length does. A shared tree's further configurations add their buffer
  // pools' work only (about a third of a random-key run's, docs/validation.md's
  // full model against structure only). Only the order of work changes,
  // never a result.
  auto cost = [&](const std::vector<size_t>& group) {
    const RunSpec& s = specs[group[0]];
    const StreamInfo* info = FindStream(s.stream.name);
    const bool scattered = info == nullptr || info->scattered;  // a key file's order is unknown: assume the worst
    // Every insert phase's rows count (a run with phases loads more than --rows).
    const double one = static_cast<double>(RowsToInsert(s)) * (scattered ? 4.0 : 1.0) * (s.flush ? 1.2 : 1.0);
    return one * (1.0 + 0.3 * static_cast<double>(group.size() - 1));
  };
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cost(groups[a]) > cost(groups[b]); });
  for (const std::vector<size_t>& group : groups) {
    // A shared load counts its rows once, on its first spec's progress.
    const RunSpec& s = specs[group[0]];
    if (s.progress != nullptr) s.progress->total_rows += RowsToInsert(s);
    for (size_t i : group) {
      if (specs[i].progress != nullptr) specs[i].progress->total_configurations += 1;
    }
  }
  std::atomic<size_t> next{0};
  auto worker = [&]() {
    for (size_t k = next++; k < groups.size(); k = next++) {
      const std::vector<size_t>& group = groups[order[k]];
      RunGroup(specs, group, &results);
      const double ended = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (size_t i : group) {
        if (ended_s != nullptr) (*ended_s)[i] = ended;
        if (specs[i].progress != nullptr) specs[i].progress->configurations.fetch_add(1);
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace innosim
