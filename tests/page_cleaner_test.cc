#include "model/page_cleaner.h"

#include <cmath>

#include "gtest/gtest.h"

namespace innosim {
namespace {

// A buffer pool of `s`'s innodb_buffer_pool_size (MariaDB's LRU rules on
// the mariadb-10.11 flavor), its redo log and its page cleaner.
struct Cleaner {
  static BufferPool::Options PoolOptions(const ServerSettings& s) {
    BufferPool::Options o;
    o.n_frames = s.BufferPoolPages();
    o.mariadb = s.flavor == ServerFlavor::kMariaDb1011;
    return o;
  }
  explicit Cleaner(const ServerSettings& s) : pool(PoolOptions(s)), log(s), cleaner(s, &pool, &log) {}
  BufferPool pool;
  RedoLog log;
  PageCleaner cleaner;
};

TEST(PageCleanerTest, PctForDirtyHandComputed) {
  // get_pct_for_dirty with MySQL 8.4 defaults (max 90, lwm 10).
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(0.0, 90, 10), 0u);
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(5.0, 90, 10), 0u);    // below lwm
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(10.0, 90, 10), 10u);  // 1000/91
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(50.0, 90, 10), 54u);  // 5000/91
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(91.0, 90, 10), 100u);
  // lwm = 0: all or nothing at innodb_max_dirty_pages_pct.
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(89.0, 90, 0), 0u);
  EXPECT_EQ(PageCleaner::MySqlPctForDirty(90.0, 90, 0), 100u);
}

TEST(PageCleanerTest, PctForLsnHandComputed) {
  const MySqlRedoLimits m = RedoLog::MySqlLimitsFor(100ull << 20, 16384, 0);
  const uint64_t free = m.limit_for_free_check, dirty = m.limit_for_dirty_page_age;
  // Below innodb_adaptive_flushing_lwm (10 %) of limit_for_free_check: 0.
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(free / 10 - 1, free, dirty, 10, true, 10000, 20000), 0u);
  // age = limit_for_dirty_page_age: f = 100, (20000/10000) * 100 * 10 / 7.5.
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(dirty, free, dirty, 10, true, 10000, 20000), 266u);
  // age = half of it: f = 50, 2 * 50 * sqrt(50) / 7.5 = 94.28.
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(dirty / 2, free, dirty, 10, true, 10000, 20000), 94u);
  // io_capacity_max / io_capacity is an integer division: 2999/1000 = 2.
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(dirty, free, dirty, 10, true, 1000, 2999), 266u);
  // Adaptive flushing off: nothing until limit_for_dirty_page_age.
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(dirty / 2, free, dirty, 10, false, 10000, 20000), 0u);
  EXPECT_EQ(PageCleaner::MySqlPctForLsn(dirty, free, dirty, 10, false, 10000, 20000), 266u);
}

TEST(PageCleanerTest, PagesToFlushHandComputed) {
  // (PCT_IO(54) + page_avg_rate + pages_for_lsn) / 3 with io_capacity 10000:
  // (5400 + 1000 + 3000/3) / 3 = 2466.
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(false, 54, 1000, 3000, 3, 10000, 20000), 2466u);
  // Capped at io_capacity_max.
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(false, 266, 30000, 200000, 3, 10000, 20000), 20000u);
  // pages_for_lsn at least 1.
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(false, 0, 0, 0, 3, 10000, 20000), 0u);
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(false, 0, 2, 0, 3, 10000, 20000), 1u);
  // Sync: max(pages_for_lsn, io_capacity), pages_for_lsn capped at 2*io_max.
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(true, 0, 0, 500, 1, 10000, 20000), 10000u);
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(true, 0, 0, 35000, 1, 10000, 20000), 35000u);
  EXPECT_EQ(PageCleaner::MySqlPagesToFlush(true, 0, 0, 90000, 1, 10000, 20000), 40000u);
}

TEST(PageCleanerTest, MariaDbPctForLsnUsesMaxModifiedAgeAsync) {
  const MariaDbRedoLimits m = RedoLog::MariaDbLimitsFor(96ull << 20, 16384);
  // io_capacity 200, io_capacity_max 2000: ratio 10.
  EXPECT_EQ(PageCleaner::MariaDbPctForLsn(m.log_capacity / 10 - 1, m.log_capacity,
                                          m.max_modified_age_async, 10, 200, 2000),
            0u);
  // age = max_modified_age_async: 10 * 100 * 10 / 7.5 = 1333.
  EXPECT_EQ(PageCleaner::MariaDbPctForLsn(m.max_modified_age_async, m.log_capacity,
                                          m.max_modified_age_async, 10, 200, 2000),
            1333u);
}

// The running average: after innodb_flushing_avg_loops one-second passes,
// lsn_avg_rate = (0 + redo rate) / 2.
TEST(PageCleanerTest, SetAverageEveryFlushingAvgLoops) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  s.innodb_buffer_pool_size = 64ull << 20;
  Cleaner c(s);
  BufferPool& pool = c.pool;
  RedoLog& log = c.log;
  PageCleaner& cleaner = c.cleaner;
  const uint64_t per_second = 496 * 2000;  // data bytes per second
  for (int t = 1; t <= 29; ++t) {
    pool.MarkDirty(1, static_cast<uint32_t>(t), log.lsn(), t * 1000);
    pool.CommitMtr();
    log.Append(per_second);
    cleaner.RunIteration(t);
    EXPECT_EQ(cleaner.lsn_avg_rate(), 0u) << t;
  }
  log.Append(per_second);
  cleaner.RunIteration(30);
  // 30 s of 512 * 2000 LSN bytes per second, averaged with 0.
  EXPECT_EQ(cleaner.lsn_avg_rate(), 512u * 2000 / 2);
}

// Sync flushing brings the oldest page age back under the sync point, even
// beyond innodb_io_capacity_max pages.
TEST(PageCleanerTest, SyncFlushIsNotCappedByIoCapacityMax) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  s.innodb_buffer_pool_size = 1ull << 30;
  s.innodb_io_capacity = 200;
  s.innodb_io_capacity_max = 400;
  Cleaner c(s);
  BufferPool& pool = c.pool;
  RedoLog& log = c.log;
  PageCleaner& cleaner = c.cleaner;
  // 20000 pages dirtied one after another, 8 KiB of redo each: 160 MB.
  for (uint32_t p = 0; p < 20000; ++p) {
    pool.MarkDirty(1, p, log.lsn(), 0);
    pool.CommitMtr();
    log.Append(8192);
  }
  (void)cleaner.CheckRedoPressure(0.5);
  const uint64_t age = log.lsn() - pool.OldestModification();
  EXPECT_LE(age, log.mysql().sync_flush_age);
  EXPECT_GT(cleaner.stats().sync_pages, 400u);
  EXPECT_EQ(log.MySqlSyncFlushLsn(pool.OldestModification()), 0u);
}


// MariaDB 10.11.5+ (MDEV-26055): with innodb_max_dirty_pages_pct_lwm at its
// default 0 (or the dirty ratio below it) the recommendation takes all of
// innodb_io_capacity, whatever pct_for_lsn says; only with the lwm in force
// does pct_for_lsn scale it.
uint64_t MariaDbSecondRecommendation(double lwm) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  s.innodb_buffer_pool_size = 1ull << 30;  // 64,896 frames
  s.innodb_max_dirty_pages_pct_lwm = lwm;
  // With lwm 0 an idle cleaner sleeps until the dirty share reaches
  // innodb_max_dirty_pages_pct (page_cleaner_wakeup): 5% lets the 7.7% below
  // wake it, so that the pass computes its recommendation.
  s.innodb_max_dirty_pages_pct = 5;
  Cleaner c(s);
  BufferPool& pool = c.pool;
  RedoLog& log = c.log;
  PageCleaner& cleaner = c.cleaner;
  // 5000 pages (7.7% of the pool) dirtied over 50 MB of redo: past
  // adaptive_flushing_lwm (10% of the 90.6 MB capacity), short of the async
  // limit (70.7 MB).
  for (uint32_t p = 0; p < 5000; ++p) {
    pool.MarkDirty(1, p, log.lsn() + 1, 0);
    pool.CommitMtr();
    log.Append(10000);
  }
  cleaner.RunIteration(1);
  // The first pass: no averaging yet, io_capacity pages (fewer dirty pages
  // than io_capacity would be all of them).
  EXPECT_EQ(cleaner.stats().adaptive_pages, 200u);
  log.Append(10000);
  cleaner.RunIteration(2);
  EXPECT_GT(cleaner.stats().last_pct_for_lsn, 600u);
  return cleaner.stats().last_n_to_flush;
}

TEST(PageCleanerTest, MariaDbRecommendationTakesAllOfIoCapacityWithoutTheLwm) {
  // (200 * 1 + avg_page_rate 0 + pages_for_lsn 1) / 3: lsn_avg_rate is still
  // 0, so the scan counts the oldest page only (1 / 3, at least 1).
  EXPECT_EQ(MariaDbSecondRecommendation(0), 67u);
  // lwm 10 is above the dirty ratio: the pass hands on pct_lwm = 0.
  EXPECT_EQ(MariaDbSecondRecommendation(10), 67u);
  // lwm 5 is in force: total_ratio = pct_for_lsn / 100 (over 6).
  EXPECT_GT(MariaDbSecondRecommendation(5), 400u);
}

// buf_flush_page_cleaner / page_cleaner_wakeup: a cleaner idle since the
// start, with innodb_max_dirty_pages_pct_lwm 0, is not woken by redo age
// below the async limit nor by a dirty share below
// innodb_max_dirty_pages_pct; with the lwm set it waits with a timeout and
// its passes work.
uint64_t MariaDbPagesAfterOnePass(double lwm) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  s.innodb_buffer_pool_size = 1ull << 30;
  s.innodb_max_dirty_pages_pct_lwm = lwm;
  Cleaner c(s);
  BufferPool& pool = c.pool;
  RedoLog& log = c.log;
  PageCleaner& cleaner = c.cleaner;
  for (uint32_t p = 0; p < 5000; ++p) {  // 7.7% dirty, 50 MB of redo
    pool.MarkDirty(1, p, log.lsn() + 1, 0);
    pool.CommitMtr();
    log.Append(10000);
  }
  cleaner.RunIteration(1);
  return cleaner.stats().adaptive_pages;
}

TEST(PageCleanerTest, MariaDbIdleCleanerSleepsWithoutTheLwm) {
  EXPECT_EQ(MariaDbPagesAfterOnePass(0), 0u);
  EXPECT_GT(MariaDbPagesAfterOnePass(10), 0u);
}

// log_close: past max_modified_age_async the commit asks for a checkpoint at
// lsn - max_modified_age_async, so the async pass writes only the pages
// modified before it (not io_capacity_max pages), and the checkpoint age
// comes back to the async limit.
TEST(PageCleanerTest, MariaDbAsyncFlushStopsAtTheAgeTarget) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  s.innodb_buffer_pool_size = 1ull << 30;
  Cleaner c(s);
  BufferPool& pool = c.pool;
  RedoLog& log = c.log;
  PageCleaner& cleaner = c.cleaner;
  const uint64_t async_age = log.mariadb().max_modified_age_async;
  // One page dirtied per 10,000 bytes of redo until the age is 1 MB past
  // the async limit: about 100 pages lie before the target.
  uint32_t p = 0;
  while (log.lsn() < async_age + (1u << 20)) {
    pool.MarkDirty(1, p++, log.lsn() + 1, 0);
    pool.CommitMtr();
    log.Append(10000);
  }
  const uint64_t target = log.lsn() - async_age;
  (void)cleaner.CheckRedoPressure(0.5);
  cleaner.RunIteration(1);
  EXPECT_GT(cleaner.stats().async_pages, 90u);
  EXPECT_LT(cleaner.stats().async_pages, 120u);
  EXPECT_GE(pool.OldestModification(), target);
  EXPECT_LE(log.lsn() - log.last_checkpoint_lsn(), async_age);
}

}  // namespace
}  // namespace innosim
