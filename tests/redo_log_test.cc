#include "model/redo_log.h"

#include "gtest/gtest.h"

namespace innosim {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// docs/innodb-rules.md, 'Redo capacity, MySQL': the worked example for innodb_redo_log_capacity =
// 100 MiB (the table there is approximate; the margin in the table is the
// sn value, here translated to LSN as log_free_check_margin does).
TEST(RedoLogTest, MySqlThresholdsForTheDefaultCapacity) {
  const MySqlRedoLimits m = RedoLog::MySqlLimitsFor(100ull << 20, 16384, 0);
  // Exact values from the formulas in log0files_capacity.cc / log0chkp.cc.
  EXPECT_EQ(m.hard, 97781760u);
  EXPECT_EQ(m.soft, 92892672u);
  EXPECT_EQ(m.adaptive_flush_max_age, 87086592u);
  EXPECT_EQ(m.adaptive_flush_min_age, 81281024u);
  EXPECT_EQ(m.concurrency_margin, 655360u + 4096u + 4644352u);
  EXPECT_EQ(m.free_check_margin, RedoLog::SnToLsn(m.concurrency_margin));
  EXPECT_EQ(m.limit_for_free_check, 87417344u);
  EXPECT_EQ(m.limit_for_dirty_page_age, 75805696u);
  // Against the worked table (MiB, approximate there).
  EXPECT_NEAR(m.hard / kMiB, 93.1, 0.3);
  EXPECT_NEAR(m.soft / kMiB, 88.5, 0.2);
  EXPECT_NEAR(m.adaptive_flush_max_age / kMiB, 83.0, 0.2);
  EXPECT_NEAR(m.adaptive_flush_min_age / kMiB, 77.4, 0.2);
  EXPECT_NEAR(m.concurrency_margin / kMiB, 5.05, 0.05);
  EXPECT_NEAR(m.limit_for_free_check / kMiB, 83.4, 0.2);
  EXPECT_NEAR(m.sync_flush_age / kMiB, 77.9, 0.2);
  EXPECT_NEAR(m.limit_for_dirty_page_age / kMiB, 72.4, 0.2);
  // af_lwm (10 % of limit_for_free_check).
  EXPECT_NEAR(m.limit_for_free_check / 10 / kMiB, 8.3, 0.1);
}

TEST(RedoLogTest, MariaDbSetCapacityForTheDefaultLogFileSize) {
  const MariaDbRedoLimits m = RedoLog::MariaDbLimitsFor(96ull << 20, 16384);
  EXPECT_EQ(m.log_capacity, 90585908u);
  EXPECT_EQ(m.max_checkpoint_age, 80819529u);
  EXPECT_EQ(m.max_modified_age_async, 70717088u);
}

TEST(RedoLogTest, LsnCountsLogBlockFramingInMySql) {
  EXPECT_EQ(RedoLog::SnToLsn(0), 12u);
  EXPECT_EQ(RedoLog::SnToLsn(496), 512u + 12u);
  for (uint64_t sn : {0ull, 1ull, 495ull, 496ull, 123456789ull}) {
    EXPECT_EQ(RedoLog::LsnToSn(RedoLog::SnToLsn(sn)), sn);
  }
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  RedoLog log(s);
  const uint64_t start = log.lsn();
  log.Append(496 * 100);
  EXPECT_EQ(log.lsn() - start, 512u * 100);
  EXPECT_EQ(log.bytes_appended(), 496u * 100);

  ServerSettings m = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  RedoLog mlog(m);
  const uint64_t mstart = mlog.lsn();
  mlog.Append(1000);
  EXPECT_EQ(mlog.lsn() - mstart, 1000u);
}

TEST(RedoLogTest, CheckpointIsOldestDirtyLessFlushOrderLagInMySql) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  RedoLog log(s);
  log.Append(50ull << 20);
  const uint64_t oldest = log.lsn() - (10ull << 20);
  EXPECT_EQ(log.AvailableForCheckpoint(oldest), oldest - RedoLog::kFlushOrderLag);
  EXPECT_EQ(log.AvailableForCheckpoint(0), log.lsn());
  log.Checkpoint(oldest);
  EXPECT_EQ(log.checkpoint_age(), (10ull << 20) + RedoLog::kFlushOrderLag);
}

TEST(RedoLogTest, SyncFlushStartsPastAdaptiveFlushMaxAgeLessMargin) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  RedoLog log(s);
  log.Append(300ull << 20);
  const MySqlRedoLimits& m = log.mysql();
  // Oldest page age such that current + margin - (oldest - lag) is just
  // below / above adaptive_flush_max_age.
  const uint64_t threshold_age = m.sync_flush_age - RedoLog::kFlushOrderLag;
  EXPECT_EQ(log.MySqlSyncFlushLsn(log.lsn() - threshold_age), 0u);
  const uint64_t oldest = log.lsn() - threshold_age - 4096;
  const uint64_t target = log.MySqlSyncFlushLsn(oldest);
  ASSERT_NE(target, 0u);
  EXPECT_EQ(target, log.lsn() + m.free_check_margin - m.adaptive_flush_max_age +
                        RedoLog::kFlushOrderLag);
  EXPECT_GT(target, oldest);
  EXPECT_EQ(log.MySqlSyncFlushLsn(0), 0u);
}

}  // namespace
}  // namespace innosim
