// The SQL literal `measure` inserts into each non-key column of a --table
// row: the value the simulation gives that column (sim/column_values.h's
// sources, as sim/secondary_keys.h encodes them), so that both sides index
// the same values.
//
//   absl::StatusOr<ColumnLiterals> lit = ColumnLiterals::Make(schema, sources, start_ms, rows_per_ms);
//   lit->Append(column, row, pk_literal, &sql);  // e.g. '2026-01-01 00:00:00.012000'
//
// Per source: time without a rate is the server's own clock, SYSDATE(p) at
// insert (the simulation follows it at the load's achieved rate); time:R and
// key-time are the simulation's times as literals (DATETIME 'YYYY-MM-DD
// hh:mm:ss.ffffff' in UTC, TIMESTAMP FROM_UNIXTIME(s.ffffff) - exact unless
// the session's time zone repeats that hour -, BIGINT ms since the epoch);
// rownum i + 1; const 'x' repeated in CHAR / VARCHAR, 1 in integers, the
// run's start in temporal columns, zero bytes in BINARY; random the
// simulation's bytes (an integer: their value as InnoDB stores it back);
// pk the row's key literal. stream:S is refused by Make (one line).
//
// Immutable after Make; Append allocates only into `sql`.
#ifndef INNOSIM_TOOLS_COLUMN_LITERALS_H_
#define INNOSIM_TOOLS_COLUMN_LITERALS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "sim/column_values.h"
#include "sim/table_parser.h"

namespace innosim {

// Appends `n` bytes as lowercase hex digits, as an X'...' literal carries
// them (a key's, a BINARY column's); allocates only into `out`.
void AppendHex(std::string* out, const uint8_t* bytes, size_t n);

class ColumnLiterals {
 public:
  // `start_ms` and `rows_per_ms` are the key stream's clock (StreamSpec):
  // the start of every time source, and key-time's rate.
  static absl::StatusOr<ColumnLiterals> Make(const TableSchema& schema, const std::vector<ColumnSource>& sources,
                                             uint64_t start_ms, uint64_t rows_per_ms);

  // Appends column `column`'s literal for row `row` (0-based, the table's
  // row index); `pk_literal` is the row's primary-key literal.
  void Append(uint32_t column, uint64_t row, absl::string_view pk_literal, std::string* sql) const;

 private:
  struct Column {
    ColumnKind kind = ColumnKind::kChar;
    ValueSource source = ValueSource::kConstant;
    uint32_t width = 0;     // stored bytes
    uint32_t fsp = 0;       // temporal columns
    bool is_unsigned = false;
    double us_per_row = 0;  // time:R; 0 = the server's clock
  };
  void AppendTime(const Column& c, int64_t epoch_us, std::string* sql) const;

  std::vector<Column> columns_;
  int64_t start_us_ = 0;
  uint64_t rows_per_ms_ = 1;
};

}  // namespace innosim

#endif  // INNOSIM_TOOLS_COLUMN_LITERALS_H_
