// Specification tests for BTree (model/btree.h) through Engine: the 1/16
// reserve, root raises, split kinds, the right-sibling shortcut, counters
// and size statistics.
//
// Expected counts are derived by hand from docs/innodb-rules.md:
// 'Record sizes' (records per leaf), 'Optimistic insert' (reserve rule),
// 'Right-sibling shortcut', 'Splits' and 'Root raise' (split points),
// 'Counters' (index_page_splits).
// The helpers below restate those inequalities independently of the model.
#include "model/btree.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/index_page.h"
#include "model/record_format.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

// K(): tests/test_util.h.
uint32_t CeilHalf(uint32_t n) { return (n + 1) / 2; }

// 'Optimistic insert': rows a clustered leaf takes from an append stream: the n+1-th row
// goes in while free - n x rec - ceil((n+1)/2) >= page/16 + rec.
uint32_t SequentialFill(uint32_t page_size, uint32_t rec) {
  uint32_t rows = 0;
  for (uint32_t n = 0;; ++n) {
    const int64_t max = int64_t{FreeSpaceOfEmpty(page_size)} - n * rec - CeilHalf(n + 1);
    if (n >= 2 && max < int64_t{page_size / 16 + rec}) break;
    if (max < rec) break;
    rows = n + 1;
  }
  return rows;
}

// 'Record sizes': rows a page takes without the reserve (random inserts, non-leaf
// pages): while free - n x rec - ceil((n+1)/2) >= rec.
uint32_t RandomFill(uint32_t page_size, uint32_t rec) {
  uint32_t rows = 0;
  for (uint32_t n = 0;; ++n) {
    if (int64_t{FreeSpaceOfEmpty(page_size)} - n * rec - CeilHalf(n + 1) < rec) break;
    rows = n + 1;
  }
  return rows;
}

// page_get_middle_rec: records left on the lower page by a middle split of
// a page with n records (ordinal (n + 2) / 2 - 1 is the first that moves).
uint32_t MiddleLower(uint32_t n) { return (n + 2) / 2 - 1; }

// Pages per level (leaf first) after `rows` ascending appends, by hand:
// the lone root leaf fills to S, the root raise splits it in the middle
// (lower keeps MiddleLower(S)), then every later leaf fills to S and splits
// at the new record (to the right). Non-leaf levels behave the same with P
// node pointers per page and no reserve.
std::vector<uint64_t> AscendingPages(uint64_t rows, uint32_t s, uint32_t p) {
  std::vector<uint64_t> pages;
  uint64_t items = rows;
  uint32_t fill = s;
  for (;;) {
    if (items <= fill) {
      pages.push_back(1);
      return pages;
    }
    const uint64_t lower = MiddleLower(fill);
    const uint64_t n = 1 + (items - lower + fill - 1) / fill;
    pages.push_back(n);
    items = n;
    fill = p;
  }
}

uint64_t LeafPages(const EngineReport& r) { return r.primary.levels.back().pages; }

// Records-per-page histogram of the leaf level, as {records: pages}.
std::vector<std::pair<uint64_t, uint64_t>> LeafHistogram(const Engine& e) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  const std::vector<uint64_t> h = e.primary().Census().back().records_histogram;
  for (size_t i = 0; i < h.size(); ++i) {
    if (h[i] != 0) out.push_back({i, h[i]});
  }
  return out;
}

using Hist = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(BTreeFillTest, HandFormulasMatchTheDocumentTable) {
  // 'Record sizes' table: 106 / 114 (142-byte rows), 113 / 120 (134-byte rows);
  // 'Node pointers': ~637 node pointers of 25 bytes.
  EXPECT_EQ(SequentialFill(16384, 142), 106u);
  EXPECT_EQ(RandomFill(16384, 142), 114u);
  EXPECT_EQ(SequentialFill(16384, 134), 113u);
  EXPECT_EQ(RandomFill(16384, 134), 120u);
  EXPECT_EQ(RandomFill(16384, 25), 637u);
}

class BTreeAscendingTest : public ::testing::TestWithParam<int> {};

TEST_P(BTreeAscendingTest, ReserveRuleThenRootRaiseInTheMiddle) {
  const int width = GetParam();
  const TableDef table = Seed000Table(width);
  const uint32_t rec = ClusteredRecordSizes(table).leaf;
  const uint32_t s = SequentialFill(16384, rec);  // 106 or 113
  const uint32_t lower = MiddleLower(s);           // 53 or 56
  Engine e(EngineProfile::MySQL84(), table);
  uint64_t k = 0;
  for (uint32_t i = 0; i < s; ++i) ASSERT_TRUE(e.InsertRow(K(++k)).ok());
  // The lone root leaf holds s rows: the reserve has not refused yet.
  EXPECT_EQ(e.primary().height(), 1u);
  EXPECT_EQ(LeafHistogram(e), (Hist{{s, 1}}));
  EXPECT_EQ(e.primary().counters().index_page_splits, 0u);
  // Row s + 1: the reserve refuses, the root is raised and its copy split in
  // the middle (LAST_INSERT is NULL after the bulk copy): lower keeps
  // `lower`, the upper half gets s - lower records plus the new row.
  ASSERT_TRUE(e.InsertRow(K(++k)).ok());
  EXPECT_EQ(e.primary().height(), 2u);
  const IndexCounters& c = e.primary().counters();
  EXPECT_EQ(c.root_raises, 1u);
  EXPECT_EQ(c.splits_middle, 1u);
  EXPECT_EQ(c.splits_to_right, 0u);
  EXPECT_EQ(c.index_page_splits, 1u);
  EXPECT_EQ(LeafHistogram(e), (Hist{{lower, 1}, {s - lower + 1, 1}}));
  EXPECT_EQ(e.Verify(), "");
  // The upper leaf now fills to s as well (its LAST_INSERT is the new row,
  // so appends look sequential), then splits to the right at the new record.
  while (k < lower + s) ASSERT_TRUE(e.InsertRow(K(++k)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{lower, 1}, {s, 1}}));
  ASSERT_TRUE(e.InsertRow(K(++k)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{1, 1}, {lower, 1}, {s, 1}}));
  EXPECT_EQ(c.splits_to_right, 1u);
  EXPECT_EQ(c.index_page_splits, 2u);
  EXPECT_EQ(e.Verify(), "");
}

INSTANTIATE_TEST_SUITE_P(KeyWidths, BTreeAscendingTest, ::testing::Values(16, 8));

TEST(BTreeTest, DescendingStreamRespectsTheReserveSplittingLeft) {
  // Mirror image: inserts at the infimum with LAST_INSERT = first record
  // look sequential to the left, so each leaf stops at 106 rows; the root
  // raise is a middle split (tuple on the lower page: 53 + 1, upper 53);
  // then the leftmost leaf fills to 106 and splits to the left with the new
  // row alone on the new page.
  Engine e(EngineProfile::MySQL84(), Seed000Table(16));
  uint64_t k = 1000000;
  for (int i = 0; i < 107; ++i) ASSERT_TRUE(e.InsertRow(K(k--)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{53, 1}, {54, 1}}));
  EXPECT_EQ(e.primary().counters().splits_middle, 1u);
  for (int i = 0; i < 106 - 54; ++i) ASSERT_TRUE(e.InsertRow(K(k--)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{53, 1}, {106, 1}}));
  ASSERT_TRUE(e.InsertRow(K(k--)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{1, 1}, {53, 1}, {106, 1}}));
  EXPECT_EQ(e.primary().counters().splits_to_left, 1u);
  // 1000 more rows: every leaf between the leftmost and the rightmost holds
  // exactly 106.
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(e.InsertRow(K(k--)).ok());
  const uint64_t rows = 107 + 52 + 1 + 1000;
  // rows = 53 (rightmost) + 106 x full + leftmost (1..106).
  const uint64_t full = (rows - 53 - 1) / 106;
  const uint64_t leftmost = rows - 53 - 106 * full;
  std::map<uint64_t, uint64_t> m{{53, 1}};
  m[106] += full;
  ++m[leftmost];
  const Hist expect(m.begin(), m.end());
  EXPECT_EQ(LeafHistogram(e), expect);
  EXPECT_EQ(e.primary().counters().splits_to_right, 0u);
  EXPECT_EQ(e.Verify(), "");
}

// The key of step j of a stride permutation of 1..n.
uint64_t StrideKey(uint64_t j, uint64_t n, uint64_t stride) { return (j * stride) % n + 1; }

// Inserts steps [0, count) of the stride order, after checking that no
// insert in the region where the reserve could bite looks sequential
// (adjacent to the previous insert): the premise of the tests using it.
void InsertStrided(Engine& e, uint64_t n, uint64_t stride, uint64_t count, uint32_t rec) {
  std::set<uint64_t> in;
  uint64_t prev = UINT64_MAX;
  for (uint64_t j = 0; j < count; ++j) {
    const uint64_t key = StrideKey(j, n, stride);
    const int64_t max = 16252 - int64_t(in.size()) * rec - CeilHalf(in.size() + 1);
    if (in.size() >= 2 && max < 1024 + int64_t(rec)) {
      auto it = in.lower_bound(key);
      const bool right = it != in.begin() && *std::prev(it) == prev;
      const bool left = it != in.end() && *it == prev;
      ASSERT_FALSE(right || left) << "premise: insert " << j << " looks sequential";
    }
    ASSERT_TRUE(e.InsertRow(K(key)).ok());
    in.insert(key);
    prev = key;
  }
}

Hist Sorted(std::initializer_list<uint64_t> records_per_page) {
  std::map<uint64_t, uint64_t> m;
  for (uint64_t r : records_per_page) ++m[r];
  return Hist(m.begin(), m.end());
}

TEST(BTreeTest, NonSequentialInsertsFillTheRootLeafCompletely) {
  for (int width : {16, 8}) {
    const TableDef table = Seed000Table(width);
    const uint32_t rec = ClusteredRecordSizes(table).leaf;
    const uint32_t full = RandomFill(16384, rec);  // 114 or 120
    Engine e(EngineProfile::MySQL84(), table);
    InsertStrided(e, full + 1, 37, full, rec);
    EXPECT_EQ(e.primary().height(), 1u) << width;
    EXPECT_EQ(LeafHistogram(e), (Hist{{full, 1}})) << width;
    // The next row does not fit: root raise, middle split of `full` rows:
    // the lower half keeps MiddleLower(full) (57 or 60), the upper half the
    // rest, and the new row lands on one of them.
    ASSERT_TRUE(e.InsertRow(K(StrideKey(full, full + 1, 37))).ok());
    EXPECT_EQ(e.primary().counters().root_raises, 1u) << width;
    EXPECT_EQ(e.primary().counters().splits_middle, 1u) << width;
    const uint64_t lower = MiddleLower(full);
    const uint64_t upper = full - lower;
    const Hist h = LeafHistogram(e);
    EXPECT_TRUE(h == Sorted({lower + 1, upper}) || h == Sorted({lower, upper + 1})) << width;
    EXPECT_EQ(e.Verify(), "");
  }
}

// Builds two leaves L = {0, 1000, ..., 52000} (53 rows) and R = {53000, ...,
// 106000} (54 rows) by 107 ascending rows (root raise, middle split), then
// fills L to 114 rows with inserts that never land next to the previous one
// (so the reserve never applies): 53 keys g x 1000 + 500 in the stride
// order g = 7j mod 53, then 8 keys g x 1000 + 250 likewise.
void BuildFullLeftLeaf(Engine& e) {
  for (uint64_t i = 0; i <= 106; ++i) ASSERT_TRUE(e.InsertRow(K(i * 1000)).ok());
  ASSERT_EQ(LeafHistogram(e), (Hist{{53, 1}, {54, 1}}));
  for (uint64_t j = 0; j < 53; ++j) ASSERT_TRUE(e.InsertRow(K((7 * j) % 53 * 1000 + 500)).ok());
  for (uint64_t j = 0; j < 8; ++j) ASSERT_TRUE(e.InsertRow(K((7 * j) % 53 * 1000 + 250)).ok());
  // L took all 61 rows (114 = RandomFill) without a split.
  ASSERT_EQ(LeafHistogram(e), (Hist{{54, 1}, {114, 1}}));
  ASSERT_EQ(e.Verify(), "");
}

TEST(BTreeTest, RightSiblingShortcutMySQLDoesNotCountASplit) {
  Engine e(EngineProfile::MySQL84(), Seed000Table(16));
  BuildFullLeftLeaf(e);
  const IndexCounters before = e.primary().counters();
  ASSERT_EQ(before.index_page_splits, 1u);  // the root raise
  // 52750 > L's last row (52500) and < R's node pointer (53000): the insert
  // point is L's last record, L is full, L has a right sibling with room:
  // btr_insert_into_right_sibling puts the row first on R, no new page.
  ASSERT_TRUE(e.InsertRow(K(52750)).ok());
  const IndexCounters& c = e.primary().counters();
  EXPECT_EQ(c.right_sibling_inserts, 1u);
  EXPECT_EQ(c.index_page_splits, 1u);  // MySQL: not counted
  EXPECT_EQ(c.pages_allocated, before.pages_allocated);
  EXPECT_EQ(LeafHistogram(e), (Hist{{55, 1}, {114, 1}}));
  EXPECT_EQ(e.Verify(), "");
  // The parent's node pointer was rebuilt from R's new first row: a row
  // between 52750 and 53000 now descends to R.
  ASSERT_TRUE(e.InsertRow(K(52800)).ok());
  EXPECT_EQ(LeafHistogram(e), (Hist{{56, 1}, {114, 1}}));
  EXPECT_EQ(e.Verify(), "");
}

TEST(BTreeTest, RightSiblingShortcutMariaDBCountsASplit) {
  Engine e(EngineProfile::MariaDB1011(), Seed000Table(16));
  BuildFullLeftLeaf(e);
  ASSERT_EQ(e.primary().counters().index_page_splits, 1u);
  ASSERT_TRUE(e.InsertRow(K(52750)).ok());
  const IndexCounters& c = e.primary().counters();
  EXPECT_EQ(c.right_sibling_inserts, 1u);
  // MariaDB counts buf_pool.pages_split at the entry of
  // btr_page_split_and_insert, before the shortcut.
  EXPECT_EQ(c.index_page_splits, 2u);
  EXPECT_EQ(LeafHistogram(e), (Hist{{55, 1}, {114, 1}}));
  EXPECT_EQ(e.Verify(), "");
}

TEST(BTreeTest, FullLeafWithoutRoomInSiblingSplitsInTheMiddle) {
  // Same set-up; a row in L's interior (not after its last record) cannot
  // use the shortcut, and LAST_INSERT (49250) is not next to its insert
  // point (10500): middle split of 114 rows at ordinal 57, lower 57 rows,
  // upper 57 rows; the new row goes to the lower half (58).
  Engine e(EngineProfile::MySQL84(), Seed000Table(16));
  BuildFullLeftLeaf(e);
  ASSERT_TRUE(e.InsertRow(K(10600)).ok());
  EXPECT_EQ(e.primary().counters().right_sibling_inserts, 0u);
  EXPECT_EQ(e.primary().counters().splits_middle, 2u);
  EXPECT_EQ(LeafHistogram(e), (Hist{{54, 1}, {57, 1}, {58, 1}}));
  EXPECT_EQ(e.Verify(), "");
}

// Ascending loads: every split allocates one page, a root raise one more
// (the copy of the root), nothing is freed, and the shortcut never applies
// (each insert goes to the rightmost page of its level, which has no right
// sibling). So pages = 1 + splits + root_raises, root_raises = height - 1:
//   index_page_splits = leaf pages + non-leaf pages - height
// (for height 2: (leaf - 1) + (non-leaf - 1)). The page counts per level
// follow AscendingPages.
void CheckAscending(uint32_t page_size, int width, uint64_t rows) {
  EngineProfile profile = EngineProfile::MySQL84();
  profile.page_size = page_size;
  const TableDef table = Seed000Table(width);
  const RecordSizes sizes = ClusteredRecordSizes(table);
  Engine e(profile, table);
  for (uint64_t i = 1; i <= rows; ++i) ASSERT_TRUE(e.InsertRow(K(i)).ok());
  ASSERT_EQ(e.Verify(), "");
  const EngineReport r = e.Report();
  const std::vector<uint64_t> expect =
      AscendingPages(rows, SequentialFill(page_size, sizes.leaf), RandomFill(page_size, sizes.node_ptr));
  ASSERT_EQ(r.primary.levels.size(), expect.size());
  uint64_t used = 0;
  for (size_t lvl = 0; lvl < expect.size(); ++lvl) {
    // levels are root first; expect is leaf first.
    EXPECT_EQ(r.primary.levels[expect.size() - 1 - lvl].pages, expect[lvl]) << "level " << lvl;
    used += expect[lvl];
  }
  const IndexCounters& c = r.primary.counters;
  EXPECT_EQ(r.primary.height, expect.size());
  EXPECT_EQ(c.root_raises, r.primary.height - 1);
  EXPECT_EQ(c.index_page_splits, used - r.primary.height);
  EXPECT_EQ(c.splits_middle, c.root_raises);  // only root raises split in the middle
  EXPECT_EQ(c.splits_to_left, 0u);
  EXPECT_EQ(c.right_sibling_inserts, 0u);
  EXPECT_EQ(c.index_page_splits, c.splits_to_right + c.splits_middle);
  EXPECT_EQ(c.pages_allocated, used);
  EXPECT_EQ(r.primary.used_pages, used);
  // Size statistics: reserved >= used; n_leaf_pages = leaf pages (no
  // descriptor extent is leased below 16384 pages).
  EXPECT_GE(r.primary.size, used);
  EXPECT_EQ(r.primary.n_leaf_pages, LeafPages(r));
  EXPECT_EQ(r.primary.levels.back().records, rows);
}

TEST(BTreeTest, AscendingCountersAndPagesPerLevel16K) {
  CheckAscending(16384, 16, 20000);  // height 2: 1 + ceil((20000-53)/106) leaves
  CheckAscending(16384, 8, 20000);
}

TEST(BTreeTest, AscendingCountersAndPagesPerLevel4K) {
  // 4K: 26 rows per leaf, 155 node pointers per page: height 3 at 5000 rows.
  CheckAscending(4096, 16, 5000);
  CheckAscending(4096, 8, 30000);
}

TEST(BTreeTest, LoneRootStatistics) {
  // An empty or one-page table: the root is in the non-leaf segment, but
  // dict_stats promotes n_leaf_pages 0 to 1; the census has one leaf page.
  Engine e(EngineProfile::MySQL84(), Seed000Table(16));
  EngineReport r = e.Report();
  EXPECT_EQ(r.primary.n_leaf_pages, 1u);
  EXPECT_EQ(LeafPages(r), 1u);
  EXPECT_EQ(r.primary.height, 1u);
  ASSERT_TRUE(e.InsertRow(K(1)).ok());
  r = e.Report();
  EXPECT_EQ(r.primary.n_leaf_pages, 1u);
  EXPECT_GE(r.primary.size, r.primary.used_pages);
}

TEST(BTreeTest, RandomLoadStatistics) {
  // Random keys: no page above RandomFill, size >= used pages, n_leaf_pages
  // = census leaf pages, every split counted once (MySQL, no merges of
  // leaves): pages = 1 + splits + root_raises - freed.
  Engine e(EngineProfile::MySQL84(), Seed000Table(16));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 30000; ++i) {
    const absl::Status s = e.InsertRow(Key{rng(), rng()});
    ASSERT_TRUE(s.ok());
  }
  ASSERT_EQ(e.Verify(), "");
  const EngineReport r = e.Report();
  EXPECT_EQ(r.primary.n_leaf_pages, LeafPages(r));
  EXPECT_GE(r.primary.size, r.primary.used_pages);
  const std::vector<uint64_t>& h = r.primary.levels.back().records_histogram;
  EXPECT_LE(h.size(), 115u);  // at most 114 rows on a leaf
  const IndexCounters& c = r.primary.counters;
  EXPECT_EQ(r.primary.used_pages, c.pages_allocated - c.pages_freed);
  EXPECT_EQ(c.pages_allocated, 1 + c.index_page_splits + c.root_raises);
  EXPECT_EQ(c.index_page_splits, c.splits_to_right + c.splits_to_left + c.splits_middle + c.splits_sure);
  EXPECT_GT(c.right_sibling_inserts, 0u);
}

}  // namespace
}  // namespace innosim
