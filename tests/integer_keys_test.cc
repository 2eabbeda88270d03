// 4-, 3-, 2- and 1-byte integer primary keys: the stored form InnoDB
// compares (row_mysql_store_col_in_innobase_format: big-endian, the sign bit
// flipped for signed types), autoinc into such a table, and their records.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/record_format.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/table_parser.h"
#include "sim/uuid.h"

namespace innosim {
namespace {

TEST(IntegerKeysTest, StoredOrderIsIntegerOrderForSignedAndUnsigned) {
  for (int bytes : {1, 2, 3, 4}) {
    SCOPED_TRACE(bytes);
    const int64_t max_signed = (int64_t{1} << (8 * bytes - 1)) - 1;
    const int64_t min_signed = -max_signed - 1;
    // Signed: negatives, zero and positives, in integer order.
    const std::vector<int64_t> signed_values = {min_signed, min_signed + 1, -256, -2, -1, 0, 1, 2, 255, 256,
                                                max_signed - 1, max_signed};
    for (size_t i = 1; i < signed_values.size(); ++i) {
      if (signed_values[i - 1] < min_signed || signed_values[i] > max_signed) continue;
      if (signed_values[i - 1] >= signed_values[i]) continue;  // values that do not fit a 1-byte type collapse
      EXPECT_LT(IntegerKey(signed_values[i - 1], bytes, false), IntegerKey(signed_values[i], bytes, false))
          << signed_values[i - 1] << " vs " << signed_values[i];
    }
    // The sign bit is flipped: 0 is 0x80 00.., -1 is 0x7f ff..
    EXPECT_EQ(KeyBytes(IntegerKey(0, bytes, false), bytes), std::string(1, '\x80') + std::string(bytes - 1, '\0'));
    EXPECT_EQ(KeyBytes(IntegerKey(-1, bytes, false), bytes), std::string(1, '\x7f') + std::string(bytes - 1, '\xff'));
    // Unsigned: plain big-endian.
    const uint64_t max_unsigned = IntegerTypeMax(bytes, true);
    EXPECT_EQ(KeyBytes(IntegerKey(1, bytes, true), bytes), std::string(bytes - 1, '\0') + "\x01");
    EXPECT_LT(IntegerKey(static_cast<int64_t>(max_unsigned - 1), bytes, true),
              IntegerKey(static_cast<int64_t>(max_unsigned), bytes, true));
    EXPECT_LT(IntegerKey(0, bytes, true), IntegerKey(1, bytes, true));
  }
  // A dense check for SMALLINT: every value in order.
  for (int64_t v = -32768; v < 32767; ++v) {
    ASSERT_LT(IntegerKey(v, 2, false), IntegerKey(v + 1, 2, false)) << v;
  }
}

TEST(IntegerKeysTest, TypeNamesAndRanges) {
  EXPECT_EQ(IntegerTypeName(4, false), "INT");
  EXPECT_EQ(IntegerTypeName(3, true), "MEDIUMINT UNSIGNED");
  EXPECT_EQ(IntegerTypeName(2, false), "SMALLINT");
  EXPECT_EQ(IntegerTypeMax(4, false), 2147483647u);
  EXPECT_EQ(IntegerTypeMax(4, true), 4294967295u);
  EXPECT_EQ(IntegerTypeMax(3, false), 8388607u);
  EXPECT_EQ(IntegerTypeMax(2, true), 65535u);
}

StreamSpec AutoincFor(const std::string& table) {
  StreamSpec spec;
  spec.name = "autoinc";
  EXPECT_TRUE(BindStreamToTable(table, &spec).ok());
  return spec;
}

TEST(IntegerKeysTest, AutoincTakesTheTablesIntegerWidth) {
  const StreamSpec s_int = AutoincFor("CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT)");
  EXPECT_EQ(s_int.autoinc_bytes, 4);
  EXPECT_FALSE(s_int.autoinc_unsigned);
  EXPECT_EQ(StreamKeyWidth(s_int), 4);
  absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(s_int);
  ASSERT_TRUE(ks.ok()) << ks.status();
  EXPECT_EQ((*ks)->key_width(), 4);
  Key k;
  ASSERT_TRUE((*ks)->Next(&k));
  EXPECT_EQ(KeyBytes(k, 4), std::string("\x80\x00\x00\x01", 4));
  EXPECT_EQ(FormatKey(k, 4), "0x80000001");
  const StreamSpec s_small = AutoincFor("CREATE TABLE t (id SMALLINT UNSIGNED NOT NULL PRIMARY KEY)");
  EXPECT_EQ(s_small.autoinc_bytes, 2);
  EXPECT_TRUE(s_small.autoinc_unsigned);
  // BIGINT, seed000 and other streams keep the 8-byte value keys.
  EXPECT_EQ(AutoincFor("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)").autoinc_bytes, 8);
  EXPECT_EQ(AutoincFor("seed000").autoinc_bytes, 8);
  StreamSpec v4;
  v4.name = "uuidv4";
  ASSERT_TRUE(BindStreamToTable("CREATE TABLE t (id INT PRIMARY KEY)", &v4).ok());
  EXPECT_EQ(v4.autoinc_bytes, 8);
}

TEST(IntegerKeysTest, AutoincStopsAtTheTypesMaximumNamingTheType) {
  const StreamSpec spec = AutoincFor("CREATE TABLE t (id SMALLINT NOT NULL AUTO_INCREMENT PRIMARY KEY)");
  absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec);
  ASSERT_TRUE(ks.ok());
  Key k, last;
  uint64_t n = 0;
  while ((*ks)->Next(&k)) {
    if (n > 0) {
      ASSERT_LT(last, k);
    }
    last = k;
    ++n;
  }
  EXPECT_EQ(n, 32767u);
  EXPECT_NE((*ks)->status().message().find("row 32768 is above SMALLINT's largest value 32767"), std::string::npos)
      << (*ks)->status();
  // Through a run: one line naming the type.
  RunSpec run;
  run.stream.name = "autoinc";
  run.rows = 40000;
  run.flush = false;
  run.table = "CREATE TABLE t (id SMALLINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v INT NOT NULL)";
  absl::StatusOr<RunResult> r = innosim::Run(run);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("SMALLINT's largest value"), std::string::npos) << r.status();
}

TEST(IntegerKeysTest, FourByteKeyRecords) {
  // COMPACT/DYNAMIC (rec_get_converted_size_comp): a NOT NULL INT key and
  // no variable or nullable column: 5 header bytes + 4 key bytes, plus 4
  // child bytes in a node pointer, or DB_TRX_ID (6) + DB_ROLL_PTR (7) and
  // the other columns in a leaf.
  absl::StatusOr<TableSchema> t = ResolveTable(
      "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii NOT NULL, "
      "created BIGINT NOT NULL)",
      4, TableOptions{});
  ASSERT_TRUE(t.ok()) << t.status();
  const RecordSizes sizes = ClusteredRecordSizes(t->def);
  EXPECT_EQ(sizes.key_bytes, 4u);
  EXPECT_EQ(sizes.node_ptr, 5u + 4u + 4u);
  EXPECT_EQ(sizes.leaf, 5u + 4u + 6u + 7u + 100u + 8u);
  // The BIGINT table's records are 4 bytes longer.
  const RecordSizes big = ClusteredRecordSizes(Seed000Table(8));
  EXPECT_EQ(big.leaf, sizes.leaf + 4);
  EXPECT_EQ(big.node_ptr, sizes.node_ptr + 4);
}

TEST(IntegerKeysTest, WidthMismatchesNameTheType) {
  absl::StatusOr<TableSchema> a = ResolveTable("CREATE TABLE t (id INT PRIMARY KEY)", 8, TableOptions{});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("(4 bytes) but the stream gives 8-byte keys: use BIGINT"), std::string::npos)
      << a.status();
  absl::StatusOr<TableSchema> b = ResolveTable("CREATE TABLE t (id BIGINT PRIMARY KEY)", 4, TableOptions{});
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("use INT for this stream"), std::string::npos) << b.status();
  absl::StatusOr<TableSchema> c = ResolveTable("seed000", 4, TableOptions{});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("(id INT NOT NULL PRIMARY KEY"), std::string::npos) << c.status();
}

TEST(IntegerKeysTest, IntTableRunHasFewerLeavesThanBigint) {
  RunSpec run;
  run.stream.name = "autoinc";
  run.rows = 200000;
  run.flush = false;
  run.table = "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii "
              "NOT NULL, created BIGINT NOT NULL)";
  absl::StatusOr<RunResult> with_int = innosim::Run(run);
  ASSERT_TRUE(with_int.ok()) << with_int.status();
  EXPECT_EQ(with_int->key_width, 4);
  run.table = "seed000";
  absl::StatusOr<RunResult> with_bigint = innosim::Run(run);
  ASSERT_TRUE(with_bigint.ok());
  // 4 fewer bytes in each 135-byte record: more records per page.
  EXPECT_LT(with_int->report.primary.n_leaf_pages, with_bigint->report.primary.n_leaf_pages);
  EXPECT_EQ(with_int->report.rows, 200000u);
}

}  // namespace
}  // namespace innosim
