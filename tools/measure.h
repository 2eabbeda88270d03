// Measure: run one key stream against a real MySQL 8.x / MariaDB 10.6+
// server and read the counters innosim also produces (seed 000, 5.3-5.5).
//
// Procedure (Measure(); in measure.cc one function per step, named by it:
// CheckArguments, CheckServer, PrepareSchema, ReadCountersBefore,
// LoadRowsInMultiRowInserts, WaitForZeroDirtyPages, ReadCountersAfter,
// AnalyzeTable, ReadTableSizes, ReadIndexStats, RunSanityChecks,
// RestoreServerGlobals):
//   1. CREATE DATABASE IF NOT EXISTS; the table is created with
//      COMMENT='innosim-owned'. An existing table of that name is dropped and
//      recreated only if it carries that comment; otherwise it is never
//      touched and Measure() fails (kFailedPrecondition).
//   2. Counters before: the INNODB_METRICS counters of sim/metrics.h's
//      kInnodbCounters (turned on with SET GLOBAL innodb_monitor_enable when
//      off; a counter the server lacks is listed in missing_counters) and its
//      global status values (Innodb_pages_written, Innodb_buffer_pool_reads,
//      Innodb_dblwr_pages_written), and Innodb_rows_inserted (MySQL) or
//      Handler_write (MariaDB 10.6+, which dropped Innodb_rows_inserted).
//   3. Load: multi-row INSERTs of batch_rows rows, one transaction each
//      (autocommit), keys from the stream as X'hex' (BINARY(16)) or as the
//      explicit BIGINT value (autoinc), payload 100 'x', created = row index.
//      With sample_every_s, the counters of a time series are read between
//      INSERTs (ServerSample).
//   4. Wait until Innodb_buffer_pool_pages_dirty is 0. With boost_final_flush
//      the global innodb_io_capacity(_max) are raised and
//      innodb_max_dirty_pages_pct(_lwm) set to 0 for this wait only, then
//      restored: this changes when pages are written, not which.
//   5. Counters after; ANALYZE TABLE; DATA_LENGTH/INDEX_LENGTH from
//      information_schema.TABLES, size/n_leaf_pages of PRIMARY from
//      mysql.innodb_index_stats.
//   6. Sanity checks (settings read back, UUID version nibble of every row,
//      exact COUNT(*), buffer pool reads ~ 0, no doublewrite pages, no other
//      writer); `valid` is true when all pass.
//   7. With MeasureOptions::phases (RunPhases): each phase run as the server
//      runs it (MeasurePhaseStep), then Innodb_buffer_pool_pages_dirty, the
//      counters, ANALYZE TABLE, the sizes and COUNT(*) (MeasureResult::phases).
// With MeasureOptions::writers step 3 runs one thread and connection per
// writer (LoadByWriters).
//
// Errors are Status values with one-line messages (see server_connection.h
// for the code mapping). A failure after the load has started says that the
// table is left in place.
//
// Server state: every global Measure() changes (the final-flush boost of
// step 4, and the INNODB_METRICS counters it turns on in step 2) is put back
// to its value before the run on every way out: success, error, and
// MeasureOptions::interrupted (kCancelled). If putting a value back fails,
// the Status says so and lists the SET GLOBAL statements to run by hand.
//
// Thread-safety: Measure() uses the connection exclusively while it runs.
#ifndef INNOSIM_TOOLS_MEASURE_H_
#define INNOSIM_TOOLS_MEASURE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "sim/column_values.h"
#include "sim/key_stream.h"
#include "sim/metrics.h"
#include "sim/phases.h"
#include "sim/table_parser.h"
#include "tools/server_connection.h"

namespace innosim {

// The global status of read-ahead pages, read beside the counters.
inline constexpr char kReadAheadStatus[] = "Innodb_buffer_pool_read_ahead";
// mysql.innodb_table_stats' n_rows of the table (MeasuredCounters::stats_n_rows).
inline constexpr char kTableStatsNRows[] = "innodb_table_stats.n_rows";
// ... and its last_update, in seconds from the load's start.
inline constexpr char kTableStatsLastUpdate[] = "innodb_table_stats.last_update_s";

// The table comment that marks a table as created (and disposable) by innosim.
inline constexpr char kOwnedTableComment[] = "innosim-owned";

enum class TableKind {
  kUuidBinary16,    // id BINARY(16) NOT NULL PRIMARY KEY
  kAutoincBigint,   // id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY
  kAutoincInt,      // id INT NOT NULL AUTO_INCREMENT PRIMARY KEY (4-byte keys, sim/key_stream.h IntegerKey)
  kUuidChar36,      // id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin: a 16-byte stream's UUID text
  kUuidVarchar36,   // id VARCHAR(36) CHARACTER SET ascii COLLATE ascii_bin: the same
  kBinaryN,         // id BINARY(N) NOT NULL PRIMARY KEY: a fileN: stream's N bytes (N not 4, 8, 16)
};

// The CREATE TABLE statement for `kind` (seed 000's table, marked as owned);
// `key_width` is kBinaryN's N.
std::string CreateTableSql(const std::string& database, const std::string& table, TableKind kind,
                           int key_width = 16);

// Checks a database or table name against MySQL's rules for unquoted
// identifiers: 1-64 characters of [0-9A-Za-z$_], not all digits. `what` names
// the option in the message ("--table"). InvalidArgument with one line that
// says what is allowed.
absl::Status CheckIdentifier(const std::string& what, const std::string& name);

// A table other than seed 000's: what `innosim run --table` simulates
// (seed004 or a CREATE TABLE statement, sim/table_parser.h).
struct MeasureTable {
  // The CREATE TABLE statement as the user (or Seed004TableSql) wrote it;
  // Measure() creates it under MeasureOptions' database and table name,
  // with COMMENT='innosim-owned' appended.
  std::string sql;
  TableSchema schema;  // ResolveTable(sql, key width, options)
};

// `sql` created as `database`.`table` and marked as owned: the name after
// CREATE TABLE [IF NOT EXISTS] is replaced, a trailing ';' dropped and
// COMMENT='innosim-owned' appended as the last table option.
// InvalidArgument when `sql` does not start with CREATE TABLE name.
absl::StatusOr<std::string> OwnedTableSql(const std::string& sql, const std::string& database,
                                          const std::string& table);

// Several writers, each on a connection of its own (measure --writers N):
// writer w inserts rows[w] keys of streams[w] (its own keys, in its own
// order) in multi-row INSERTs of batch_rows rows, one thread per writer,
// all at once. Empty: the keys go in on the measuring connection.
struct WriterKeys {
  std::vector<KeyStream*> streams;  // not owned
  std::vector<uint64_t> rows;       // rows[w] keys of streams[w]; they sum to the insert's rows
};

// One phase after the first load (sim/phases.h; measure --phase), as the
// server runs it:
//   kInsert      rows more rows of `stream` (or of `writers`) through the
//                load's multi-row INSERTs
//   kDeleteEvery DELETE of the K-th, 2K-th, ... row in key order, one
//                statement (one transaction) scanning PRIMARY, then purge
//                waited for (SET GLOBAL innodb_max_purge_lag_wait=0)
//   kOptimize    OPTIMIZE TABLE
//   kCheckpoint  every dirty page written (innodb_max_dirty_pages_pct=0,
//                as step 4's boost, until Innodb_buffer_pool_pages_dirty
//                is 0; then put back)
struct MeasurePhaseStep {
  PhaseSpec phase;
  // kInsert: the phase's keys; kDeletePhase: the keys phase N inserted,
  // made again from the same stream (not owned).
  KeyStream* stream = nullptr;
  uint64_t stream_rows = 0;  // kDeletePhase: how many keys phase N inserted
  WriterKeys writers;        // kInsert with several writers
};

struct MeasureOptions {
  std::string database = "innosim";
  std::string table = "innosim_load";
  // Unset: from the stream's key width (16 -> kUuidBinary16, 8 -> kAutoincBigint, 4 -> kAutoincInt).
  std::optional<TableKind> kind;
  // Set: this table instead of seed 000's (`kind` is then ignored). Row i
  // (0-based) holds what the simulator assumes (sim/secondary_keys.h): the
  // stream's key in the PK column, every other column its source's value
  // (`columns`, else its type's default; tools/column_literals.h):
  // DATETIME/TIMESTAMP(p) columns SYSDATE(p) (seed 004's created_at),
  // other integers i + 1, CHAR and VARCHAR columns 'x' repeated to their
  // stored length (REPEAT('x', 100) for seed 004's payload), other
  // BINARY(n) columns the simulation's pseudo-random bytes.
  std::optional<MeasureTable> spec_table;
  // With spec_table: `--column NAME=SOURCE` (sim/column_values.h; stream:S
  // is refused), and the key stream's clock that time:R and key-time
  // count from (StreamSpec's start_ms and rows_per_ms).
  std::vector<ColumnSource> columns;
  uint64_t start_ms = StreamSpec{}.start_ms;
  uint64_t rows_per_ms = 1;
  // Rows to load; the stream must yield at least this many keys.
  uint64_t rows = 0;
  // Set: the load goes in through one connection per writer (WriterKeys);
  // `stream` is then not read. `connect` opens each writer's connection.
  WriterKeys writers;
  std::function<absl::StatusOr<std::unique_ptr<ServerConnection>>()> connect;
  // Run after the first load and its sanity checks, in order; each is
  // followed by ANALYZE TABLE and read into MeasureResult::phases.
  std::vector<MeasurePhaseStep> phases;
  uint64_t batch_rows = 1000;
  // Autoinc only: true = insert the stream's ids explicitly (same keys as the
  // simulator); false = leave id out and let the server assign it.
  bool autoinc_explicit_ids = true;
  // UUID tables: the version nibble every stored key must carry. Unset = the
  // version of the first key of the stream.
  std::optional<int> uuid_version;
  // False for 16-byte keys that carry no RFC 9562 version nibble where a
  // stored UUID has it (the 7th byte): ULIDs, UUID_TO_BIN(x, 1)'s swapped
  // version 1. The uuid_version check is then not run, and a note says so.
  bool uuid_version_check = true;
  // Called after each committed batch with the rows loaded so far.
  std::function<void(uint64_t rows_done)> progress;
  // Polled between batches, every 100 ms of the flush wait and between the
  // steps; when it returns true Measure() puts the server's globals back and
  // returns kCancelled ("interrupted ..."). Must be cheap (e.g. read a flag
  // a signal handler sets).
  std::function<bool()> interrupted;
  // Step 3's time series: when > 0, the server's counters are read before
  // the first INSERT and then, between INSERTs, each time this many seconds
  // of wall time have passed since the last due sample (MeasureResult::samples).
  double sample_every_s = 0;

  // Step 4: waiting for Innodb_buffer_pool_pages_dirty == 0.
  int flush_timeout_s = 600;
  bool boost_final_flush = true;
  uint64_t final_flush_io_capacity = 20000;

  // Sanity: Innodb_buffer_pool_reads during the run at most this many when
  // the table fits the buffer pool (a cold pool reads a few system pages).
  int64_t max_buffer_pool_reads = 64;
  // Sanity: settings read back and compared (case-insensitive; ON/1 and
  // OFF/0 are equal). Default: seed 000's fixed settings. A variable the
  // server does not have fails its check.
  std::map<std::string, std::string> expected_settings = {
      {"innodb_page_size", "16384"},
      {"innodb_doublewrite", "OFF"},
      {"innodb_flush_log_at_trx_commit", "2"},
      {"innodb_change_buffering", "none"},
      {"innodb_autoinc_lock_mode", "2"},
      {"innodb_flush_method", "O_DIRECT"},
      {"log_bin", "OFF"},
  };
  // Sanity: when set, innodb_buffer_pool_size must equal this many bytes.
  std::optional<uint64_t> expected_buffer_pool_bytes;
};

// Field names are those of `innosim run --json` (deltas for counters).
struct MeasuredCounters {
  // INNODB_METRICS deltas; unset when the server lacks the counter.
  std::optional<int64_t> index_page_splits;
  std::optional<int64_t> index_page_reorg_attempts;
  std::optional<int64_t> index_page_reorg_successful;
  std::optional<int64_t> index_page_merge_attempts;
  std::optional<int64_t> index_page_merge_successful;
  // mysql.innodb_index_stats, PRIMARY, after ANALYZE TABLE.
  int64_t n_leaf_pages = 0;
  int64_t size = 0;
  // information_schema.TABLES after ANALYZE TABLE (bytes).
  int64_t data_length = 0;
  int64_t index_length = 0;
  // Global status deltas from before the load to after the final flush.
  int64_t Innodb_pages_written = 0;
  int64_t Innodb_buffer_pool_reads = 0;
  int64_t Innodb_dblwr_pages_written = 0;
  // INNODB_METRICS deltas from before the load to after the final flush:
  // of the reads, the system pages (rollback segment headers) and the undo
  // log pages; unset when the server lacks the counter.
  std::optional<int64_t> buffer_page_read_system_page;
  std::optional<int64_t> buffer_page_read_undo_log;
  // Of the pages written, the same two types'.
  std::optional<int64_t> buffer_page_written_system_page;
  std::optional<int64_t> buffer_page_written_undo_log;
  // Pages read by read-ahead (linear or random), which are not in
  // Innodb_buffer_pool_reads; unset when the server does not report it.
  std::optional<int64_t> Innodb_buffer_pool_read_ahead;
  // Rows the server wrote during the run, for the "no other writer" check:
  // the delta of Innodb_rows_inserted (MySQL) or, where that is missing
  // (MariaDB 10.6+), of Handler_write. rows_inserted_counter names which;
  // the JSON uses that name as the key.
  int64_t rows_inserted = 0;
  std::string rows_inserted_counter;
  // Rows loaded by this run.
  int64_t rows = 0;
  // Wall time of the load (step 3) and of the wait for zero dirty pages.
  double elapsed_s = 0;
  double flush_wait_s = 0;
  // mysql.innodb_table_stats' row after the final flush, before ANALYZE
  // TABLE: n_rows as the last background recalculation saved it (an
  // estimate from its sample; 0 from CREATE TABLE's save when none ran),
  // and its last_update in whole seconds from the second the load started
  // in, on the server's clock (negative, or 0 with n_rows 0: CREATE
  // TABLE's). Unset without a row (persistent statistics off) and after a
  // phase.
  std::optional<int64_t> stats_n_rows;
  std::optional<double> stats_last_update_s;
};

// The server's counters read during the load (MeasureOptions::sample_every_s),
// in the columns of `innosim run --series` (sim/series_writer.h).
struct ServerSample {
  uint64_t rows = 0;     // rows committed when it was read
  double seconds = 0;    // wall time since the load started
  // Innodb_lsn_current minus its value before the first INSERT, and
  // Innodb_checkpoint_age; unset when the server does not report them in
  // SHOW GLOBAL STATUS (MariaDB 10.x does, MySQL 8.x does not).
  std::optional<int64_t> lsn;
  std::optional<int64_t> checkpoint_age;
  int64_t dirty_pages = 0;        // Innodb_buffer_pool_pages_dirty
  int64_t pages_written = 0;      // Innodb_pages_written since the first INSERT
  int64_t buffer_pool_reads = 0;  // Innodb_buffer_pool_reads since the first INSERT
};

struct SanityCheck {
  std::string name;
  bool pass = false;
  std::string detail;  // why it failed, or what was seen
};

// The server after one phase (MeasureResult::phases).
struct PhaseMeasurement {
  std::string phase;  // PhaseSpec::text ("insert:S:N" for the first load)
  // INNODB_METRICS and global status counters: deltas over this phase
  // (the first load's: MeasureResult::measured's, its final flush
  // included); n_leaf_pages, size, data_length, index_length: after the
  // phase's ANALYZE TABLE; rows: the rows this phase inserted.
  MeasuredCounters measured;
  int64_t table_rows = 0;   // SELECT COUNT(*) after the phase
  // Innodb_buffer_pool_pages_dirty at the phase's end, before anything else
  // ran (the first load's: before its final flush).
  int64_t dirty_pages = 0;
};

struct MeasureResult {
  std::string version;                          // SELECT VERSION()
  std::map<std::string, std::string> variables;  // see kSimulationVariables
  std::string datadir;                          // SELECT @@datadir
  std::string database;
  std::string table;
  MeasuredCounters measured;
  std::vector<std::string> missing_counters;  // INNODB_METRICS names absent
  std::vector<SanityCheck> sanity;
  bool valid = false;
  std::vector<std::string> notes;  // e.g. flush boost not applied
  // Step 3's samples, oldest first (empty unless sample_every_s > 0); rows
  // increase strictly from 0.
  std::vector<ServerSample> samples;
  // With MeasureOptions::phases: the first load, then each phase.
  std::vector<PhaseMeasurement> phases;
  // With MeasureOptions::writers: the connections the load used.
  int connections = 1;
};

// Server variables a simulation needs (those the server lacks are omitted
// from MeasureResult::variables).
inline constexpr const char* kSimulationVariables[] = {
    "innodb_page_size",          "innodb_buffer_pool_size",
    "innodb_redo_log_capacity",  "innodb_log_file_size",
    "innodb_io_capacity",        "innodb_io_capacity_max",
    "innodb_doublewrite",        "innodb_flush_neighbors",
    "innodb_max_dirty_pages_pct", "innodb_max_dirty_pages_pct_lwm",
    "innodb_adaptive_flushing_lwm", "innodb_flushing_avg_loops",
    "innodb_lru_scan_depth",     "innodb_fill_factor",
    "innodb_segment_reserve_factor",
    // The statistics recalculation (model/dict_stats.h): a --set of the
    // private server's reaches the simulation through these.
    "innodb_stats_persistent",   "innodb_stats_auto_recalc",
    "innodb_stats_persistent_sample_pages",
    // The default character set and collation of a table that names none
    // (a text key's length: sim/table_parser.h).
    "character_set_server",      "collation_server",
};

// Runs the procedure above. `stream` is consumed from its current position.
absl::StatusOr<MeasureResult> Measure(ServerConnection& conn, KeyStream& stream,
                                      const MeasureOptions& options);

// MariaDB's answer to "is this data directory on rotational storage"
// (fil_node_t::find_metadata -> fil_system.is_ssd(st_dev), which reads
// /sys/block/<disk>/queue/rotational): a device counts as non-rotational
// only when the kernel reports 0 for it (or for the disk a partition
// belongs to); anything else, a device without the file included, counts
// as rotational. *origin names what was read. Unset when `datadir` cannot
// be stat()ed here (a remote server), or is empty.
std::optional<bool> DatadirRotational(const std::string& datadir, std::string* origin);

// Writer w's own keys of the interleaved stream `spec` makes (sim/writers.h:
// the same generators, seeds and clocks as MakeKeyStream's), and how many of
// the first `rows` interleaved keys each writer made: the keys a writer
// inserts on its own connection. autoinc (the server's counter, the same
// keys whoever inserts) is dealt round-robin. InvalidArgument for a spec
// without writers or a stream that ends early.
struct WriterSplit {
  std::vector<std::unique_ptr<KeyStream>> streams;
  std::vector<uint64_t> rows;
  WriterKeys keys() const;
};
absl::StatusOr<WriterSplit> SplitByWriter(const StreamSpec& spec, uint64_t rows);

// Reads VERSION(), kSimulationVariables and @@datadir only (no table, no load).
absl::Status ReadServerInfo(ServerConnection& conn, MeasureResult* result);

// {"server": {"version", "variables", "datadir"},
//  "measured": {index_page_splits, ..., rows, elapsed_s, flush_wait_s},
//  "missing_counters": [...], "sanity": {name: "pass" | "fail: detail"},
//  "valid": bool, "notes": [...]}
nlohmann::json MeasureResultToJson(const MeasureResult& result);

// The value MeasureResultToJson reports under counter.name in "measured";
// unset where it reports none (a counter the server lacks, data_free).
std::optional<int64_t> MeasuredCounter(const MeasuredCounters& measured, const InnodbCounter& counter);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_MEASURE_H_
