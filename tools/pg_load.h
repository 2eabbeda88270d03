// PgLoad: puts a given key order into a PostgreSQL table and reads back what
// the server made of it (pgstatindex of each index, heap and index sizes):
// the ground truth a PostgreSQL profile of the model is checked against.
//
// PgLoadKeys(server, options, keys):
//   - unless options.append: DROP DATABASE IF EXISTS / CREATE DATABASE
//     options.database, then in it CREATE EXTENSION pgstattuple and run
//     options.create_sql (one or more statements, e.g. "CREATE TABLE c(...);
//     CREATE INDEX ON c(parent_id)"); the database must then hold exactly one
//     ordinary table in schema public, which is the one loaded.
//   - loads `keys` in the order given with COPY <table> (<first column>
//     [, <second column>]) FROM STDIN, options.batch_rows rows per COPY, each
//     COPY its own transaction, so rows arrive in exactly the key order.
//     Columns not named get their defaults (or are generated).
//   - ANALYZE <table> (refreshes pg_class.relpages; changes no page), then
//     reads pgstatindex() for each index of the table, the heap's relpages
//     and pg_relation_size of the heap and of each index.
// A key becomes the first column's text (PgKeyText):
//   width 8:  a bigint. The model's 8-byte integer key is the value itself
//             (Key::FromU64, sim/key_stream.h IntegerKey); with
//             bigint_sign_flipped, the InnoDB stored form (big-endian, sign
//             bit flipped) is decoded instead.
//   width 16: a uuid in its text form (8-4-4-4-12, lowercase hex).
// payload_bytes > 0 fills the second column with that many letters a-z,
// drawn from the key (deterministic; no runs, so pglz leaves it as is).
//
// Errors are one line naming the step (database, statement, COPY batch).
#ifndef INNOSIM_TOOLS_PG_LOAD_H_
#define INNOSIM_TOOLS_PG_LOAD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "model/key.h"
#include "tools/pg_connection.h"

namespace innosim {

struct PgLoadOptions {
  std::string database = "innosim";
  // Run once when the database is made; must create exactly one table.
  std::string create_sql;
  // 8 (bigint) or 16 (uuid).
  int key_width = 8;
  bool bigint_sign_flipped = false;
  // Letters in the second column per row; 0: the key column only.
  uint32_t payload_bytes = 0;
  // Rows per COPY (= per transaction).
  uint32_t batch_rows = 1000;
  // Load into the existing database and table (a later phase): no DROP,
  // CREATE or create_sql.
  bool append = false;
};

// pgstatindex()'s columns (contrib/pgstattuple), under their own names.
struct PgIndexStats {
  std::string name;
  int version = 0;
  int tree_level = 0;
  int64_t index_size = 0;  // bytes, metapage included
  int64_t root_block_no = 0;
  int64_t internal_pages = 0;
  int64_t leaf_pages = 0;
  int64_t empty_pages = 0;
  int64_t deleted_pages = 0;
  double avg_leaf_density = 0;
  double leaf_fragmentation = 0;
  int64_t relation_size = 0;  // pg_relation_size(index), bytes
};

struct PgLoadResult {
  std::string table;
  int64_t rows = 0;             // SELECT count(*) after the load
  int64_t rows_loaded = 0;      // keys sent by this call
  int64_t block_size = 0;       // current_setting('block_size')
  int64_t heap_relpages = 0;    // pg_class.relpages after ANALYZE
  int64_t heap_relation_size = 0;  // pg_relation_size(table), bytes (main fork)
  std::vector<PgIndexStats> indexes;  // ordered by index name
};

// The COPY text of key `k` for a column of `width` bytes (see above).
absl::StatusOr<std::string> PgKeyText(const Key& k, int width, bool bigint_sign_flipped);

// Loads and reads back; `server` names the server and user (its dbname is
// ignored: "postgres" is used to make the database, options.database to
// load it).
absl::StatusOr<PgLoadResult> PgLoadKeys(const PgConnectionOptions& server, const PgLoadOptions& options,
                                        absl::Span<const Key> keys);

// The read-back alone, on an open connection to the database.
absl::StatusOr<PgLoadResult> PgReadTableStats(PgConnection& conn, const std::string& table);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PG_LOAD_H_
