// PgMeasure: the server side of `innosim measure --profile postgresql-*`.
// Loads a key order into a real PostgreSQL, phase by phase, and reads after
// each phase the figures the PostgreSQL model reports, under the server's
// own names.
//
// Contract:
//   - Creates one database of its own (options.database, a name the caller
//     makes unique), CREATE EXTENSION pgstattuple and pg_buffercache in it,
//     runs options.create_sql, sets autovacuum_enabled = false on the table,
//     and DROPs that database at the end, on error and when interrupted()
//     says so (checked between INSERT batches). It touches no other relation;
//     it resets the server's shared statistics (pg_stat_reset_shared of
//     bgwriter, wal, and checkpointer/io where the server has them).
//   - A missing extension is a FailedPrecondition naming it and the
//     CREATE EXTENSION to run; an unreachable server is libpq's one line.
//   - Each insert step is multi-row INSERT ... VALUES of options.batch_rows
//     rows per statement (each its own transaction), keys in the stream's
//     order: heap_insert row by row, the WAL the model writes (COPY would
//     use heap_multi_insert); a checkpoint step is CHECKPOINT.
//   - After each step, before any read that could dirty a block or write
//     WAL: pg_stat_wal and pg_current_wal_insert_lsn() (their change over the
//     step), the pg_buffercache isdirty census of each relation and the
//     block counters; then ANALYZE, count(*), relpages and pgstatindex
//     (tools/pg_load.h PgReadTableStats). The next step's baseline is taken
//     after those reads, so their WAL and block reads count in no step.
//   - Sanity checks (PgSanityCheck) make `valid`; they never fail the call.
//
// Not thread-safe; one call at a time.
#ifndef INNOSIM_TOOLS_PG_MEASURE_H_
#define INNOSIM_TOOLS_PG_MEASURE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/key_stream.h"
#include "tools/pg_connection.h"
#include "tools/pg_load.h"

namespace innosim {

// One column of the table as the INSERTs fill it: the key column takes each
// key's text (PgKeyText); another column `text` (its value as text, the
// same on every row); `by_default` leaves the column out of the INSERT (a sequence fills
// it, e.g. a serial key: the server assigns 1, 2, 3, ... as the model does).
struct PgMeasureColumn {
  std::string name;  // as an SQL identifier (quoted by the loader)
  bool key = false;
  bool by_default = false;
  std::string text;
};

struct PgMeasureStep {
  // kDelete: one DELETE (committed), then VACUUM of the table, as the
  // model's delete phases; kReindex: REINDEX TABLE (the model's optimize).
  enum class Kind { kInsert, kCheckpoint, kDelete, kReindex };
  Kind kind = Kind::kInsert;
  std::string text;            // the phase as --phase names it (the load: insert:STREAM:ROWS)
  KeyStream* stream = nullptr;  // kInsert: its keys
  uint64_t rows = 0;            // kInsert: how many
  // kDelete, one of: every K-th row in key order (every > 0); the rows
  // ranked [floor(n * from_pct / 100), floor(n * to_pct / 100)) in key
  // order of the n rows there (to_pct > 0); else the rows with these keys.
  uint64_t every = 0;
  uint32_t from_pct = 0;
  uint32_t to_pct = 0;
  std::vector<Key> keys;
};

struct PgMeasureOptions {
  // The server; dbname is the database to connect to for CREATE DATABASE
  // (empty: libpq's default, PGDATABASE or the user's name).
  PgConnectionOptions connection;
  std::string database;  // created, loaded and dropped
  std::string create_sql;
  std::string table;  // the table create_sql makes
  std::vector<PgMeasureColumn> columns;
  int key_width = 8;                // 8 bigint, 16 uuid
  bool bigint_sign_flipped = true;  // the streams' integer keys are InnoDB's stored form
  uint64_t batch_rows = 1000;
  std::vector<PgMeasureStep> steps;  // the load first
  // Read with SHOW at the start and again at the end.
  std::vector<std::string> setting_names;
  // Settings the caller passed on the server's command line (-c): checked
  // to have pg_settings.source 'command line'.
  std::vector<std::string> command_line_settings;
  std::function<void(uint64_t rows_done)> progress;
  std::function<bool()> interrupted;
};

// One relation at a step's end: pgstatindex (an index), relpages and
// pg_relation_size (the heap), the dirty-block census.
struct PgRelationFigures {
  std::string name;
  bool index = false;
  PgIndexStats stat;  // an index's pgstatindex (relation_size = pg_relation_size)
  int64_t relpages = 0;
  int64_t pg_relation_size = 0;
  int64_t dirty_blocks = 0;
};

struct PgMeasuredStep {
  std::string text;
  int64_t rows = 0;  // count(*) at its end
  int64_t expected_rows = 0;
  int64_t wal_records = 0, wal_fpi = 0, wal_bytes = 0;  // pg_stat_wal across the step
  int64_t wal_lsn_diff = 0;                             // pg_current_wal_insert_lsn() across it
  std::vector<PgRelationFigures> relations;             // the heap, then the indexes by name
  // Block counters across the step, by the server's names (see PgMeasure).
  std::vector<std::pair<std::string, int64_t>> counters;
  double elapsed_s = 0;
};

struct PgSanityCheck {
  std::string name;
  bool pass = false;
  std::string detail;
};

struct PgMeasureResult {
  std::string version;  // SHOW server_version
  int version_num = 0;  // server_version_num
  std::string target;   // PgConnection::target() of the admin connection
  std::string database;
  bool dropped = false;
  std::vector<std::pair<std::string, std::string>> settings;  // SHOW, at the start
  std::vector<PgMeasuredStep> steps;
  // Each counter summed over the steps.
  std::vector<std::pair<std::string, int64_t>> counters;
  std::vector<PgSanityCheck> sanity;
  bool valid = false;
  std::vector<std::string> notes;
  double load_elapsed_s = 0;  // the first step's INSERTs
};

// kCancelled when interrupted() said so (the database dropped first).
absl::StatusOr<PgMeasureResult> PgMeasure(const PgMeasureOptions& options);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PG_MEASURE_H_
