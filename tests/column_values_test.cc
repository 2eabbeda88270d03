// What the non-key columns hold (--column NAME=SOURCE): parsing, the checks
// against the table, the encoder's bytes and what a run does with them.
#include "sim/column_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model/key.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/secondary_keys.h"
#include "sim/table_parser.h"

namespace innosim {
namespace {

ColumnSource Parsed(const std::string& text) {
  absl::StatusOr<ColumnSource> c = ParseColumnSource(text);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : ColumnSource{};
}

TableSchema Table(const std::string& sql, int key_width) {
  absl::StatusOr<TableSchema> t = ResolveTable(sql, key_width, TableOptions{});
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

// A child table of seed 002's kind: its own BIGINT key, an indexed parent id.
constexpr char kChild[] =
    "CREATE TABLE child (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, parent_id BINARY(16) NOT NULL, "
    "note VARCHAR(100) NOT NULL, KEY idx_parent (parent_id)) ENGINE=InnoDB";

TEST(ColumnSourceTest, ParsesEverySource) {
  EXPECT_EQ(Parsed("created_at=time").source, ValueSource::kRowTime);
  EXPECT_EQ(Parsed("created_at=time").rows_per_sec, 0);
  const ColumnSource own = Parsed("created_at=time:1500.5");
  EXPECT_EQ(own.source, ValueSource::kRowTime);
  EXPECT_EQ(own.rows_per_sec, 1500.5);
  EXPECT_EQ(Parsed("c=key-time").source, ValueSource::kKeyTime);
  EXPECT_EQ(Parsed("c=rownum").source, ValueSource::kRowNumber);
  EXPECT_EQ(Parsed("c=const").source, ValueSource::kConstant);
  EXPECT_EQ(Parsed("c=random").source, ValueSource::kRandom);
  EXPECT_EQ(Parsed("c=pk").source, ValueSource::kPrimaryKey);
  const ColumnSource s = Parsed("parent_id=stream:uuidv7-counter@7");
  EXPECT_EQ(s.source, ValueSource::kStream);
  EXPECT_EQ(s.stream, "uuidv7-counter");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(Parsed("parent_id=stream:uuidv4").seed, 1u);
}

TEST(ColumnSourceTest, TextRoundTrips) {
  for (const char* text :
       {"time", "time:1000", "key-time", "rownum", "const", "random", "pk", "stream:uuidv4", "stream:snowflake@3"}) {
    const ColumnSource c = Parsed(absl::StrCat("x=", text));
    EXPECT_EQ(ColumnSourceText(c), text);
  }
}

TEST(ColumnSourceTest, RefusesBadText) {
  auto message = [](const std::string& text) {
    absl::StatusOr<ColumnSource> c = ParseColumnSource(text);
    EXPECT_FALSE(c.ok()) << text;
    return c.ok() ? std::string() : std::string(c.status().message());
  };
  EXPECT_NE(message("created_at").find("write NAME=SOURCE"), std::string::npos);
  EXPECT_NE(message("=time").find("write NAME=SOURCE"), std::string::npos);
  EXPECT_NE(message("c=tme").find("did you mean 'time'"), std::string::npos);
  EXPECT_NE(message("c=time:0").find("positive number"), std::string::npos);
  EXPECT_NE(message("c=time:abc").find("positive number"), std::string::npos);
  EXPECT_NE(message("c=stream:uuidv8").find("unknown stream"), std::string::npos);
  EXPECT_NE(message("c=stream:uuidv4@-1").find("whole number"), std::string::npos);
}

TEST(ColumnSourceTest, ChecksAgainstTheTable) {
  const TableSchema seed004 = Table("seed004", 16);
  const TableSchema child = Table(kChild, 8);
  auto check = [](const TableSchema& t, const std::string& text) { return CheckColumnSources(t, {Parsed(text)}); };
  EXPECT_TRUE(check(seed004, "created_at=time:100").ok());
  EXPECT_TRUE(check(seed004, "CREATED_AT=key-time").ok());  // column names ignore case, as MySQL's
  EXPECT_TRUE(check(seed004, "payload=const").ok());
  EXPECT_TRUE(check(child, "parent_id=stream:uuidv7-counter").ok());
  EXPECT_TRUE(check(child, "parent_id=random").ok());

  const absl::Status unknown = check(seed004, "created=time");
  EXPECT_NE(unknown.message().find("did you mean 'created_at'"), std::string::npos) << unknown;
  EXPECT_NE(check(seed004, "id=rownum").message().find("primary key"), std::string::npos);
  EXPECT_NE(check(seed004, "payload=time").message().find("DATETIME, TIMESTAMP or BIGINT"), std::string::npos);
  EXPECT_NE(check(seed004, "created_at=rownum").message().find("integer"), std::string::npos);
  EXPECT_NE(check(seed004, "created_at=pk").message().find("primary key's type"), std::string::npos);
  EXPECT_NE(check(child, "parent_id=stream:autoinc").message().find("8-byte keys"), std::string::npos);
  EXPECT_NE(check(child, "parent_id=pk").message().find("BIGINT"), std::string::npos);
  const absl::Status twice = CheckColumnSources(seed004, {Parsed("created_at=time"), Parsed("created_at=const")});
  EXPECT_NE(twice.message().find("twice"), std::string::npos);
}

TEST(ColumnSourceTest, DefaultsFollowTheType) {
  const TableSchema child = Table(kChild, 8);
  EXPECT_EQ(SourceOf(child, 1, {}), ValueSource::kRandom);
  EXPECT_EQ(SourceOf(child, 2, {}), ValueSource::kConstant);
  EXPECT_EQ(SourceOf(Table("seed004", 8), 1, {}), ValueSource::kRowTime);
  EXPECT_EQ(SourceOf(child, 1, {Parsed("parent_id=stream:uuidv4")}), ValueSource::kStream);
}

// seed 004 with a BIGINT key: DATETIME(3) + the 8-byte PK fit in 16 bytes,
// so entries are the column's exact bytes.
TEST(SecondaryEncoderSourceTest, OwnRateTimeDoesNotMoveWithRowsPerSec) {
  const TableSchema t = Table("seed004", 8);
  const Key pk = Key::FromU64(42);
  const uint64_t start = 1767225600000;
  const SecondaryKeyEncoder fast(t, 0, start, 100000), slow(t, 0, start, 1000);
  EXPECT_NE(fast.Encode(5000, pk), slow.Encode(5000, pk)) << "the default time follows --rows-per-sec";
  const std::vector<ColumnSource> own = {Parsed("created_at=time:2000")};
  const SecondaryKeyEncoder fast_own(t, 0, start, 100000, own), slow_own(t, 0, start, 1000, own);
  EXPECT_EQ(fast_own.Encode(5000, pk), slow_own.Encode(5000, pk));
  // ... and equals the default clock run at that rate.
  const SecondaryKeyEncoder at_rate(t, 0, start, 2000);
  EXPECT_EQ(fast_own.Encode(5000, pk), at_rate.Encode(5000, pk));
}

TEST(SecondaryEncoderSourceTest, KeyTimeIsTheStreamClock) {
  const TableSchema t = Table("seed004", 8);
  const uint64_t start = 1767225600000;
  const std::vector<ColumnSource> src = {Parsed("created_at=key-time")};
  const SecondaryKeyEncoder e(t, 0, start, 100000, src, /*rows_per_ms=*/10);
  // DATETIME(3) stores whole ms: rows 0-9 share the first ms, row 10 the next.
  uint8_t ms0[8], ms1[8];
  ASSERT_EQ(SecondaryKeyEncoder::DatetimeBytes(static_cast<int64_t>(start) * 1000, 3, ms0), 7);
  SecondaryKeyEncoder::DatetimeBytes(static_cast<int64_t>(start + 1) * 1000, 3, ms1);
  const Key pk = Key::FromU64(1);
  uint8_t got[16];
  e.Encode(9, pk).ToBytes(got, 16);
  EXPECT_EQ(std::memcmp(got, ms0, 7), 0);
  e.Encode(10, pk).ToBytes(got, 16);
  EXPECT_EQ(std::memcmp(got, ms1, 7), 0);
}

// The encoder computes a DATETIME's date and time of day once per second
// of the run; every row still carries DatetimeBytes' bytes of its own time,
// across seconds, midnight and a year's end, and when rows come out of order.
TEST(SecondaryEncoderSourceTest, DatetimeBytesOfEveryRowAcrossSecondsAndDays) {
  const TableSchema t = Table("seed004", 8);
  const uint64_t start = 1767225599000 - 1500;  // 2025-12-31 23:59:57.500 UTC
  const double rows_per_sec = 700;
  const SecondaryKeyEncoder e(t, 0, start, rows_per_sec);
  const Key pk = Key::FromU64(7);
  std::vector<uint64_t> rows;
  for (uint64_t row = 0; row < 5000; ++row) rows.push_back(row);
  for (uint64_t row : {4000, 3, 2100, 0, 2099}) rows.push_back(row);  // out of order
  for (const uint64_t row : rows) {
    const int64_t us = static_cast<int64_t>(start) * 1000 +
                       static_cast<int64_t>(std::floor(static_cast<double>(row) * (1e6 / rows_per_sec)));
    uint8_t want[8], got[16];
    ASSERT_EQ(SecondaryKeyEncoder::DatetimeBytes(us - us % 1000, 3, want), 7);
    e.Encode(row, pk).ToBytes(got, 16);
    ASSERT_EQ(std::memcmp(got, want, 7), 0) << "row " << row;
  }
}

TEST(SecondaryEncoderSourceTest, StreamColumnTakesTheStreamsKeysInOrder) {
  const TableSchema t = Table(kChild, 8);
  const std::vector<ColumnSource> src = {Parsed("parent_id=stream:uuidv7-counter")};
  const SecondaryKeyEncoder e(t, 0, 1767225600000, 100000, src, 482);
  StreamSpec parent_spec;
  parent_spec.name = "uuidv7-counter";
  parent_spec.rows_per_ms = 482;
  absl::StatusOr<std::unique_ptr<KeyStream>> parent = MakeKeyStream(parent_spec);
  ASSERT_TRUE(parent.ok());
  for (uint64_t row = 0; row < 2000; ++row) {
    Key want;
    (*parent)->Next(&want);
    uint8_t a[16], b[16];
    e.Encode(row, Key::FromU64(row + 1)).ToBytes(a, 16);
    want.ToBytes(b, 16);
    // The entry is parent_id (16 bytes), then the PK.
    ASSERT_EQ(std::memcmp(a, b, 16), 0) << "row " << row;
  }
}

RunSpec ChildRun(const std::vector<ColumnSource>& columns) {
  RunSpec spec;
  spec.stream.name = "autoinc";
  spec.rows = 60000;
  spec.flush = false;
  spec.table = kChild;
  spec.columns = columns;
  return spec;
}

// Seed 002's child table: parent ids from an ordered parent stream fill the
// index's pages by right splits; random ones split them at the middle.
TEST(ColumnSourceRunTest, OrderedParentIdsFillTheSecondaryIndex) {
  absl::StatusOr<RunResult> ordered = innosim::Run(ChildRun({Parsed("parent_id=stream:uuidv7-counter")}));
  absl::StatusOr<RunResult> random = innosim::Run(ChildRun({Parsed("parent_id=stream:uuidv4")}));
  ASSERT_TRUE(ordered.ok()) << ordered.status();
  ASSERT_TRUE(random.ok()) << random.status();
  const IndexReport& o = ordered->report.secondary.at(0);
  const IndexReport& r = random->report.secondary.at(0);
  EXPECT_GT(o.leaf_fill, 0.9);
  EXPECT_LT(r.leaf_fill, 0.85);
  EXPECT_LT(o.n_leaf_pages, r.n_leaf_pages);
  EXPECT_GT(o.counters.splits_to_right, o.counters.splits_middle);
  EXPECT_GT(r.counters.splits_middle, r.counters.splits_to_right);
  // The clustered index does not depend on the secondary column's values.
  EXPECT_EQ(ordered->report.primary.size, random->report.primary.size);
}

TEST(ColumnSourceRunTest, NamingTheDefaultChangesNothingButTheReportsColumns) {
  RunSpec plain;
  plain.stream.name = "uuidv7-random";
  plain.rows = 30000;
  plain.table = "seed004";
  RunSpec named = plain;
  named.columns = {Parsed("created_at=time"), Parsed("payload=const")};
  absl::StatusOr<RunResult> a = innosim::Run(plain), b = innosim::Run(named);
  ASSERT_TRUE(a.ok() && b.ok());
  nlohmann::ordered_json ja = RunToJson(*a), jb = RunToJson(*b);
  EXPECT_FALSE(ja.contains("columns"));
  EXPECT_EQ(jb["columns"]["created_at"], "time");
  for (nlohmann::ordered_json* j : {&ja, &jb}) {
    j->erase("columns");
    j->erase("elapsed_s");
    j->erase("model_bytes");
  }
  EXPECT_EQ(ja.dump(), jb.dump());
}

TEST(ColumnSourceRunTest, RunRefusesASourceTheTableCannotHold) {
  RunSpec spec = ChildRun({Parsed("note=time")});
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("note"), std::string::npos);
}

}  // namespace
}  // namespace innosim
