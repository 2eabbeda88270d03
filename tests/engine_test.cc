// The Engine as the one door of a load (model/engine.h): EndRow and EndLoad
// drive the transactions, the clock and the flush model exactly as a caller
// wiring them by hand would, and every failure comes out of status().
#include "model/engine.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "model/record_format.h"
#include "model/server_settings.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 30000;
constexpr uint64_t kTrxRows = 250;
constexpr double kRowsPerSec = 5000;  // 6 simulated seconds: the page cleaner runs

// A pool small enough that pages are evicted, read back and flushed early.
ServerSettings SmallPool() {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  s.innodb_buffer_pool_size = uint64_t{300} * s.innodb_page_size;
  return s;
}

void ExpectSameCounters(const FlushModel::Counters& a, const FlushModel::Counters& b) {
  EXPECT_EQ(a.Innodb_pages_written, b.Innodb_pages_written);
  EXPECT_EQ(a.Innodb_dblwr_pages_written, b.Innodb_dblwr_pages_written);
  EXPECT_EQ(a.Innodb_buffer_pool_reads, b.Innodb_buffer_pool_reads);
  EXPECT_EQ(a.peak_dirty_pages, b.peak_dirty_pages);
  EXPECT_EQ(a.adaptive_flush_pages, b.adaptive_flush_pages);
  EXPECT_EQ(a.sync_flush_pages, b.sync_flush_pages);
  EXPECT_EQ(a.async_flush_pages, b.async_flush_pages);
  EXPECT_EQ(a.lru_flush_pages, b.lru_flush_pages);
  EXPECT_EQ(a.single_page_flushes, b.single_page_flushes);
  EXPECT_EQ(a.final_flush_pages, b.final_flush_pages);
  EXPECT_EQ(a.redo_bytes, b.redo_bytes);
}

void ExpectSameSample(const FlushModel::Sample& a, const FlushModel::Sample& b) {
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.lsn, b.lsn);
  EXPECT_EQ(a.checkpoint_lsn, b.checkpoint_lsn);
  EXPECT_EQ(a.dirty_pages, b.dirty_pages);
  EXPECT_EQ(a.pages_written, b.pages_written);
  EXPECT_EQ(a.buffer_pool_reads, b.buffer_pool_reads);
}

// The door against the same load wired by hand (an Engine with the caller's
// own FlushModel as its sink, CommitTrx, Tick and FlushAll called by the
// caller, the clock at (i + 1) x (1 / rows_per_sec)): the same page writes,
// reads, redo and time series, and the same tree.
TEST(EngineTest, EndRowAndEndLoadDriveTheFlushModelAsAHandWiredLoad) {
  // The statistics recalculation runs on the door's clock only (a caller's
  // own sink has none, model/engine.h): off here, so that both loads fix the
  // same pages.
  ServerSettings settings = SmallPool();
  ASSERT_TRUE(settings.Set("innodb_stats_auto_recalc", "OFF").ok());
  const EngineProfile profile = EngineProfile::ForServer(settings);
  EngineOptions options;
  options.flush = settings;
  options.trx_rows = kTrxRows;
  options.rows_per_sec = kRowsPerSec;
  Engine door(profile, Seed000Table(16), options);
  FlushModel flush(settings);
  Engine by_hand(profile, Seed000Table(16), &flush);
  ASSERT_NE(door.flush_model(), nullptr);

  std::unique_ptr<KeyStream> keys = MakeStream("uuidv4");
  ASSERT_NE(keys, nullptr);
  const double seconds_per_row = 1.0 / kRowsPerSec;
  Key k;
  for (uint64_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE(keys->Next(&k));
    ASSERT_TRUE(door.InsertRow(k).ok());
    ASSERT_TRUE(door.EndRow().ok()) << "row " << i;
    ASSERT_TRUE(by_hand.InsertRow(k).ok());
    if ((i + 1) % kTrxRows == 0) by_hand.CommitTrx();
    flush.Tick(static_cast<double>(i + 1) * seconds_per_row);
    if ((i + 1) % 5000 == 0) ExpectSameSample(door.flush_model()->Snapshot(), flush.Snapshot());
  }
  ASSERT_TRUE(door.EndLoad().ok()) << door.status();
  by_hand.CommitTrx();
  flush.FlushAll();

  EXPECT_GT(flush.counters().Innodb_buffer_pool_reads, 0u);  // the pool was small indeed
  ExpectSameCounters(door.flush_model()->counters(), flush.counters());
  EXPECT_EQ(door.flush_model()->buffer_pool().dirty_pages(), 0u);
  EXPECT_EQ(door.Report().primary.size, by_hand.Report().primary.size);
  EXPECT_EQ(door.Report().primary.counters.index_page_splits, by_hand.Report().primary.counters.index_page_splits);
  EXPECT_EQ(door.Verify(), "");
}

// Structure only: no flush model, EndRow and EndLoad change nothing, and the
// tree is the one InsertRow alone builds.
TEST(EngineTest, WithoutTheFlushModelTheDoorIsTheTreeAlone) {
  const EngineProfile profile = EngineProfile::MariaDB1011();
  Engine door(profile, Seed000Table(16), EngineOptions{});
  Engine bare(profile, Seed000Table(16));
  EXPECT_EQ(door.flush_model(), nullptr);
  std::unique_ptr<KeyStream> keys = MakeStream("uuidv7-random");
  ASSERT_NE(keys, nullptr);
  Key k;
  for (uint64_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE(keys->Next(&k));
    ASSERT_TRUE(door.InsertRow(k).ok());
    ASSERT_TRUE(door.EndRow().ok());
    ASSERT_TRUE(bare.InsertRow(k).ok());
  }
  EXPECT_TRUE(door.EndLoad().ok());
  const EngineReport a = door.Report();
  const EngineReport b = bare.Report();
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.primary.size, b.primary.size);
  EXPECT_EQ(a.primary.n_leaf_pages, b.primary.n_leaf_pages);
  EXPECT_EQ(a.primary.counters.index_page_splits, b.primary.counters.index_page_splits);
  EXPECT_EQ(a.file_size, b.file_size);
  EXPECT_EQ(door.Verify(), "");
}

TEST(EngineTest, BadOptionsAreAStatusNotACrash) {
  EngineOptions no_rows;
  no_rows.trx_rows = 0;
  Engine a(EngineProfile::MySQL84(), Seed000Table(16), no_rows);
  EXPECT_EQ(a.status(), absl::InvalidArgumentError("EngineOptions::trx_rows must be at least 1"));

  EngineOptions no_clock;
  no_clock.flush = ServerSettings::Defaults(ServerFlavor::kMySql84);
  no_clock.rows_per_sec = 0;
  Engine b(EngineProfile::MySQL84(), Seed000Table(16), no_clock);
  ASSERT_TRUE(b.InsertRow(K(1)).ok());
  EXPECT_TRUE(b.EndRow().ok());  // no commit yet: status comes once per transaction
  EXPECT_EQ(b.EndLoad(),
            absl::InvalidArgumentError(
                "EngineOptions::rows_per_sec must be at least 0.001 and finite with the flush model (got 0)"));
}

// A broken tablespace precondition (here: innodb_segment_reserve_factor out
// of the range fsp0fsp.h allows, which only a hand-made profile can have)
// comes out of Engine::status(), hence out of EndRow at the next commit and
// out of EndLoad: the runner stops with it.
TEST(EngineTest, ATablespaceFailureComesOutOfStatusEndRowAndEndLoad) {
  EngineProfile profile = EngineProfile::MySQL84();
  profile.segment_reserve_pct = 99;
  const std::string message =
      "tablespace: fseg_alloc_free_page_low: innodb_segment_reserve_factor 99 is outside 0.03 .. 40 (running with "
      "12.5)";
  EngineOptions options;
  options.flush = ServerSettings::Defaults(ServerFlavor::kMySql84);
  options.trx_rows = 2;
  Engine e(profile, Seed000Table(16), options);
  EXPECT_EQ(e.status(), absl::InternalError(message));
  ASSERT_TRUE(e.InsertRow(K(1)).ok());
  EXPECT_TRUE(e.EndRow().ok());  // row 1 of 2: no commit, no status
  ASSERT_TRUE(e.InsertRow(K(2)).ok());
  EXPECT_EQ(e.EndRow(), absl::InternalError(message));
  EXPECT_EQ(e.EndLoad(), absl::InternalError(message));
  // Verify names it first (what follows it may be its consequence).
  EXPECT_EQ(e.tablespace().Verify().rfind("fseg_alloc_free_page_low: innodb_segment_reserve_factor 99", 0), 0u);

  Engine structure_only(profile, Seed000Table(16), EngineOptions{});
  EXPECT_EQ(structure_only.EndLoad(), absl::InternalError(message));
}

}  // namespace
}  // namespace innosim
