// Idle simulated seconds cost nothing (issue 29, item 1): FlushModel::Tick
// skips the page cleaner's idle passes in whole periods. The skip must be
// exact: the same counters, cleaner state and checkpoint as running every
// pass one by one (checked on loads where both are feasible), and the floor
// on the rate is refused by the Engine.
#include <random>

#include "gtest/gtest.h"
#include "model/engine.h"
#include "model/flush_model.h"
#include "model/record_format.h"

namespace innosim {
namespace {

constexpr uint32_t kSpace = 3;

// Bursts of rows at 100000 rows/s separated by long idle gaps (the shape
// where the cleaner works, goes idle and the averages decay), on a random
// working set so dirty pages remain across the gaps.
struct Observed {
  FlushModel::Counters c;
  PageCleaner::Stats p;
  FlushModel::Sample s;
  uint64_t page_avg_rate = 0, lsn_avg_rate = 0;
  uint64_t checkpoint = 0;
  uint64_t skipped = 0;
};

Observed Drive(const ServerSettings& settings, bool skip, uint32_t pages, int bursts, double gap_s) {
  FlushModel fm(settings);
  fm.set_skip_idle_passes(skip);
  std::mt19937_64 rng(11);
  double now = 0;
  for (int b = 0; b < bursts; ++b) {
    for (int i = 0; i < 3000; ++i) {
      const uint32_t leaf = 1 + static_cast<uint32_t>(rng() % pages);
      fm.OnPageAccess(kSpace, 0);
      if (b == 0 && i < static_cast<int>(pages)) fm.OnPageCreate(kSpace, leaf);
      fm.OnPageAccess(kSpace, leaf);
      fm.OnPageModify(kSpace, leaf);
      fm.OnMtrCommit(250);
      now += 1e-5;
      fm.Tick(now);
    }
    // Gaps of varied length, some not a whole number of periods.
    now += gap_s + static_cast<double>(rng() % 97) + 0.37;
    fm.Tick(now);
  }
  Observed o;
  o.c = fm.counters();
  o.p = fm.page_cleaner().stats();
  o.s = fm.Snapshot();
  o.page_avg_rate = fm.page_cleaner().page_avg_rate();
  o.lsn_avg_rate = fm.page_cleaner().lsn_avg_rate();
  o.checkpoint = fm.redo_log().last_checkpoint_lsn();
  o.skipped = fm.skipped_passes();
  EXPECT_EQ(fm.Verify(), "");
  return o;
}

void ExpectSame(const Observed& a, const Observed& b) {
  EXPECT_EQ(a.c.Innodb_pages_written, b.c.Innodb_pages_written);
  EXPECT_EQ(a.c.Innodb_buffer_pool_reads, b.c.Innodb_buffer_pool_reads);
  EXPECT_EQ(a.c.peak_dirty_pages, b.c.peak_dirty_pages);
  EXPECT_EQ(a.c.adaptive_flush_pages, b.c.adaptive_flush_pages);
  EXPECT_EQ(a.c.sync_flush_pages, b.c.sync_flush_pages);
  EXPECT_EQ(a.c.async_flush_pages, b.c.async_flush_pages);
  EXPECT_EQ(a.c.lru_flush_pages, b.c.lru_flush_pages);
  EXPECT_EQ(a.c.single_page_flushes, b.c.single_page_flushes);
  EXPECT_EQ(a.c.redo_bytes, b.c.redo_bytes);
  EXPECT_EQ(a.p.iterations, b.p.iterations);
  EXPECT_EQ(a.p.sync_iterations, b.p.sync_iterations);
  EXPECT_EQ(a.p.adaptive_pages, b.p.adaptive_pages);
  EXPECT_EQ(a.p.lru_pages, b.p.lru_pages);
  EXPECT_EQ(a.p.last_n_to_flush, b.p.last_n_to_flush);
  EXPECT_EQ(a.p.last_pct_for_dirty, b.p.last_pct_for_dirty);
  EXPECT_EQ(a.p.last_pct_for_lsn, b.p.last_pct_for_lsn);
  EXPECT_EQ(a.page_avg_rate, b.page_avg_rate);
  EXPECT_EQ(a.lsn_avg_rate, b.lsn_avg_rate);
  EXPECT_EQ(a.s.dirty_pages, b.s.dirty_pages);
  EXPECT_EQ(a.s.lsn, b.s.lsn);
  EXPECT_EQ(a.checkpoint, b.checkpoint);
}

ServerSettings Small(ServerFlavor flavor) {
  ServerSettings s = ServerSettings::Defaults(flavor);
  EXPECT_TRUE(s.Set("innodb_buffer_pool_size", "16M").ok());
  EXPECT_TRUE(s.Set("innodb_io_capacity", "100").ok());
  return s;
}

TEST(IdleSecondsTest, MySqlSkipEqualsPassByPass) {
  const ServerSettings s = Small(ServerFlavor::kMySql84);
  const Observed stepped = Drive(s, false, 800, 40, 4000);
  const Observed skipped = Drive(s, true, 800, 40, 4000);
  EXPECT_GT(stepped.p.iterations, 160'000u);
  EXPECT_GT(stepped.c.adaptive_flush_pages, 0u);  // the cleaner did work between the idle stretches
  EXPECT_GT(skipped.skipped, stepped.p.iterations / 2);
  ExpectSame(stepped, skipped);
}

TEST(IdleSecondsTest, MySqlSkipEqualsPassByPassWithShortAveraging) {
  ServerSettings s = Small(ServerFlavor::kMySql84);
  ASSERT_TRUE(s.Set("innodb_flushing_avg_loops", "1").ok());
  const Observed stepped = Drive(s, false, 800, 20, 3000);
  const Observed skipped = Drive(s, true, 800, 20, 3000);
  EXPECT_EQ(stepped.skipped, 0u);
  EXPECT_GT(skipped.skipped, stepped.p.iterations / 2);  // most of the idle passes went in steps
  ExpectSame(stepped, skipped);
}

TEST(IdleSecondsTest, MariaDbSkipEqualsPassByPass) {
  const ServerSettings s = Small(ServerFlavor::kMariaDb1011);
  const Observed stepped = Drive(s, false, 800, 40, 4000);
  const Observed skipped = Drive(s, true, 800, 40, 4000);
  EXPECT_GT(stepped.p.iterations, 160'000u);
  EXPECT_GT(skipped.skipped, stepped.p.iterations / 2);
  ExpectSame(stepped, skipped);
}

TEST(IdleSecondsTest, MariaDbWithDirtyLowWaterMarkSkipEqualsPassByPass) {
  ServerSettings s = Small(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(s.Set("innodb_max_dirty_pages_pct_lwm", "10").ok());
  const Observed stepped = Drive(s, false, 800, 20, 3000);
  const Observed skipped = Drive(s, true, 800, 20, 3000);
  EXPECT_EQ(stepped.skipped, 0u);
  EXPECT_GT(skipped.skipped, stepped.p.iterations / 2);  // most of the idle passes went in steps
  ExpectSame(stepped, skipped);
}

// Before the skip, a trillion idle seconds were a trillion passes (the
// --rows-per-sec 1e-300 hang): now a handful of steps, and the pass count
// is still exact.
TEST(IdleSecondsTest, ATrillionIdleSecondsAreCountedExactly) {
  for (ServerFlavor f : {ServerFlavor::kMySql84, ServerFlavor::kMariaDb1011}) {
    FlushModel fm(Small(f));
    fm.OnPageCreate(kSpace, 0);
    fm.OnPageModify(kSpace, 0);
    fm.OnMtrCommit(100);
    fm.Tick(1e12);
    EXPECT_EQ(fm.page_cleaner().stats().iterations, 1'000'000'000'000u);
    EXPECT_EQ(fm.Verify(), "");
  }
}

TEST(IdleSecondsTest, EngineRefusesARateBelowTheFloor) {
  const TableDef table = Seed000Table(16);
  EngineOptions o;
  o.flush = ServerSettings::Defaults(ServerFlavor::kMySql84);
  o.rows_per_sec = 1e-300;
  Engine below(EngineProfile::ForServer(*o.flush), table, o);
  EXPECT_FALSE(below.status().ok());
  o.rows_per_sec = FlushModel::kMinRowsPerSec;
  Engine at(EngineProfile::ForServer(*o.flush), table, o);
  EXPECT_TRUE(at.status().ok()) << at.status();
}

}  // namespace
}  // namespace innosim
