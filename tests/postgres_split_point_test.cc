// _bt_findsplitloc as model/postgres/split_point.h implements it.
#include <gtest/gtest.h>

#include <vector>

#include "model/postgres/split_point.h"

namespace innosim::postgres {
namespace {

// Distinct single-column keys: any two tuples differ in column 1.
int Distinct(int, int) { return 1; }
bool NotAdjacent(int) { return false; }

TEST(PostgresSplitPoint, RightmostLeafKeepsFillfactorOnTheLeft) {
  std::vector<uint16_t> sizes(407, 16);  // a full rightmost bigint leaf
  SplitPageDesc d;
  d.is_leaf = true;
  d.is_rightmost = true;
  d.item_size = sizes;
  d.newitemoff = 407;  // ascending key: goes last
  d.newitemsz = 16;
  d.leaffillfactor = 90;
  SplitPointFinder f;
  const SplitDecision s = f.FindSplitLoc(d, Distinct, NotAdjacent);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.kind, SplitKind::kRightmostFillfactor);
  EXPECT_FALSE(s.newitemonleft);
  // delta = 0.9 * leftfree - 0.1 * rightfree is least where the left keeps
  // 366 items: leftfree = 8152 - 366*20 - (20 + 8) = 804,
  // rightfree = 8152 - 41*20 - 20 = 7312; 723.6 - 731.2 -> |-7| = 7.
  EXPECT_EQ(s.firstoldonright, 366);
  EXPECT_EQ(s.leftfree, 804);
  EXPECT_EQ(s.rightfree, 7312);
  // At fillfactor 70 the left keeps fewer.
  d.leaffillfactor = 70;
  EXPECT_LT(f.FindSplitLoc(d, Distinct, NotAdjacent).firstoldonright, 300);
}

TEST(PostgresSplitPoint, InnerLeafSplitsFiftyFifty) {
  std::vector<uint16_t> sizes(290, 24);  // a full uuid leaf with a 24-byte high key
  SplitPageDesc d;
  d.is_leaf = true;
  d.is_rightmost = false;
  d.hikey_size = 24;
  d.item_size = sizes;
  d.newitemoff = 100;
  d.newitemsz = 24;
  SplitPointFinder f;
  const SplitDecision s = f.FindSplitLoc(d, Distinct, NotAdjacent);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.kind, SplitKind::kFiftyFifty);
  EXPECT_LE(std::abs(s.leftfree - s.rightfree), 56);  // within one item (28 bytes each way)
  const int left_items = s.firstoldonright + (s.newitemonleft ? 1 : 0);
  EXPECT_NEAR(left_items, 145, 1);
}

TEST(PostgresSplitPoint, RightmostInternalUsesNonleafFillfactor) {
  std::vector<uint16_t> sizes(408, 16);
  sizes[0] = 8;  // minus infinity
  SplitPageDesc d;
  d.is_leaf = false;
  d.is_rightmost = true;
  d.item_size = sizes;
  d.newitemoff = 408;
  d.newitemsz = 16;
  SplitPointFinder f;
  const SplitDecision s = f.FindSplitLoc(d, Distinct, NotAdjacent);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.kind, SplitKind::kRightmostFillfactor);
  EXPECT_NEAR(s.firstoldonright, 0.70 * 408, 3);
}

TEST(PostgresSplitPoint, AllDuplicatesUseSingleValueStrategy) {
  std::vector<uint16_t> sizes(407, 16);
  SplitPageDesc d;
  d.is_rightmost = true;
  d.item_size = sizes;
  d.newitemoff = 407;
  d.newitemsz = 16;
  SplitPointFinder f;
  // Every pair equal: a pivot would need a heap TID.
  const SplitDecision s = f.FindSplitLoc(d, [](int, int) { return 2; }, NotAdjacent);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.kind, SplitKind::kSingleValue);
  EXPECT_GT(s.firstoldonright, 380);  // BTREE_SINGLEVAL_FILLFACTOR 96
}

TEST(PostgresSplitPoint, ManyDuplicatesSplitAtAGroupEdge) {
  std::vector<uint16_t> sizes(407, 16);
  SplitPageDesc d;
  d.is_rightmost = false;
  d.hikey_size = 16;
  d.item_size = sizes;
  d.newitemoff = 10;
  d.newitemsz = 16;
  // Items 0..299 share one value, 300.. are distinct (new item is in the group).
  auto group = [](int i) { return i == kNewItem ? 0 : i < 300 ? 0 : i; };
  SplitPointFinder f;
  const SplitDecision s =
      f.FindSplitLoc(d, [&](int a, int b) { return group(a) == group(b) ? 2 : 1; }, NotAdjacent);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.kind, SplitKind::kManyDuplicates);
  EXPECT_EQ(s.firstoldonright, 300);
}

}  // namespace
}  // namespace innosim::postgres
