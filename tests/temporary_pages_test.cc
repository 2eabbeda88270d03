// MariaDB's temporary-tablespace pages in the buffer pool
// (BufferPool::MarkTempDirty): dirty from the server's start but never on
// the flush list, so only an LRU flush writes them, and frees them; a user
// thread's scan for a clean page passes them. And the engine's use of them:
// the 131 pages trx_temp_rseg_create and fsp_header_init leave dirty at
// startup (UndoLogs::Startup), under the MariaDB profile only.
#include <algorithm>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "model/buffer_pool.h"
#include "model/engine.h"
#include "model/undo_log.h"
#include "sim/runner.h"
#include "tests/verify_test_peer.h"

namespace innosim {
namespace {

constexpr uint32_t kSpace = 7;
constexpr uint32_t kTemp = UndoLogs::kTempSpaceKey;

BufferPool MariaDbPool(uint64_t frames, uint64_t lru_scan_depth) {
  BufferPool::Options o;
  o.n_frames = frames;
  o.mariadb = true;
  o.lru_scan_depth = lru_scan_depth;
  return BufferPool(o);
}

// Ten temporary pages, created first (at the LRU tail once the pool fills).
void TenTemporaryPages(BufferPool* pool) {
  for (uint32_t p = 0; p < 10; ++p) {
    pool->Create(kTemp, p, 0);
    pool->MarkTempDirty(kTemp, p, 0);
    pool->CommitMtr();
  }
}

TEST(TemporaryPagesTest, WrittenOnlyByAnLruFlushWhichFreesThem) {
  BufferPool pool = MariaDbPool(1000, 500);
  TenTemporaryPages(&pool);
  for (uint32_t p = 0; p < 690; ++p) {
    pool.MarkDirty(kSpace, p, 100 + p, 0);
    pool.CommitMtr();
  }
  // Off the flush list: not in Innodb_buffer_pool_pages_dirty.
  EXPECT_EQ(pool.dirty_pages(), 690u);
  EXPECT_EQ(pool.Verify(), "");
  // Neither a flush-list batch nor the final flush writes them.
  EXPECT_EQ(pool.FlushListBatch(10000, ~uint64_t{0}), 690u);
  EXPECT_EQ(pool.FlushAllDirty(), 0u);
  EXPECT_EQ(pool.stats().pages_written, 690u);
  for (uint32_t p = 0; p < 10; ++p) EXPECT_TRUE(pool.IsResident(kTemp, p)) << p;
  EXPECT_EQ(pool.Verify(), "");
  // An LRU flush from the tail writes each (within its quota of 4: the
  // first four) and frees it at once.
  EXPECT_EQ(pool.LruFlushMariaDb(4), 4u);
  EXPECT_EQ(pool.stats().pages_written, 694u);
  for (uint32_t p = 0; p < 4; ++p) EXPECT_FALSE(pool.IsResident(kTemp, p)) << p;
  EXPECT_TRUE(pool.IsResident(kTemp, 4));
  EXPECT_EQ(pool.Verify(), "");
  // A larger quota takes the rest, and the clean pages behind them.
  EXPECT_EQ(pool.LruFlushMariaDb(100), 6u);
  for (uint32_t p = 0; p < 10; ++p) EXPECT_FALSE(pool.IsResident(kTemp, p)) << p;
  EXPECT_EQ(pool.stats().pages_written, 700u);
  EXPECT_EQ(pool.Verify(), "");
}

TEST(TemporaryPagesTest, UserThreadsScanForACleanPagePassesThem) {
  // No wake-up of the cleaner (scan depth 0): the user thread's own scan
  // finds the clean pages behind the temporary ones at the tail.
  BufferPool pool = MariaDbPool(200, 0);
  TenTemporaryPages(&pool);
  for (uint32_t p = 0; p < 2000; ++p) {
    pool.Fix(kSpace, p, 0);
    pool.CommitMtr();
  }
  EXPECT_GT(pool.stats().evicted, 1000u);
  EXPECT_EQ(pool.stats().pages_written, 0u);
  for (uint32_t p = 0; p < 10; ++p) EXPECT_TRUE(pool.IsResident(kTemp, p)) << p;
  EXPECT_EQ(pool.Verify(), "");
}

TEST(TemporaryPagesTest, VerifyCatchesATemporaryPageOnTheFlushList) {
  BufferPool pool = MariaDbPool(100, 0);
  pool.MarkDirty(kSpace, 1, 100, 0);
  pool.CommitMtr();
  ASSERT_EQ(pool.Verify(), "");
  VerifyTestPeer::SetTemp(pool, VerifyTestPeer::FrameOf(pool, kSpace, 1));
  EXPECT_NE(pool.Verify(), "");
}

// The engine's temporary pages: MariaDB's 131 from the start, MySQL's none.
struct TempPages {
  uint32_t resident = 0;
  uint32_t written = 0;      // pages written at least once
  uint32_t written_max = 0;  // the most writes of one page
};

TempPages CountTempPages(const Engine& e) {
  TempPages t;
  const BufferPool& bp = e.flush_model()->buffer_pool();
  for (uint32_t p = 0; p < UndoLogs::kRsegFirstPage + UndoLogs::kMariaDbRsegs; ++p) {
    t.resident += bp.IsResident(kTemp, p);
    const uint32_t w = bp.PageWrites(kTemp, p);
    t.written += w > 0;
    t.written_max = std::max(t.written_max, w);
  }
  return t;
}

TEST(TemporaryPagesTest, MariaDbStartsWithThemDirtyAndOnlyASmallPoolWritesThem) {
  const uint32_t kTempPages = 1 + UndoLogs::kTempInodePages + UndoLogs::kMariaDbRsegs;
  ASSERT_EQ(kTempPages, 131u);  // as INNODB_BUFFER_PAGE showed for space 4294967294
  for (const char* profile : {"mariadb-10.11", "mysql-8.4"}) {
    const bool mariadb = std::string(profile) == "mariadb-10.11";
    // At the start, and after a load into the default 128 MB pool that
    // the table fits in: resident, never written (the final flush passes
    // them), none counted dirty.
    {
      const EngineProfile ep = *EngineProfile::ByName(profile);
      EngineOptions o;
      o.flush = ServerSettings::Defaults(ep.flavor());
      Engine e(ep, Seed000Table(16), o);
      const TempPages start = CountTempPages(e);
      EXPECT_EQ(start.resident, mariadb ? kTempPages : 0u) << profile;
      EXPECT_EQ(e.flush_model()->buffer_pool().DirtyPagesOf(kTemp), 0u) << profile;
    }
    RunSpec spec;
    spec.stream.name = "autoinc";
    spec.rows = 200000;
    spec.profile = profile;
    spec.page_writes = true;
    TempPages big, small;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) { big = CountTempPages(e); });
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(big.resident, mariadb ? kTempPages : 0u) << profile;
    EXPECT_EQ(big.written, 0u) << profile;
    // A pool of 8 MB, a sixth of the table: the LRU flush reaches the
    // tail, writes each temporary page once and frees it; none is read
    // back (nothing fixes them again).
    spec.settings.push_back({"innodb_buffer_pool_size", "8M", "test"});
    r = innosim::Run(spec, [&](const Engine& e) { small = CountTempPages(e); });
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(small.resident, 0u) << profile;
    EXPECT_EQ(small.written, mariadb ? kTempPages : 0u) << profile;
    EXPECT_LE(small.written_max, 1u) << profile;
  }
}

}  // namespace
}  // namespace innosim
