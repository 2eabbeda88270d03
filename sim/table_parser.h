// Table parser: the table a run loads, from `--table seed000`, `--table
// seed004` or `--table 'CREATE TABLE t (...)'`.
//
//   TableOptions opts;                       // payload_bytes = 100
//   absl::StatusOr<TableSchema> t = ResolveTable("seed004", 16, opts);
//   // t->def: the model's TableDef (record sizes come from it);
//   // t->values[c]: what kind of value column c holds in a synthetic row.
//
// The CREATE TABLE subset (what the seeds use):
//   column types   BINARY(n), CHAR(n) [CHARACTER SET|CHARSET cs] [COLLATE c],
//                  VARCHAR(n) [CHARACTER SET cs] (stores min(payload_bytes,
//                  n) bytes, the workload's REPEAT('x', B)), BIGINT, INT /
//                  INTEGER, MEDIUMINT, SMALLINT, TINYINT [(m)] [UNSIGNED],
//                  DATETIME[(p)] (5 + ceil(p/2) bytes), TIMESTAMP[(p)]
//                  (4 + ceil(p/2) bytes), TINYTEXT/TEXT/MEDIUMTEXT/
//                  LONGTEXT [CHARACTER SET cs] and TINYBLOB ... LONGBLOB
//                  (store min(payload_bytes, the type's maximum) bytes)
//   attributes     NOT NULL, NULL, AUTO_INCREMENT, PRIMARY KEY, UNIQUE [KEY],
//                  DEFAULT <value>, ON UPDATE CURRENT_TIMESTAMP[(p)]
//                  (defaults are ignored: every row holds synthetic values)
//   indexes        PRIMARY KEY (col), [UNIQUE] KEY|INDEX [name] (cols),
//                  UNIQUE [KEY|INDEX] [name] (cols)
//   table options  ENGINE=InnoDB, [DEFAULT] CHARSET / CHARACTER SET and
//                  [DEFAULT] COLLATE (the default character set and collation
//                  of the columns), ROW_FORMAT=DYNAMIC|COMPACT; others are
//                  ignored
// Character sets: ascii, latin1 and binary are single-byte (CHAR is fixed
// length); utf8mb4 and utf8mb3/utf8 are multi-byte, and a multi-byte CHAR(n)
// is variable-length in COMPACT/DYNAMIC: it stores n bytes for the
// workload's ASCII content and needs a length byte (docs/innodb-rules.md,
// 'Record sizes'). A column without CHARACTER SET takes the table's, and a table
// without CHARSET the server's default: the profile's (TableOptions::profile).
// Text keys: a CHAR(36) or VARCHAR(36) PRIMARY KEY takes a 16-byte stream's
// keys as their canonical text (TableSchema::pk_text) in ascii, latin1,
// utf8mb3 or utf8mb4 under a collation that orders that text as its bytes
// (the *_bin ones, the servers' defaults and a few more: kTextKeyCollations
// in table_parser.cc, docs/key-streams.md "Text keys"); other lengths and
// collations are refused by name.
// Long values go off-page as InnoDB moves them (model/big_rec.h).
// What the server refuses is refused with the server's message: a VARCHAR
// over 65535 bytes (ER_TOO_BIG_FIELDLENGTH), an index on a TEXT/BLOB
// (ER_BLOB_KEY_WITHOUT_LENGTH), a row buffer over 65535 bytes and a record
// over half a page (ER_TOO_BIG_ROWSIZE, dict_index_too_big_for_tree at
// options.page_size, or a row no off-page choice brings under it), more
// than 1017 columns (ER_TOO_MANY_FIELDS).
// Anything else is an InvalidArgument naming the unsupported part.
//
// Pure functions; no thread-safety concerns.
#ifndef INNOSIM_SIM_TABLE_PARSER_H_
#define INNOSIM_SIM_TABLE_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "model/record_format.h"
#include "sim/key_stream.h"

namespace innosim {

// What a column holds in a synthetic row (sim/secondary_keys.h turns it into
// index bytes).
enum class ColumnKind : uint8_t {
  kBinary,     // BINARY(n): the PK's key bytes, or pseudo-random bytes
  kChar,       // CHAR(n): 'x' repeated (constant)
  kVarchar,    // VARCHAR(n): 'x' repeated (constant)
  kInteger,    // BIGINT/INT/...: the PK's key, or the row number (1, 2, ...)
  kDatetime,   // DATETIME(p): the row's synthetic wall time
  kTimestamp,  // TIMESTAMP(p): the row's synthetic wall time
};

struct ColumnValue {
  ColumnKind kind = ColumnKind::kBinary;
  uint32_t fsp = 0;          // fractional seconds precision (temporal types)
  bool is_unsigned = false;  // integers
};

struct TableSchema {
  TableDef def;
  std::vector<ColumnValue> values;  // one per def.columns
  uint32_t pk_width = 0;            // bytes of the PK column
  // The PK is CHAR(36)/VARCHAR(36) in a collation that orders UUID text as
  // its bytes: it stores the canonical lowercase text of a 16-byte key (36
  // bytes in records and node pointers, plus a length byte where the column
  // is variable-length), which sorts as the 16 bytes do.
  bool pk_text = false;
};

struct TableOptions {
  // Stored length of VARCHAR columns (seed 004: REPEAT('x', 100)). The
  // default is cut to a shorter column's length; a length the user gave
  // (payload_given) that a column cannot hold is an error, as a server in
  // strict mode refuses the row (ER_DATA_TOO_LONG).
  uint32_t payload_bytes = 100;
  bool payload_given = false;
  // The engine profile (sim/runner.h RunSpec::profile): its server's default
  // character set and collations apply where the statement names none
  // (mysql-8.4: utf8mb4 / utf8mb4_0900_ai_ci; mariadb-10.11: latin1 /
  // latin1_swedish_ci, and utf8mb4_general_ci for utf8mb4).
  std::string profile = "mysql-8.4";
  // The server's character_set_server / collation_server when set (a
  // server's variables, --set, a my.cnf): the default of a table that names
  // no character set, instead of the profile's. Empty: the profile's.
  std::string server_charset;
  std::string server_collation;
  // innodb_page_size: what the row-size rules depend on (the server's
  // dict_index_too_big_for_tree at CREATE, dtuple_convert_big_rec at
  // INSERT).
  uint32_t page_size = 16384;
  // False: the statement's syntax and types only, without the server's
  // row-size, key-length and column-count limits (which need the run's
  // page size): for reading a table's key type before the run is known.
  bool server_limits = true;
};

// The collations a text primary key may have on `profile`'s server: those
// under which the canonical UUID text orders as its bytes.
std::vector<std::string> TextKeyCollations(std::string_view profile);

// Parses one CREATE TABLE statement (no PK width check).
absl::StatusOr<TableSchema> ParseCreateTable(std::string_view sql, const TableOptions& options);

// `arg` is "seed000", "seed004" or a CREATE TABLE statement. The PK must be
// one column of `key_width` bytes (the stream's: 16 for UUIDs, 8 for
// autoinc and snowflake, 4 for autoinc into INT, N for fileN:); seed000 and
// seed004 pick BINARY(16) or BIGINT by the width (other widths need a
// CREATE TABLE).
absl::StatusOr<TableSchema> ResolveTable(std::string_view arg, int key_width, const TableOptions& options);

// Fits an autoinc stream to the table's integer PK: a CREATE TABLE whose PK
// is INT, MEDIUMINT, SMALLINT or TINYINT [UNSIGNED] sets
// stream->autoinc_bytes / autoinc_unsigned (sim/key_stream.h); BIGINT,
// seed000, seed004 and other streams are left as they are. Errors: a
// CREATE TABLE that does not parse.
absl::Status BindStreamToTable(std::string_view table, StreamSpec* stream);

// The CREATE TABLE text of seed 004's table for a key width.
std::string Seed004TableSql(int key_width);

}  // namespace innosim

#endif  // INNOSIM_SIM_TABLE_PARSER_H_
