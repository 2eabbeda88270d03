// Entries of PostgreSQL secondary indexes for synthetic rows
// (sim/pg_entry_encoder.h): key columns only, in the order PostgreSQL's
// btree operator classes give the values, consistent with the model's
// BtKeyColumn widths, and accepted by the nbtree model.
#include "sim/pg_entry_encoder.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "model/postgres/table.h"
#include "sim/key_stream.h"
#include "sim/pg_table_parser.h"

namespace innosim {
namespace {

// 2000-01-01 00:00:00 UTC in ms since the Unix epoch: PostgreSQL's zero.
constexpr uint64_t kPgEpochMs = 946684800000ull;

PgSchema Schema(const std::string& sql, uint32_t payload = 16) {
  PgTableOptions o;
  o.payload_bytes = payload;
  absl::StatusOr<PgSchema> s = ParsePgTable(sql, o);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : PgSchema{};
}

std::vector<ColumnSource> Sources(const std::vector<std::string>& texts) {
  std::vector<ColumnSource> out;
  for (const std::string& t : texts) {
    absl::StatusOr<ColumnSource> c = ParseColumnSource(t);
    EXPECT_TRUE(c.ok()) << c.status();
    if (c.ok()) out.push_back(*c);
  }
  return out;
}

std::string Bytes(const Key& k, size_t n) {
  uint8_t b[Key::kMaxBytes];
  k.ToBytes(b, n);
  return std::string(reinterpret_cast<const char*>(b), n);
}

TEST(PgEntryEncoder, IntegerEntriesOrderAsTheirValuesWithTheSignBitFlipped) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, a bigint, b integer, c smallint);"
                            "CREATE INDEX ON t (a); CREATE INDEX ON t (b); CREATE INDEX ON t (c)");
  const PgEntryEncoder a(s, 0, kPgEpochMs, 1000);
  const PgEntryEncoder b(s, 1, kPgEpochMs, 1000);
  const PgEntryEncoder c(s, 2, kPgEpochMs, 1000);
  EXPECT_EQ(a.key_bytes(), 8u);
  EXPECT_EQ(b.key_bytes(), 4u);
  EXPECT_EQ(c.key_bytes(), 2u);
  // rownum (the default of integers): row 0 holds 1, as int8 0x80..01.
  EXPECT_EQ(Bytes(a.Encode(0, Key{}), 8), std::string("\x80\0\0\0\0\0\0\x01", 8));
  EXPECT_EQ(Bytes(b.Encode(0, Key{}), 4), std::string("\x80\0\0\x01", 4));
  EXPECT_EQ(Bytes(c.Encode(254, Key{}), 2), std::string("\x80\xff", 2));
  for (uint64_t row = 1; row < 5000; ++row) {
    EXPECT_LT(a.Encode(row - 1, Key{}), a.Encode(row, Key{}));
    EXPECT_LT(b.Encode(row - 1, Key{}), b.Encode(row, Key{}));
  }
}

TEST(PgEntryEncoder, EqualValuesGiveEqualKeysAndConstantsAreDuplicates) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, v text, k char(10), f boolean);"
                            "CREATE INDEX ON t (v); CREATE INDEX ON t (k); CREATE INDEX ON t (f)",
                            4);
  const PgEntryEncoder v(s, 0, kPgEpochMs, 1000);
  const PgEntryEncoder k(s, 1, kPgEpochMs, 1000);
  EXPECT_EQ(v.key_bytes(), 4u);
  EXPECT_EQ(Bytes(v.Encode(7, Key::FromU64(7)), 4), "xxxx");
  // char(10) with a 4-byte payload: 'xxxx' blank-padded to 10.
  EXPECT_EQ(k.key_bytes(), 10u);
  EXPECT_EQ(Bytes(k.Encode(3, Key{}), 10), "xxxx      ");
  EXPECT_EQ(v.Encode(0, Key::FromU64(1)), v.Encode(99, Key::FromU64(100)));
  const PgEntryEncoder f(s, 2, kPgEpochMs, 1000);
  EXPECT_EQ(Bytes(f.Encode(5, Key{}), 1), "\x01");
}

TEST(PgEntryEncoder, TimesCountFromThePostgresEpochAndRoundToTheTypmod) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, ts timestamptz, d date, t0 timestamp(0), "
                            "ms bigint); CREATE INDEX ON t (ts); CREATE INDEX ON t (d); CREATE INDEX ON t (t0);"
                            "CREATE INDEX ON t (ms)");
  const std::vector<ColumnSource> src = Sources({"ms=time"});
  ASSERT_TRUE(CheckPgColumnSources(s, src).ok());
  const PgEntryEncoder ts(s, 0, kPgEpochMs, 1000, src);
  const PgEntryEncoder d(s, 1, kPgEpochMs, 1000, src);
  const PgEntryEncoder t0(s, 2, kPgEpochMs, 1000, src);
  const PgEntryEncoder ms(s, 3, kPgEpochMs, 1000, src);
  // Row 0 at 2000-01-01 00:00:00 is timestamp 0 and date 0.
  EXPECT_EQ(Bytes(ts.Encode(0, Key{}), 8), std::string("\x80\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(Bytes(d.Encode(0, Key{}), 4), std::string("\x80\0\0\0", 4));
  // Row 1 at 1000 rows/s is 1000 us later.
  EXPECT_EQ(Bytes(ts.Encode(1, Key{}), 8), std::string("\x80\0\0\0\0\0\x03\xe8", 8));
  // bigint time: ms since the Unix epoch.
  EXPECT_EQ(Bytes(ms.Encode(0, Key{}), 8), Bytes(Key::FromU64(kPgEpochMs ^ (1ull << 63)), 8));
  // timestamp(0) rounds half up: rows 0..499 are second 0, 500..1499 second 1.
  EXPECT_EQ(t0.Encode(0, Key{}), t0.Encode(499, Key{}));
  EXPECT_LT(t0.Encode(499, Key{}), t0.Encode(500, Key{}));
  EXPECT_EQ(t0.Encode(500, Key{}), t0.Encode(1499, Key{}));
  // A day of rows at 1 row/s: the date moves once.
  const PgEntryEncoder slow(s, 1, kPgEpochMs, 1);
  EXPECT_EQ(slow.Encode(86399, Key{}), slow.Encode(0, Key{}));
  EXPECT_LT(slow.Encode(86399, Key{}), slow.Encode(86400, Key{}));
  for (uint64_t row = 1; row < 3000; ++row) EXPECT_LT(ts.Encode(row - 1, Key{}), ts.Encode(row, Key{}));
}

TEST(PgEntryEncoder, AStreamSourceGivesThatStreamsKeys) {
  // Seed 002's child: parent ids from the parent's stream.
  const PgSchema s = Schema("CREATE TABLE c (id uuid PRIMARY KEY, parent_id uuid NOT NULL REFERENCES p (id), "
                            "big_parent bigint); CREATE INDEX ON c (parent_id); CREATE INDEX ON c (big_parent)");
  ASSERT_EQ(s.spec.secondary[0].name, "c_parent_id_idx");
  const std::vector<ColumnSource> src = Sources({"parent_id=stream:uuidv7-counter@3", "big_parent=stream:snowflake"});
  ASSERT_TRUE(CheckPgColumnSources(s, src).ok());
  const uint64_t start = 1700000000000ull;
  const PgEntryEncoder uuid(s, 0, start, 1000, src, 50);
  const PgEntryEncoder big(s, 1, start, 1000, src, 50);
  StreamSpec u;
  u.name = "uuidv7-counter";
  u.seed = 3;
  u.rows_per_ms = 50;
  u.start_ms = start;
  std::unique_ptr<KeyStream> us = *MakeKeyStream(u);
  StreamSpec f = u;
  f.name = "snowflake";
  f.seed = 1;
  std::unique_ptr<KeyStream> fs = *MakeKeyStream(f);
  for (uint64_t row = 0; row < 2000; ++row) {
    Key want_u, want_f;
    ASSERT_TRUE(us->Next(&want_u));
    ASSERT_TRUE(fs->Next(&want_f));
    EXPECT_EQ(uuid.Encode(row, Key{}), want_u) << row;
    // A bigint holds the stream's value: its bytes with the sign bit flipped.
    EXPECT_EQ(big.Encode(row, Key{}), Key::FromU64(want_f.hi ^ (1ull << 63))) << row;
  }
}

TEST(PgEntryEncoder, PkSourceAndMultiColumnEntries) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, a bigint, u uuid, n text);"
                            "CREATE INDEX ON t (a, u); CREATE INDEX ON t (n)",
                            10);
  const std::vector<ColumnSource> src = Sources({"a=pk", "n=rownum"});
  ASSERT_TRUE(CheckPgColumnSources(s, src).ok());
  const PgEntryEncoder au(s, 0, kPgEpochMs, 1000, src);
  EXPECT_EQ(au.key_bytes(), 24u);
  const Key k = au.Encode(41, Key::FromU64(12345));
  EXPECT_EQ(k.hi, 12345 ^ (1ull << 63));  // the pk's value as the int8 column's bytes
  // u: random, version 4 (gen_random_uuid).
  const std::string ub = Bytes(k, 24).substr(8);
  EXPECT_EQ(static_cast<uint8_t>(ub[6]) >> 4, 4);
  EXPECT_EQ(static_cast<uint8_t>(ub[8]) >> 6, 2);
  EXPECT_NE(au.Encode(41, Key::FromU64(12345)), au.Encode(42, Key::FromU64(12345)));
  EXPECT_EQ(au.Encode(41, Key::FromU64(12345)), k);  // deterministic
  const PgEntryEncoder n(s, 1, kPgEpochMs, 1000, src);
  EXPECT_EQ(Bytes(n.Encode(41, Key{}), 10), "0000000042");
}

TEST(PgEntryEncoder, RealRoundsRowNumbersAsTheTypeDoes) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, r real, d double precision);"
                            "CREATE INDEX ON t (r); CREATE INDEX ON t (d)");
  const std::vector<ColumnSource> src = Sources({"r=rownum", "d=rownum"});
  ASSERT_TRUE(CheckPgColumnSources(s, src).ok());
  const PgEntryEncoder r(s, 0, kPgEpochMs, 1000, src);
  const PgEntryEncoder d(s, 1, kPgEpochMs, 1000, src);
  for (uint64_t row = 1; row < 1000; ++row) EXPECT_LT(r.Encode(row - 1, Key{}), r.Encode(row, Key{}));
  // 2^24 + 1 is no float4: it rounds to 2^24 (row 2^24 - 1's value).
  constexpr uint64_t k24 = 1ull << 24;
  EXPECT_EQ(r.Encode(k24, Key{}), r.Encode(k24 - 1, Key{}));
  EXPECT_LT(d.Encode(k24 - 1, Key{}), d.Encode(k24, Key{}));
}

TEST(PgEntryEncoder, KeyWidthsMatchTheModelsIndexAndItAcceptsTheEntries) {
  const PgSchema s = Schema(
      "CREATE TABLE c (id bigint PRIMARY KEY, parent_id uuid NOT NULL, created timestamptz, email varchar(24), "
      "n smallint); CREATE INDEX ON c (parent_id); CREATE INDEX ON c (created, n); "
      "CREATE UNIQUE INDEX ON c (email); CREATE INDEX ON c (n)",
      24);
  const std::vector<ColumnSource> src = Sources({"parent_id=stream:uuidv7-random", "email=random"});
  ASSERT_TRUE(CheckPgColumnSources(s, src).ok());
  postgres::PgTable table(postgres::kPostgresql15, s.spec);
  std::vector<std::unique_ptr<PgEntryEncoder>> enc;
  for (size_t i = 0; i < s.spec.secondary.size(); ++i) {
    enc.push_back(std::make_unique<PgEntryEncoder>(s, i, 1700000000000ull, 1000, src, 10));
    uint32_t model_bytes = 0;
    for (const postgres::BtKeyColumn& k : table.secondary(i).desc().columns) model_bytes += k.key_bytes;
    EXPECT_EQ(enc.back()->key_bytes(), model_bytes) << s.spec.secondary[i].name;
  }
  EXPECT_EQ(table.secondary(1).desc().name, "c_created_n_idx");
  EXPECT_EQ(table.secondary(2).desc().name, "c_email_idx");
  for (uint64_t row = 0; row < 20000; ++row) {
    const Key pk = Key::FromU64((row + 1) ^ (1ull << 63));
    table.InsertRow(pk);
    for (size_t i = 0; i < enc.size(); ++i) table.InsertIndexEntry(i, enc[i]->Encode(row, pk));
    table.EndRow();
  }
  EXPECT_TRUE(table.status().ok()) << table.status();
  EXPECT_EQ(table.Verify(), "");
  // A unique index on a constant column is a unique violation, as on a server.
  const PgSchema dup = Schema("CREATE TABLE t (id bigint PRIMARY KEY, v text); CREATE UNIQUE INDEX ON t (v)", 8);
  postgres::PgTable dt(postgres::kPostgresql15, dup.spec);
  const PgEntryEncoder ve(dup, 0, kPgEpochMs, 1000);
  for (uint64_t row = 0; row < 2; ++row) {
    dt.InsertRow(Key::FromU64(row + 1));
    dt.InsertIndexEntry(0, ve.Encode(row, Key::FromU64(row + 1)));
    dt.EndRow();
  }
  EXPECT_FALSE(dt.status().ok());
}

TEST(PgEntryEncoder, CheckRefusesSourcesAColumnCannotHoldInOneLine) {
  const PgSchema s = Schema("CREATE TABLE t (id bigint PRIMARY KEY, u uuid, b bigint, s text, d date, i int)", 8);
  struct Case {
    std::string source;
    std::string names;
  };
  const std::vector<Case> cases = {
      {"x=const", "no such column"},
      {"id=rownum", "primary key"},
      {"u=time", "uuid column 'u' cannot hold it"},
      {"u=rownum", "row numbers need"},
      {"d=random", "random values need"},
      {"b=stream:uuidv4", "use a uuid column"},
      {"u=stream:snowflake", "use a bigint column"},
      {"i=pk", "primary key's type, bigint"},
      {"s=rownum", "10 or more bytes"},
  };
  for (const Case& c : cases) {
    const absl::Status st = CheckPgColumnSources(s, Sources({c.source}));
    EXPECT_FALSE(st.ok()) << c.source;
    EXPECT_NE(st.message().find(c.names), std::string::npos) << c.source << " -> " << st.message();
    EXPECT_EQ(st.message().find('\n'), std::string::npos);
  }
  EXPECT_FALSE(CheckPgColumnSources(s, Sources({"b=rownum", "B=const"})).ok());  // twice
  EXPECT_TRUE(CheckPgColumnSources(s, Sources({"b=time:500", "u=stream:uuidv4@7", "i=random", "d=key-time"})).ok());
  // Defaults by type.
  EXPECT_EQ(PgSourceOf(s, 1, {}), ValueSource::kRandom);
  EXPECT_EQ(PgSourceOf(s, 2, {}), ValueSource::kRowNumber);
  EXPECT_EQ(PgSourceOf(s, 3, {}), ValueSource::kConstant);
  EXPECT_EQ(PgSourceOf(s, 4, {}), ValueSource::kRowTime);
}

}  // namespace
}  // namespace innosim
