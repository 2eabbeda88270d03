// Specification tests for PageDirectory (model/page_dir.h): InnoDB's page
// directory rules on slot n_owned counts.
//
// Expected values are worked out by hand from InnoDB's functions, as stated
// in docs/innodb-rules.md, 'Page directory', and checked against page/page0page.cc
// (page_dir_split_slot, page_dir_balance_slot, page_dir_delete_slot,
// page_delete_rec_list_end) and page/page0cur.cc (page_cur_insert_rec_low,
// page_cur_delete_rec, page_copy_rec_list_end_to_created_page); the comment
// above each assertion gives the arithmetic.
#include "model/page_dir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace innosim {
namespace {

std::vector<uint32_t> Slots(const PageDirectory& d) {
  std::vector<uint32_t> s;
  for (uint32_t i = 0; i < d.n_slots(); ++i) s.push_back(d.n_owned(i));
  return s;
}

// n appends: each record enters just before the supremum.
void Append(PageDirectory& d, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) ASSERT_TRUE(d.InsertRec(d.n_recs() + 1).ok());
}

std::vector<uint32_t> Fours(uint32_t n) { return std::vector<uint32_t>(n, 4); }

std::vector<uint32_t> Concat(std::vector<uint32_t> a, const std::vector<uint32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(PageDirectoryTest, PageCreateHasTwoSlotsOwningOneEach) {
  // page_create_low: slot 0 points at the infimum, slot 1 at the supremum,
  // each with n_owned 1.
  PageDirectory d;
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(d.n_recs(), 0u);
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, RecordAfterTheInfimumJoinsTheNextGroupNotTheInfimums) {
  // The new record's owner is found by walking on from it: the supremum's
  // slot, never the infimum's, which always owns 1.
  PageDirectory d;
  ASSERT_TRUE(d.InsertRec(1).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 2}));
  ASSERT_TRUE(d.InsertRec(1).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 3}));
}

TEST(PageDirectoryTest, NinthOwnedRecordSplitsTheSlotIntoFourBelowAndFiveKept) {
  PageDirectory d;
  // 7 appends: the supremum's slot owns 7 + itself = 8, the most allowed.
  Append(d, 7);
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 8}));
  // The 8th makes 9 = PAGE_DIR_SLOT_MAX_N_OWNED + 1: page_dir_split_slot adds
  // a slot below owning 9 / 2 = 4; the old slot keeps 9 - 4 = 5.
  ASSERT_TRUE(d.InsertRec(8).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 5}));
  // Four more appends: 5 + 4 = 9 again: {4, 5}.
  Append(d, 4);
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 5}));
  // A middle group: slot 1 owns list positions 1..4. Four inserts at
  // position 2 make it 8, the fifth 9: a new slot of 4 below, 5 kept.
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(d.InsertRec(2).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 8, 4, 5}));
  ASSERT_TRUE(d.InsertRec(2).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 5, 4, 5}));
  EXPECT_EQ(d.n_recs(), 17u);
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, InsertAtAGroupBoundaryJoinsTheUpperGroup) {
  // {1, 4, 5}: slot 1 owns positions 1..4, slot 2 positions 5..9. A record
  // entering at position 5 (after the owner of slot 1) is followed by the
  // first record of slot 2's group, which it joins: {1, 4, 6}.
  PageDirectory d;
  Append(d, 8);
  ASSERT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 5}));
  ASSERT_TRUE(d.InsertRec(5).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 6}));
  // At position 4 (before slot 1's owner): slot 1 grows: {1, 5, 6}.
  ASSERT_TRUE(d.InsertRec(4).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 5, 6}));
}

TEST(PageDirectoryTest, DeleteBelowTheMinimumMergesWithAnUpperNeighbourOfFour) {
  // 12 appends: {1, 4, 4, 5}. Deleting position 1 (slot 1, owned 4): the
  // old n_owned 4 <= PAGE_DIR_SLOT_MIN_N_OWNED, so page_dir_balance_slot
  // runs; the upper neighbour owns 4, not more: page_dir_delete_slot
  // merges them, 3 + 4 = 7: {1, 7, 5}.
  PageDirectory d;
  Append(d, 12);
  ASSERT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 5}));
  ASSERT_TRUE(d.DeleteRec(1).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 7, 5}));
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, DeleteBelowTheMinimumBorrowsFromAnUpperNeighbourOfMoreThanFour) {
  // 12 appends: {1, 4, 4, 5}. Position 6 is in slot 2 (positions 5..8,
  // owned 4): 4 -> 3; the upper neighbour (the supremum's slot) owns 5 > 4,
  // so one record passes down: {1, 4, 4, 4}.
  PageDirectory d;
  Append(d, 12);
  ASSERT_TRUE(d.DeleteRec(6).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 4}));
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, DeleteFromAGroupOfMoreThanFourDoesNotBalance) {
  // {1, 4, 5, 4, 5} after the middle split above; slot 2 owns 5: 5 -> 4,
  // no balance (old n_owned 5 > 4).
  PageDirectory d;
  Append(d, 12);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(d.InsertRec(2).ok());
  ASSERT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 5, 4, 5}));
  ASSERT_TRUE(d.DeleteRec(7).ok());  // slot 2 owns positions 5..9
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 4, 5}));
}

TEST(PageDirectoryTest, TheSupremumsSlotIsNeverBalanced) {
  // {1, 4, 4, 4} (from the borrow case), 11 records: the supremum's slot
  // owns positions 9..12 (three records and itself). Deleting two of them:
  // 4 -> 3 -> 2; page_dir_balance_slot returns at once for the last slot.
  PageDirectory d;
  Append(d, 12);
  ASSERT_TRUE(d.DeleteRec(6).ok());
  ASSERT_TRUE(d.DeleteRec(11).ok());
  ASSERT_TRUE(d.DeleteRec(10).ok());
  EXPECT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 2}));
  EXPECT_EQ(d.n_recs(), 9u);
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, FindOwnerSlot) {
  // {1, 4, 4, 5}: slot 0 owns position 0 (the infimum), slot 1 positions
  // 1..4, slot 2 5..8, slot 3 9..13 (13 = the supremum).
  PageDirectory d;
  Append(d, 12);
  EXPECT_EQ(d.FindOwnerSlot(0), 0u);
  for (uint32_t pos = 1; pos <= 4; ++pos) EXPECT_EQ(d.FindOwnerSlot(pos), 1u) << pos;
  for (uint32_t pos = 5; pos <= 8; ++pos) EXPECT_EQ(d.FindOwnerSlot(pos), 2u) << pos;
  for (uint32_t pos = 9; pos <= 13; ++pos) EXPECT_EQ(d.FindOwnerSlot(pos), 3u) << pos;
}

TEST(PageDirectoryTest, BulkLayoutOfCopyRecListEndToCreatedPage) {
  // A slot on every (8 + 1) / 2 = 4th record, owning 4; count = the records
  // after the last such slot (n % 4, so at most 3). If there is such a slot
  // and count + 1 + 4 <= 8 (always, as count <= 3), it is merged into the
  // supremum's, which then owns count + 4 + 1; else the supremum owns
  // count + 1.
  struct Case {
    uint32_t n;
    std::vector<uint32_t> slots;
  };
  const std::vector<Case> cases = {
      {0, {1, 1}},
      {1, {1, 2}},
      {3, {1, 4}},
      {4, {1, 5}},  // one slot of 4, merged: 0 + 4 + 1
      {7, {1, 8}},  // one slot, count 3: 3 + 4 + 1
      {8, {1, 4, 5}},
      {11, {1, 4, 8}},
      {12, {1, 4, 4, 5}},
      {53, Concat(Concat({1}, Fours(12)), {6})},    // 13 slots, count 1
      {106, Concat(Concat({1}, Fours(25)), {7})},   // 26 slots, count 2
      {460, Concat(Concat({1}, Fours(114)), {5})},  // 115 slots, count 0
  };
  for (const Case& c : cases) {
    PageDirectory d;
    ASSERT_TRUE(d.CopyRecListEndToCreatedPage(c.n).ok());
    EXPECT_EQ(Slots(d), c.slots) << c.n;
    EXPECT_EQ(d.n_recs(), c.n);
    EXPECT_EQ(d.Verify(), "") << c.n;
  }
}

TEST(PageDirectoryTest, BulkLayoutDiffersFromInsertingOneByOne) {
  // 10 records inserted one by one at the front: the supremum's group
  // reaches 9 at the 8th and splits into {4, 5}; the 9th and 10th join the
  // first group: {1, 6, 5}. The bulk copy of 10 gives {1, 4, 7} (slots at
  // records 4 and 8, the second merged into the supremum's: 2 + 4 + 1).
  PageDirectory bulk;
  ASSERT_TRUE(bulk.CopyRecListEndToCreatedPage(10).ok());
  EXPECT_EQ(Slots(bulk), (std::vector<uint32_t>{1, 4, 7}));
  PageDirectory front;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(front.InsertRec(1).ok());
  EXPECT_EQ(Slots(front), (std::vector<uint32_t>{1, 6, 5}));
}

TEST(PageDirectoryTest, DeleteRecListEndTruncatesTheDirectory) {
  // 20 appends: {1, 4, 4, 4, 4, 5}; slot 3 owns positions 9..12.
  PageDirectory d;
  Append(d, 20);
  ASSERT_EQ(Slots(d), (std::vector<uint32_t>{1, 4, 4, 4, 4, 5}));
  PageDirectory at_11 = d;
  // From position 11: positions 9 and 10 survive in slot 3's group, which
  // now ends at the supremum: 2 + 1 = 3; slots 4 and 5 are dropped.
  ASSERT_TRUE(at_11.DeleteRecListEnd(11).ok());
  EXPECT_EQ(Slots(at_11), (std::vector<uint32_t>{1, 4, 4, 3}));
  EXPECT_EQ(at_11.n_recs(), 10u);
  // From position 9, the first of slot 3's group: it keeps the supremum
  // alone, fewer than 4, and nothing is rebalanced.
  PageDirectory at_9 = d;
  ASSERT_TRUE(at_9.DeleteRecListEnd(9).ok());
  EXPECT_EQ(Slots(at_9), (std::vector<uint32_t>{1, 4, 4, 1}));
  EXPECT_EQ(at_9.Verify(), "");
  // From the supremum: nothing. From the first record: page_create_empty.
  PageDirectory at_sup = d;
  ASSERT_TRUE(at_sup.DeleteRecListEnd(21).ok());
  EXPECT_EQ(Slots(at_sup), Slots(d));
  PageDirectory at_1 = d;
  ASSERT_TRUE(at_1.DeleteRecListEnd(1).ok());
  EXPECT_EQ(Slots(at_1), (std::vector<uint32_t>{1, 1}));
}

TEST(PageDirectoryTest, DeleteRecListStartDeletesTheFirstRecordRepeatedly) {
  std::mt19937_64 rng(3);
  PageDirectory base;
  for (int i = 0; i < 80; ++i) ASSERT_TRUE(base.InsertRec(1 + rng() % (base.n_recs() + 1)).ok());
  for (uint32_t to = 1; to <= 81; to += 5) {
    PageDirectory start = base;
    PageDirectory one = base;
    ASSERT_TRUE(start.DeleteRecListStart(to).ok());
    for (uint32_t i = 1; i < to; ++i) ASSERT_TRUE(one.DeleteRec(1).ok());
    if (to == 81) {
      EXPECT_EQ(Slots(start), (std::vector<uint32_t>{1, 1}));  // page_create_empty
    } else {
      EXPECT_EQ(Slots(start), Slots(one)) << to;
    }
    EXPECT_EQ(start.n_recs(), 81 - to);
    EXPECT_EQ(start.Verify(), "");
  }
}

TEST(PageDirectoryTest, OperationsOffTheListAreRefusedAndChangeNothing) {
  PageDirectory d;
  Append(d, 12);
  const std::vector<uint32_t> before = Slots(d);
  EXPECT_EQ(d.InsertRec(0).code(), absl::StatusCode::kOutOfRange);   // before the infimum
  EXPECT_EQ(d.InsertRec(14).code(), absl::StatusCode::kOutOfRange);  // past the supremum
  EXPECT_EQ(d.DeleteRec(0).code(), absl::StatusCode::kOutOfRange);   // the infimum
  EXPECT_EQ(d.DeleteRec(13).code(), absl::StatusCode::kOutOfRange);  // the supremum
  EXPECT_EQ(d.DeleteRecListEnd(0).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(d.DeleteRecListStart(14).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(d.CopyRecListEndToCreatedPage(4).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Slots(d), before);
}

TEST(PageDirectoryTest, APageFullOfTheSmallestRecordsRefusesOneMore) {
  // kPageMaxRecs records of 6 bytes fill a 64 KiB page: (65536 - 120 - 8 -
  // 4) / 6 = 10900.
  ASSERT_EQ(kPageMaxRecs, 10900u);
  PageDirectory d;
  ASSERT_TRUE(d.CopyRecListEndToCreatedPage(kPageMaxRecs).ok());
  EXPECT_EQ(d.InsertRec(1).code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(d.Verify(), "");
}

TEST(PageDirectoryTest, RandomInsertsAndDeletesKeepTheInvariants) {
  std::mt19937_64 rng(7);
  PageDirectory d;
  for (int step = 0; step < 20000; ++step) {
    const uint32_t n = d.n_recs();
    if (n == 0 || (n < 600 && rng() % 3 != 0)) {
      ASSERT_TRUE(d.InsertRec(1 + rng() % (n + 1)).ok());
    } else {
      ASSERT_TRUE(d.DeleteRec(1 + rng() % n).ok());
    }
    ASSERT_EQ(d.Verify(), "") << step;
  }
}

}  // namespace
}  // namespace innosim
