// PostgreSQL table parser: the table a postgresql-* run loads, from
// `--table seed000` or `--table 'CREATE TABLE t (...); CREATE INDEX ...'`,
// as the model's PgTableSpec (model/postgres/table.h) with the names
// PostgreSQL gives its indexes.
//
//   PgTableOptions opts;                                   // payload_bytes = 100
//   absl::StatusOr<PgSchema> s = ResolvePgTable("seed000", 8, opts);
//   // s->spec: columns, primary key, secondary indexes (creation order);
//   // s->values[c]: what column c is (sequence-filled, typmod, FK target).
//
// The subset (what the seeds and common schemas use):
//   statements     one CREATE TABLE, then `;`-separated CREATE [UNIQUE] INDEX
//                  [CONCURRENTLY] [[IF NOT EXISTS] name] ON table [USING btree]
//                  (col [ASC], ...) [WITH (fillfactor = N, deduplicate_items
//                  = on|off)]
//   types          bigint/int8, integer/int/int4, smallint/int2,
//                  bigserial/serial8, serial/serial4, smallserial/serial2,
//                  uuid, text, varchar[(n)]/character varying[(n)],
//                  char[(n)]/character[(n)], timestamptz / timestamp [(p)]
//                  with[out] time zone, date, boolean/bool, bytea,
//                  real/float4, double precision/float8
//   column         [CONSTRAINT name] NOT NULL, NULL, PRIMARY KEY, UNIQUE,
//                  DEFAULT <expr> (ignored: rows hold synthetic values),
//                  GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY [(...)],
//                  REFERENCES t [(col)] [ON DELETE|UPDATE action] (no index:
//                  PostgreSQL does not index referencing columns), CHECK
//                  (...) and COLLATE (ignored)
//   table          [CONSTRAINT name] PRIMARY KEY (cols), UNIQUE (cols)
//                  [WITH (...)], FOREIGN KEY (cols) REFERENCES ..., CHECK
//                  (...); WITH (fillfactor = N) (heap, 10..100;
//                  autovacuum_* accepted and ignored)
// Identifiers fold to lower case unless double-quoted and are cut to 63
// bytes (scan.l truncate_identifier). Index names follow indexcmds.c
// ChooseIndexName / ChooseRelationName / makeObjectName: `<table>_pkey`,
// `<table>_<cols>_key` for UNIQUE constraints, `<table>_<cols>_idx` for
// CREATE INDEX without a name, with a number appended to the label when the
// name is taken (by the table, a serial's sequence `<table>_<col>_seq` or an
// earlier index). parse_utilcmd.c transformIndexConstraints creates the
// primary key first, then the UNIQUE constraints in order, dropping one whose
// columns repeat an earlier one's; CREATE INDEX statements follow in order.
// That is the index OID order, which is ExecInsertIndexTuples' order.
// text / varchar store min(payload_bytes, n) bytes ('x' repeated, the
// workload's repeat('x', B)); char(n) stores n. A payload the user gave that
// a varchar(n) or char(n) cannot hold is refused, as the server refuses the
// row ("value too long for type character varying(n)").
// Limits of the model, refused by name: an index key over 32 bytes
// (model/key.h; text keys count their payload), more than 8 key columns,
// more than 64 columns, rows over TOAST_TUPLE_THRESHOLD (TOAST is not
// modelled); and DESC, INCLUDE, WHERE, expressions, other access methods.
// Anything else is an InvalidArgument naming the unsupported part, one line.
//
// Pure functions; no thread-safety concerns.
#ifndef INNOSIM_SIM_PG_TABLE_PARSER_H_
#define INNOSIM_SIM_PG_TABLE_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "model/postgres/table.h"

namespace innosim {

// What a column is beyond its PgColumn (sim/pg_entry_encoder.h picks its
// values from this and the type).
struct PgColumnValue {
  std::string type_name;    // format_type's spelling: "bigint", "character varying(20)", ...
  int32_t typmod = -1;      // n of varchar(n) / char(n), p of timestamp(p); -1: none
  bool sequence = false;    // serial / identity: a sequence fills it (1, 2, 3, ...)
  bool blank_padded = false;  // char(n): stored blank-padded to n (bpchar.c bpchar)
  uint32_t value_bytes = 0;   // text types: the 'x's a row's value holds (char(n): before the padding)
  std::string references;   // REFERENCES target as "p(id)" ("p" when no column named); "" if none
};

struct PgSchema {
  postgres::PgTableSpec spec;        // every secondary index has its name filled in
  std::vector<PgColumnValue> values; // one per spec.columns
  uint32_t pk_key_bytes = 0;         // bytes of the primary key's Key (0: no primary key)
  // The primary key index's name: `<table>_pkey` (PgTable's name for it)
  // unless a CONSTRAINT named it or the table name is over 58 bytes.
  std::string pk_name;
  std::string sql;  // the statements as parsed, normalized (pg_dump-like), for reports
};

struct PgTableOptions {
  // Stored length of text / varchar columns (repeat('x', 100)). The default
  // is cut to a shorter varchar(n); a length the user gave (payload_given)
  // that a column cannot hold is an error.
  uint32_t payload_bytes = 100;
  bool payload_given = false;
};

// Parses one CREATE TABLE and the CREATE INDEX statements after it (no
// primary key check).
absl::StatusOr<PgSchema> ParsePgTable(std::string_view sql, const PgTableOptions& options);

// `arg` is "seed000" (or empty): `CREATE TABLE t (id bigint PRIMARY KEY)`
// for 8-byte keys, `(id uuid PRIMARY KEY)` for 16-byte keys; or SQL as for
// ParsePgTable. The primary key must be one column of `key_width` bytes
// (bigint 8, uuid 16, integer 4, smallint 2): the stream's keys.
absl::StatusOr<PgSchema> ResolvePgTable(std::string_view arg, int key_width, const PgTableOptions& options);

// The SQL of the seed000 table for a key width (8 or 16).
std::string PgSeed000TableSql(int key_width);

}  // namespace innosim

#endif  // INNOSIM_SIM_PG_TABLE_PARSER_H_
