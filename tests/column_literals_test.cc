// What `measure` inserts into the other columns of a --table (tools/
// column_literals.h): each literal, stored as the server stores it, is the
// bytes the simulation indexes for that row (SecondaryKeyEncoder).
#include "tools/column_literals.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "model/key.h"
#include "sim/column_values.h"
#include "sim/key_stream.h"
#include "sim/secondary_keys.h"
#include "sim/table_parser.h"

namespace innosim {
namespace {

TableSchema Table(const std::string& sql, int key_width = 16) {
  absl::StatusOr<TableSchema> t = ResolveTable(sql, key_width, TableOptions{});
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

std::vector<ColumnSource> Sources(std::initializer_list<const char*> texts) {
  std::vector<ColumnSource> out;
  for (const char* text : texts) {
    absl::StatusOr<ColumnSource> c = ParseColumnSource(text);
    EXPECT_TRUE(c.ok()) << c.status();
    if (c.ok()) out.push_back(*c);
  }
  return out;
}

// One column per index, each a source the server side writes as a literal.
constexpr char kTable[] =
    "CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY, created_at DATETIME(3) NOT NULL, "
    "ts TIMESTAMP(6) NOT NULL, ms BIGINT NOT NULL, tok BINARY(8) NOT NULL, n INT NOT NULL, "
    "u SMALLINT UNSIGNED NOT NULL, KEY (created_at), KEY (ts), KEY (ms), KEY (tok), KEY (n), KEY (u)) ENGINE=InnoDB";

// The bytes InnoDB stores for `literal` in a column of `kind` (the parts
// this test's literals use).
std::string StoredBytes(const std::string& literal, const ColumnValue& v, uint32_t width) {
  uint8_t out[32] = {};
  int n = 0;
  if (v.kind == ColumnKind::kDatetime) {
    std::string text(absl::StripPrefix(absl::StripSuffix(literal, "'"), "'"));
    absl::Time t;
    std::string err;
    EXPECT_TRUE(absl::ParseTime("%Y-%m-%d %H:%M:%E*S", text, absl::UTCTimeZone(), &t, &err)) << literal << err;
    n = SecondaryKeyEncoder::DatetimeBytes(absl::ToUnixMicros(t), v.fsp, out);
  } else if (v.kind == ColumnKind::kTimestamp) {
    absl::string_view body = literal;
    EXPECT_TRUE(absl::ConsumePrefix(&body, "FROM_UNIXTIME(") && absl::ConsumeSuffix(&body, ")")) << literal;
    const size_t dot = body.find('.');
    int64_t secs = 0, frac = 0;
    EXPECT_TRUE(absl::SimpleAtoi(body.substr(0, dot), &secs) && absl::SimpleAtoi(body.substr(dot + 1), &frac));
    EXPECT_EQ(body.size() - dot - 1, 6u) << literal;
    n = SecondaryKeyEncoder::TimestampBytes(secs * 1000000 + frac, v.fsp, out);
  } else if (v.kind == ColumnKind::kBinary) {
    absl::string_view body = literal;
    EXPECT_TRUE(absl::ConsumePrefix(&body, "X'") && absl::ConsumeSuffix(&body, "'")) << literal;
    EXPECT_EQ(body.size(), 2 * width) << literal;
    for (uint32_t i = 0; i < width; ++i) {
      uint32_t b = 0;
      EXPECT_TRUE(absl::SimpleHexAtoi(body.substr(2 * i, 2), &b)) << literal;
      out[i] = static_cast<uint8_t>(b);
    }
    n = static_cast<int>(width);
  } else {
    int64_t value = 0;
    EXPECT_TRUE(absl::SimpleAtoi(literal, &value)) << literal;
    // Big-endian, the sign bit flipped for a signed type.
    uint64_t bits = static_cast<uint64_t>(value);
    if (!v.is_unsigned) bits ^= uint64_t{1} << (8 * width - 1);
    for (uint32_t i = 0; i < width; ++i) out[i] = static_cast<uint8_t>(bits >> (8 * (width - 1 - i)));
    n = static_cast<int>(width);
  }
  return std::string(reinterpret_cast<const char*>(out), static_cast<size_t>(n));
}

void ExpectLiteralsAreTheEncodedBytes(const std::vector<ColumnSource>& sources, uint64_t rows_per_ms) {
  const TableSchema schema = Table(kTable);
  const uint64_t start_ms = StreamSpec{}.start_ms;
  absl::StatusOr<ColumnLiterals> lit = ColumnLiterals::Make(schema, sources, start_ms, rows_per_ms);
  ASSERT_TRUE(lit.ok()) << lit.status();
  Key pk = Key::FromBytes(reinterpret_cast<const uint8_t*>("0123456789abcdef"), 16);
  for (size_t ix = 0; ix < schema.def.secondary.size(); ++ix) {
    // The run's own rate (100,000 rows/s) applies only to plain `time`,
    // which measure leaves to the server's clock.
    SecondaryKeyEncoder enc(schema, ix, start_ms, 100000, sources, rows_per_ms);
    ASSERT_TRUE(enc.exact());
    const uint32_t c = schema.def.secondary[ix].columns[0];
    SCOPED_TRACE(schema.def.columns[c].name);
    for (uint64_t row = 0; row < 200000; row += 997) {
      std::string literal;
      lit->Append(c, row, "X'00'", &literal);
      const std::string stored = StoredBytes(literal, schema.values[c], schema.def.columns[c].stored_bytes);
      uint8_t key[Key::kMaxBytes];
      enc.Encode(row, pk).ToBytes(key, Key::kMaxBytes);
      ASSERT_EQ(stored, std::string(reinterpret_cast<const char*>(key), stored.size()))
          << "row " << row << ": " << literal;
    }
  }
}

TEST(ColumnLiteralsTest, OwnRateTimesAndRandomValuesAreTheSimulatedBytes) {
  ExpectLiteralsAreTheEncodedBytes(Sources({"created_at=time:100000", "ts=time:3333", "ms=time:250", "tok=random",
                                            "n=random", "u=random"}),
                                   482);
}

TEST(ColumnLiteralsTest, KeyTimesAreTheSimulatedBytes) {
  ExpectLiteralsAreTheEncodedBytes(Sources({"created_at=key-time", "ts=key-time", "ms=key-time", "n=rownum",
                                            "u=rownum", "tok=const"}),
                                   7);
}

TEST(ColumnLiteralsTest, PlainTimeIsTheServersClockAndTheRestTheirDefaults) {
  const TableSchema schema = Table(
      "CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY, created_at DATETIME(3) NOT NULL, ms BIGINT NOT NULL, "
      "payload VARCHAR(20) NOT NULL, other BINARY(16) NOT NULL) ENGINE=InnoDB");
  absl::StatusOr<ColumnLiterals> lit =
      ColumnLiterals::Make(schema, Sources({"ms=time", "other=pk"}), StreamSpec{}.start_ms, 1);
  ASSERT_TRUE(lit.ok()) << lit.status();
  const std::string want[] = {"", "SYSDATE(3)", "FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000)", "REPEAT('x',20)",
                              "X'0f'"};
  for (uint32_t c = 1; c < 5; ++c) {
    std::string literal;
    lit->Append(c, 41, "X'0f'", &literal);
    EXPECT_EQ(literal, want[c]) << schema.def.columns[c].name;
  }
  // An integer column's default is the row number.
  const TableSchema ints =
      Table("CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY, n BIGINT NOT NULL) ENGINE=InnoDB");
  absl::StatusOr<ColumnLiterals> rownum = ColumnLiterals::Make(ints, {}, StreamSpec{}.start_ms, 1);
  ASSERT_TRUE(rownum.ok());
  std::string literal;
  rownum->Append(1, 41, "", &literal);
  EXPECT_EQ(literal, "42");
}

TEST(ColumnLiteralsTest, AStreamColumnIsRefusedInOneLine) {
  const TableSchema schema = Table(
      "CREATE TABLE child (id BIGINT NOT NULL PRIMARY KEY, parent_id BINARY(16) NOT NULL, KEY (parent_id)) "
      "ENGINE=InnoDB",
      8);
  absl::StatusOr<ColumnLiterals> lit =
      ColumnLiterals::Make(schema, Sources({"parent_id=stream:uuidv4"}), StreamSpec{}.start_ms, 1);
  ASSERT_FALSE(lit.ok());
  EXPECT_EQ(lit.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(lit.status().message(), "--column parent_id=stream:uuidv4")) << lit.status();
  EXPECT_EQ(lit.status().message().find('\n'), absl::string_view::npos);
}

}  // namespace
}  // namespace innosim
