// What a non-key column holds in each synthetic row: `--column NAME=SOURCE`
// (repeatable) or an experiment run's `columns = { NAME = "SOURCE" }`.
//
//   absl::StatusOr<ColumnSource> c = ParseColumnSource("created_at=time:1000");
//   // c->column == "created_at", c->source == ValueSource::kRowTime,
//   // c->rows_per_sec == 1000 (its own clock, not the page cleaner's)
//   absl::Status ok = CheckColumnSources(schema, {*c});
//
// Sources (docs/key-streams.md, "Values of the other columns"):
//   time        the row's wall time, row i at start + i / --rows-per-sec s
//               (what SYSDATE(3) gives a load running at that rate); the
//               default of DATETIME / TIMESTAMP columns
//   time:R      the same at its own rate of R rows per second, so the
//               column's values no longer move with --rows-per-sec (which
//               also clocks the page cleaner)
//   key-time    the key stream's synthetic clock, row i at start_ms +
//               i / --rows-per-ms ms (the ms the time-based streams stamp)
//   rownum      1, 2, 3, ...; the default of integer columns
//   const       one value for every row; the default of CHAR / VARCHAR
//   random      pseudo-random bytes from the row number; the default of a
//               BINARY column other than the PK
//   pk          the row's primary key (a column as wide as the PK)
//   stream:S    the i-th key of generator stream S (seed 1, or S@SEED):
//               seed 002's child table, whose parent id comes from the
//               parent's stream (BINARY(16) for 16-byte streams, BIGINT for
//               autoinc and snowflake)
// Only values that reach an index matter to the model (record sizes come
// from the column types); a source on an unindexed column is accepted and
// has no effect.
//
// Pure functions; no thread-safety concerns.
#ifndef INNOSIM_SIM_COLUMN_VALUES_H_
#define INNOSIM_SIM_COLUMN_VALUES_H_

#include <cstdint>
#include <string>

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/table_parser.h"

namespace innosim {

enum class ValueSource : uint8_t {
  kDefault,  // by the column's type (see above)
  kRowTime,
  kKeyTime,
  kRowNumber,
  kConstant,
  kRandom,
  kPrimaryKey,
  kStream,
};

struct ColumnSource {
  std::string column;
  ValueSource source = ValueSource::kDefault;
  double rows_per_sec = 0;  // kRowTime: its own clock; 0 = the run's --rows-per-sec
  std::string stream;       // kStream: a generator stream name
  uint64_t seed = 1;        // kStream
  friend bool operator==(const ColumnSource&, const ColumnSource&) = default;
};

// "NAME=SOURCE"; a one-line error naming the sources otherwise.
absl::StatusOr<ColumnSource> ParseColumnSource(absl::string_view text);
// The SOURCE part as ParseColumnSource reads it (e.g. "time:1000").
std::string ColumnSourceText(const ColumnSource& c);

// Each source names a column of the table other than the PK, at most once,
// and the column can hold it: time sources need DATETIME, TIMESTAMP or
// BIGINT (ms since the epoch); rownum an integer; random BINARY or an
// integer; pk a column of the PK's type and width; stream:S a column of S's
// key width (BINARY(16), or BIGINT for 8-byte streams).
absl::Status CheckColumnSources(const TableSchema& schema, const std::vector<ColumnSource>& sources);

// The source column `column` of `schema` takes: its entry in `sources`, or
// the default for its type (never kDefault).
ValueSource SourceOf(const TableSchema& schema, uint32_t column, const std::vector<ColumnSource>& sources);

}  // namespace innosim

#endif  // INNOSIM_SIM_COLUMN_VALUES_H_
