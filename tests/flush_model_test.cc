#include "model/flush_model.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace innosim {
namespace {

constexpr uint32_t kSpace = 3;

// A synthetic driver standing in for the B-tree: each "row" fixes a root
// page and one leaf, modifies the leaf and commits `redo_per_row` bytes.
struct DriverResult {
  uint64_t pages = 0;
  FlushModel::Counters c;
};

DriverResult RunRandom(const ServerSettings& s, uint32_t pages, uint64_t rows, double rows_per_sec,
                       uint64_t redo_per_row) {
  FlushModel fm(s);
  for (uint32_t p = 0; p <= pages; ++p) {
    fm.OnPageCreate(kSpace, p);
    fm.OnPageModify(kSpace, p);
    fm.OnMtrCommit(64);
  }
  std::mt19937_64 rng(7);
  for (uint64_t i = 0; i < rows; ++i) {
    const uint32_t leaf = 1 + static_cast<uint32_t>(rng() % pages);
    fm.OnPageAccess(kSpace, 0);
    fm.OnPageAccess(kSpace, leaf);
    fm.OnPageModify(kSpace, leaf);
    fm.OnMtrCommit(redo_per_row);
    fm.Tick(static_cast<double>(i + 1) / rows_per_sec);
  }
  fm.FlushAll();
  return {pages, fm.counters()};
}

DriverResult RunSequential(const ServerSettings& s, uint64_t rows, uint32_t rows_per_page,
                           double rows_per_sec, uint64_t redo_per_row) {
  FlushModel fm(s);
  fm.OnPageCreate(kSpace, 0);
  fm.OnPageModify(kSpace, 0);
  fm.OnMtrCommit(64);
  uint32_t pages = 0;
  for (uint64_t i = 0; i < rows; ++i) {
    const uint32_t leaf = 1 + static_cast<uint32_t>(i / rows_per_page);
    fm.OnPageAccess(kSpace, 0);
    if (i % rows_per_page == 0) {
      fm.OnPageCreate(kSpace, leaf);  // append split: new page, parent entry
      fm.OnPageModify(kSpace, 0);
      ++pages;
    } else {
      fm.OnPageAccess(kSpace, leaf);
    }
    fm.OnPageModify(kSpace, leaf);
    fm.OnMtrCommit(redo_per_row);
    fm.Tick(static_cast<double>(i + 1) / rows_per_sec);
  }
  fm.FlushAll();
  return {pages, fm.counters()};
}

ServerSettings Seed000Settings() {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_TRUE(s.Set("innodb_buffer_pool_size", "1G").ok());
  EXPECT_TRUE(s.Set("innodb_doublewrite", "0").ok());
  return s;
}

TEST(FlushModelTest, RandomModificationsWritePagesManyTimesMoreThanAppends) {
  const ServerSettings s = Seed000Settings();
  // 20000 pages, 100 rows each, ~300 bytes of redo per row (the order of
  // the MLOG_REC_INSERT + undo + amortised split of redo_format.h).
  const DriverResult random = RunRandom(s, 20000, 2'000'000, 100'000, 300);
  const DriverResult seq = RunSequential(s, 2'000'000, 100, 100'000, 300);
  const double wpp_random = static_cast<double>(random.c.Innodb_pages_written) / random.pages;
  const double wpp_seq = static_cast<double>(seq.c.Innodb_pages_written) / seq.pages;
  EXPECT_GT(wpp_random, 4.0);
  EXPECT_LT(wpp_seq, 1.2);
  EXPECT_GT(wpp_random, 4 * wpp_seq);
  // In memory: nothing is read.
  EXPECT_EQ(random.c.Innodb_buffer_pool_reads, 0u);
  EXPECT_EQ(seq.c.Innodb_buffer_pool_reads, 0u);
  // Redo pressure, not the dirty-page ratio, forced the random writes.
  EXPECT_GT(random.c.sync_flush_pages + random.c.adaptive_flush_pages, random.pages);
}

TEST(FlushModelTest, ReadsAppearOnlyWhenTheWorkingSetExceedsThePool) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ASSERT_TRUE(s.Set("innodb_buffer_pool_size", "32M").ok());  // 2048 frames
  // The page cleaner's LRU batch keeps innodb_lru_scan_depth (1024) frames
  // free, so the working set that stays resident is 2048 - 1024 pages.
  const DriverResult small = RunRandom(s, 900, 300'000, 50'000, 250);
  const DriverResult large = RunRandom(s, 6000, 300'000, 50'000, 250);
  EXPECT_EQ(small.c.Innodb_buffer_pool_reads, 0u);
  EXPECT_GT(large.c.Innodb_buffer_pool_reads, 100'000u);  // most rows miss
  // Evicting dirty pages costs writes (LRU batch or single-page flushes).
  EXPECT_GT(large.c.lru_flush_pages + large.c.single_page_flushes, 0u);
}

TEST(FlushModelTest, FlushAllLeavesNoDirtyPageAndCountsTheWrites) {
  const ServerSettings s = Seed000Settings();
  FlushModel fm(s);
  for (uint32_t p = 0; p < 1000; ++p) {
    fm.OnPageCreate(kSpace, p);
    fm.OnPageModify(kSpace, p);
    fm.OnMtrCommit(200);
  }
  fm.Tick(0.5);
  EXPECT_EQ(fm.buffer_pool().dirty_pages(), 1000u);
  EXPECT_EQ(fm.counters().peak_dirty_pages, 1000u);
  fm.FlushAll();
  EXPECT_EQ(fm.buffer_pool().dirty_pages(), 0u);
  EXPECT_EQ(fm.counters().Innodb_pages_written, 1000u);
  EXPECT_EQ(fm.counters().final_flush_pages, 1000u);
  EXPECT_EQ(fm.Snapshot().checkpoint_age, 0u);
}

TEST(FlushModelTest, DoublewriteDoublesWritesWithoutChangingThem) {
  ServerSettings off = Seed000Settings();
  ServerSettings on = off;
  ASSERT_TRUE(on.Set("innodb_doublewrite", "ON").ok());
  const DriverResult a = RunRandom(off, 5000, 300'000, 100'000, 300);
  const DriverResult b = RunRandom(on, 5000, 300'000, 100'000, 300);
  EXPECT_EQ(a.c.Innodb_pages_written, b.c.Innodb_pages_written);
  EXPECT_EQ(a.c.Innodb_dblwr_pages_written, 0u);
  EXPECT_EQ(b.c.Innodb_dblwr_pages_written, b.c.Innodb_pages_written);
}

// MariaDB's buf_page_t::flush writes a page created since its last write
// (REINIT) straight to its file; every other write goes through the
// doublewrite buffer. MySQL 8.4 doublewrites every page (above).
TEST(FlushModelTest, MariaDbCreatedPagesSkipTheDoublewriteBuffer) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(s.Set("innodb_doublewrite", "ON").ok());
  FlushModel fm(s);
  for (uint32_t p = 0; p < 100; ++p) {
    fm.OnPageCreate(kSpace, p);
    fm.OnPageModify(kSpace, p);
    fm.OnMtrCommit(200);
  }
  fm.FlushAll();
  EXPECT_EQ(fm.counters().Innodb_pages_written, 100u);
  EXPECT_EQ(fm.counters().Innodb_dblwr_pages_written, 0u);
  // Changed again after their write: an ordinary page each, doublewritten.
  for (uint32_t p = 0; p < 10; ++p) {
    fm.OnPageAccess(kSpace, p);
    fm.OnPageModify(kSpace, p);
    fm.OnMtrCommit(100);
  }
  // Created again (an undo page taken anew): REINIT again.
  fm.OnPageCreate(kSpace, 50);
  fm.OnPageModify(kSpace, 50);
  fm.OnMtrCommit(100);
  fm.FlushAll();
  EXPECT_EQ(fm.counters().Innodb_pages_written, 111u);
  EXPECT_EQ(fm.counters().Innodb_dblwr_pages_written, 10u);
}

// OnPageFixOnly (a caller without buf_page_make_young_if_needed): MariaDB
// 10.11 leaves the page where it is in the LRU, MySQL 8.4's Buf_fetch makes
// it young as any fix does.
TEST(FlushModelTest, AFixWithoutMakeYoungMovesNoPageOnlyUnderMariaDb) {
  for (ServerFlavor flavor : {ServerFlavor::kMariaDb1011, ServerFlavor::kMySql84}) {
    ServerSettings s = ServerSettings::Defaults(flavor);
    ASSERT_TRUE(s.Set("innodb_buffer_pool_size", "32M").ok());
    // The page cleaner's pass at 1 s frees at most this many clean pages
    // from the LRU tail: not the page under test, near the midpoint.
    ASSERT_TRUE(s.Set("innodb_lru_scan_depth", "100").ok());
    FlushModel fm(s);
    const uint64_t frames = fm.buffer_pool().n_frames();
    // Fill the pool and start evicting.
    for (uint32_t p = 1; p < frames + 200; ++p) {
      fm.OnPageAccess(kSpace, p);
      fm.OnMtrCommit(0);
    }
    fm.OnPageAccess(kSpace, 900'000);  // read at t = 0, old
    fm.OnMtrCommit(0);
    ASSERT_TRUE(fm.buffer_pool().IsOld(kSpace, 900'000));
    fm.Tick(2.0);  // innodb_old_blocks_time (1 s) later
    const uint64_t reads = fm.buffer_pool().stats().reads;
    fm.OnPageFixOnly(kSpace, 900'000);
    fm.OnMtrCommit(0);
    ASSERT_EQ(fm.buffer_pool().stats().reads, reads);  // resident
    EXPECT_EQ(fm.buffer_pool().IsOld(kSpace, 900'000), flavor == ServerFlavor::kMariaDb1011)
        << ServerFlavorName(flavor);
  }
}

TEST(FlushModelTest, MariaDbProfileAlsoSeparatesRandomFromSequential) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(s.Set("innodb_buffer_pool_size", "1G").ok());
  const DriverResult random = RunRandom(s, 20000, 1'000'000, 100'000, 300);
  const DriverResult seq = RunSequential(s, 1'000'000, 100, 100'000, 300);
  const double wpp_random = static_cast<double>(random.c.Innodb_pages_written) / random.pages;
  const double wpp_seq = static_cast<double>(seq.c.Innodb_pages_written) / seq.pages;
  EXPECT_GT(wpp_random, 2 * wpp_seq);
}

}  // namespace
}  // namespace innosim

namespace innosim {
namespace {

// MariaDB's buf_flush_ahead wakes a cleaner that waits without a timeout
// (idle, innodb_max_dirty_pages_pct_lwm 0) the moment the checkpoint age
// passes max_modified_age_async: the async batch runs then, not at the next
// whole second. A cleaner in its 1-second timed wait (lwm 10, pages dirty)
// is not disturbed: the limit waits for its pass.
TEST(FlushModelTest, MariaDbAsyncRequestWakesOnlyACleanerAsleepWithoutATimeout) {
  for (const char* lwm : {"0", "10"}) {
    SCOPED_TRACE(lwm);
    ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
    ASSERT_TRUE(s.Set("innodb_buffer_pool_size", "1G").ok());
    ASSERT_TRUE(s.Set("innodb_max_dirty_pages_pct_lwm", lwm).ok());
    FlushModel fm(s);
    const uint64_t async_age = fm.redo_log().mariadb().max_modified_age_async;
    // A page dirtied per 100 KB of redo, all of it within the first 0.9 s:
    // past the async limit at about 0.8 s, below 10% of the pool dirty.
    const uint64_t rows = (async_age + (4u << 20)) / 100000 + 1;
    uint32_t page = 0;
    for (uint64_t i = 0; i < rows; ++i) {
      fm.OnPageCreate(kSpace, page);
      fm.OnPageModify(kSpace, page++);
      fm.OnMtrCommit(100000);
      fm.Tick(0.9 * static_cast<double>(i + 1) / static_cast<double>(rows));
    }
    const uint64_t written_before_the_second = fm.counters().Innodb_pages_written;
    if (std::string(lwm) == "0") {
      EXPECT_GT(written_before_the_second, 0u) << "woken at the crossing";
      EXPECT_EQ(fm.counters().async_flush_pages, written_before_the_second);
    } else {
      EXPECT_EQ(written_before_the_second, 0u) << "the timed wait is not disturbed";
    }
    fm.Tick(1.0);
    EXPECT_GT(fm.counters().async_flush_pages, 0u);
  }
}

}  // namespace
}  // namespace innosim
