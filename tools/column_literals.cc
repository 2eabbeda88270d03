#include "tools/column_literals.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "sim/secondary_keys.h"

namespace innosim {

void AppendHex(std::string* out, const uint8_t* bytes, size_t n) {
  // In place: absl::BytesToHexString would build a string per key.
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; ++i) {
    out->push_back(kHex[bytes[i] >> 4]);
    out->push_back(kHex[bytes[i] & 15]);
  }
}

absl::StatusOr<ColumnLiterals> ColumnLiterals::Make(const TableSchema& schema,
                                                    const std::vector<ColumnSource>& sources, uint64_t start_ms,
                                                    uint64_t rows_per_ms) {
  ColumnLiterals out;
  out.start_us_ = static_cast<int64_t>(start_ms) * 1000;
  out.rows_per_ms_ = rows_per_ms > 0 ? rows_per_ms : 1;
  for (uint32_t c = 0; c < schema.def.columns.size(); ++c) {
    Column col;
    col.kind = schema.values[c].kind;
    col.fsp = schema.values[c].fsp;
    col.is_unsigned = schema.values[c].is_unsigned;
    col.width = schema.def.columns[c].stored_bytes;
    col.source = SourceOf(schema, c, sources);
    for (const ColumnSource& s : sources) {
      if (!absl::EqualsIgnoreCase(s.column, schema.def.columns[c].name)) continue;
      if (s.source == ValueSource::kStream) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--column ", s.column, "=", ColumnSourceText(s),
            ": measure cannot load a stream's keys into another column yet; use run for this table, or give the "
            "column time:R, key-time, rownum, const, random or pk"));
      }
      // time:R is the simulation's clock, written as literals; plain time
      // is the server's own (us_per_row 0).
      if (s.source == ValueSource::kRowTime && s.rows_per_sec > 0) col.us_per_row = 1e6 / s.rows_per_sec;
    }
    out.columns_.push_back(col);
  }
  return out;
}

void ColumnLiterals::AppendTime(const Column& c, int64_t epoch_us, std::string* sql) const {
  switch (c.kind) {
    case ColumnKind::kInteger:
      absl::StrAppend(sql, epoch_us / 1000);  // ms since the epoch
      return;
    case ColumnKind::kTimestamp: {
      // FROM_UNIXTIME gives the session's local time, which the column
      // stores back as UTC seconds.
      const int64_t secs = epoch_us / 1000000;
      const int64_t frac = epoch_us % 1000000;
      absl::StrAppend(sql, "FROM_UNIXTIME(", secs, ".", absl::Dec(frac, absl::kZeroPad6), ")");
      return;
    }
    default:
      absl::StrAppend(sql, absl::FormatTime("'%Y-%m-%d %H:%M:%E6S'", absl::FromUnixMicros(epoch_us),
                                            absl::UTCTimeZone()));
      return;
  }
}

void ColumnLiterals::Append(uint32_t column, uint64_t row, absl::string_view pk_literal, std::string* sql) const {
  const Column& c = columns_[column];
  const bool is_int = c.kind == ColumnKind::kInteger;
  switch (c.source) {
    case ValueSource::kPrimaryKey:
      sql->append(pk_literal.data(), pk_literal.size());
      return;
    case ValueSource::kRowNumber:
      absl::StrAppend(sql, row + 1);
      return;
    case ValueSource::kRowTime:
      if (c.us_per_row > 0) {
        AppendTime(c, SecondaryKeyEncoder::RowTimeUs(start_us_, c.us_per_row, row, is_int ? 3 : c.fsp), sql);
      } else if (is_int) {
        absl::StrAppend(sql, "FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000)");
      } else {
        absl::StrAppend(sql, "SYSDATE(", c.fsp, ")");
      }
      return;
    case ValueSource::kKeyTime:
      AppendTime(c, SecondaryKeyEncoder::KeyTimeUs(start_us_, rows_per_ms_, row, is_int ? 3 : c.fsp), sql);
      return;
    case ValueSource::kRandom: {
      uint8_t bytes[256];
      const uint32_t n = std::min<uint32_t>(c.width, sizeof(bytes));
      SecondaryKeyEncoder::RandomBytes(row, column, n, bytes);
      if (!is_int) {
        sql->append("X'");
        AppendHex(sql, bytes, n);
        sql->append("'");
        return;
      }
      // The stored bytes back into the value: big-endian, the sign bit
      // flipped back for a signed type (row_mysql_store_col_in_innobase_format).
      uint64_t stored = 0;
      for (uint32_t i = 0; i < n && i < 8; ++i) stored = stored << 8 | bytes[i];
      if (c.is_unsigned || n >= 8) {
        if (c.is_unsigned) {
          absl::StrAppend(sql, stored);
        } else {
          absl::StrAppend(sql, static_cast<int64_t>(stored ^ (uint64_t{1} << 63)));
        }
        return;
      }
      const uint64_t sign = uint64_t{1} << (8 * n - 1);
      const uint64_t bits = stored ^ sign;
      absl::StrAppend(sql, (bits & sign) != 0 ? static_cast<int64_t>(bits) - static_cast<int64_t>(sign << 1)
                                              : static_cast<int64_t>(bits));
      return;
    }
    case ValueSource::kDefault:
    case ValueSource::kConstant:
    case ValueSource::kStream:  // refused by Make
      break;
  }
  switch (c.kind) {
    case ColumnKind::kChar:
    case ColumnKind::kVarchar:
      absl::StrAppend(sql, "REPEAT('x',", c.width, ")");
      return;
    case ColumnKind::kInteger:
      sql->push_back('1');
      return;
    case ColumnKind::kDatetime:
    case ColumnKind::kTimestamp:
      AppendTime(c, SecondaryKeyEncoder::RowTimeUs(start_us_, 0, 0, c.fsp), sql);  // the run's start
      return;
    case ColumnKind::kBinary: {
      sql->append("X'");
      sql->append(2 * c.width, '0');
      sql->append("'");
      return;
    }
  }
}

}  // namespace innosim
