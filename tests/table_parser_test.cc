// The table a run loads (sim/table_parser.h) and the secondary-index keys
// of its rows (sim/secondary_keys.h).
#include "sim/table_parser.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"
#include "model/record_format.h"
#include "sim/secondary_keys.h"

namespace innosim {
namespace {

TableSchema MustParse(const std::string& sql, uint32_t payload = 100) {
  TableOptions o;
  o.payload_bytes = payload;
  absl::StatusOr<TableSchema> t = ParseCreateTable(sql, o);
  EXPECT_TRUE(t.ok()) << sql << ": " << t.status();
  return t.ok() ? *t : TableSchema{};
}

std::string ParseError(const std::string& sql) {
  absl::StatusOr<TableSchema> t = ParseCreateTable(sql, TableOptions{});
  EXPECT_FALSE(t.ok()) << sql;
  return t.ok() ? "" : std::string(t.status().message());
}

TEST(TableParserTest, Seed000TableAsSqlHasTheModelsRecordSizes) {
  const TableSchema t = MustParse(
      "CREATE TABLE t_uuid (id BINARY(16) NOT NULL PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii NOT NULL, "
      "created BIGINT NOT NULL) ENGINE=InnoDB");
  EXPECT_EQ(ClusteredRecordSizes(t.def).leaf, ClusteredRecordSizes(Seed000Table(16)).leaf);
  EXPECT_EQ(ClusteredRecordSizes(t.def).leaf, 142u);  // innodb-rules.md 'Record sizes', A
  EXPECT_EQ(t.pk_width, 16u);
  EXPECT_TRUE(t.def.secondary.empty());
}

TEST(TableParserTest, Seed004TableMatchesTheWorkedExamples) {
  // docs/innodb-rules.md, 'Record sizes': C (BIGINT PK) 134 bytes, C' (BINARY(16)) 142.
  absl::StatusOr<TableSchema> c = ResolveTable("seed004", 8, TableOptions{});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(ClusteredRecordSizes(c->def).leaf, 134u);
  absl::StatusOr<TableSchema> c16 = ResolveTable("seed004", 16, TableOptions{});
  ASSERT_TRUE(c16.ok()) << c16.status();
  EXPECT_EQ(ClusteredRecordSizes(c16->def).leaf, 142u);
  ASSERT_EQ(c->def.secondary.size(), 1u);
  EXPECT_EQ(c->def.secondary[0].name, "idx_created");
  EXPECT_FALSE(c->def.secondary[0].unique);
  // idx_created leaf: 5 header bytes + created_at 7 + id 8.
  EXPECT_EQ(SecondaryRecordSizes(c->def, c->def.secondary[0]).leaf, 20u);
  EXPECT_EQ(SecondaryRecordSizes(c16->def, c16->def.secondary[0]).leaf, 28u);
  const ColumnDef& created = c->def.columns[1];
  EXPECT_EQ(created.name, "created_at");
  EXPECT_EQ(created.stored_bytes, 7u);
  EXPECT_EQ(c->values[1].kind, ColumnKind::kDatetime);
  EXPECT_EQ(c->values[1].fsp, 3u);
  const ColumnDef& payload = c->def.columns[2];
  EXPECT_TRUE(payload.variable);
  EXPECT_EQ(payload.stored_bytes, 100u);
  EXPECT_EQ(payload.max_bytes, 800u);  // utf8mb4, MySQL 8.4's default
}

TEST(TableParserTest, ColumnTypesAndSizes) {
  const TableSchema t = MustParse(
      "create table `x` (`id` bigint unsigned not null auto_increment, a INT, b INT UNSIGNED NOT NULL, "
      "c DATETIME, d DATETIME(6), e TIMESTAMP(3) NULL, f TIMESTAMP, g CHAR(10) CHARSET latin1, h CHAR(10), "
      "i CHAR(10) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin, j VARCHAR(50) CHARACTER SET ascii, "
      "k BINARY(4), l SMALLINT, m TINYINT(1) DEFAULT 0, n DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) "
      "ON UPDATE CURRENT_TIMESTAMP(3), o INT DEFAULT -1 COMMENT 'c', PRIMARY KEY (id)) "
      "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC COMMENT='t';",
      30);
  auto col = [&](const std::string& n) -> const ColumnDef& {
    for (const ColumnDef& c : t.def.columns) {
      if (c.name == n) return c;
    }
    ADD_FAILURE() << n;
    return t.def.columns[0];
  };
  EXPECT_EQ(col("id").stored_bytes, 8u);
  EXPECT_FALSE(col("id").nullable);
  EXPECT_EQ(col("a").stored_bytes, 4u);
  EXPECT_TRUE(col("a").nullable);
  EXPECT_FALSE(col("b").nullable);
  EXPECT_EQ(col("c").stored_bytes, 5u);
  EXPECT_EQ(col("d").stored_bytes, 8u);
  EXPECT_EQ(col("e").stored_bytes, 6u);
  EXPECT_EQ(col("f").stored_bytes, 4u);
  EXPECT_FALSE(col("g").variable);  // single-byte CHAR: fixed
  EXPECT_EQ(col("g").stored_bytes, 10u);
  EXPECT_TRUE(col("h").variable);   // utf8mb4 CHAR: variable, n bytes stored
  EXPECT_EQ(col("h").stored_bytes, 10u);
  EXPECT_EQ(col("h").max_bytes, 40u);
  EXPECT_EQ(col("i").max_bytes, 30u);
  EXPECT_EQ(col("j").stored_bytes, 30u);  // --payload-bytes 30
  EXPECT_EQ(col("j").max_bytes, 50u);
  EXPECT_EQ(col("k").stored_bytes, 4u);
  EXPECT_EQ(col("l").stored_bytes, 2u);
  EXPECT_EQ(col("m").stored_bytes, 1u);
  EXPECT_EQ(col("n").stored_bytes, 7u);
  EXPECT_EQ(t.pk_width, 8u);
}

TEST(TableParserTest, VarcharShorterThanThePayloadHoldsItsLength) {
  const TableSchema t = MustParse("CREATE TABLE t (id BINARY(16) PRIMARY KEY, s VARCHAR(20) NOT NULL)", 100);
  EXPECT_EQ(t.def.columns[1].stored_bytes, 20u);
}

TEST(TableParserTest, TableCharsetAppliesToColumnsWithout) {
  const TableSchema t = MustParse("CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10)) DEFAULT CHARSET=latin1");
  EXPECT_FALSE(t.def.columns[1].variable);
  // COLLATE= alone names the set too.
  EXPECT_TRUE(MustParse("CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10)) COLLATE=utf8mb3_bin").def.columns[1].variable);
  EXPECT_FALSE(MustParse("CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10)) DEFAULT COLLATE latin1_bin").def.columns[1].variable);
}

TEST(TableParserTest, WithoutCharsetTheProfilesServerDefaultApplies) {
  // MySQL 8.4: utf8mb4, so CHAR(10) is variable-length with up to 40 bytes;
  // MariaDB 10.11 (mariadbd's compiled-in default): latin1, fixed 10 bytes.
  const std::string sql = "CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10), v VARCHAR(100))";
  TableOptions mysql;
  TableOptions mariadb;
  mariadb.profile = "mariadb-10.11";
  absl::StatusOr<TableSchema> my = ParseCreateTable(sql, mysql);
  absl::StatusOr<TableSchema> ma = ParseCreateTable(sql, mariadb);
  ASSERT_TRUE(my.ok() && ma.ok());
  EXPECT_TRUE(my->def.columns[1].variable);
  EXPECT_EQ(my->def.columns[1].max_bytes, 40u);
  EXPECT_FALSE(ma->def.columns[1].variable);
  EXPECT_EQ(ma->def.columns[1].stored_bytes, 10u);
  EXPECT_EQ(my->def.columns[2].max_bytes, 400u);
  EXPECT_EQ(ma->def.columns[2].max_bytes, 100u);
  // A table's DEFAULT CHARSET overrides the server's on either profile.
  absl::StatusOr<TableSchema> ma4 = ParseCreateTable(sql + " DEFAULT CHARSET=utf8mb4", mariadb);
  ASSERT_TRUE(ma4.ok());
  EXPECT_TRUE(ma4->def.columns[1].variable);
}

// character_set_server / collation_server (a server's variables, --set, a
// my.cnf) replace the profile's default for a table that names no set.
TEST(TableParserTest, TheServersCharacterSetVariablesReplaceTheProfilesDefault) {
  const std::string sql = "CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY, c CHAR(10))";
  TableOptions o;
  o.profile = "mariadb-10.11";
  o.server_charset = "utf8mb4";
  absl::StatusOr<TableSchema> t = ParseCreateTable(sql, o);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->def.columns[1].variable);
  EXPECT_NE(t->def.columns[0].type.find("COLLATE utf8mb4_general_ci"), std::string::npos) << t->def.columns[0].type;
  o.server_collation = "utf8mb4_unicode_ci";
  t = ParseCreateTable(sql, o);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NE(t->def.columns[0].type.find("COLLATE utf8mb4_unicode_ci"), std::string::npos) << t->def.columns[0].type;
  // A table's own CHARSET still wins; a set the model does not know is named.
  t = ParseCreateTable(sql + " DEFAULT CHARSET=latin1", o);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_FALSE(t->def.columns[1].variable);
  o.server_charset = "utf16";
  o.server_collation = "";
  t = ParseCreateTable(sql, o);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("character_set_server=utf16"), std::string::npos) << t.status();
}

TEST(TableParserTest, Indexes) {
  const TableSchema t = MustParse(
      "CREATE TABLE t (id BINARY(16) NOT NULL, a DATETIME(3) NOT NULL, b INT NOT NULL UNIQUE, c CHAR(5), "
      "PRIMARY KEY (id), KEY k_a (a), INDEX k_ab (a, b) USING BTREE, UNIQUE KEY u_c (c), UNIQUE (a, c))");
  ASSERT_EQ(t.def.secondary.size(), 5u);
  EXPECT_EQ(t.def.secondary[0].name, "b");
  EXPECT_TRUE(t.def.secondary[0].unique);
  EXPECT_EQ(t.def.secondary[1].name, "k_a");
  EXPECT_EQ(t.def.secondary[2].columns, (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(t.def.secondary[3].unique);
  EXPECT_EQ(t.def.secondary[4].name, "a");
  EXPECT_EQ(t.def.primary.columns, (std::vector<uint32_t>{0}));
}

TEST(TableParserTest, ErrorsNameTheUnsupportedPart) {
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, j JSON)").find("type JSON"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, d DECIMAL(10,2))").find("DECIMAL"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT, a INT)").find("PRIMARY KEY"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (a BIGINT, b BIGINT, PRIMARY KEY (a, b))").find("2 columns"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, KEY k (nope))").find("nope"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10) CHARACTER SET koi8r)").find("koi8r"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY) ENGINE=MyISAM").find("MyISAM"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY) ROW_FORMAT=COMPRESSED").find("COMPRESSED"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, d DATETIME(7))").find("precision"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)").find("needs a length"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, c CHAR(10), KEY k (c(4)))").find("prefix"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, FOREIGN KEY (id) REFERENCES u (id))").find("FOREIGN"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, a INT GENERATED ALWAYS AS (id))").find("GENERATED"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, a INT, a INT)").find("twice"), std::string::npos);
  // A text key of another length, or a collation not modelled (tests/text_keys_test.cc).
  EXPECT_NE(ParseError("CREATE TABLE t (id VARCHAR(40) PRIMARY KEY)").find("a text key must be"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id VARCHAR(36) COLLATE utf8mb4_danish_ci PRIMARY KEY)")
                .find("collation utf8mb4_danish_ci is not modelled"),
            std::string::npos);
  // Collations that do not belong to the character set, as the server refuses them.
  EXPECT_NE(ParseError("CREATE TABLE t (id CHAR(36) CHARACTER SET latin1 COLLATE utf8mb4_bin PRIMARY KEY)")
                .find("ER_COLLATION_CHARSET_MISMATCH"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY) CHARSET=latin1 COLLATE=utf8mb4_bin")
                .find("ER_COLLATION_CHARSET_MISMATCH"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY").find("expected ',' or ')'"), std::string::npos);
  EXPECT_NE(ParseError("DROP TABLE t").find("CREATE TABLE"), std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, s JSON)").find("JSON"), std::string::npos);
  // TEXT is a column type now (off-page, model/big_rec.h), but not a key.
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY, s TEXT, KEY (s))").find("ER_BLOB_KEY_WITHOUT_LENGTH"),
            std::string::npos);
  EXPECT_NE(ParseError("CREATE TABLE t (id BIGINT PRIMARY KEY) PARTITION BY HASH(id)").find("PARTITION"),
            std::string::npos);
}

TEST(TableParserTest, PrimaryKeyWidthMustMatchTheStream) {
  absl::StatusOr<TableSchema> t = ResolveTable("CREATE TABLE t (id BIGINT PRIMARY KEY)", 16, TableOptions{});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("BINARY(16)"), std::string::npos) << t.status();
  t = ResolveTable("CREATE TABLE t (id BINARY(36) PRIMARY KEY)", 16, TableOptions{});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("36 bytes"), std::string::npos) << t.status();
  t = ResolveTable("CREATE TABLE t (id CHAR(36) CHARACTER SET ascii PRIMARY KEY)", 8, TableOptions{});
  ASSERT_FALSE(t.ok());  // a text key takes a 16-byte stream
  EXPECT_NE(t.status().message().find("the text of a 16-byte UUID"), std::string::npos) << t.status();
  t = ResolveTable("CREATE TABLE t (id INT PRIMARY KEY)", 8, TableOptions{});
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(ResolveTable("CREATE TABLE t (id BINARY(16) PRIMARY KEY)", 16, TableOptions{}).ok());
  EXPECT_TRUE(ResolveTable("seed000", 8, TableOptions{}).ok());
  t = ResolveTable("seed007", 16, TableOptions{});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("seed000, seed004"), std::string::npos);
}

// --- Secondary keys ----------------------------------------------------------

TEST(SecondaryKeysTest, Datetime3IsTheMySql564PackedFormat) {
  // 2026-01-01 00:00:00.123 UTC.
  uint8_t b[8] = {};
  const int64_t us = 1767225600000000LL + 123000;
  ASSERT_EQ(SecondaryKeyEncoder::DatetimeBytes(us, 3, b), 7);
  // ymd = ((2026*13 + 1) << 5) | 1 = 842,977; intpart = ymd << 17;
  // + 0x8000000000.
  const uint64_t intpart = ((static_cast<uint64_t>(2026 * 13 + 1) << 5 | 1) << 17) + 0x8000000000ull;
  uint64_t got = 0;
  for (int i = 0; i < 5; ++i) got = got << 8 | b[i];
  EXPECT_EQ(got, intpart);
  EXPECT_EQ(b[0] & 0x80, 0x80);     // sign bit set
  EXPECT_EQ(b[5] << 8 | b[6], 1230);  // usec / 100
  // 23:59:59.999 on 2024-02-29 (leap day) sorts before 2024-03-01 00:00.
  uint8_t x[8] = {}, y[8] = {};
  SecondaryKeyEncoder::DatetimeBytes(1709251199999000LL, 3, x);
  SecondaryKeyEncoder::DatetimeBytes(1709251200000000LL, 3, y);
  EXPECT_LT(std::memcmp(x, y, 7), 0);
  const uint64_t hms = (23u << 12) | (59u << 6) | 59u;
  uint64_t gx = 0;
  for (int i = 0; i < 5; ++i) gx = gx << 8 | x[i];
  EXPECT_EQ(gx & 0x1FFFF, hms);
  EXPECT_EQ((gx >> 17) & 31, 29u);  // day
}

TEST(SecondaryKeysTest, TimestampIsEpochSecondsThenFraction) {
  uint8_t b[8] = {};
  ASSERT_EQ(SecondaryKeyEncoder::TimestampBytes(1767225600500000LL, 2, b), 5);
  EXPECT_EQ(static_cast<uint32_t>(b[0]) << 24 | b[1] << 16 | b[2] << 8 | b[3], 1767225600u);
  EXPECT_EQ(b[4], 50);  // usec / 10000
}

TEST(SecondaryKeysTest, Seed004BigintEntriesAreExactAndTimeThenPk) {
  absl::StatusOr<TableSchema> t = ResolveTable("seed004", 8, TableOptions{});
  ASSERT_TRUE(t.ok());
  SecondaryKeyEncoder enc(*t, 0, 1767225600000ull, 100000);  // 100 rows per ms
  EXPECT_TRUE(enc.exact());
  const Key k0 = enc.Encode(0, Key::FromU64(1));
  const Key k1 = enc.Encode(1, Key::FromU64(2));
  const Key k100 = enc.Encode(100, Key::FromU64(101));
  EXPECT_LT(k0, k1);
  EXPECT_LT(k1, k100);
  // Same millisecond for rows 0 and 1: the first 7 bytes agree.
  EXPECT_EQ(k0.hi >> 8, k1.hi >> 8);
  EXPECT_NE(k0.hi >> 8, k100.hi >> 8);
  // The PK follows the 7 DATETIME(3) bytes.
  const auto b = k1.Bytes();
  uint64_t pk = 0;
  for (int i = 7; i < 15; ++i) pk = pk << 8 | b[i];
  EXPECT_EQ(pk, 2u);
}

// DATETIME(3) + BINARY(16) = 23 bytes: the entry is exact, and two UUIDs of
// one millisecond that differ only in their last byte order as they do on
// the server (a 16-byte encoding had to cut the PK to 9 bytes there).
TEST(SecondaryKeysTest, Seed004UuidEntriesAreExactToTheLastPkByte) {
  absl::StatusOr<TableSchema> t = ResolveTable("seed004", 16, TableOptions{});
  ASSERT_TRUE(t.ok());
  SecondaryKeyEncoder enc(*t, 0, 1767225600000ull, 100000);  // 100 rows per ms
  EXPECT_TRUE(enc.exact());
  Key pk;
  pk.hi = 0x0102030405060708ull;
  pk.lo = 0x090a0b0c0d0e0f10ull;
  Key next = pk;
  ++next.lo;
  const auto b = enc.Encode(0, pk).Bytes();
  uint8_t datetime[8];
  ASSERT_EQ(SecondaryKeyEncoder::DatetimeBytes(1767225600000000, 3, datetime), 7);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(b[i], datetime[i]) << i;
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[7 + i], i + 1) << i;
  EXPECT_LT(enc.Encode(5, pk), enc.Encode(6, next));
  EXPECT_GT(enc.Encode(6, next), enc.Encode(6, pk));
  // Across milliseconds time orders, whatever the PK.
  const Key big{~0ull, ~0ull}, small{0, 0};
  EXPECT_LT(enc.Encode(99, big), enc.Encode(100, small));
}

// Past 32 bytes the encoder keeps the order over the run in fewer bytes:
// two BINARY(16) columns and a BINARY(16) PK are 48.
TEST(SecondaryKeysTest, EntriesPastThirtyTwoBytesUseTheCompactForm) {
  absl::StatusOr<TableSchema> t = ResolveTable(
      "CREATE TABLE t (id BINARY(16) PRIMARY KEY, a BINARY(16) NOT NULL, b BINARY(16) NOT NULL, KEY ab (a, b))", 16,
      TableOptions{});
  ASSERT_TRUE(t.ok()) << t.status();
  SecondaryKeyEncoder enc(*t, 0, 1767225600000ull, 100000);
  EXPECT_FALSE(enc.exact());
}

}  // namespace
}  // namespace innosim
