// Page arithmetic of model/postgres/page_layout.h and heap tuple sizes.
#include <gtest/gtest.h>

#include "model/postgres/heap.h"
#include "model/postgres/page_layout.h"

namespace innosim::postgres {
namespace {

TEST(PostgresPageLayout, ConstantsFromTheHeaders) {
  EXPECT_EQ(kBTPageSpace, 8152);  // 8192 - 24 - 16
  EXPECT_EQ(kBTMaxItemSize, 2712);
  EXPECT_EQ(kMaxHeapTuplesPerPage, 291);
  EXPECT_EQ(IndexTupleSize(8), 16);   // bigint
  EXPECT_EQ(IndexTupleSize(16), 24);  // uuid
  EXPECT_EQ(IndexTupleSize(4), 16);   // int4 pads to MAXALIGN
  EXPECT_EQ(PostingTupleSize(16, 2), 32);   // 16 + 12 -> 32
  EXPECT_EQ(PostingTupleSize(16, 100), MaxAlign(16 + 600));
}

// How many bigint tuples a rightmost leaf takes before it must split:
// each costs 16 bytes + a 4-byte line pointer, and _bt_insertonpg splits
// when PageGetFreeSpace (which keeps one line pointer back) < 16.
TEST(PostgresPageLayout, BigintTuplesPerLeaf) {
  int n = 0;
  while (PageGetFreeSpace(kSizeOfPageHeaderData + 4 * n, kBlckSz - 16 - 16 * n) >= 16) ++n;
  EXPECT_EQ(n, 407);
  int u = 0;
  while (PageGetFreeSpace(kSizeOfPageHeaderData + 4 * u, kBlckSz - 16 - 24 * u) >= 24) ++u;
  EXPECT_EQ(u, 291);
}

TEST(PostgresHeap, TupleLengths) {
  std::vector<PgColumn> bigint{{"id", PgType::kInt8}};
  EXPECT_EQ(HeapTupleLength(bigint, {}), 32);  // t_hoff 24 + 8
  std::vector<PgColumn> cols{{"id", PgType::kUuid}, {"n", PgType::kInt4, true}, {"ts", PgType::kTimestamptz},
                             {"s", PgType::kText, false, 10}, {"b", PgType::kBool}};
  // 24 | uuid 16 -> 16 | int4 at 16 -> 20 | timestamptz aligned 24 -> 32 |
  // text short header 1 + 10 -> 43 | bool -> 44.
  EXPECT_EQ(HeapTupleLength(cols, {}), 24 + 44);
  // n null: bitmap of 5 columns, t_hoff MAXALIGN(23 + 1) = 24; data:
  // uuid 16, timestamptz 16..24, text 25..35, bool 36.
  EXPECT_EQ(HeapTupleLength(cols, PgRow{.nulls = 2}), 24 + 36);
  // A 200-byte text: a 4-byte header aligned by typalign i.
  const uint32_t varlena[] = {0, 0, 0, 200, 0};
  EXPECT_EQ(HeapTupleLength(cols, PgRow{0, varlena}), 24 + 32 + 4 + 200 + 1);
}

TEST(PostgresHeap, PagesFillToTheLastLinePointer) {
  Heap heap;
  for (int i = 0; i < 226; ++i) heap.Insert(32);
  EXPECT_EQ(heap.relpages(), 1u);  // 226 * 36 = 8136 of 8168
  heap.Insert(32);
  EXPECT_EQ(heap.relpages(), 2u);
  EXPECT_EQ(heap.Verify(), "");
}

TEST(PostgresHeap, FillfactorLeavesSaveFreeSpace) {
  Heap heap(50);  // saveFreeSpace = 4096
  int n = 0;
  while (heap.relpages() <= 1) {
    heap.Insert(32);
    ++n;
  }
  // A tuple goes on the page while len + saveFreeSpace = 32 + 4096 <=
  // PageGetFreeSpace = 8168 - 36k - 4, i.e. for k = 0..112: 113 fit.
  EXPECT_EQ(n - 1, 113);
  EXPECT_EQ(Heap(5).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace innosim::postgres
