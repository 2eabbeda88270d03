// PostgreSQL's WAL (model/postgres/wal.h): each record kind's xl_tot_len
// derived by hand from the struct layouts, full-page images and their hole,
// the insert LSN across WAL page and segment headers, and the dirty-block
// census before and after a CHECKPOINT.
//
// The byte maps (access/xlogrecord.h, heapam_xlog.h, nbtxlog.h, xact.h):
//   XLogRecord 24 = xl_tot_len 4, xl_xid 4, xl_prev 8, xl_info 1, xl_rmid 1,
//     padding 2, xl_crc 4.
//   block reference: XLogRecordBlockHeader 4 (id 1, fork_flags 1,
//     data_length 2), + XLogRecordBlockImageHeader 5 (length 2, hole_offset 2,
//     bimg_info 1) with an image, + RelFileLocator 12 unless SAME_REL,
//     + BlockNumber 4.
//   main data: 2 bytes of header (XLR_BLOCK_ID_DATA_SHORT, length) up to
//     255 bytes, else 5 (XLR_BLOCK_ID_DATA_LONG, uint32 length).
// So:
//   heap insert, uuid row (t_len 40): 24 + (4 + 12 + 4) + (5 xl_heap_header
//     + 17 = 40 - 23 tuple bytes) + 2 + 3 (xl_heap_insert) = 71
//   the same with an image of a page whose hole is 3724: 24 + (4 + 5 + 12 + 4)
//     + (8192 - 3724) + 2 + 3 = 4522 (the data goes with the image)
//   btree leaf insert, uuid (tuple 24): 24 + 20 + 24 + 2 + 2 (xl_btree_insert) = 72
//   commit: 24 + 2 + 8 (xl_xact_commit.xact_time) = 34
// PostgreSQL 15 wrote exactly 71, 4522, 72 and 34 bytes for these here
// (pg_walinspect's record_length; tests/pg_wal_server_test.cc compares a
// whole step).
#include <gtest/gtest.h>

#include <random>

#include "model/postgres/table.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {
namespace {

TEST(PostgresWal, HeapInsertWithoutAndWithAnImage) {
  Wal wal(kPostgresql15);
  const int heap = wal.AddRelation();
  // A new page's first tuple: XLOG_HEAP_INIT_PAGE, REGBUF_WILL_INIT, no image.
  WalRecord init;
  init.Block(heap, 0, kRegbufStandard | kRegbufWillInit, 28, 8152, kSizeOfHeapHeader + 40 - 23);
  init.MainData(kSizeOfHeapInsert);
  EXPECT_EQ(wal.Insert(init).xl_tot_len, 71);
  EXPECT_EQ(wal.counters().wal_fpi, 0u);
  // The second tuple: the page changed since the redo pointer, no image.
  WalRecord second;
  second.Block(heap, 0, kRegbufStandard, 32, 8112, kSizeOfHeapHeader + 17);
  second.MainData(kSizeOfHeapInsert);
  EXPECT_EQ(wal.Insert(second).xl_tot_len, 71);
  wal.Checkpoint();
  const WalCounters before = wal.counters();
  // After the checkpoint: the first change takes the page minus its hole.
  WalRecord after;
  after.Block(heap, 0, kRegbufStandard, 428, 428 + 3724, kSizeOfHeapHeader + 17);
  after.MainData(kSizeOfHeapInsert);
  const WalRecordSize s = wal.Insert(after);
  EXPECT_EQ(s.xl_tot_len, 4522);
  EXPECT_EQ(s.fpi, 1);
  EXPECT_EQ(wal.counters().wal_fpi - before.wal_fpi, 1u);
  EXPECT_EQ(wal.counters().wal_bytes - before.wal_bytes, 4522u);
  EXPECT_EQ(wal.counters().wal_records - before.wal_records, 1u);
  // And only the first.
  EXPECT_EQ(wal.Insert(second).xl_tot_len, 71);
}

TEST(PostgresWal, BtreeRecords) {
  Wal wal(kPostgresql15);
  const int ix = wal.AddRelation();
  WalRecord leaf;
  leaf.Block(ix, 5, kRegbufStandard, 100, 200, 24);
  leaf.MainData(kSizeOfBtreeInsert);
  // Block 5 is not changed since the redo pointer (a fresh Wal): an image of
  // 8192 - (200 - 100) bytes: 24 + 4 + 5 + 12 + 4 + 8092 + 2 + 2.
  EXPECT_EQ(wal.Size(leaf).xl_tot_len, 24 + 4 + 5 + 12 + 4 + 8092 + 2 + 2);
  wal.Insert(leaf);
  EXPECT_EQ(wal.Size(leaf).xl_tot_len, 72);
  // INSERT_UPPER: block 0 the parent (changed), block 1 the child, SAME_REL:
  // 24 + (4 + 12 + 4 + 16) + (4 + 4) + 2 + 2 = 72.
  WalRecord upper;
  upper.Block(ix, 5, kRegbufStandard, 100, 200, 16);
  upper.Block(ix, 5, kRegbufStandard, 100, 200, 0);
  upper.MainData(kSizeOfBtreeInsert);
  EXPECT_EQ(wal.Size(upper).xl_tot_len, 72);
  // SPLIT_R of block 5 into new block 9, old right sibling 7 (unchanged
  // since the redo pointer: an image, its hole 8176 - 24 - 4 * 300 wide),
  // left data the high key (24): 24 + (4 + 12 + 4 + 24) + (4 + 4 + 3000)
  // + (4 + 5 + 4 + (8192 - (8176 - 1224))) + 2 + 10.
  WalRecord split;
  split.Block(ix, 5, kRegbufStandard, 100, 200, 24);
  split.Block(ix, 9, kRegbufWillInit, 0, 0, 3000);
  split.Block(ix, 7, kRegbufStandard, 1224, 8176, 0);
  split.MainData(kSizeOfBtreeSplit);
  EXPECT_EQ(wal.Size(split).xl_tot_len, 24 + 44 + 3008 + (13 + 8192 - (8176 - 1224)) + 12);
  EXPECT_EQ(wal.Size(split).fpi, 1);
  // NEWROOT: root 10 (WILL_INIT, two pivots 8 + 24), left child 5, metapage 0
  // (WILL_INIT, xl_btree_metadata 28): 24 + (4 + 12 + 4 + 32) + (4 + 4) +
  // (4 + 4 + 28) + 2 + 8 = 130.
  WalRecord newroot;
  newroot.Block(ix, 10, kRegbufWillInit, 0, 0, 32);
  newroot.Block(ix, 5, kRegbufStandard, 100, 200, 0);
  newroot.Block(ix, 0, kRegbufWillInit | kRegbufStandard, 0, 0, kSizeOfBtreeMetadata);
  newroot.MainData(kSizeOfBtreeNewroot);
  EXPECT_EQ(wal.Size(newroot).xl_tot_len, 130);
}

TEST(PostgresWal, MainDataHeaderAndRelationChange) {
  Wal wal(kPostgresql15);
  const int a = wal.AddRelation();
  const int b = wal.AddRelation();
  WalRecord r;
  r.MainData(256);  // past 255: the long header
  EXPECT_EQ(wal.Size(r).xl_tot_len, 24 + 5 + 256);
  WalRecord two;
  two.Block(a, 1, kRegbufWillInit, 0, 0, 0);
  two.Block(b, 1, kRegbufWillInit, 0, 0, 0);  // another relation: its RelFileLocator again
  EXPECT_EQ(wal.Size(two).xl_tot_len, 24 + 20 + 20);
}

TEST(PostgresWal, AFifthBlockReferenceIsAnError) {
  Wal wal(kPostgresql15);
  const int a = wal.AddRelation();
  WalRecord r;
  for (uint32_t b = 1; b <= 5; ++b) r.Block(a, b, kRegbufWillInit, 0, 0, 0);
  EXPECT_TRUE(wal.status().ok());
  wal.Insert(r);
  EXPECT_FALSE(wal.status().ok());
}

TEST(PostgresWal, CommitAndCheckpointRecords) {
  Wal w15(kPostgresql15);
  w15.Commit();
  EXPECT_EQ(w15.counters().wal_bytes, 34u);
  // The insert position moves by MAXALIGN(34) = 40.
  EXPECT_EQ(w15.counters().wal_lsn_bytes, 40u);
  w15.Checkpoint();
  // xl_running_xacts (24 + 2 + 24) and CheckPoint (24 + 2 + 88).
  EXPECT_EQ(w15.counters().wal_bytes, 34u + 50 + 114);
  Wal w18(kPostgresql18);
  w18.Checkpoint();
  // REL_17+: XLOG_CHECKPOINT_REDO (24 + 2 + 4) first.
  EXPECT_EQ(w18.counters().wal_bytes, 30u + 50 + 114);
  EXPECT_EQ(w18.counters().wal_records, 3u);
}

TEST(PostgresWal, InsertPositionSkipsPageAndSegmentHeaders) {
  // The first usable byte of a segment follows its long header.
  EXPECT_EQ(Wal::BytePosToRecPtr(0), 40u);
  EXPECT_EQ(Wal::BytePosToRecPtr(8151), 8191u);
  // The next page starts with a short header.
  EXPECT_EQ(Wal::BytePosToRecPtr(8152), 8192u + 24);
  // A segment holds 2048 pages: 2048 * 8168 - 16 usable bytes.
  const uint64_t usable = 2048ull * 8168 - 16;
  EXPECT_EQ(Wal::BytePosToRecPtr(usable), (16ull << 20) + 40);
  EXPECT_EQ(Wal::BytePosToRecPtr(usable - 1), (16ull << 20) - 1);
}

PgTableSpec UuidTable() {
  PgTableSpec spec;
  spec.columns = {{"id", PgType::kUuid}};
  spec.primary_key = {0};
  return spec;
}

TEST(PostgresWal, CensusAfterACheckpoint) {
  PgTable t(kPostgresql15, UuidTable());
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    t.InsertRow(Key{rng(), rng()});
    t.EndRow();
  }
  t.Commit();
  PgTableReport r = t.Report();
  // Before any checkpoint every block was written since the table was made.
  EXPECT_EQ(r.heap_dirty_blocks, r.heap_relpages);
  EXPECT_EQ(r.indexes[0].dirty_blocks, r.indexes[0].stat.relpages);
  // Only new pages (REGBUF_WILL_INIT) and pages changed after them: no image.
  EXPECT_EQ(r.wal.wal_fpi, 0u);
  // One heap insert and one leaf insert a row (a split's record carries
  // the row that caused it), one more a split (its downlink, or the new
  // root), one commit, one empty-root creation.
  const uint64_t splits = r.indexes[0].counters.leaf_splits[0] + r.indexes[0].counters.leaf_splits[1] +
                          r.indexes[0].counters.leaf_splits[2] + r.indexes[0].counters.internal_splits[0] +
                          r.indexes[0].counters.internal_splits[1] + r.indexes[0].counters.internal_splits[2];
  EXPECT_EQ(r.wal.wal_records, 2u * 20000 + splits + 1 + 1);
  t.Checkpoint();
  r = t.Report();
  EXPECT_EQ(r.heap_dirty_blocks, 0u);
  EXPECT_EQ(r.indexes[0].dirty_blocks, 0u);
  const WalCounters before = r.wal;
  // One random row: the heap's last page and one leaf, each its first
  // change since the redo pointer, so each an image.
  t.InsertRow(Key{rng(), rng()});
  t.EndRow();
  r = t.Report();
  EXPECT_EQ(r.heap_dirty_blocks, 1u);
  EXPECT_EQ(r.indexes[0].dirty_blocks, 1u);
  EXPECT_EQ(r.wal.wal_fpi - before.wal_fpi, 2u);
  EXPECT_EQ(r.wal.wal_records - before.wal_records, 2u);
  EXPECT_EQ(t.Verify(), "");
}

TEST(PostgresWal, AscendingKeysDirtyOnlyTheRightEdge) {
  PgTable t(kPostgresql15, UuidTable());
  for (uint64_t i = 1; i <= 100000; ++i) {
    t.InsertRow(Key{0, i});
    t.EndRow();
  }
  t.Checkpoint();
  const uint32_t before = t.Report().indexes[0].stat.relpages;
  for (uint64_t i = 100001; i <= 110000; ++i) {
    t.InsertRow(Key{0, i});
    t.EndRow();
  }
  const PgTableReport r = t.Report();
  // The new leaves, the leaf that was rightmost at the checkpoint and its
  // parent (no internal split in 10,000 rows at this size).
  EXPECT_EQ(r.indexes[0].dirty_blocks, r.indexes[0].stat.relpages - before + 2);
  // Images: that leaf, its parent and the heap's last page.
  EXPECT_EQ(r.wal.wal_fpi, 3u);
}

}  // namespace
}  // namespace innosim::postgres
