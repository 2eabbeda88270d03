// Specification tests for the split heuristics (model/split_rules.h) on
// hand-built pages.
//
// Pages are built with InsertAfter in a chosen order so that PAGE_LAST_INSERT
// is the record we want; expectations follow btr_page_get_split_rec_to_right,
// btr_page_get_split_rec_to_left, page_get_middle_rec and
// btr_page_get_split_rec as docs/innodb-rules.md, 'Splits', states them.
#include "model/split_rules.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "model/index_page.h"
#include "model/fast/page_pool.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

constexpr uint32_t k16K = 16384;
constexpr uint32_t kRec = 142;

// K(): tests/test_util.h.

class SplitRulesTest : public ::testing::Test {
 protected:
  void TearDown() override {
    page_.Release(pool_);
    src_.Release(pool_);
  }

  // n records with keys 10, 20, ..., 10n; the record at ordinal `last` is
  // inserted last, so PAGE_LAST_INSERT == last.
  void Build(int n, int last) {
    page_.Create(5, 0, kRec, k16K, pool_);
    for (int i = 0; i < n; ++i) {
      if (i == last) continue;
      ASSERT_TRUE(page_.InsertAfter(page_.n_recs() - 1, K(10 * (i + 1)), 0, pool_));
    }
    ASSERT_TRUE(page_.InsertAfter(last - 1, K(10 * (last + 1)), 0, pool_));
    ASSERT_EQ(page_.last_insert(), last);
    ASSERT_EQ(page_.n_recs(), n);
    ASSERT_EQ(page_.Verify(), "");
  }

  // n records and PAGE_LAST_INSERT == NULL (a freshly bulk-copied page, as
  // after a root raise or on the new page of a split).
  void BuildNoLastInsert(int n) {
    src_.Create(4, 0, kRec, k16K, pool_);
    for (int i = 0; i < n; ++i) ASSERT_TRUE(src_.InsertAfter(i - 1, K(10 * (i + 1)), 0, pool_));
    page_.Create(5, 0, kRec, k16K, pool_);
    page_.CopyEndToCreated(src_, 0, pool_);
    ASSERT_EQ(page_.last_insert(), -1);
    ASSERT_EQ(page_.n_recs(), n);
  }

  PagePool pool_;
  IndexPage page_;
  IndexPage src_;
};

TEST_F(SplitRulesTest, ToRightAfterLastRecordSplitsAtTheNewRecord) {
  Build(10, 9);
  int split = 123;
  // Insert point = LAST_INSERT = the last record: next is the supremum.
  ASSERT_TRUE(SplitRecToRight(page_, 9, &split));
  EXPECT_EQ(split, kNoSplitRec);
  // Any other insert point does not look sequential to the right.
  EXPECT_FALSE(SplitRecToRight(page_, 8, &split));
  EXPECT_FALSE(SplitRecToRight(page_, -1, &split));
}

TEST_F(SplitRulesTest, ToRightAfterSecondToLastRecordSplitsAtTheNewRecord) {
  Build(10, 8);
  int split = 123;
  // next(insert point) = record 9, next(record 9) = supremum: NULL.
  ASSERT_TRUE(SplitRecToRight(page_, 8, &split));
  EXPECT_EQ(split, kNoSplitRec);
}

TEST_F(SplitRulesTest, ToRightInTheMiddleKeepsOneRecord) {
  Build(10, 5);
  int split = 123;
  // "Keep one": record 6 stays, the upper half starts at record 7.
  ASSERT_TRUE(SplitRecToRight(page_, 5, &split));
  EXPECT_EQ(split, 7);
  const SplitDecision d = DecideSplit(page_, 5, 0, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kToRight);
  EXPECT_EQ(d.direction, FspDirection::kUp);
  EXPECT_EQ(d.split_rec, 7);
  // The tuple (between records 5 and 6) sorts below record 7: left half.
  EXPECT_TRUE(d.insert_left);
  // Inserting after the first record, when it is LAST_INSERT: split at 2.
  Build(10, 0);
  ASSERT_TRUE(SplitRecToRight(page_, 0, &split));
  EXPECT_EQ(split, 2);
}

TEST_F(SplitRulesTest, ToLeftSplitsAtTheInsertPoint) {
  Build(10, 5);
  int split = 123;
  // LAST_INSERT (5) == next(insert point 4); the insert point is neither
  // the infimum nor the first record: split_rec = insert point.
  ASSERT_TRUE(SplitRecToLeft(page_, 4, &split));
  EXPECT_EQ(split, 4);
  EXPECT_FALSE(SplitRecToLeft(page_, 5, &split));
  EXPECT_FALSE(SplitRecToLeft(page_, 3, &split));
  const SplitDecision d = DecideSplit(page_, 4, 0, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kToLeft);
  EXPECT_EQ(d.direction, FspDirection::kDown);
  EXPECT_EQ(d.split_rec, 4);
  // The tuple sorts above record 4: it stays on the upper (old) page.
  EXPECT_FALSE(d.insert_left);
}

TEST_F(SplitRulesTest, ToLeftAtInfimumOrFirstRecordSplitsAtNext) {
  int split = 123;
  // Descending append: insert point is the infimum, LAST_INSERT the first
  // record: split_rec = next(infimum) = record 0, the tuple goes left alone.
  Build(10, 0);
  ASSERT_TRUE(SplitRecToLeft(page_, -1, &split));
  EXPECT_EQ(split, 0);
  SplitDecision d = DecideSplit(page_, -1, 0, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kToLeft);
  EXPECT_EQ(d.split_rec, 0);
  EXPECT_TRUE(d.insert_left);
  // Insert point = first record, LAST_INSERT = second: split_rec = record 1.
  Build(10, 1);
  ASSERT_TRUE(SplitRecToLeft(page_, 0, &split));
  EXPECT_EQ(split, 1);
  d = DecideSplit(page_, 0, 0, kRec);
  EXPECT_EQ(d.split_rec, 1);
  EXPECT_TRUE(d.insert_left);  // the tuple (between 0 and 1) is below record 1
  // Insert point = second record: the insert point itself.
  Build(10, 2);
  ASSERT_TRUE(SplitRecToLeft(page_, 1, &split));
  EXPECT_EQ(split, 1);
}

TEST_F(SplitRulesTest, NoLastInsertMeansMiddleSplit) {
  BuildNoLastInsert(10);
  int split = 123;
  EXPECT_FALSE(SplitRecToRight(page_, 9, &split));
  EXPECT_FALSE(SplitRecToLeft(page_, -1, &split));
  const SplitDecision d = DecideSplit(page_, 9, 0, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kMiddle);
  EXPECT_EQ(d.direction, FspDirection::kUp);
  // (10 + 2) / 2 = 6th user record = ordinal 5.
  EXPECT_EQ(d.split_rec, 5);
  EXPECT_FALSE(d.insert_left);
}

TEST_F(SplitRulesTest, MiddleRecordOrdinals) {
  // page_get_middle_rec: list position (n + 2) / 2 counting the infimum as
  // 0, i.e. user ordinal (n + 2) / 2 - 1.
  struct Case {
    int n;
    int ordinal;
  };
  for (const Case c : {Case{106, 53}, Case{113, 56}, Case{114, 57}, Case{2, 1}, Case{3, 1}, Case{4, 2}}) {
    BuildNoLastInsert(c.n);
    EXPECT_EQ(MiddleRec(page_), c.ordinal) << c.n;
    const SplitDecision d = DecideSplit(page_, 0, 0, kRec);
    EXPECT_EQ(d.kind, SplitDecision::Kind::kMiddle);
    EXPECT_EQ(d.split_rec, c.ordinal);
    // insert_left iff the tuple (after `cursor`) sorts below the middle
    // record, i.e. cursor + 1 <= ordinal.
    EXPECT_TRUE(DecideSplit(page_, c.ordinal - 1, 0, kRec).insert_left) << c.n;
    EXPECT_FALSE(DecideSplit(page_, c.ordinal, 0, kRec).insert_left) << c.n;
    EXPECT_TRUE(DecideSplit(page_, -1, 0, kRec).insert_left) << c.n;
    EXPECT_FALSE(DecideSplit(page_, c.n - 1, 0, kRec).insert_left) << c.n;
  }
}

TEST_F(SplitRulesTest, MiddleSplitOfOneRecordPage) {
  BuildNoLastInsert(1);
  // A tuple below the only record: split_rec = that record, tuple left.
  SplitDecision d = DecideSplit(page_, -1, 0, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kMiddle);
  EXPECT_EQ(d.split_rec, 0);
  EXPECT_TRUE(d.insert_left);
  // Above it: split_rec NULL, the tuple alone on the new page.
  d = DecideSplit(page_, 0, 0, kRec);
  EXPECT_EQ(d.split_rec, kNoSplitRec);
  EXPECT_FALSE(d.insert_left);
}

TEST_F(SplitRulesTest, SureSplitOnSmallPage) {
  // 4 records of 142 bytes plus a 142-byte tuple: total_space = 5 x 142 +
  // ceil(5/2) = 713, half = 356. Walking the sequence with the tuple
  // spliced in: after 1 item 142 + 1 = 143, 2 items 284 + 1 = 285, 3 items
  // 426 + 2 = 428 >= 356: stop after the third item; it fits on an empty
  // page, so the item after it starts the upper half.
  Build(4, 3);
  // Tuple after record 1: items rec0, rec1, tuple | rec2 -> split_rec 2.
  EXPECT_EQ(SureSplitRec(page_, 1, kRec), 2);
  // Tuple after record 0: rec0, tuple, rec1 | rec2 -> 2.
  EXPECT_EQ(SureSplitRec(page_, 0, kRec), 2);
  // Tuple first: tuple, rec0, rec1 | rec2 -> 2.
  EXPECT_EQ(SureSplitRec(page_, -1, kRec), 2);
  // Tuple after record 2: rec0, rec1, rec2 | tuple -> NULL (the tuple
  // starts the upper half).
  EXPECT_EQ(SureSplitRec(page_, 2, kRec), kNoSplitRec);
  // Tuple after record 3: rec0, rec1, rec2 | rec3 -> 3.
  EXPECT_EQ(SureSplitRec(page_, 3, kRec), 3);
  // A 1000-byte tuple after record 1: total 568 + 1000 + 3 = 1571, half
  // 785: rec0 143, rec1 285, tuple 1286 >= 785 -> next item rec2.
  EXPECT_EQ(SureSplitRec(page_, 1, 1000), 2);
  // A 1000-byte tuple first: 1001 >= 785 after one item -> rec0 is next.
  EXPECT_EQ(SureSplitRec(page_, -1, 1000), 0);

  // DecideSplit on a retry uses the sure split, FSP_UP.
  SplitDecision d = DecideSplit(page_, 1, 1, kRec);
  EXPECT_EQ(d.kind, SplitDecision::Kind::kSure);
  EXPECT_EQ(d.direction, FspDirection::kUp);
  EXPECT_EQ(d.split_rec, 2);
  EXPECT_TRUE(d.insert_left);  // tuple (after record 1) < record 2
  d = DecideSplit(page_, 2, 1, kRec);
  EXPECT_EQ(d.split_rec, kNoSplitRec);
  EXPECT_FALSE(d.insert_left);  // NULL split and the tuple is not below rec0
  d = DecideSplit(page_, 3, 1, kRec);
  EXPECT_EQ(d.split_rec, 3);
  EXPECT_FALSE(d.insert_left);
}

TEST_F(SplitRulesTest, SureSplitLastIncludedBeforeSupremum) {
  // 2 records + a 142-byte tuple at the end: total 3 x 142 + ceil(3/2) =
  // 428, half 214: rec0 143, rec1 285 >= 214 -> stop at rec1, which is the
  // insert point: the tuple is the next item, so split_rec = NULL.
  Build(2, 1);
  EXPECT_EQ(SureSplitRec(page_, 1, kRec), kNoSplitRec);
  // Tuple after record 0: rec0 143, tuple 285 -> stop; next = rec1 -> 1.
  EXPECT_EQ(SureSplitRec(page_, 0, kRec), 1);
}

}  // namespace
}  // namespace innosim
