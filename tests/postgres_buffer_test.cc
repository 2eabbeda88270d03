// Shared buffers, the checkpointer and the background writer of the
// PostgreSQL model (model/postgres/buffer_manager.h, checkpointer.h,
// bgwriter.h, pg_io.h): the clock sweep's victims on a tiny pool, the usage
// count's cap, who writes a dirty victim, timed and WAL-volume checkpoints
// on a clocked load, a spread checkpoint's pace, full-page images restarting
// at each redo pointer, that with a pool the table fits in every figure of
// the pages-and-WAL model is unchanged, and REINDEX's new relfilenode (the
// old buffers dropped to the freelist, the build's pages WAL-logged).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/key.h"
#include "model/postgres/bgwriter.h"
#include "model/postgres/buffer_manager.h"
#include "model/postgres/checkpointer.h"
#include "model/postgres/pg_engine.h"
#include "model/postgres/pg_io.h"
#include "model/postgres/table.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {
namespace {

Key UuidV4(uint64_t* state) {
  auto next = [state]() {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  Key k{};
  k.hi = (next() & ~0xF000ull) | 0x4000ull;
  k.lo = (next() & ~(3ull << 62)) | (2ull << 62);
  return k;
}

PgTableSpec UuidTable() {
  PgTableSpec spec;
  spec.columns = {{"id", PgType::kUuid}};
  spec.primary_key = {0};
  return spec;
}

PgTableSpec BigintTable() {
  PgTableSpec spec;
  spec.columns = {{"id", PgType::kInt8}};
  spec.primary_key = {0};
  return spec;
}

TEST(PgBufferTest, FreelistFirstThenClockSweepVictimOrder) {
  BufferManager b(kPostgresql15, 4);
  const int rel = b.AddRelation();
  // The freelist hands out buffers 0..3 in order.
  for (uint32_t blk = 0; blk < 4; ++blk) {
    EXPECT_EQ(b.ExtendBuffer(rel, blk), static_cast<int>(blk));
    b.UnpinAll();
  }
  EXPECT_EQ(b.usage_count(0), 1);  // BUF_USAGECOUNT_ONE for a new page
  b.ReadBuffer(rel, 1);            // a hit: usage 2
  b.UnpinAll();
  EXPECT_EQ(b.usage_count(1), 2);
  // The sweep from buffer 0: 0 (1 -> 0), 1 (2 -> 1), 2 (1 -> 0), 3 (1 -> 0),
  // then 0 at 0 is the victim: block 0 leaves, block 4 takes buffer 0.
  EXPECT_EQ(b.ExtendBuffer(rel, 4), 0);
  b.UnpinAll();
  EXPECT_EQ(b.Lookup(rel, 0), -1);
  EXPECT_EQ(b.usage_count(1), 1);
  // Next: buffer 1 (1 -> 0), then buffer 2 at 0: block 2 leaves.
  EXPECT_EQ(b.ExtendBuffer(rel, 5), 2);
  b.UnpinAll();
  EXPECT_EQ(b.Lookup(rel, 2), -1);
  EXPECT_EQ(b.Lookup(rel, 1), 1);
  // Reading block 0 again is a read (not a hit) into buffer 3.
  const RelIoCounters before = b.rel_counters(rel);
  EXPECT_EQ(b.ReadBuffer(rel, 0), 3);
  b.UnpinAll();
  EXPECT_EQ(b.rel_counters(rel).blks_read, before.blks_read + 1);
  EXPECT_EQ(b.rel_counters(rel).blks_hit, before.blks_hit);
  EXPECT_EQ(b.Verify(), "");
}

TEST(PgBufferTest, UsageCountCappedAtBmMaxUsageCount) {
  BufferManager b(kPostgresql15, 2);
  const int rel = b.AddRelation();
  b.ExtendBuffer(rel, 0);
  b.UnpinAll();
  for (int i = 0; i < 20; ++i) {
    b.ReadBuffer(rel, 0);
    b.UnpinAll();
  }
  EXPECT_EQ(b.usage_count(0), kBmMaxUsageCount);
  // A second access under the same pin adds nothing (PinBuffer's first pin only).
  b.ExtendBuffer(rel, 1);
  b.ReadBuffer(rel, 1);
  EXPECT_EQ(b.usage_count(1), 1);
  b.UnpinAll();
  EXPECT_EQ(b.rel_counters(rel).blks_hit, 21u);
}

TEST(PgBufferTest, PinnedBufferIsPassedOver) {
  BufferManager b(kPostgresql15, 2);
  const int rel = b.AddRelation();
  b.ExtendBuffer(rel, 0);
  b.UnpinAll();
  b.ExtendBuffer(rel, 1);  // pinned (buffer 1)
  // Buffer 1 is pinned: the sweep takes buffer 0 although it passes 1 first
  // in the second lap.
  EXPECT_EQ(b.ExtendBuffer(rel, 2), 0);
  b.UnpinAll();
  EXPECT_EQ(b.Lookup(rel, 1), 1);
}

TEST(PgBufferTest, DirtyVictimIsWrittenByTheBackend) {
  for (const PgProfile& profile : {kPostgresql15, kPostgresql18}) {
    BufferManager b(profile, 2);
    const int rel = b.AddRelation();
    b.ExtendBuffer(rel, 0);
    b.MarkDirty(rel, 0);
    b.UnpinAll();
    b.ExtendBuffer(rel, 1);
    b.UnpinAll();
    EXPECT_EQ(b.dirty_blocks(rel), 1u);
    b.ExtendBuffer(rel, 2);  // evicts block 0 (buffer 0), dirty
    b.UnpinAll();
    EXPECT_EQ(b.counters().backend_writes, 1u);
    EXPECT_EQ(b.dirty_blocks(rel), 0u);
    EXPECT_EQ(b.counters().extends, 3u);
    // REL_15's buffers_backend adds each extension (mdextend's fsync request).
    EXPECT_EQ(b.counters().buffers_backend, profile.major < 16 ? 4u : 1u) << profile.name;
    EXPECT_EQ(b.rel_counters(rel).blks_read, profile.major < 16 ? 3u : 0u) << profile.name;
    // A clean victim costs no write.
    b.ExtendBuffer(rel, 3);
    b.UnpinAll();
    EXPECT_EQ(b.counters().backend_writes, 1u);
  }
}

TEST(PgBufferTest, CheckpointSegmentsAsXlogCalculatesThem) {
  EXPECT_EQ(CalculateCheckpointSegments(1024, 0.9), 33);  // 64 / 1.9
  EXPECT_EQ(CalculateCheckpointSegments(1024, 0.5), 42);  // 64 / 1.5
  EXPECT_EQ(CalculateCheckpointSegments(64, 0.9), 2);
  EXPECT_EQ(CalculateCheckpointSegments(32, 0.9), 1);
}

// A spread checkpoint writes the buffers dirty at its start at the pace of
// checkpoint_completion_target x checkpoint_timeout, not at once.
TEST(PgBufferTest, TimedCheckpointIsSpreadOverCompletionTarget) {
  PgSettings s;
  s.checkpoint_timeout = 30;
  s.checkpoint_completion_target = 0.9;
  Wal wal(kPostgresql15);
  BufferManager b(kPostgresql15, 2000);
  wal.AddRelation();
  const int rel = b.AddRelation();
  wal.AttachBuffers(&b);
  Checkpointer c(s, &b, &wal);
  for (uint32_t blk = 0; blk < 1000; ++blk) {
    b.ExtendBuffer(rel, blk);
    WalRecord r;
    r.Block(0, blk, kRegbufWillInit, 0, 0, 0);
    wal.Insert(r);
  }
  b.UnpinAll();
  ASSERT_EQ(b.dirty_blocks(rel), 1000u);
  c.RunUntil(29.9);
  EXPECT_EQ(c.counters().checkpoints_timed, 0u);
  c.RunUntil(30.0);
  EXPECT_EQ(c.counters().checkpoints_timed, 1u);
  EXPECT_TRUE(c.active());
  // After 13.5 s (45% of checkpoint_timeout) it has written what keeps
  // progress x 0.9 at 0.45: half the buffers, give or take a 100 ms step
  // (at least one buffer a step: 1,000 buffers over 27 s are more than that).
  c.RunUntil(43.5);
  EXPECT_GE(b.counters().buffers_checkpoint, 496u);
  EXPECT_LE(b.counters().buffers_checkpoint, 501u);
  c.RunUntil(57.1);  // 0.9 x 30 s after its start
  EXPECT_FALSE(c.active());
  EXPECT_EQ(b.counters().buffers_checkpoint, 1000u);
  EXPECT_EQ(c.counters().checkpoints_done, 1u);
  // The next timed one is 30 s after this one's start (60 s), and finds
  // nothing written since: it is counted, and skipped.
  c.RunUntil(60.0);
  EXPECT_EQ(c.counters().checkpoints_timed, 2u);
  EXPECT_EQ(c.counters().checkpoints_done, 1u);
}

PgIoOptions Io(int64_t checkpoint_timeout_s, int64_t max_wal_size_mb, double rows_per_sec) {
  PgIoOptions io;
  io.settings.checkpoint_timeout = checkpoint_timeout_s;
  io.settings.max_wal_size = max_wal_size_mb;
  io.rows_per_sec = rows_per_sec;
  return io;
}

TEST(PgBufferTest, TimedCheckpointsFollowTheLoadClock) {
  // 100,000 rows at 1,000 rows/s: 100 simulated seconds, checkpoints at
  // 30, 60 and 90 s.
  const PgIoOptions io = Io(30, 1024, 1000);
  PgEngine e(kPostgresql15, BigintTable(), 1000, &io);
  for (uint64_t i = 1; i <= 100000; ++i) {
    ASSERT_TRUE(e.InsertRow(Key::FromU64(i)).ok());
    ASSERT_TRUE(e.EndRow().ok());
  }
  const PgTableReport r = e.table().Report();
  ASSERT_TRUE(r.has_io);
  EXPECT_DOUBLE_EQ(r.io.clock_s, 100.0);
  EXPECT_EQ(r.io.checkpoints.checkpoints_timed, 3u);
  EXPECT_EQ(r.io.checkpoints.checkpoints_req, 0u);
  // The third (from 90 s) is still writing at 100 s: it ends near 117 s.
  EXPECT_EQ(r.io.checkpoints.checkpoints_done, 2u);
  EXPECT_GT(r.io.buffers.buffers_checkpoint, 0u);
  // After each redo pointer the heap's current page and the rightmost leaf
  // take one image each on their first change (the new pages after it
  // none: XLOG_HEAP_INIT_PAGE, the split's new right page).
  EXPECT_GE(r.wal.wal_fpi, 3u * 2u);
  EXPECT_LE(r.wal.wal_fpi, 3u * 4u);
  EXPECT_EQ(e.Verify(), "");
}

TEST(PgBufferTest, WalVolumeRequestsCheckpoints) {
  // max_wal_size 64MB, completion target 0.9: CheckPointSegments 2, so a
  // request each time a segment ends one past the redo pointer's.
  const PgIoOptions io = Io(86400, 64, 100000);
  PgEngine e(kPostgresql15, UuidTable(), 1000, &io);
  uint64_t state = 1;
  for (int i = 0; i < 400000; ++i) {
    ASSERT_TRUE(e.InsertRow(UuidV4(&state)).ok());
    ASSERT_TRUE(e.EndRow().ok());
  }
  const PgTableReport r = e.table().Report();
  EXPECT_EQ(r.io.checkpoints.checkpoints_timed, 0u);
  EXPECT_GE(r.io.checkpoints.checkpoints_req, 2u);
  // Each checkpoint moved the redo pointer: the index's blocks took images.
  EXPECT_GT(r.wal.wal_fpi, 1000u);
  // The same load under the default max_wal_size (1GB) writes no image.
  PgIoOptions big = io;
  big.settings.max_wal_size = 1024;
  PgEngine e2(kPostgresql15, UuidTable(), 1000, &big);
  state = 1;
  for (int i = 0; i < 400000; ++i) {
    ASSERT_TRUE(e2.InsertRow(UuidV4(&state)).ok());
    ASSERT_TRUE(e2.EndRow().ok());
  }
  EXPECT_EQ(e2.table().Report().io.checkpoints.checkpoints_req, 0u);
  EXPECT_EQ(e2.table().Report().wal.wal_fpi, 0u);
}

TEST(PgBufferTest, FullPageImagesRestartAfterEachCheckpoint) {
  PgSettings settings;
  PgTable t(kPostgresql15, BigintTable(), &settings);
  uint64_t key = 1;
  for (; key <= 1000; ++key) {
    t.InsertRow(Key::FromU64(key));
    t.EndRow();
  }
  EXPECT_EQ(t.Report().wal.wal_fpi, 0u);
  for (int round = 1; round <= 3; ++round) {
    t.Checkpoint();
    EXPECT_EQ(t.Report().heap_dirty_blocks, 0u);
    const uint64_t before = t.Report().wal.wal_fpi;
    t.InsertRow(Key::FromU64(key++));
    t.EndRow();
    // The heap page and the leaf: one image each.
    EXPECT_EQ(t.Report().wal.wal_fpi - before, 2u) << round;
    t.InsertRow(Key::FromU64(key++));
    t.EndRow();
    EXPECT_EQ(t.Report().wal.wal_fpi - before, 2u) << round;
  }
  EXPECT_EQ(t.Report().io.checkpoints.checkpoints_req, 3u);
  // full_page_writes off: none.
  settings.full_page_writes = false;
  PgTable off(kPostgresql15, BigintTable(), &settings);
  for (uint64_t k = 1; k <= 1000; ++k) {
    off.InsertRow(Key::FromU64(k));
    off.EndRow();
  }
  off.Checkpoint();
  off.InsertRow(Key::FromU64(5000));
  off.EndRow();
  EXPECT_EQ(off.Report().wal.wal_fpi, 0u);
}

TEST(PgBufferTest, APoolTheTableFitsInChangesNoFigure) {
  PgSettings settings;  // 128MB: 16384 buffers, far more than 60,000 rows need
  PgTable plain(kPostgresql15, UuidTable());
  PgTable io(kPostgresql15, UuidTable(), &settings);
  uint64_t state = 7;
  auto load = [&](int rows) {
    for (int i = 0; i < rows; ++i) {
      const Key k = UuidV4(&state);
      plain.InsertRow(k);
      plain.EndRow();
      io.InsertRow(k);
      io.EndRow();
      if (i % 1000 == 999) {
        plain.Commit();
        io.Commit();
      }
    }
  };
  load(50000);
  plain.Checkpoint();
  io.Checkpoint();
  load(10000);
  const PgTableReport a = plain.Report();
  const PgTableReport b = io.Report();
  EXPECT_EQ(a.wal.wal_bytes, b.wal.wal_bytes);
  EXPECT_EQ(a.wal.wal_records, b.wal.wal_records);
  EXPECT_EQ(a.wal.wal_fpi, b.wal.wal_fpi);
  EXPECT_EQ(a.wal.wal_lsn_bytes, b.wal.wal_lsn_bytes);
  EXPECT_EQ(a.heap_dirty_blocks, b.heap_dirty_blocks);
  ASSERT_EQ(a.indexes.size(), b.indexes.size());
  EXPECT_EQ(a.indexes[0].dirty_blocks, b.indexes[0].dirty_blocks);
  EXPECT_EQ(a.indexes[0].stat.leaf_pages, b.indexes[0].stat.leaf_pages);
  EXPECT_EQ(a.heap_relpages, b.heap_relpages);
  // Nothing was evicted: every read is an extension or the metapage.
  EXPECT_EQ(b.io.buffers.backend_writes, 0u);
  EXPECT_EQ(b.indexes[0].io.blks_read, b.indexes[0].stat.relpages);  // extensions + the metapage's first read
  EXPECT_EQ(b.io.checkpoints.checkpoints_req, 1u);
  EXPECT_EQ(io.Verify(), "");
}

TEST(PgBufferTest, BackgroundWriterCleansAheadOfTheSweep) {
  // A pool far smaller than the index: the background writer finds dirty
  // buffers with a usage count of 0 ahead of the clock hand and writes them,
  // at most bgwriter_lru_maxpages a round.
  PgIoOptions io = Io(86400, 10240, 20000);
  io.settings.shared_buffers = 256;
  io.settings.bgwriter_lru_maxpages = 10;
  PgEngine e(kPostgresql15, UuidTable(), 1000, &io);
  uint64_t state = 3;
  for (int i = 0; i < 200000; ++i) {
    ASSERT_TRUE(e.InsertRow(UuidV4(&state)).ok());
    ASSERT_TRUE(e.EndRow().ok());
  }
  const PgTableReport r = e.table().Report();
  EXPECT_GT(r.io.buffers.buffers_clean, 0u);
  EXPECT_GT(r.io.buffers.maxwritten_clean, 0u);
  // 10 s simulated: 50 rounds of 200 ms, 10 pages each at most.
  EXPECT_LE(r.io.buffers.buffers_clean, 50u * 10u);
  EXPECT_GT(r.indexes[0].io.blks_read, r.indexes[0].stat.relpages);  // evicted blocks read again
  EXPECT_EQ(e.Verify(), "");
  // With the LRU scan off, nothing is cleaned and the backend writes more.
  io.settings.bgwriter_lru_maxpages = 0;
  PgEngine off(kPostgresql15, UuidTable(), 1000, &io);
  state = 3;
  for (int i = 0; i < 200000; ++i) {
    ASSERT_TRUE(off.InsertRow(UuidV4(&state)).ok());
    ASSERT_TRUE(off.EndRow().ok());
  }
  const PgTableReport o = off.table().Report();
  EXPECT_EQ(o.io.buffers.buffers_clean, 0u);
  EXPECT_GT(o.io.buffers.backend_writes, r.io.buffers.backend_writes);
}

TEST(PgBufferTest, DroppedRelationsBuffersGoOnTheFreelistHead) {
  BufferManager b(kPostgresql15, 6);
  const int keep = b.AddRelation();
  const int drop = b.AddRelation();
  for (uint32_t blk = 0; blk < 3; ++blk) EXPECT_EQ(b.ExtendBuffer(drop, blk), static_cast<int>(blk));
  EXPECT_EQ(b.ExtendBuffer(keep, 0), 3);
  b.MarkDirty(drop, 1);
  b.MarkDirty(keep, 0);
  b.UnpinAll();
  b.DropRelationBuffers(drop);
  EXPECT_EQ(b.resident(drop), 0u);
  EXPECT_EQ(b.dirty_blocks(drop), 0u);
  EXPECT_EQ(b.Lookup(drop, 1), -1);
  EXPECT_EQ(b.counters().backend_writes, 0u);  // a dropped file's dirty page is never written
  EXPECT_EQ(b.dirty_blocks(keep), 1u);
  EXPECT_EQ(b.Verify(), "");
  // DropRelationsAllBuffers scans buffers 0, 1, 2 in order and pushes each
  // on the head: 2 comes back first, then 1, 0, then the never-used 4, 5.
  for (int expected : {2, 1, 0, 4, 5}) {
    EXPECT_EQ(b.ExtendBuffer(keep, static_cast<uint32_t>(b.resident(keep))), expected);
    b.UnpinAll();
  }
  EXPECT_EQ(b.Verify(), "");
  // A checkpoint writes the kept relation's dirty page only.
  std::vector<int> order;
  b.MarkCheckpointNeeded(&order);
  EXPECT_EQ(order, std::vector<int>{3});
}

// REINDEX on a table in shared buffers: the old index's buffers dropped,
// the build's pages written through smgr and WAL-logged as images, one
// record a page on PostgreSQL 15, batches of 32 on 18; the next change of a
// built page takes no image (its LSN is past the redo pointer).
TEST(PgBufferTest, ReindexDropsTheOldBuffersAndLogsTheBuildsPages) {
  PgIoOptions io;  // 128MB: the table fits
  uint64_t by_profile_bytes[2] = {0, 0};
  uint64_t pages = 0;
  for (int p = 0; p < 2; ++p) {
    const PgProfile& profile = p == 0 ? kPostgresql15 : kPostgresql18;
    PgEngine e(profile, UuidTable(), 1000, &io);
    uint64_t state = 11;
    for (int i = 0; i < 20000; ++i) {
      ASSERT_TRUE(e.InsertRow(UuidV4(&state)).ok());
      ASSERT_TRUE(e.EndRow().ok());
    }
    ASSERT_TRUE(e.EndLoad().ok());
    const PgTableReport before = e.table().Report();
    ASSERT_GT(before.indexes[0].dirty_blocks, 0u);
    ASSERT_TRUE(e.Rebuild().ok());
    const PgTableReport after = e.table().Report();
    EXPECT_EQ(e.Verify(), "");
    EXPECT_EQ(after.indexes[0].dirty_blocks, 0u);
    EXPECT_EQ(e.table().io()->buffers().resident(1), 0u);  // relation 1: the primary key
    pages = after.indexes[0].stat.index_size / 8192;       // the metapage included
    EXPECT_EQ(after.wal.wal_fpi - before.wal.wal_fpi, pages);
    const uint64_t records = after.wal.wal_records - before.wal.wal_records;
    EXPECT_EQ(records, p == 0 ? pages : (pages + 31) / 32);
    by_profile_bytes[p] = after.wal.wal_bytes - before.wal.wal_bytes;
    // A row into a built leaf: its change takes no image.
    uint64_t wal_fpi = after.wal.wal_fpi;
    ASSERT_TRUE(e.InsertRow(UuidV4(&state)).ok());
    ASSERT_TRUE(e.EndRow().ok());
    EXPECT_EQ(e.table().Report().wal.wal_fpi, wal_fpi);
    EXPECT_EQ(e.table().Report().indexes[0].dirty_blocks, 1u);
    EXPECT_EQ(e.Verify(), "");
  }
  // The images are the same bytes; 18 saves a record header and a
  // RelFileLocator (24 + 12 bytes) on all but one page of each batch.
  EXPECT_EQ(by_profile_bytes[0] - by_profile_bytes[1], (pages - (pages + 31) / 32) * 36);
}

}  // namespace
}  // namespace innosim::postgres
