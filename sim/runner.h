// Runner: one simulation from a key stream to an EngineReport, and many of
// them in parallel.
//
// A RunSpec names everything a run depends on (stream, seed, rows, clock
// rate, profile, page size); the same spec gives byte-identical results.
// RunMany spreads independent specs over threads (each run is
// single-threaded and owns its engine, or shares one with the runs that load
// the same rows: sim/shared_tree.h), returning results in spec order.
#ifndef INNOSIM_SIM_RUNNER_H_
#define INNOSIM_SIM_RUNNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "model/dict_stats.h"
#include "model/engine.h"
#include "model/flush_model.h"
#include "model/server_settings.h"
#include "sim/column_values.h"
#include "sim/engine_result.h"
#include "sim/engine_driver.h"
#include "sim/key_stream.h"
#include "sim/phases.h"
#include "sim/progress.h"
#include "sim/table_parser.h"

namespace innosim {

struct RunSpec {
  StreamSpec stream;
  uint64_t rows = 0;
  std::string profile = "mysql-8.4";
  // --page-size: a shorthand for innodb_page_size that overrides the
  // settings' value; 0 = the settings' (16384 unless set). After Run(), the
  // result's spec holds the page size used.
  uint32_t page_size = 0;
  std::string label;  // for tables; defaults to the stream name
  // The engine's buffers and log (InnoDB: the buffer pool, redo log and
  // page cleaner); false runs the B-trees alone (structure only).
  bool flush = true;
  // Server variables, applied in order over the profile's defaults, each
  // with its origin (--defaults-file lines, --set, an experiment file, a
  // real server's values).
  std::vector<VariableAssignment> settings;
  // Simulated insert rate: row i happens at i / rows_per_sec seconds. An
  // input, not derived: see docs/flushing.md for the sensitivity.
  double rows_per_sec = 100000;
  // Rows per transaction (seed 000: 1000-row multi-row INSERTs).
  uint64_t trx_rows = 1000;
  // EngineOptions::end_wait_s: the final flush's wait, in seconds, through
  // which a due statistics recalculation still runs (`measure` sets its
  // server's; 0 elsewhere).
  double end_wait_s = 0;
  // Rows between two time-series samples; 0 = none.
  uint64_t series_every = 0;
  // Count each page's writes (BufferPool::PageWrites, for `run --page-map
  // --shade writes`). Off, the pool keeps no per-page tally: one cache miss
  // less per page written; no counter changes.
  bool page_writes = false;
  // The table: "seed000" (default), "seed004" or a CREATE TABLE statement
  // (sim/table_parser.h). Its PK takes the stream's keys; each row also
  // inserts one entry into every secondary index (sim/secondary_keys.h).
  std::string table = "seed000";
  // Stored length of VARCHAR columns (--payload-bytes); when given, a
  // column too short for it is an error instead of a cut (TableOptions).
  uint32_t payload_bytes = 100;
  bool payload_bytes_given = false;
  // What the other columns hold (--column NAME=SOURCE; sim/column_values.h);
  // a column not named takes its type's default.
  std::vector<ColumnSource> columns;
  // The phases after the first (--phase; sim/phases.h): the first is always
  // the insert of `rows` rows of `stream`. A later insert phase's stream
  // takes stream's seed plus its phase number (0 for the first) and starts
  // its clock where the rows before it ended. None: a plain run.
  std::vector<PhaseSpec> phases;
  // Where the insert loop adds its rows (every ProgressCounter::kBatch
  // rows) and RunMany its finished runs, for a progress line; may be shared
  // by runs on several threads. Never changes a result.
  ProgressCounter* progress = nullptr;
};

struct SeriesPoint {
  uint64_t rows = 0;
  FlushModel::Sample sample;
};

struct RunResult {
  RunSpec spec;
  int key_width = 16;
  std::string table;     // the table definition used, as SQL
  EngineReport report;
  // Wall time of the insert loop; for runs that shared one load (RunMany,
  // sim/shared_tree.h), each one's equal share of it.
  double elapsed_s = 0;
  // With spec.flush:
  FlushModel::Counters flush;
  // Innodb_pages_written by where the pages live (BufferPool::PagesWrittenOf):
  // the table's tablespace, the undo logs with their rollback segment
  // headers, the statistics tables (mysql.innodb_table_stats and
  // innodb_index_stats, with their transactions' undo pages), MariaDB's
  // temporary tablespace (its 131 pages dirtied at startup); the rest (a
  // rebuilt table's old tablespace) is Innodb_pages_written less these.
  struct PagesWrittenBySpace {
    uint64_t table = 0;
    uint64_t undo = 0;
    uint64_t statistics_tables = 0;
    uint64_t temporary = 0;
    uint64_t Sum() const { return table + undo + statistics_tables + temporary; }
  };
  PagesWrittenBySpace pages_written_by_space;
  // The statistics recalculation (model/dict_stats.h): zeros when
  // innodb_stats_auto_recalc or the table's options leave none; unset
  // without spec.flush.
  std::optional<DictStats::Counters> dict_stats;
  std::vector<ServerSettings::Row> settings_used;  // ServerSettings::Describe()
  std::vector<std::string> warnings;  // e.g. unknown variables
  std::vector<SeriesPoint> series;
  // Secondary entries that tied with an existing one after the compact
  // encoding of entries past 32 bytes (sim/secondary_keys.h) and were not
  // inserted.
  uint64_t secondary_ties = 0;
  // DATA_LENGTH of the same rows appended in key order: Run() simulates,
  // after the run itself, the same table, row count, page size, profile and
  // settings with an ascending stream of the same key width
  // (OrderedStreamName), structure only. The reference seed 000's "fill
  // factor" divides by (report.h: DataLengthFillSeed000). 0 if not run.
  uint64_t data_length_in_key_order = 0;
  // With spec.phases: every counter after each phase, the first included;
  // report (above) is the last phase's. Empty for a plain run.
  std::vector<PhaseResult> phases;
  // An engine other than InnoDB: its figures under its own names
  // (sim/engine_result.h); report, flush and phases above then stay empty.
  std::shared_ptr<const EngineResult> engine_result;
};

// What a spec runs with: the server's settings (the profile's defaults, then
// spec.settings in order, then --page-size) and the engine profile built
// from them. The one configuration path: run, sweep, experiment, measure
// and bench all come through here. Errors: an unknown profile or variable,
// a bad value, --page-size disagreeing with a --set innodb_page_size, a
// buffer pool larger than this machine's memory. Clamps are in
// server.warnings.
struct RunConfig {
  ServerSettings server;
  EngineProfile profile;
};
absl::StatusOr<RunConfig> ConfigFor(const RunSpec& spec);

// Checks a spec without running it: one-line errors saying how to mend it.
absl::Status ValidateRunSpec(const RunSpec& spec);
// Checks the spec's table as its engine reads it, for the stream's keys
// (autoinc bound to the table's integer width), before any work; a file
// stream's width is known only when it opens, so Run checks those.
absl::Status CheckRunTable(const RunSpec& spec);
// `at_end`, if given, sees the engine's driver once the load is done (after
// the final flush), e.g. to draw its pages.
absl::StatusOr<RunResult> Run(const RunSpec& spec, const std::function<void(const EngineDriver&)>& at_end = nullptr);
// The same for a run of an InnoDB profile, whose `at_end` sees the InnoDB
// engine itself (its tablespace, buffer pool, trees); a run of another
// engine is refused.
absl::StatusOr<RunResult> Run(const RunSpec& spec, const std::function<void(const Engine&)>& at_end);
// The ascending stream of keys `key_width` bytes wide that stands for "the
// same rows appended in key order": uuidv7-counter (seed 000's UUIDv7 with
// a monotonic counter, strictly ascending at any rate) for 16-byte keys,
// autoinc for integer keys of 1-8 bytes.
const char* OrderedStreamName(int key_width);

// The key stream of insert phase spec.phases[n] (before BindStreamToTable):
// the run's stream options with the phase's stream name, the run's seed plus
// n + 1, a clock that goes on in the millisecond after the last of
// `rows_before` rows, and `autoinc_rows`
// (the rows of autoinc phases before it) as the AUTO_INCREMENT counter's
// start. What Run() inserts in that phase; a server test loads the same keys.
StreamSpec PhaseStreamSpec(const RunSpec& spec, size_t n, uint64_t rows_before, uint64_t autoinc_rows);
// The rows a run inserts: spec.rows and those of its insert phases (what
// its progress counts towards).
uint64_t RowsToInsert(const RunSpec& spec);
// Runs every spec, `threads` at a time (0 = all cores). With `ended_s`,
// (*ended_s)[i] is the wall time from the call until spec i's run ended
// (timing only, as elapsed_s). Runs that load the same rows into the same
// table share one tree when the engine can (sim/shared_tree.h; each such
// run's elapsed_s is then its share of the shared load's); `share_trees` false runs
// every spec alone. The results are the same either way.
std::vector<absl::StatusOr<RunResult>> RunMany(const std::vector<RunSpec>& specs, int threads = 0,
                                               std::vector<double>* ended_s = nullptr, bool share_trees = true);

// The spec's table (--table) for keys of `key_width` bytes, with the spec's
// payload length (--payload-bytes); errors as ResolveTable's, and
// CheckColumnSources' for spec.columns.
absl::StatusOr<TableSchema> ResolveRunTable(const RunSpec& spec, int key_width,
                                            const ServerSettings* settings = nullptr);

// CREATE TABLE text of a TableDef.
std::string TableSql(const TableDef& t);

}  // namespace innosim

#endif  // INNOSIM_SIM_RUNNER_H_
