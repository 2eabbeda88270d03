// Equivalence of the owner-bit directory (model/fast/owner_bits.h, inside
// IndexPage) with InnoDB's directory rules as PageDirectory states them
// (model/page_dir.h).
//
// The same operations are applied to an IndexPage and to a PageDirectory:
// inserts at random places and appends, single deletes, deletes of a list's
// start and end, splits of a full page to the right (a bulk copy onto a
// created page) and to the left (a run of appends onto an empty page),
// reorganizations: each IndexPage path that sets the directory. After
// every step the page's PAGE_N_DIR_SLOTS and every slot's n_owned
// must be PageDirectory's. Pages of 4, 16 and 64 KiB with records of
// several sizes: pages of more than 126 records keep their owner bits in
// more than two words, a different code path from smaller ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "model/fast/page_pool.h"
#include "model/index_page.h"
#include "model/page_dir.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

::testing::AssertionResult SameDirectory(const IndexPage& page, const PageDirectory& rule) {
  if (static_cast<uint32_t>(page.n_recs()) != rule.n_recs()) {
    return ::testing::AssertionFailure() << "n_recs " << page.n_recs() << " vs " << rule.n_recs();
  }
  if (page.n_dir_slots() != rule.n_slots()) {
    return ::testing::AssertionFailure() << "PAGE_N_DIR_SLOTS " << page.n_dir_slots() << " vs " << rule.n_slots();
  }
  const std::vector<uint32_t> n_owned = page.slots_n_owned();
  if (n_owned.size() != rule.n_slots()) {
    return ::testing::AssertionFailure() << n_owned.size() << " owners, " << rule.n_slots() << " slots";
  }
  for (uint32_t s = 0; s < rule.n_slots(); ++s) {
    if (n_owned[s] != rule.n_owned(s)) {
      return ::testing::AssertionFailure()
             << "slot " << s << " of " << rule.n_slots() << " owns " << n_owned[s] << " vs " << rule.n_owned(s);
    }
  }
  // slot_n_owned, the accessor of one slot, agrees (checked on the first
  // and the last slot: it walks to its slot).
  if (page.slot_n_owned(0) != rule.n_owned(0) ||
      page.slot_n_owned(rule.n_slots() - 1) != rule.n_owned(rule.n_slots() - 1)) {
    return ::testing::AssertionFailure() << "slot_n_owned disagrees with slots_n_owned";
  }
  return ::testing::AssertionSuccess();
}

// PageDirectory after btr_page_reorganize_low or page_copy_rec_list_start
// onto an empty page: page_create, then n appends through
// page_cur_insert_rec_low.
PageDirectory Appended(uint32_t n) {
  PageDirectory d;
  for (uint32_t i = 1; i <= n; ++i) EXPECT_TRUE(d.InsertRec(i).ok());
  return d;
}

struct Shape {
  uint32_t page_size;
  uint32_t rec_size;
};

std::string Label(const Shape& s) { return absl::StrCat(s.page_size, "/", s.rec_size); }

// Records of 30 bytes fill a 4 KiB page with about 127 (more than two owner
// words), a 64 KiB page with about 2100; 142 is table A's leaf record;
// 400-byte records leave 9 on a 4 KiB page.
constexpr Shape kShapes[] = {{4096, 30},   {4096, 142}, {4096, 400},  {16384, 30}, {16384, 142},
                             {16384, 400}, {65536, 30}, {65536, 142}, {65536, 400}};

class DirectoryEquivalenceTest : public ::testing::TestWithParam<Shape> {
 protected:
  PagePool pool_;
};

TEST_P(DirectoryEquivalenceTest, RandomOperationSequencesMatchTheRules) {
  const Shape shape = GetParam();
  std::mt19937_64 rng(shape.page_size * 7 + shape.rec_size);
  IndexPage page;
  page.Create(5, 0, shape.rec_size, shape.page_size, pool_);
  PageDirectory rule;
  std::set<uint64_t> used;
  auto fresh_key = [&] {
    uint64_t k = rng() >> 4;
    while (!used.insert(k).second) k = rng() >> 4;
    return k;
  };
  int full = 0;      // inserts refused: the page was full
  int max_recs = 0;  // the most records the page held
  // Mostly inserts, so that the page fills; a full page is split as a
  // B-tree splits it (to the right or to the left at a random record),
  // and the sequence goes on with the half that stays.
  const int steps = 3000 + 8 * static_cast<int>(shape.page_size / shape.rec_size);
  for (int step = 0; step < steps; ++step) {
    const auto n = static_cast<uint32_t>(page.n_recs());
    max_recs = std::max(max_recs, page.n_recs());
    const uint32_t op = static_cast<uint32_t>(rng() % 1000);
    std::string what;
    if (op < 700) {  // page_cur_insert_rec_low at a random place
      const uint64_t k = fresh_key();
      bool dup = false;
      const int cursor = page.SearchInsertCursor(K(k), &dup);
      ASSERT_FALSE(dup);
      what = absl::StrCat("insert after ", cursor);
      if (page.InsertAfter(cursor, K(k), 0, pool_)) {
        ASSERT_TRUE(rule.InsertRec(static_cast<uint32_t>(cursor) + 2).ok());
      } else if (rng() % 2 == 0) {  // full: a split to the right, copy the end and delete it
        ++full;
        const auto from = static_cast<int>(1 + rng() % n);
        what = absl::StrCat("split at ", from);
        IndexPage upper;
        upper.Create(6, 0, shape.rec_size, shape.page_size, pool_);
        upper.CopyEndToCreated(page, from, pool_);
        PageDirectory upper_rule;
        ASSERT_TRUE(upper_rule.CopyRecListEndToCreatedPage(n - static_cast<uint32_t>(from)).ok());
        ASSERT_TRUE(SameDirectory(upper, upper_rule)) << Label(shape) << " step " << step << " upper of " << what;
        ASSERT_EQ(upper.Verify(), "");
        upper.Release(pool_);
        page.DeleteEnd(from, pool_);
        ASSERT_TRUE(rule.DeleteRecListEnd(static_cast<uint32_t>(from) + 1).ok());
      } else {  // full: a split to the left, append the start to a new page and delete it
        ++full;
        const auto to = static_cast<int>(1 + rng() % n);
        what = absl::StrCat("split left at ", to);
        IndexPage lower;
        lower.Create(6, 0, shape.rec_size, shape.page_size, pool_);
        lower.AppendStartFrom(page, to, pool_);
        ASSERT_TRUE(SameDirectory(lower, Appended(static_cast<uint32_t>(to))))
            << Label(shape) << " step " << step << " lower of " << what;
        ASSERT_EQ(lower.Verify(), "");
        lower.Release(pool_);
        page.DeleteStart(to, pool_);
        ASSERT_TRUE(rule.DeleteRecListStart(static_cast<uint32_t>(to) + 1).ok());
      }
    } else if (op < 780) {  // appends (ordered keys)
      for (int i = 0; i < 10; ++i) {
        const uint64_t k = (page.n_recs() == 0 ? 0 : page.key(page.n_recs() - 1).hi) + 1 + rng() % 1000;
        if (!used.insert(k).second) continue;
        if (!page.InsertAfter(page.n_recs() - 1, K(k), 0, pool_)) break;
        ASSERT_TRUE(rule.InsertRec(rule.n_recs() + 1).ok());
      }
      what = "appends";
    } else if (op < 950) {  // page_cur_delete_rec
      if (n == 0) continue;
      const auto pos = static_cast<int>(rng() % n);
      what = absl::StrCat("delete ", pos);
      page.DeleteRec(pos);
      ASSERT_TRUE(rule.DeleteRec(static_cast<uint32_t>(pos) + 1).ok());
    } else if (op < 997) {  // btr_page_reorganize_low
      what = "reorganize";
      page.Reorganize();
      rule = Appended(n);
    } else if (op < 998) {  // page_delete_rec_list_end / _start at a random record, the whole page included
      const auto at = static_cast<int>(rng() % (n + 1));
      if (rng() % 2 == 0) {
        what = absl::StrCat("delete end from ", at);
        page.DeleteEnd(at, pool_);
        ASSERT_TRUE(rule.DeleteRecListEnd(static_cast<uint32_t>(at) + 1).ok());
      } else {
        what = absl::StrCat("delete start to ", at);
        page.DeleteStart(at, pool_);
        ASSERT_TRUE(rule.DeleteRecListStart(static_cast<uint32_t>(at) + 1).ok());
      }
    } else {  // a stretch of the first records deleted one by one
      const auto to = static_cast<int>(rng() % (n / 16 + 1));
      what = absl::StrCat("delete first ", to, " one by one");
      for (int i = 0; i < to; ++i) page.DeleteRec(0);
      for (int i = 0; i < to; ++i) ASSERT_TRUE(rule.DeleteRec(1).ok());
    }
    ASSERT_EQ(page.Verify(), "") << Label(shape) << " step " << step << " " << what;
    ASSERT_EQ(rule.Verify(), "") << Label(shape) << " step " << step << " " << what;
    ASSERT_TRUE(SameDirectory(page, rule)) << Label(shape) << " step " << step << " " << what;
  }
  page.Release(pool_);
  // The sequence reached what it is meant to exercise: full pages, and on
  // pages of small records more than 126 records (owner bits in more than
  // two words).
  EXPECT_GE(full, 3) << Label(shape);
  if (shape.rec_size == 30) {
    EXPECT_GT(max_recs, 126) << Label(shape);
  }
}

// Every record count a page of this shape can hold, for the paths that set
// the whole directory at once: page_copy_rec_list_end_to_created_page
// (CopyEndToCreated), m appends onto an empty page (AppendStartFrom's
// closed form) and btr_page_reorganize_low (Reorganize).
TEST_P(DirectoryEquivalenceTest, WholeDirectoryLayoutsForEveryRecordCount) {
  const Shape shape = GetParam();
  IndexPage src;
  src.Create(3, 0, shape.rec_size, shape.page_size, pool_);
  while (src.InsertAfter(src.n_recs() - 1, K(10 * (src.n_recs() + 1)), 0, pool_)) {
  }
  const auto max = static_cast<uint32_t>(src.n_recs());
  ASSERT_GT(max, 8u);
  for (uint32_t m = 0; m <= max; ++m) {
    IndexPage copied;
    copied.Create(4, 0, shape.rec_size, shape.page_size, pool_);
    copied.CopyEndToCreated(src, static_cast<int>(max - m), pool_);
    PageDirectory bulk;
    ASSERT_TRUE(bulk.CopyRecListEndToCreatedPage(m).ok());
    ASSERT_TRUE(SameDirectory(copied, bulk)) << Label(shape) << " copy of " << m;

    IndexPage appended;
    appended.Create(5, 0, shape.rec_size, shape.page_size, pool_);
    appended.AppendStartFrom(src, static_cast<int>(m), pool_);
    ASSERT_TRUE(SameDirectory(appended, Appended(m))) << Label(shape) << " " << m << " appends";

    // A page whose directory came from random inserts, reorganized.
    IndexPage reorganized;
    reorganized.Create(6, 0, shape.rec_size, shape.page_size, pool_);
    std::mt19937_64 rng(m);
    for (uint32_t i = 0; i < m; ++i) {
      bool dup = false;
      uint64_t k = rng() >> 4;
      while (reorganized.SearchInsertCursor(K(k), &dup), dup) k = rng() >> 4;
      ASSERT_TRUE(reorganized.InsertAfter(reorganized.SearchInsertCursor(K(k), &dup), K(k), 0, pool_));
    }
    reorganized.Reorganize();
    ASSERT_TRUE(SameDirectory(reorganized, Appended(m))) << Label(shape) << " reorganize of " << m;

    copied.Release(pool_);
    appended.Release(pool_);
    reorganized.Release(pool_);
  }
  src.Release(pool_);
}

INSTANTIATE_TEST_SUITE_P(PageAndRecordSizes, DirectoryEquivalenceTest, ::testing::ValuesIn(kShapes),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return absl::StrCat("p", info.param.page_size, "_r", info.param.rec_size);
                         });

}  // namespace
}  // namespace innosim
