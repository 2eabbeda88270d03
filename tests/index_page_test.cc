// Specification tests for IndexPage (model/index_page.h): byte accounting,
// directory slots, free list, direction bookkeeping, reorganize.
//
// Expected values are derived by hand from docs/innodb-rules.md, 'Page layout',
// 'Page directory', 'Inserting a record on a page', 'Free list and garbage' and
// 'Reorganize' (page_create_low, page_get_max_insert_size[_after_
// reorganize], page_cur_insert_rec_low, page_dir_split_slot,
// page_dir_balance_slot, page_copy_rec_list_end_to_created_page,
// page_delete_rec_list_end, btr_page_reorganize_low); the comment above each
// assertion gives the arithmetic.
#include "model/index_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "model/fast/page_pool.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

constexpr uint32_t k16K = 16384;
constexpr uint32_t kRec = 142;  // table A leaf record ('Record sizes')
// A small record, so that pages of every size hold more than 126 records
// (owner bits in more than two words) once they fill.
constexpr uint32_t kSmallRec = 30;

// K(): tests/test_util.h.

uint32_t CeilHalf(uint32_t n) { return (n + 1) / 2; }

std::vector<uint32_t> Slots(const IndexPage& p) {
  std::vector<uint32_t> s;
  for (uint32_t i = 0; i < p.n_dir_slots(); ++i) s.push_back(p.slot_n_owned(i));
  return s;
}

// Appends keys 10, 20, ... (10 * n) in ascending order.
void AppendAscending(IndexPage& p, int n, PagePool& pool) {
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(p.InsertAfter(p.n_recs() - 1, K(10 * (i + 1)), 0, pool));
    ASSERT_EQ(p.Verify(), "");
  }
}

// Inserts key k at its sorted position.
bool InsertSorted(IndexPage& p, uint64_t k, PagePool& pool) {
  bool dup = false;
  const int c = p.SearchInsertCursor(K(k), &dup);
  EXPECT_FALSE(dup);
  return p.InsertAfter(c, K(k), 0, pool);
}

// A page built by a bulk path has the state of one built record by record:
// directory, heap, free list, direction bookkeeping and keys.
void ExpectSamePage(const IndexPage& bulk, const IndexPage& one, const std::string& label) {
  EXPECT_EQ(Slots(bulk), Slots(one)) << label;
  EXPECT_EQ(bulk.n_recs(), one.n_recs()) << label;
  EXPECT_EQ(bulk.heap_top(), one.heap_top()) << label;
  EXPECT_EQ(bulk.n_heap(), one.n_heap()) << label;
  EXPECT_EQ(bulk.n_free(), one.n_free()) << label;
  EXPECT_EQ(bulk.garbage(), one.garbage()) << label;
  EXPECT_EQ(bulk.last_insert(), one.last_insert()) << label;
  EXPECT_EQ(bulk.direction(), one.direction()) << label;
  EXPECT_EQ(bulk.n_direction(), one.n_direction()) << label;
  ASSERT_EQ(bulk.n_recs(), one.n_recs()) << label;
  for (int i = 0; i < bulk.n_recs(); ++i) ASSERT_EQ(bulk.key(i), one.key(i)) << label << " " << i;
}

class IndexPageTest : public ::testing::Test {
 protected:
  PagePool pool_;
};

TEST_F(IndexPageTest, EmptyPageFreeSpaceAtEveryPageSize) {
  // page_get_free_space_of_empty: page - 120 - 8 - 2 slots x 2.
  EXPECT_EQ(FreeSpaceOfEmpty(4096), 3964u);
  EXPECT_EQ(FreeSpaceOfEmpty(8192), 8060u);
  EXPECT_EQ(FreeSpaceOfEmpty(16384), 16252u);
  EXPECT_EQ(FreeSpaceOfEmpty(32768), 32636u);
  EXPECT_EQ(FreeSpaceOfEmpty(65536), 65404u);
  for (uint32_t ps : {4096u, 8192u, 16384u, 32768u, 65536u}) {
    IndexPage p;
    p.Create(5, 0, kRec, ps, pool_);
    // page_create_low: 2 slots owning 1 each, N_HEAP 2, HEAP_TOP 120,
    // NO_DIRECTION, no LAST_INSERT, no garbage.
    EXPECT_EQ(p.n_recs(), 0);
    EXPECT_EQ(p.n_heap(), 2u);
    EXPECT_EQ(p.heap_top(), 120u);
    EXPECT_EQ(p.garbage(), 0u);
    EXPECT_EQ(p.DataSize(), 0u);
    EXPECT_EQ(p.last_insert(), -1);
    EXPECT_EQ(p.direction(), PageDirection::kNoDirection);
    EXPECT_EQ(p.n_direction(), 0u);
    EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 1}));
    // One record on an empty page: ceil((0 + 1) / 2) = 1 directory byte.
    EXPECT_EQ(p.MaxInsertSize(1), FreeSpaceOfEmpty(ps) - 1);
    EXPECT_EQ(p.MaxInsertSizeAfterReorganize(1), FreeSpaceOfEmpty(ps) - 1);
    EXPECT_EQ(p.Verify(), "");
    p.Release(pool_);
  }
}

TEST_F(IndexPageTest, DirReservedSpaceIsCeilHalf) {
  for (uint32_t n = 0; n < 300; ++n) EXPECT_EQ(DirReservedSpace(n), CeilHalf(n)) << n;
}

TEST_F(IndexPageTest, MaxInsertSizeFormulas) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  for (int n = 1; n <= 50; ++n) {
    ASSERT_TRUE(p.InsertAfter(n - 2, K(n), 0, pool_));
    // No garbage: both formulas agree:
    // 16252 - (n x 142 + ceil((n + 1) / 2)).
    const uint32_t expect = 16252u - (n * kRec + CeilHalf(n + 1));
    EXPECT_EQ(p.MaxInsertSize(1), expect);
    EXPECT_EQ(p.MaxInsertSizeAfterReorganize(1), expect);
    EXPECT_EQ(p.heap_top(), 120u + n * kRec);
    EXPECT_EQ(p.n_heap(), 2u + n);
    EXPECT_EQ(p.DataSize(), n * kRec);
  }
  // With 10 records deleted (garbage), max_insert_size still counts the
  // whole heap and all heap records (n_heap - 2 = 50): unchanged; after
  // reorganize only the 40 live ones: 16252 - (40 x 142 + ceil(41/2)).
  p.DeleteEnd(40, pool_);
  EXPECT_EQ(p.MaxInsertSize(1), 16252u - (50 * kRec + CeilHalf(51)));
  EXPECT_EQ(p.MaxInsertSizeAfterReorganize(1), 16252u - (40 * kRec + CeilHalf(41)));
  EXPECT_EQ(p.DataSize(), 40 * kRec);
  // n > 1: ceil((n_recs + n) / 2).
  EXPECT_EQ(p.MaxInsertSizeAfterReorganize(5), 16252u - (40 * kRec + CeilHalf(45)));
}

TEST_F(IndexPageTest, RandomPositionInsertsFillTo114Records) {
  // Largest n with n x 142 + ceil((n + 1) / 2) <= 16252 - 142 is 113
  // (16046 + 57 = 16103 <= 16110; 114 gives 16188 + 58 = 16246), so the
  // page takes 114 records and refuses the 115th, whatever the order.
  uint32_t expect_max = 0;
  for (uint32_t n = 0;; ++n) {
    if (n * kRec + CeilHalf(n + 1) > 16252 - kRec) break;
    expect_max = n + 1;
  }
  ASSERT_EQ(expect_max, 114u);
  std::mt19937_64 rng(42);
  std::set<uint64_t> keys;
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  for (;;) {
    uint64_t k;
    do {
      k = rng() % 1000000;
    } while (keys.count(k) != 0);
    if (!InsertSorted(p, k, pool_)) break;
    keys.insert(k);
    ASSERT_EQ(p.Verify(), "");
  }
  EXPECT_EQ(p.n_recs(), 114);
  EXPECT_LT(p.MaxInsertSize(1), kRec);
  // The refused insert changed nothing.
  EXPECT_EQ(p.heap_top(), 120u + 114 * kRec);
  EXPECT_EQ(p.n_heap(), 116u);
  int i = 0;
  for (uint64_t k : keys) EXPECT_EQ(p.key(i++), K(k));
}

TEST_F(IndexPageTest, RecordsPerPageFollowsFormulaAtEveryPageSize) {
  for (uint32_t ps : {4096u, 8192u, 32768u, 65536u}) {
    for (uint32_t rec : {25u, 134u, 142u}) {
      uint32_t expect_max = 0;
      for (uint32_t n = 0;; ++n) {
        if (n * rec + CeilHalf(n + 1) > FreeSpaceOfEmpty(ps) - rec) break;
        expect_max = n + 1;
      }
      IndexPage p;
      p.Create(5, 0, rec, ps, pool_);
      int n = 0;
      while (p.InsertAfter(n - 1, K(n + 1), 0, pool_)) ++n;
      EXPECT_EQ(static_cast<uint32_t>(n), expect_max) << ps << " " << rec;
      EXPECT_EQ(p.Verify(), "");
      p.Release(pool_);
    }
  }
}

TEST_F(IndexPageTest, NinthOwnedRecordSplitsSlotIntoFourAndFive) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  // Appends go to the supremum's group. After 7 records it owns 8 (7 + the
  // supremum itself); the 8th makes 9, so page_dir_split_slot inserts a
  // slot below owning 9/2 = 4 and the supremum keeps 5.
  AppendAscending(p, 7, pool_);
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 8}));
  ASSERT_TRUE(p.InsertAfter(6, K(1000), 0, pool_));
  EXPECT_EQ(p.n_dir_slots(), 3u);  // N_DIR_SLOTS + 1: 2 more directory bytes
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 5}));
  // Four more appends: 5 -> 9 again -> {4, 5}.
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(p.InsertAfter(p.n_recs() - 1, K(2000 + i), 0, pool_));
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 5}));
  // Now fill the first middle group (records 0..3, owner record 3) with
  // five inserts before its second record: 4 -> 8, then 9 splits into 4 + 5
  // (a new slot below owning 4, the old one keeping 5).
  // (keys 11..14 after records 0..3, all before key 20 of that group).
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(p.InsertAfter(i, K(11 + i), 0, pool_));
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 8, 4, 5}));
  ASSERT_TRUE(p.InsertAfter(4, K(15), 0, pool_));
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 5, 4, 5}));
  EXPECT_EQ(p.n_dir_slots(), 5u);
}

TEST_F(IndexPageTest, AscendingAppendsSlotLayout) {
  // With appends only, every split leaves a 4-slot behind, so for n >= 8
  // records the layout is 1, 4 x k, s with s in 5..8 and 1 + 4k + s = n + 2.
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  for (int n = 1; n <= 100; ++n) {
    ASSERT_TRUE(p.InsertAfter(n - 2, K(n), 0, pool_));
    const std::vector<uint32_t> s = Slots(p);
    if (n < 8) {
      EXPECT_EQ(s, (std::vector<uint32_t>{1, static_cast<uint32_t>(n + 1)}));
      continue;
    }
    const uint32_t k = (n + 2 - 1 - 5) / 4;  // 4-slots before the supremum
    const uint32_t sup = n + 2 - 1 - 4 * k;
    ASSERT_EQ(s.size(), 2 + k) << n;
    EXPECT_EQ(s.back(), sup) << n;
    EXPECT_GE(sup, 5u);
    EXPECT_LE(sup, 8u);
    for (uint32_t i = 1; i + 1 < s.size(); ++i) EXPECT_EQ(s[i], 4u) << n;
  }
}

TEST_F(IndexPageTest, CopyEndToCreatedBulkDirectory) {
  IndexPage src;
  src.Create(5, 0, kRec, k16K, pool_);
  AppendAscending(src, 106, pool_);
  struct Case {
    int from;
    std::vector<uint32_t> slots;
  };
  // Copying c records: c / 4 slots of 4, then the last intermediate slot is
  // merged into the supremum (count + 1 + 4 <= 8 always holds for count <=
  // 3), so the supremum owns c % 4 + 4 + 1.
  //   c = 3: no intermediate slot: {1, 4}
  //   c = 4: {1, 5};  c = 7: {1, 8};  c = 8: {1, 4, 5}
  //   c = 53: 13 slots, one merged: {1, 4 x 12, 1 + 4 + 1 = 6}
  //   c = 106: 26 slots, one merged: {1, 4 x 25, 2 + 4 + 1 = 7}
  std::vector<uint32_t> s53(1, 1), s106(1, 1);
  for (int i = 0; i < 12; ++i) s53.push_back(4);
  s53.push_back(6);
  for (int i = 0; i < 25; ++i) s106.push_back(4);
  s106.push_back(7);
  const std::vector<Case> cases = {
      {103, {1, 4}}, {102, {1, 5}}, {99, {1, 8}}, {98, {1, 4, 5}}, {53, s53}, {0, s106},
  };
  for (const Case& c : cases) {
    IndexPage dst;
    dst.Create(6, 0, kRec, k16K, pool_);
    dst.CopyEndToCreated(src, c.from, pool_);
    const int count = 106 - c.from;
    EXPECT_EQ(dst.n_recs(), count);
    EXPECT_EQ(Slots(dst), c.slots) << "count " << count;
    EXPECT_EQ(dst.heap_top(), 120u + count * kRec);
    EXPECT_EQ(dst.n_heap(), 2u + count);
    EXPECT_EQ(dst.garbage(), 0u);
    // LAST_INSERT = NULL, NO_DIRECTION, 0.
    EXPECT_EQ(dst.last_insert(), -1);
    EXPECT_EQ(dst.direction(), PageDirection::kNoDirection);
    EXPECT_EQ(dst.n_direction(), 0u);
    EXPECT_EQ(dst.key(0), src.key(c.from));
    EXPECT_EQ(dst.key(count - 1), src.key(105));
    EXPECT_EQ(dst.Verify(), "");
    dst.Release(pool_);
  }
}

// page_copy_rec_list_start onto a fresh page (the new left page of a split
// to the left) is done in closed form; it must leave exactly what appending
// the records one by one through page_cur_insert_rec_low leaves.
TEST_F(IndexPageTest, AppendStartToEmptyPageEqualsOneByOneAppends) {
  IndexPage src;
  src.Create(3, 0, kRec, k16K, pool_);
  AppendAscending(src, 114, pool_);
  for (int m = 1; m <= 114; ++m) {
    IndexPage bulk, one;
    bulk.Create(4, 0, kRec, k16K, pool_);
    one.Create(5, 0, kRec, k16K, pool_);
    bulk.AppendStartFrom(src, m, pool_);
    for (int i = 0; i < m; ++i) ASSERT_TRUE(one.InsertAfter(i - 1, src.key(i), 0, pool_));
    ASSERT_EQ(bulk.Verify(), "") << m;
    ASSERT_NO_FATAL_FAILURE(ExpectSamePage(bulk, one, std::to_string(m)));
    ASSERT_EQ(bulk.n_recs(), m);
    bulk.Release(pool_);
    one.Release(pool_);
  }
  src.Release(pool_);
}

// Fills `bulk` and `one` with `keys` (in their order), then deletes the
// first `to` records of `bulk` at once (page_delete_rec_list_start) and of
// `one` one by one (page_cur_delete_rec), and expects the same page.
void DeleteStartBothWays(const std::vector<uint64_t>& keys, int to, bool reclaim_heap_top, IndexPage* bulk,
                         IndexPage* one, PagePool& pool) {
  bulk->Create(6, 0, kRec, k16K, pool, false, reclaim_heap_top);
  one->Create(7, 0, kRec, k16K, pool, false, reclaim_heap_top);
  for (uint64_t k : keys) {
    ASSERT_TRUE(InsertSorted(*bulk, k, pool));
    ASSERT_TRUE(InsertSorted(*one, k, pool));
  }
  bulk->DeleteStart(to, pool);
  for (int i = 0; i < to; ++i) one->DeleteRec(0);
  ASSERT_EQ(bulk->Verify(), "") << to;
  ASSERT_NO_FATAL_FAILURE(ExpectSamePage(*bulk, *one, std::to_string(to)));
}

// page_delete_rec_list_start moves the surviving keys once; the directory,
// free list and garbage must end as deleting the first record `to` times.
TEST_F(IndexPageTest, DeleteStartEqualsDeletingTheFirstRecordRepeatedly) {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 100; ++i) keys.push_back(rng() >> 8);
  for (int to = 1; to < 100; to += 7) {
    IndexPage bulk, one;
    ASSERT_NO_FATAL_FAILURE(DeleteStartBothWays(keys, to, false, &bulk, &one, pool_));
    bulk.Release(pool_);
    one.Release(pool_);
  }
}

// The same on pages whose directory spans several owner words, and on small
// ones: 4 KiB pages of 30 records, 64 KiB pages of small records (460 of
// 30 bytes), with inserts in random order and ascending (whose directory,
// 4-record slots and a supremum slot of 5-8, takes the borrow path where
// random ones mostly merge).
TEST_F(IndexPageTest, DeleteStartOnCountsEqualsDeletingOneByOneOnEveryPageSize) {
  struct Case {
    uint32_t page_size;
    uint32_t rec_size;
    int n;
  };
  for (const Case c : {Case{4096, kRec, 26}, Case{65536, 30, 460}, Case{65536, kRec, 400}}) {
    for (const bool ascending : {false, true}) {
      std::mt19937_64 rng(c.page_size + c.rec_size);
      std::vector<uint64_t> keys;
      for (int i = 0; i < c.n; ++i) keys.push_back(ascending ? uint64_t(i + 1) * 1000 : rng() >> 8);
      for (int to = 1; to < c.n; to += std::max(1, c.n / 23)) {
        const std::string label = absl::StrCat(c.page_size, "/", c.rec_size, ascending ? " asc" : " random", " to ", to);
        IndexPage bulk, one;
        bulk.Create(6, 0, c.rec_size, c.page_size, pool_);
        one.Create(7, 0, c.rec_size, c.page_size, pool_);
        for (uint64_t k : keys) {
          ASSERT_TRUE(InsertSorted(bulk, k, pool_)) << label;
          ASSERT_TRUE(InsertSorted(one, k, pool_)) << label;
        }
        bulk.DeleteStart(to, pool_);
        for (int i = 0; i < to; ++i) one.DeleteRec(0);
        ASSERT_EQ(bulk.Verify(), "") << label;
        ASSERT_NO_FATAL_FAILURE(ExpectSamePage(bulk, one, label));
        bulk.Release(pool_);
        one.Release(pool_);
      }
    }
  }
}

// MariaDB's page_mem_free (EngineProfile::delete_reclaims_heap_top): a
// single-record delete of the record with heap number N_HEAP - 1 lowers
// HEAP_TOP and N_HEAP; any other record goes to PAGE_FREE. MySQL's always
// goes to PAGE_FREE.
TEST_F(IndexPageTest, DeleteOfTheHeapsLastRecordGivesItBackWithReclaimHeapTop) {
  for (const bool reclaim : {false, true}) {
    IndexPage p;
    p.Create(5, 0, kRec, k16K, pool_, false, reclaim);
    // Keys 30, 10, 20 take heap numbers 2, 3, 4; in key order 10 (3), 20 (4),
    // 30 (2). N_HEAP 5.
    ASSERT_TRUE(InsertSorted(p, 30, pool_));
    ASSERT_TRUE(InsertSorted(p, 10, pool_));
    ASSERT_TRUE(InsertSorted(p, 20, pool_));
    const uint32_t heap_top = p.heap_top();
    ASSERT_EQ(p.n_heap(), 5u);
    if (reclaim) {
      EXPECT_EQ(p.heap_no(0), 3u);
      EXPECT_EQ(p.heap_no(1), 4u);
      EXPECT_EQ(p.heap_no(2), 2u);
    }
    // Deleting 10 (heap number 3, not the last): PAGE_FREE either way.
    p.DeleteRec(0);
    EXPECT_EQ(p.n_free(), 1u);
    EXPECT_EQ(p.garbage(), kRec);
    EXPECT_EQ(p.n_heap(), 5u);
    // Deleting 20 (heap number 4 = N_HEAP - 1): back to the heap with the
    // rule, to PAGE_FREE without.
    p.DeleteRec(0);
    EXPECT_EQ(p.n_recs(), 1);
    EXPECT_EQ(p.n_free(), reclaim ? 1u : 2u);
    EXPECT_EQ(p.garbage(), reclaim ? kRec : 2 * kRec);
    EXPECT_EQ(p.n_heap(), reclaim ? 4u : 5u);
    EXPECT_EQ(p.heap_top(), reclaim ? heap_top - kRec : heap_top);
    EXPECT_EQ(p.Verify(), "");
    // The next insert reuses PAGE_FREE's head (10's old place, heap number
    // 3), then one comes from the heap top (heap number 4 again).
    ASSERT_TRUE(InsertSorted(p, 40, pool_));
    EXPECT_EQ(p.n_free(), reclaim ? 0u : 1u);
    if (reclaim) {
      EXPECT_EQ(p.heap_no(1), 3u);
      ASSERT_TRUE(InsertSorted(p, 50, pool_));
      EXPECT_EQ(p.heap_no(2), 4u);
      EXPECT_EQ(p.n_heap(), 5u);
      EXPECT_EQ(p.heap_top(), heap_top);
    }
    EXPECT_EQ(p.Verify(), "");
    p.Release(pool_);
  }
}

// page_delete_rec_list_start deletes record by record, so each delete sees
// the heap the ones before it left: with the rule, DeleteStart must still end
// as deleting the first record `to` times, and a page that filled at random
// and then loses its lower part (a split to the left) gives back the heap's
// last record when it is among them.
TEST_F(IndexPageTest, DeleteStartWithReclaimHeapTopEqualsDeletingOneByOne) {
  std::mt19937_64 rng(23);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 114; ++i) keys.push_back(rng() >> 8);
  bool shrank = false;
  for (int to = 1; to < 114; to += 5) {
    IndexPage bulk, one;
    ASSERT_NO_FATAL_FAILURE(DeleteStartBothWays(keys, to, true, &bulk, &one, pool_));
    for (int i = 0; i < bulk.n_recs(); ++i) ASSERT_EQ(bulk.heap_no(i), one.heap_no(i)) << to;
    for (uint32_t i = 0; i < bulk.n_free(); ++i) ASSERT_EQ(bulk.free_heap_no(i), one.free_heap_no(i)) << to;
    if (bulk.n_heap() < 2 + 114) shrank = true;
    // Refill: the free records are reused (head first), then the heap.
    for (int i = 0; i < to; ++i) {
      const uint64_t k = rng() >> 8;
      if (!InsertSorted(bulk, k, pool_)) break;
    }
    ASSERT_EQ(bulk.Verify(), "") << to;
    bulk.Release(pool_);
    one.Release(pool_);
  }
  EXPECT_TRUE(shrank);
}

TEST_F(IndexPageTest, DeleteEndMovesRecordsToFreeListAndInsertReusesThem) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  AppendAscending(p, 20, pool_);
  // 20 appends: {1, 4, 4, 4, 4, 5}; direction RIGHT, N_DIRECTION 19.
  ASSERT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 4, 4, 5}));
  ASSERT_EQ(p.direction(), PageDirection::kRight);
  ASSERT_EQ(p.n_direction(), 19u);
  const uint32_t heap_top = p.heap_top();
  p.DeleteEnd(10, pool_);
  // Records 10..19 go to PAGE_FREE: GARBAGE = 10 x 142, HEAP_TOP and N_HEAP
  // unchanged, LAST_INSERT NULL, DIRECTION/N_DIRECTION kept.
  EXPECT_EQ(p.n_recs(), 10);
  EXPECT_EQ(p.garbage(), 10 * kRec);
  EXPECT_EQ(p.n_free(), 10u);
  EXPECT_EQ(p.heap_top(), heap_top);
  EXPECT_EQ(p.n_heap(), 22u);
  EXPECT_EQ(p.DataSize(), 10 * kRec);
  EXPECT_EQ(p.last_insert(), -1);
  EXPECT_EQ(p.direction(), PageDirection::kRight);
  EXPECT_EQ(p.n_direction(), 19u);
  // Record 10 (list position 11) was owned by slot 3 (positions 9..12);
  // that slot now owns records 8, 9 and the supremum: {1, 4, 4, 3}.
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 3}));
  EXPECT_EQ(p.Verify(), "");
  // An insert takes the free-list head: GARBAGE -= 142, no heap growth.
  ASSERT_TRUE(p.InsertAfter(9, K(1000), 0, pool_));
  EXPECT_EQ(p.garbage(), 9 * kRec);
  EXPECT_EQ(p.n_free(), 9u);
  EXPECT_EQ(p.heap_top(), heap_top);
  EXPECT_EQ(p.n_heap(), 22u);
  EXPECT_EQ(p.DataSize(), 11 * kRec);
  // LAST_INSERT was NULL: NO_DIRECTION, 0.
  EXPECT_EQ(p.direction(), PageDirection::kNoDirection);
  EXPECT_EQ(p.n_direction(), 0u);
  EXPECT_EQ(p.last_insert(), 10);
  EXPECT_EQ(p.Verify(), "");
  // Deleting from the supremum position is a no-op.
  p.DeleteEnd(p.n_recs(), pool_);
  EXPECT_EQ(p.n_recs(), 11);
  EXPECT_EQ(p.last_insert(), 10);
}

TEST_F(IndexPageTest, DeleteEndAtGroupBoundaryLeavesSupremumAlone) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  AppendAscending(p, 20, pool_);
  // Record 8 is list position 9, the first of slot 3's group (9..12): the
  // slot keeps only the supremum.
  p.DeleteEnd(8, pool_);
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 1}));
  EXPECT_EQ(p.Verify(), "");
}

TEST_F(IndexPageTest, DeleteRecBalancesSlots) {
  {
    // 12 appends: {1, 4, 4, 5}. Deleting record 0 from slot 1 (owned 4):
    // the upper neighbour owns 4, not more, so the slots merge: {1, 7, 5}.
    IndexPage p;
    p.Create(5, 0, kRec, k16K, pool_);
    AppendAscending(p, 12, pool_);
    ASSERT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 5}));
    p.DeleteRec(0);
    EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 7, 5}));
    EXPECT_EQ(p.key(0), K(20));
    EXPECT_EQ(p.garbage(), kRec);
    EXPECT_EQ(p.n_free(), 1u);
    EXPECT_EQ(p.last_insert(), -1);
    // page_cur_delete_rec does not touch DIRECTION / N_DIRECTION.
    EXPECT_EQ(p.direction(), PageDirection::kRight);
    EXPECT_EQ(p.n_direction(), 11u);
    EXPECT_EQ(p.Verify(), "");
  }
  {
    // Deleting record 5 from slot 2 (owned 4): the upper neighbour (the
    // supremum's slot) owns 5 > 4, so one record moves down: {1, 4, 4, 4}.
    IndexPage p;
    p.Create(5, 0, kRec, k16K, pool_);
    AppendAscending(p, 12, pool_);
    p.DeleteRec(5);
    EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 4}));
    EXPECT_EQ(p.Verify(), "");
    // The supremum's slot is never balanced: it may own fewer than 4.
    p.DeleteRec(10);
    p.DeleteRec(9);
    EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 4, 2}));
    EXPECT_EQ(p.n_recs(), 9);
    EXPECT_EQ(p.garbage(), 3 * kRec);
    EXPECT_EQ(p.Verify(), "");
  }
}

TEST_F(IndexPageTest, ReorganizeResetsHeapAndSetsLastInsertToLastRecord) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  // Random order so that DIRECTION is not RIGHT before.
  for (uint64_t k : {50, 10, 90, 30, 70, 20, 80, 40, 60, 100, 110, 120, 130, 140}) {
    ASSERT_TRUE(InsertSorted(p, k, pool_));
  }
  p.DeleteEnd(10, pool_);  // 4 records to the free list
  ASSERT_EQ(p.garbage(), 4 * kRec);
  p.Reorganize();
  // Heap rebuilt from the 10 live records: HEAP_TOP = 120 + data, no
  // garbage, N_HEAP = 12; LAST_INSERT = last record, RIGHT, N_RECS - 1.
  EXPECT_EQ(p.n_recs(), 10);
  EXPECT_EQ(p.garbage(), 0u);
  EXPECT_EQ(p.n_free(), 0u);
  EXPECT_EQ(p.heap_top(), 120u + 10 * kRec);
  EXPECT_EQ(p.n_heap(), 12u);
  EXPECT_EQ(p.last_insert(), 9);
  EXPECT_EQ(p.direction(), PageDirection::kRight);
  EXPECT_EQ(p.n_direction(), 9u);
  // Slots rebuilt by incremental appends: 8 -> {1, 4, 5}, 10 -> {1, 4, 7}.
  EXPECT_EQ(Slots(p), (std::vector<uint32_t>{1, 4, 7}));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p.key(i), K(10 * (i + 1)));
  EXPECT_EQ(p.Verify(), "");
}

TEST_F(IndexPageTest, ReorganizeOfOneAndZeroRecords) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  ASSERT_TRUE(p.InsertAfter(-1, K(1), 0, pool_));
  p.Reorganize();
  // One record: NO_DIRECTION, 0, LAST_INSERT = that record.
  EXPECT_EQ(p.last_insert(), 0);
  EXPECT_EQ(p.direction(), PageDirection::kNoDirection);
  EXPECT_EQ(p.n_direction(), 0u);
  IndexPage e;
  e.Create(6, 0, kRec, k16K, pool_);
  e.Reorganize();
  EXPECT_EQ(e.last_insert(), -1);
  EXPECT_EQ(e.Verify(), "");
}

TEST_F(IndexPageTest, DirectionAscending) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  // First insert: LAST_INSERT NULL -> NO_DIRECTION, 0. Each later append is
  // right after LAST_INSERT -> RIGHT, N_DIRECTION + 1.
  for (int n = 1; n <= 30; ++n) {
    ASSERT_TRUE(p.InsertAfter(n - 2, K(n), 0, pool_));
    EXPECT_EQ(p.last_insert(), n - 1);
    EXPECT_EQ(p.direction(), n == 1 ? PageDirection::kNoDirection : PageDirection::kRight);
    EXPECT_EQ(p.n_direction(), static_cast<uint32_t>(n - 1));
  }
}

TEST_F(IndexPageTest, DirectionDescending) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  // Each insert lands just before LAST_INSERT (next(insert) == last) ->
  // LEFT, N_DIRECTION + 1; LAST_INSERT is always the new first record.
  for (int n = 1; n <= 30; ++n) {
    ASSERT_TRUE(p.InsertAfter(-1, K(1000 - n), 0, pool_));
    EXPECT_EQ(p.last_insert(), 0);
    EXPECT_EQ(p.direction(), n == 1 ? PageDirection::kNoDirection : PageDirection::kLeft);
    EXPECT_EQ(p.n_direction(), static_cast<uint32_t>(n - 1));
  }
  EXPECT_EQ(p.Verify(), "");
}

TEST_F(IndexPageTest, DirectionRandomAndReversals) {
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  struct Step {
    uint64_t key;
    PageDirection dir;
    uint32_t n_dir;
  };
  // Each step applies page_cur_insert_rec_low's rule ('Inserting a record on a page') by hand:
  const std::vector<Step> steps = {
      {500, PageDirection::kNoDirection, 0},  // LAST_INSERT NULL
      {100, PageDirection::kLeft, 1},         // next(100) = 500 = last
      {900, PageDirection::kNoDirection, 0},  // after 500, last is 100
      {950, PageDirection::kRight, 1},        // cursor 900 = last
      {990, PageDirection::kRight, 2},        // cursor 950 = last
      {970, PageDirection::kNoDirection, 0},  // next = 990 = last, but RIGHT
      {960, PageDirection::kLeft, 1},         // next = 970 = last, not RIGHT
      {980, PageDirection::kNoDirection, 0},  // between 970 and 990, last 960
      {940, PageDirection::kNoDirection, 0},  // between 900 and 950, last 980
      {930, PageDirection::kLeft, 1},         // next = 940 = last
      {920, PageDirection::kLeft, 2},         // next = 930 = last
      {925, PageDirection::kNoDirection, 0},  // cursor 920 = last, but LEFT
      {926, PageDirection::kRight, 1},        // cursor 925 = last
  };
  std::set<uint64_t> keys;
  for (const Step& s : steps) {
    ASSERT_TRUE(InsertSorted(p, s.key, pool_));
    keys.insert(s.key);
    EXPECT_EQ(p.direction(), s.dir) << s.key;
    EXPECT_EQ(p.n_direction(), s.n_dir) << s.key;
    // LAST_INSERT is the ordinal of the record just inserted.
    EXPECT_EQ(p.last_insert(), static_cast<int>(std::distance(keys.begin(), keys.find(s.key))));
    EXPECT_EQ(p.Verify(), "");
  }
}

TEST_F(IndexPageTest, VerifyCatchesKeysOutOfOrder) {
  // InsertAfter trusts its cursor; inserting a key at the wrong place makes
  // an inconsistent page that Verify() must report.
  IndexPage p;
  p.Create(5, 0, kRec, k16K, pool_);
  AppendAscending(p, 10, pool_);
  ASSERT_EQ(p.Verify(), "");
  ASSERT_TRUE(p.InsertAfter(5, K(5), 0, pool_));  // 5 after 60
  EXPECT_NE(p.Verify(), "");
}

}  // namespace
}  // namespace innosim

namespace innosim {
namespace {

// The leaf search compares high halves first and then the keys at its
// last one or two positions whole: keys sharing their high half with k
// (and with each other) must still give std::lower_bound's position, with
// the PAGE_LAST_INSERT shortcut tried first or not, on pages of two owner
// words and of more.
TEST(IndexPageSearchTest, CursorIsLowerBoundAmongKeysSharingHighHalves) {
  for (const uint32_t page_size : {4096u, 16384u, 65536u}) {
    PagePool pool;
    IndexPage p;
    p.Create(5, 0, kSmallRec, page_size, pool);
    std::mt19937_64 rng(page_size + 1);
    // Five high halves only, so that runs of equal high halves are long.
    auto draw = [&] { return Key{100 + rng() % 5, rng() % 1000}; };
    std::set<Key> keys;
    for (;;) {
      const Key k = draw();
      if (keys.count(k) != 0) continue;
      bool dup = false;
      const int c = p.SearchInsertCursor(k, &dup);
      if (!p.InsertAfter(c, k, 0, pool)) break;
      keys.insert(k);
      const std::vector<Key> sorted(keys.begin(), keys.end());
      for (int probe = 0; probe < 8; ++probe) {
        // Present keys, absent ones, and keys outside every high half.
        Key q = probe % 3 == 0 ? sorted[rng() % sorted.size()] : draw();
        if (probe == 7) q = Key{rng() % 2 == 0 ? 0 : ~uint64_t{0}, rng()};
        const auto lb = std::lower_bound(sorted.begin(), sorted.end(), q);
        const int want = static_cast<int>(lb - sorted.begin()) - 1;
        const bool want_dup = lb != sorted.end() && *lb == q;
        for (const bool shortcut : {true, false}) {
          bool got_dup = !want_dup;
          ASSERT_EQ(p.SearchInsertCursor(q, &got_dup, shortcut), want)
              << page_size << " n=" << p.n_recs() << " shortcut=" << shortcut;
          ASSERT_EQ(got_dup, want_dup) << page_size << " n=" << p.n_recs();
        }
      }
    }
    ASSERT_GT(p.n_recs(), 100);
  }
}

// Compacting a page changes its storage and nothing else; the page fills
// again afterwards as a page that was never compacted does.
TEST_F(IndexPageTest, CompactShrinksTheStorageAndKeepsThePage) {
  IndexPage compacted, plain;
  compacted.Create(3, 0, kRec, k16K, pool_);
  plain.Create(3, 0, kRec, k16K, pool_);
  std::mt19937_64 rng(11);
  std::set<uint64_t> used;
  auto insert_both = [&](int n) {
    for (int i = 0; i < n; ++i) {
      uint64_t k = rng() >> 8;
      while (!used.insert(k).second) k = rng() >> 8;
      ASSERT_TRUE(InsertSorted(compacted, k, pool_));
      ASSERT_TRUE(InsertSorted(plain, k, pool_));
    }
  };
  insert_both(70);
  ASSERT_GE(compacted.capacity(), 96u);  // grown by steps of 32
  compacted.Compact(pool_);
  // 70 keys of 16 bytes and two owner words fill 18 granules of 64 bytes,
  // which hold 71 keys.
  EXPECT_EQ(compacted.capacity(), 71u);
  EXPECT_EQ(compacted.Verify(), "");
  ExpectSamePage(compacted, plain, "after compacting");
  insert_both(44);  // 114: full
  EXPECT_FALSE(InsertSorted(compacted, 1, pool_));
  EXPECT_EQ(compacted.Verify(), "");
  ExpectSamePage(compacted, plain, "filled after compacting");
}

// In full-block mode a page takes its whole capacity when created and
// keeps it through a split's deletions; the page state is the same as
// with blocks grown by steps.
TEST_F(IndexPageTest, FullBlocksHoldTheWholePageFromTheStart) {
  PagePool full_pool;
  full_pool.set_full_blocks(true);
  IndexPage full, stepped;
  full.Create(3, 0, kRec, k16K, full_pool);
  stepped.Create(3, 0, kRec, k16K, pool_);
  const uint32_t max = FreeSpaceOfEmpty(k16K) / kRec + 1;
  EXPECT_EQ(full.capacity(), max);
  EXPECT_EQ(stepped.capacity(), 32u);
  std::mt19937_64 rng(12);
  std::set<uint64_t> used;
  for (int i = 0; i < 114; ++i) {
    uint64_t k = rng() >> 8;
    while (!used.insert(k).second) k = rng() >> 8;
    ASSERT_TRUE(InsertSorted(full, k, full_pool));
    ASSERT_TRUE(InsertSorted(stepped, k, pool_));
    ASSERT_EQ(full.capacity(), max);
  }
  full.DeleteEnd(57, full_pool);
  stepped.DeleteEnd(57, pool_);
  EXPECT_EQ(full.capacity(), max);
  EXPECT_LT(stepped.capacity(), max);
  ExpectSamePage(full, stepped, "after DeleteEnd");
  EXPECT_EQ(full.Verify(), "");
}

}  // namespace
}  // namespace innosim
