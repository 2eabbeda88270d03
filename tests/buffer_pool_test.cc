#include "model/buffer_pool.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify_test_peer.h"

namespace innosim {
namespace {

constexpr uint32_t kSpace = 7;

BufferPool MakePool(uint64_t frames) {
  BufferPool::Options o;
  o.n_frames = frames;
  o.old_blocks_pct = 37;
  o.old_blocks_time_ms = 1000;
  return BufferPool(o);
}

// A pool in steady state: full, evicting, with dirty and clean pages, an
// old sublist, and holes in the flush-order array.
BufferPool BusyPool() {
  BufferPool pool = MakePool(600);
  std::mt19937_64 rng(5);
  uint64_t lsn = 100;
  for (int op = 0; op < 5000; ++op) {
    const uint32_t page = static_cast<uint32_t>(rng() % 2000);
    if (rng() % 3 == 0) {
      pool.MarkDirty(kSpace, page, lsn, op);
    } else {
      pool.Fix(kSpace, page, op);
    }
    pool.CommitMtr();
    lsn += 10;
    if (op % 101 == 0) pool.FlushListBatch(15, lsn);
  }
  return pool;
}

// Some resident page that is dirty (or clean), as a frame.
int32_t SomeFrame(const BufferPool& pool, bool dirty) {
  for (uint32_t p = 0; p < 2000; ++p) {
    if (pool.IsResident(kSpace, p) && pool.IsDirty(kSpace, p) == dirty) return VerifyTestPeer::FrameOf(pool, kSpace, p);
  }
  return -1;
}

uint32_t SomePage(const BufferPool& pool, bool dirty) {
  for (uint32_t p = 0; p < 2000; ++p) {
    if (pool.IsResident(kSpace, p) && pool.IsDirty(kSpace, p) == dirty) return p;
  }
  return 0;
}

// Reads and writes by page type (INNODB_METRICS buffer_page_read_<type>,
// buffer_page_written_<type>): a page counts in the first range that holds
// it, every read in stats().reads and every write in pages_written; a page
// found resident is not read.
TEST(BufferPoolTest, ReadsAndWritesAreCountedByTheRangeTheirPageIsIn) {
  using Type = BufferPool::PageType;
  BufferPool pool = MakePool(4);
  pool.CountPagesAs(Type::kSystemPage, kSpace, 6, 10);
  pool.CountPagesAs(Type::kUndoLog, kSpace, 8, 300);  // 8, 9: the first range's
  for (uint32_t page : {5u, 6u, 9u, 10u, 299u, 300u}) {
    pool.Fix(kSpace, page, 0);
    pool.CommitMtr();
  }
  pool.Fix(kSpace + 1, 7, 0);  // another space
  pool.CommitMtr();
  EXPECT_EQ(pool.stats().reads, 7u);
  EXPECT_EQ(pool.ReadsOf(Type::kSystemPage), 2u);  // 6, 9
  EXPECT_EQ(pool.ReadsOf(Type::kUndoLog), 2u);     // 10, 299
  // Four frames: 6 has been evicted since, 300 (among the last read) has not.
  pool.Fix(kSpace, 6, 1);
  pool.CommitMtr();
  pool.Fix(kSpace, 300, 1);  // resident still: no read
  pool.CommitMtr();
  EXPECT_EQ(pool.ReadsOf(Type::kSystemPage), 3u);
  EXPECT_EQ(pool.stats().reads, 8u);
  // Writes: 6 (system page), 300 (no type), 299 again read and written.
  pool.MarkDirty(kSpace, 6, 100, 2);
  pool.MarkDirty(kSpace, 300, 100, 2);
  pool.CommitMtr();
  EXPECT_EQ(pool.FlushAllDirty(), 2u);
  pool.MarkDirty(kSpace, 299, 200, 3);
  pool.CommitMtr();
  EXPECT_EQ(pool.FlushAllDirty(), 1u);
  EXPECT_EQ(pool.WritesOf(Type::kSystemPage), 1u);
  EXPECT_EQ(pool.WritesOf(Type::kUndoLog), 1u);
  EXPECT_EQ(pool.stats().pages_written, 3u);
  EXPECT_EQ(pool.Verify(), "");
}

TEST(BufferPoolTest, BusyPoolVerifies) {
  const BufferPool pool = BusyPool();
  EXPECT_GT(pool.stats().evicted, 0u);
  EXPECT_GT(pool.dirty_pages(), 10u);
  EXPECT_GT(pool.lru_old_len(), 0u);
  EXPECT_EQ(pool.Verify(), "");
}

// The conditions that were asserts (compiled out in Release) are Verify
// checks: a dirty page is never freed unwritten, and only dirty pages are on
// the flush list (the only pages WritePage is given).
TEST(BufferPoolTest, VerifyCatchesADirtyPageFreedWithoutAWrite) {
  BufferPool pool = BusyPool();
  VerifyTestPeer::EvictUnwritten(pool, kSpace, SomePage(pool, true));
  EXPECT_NE(pool.Verify().find("dirty"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyCatchesACleanPageOnTheFlushList) {
  BufferPool pool = BusyPool();
  VerifyTestPeer::SetOldestModification(pool, VerifyTestPeer::FlushHead(pool), 0);
  EXPECT_NE(pool.Verify().find("is clean"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyCatchesADirtyPageOffTheFlushList) {
  BufferPool pool = BusyPool();
  VerifyTestPeer::SetOldestModification(pool, SomeFrame(pool, false), 7);
  EXPECT_NE(pool.Verify().find("on the flush list"), std::string::npos) << pool.Verify();
}

// Each check of Verify fails when its invariant is broken.
TEST(BufferPoolTest, VerifyCatchesABrokenLruBackLink) {
  BufferPool pool = BusyPool();
  const int32_t second = VerifyTestPeer::LruNext(pool, VerifyTestPeer::LruHead(pool));
  VerifyTestPeer::SetLruPrev(pool, second, VerifyTestPeer::LruTail(pool));
  EXPECT_NE(pool.Verify().find("LRU list: frame"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyReportsAnLruCycleInsteadOfWalkingIt) {
  BufferPool pool = BusyPool();
  VerifyTestPeer::SetLruNext(pool, VerifyTestPeer::LruTail(pool), VerifyTestPeer::LruHead(pool));
  EXPECT_NE(pool.Verify().find("LRU list:"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyCatchesOldFlagsOnTheWrongSideOfLruOld) {
  BufferPool young_in_old = BusyPool();
  VerifyTestPeer::SetOld(young_in_old, VerifyTestPeer::LruTail(young_in_old), false);
  EXPECT_NE(young_in_old.Verify().find("young frame"), std::string::npos) << young_in_old.Verify();
  BufferPool old_in_young = BusyPool();
  VerifyTestPeer::SetOld(old_in_young, VerifyTestPeer::LruHead(old_in_young), true);
  EXPECT_NE(old_in_young.Verify().find("before LRU_old"), std::string::npos) << old_in_young.Verify();
}

TEST(BufferPoolTest, VerifyCatchesAFlushListOutOfOrder) {
  BufferPool pool = BusyPool();
  VerifyTestPeer::SetOldestModification(pool, VerifyTestPeer::FlushTail(pool), uint64_t{1} << 40);
  EXPECT_NE(pool.Verify().find("flush list:"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyCatchesAPageTableEntryForAPageNotThere) {
  BufferPool pool = BusyPool();
  uint32_t absent = 0;
  while (pool.IsResident(kSpace, absent)) ++absent;
  VerifyTestPeer::SetPageTable(pool, kSpace, absent, SomeFrame(pool, false));
  EXPECT_NE(pool.Verify().find("page table:"), std::string::npos) << pool.Verify();
}

TEST(BufferPoolTest, VerifyCatchesMiscountedListsAndCounters) {
  BufferPool free_len = BusyPool();
  VerifyTestPeer::AddFreeLen(free_len, 1);
  EXPECT_NE(free_len.Verify().find("free list:"), std::string::npos) << free_len.Verify();
  BufferPool reads = BusyPool();
  ++VerifyTestPeer::MutableStats(reads).reads;
  EXPECT_NE(reads.Verify().find("reads"), std::string::npos) << reads.Verify();
  BufferPool writes = BusyPool();
  ++VerifyTestPeer::MutableStats(writes).pages_written;
  EXPECT_NE(writes.Verify().find("pages written"), std::string::npos) << writes.Verify();
}

// Reads pages 0 .. n-1 at t = 0, one mtr each, past the pool's size: the
// pool fills and evicts (freed_page_clock > 0).
void FillAndStartEvicting(BufferPool& pool, uint32_t n) {
  for (uint32_t p = 0; p < n; ++p) {
    pool.Fix(kSpace, p, 0);
    pool.CommitMtr();
  }
  ASSERT_GT(pool.stats().evicted, 0u);
}

TEST(BufferPoolTest, ReadPageCountsAReadAndEntersAtTheMidpoint) {
  BufferPool pool = MakePool(2000);
  for (uint32_t p = 0; p < 1000; ++p) {
    pool.Fix(kSpace, p, 0);
    pool.CommitMtr();
  }
  EXPECT_EQ(pool.stats().reads, 1000u);
  // Old sublist = 37% of the LRU within BUF_LRU_OLD_TOLERANCE (20).
  const double old_share = static_cast<double>(pool.lru_old_len()) / pool.lru_len();
  EXPECT_NEAR(old_share, 378.0 / 1024, 20.0 / 1000 + 0.001);
  // The next page read goes right behind the old-sublist boundary: about
  // 63% down the list, and it is old.
  pool.Fix(kSpace, 5000, 0);
  pool.CommitMtr();
  EXPECT_TRUE(pool.IsOld(kSpace, 5000));
  const double pos = static_cast<double>(pool.LruPosition(kSpace, 5000)) / pool.lru_len();
  EXPECT_NEAR(pos, 1 - 378.0 / 1024, 0.03);
  EXPECT_EQ(pool.Verify(), "");
}

TEST(BufferPoolTest, CreatedPageEntersAtTheHeadWithoutARead) {
  BufferPool pool = MakePool(2000);
  for (uint32_t p = 0; p < 1000; ++p) pool.Fix(kSpace, p, 0);
  pool.CommitMtr();
  pool.Create(kSpace, 9000, 0);
  pool.CommitMtr();
  EXPECT_EQ(pool.stats().reads, 1000u);
  EXPECT_EQ(pool.LruPosition(kSpace, 9000), 0);
  EXPECT_FALSE(pool.IsOld(kSpace, 9000));
}

TEST(BufferPoolTest, OldPageIsMadeYoungOnlyAfterOldBlocksTime) {
  BufferPool pool = MakePool(1000);
  // Fill the pool and start evicting (freed_page_clock > 0).
  ASSERT_NO_FATAL_FAILURE(FillAndStartEvicting(pool, 1200));
  pool.Fix(kSpace, 5000, 10'000);  // first access at t = 10 s
  pool.CommitMtr();
  ASSERT_TRUE(pool.IsOld(kSpace, 5000));
  pool.Fix(kSpace, 5000, 10'999);  // 999 ms later: stays old
  pool.CommitMtr();
  EXPECT_TRUE(pool.IsOld(kSpace, 5000));
  EXPECT_GT(pool.LruPosition(kSpace, 5000), 0);
  pool.Fix(kSpace, 5000, 11'000);  // 1000 ms after the first access
  pool.CommitMtr();
  EXPECT_FALSE(pool.IsOld(kSpace, 5000));
  EXPECT_EQ(pool.LruPosition(kSpace, 5000), 0);
  EXPECT_EQ(pool.Verify(), "");
}

// MariaDB 10.11's fix without buf_page_make_young_if_needed (purge's undo
// reads, the file space's own pages): a miss reads the page into the old
// sublist; no fix marks it accessed or makes it young, so the first access
// that does (a B-tree descent's) counts its innodb_old_blocks_time from
// then, not from the read.
TEST(BufferPoolTest, AFixWithoutAccessNeverMakesAPageYoung) {
  BufferPool pool = MakePool(1000);
  ASSERT_NO_FATAL_FAILURE(FillAndStartEvicting(pool, 1200));
  const uint64_t reads = pool.stats().reads;
  pool.FixNoAccess(kSpace, 5000, 10'000);  // a miss: read, old
  pool.CommitMtr();
  EXPECT_EQ(pool.stats().reads, reads + 1);
  ASSERT_TRUE(pool.IsOld(kSpace, 5000));
  const int64_t at = pool.LruPosition(kSpace, 5000);
  pool.FixNoAccess(kSpace, 5000, 20'000);  // 10 s later: still old, not moved
  pool.CommitMtr();
  EXPECT_TRUE(pool.IsOld(kSpace, 5000));
  EXPECT_EQ(pool.LruPosition(kSpace, 5000), at);
  EXPECT_EQ(pool.stats().reads, reads + 1);
  // The first real access marks it at 20 s: not too old yet.
  pool.Fix(kSpace, 5000, 20'000);
  pool.CommitMtr();
  EXPECT_TRUE(pool.IsOld(kSpace, 5000));
  pool.Fix(kSpace, 5000, 21'000);
  pool.CommitMtr();
  EXPECT_FALSE(pool.IsOld(kSpace, 5000));
  EXPECT_EQ(pool.LruPosition(kSpace, 5000), 0);
  EXPECT_EQ(pool.Verify(), "");
}

TEST(BufferPoolTest, NoPageIsMadeYoungBeforeTheFirstEviction) {
  BufferPool pool = MakePool(2000);
  for (uint32_t p = 0; p < 1000; ++p) pool.Fix(kSpace, p, 0);
  pool.CommitMtr();
  const int64_t before = pool.LruPosition(kSpace, 10);
  pool.Fix(kSpace, 10, 60'000);
  pool.CommitMtr();
  EXPECT_EQ(pool.LruPosition(kSpace, 10), before);
  EXPECT_EQ(pool.stats().made_young, 0u);
}

TEST(BufferPoolTest, FlushListIsOrderedByOldestModification) {
  BufferPool pool = MakePool(100);
  const uint32_t order[] = {5, 3, 9, 1, 7};
  uint64_t lsn = 1000;
  for (uint32_t p : order) {
    pool.MarkDirty(kSpace, p, lsn, 0);
    pool.CommitMtr();
    lsn += 100;
  }
  // Re-modifying a dirty page keeps its oldest_modification.
  pool.MarkDirty(kSpace, 5, lsn, 0);
  pool.CommitMtr();
  EXPECT_EQ(pool.FlushListOldestFirst(), (std::vector<uint64_t>{5, 3, 9, 1, 7}));
  EXPECT_EQ(pool.OldestModification(), 1000u);
  // A batch writes from the tail, oldest first, below the LSN limit.
  EXPECT_EQ(pool.FlushListBatch(10, 1250), 3u);
  EXPECT_EQ(pool.FlushListOldestFirst(), (std::vector<uint64_t>{1, 7}));
  EXPECT_EQ(pool.CountFlushListUpTo(1300, 10), 1u);
  EXPECT_EQ(pool.stats().pages_written, 3u);
  EXPECT_EQ(pool.Verify(), "");
}

// Property: random fixes, creates and modifications on a pool smaller than
// the working set. No dirty page ever leaves the pool without a write, the
// lists stay consistent, and the page cleaner's count from the flush-list
// tail (kept on a separate array) agrees with the list itself.
TEST(BufferPoolTest, NoDirtyPageIsEvictedWithoutAWrite) {
  BufferPool pool = MakePool(600);
  std::mt19937_64 rng(42);
  std::vector<char> dirty(3000, 0);  // shadow: dirty as far as we know
  std::vector<uint64_t> first_lsn(3000, 0);  // shadow oldest_modification
  uint64_t lsn = 100;
  for (int op = 0; op < 20000; ++op) {
    const uint64_t written_before = pool.stats().pages_written;
    const uint32_t page = static_cast<uint32_t>(rng() % 3000);
    const int kind = static_cast<int>(rng() % 4);
    if (kind == 0) {
      pool.Create(kSpace, page, op);
    } else if (kind == 1) {
      pool.Fix(kSpace, page, op);
    } else {
      pool.Fix(kSpace, page, op);
      if (!pool.IsDirty(kSpace, page)) first_lsn[page] = lsn;
      pool.MarkDirty(kSpace, page, lsn, op);
      dirty[page] = 1;
    }
    pool.CommitMtr();
    lsn += 50;
    if (op % 97 == 0) pool.LruBatch(64, 100);
    if (op % 131 == 0) pool.FlushListBatch(20, lsn);
    // Every page that stopped being dirty was written.
    uint64_t cleaned = 0;
    for (uint32_t p = 0; p < dirty.size(); ++p) {
      if (dirty[p] && !pool.IsDirty(kSpace, p)) {
        ++cleaned;
        dirty[p] = 0;
      }
    }
    ASSERT_EQ(pool.stats().pages_written - written_before, cleaned) << "op " << op;
    if (op % 53 == 0) {
      const uint64_t target = 100 + rng() % (lsn - 99);
      const uint64_t max = rng() % 300;
      uint64_t expected = 0;
      for (uint64_t p : pool.FlushListOldestFirst()) {
        if (expected == max || first_lsn[p] > target) break;
        ++expected;
      }
      ASSERT_EQ(pool.CountFlushListUpTo(target, max), expected) << "op " << op;
    }
    if (op % 1000 == 0) {
      ASSERT_EQ(pool.Verify(), "") << "op " << op;
    }
  }
  EXPECT_GT(pool.stats().evicted, 1000u);
  EXPECT_GT(pool.stats().single_page_written + pool.stats().lru_batch_written, 0u);
  const uint64_t before = pool.stats().pages_written;
  const uint64_t dirty_now = pool.dirty_pages();
  EXPECT_EQ(pool.FlushAllDirty(), dirty_now);
  EXPECT_EQ(pool.stats().pages_written, before + dirty_now);
  EXPECT_EQ(pool.dirty_pages(), 0u);
  EXPECT_EQ(pool.Verify(), "");
}

TEST(BufferPoolTest, PagesFixedByTheCurrentMtrAreNotEvicted) {
  BufferPool pool = MakePool(600);
  // Keep page 0 fixed while reading many more pages within one mtr... one
  // mtr never fixes 600 pages, so fix page 0, then read 700 pages each in
  // their own mtr while re-fixing 0 in each.
  for (uint32_t p = 1; p < 1400; ++p) {
    pool.Fix(kSpace, 0, p);
    pool.MarkDirty(kSpace, 0, 10 + p, p);
    pool.Fix(kSpace, p, p);
    EXPECT_TRUE(pool.IsResident(kSpace, 0));
    pool.CommitMtr();
  }
  EXPECT_EQ(pool.Verify(), "");
}

// A pool too small for one mini-transaction (every frame fixed by the
// current mtr when it needs another page) reports it and leaves the page
// out, instead of installing it into frame -1; the lists stay consistent.
TEST(BufferPoolTest, NoFreeFrameForTheCurrentMtrIsReportedNotInstalled) {
  BufferPool pool = MakePool(2);
  pool.Fix(kSpace, 0, 0);
  pool.Create(kSpace, 1, 0);
  EXPECT_TRUE(pool.status().ok());
  pool.Fix(kSpace, 2, 0);                  // a third page in the same mtr
  pool.MarkDirty(kSpace, 3, 100, 0);       // and a fourth, modified
  pool.Create(kSpace, 4, 0);
  EXPECT_TRUE(absl::IsResourceExhausted(pool.status())) << pool.status();
  EXPECT_FALSE(pool.IsResident(kSpace, 2));
  EXPECT_FALSE(pool.IsResident(kSpace, 3));
  EXPECT_FALSE(pool.IsResident(kSpace, 4));
  EXPECT_EQ(pool.dirty_pages(), 0u);
  EXPECT_EQ(pool.stats().reads + pool.stats().created, 2u);
  EXPECT_EQ(pool.Verify(), "");
  // Once the mtr commits its frames can be reused; the failure stays.
  pool.CommitMtr();
  pool.Fix(kSpace, 2, 1);
  EXPECT_TRUE(pool.IsResident(kSpace, 2));
  EXPECT_TRUE(absl::IsResourceExhausted(pool.status()));
  EXPECT_EQ(pool.Verify(), "");
}

// More frames than an int32_t frame index reaches: refused before any
// allocation (innodb_buffer_pool_size=1e19 used to allocate 2^55 bytes).
TEST(BufferPoolTest, MoreFramesThanTheModelIndexesIsOutOfRange) {
  BufferPool pool = MakePool(uint64_t{1} << 40);
  EXPECT_TRUE(absl::IsOutOfRange(pool.status())) << pool.status();
  EXPECT_EQ(pool.n_frames(), 1u);
  EXPECT_TRUE(MakePool(1000).status().ok());
}


// A pool of `frames` with 600 clean pages created (an LRU long enough for
// neighbour flushing, BUF_LRU_OLD_MIN_LEN = 512), then `dirty` dirtied in
// that order (the first is the flush list's oldest).
BufferPool NeighbourPool(uint32_t neighbors, const std::vector<uint32_t>& dirty, uint64_t created = 600) {
  BufferPool::Options o;
  o.n_frames = 1024;
  o.flush_neighbors = neighbors;
  BufferPool pool(o);
  for (uint32_t p = 0; p < created; ++p) {
    pool.Create(kSpace, p, 0);
    pool.CommitMtr();
  }
  uint64_t lsn = 100;
  for (uint32_t p : dirty) {
    pool.MarkDirty(kSpace, p, lsn += 10, 0);
    pool.CommitMtr();
  }
  return pool;
}

TEST(BufferPoolTest, FlushAreaIsTheReadAheadAreaCappedAtASixteenthOfThePool) {
  // read_ahead_area: frames / 32 rounded up to a power of two, at most 64;
  // the flush area is that, at most frames / 16.
  auto area = [](uint64_t frames) {
    BufferPool::Options o;
    o.n_frames = frames;
    return BufferPool(o).flush_area();
  };
  EXPECT_EQ(area(8112), 64u);  // MariaDB's 128M pool
  EXPECT_EQ(area(1024), 32u);
  EXPECT_EQ(area(1000), 32u);  // 31.25 -> 32
  EXPECT_EQ(area(320), 16u);   // 10 -> 16, and 320 / 16 = 20
  EXPECT_EQ(area(200), 8u);    // 6 -> 8, 200 / 16 = 12
}

TEST(BufferPoolTest, NeighbourFlushingWritesTheContiguousOrTheWholeArea) {
  // Pages 40, 41, 42 and 44 dirty in the area 32..63 (flush area 32), page
  // 10 in another; 41 is the oldest (LSN 110), the batch stops before the
  // next page from the tail (40, LSN 120): only 41 and its neighbours.
  const std::vector<uint32_t> dirty = {41, 40, 42, 44, 10};
  constexpr uint64_t kOnlyTheOldest = 111;
  {
    BufferPool pool = NeighbourPool(0, dirty);
    EXPECT_EQ(pool.FlushListBatch(100, kOnlyTheOldest), 1u);
    EXPECT_FALSE(pool.IsDirty(kSpace, 41));
    EXPECT_TRUE(pool.IsDirty(kSpace, 40));
  }
  {
    BufferPool pool = NeighbourPool(1, dirty);
    EXPECT_EQ(pool.FlushListBatch(100, kOnlyTheOldest), 3u);  // 40-42: the run around 41
    EXPECT_FALSE(pool.IsDirty(kSpace, 40));
    EXPECT_FALSE(pool.IsDirty(kSpace, 42));
    EXPECT_TRUE(pool.IsDirty(kSpace, 44));
    EXPECT_TRUE(pool.IsDirty(kSpace, 10));
    EXPECT_EQ(pool.stats().neighbors_written, 2u);
    EXPECT_EQ(pool.stats().pages_written, 3u);
    EXPECT_EQ(pool.Verify(), "");
  }
  {
    BufferPool pool = NeighbourPool(2, dirty);
    EXPECT_EQ(pool.FlushListBatch(100, kOnlyTheOldest), 4u);  // every dirty page of 32..63
    EXPECT_FALSE(pool.IsDirty(kSpace, 44));
    EXPECT_TRUE(pool.IsDirty(kSpace, 10));
    EXPECT_EQ(pool.Verify(), "");
  }
}

TEST(BufferPoolTest, NeighboursCountTowardTheBatchButThePageItselfIsAlwaysWritten) {
  // Whole area, quota 2: 40 and 41 (the page itself) are written, 42 and 44
  // are left: the quota ran out past the page.
  BufferPool pool = NeighbourPool(2, {41, 40, 42, 44});
  EXPECT_EQ(pool.FlushListBatch(2, UINT64_MAX), 2u);
  EXPECT_FALSE(pool.IsDirty(kSpace, 40));
  EXPECT_FALSE(pool.IsDirty(kSpace, 41));
  EXPECT_TRUE(pool.IsDirty(kSpace, 42));
  // Oldest page 44 with a quota of 1: 40-42 come first in the area and use
  // it up, but 44 itself is still written.
  BufferPool late = NeighbourPool(2, {44, 40, 41, 42});
  EXPECT_EQ(late.FlushListBatch(1, UINT64_MAX), 2u);
  EXPECT_FALSE(late.IsDirty(kSpace, 40));
  EXPECT_TRUE(late.IsDirty(kSpace, 41));
  EXPECT_FALSE(late.IsDirty(kSpace, 44));
}

TEST(BufferPoolTest, NoNeighboursWhileTheLruIsShorterThanTheOldMinimum) {
  BufferPool pool = NeighbourPool(2, {41, 40, 42}, /*created=*/300);
  EXPECT_EQ(pool.FlushListBatch(100, 111), 1u);
  EXPECT_TRUE(pool.IsDirty(kSpace, 40));
}

// Random pages, each read and dirtied, in a pool a third of their number.
void DirtyRandomPages(BufferPool* pool, int ops, uint64_t* min_free_after_eviction) {
  std::mt19937_64 rng(11);
  uint64_t lsn = 100;
  *min_free_after_eviction = UINT64_MAX;
  for (int op = 0; op < ops; ++op) {
    pool->MarkDirty(kSpace, static_cast<uint32_t>(rng() % 3000), lsn += 10, op);
    pool->CommitMtr();
    if (pool->stats().evicted > 0) *min_free_after_eviction = std::min(*min_free_after_eviction, pool->free_len());
  }
}

TEST(BufferPoolTest, MariaDbWakesTheCleanerForFreeFramesInsteadOfSinglePageFlushes) {
  BufferPool::Options o;
  o.n_frames = 1000;
  o.mariadb = true;
  o.lru_scan_depth = 300;
  o.io_capacity_max = 2000;
  BufferPool pool(o);
  uint64_t min_free = 0;
  DirtyRandomPages(&pool, 20000, &min_free);
  EXPECT_EQ(pool.stats().single_page_written, 0u);
  EXPECT_GT(pool.stats().lru_wakeup_written, 1000u);
  EXPECT_EQ(pool.stats().lru_wakeup_written, pool.stats().lru_batch_written);
  // Once pages are evicted the free list never falls below half the
  // target (less the frame just taken): the resident set is the pool less
  // that margin.
  EXPECT_GE(min_free, o.lru_scan_depth / 2 - 1);
  EXPECT_LE(pool.lru_len(), o.n_frames - min_free);
  EXPECT_EQ(pool.Verify(), "");

  // MySQL's rules on the same pages (no page cleaner here): user threads
  // write single pages from the LRU tail and keep no margin.
  BufferPool mysql = MakePool(1000);
  DirtyRandomPages(&mysql, 20000, &min_free);
  EXPECT_GT(mysql.stats().single_page_written, 1000u);
  EXPECT_EQ(mysql.stats().lru_batch_written, 0u);
  EXPECT_EQ(min_free, 0u);
  EXPECT_EQ(mysql.Verify(), "");
}

TEST(BufferPoolTest, MariaDbLruFlushLeavesWrittenPagesOnTheLruClean) {
  BufferPool::Options o;
  o.n_frames = 1000;
  o.mariadb = true;
  // 700 pages in 1000 frames leave 300 free: above half the target (no
  // wake-up while loading), below the target (the flush has work).
  o.lru_scan_depth = 500;
  BufferPool pool(o);
  for (uint32_t p = 0; p < 700; ++p) {
    pool.MarkDirty(kSpace, p, 100 + p, 0);
    pool.CommitMtr();
  }
  const uint64_t resident = pool.lru_len();
  // Quota 50: 50 dirty pages from the tail written; the second pass (quota
  // 0) then frees exactly those, now clean, and stops at the next dirty one.
  EXPECT_EQ(pool.LruFlushMariaDb(50), 50u);
  EXPECT_EQ(pool.lru_len(), resident - 50);
  EXPECT_EQ(pool.dirty_pages(), 650u);
  EXPECT_EQ(pool.Verify(), "");
}

}  // namespace
}  // namespace innosim
