// Specification tests for record sizes (model/record_format.h).
//
// Every expected size is worked out by hand from the COMPACT rules of
// docs/innodb-rules.md, 'Record sizes' and 'Node pointers'
// (rec_get_converted_size_comp):
//   rec_size = 5 (REC_N_NEW_EXTRA_BYTES) + ceil(n_nullable / 8)
//            + one length byte per variable column (two when the maximum
//              length is > 255 and the actual length is >= 128)
//            + the data bytes (+ 6 DB_TRX_ID + 7 DB_ROLL_PTR on a clustered
//              leaf; + 4 child page number on a node pointer).
#include "model/record_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace innosim {
namespace {

ColumnDef Fixed(const std::string& name, uint32_t bytes, bool nullable = false) {
  return ColumnDef{name, "FIXED", bytes, bytes, false, nullable};
}
ColumnDef Var(const std::string& name, uint32_t stored, uint32_t max_bytes, bool nullable = false) {
  return ColumnDef{name, "VARCHAR", stored, max_bytes, true, nullable};
}

// Table C of 'Record sizes': id BIGINT PK, payload VARCHAR(200) NOT NULL holding 100
// bytes, created DATETIME(3) NOT NULL (5 + ceil(3/2) = 7 bytes).
TableDef TableC(uint32_t pk_bytes, bool payload_nullable = false, uint32_t payload_max = 200,
                uint32_t payload_len = 100) {
  TableDef t;
  t.name = "c";
  t.columns.push_back(Fixed("id", pk_bytes));
  t.columns.push_back(Var("payload", payload_len, payload_max, payload_nullable));
  t.columns.push_back(Fixed("created", 7));
  t.primary = {"PRIMARY", {0}, true};
  return t;
}

TEST(RecordFormatTest, TableA_Binary16Char100Bigint) {
  // 5 + 16 + 6 + 7 + 100 + 8 = 142; node pointer 5 + 16 + 4 = 25.
  const RecordSizes s = ClusteredRecordSizes(Seed000Table(16));
  EXPECT_EQ(s.leaf, 142u);
  EXPECT_EQ(s.node_ptr, 25u);
  EXPECT_EQ(s.key_bytes, 16u);
}

TEST(RecordFormatTest, TableB_BigintChar100Bigint) {
  // 5 + 8 + 6 + 7 + 100 + 8 = 134; node pointer 5 + 8 + 4 = 17.
  const RecordSizes s = ClusteredRecordSizes(Seed000Table(8));
  EXPECT_EQ(s.leaf, 134u);
  EXPECT_EQ(s.node_ptr, 17u);
  EXPECT_EQ(s.key_bytes, 8u);
}

TEST(RecordFormatTest, TableC_VarcharNeedsOneLengthByte) {
  // extra 5 + 1 (VARCHAR(200) max 200 <= 255), data 8+6+7+100+7 = 128: 134.
  const RecordSizes s = ClusteredRecordSizes(TableC(8));
  EXPECT_EQ(s.leaf, 134u);
  // The node pointer has only the (fixed) PK: 5 + 8 + 4.
  EXPECT_EQ(s.node_ptr, 17u);
}

TEST(RecordFormatTest, TableCPrime_Binary16Pk) {
  // extra 6, data 16+6+7+100+7 = 136: 142; node pointer 25.
  const RecordSizes s = ClusteredRecordSizes(TableC(16));
  EXPECT_EQ(s.leaf, 142u);
  EXPECT_EQ(s.node_ptr, 25u);
}

TEST(RecordFormatTest, NullableColumnAddsBitmapByte) {
  // Table C with a nullable payload: one bitmap byte, 134 + 1.
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, /*payload_nullable=*/true)).leaf, 135u);
  // Nine nullable columns need ceil(9/8) = 2 bitmap bytes.
  TableDef t;
  t.columns.push_back(Fixed("id", 8));
  for (int i = 0; i < 9; ++i) t.columns.push_back(Fixed("n" + std::to_string(i), 4, true));
  t.primary = {"PRIMARY", {0}, true};
  // 5 + 2 + 8 + 6 + 7 + 9 * 4 = 64.
  EXPECT_EQ(ClusteredRecordSizes(t).leaf, 64u);
  // Eight nullable columns fit one byte: 5 + 1 + 8 + 13 + 32 = 59.
  t.columns.pop_back();
  EXPECT_EQ(ClusteredRecordSizes(t).leaf, 59u);
}

TEST(RecordFormatTest, VarcharLengthByteRule) {
  // max <= 255: always 1 byte, even for a long actual value (200 >= 128).
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, false, 255, 200)).leaf, 5u + 1 + 8 + 13 + 200 + 7);
  // max > 255 (utf8mb4 VARCHAR(200) = 800 bytes), actual 100 < 128: 1 byte.
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, false, 800, 100)).leaf, 134u);
  // max > 255, actual 127: still 1 byte; actual 128: 2 bytes.
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, false, 800, 127)).leaf, 5u + 1 + 8 + 13 + 127 + 7);
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, false, 800, 128)).leaf, 5u + 2 + 8 + 13 + 128 + 7);
  EXPECT_EQ(ClusteredRecordSizes(TableC(8, false, 800, 200)).leaf, 5u + 2 + 8 + 13 + 200 + 7);
}

TEST(RecordFormatTest, VariableLengthPkNodePointerHasLengthByte) {
  // A VARCHAR(32) PK holding 20 bytes: node pointer 5 + 1 + 20 + 4 = 30;
  // leaf 5 + 1 + 20 + 13 + 8 = 47.
  TableDef t;
  t.columns.push_back(Var("id", 20, 32));
  t.columns.push_back(Fixed("v", 8));
  t.primary = {"PRIMARY", {0}, true};
  const RecordSizes s = ClusteredRecordSizes(t);
  EXPECT_EQ(s.node_ptr, 30u);
  EXPECT_EQ(s.leaf, 47u);
}

TEST(RecordFormatTest, SecondaryIndexIsKeyPlusPkWithoutSystemColumns) {
  // KEY (created) on table A: leaf = 5 + created 8 + id 16 = 29 (no
  // DB_TRX_ID / DB_ROLL_PTR). A non-unique secondary index's node pointer
  // carries the same fields (dict_index_get_n_unique_in_tree) + child: 33.
  TableDef t = Seed000Table(16);
  IndexDef idx{"idx_created", {2}, false};
  t.secondary.push_back(idx);
  const RecordSizes s = SecondaryRecordSizes(t, idx);
  EXPECT_EQ(s.leaf, 29u);
  EXPECT_EQ(s.node_ptr, 33u);
  EXPECT_EQ(s.key_bytes, 24u);
}

TEST(RecordFormatTest, SecondaryIndexOnVarcharAndPkColumnIncludedOnce) {
  // KEY (payload, id) on table C': the PK is already in the key, so it is
  // not appended again. Leaf = 5 + 1 (length) + 100 + 16 = 122.
  TableDef t = TableC(16);
  IndexDef idx{"idx_payload_id", {1, 0}, false};
  const RecordSizes s = SecondaryRecordSizes(t, idx);
  EXPECT_EQ(s.leaf, 122u);
  EXPECT_EQ(s.node_ptr, 126u);  // same fields + 4-byte child
}

TEST(RecordFormatTest, NullableSecondaryKeyHasBitmap) {
  // KEY (payload) on C with a nullable payload: 5 + 1 bitmap + 1 length +
  // 100 + id 8 = 115.
  TableDef t = TableC(8, /*payload_nullable=*/true);
  IndexDef idx{"idx_payload", {1}, false};
  EXPECT_EQ(SecondaryRecordSizes(t, idx).leaf, 115u);
}

}  // namespace
}  // namespace innosim

namespace innosim {
namespace {

// Helper-7 found these two against the InnoDB source; they hold now.
TEST(RecordFormatNodePointer, UniqueSecondaryNodePointerCarriesThePrimaryKey) {
  // dict_index_get_n_unique_in_tree_nonleaf: a non-clustered index's node
  // pointer has all its fields. UNIQUE KEY(created) on table A:
  // 5 + 8 (created) + 16 (id) + 4 (child) = 33.
  TableDef t = Seed000Table(16);
  IndexDef ix{"uk_created", {2}, true};
  t.secondary.push_back(ix);
  const RecordSizes s = SecondaryRecordSizes(t, t.secondary[0]);
  EXPECT_EQ(s.node_ptr, 33u);
  EXPECT_EQ(s.key_bytes, 24u);
}

TEST(RecordFormatNodePointer, NodePointerKeepsTheIndexNullBitmap) {
  // A nullable payload makes index->n_nullable 1: the node pointer has a
  // 1-byte bitmap too: 5 + 1 + 8 + 4 = 18 for a BIGINT key.
  TableDef t = Seed000Table(8);
  t.columns[1].nullable = true;
  EXPECT_EQ(ClusteredRecordSizes(t).node_ptr, 18u);
  EXPECT_EQ(ClusteredRecordSizes(Seed000Table(8)).node_ptr, 17u);
}

}  // namespace
}  // namespace innosim
