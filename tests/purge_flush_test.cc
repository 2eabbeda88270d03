// A DELETE and its purge under the flush model: the delete marks, the undo
// log a purge reads and frees, the pages purge changes, allocates and frees,
// and MariaDB's freed pages that are never written (Engine::DeleteRow,
// Engine::EndDeletes, BufferPool::Free, UndoLogs::ReportDeleteMark).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "model/buffer_pool.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "model/record_format.h"
#include "model/undo_log.h"
#include "sim/phases.h"
#include "sim/runner.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

// id BINARY(16) PRIMARY KEY, c BINARY(8), KEY (c): entries (c, id).
TableDef TableWithIndex() { return BinaryTableWithIndex(16, "c", 8); }

struct Deleted {
  uint64_t leaves_before = 0;   // PRIMARY + kc leaf pages before the DELETE
  uint64_t leaves_after = 0;    // after its purge
  uint64_t written = 0;         // Innodb_pages_written by the DELETE, its purge and a checkpoint
  uint64_t dirty_after_purge = 0;
  uint64_t freed_released = 0;  // freed dirty pages dropped unwritten
  uint64_t pages_freed = 0;     // PRIMARY + kc pages freed by purge
  UndoLogs::Stats undo;
  std::string verify;
  EngineReport report;
};

// 40,000 random rows, a checkpoint, then every second row in key order
// deleted and purged, then a checkpoint. `flush`: with the flush model.
Deleted DeleteEverySecondRow(const EngineProfile& profile, bool flush) {
  EngineOptions o;
  if (flush) o.flush = ServerSettings::Defaults(profile.flavor());
  Engine e(profile, TableWithIndex(), o);
  std::mt19937_64 rng(11);
  std::vector<std::pair<Key, Key>> rows;
  for (int i = 0; i < 40000; ++i) {
    const Key pk{rng(), rng()};
    const Key entry{rng(), pk.hi};
    EXPECT_TRUE(e.InsertRow(pk).ok());
    EXPECT_TRUE(e.InsertSecondary(0, entry).ok());
    EXPECT_TRUE(e.EndRow().ok());
    rows.emplace_back(pk, entry);
  }
  EXPECT_TRUE(e.Checkpoint().ok());
  Deleted d;
  d.leaves_before = e.primary().n_leaf_pages() + e.secondary(0).n_leaf_pages();
  const uint64_t written_before = flush ? e.flush_model()->counters().Innodb_pages_written : 0;
  const uint64_t freed_before = e.primary().counters().pages_freed + e.secondary(0).counters().pages_freed;
  std::sort(rows.begin(), rows.end());
  for (size_t i = 1; i < rows.size(); i += 2) EXPECT_TRUE(e.DeleteRow(rows[i].first, {&rows[i].second, 1}).ok());
  EXPECT_EQ(e.rows(), 20000u);
  EXPECT_TRUE(e.EndDeletes().ok());
  if (flush) d.dirty_after_purge = e.flush_model()->Snapshot().dirty_pages;
  EXPECT_TRUE(e.Checkpoint().ok());
  if (flush) {
    d.written = e.flush_model()->counters().Innodb_pages_written - written_before;
    d.freed_released = e.flush_model()->buffer_pool().stats().freed_released;
    EXPECT_EQ(e.flush_model()->Snapshot().dirty_pages, 0u);
  }
  d.pages_freed = e.primary().counters().pages_freed + e.secondary(0).counters().pages_freed - freed_before;
  d.leaves_after = e.primary().n_leaf_pages() + e.secondary(0).n_leaf_pages();
  d.verify = e.Verify();
  d.report = e.Report();
  return d;
}

// The page events change nothing in the tree: the same purge, the same
// merges and discards, with or without the flush model.
TEST(PurgeFlush, TheTreeIsTheStructureOnlyTree) {
  for (const EngineProfile& p : {EngineProfile::MariaDB1011(), EngineProfile::MySQL84()}) {
    const Deleted with = DeleteEverySecondRow(p, true);
    const Deleted without = DeleteEverySecondRow(p, false);
    EXPECT_EQ(with.verify, "");
    EXPECT_EQ(without.verify, "");
    EXPECT_EQ(with.leaves_after, without.leaves_after);
    EXPECT_LT(with.leaves_after, with.leaves_before * 8 / 10) << "half the rows gone: pages merged";
    EXPECT_EQ(with.report.primary.counters.index_page_merge_attempts,
              without.report.primary.counters.index_page_merge_attempts);
    EXPECT_EQ(with.report.secondary[0].counters.index_page_merge_successful,
              without.report.secondary[0].counters.index_page_merge_successful);
    EXPECT_EQ(with.report.data_length, without.report.data_length);
    EXPECT_EQ(with.report.index_length, without.report.index_length);
  }
}

// Every leaf holds a deleted row, so the DELETE dirties every leaf of both
// indexes. MySQL writes each of them, freed or not; MariaDB drops the ones
// freed while dirty without writing them (buf_page_t::flush ->
// release_freed_page), so what it writes and what it drops make up every
// leaf.
TEST(PurgeFlush, EveryLeafTheDeleteTouchesIsWrittenOrFreed) {
  const Deleted my = DeleteEverySecondRow(EngineProfile::MySQL84(), true);
  EXPECT_EQ(my.verify, "");
  EXPECT_GT(my.pages_freed, 0u);
  EXPECT_EQ(my.freed_released, 0u) << "MySQL writes freed pages";
  EXPECT_GE(my.written, my.leaves_before);
  EXPECT_GT(my.dirty_after_purge, my.leaves_after);

  const Deleted ma = DeleteEverySecondRow(EngineProfile::MariaDB1011(), true);
  EXPECT_EQ(ma.verify, "");
  EXPECT_GT(ma.freed_released, ma.pages_freed / 2) << "most pages purge frees were dirty";
  EXPECT_GE(ma.written + ma.freed_released, ma.leaves_before);
  EXPECT_GE(ma.written, ma.leaves_after);
  EXPECT_LT(ma.written, ma.leaves_before) << "the freed leaves are not written";
}

// The DELETE's undo log: one record per row, in pages of its own; purge
// reads it and then frees its segment, whose pages the next one takes.
TEST(PurgeFlush, TheDeletesUndoLogIsPurgedAndItsPagesFreed) {
  EngineOptions o;
  o.flush = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  Engine e(EngineProfile::MariaDB1011(), Seed000Table(16), o);
  std::unique_ptr<KeyStream> ks = MakeStream("uuidv7-counter");
  std::vector<Key> keys;
  Key k;
  for (int i = 0; i < 30000 && ks->Next(&k); ++i) {
    ASSERT_TRUE(e.InsertRow(k).ok());
    ASSERT_TRUE(e.EndRow().ok());
    keys.push_back(k);
  }
  ASSERT_TRUE(e.Checkpoint().ok());
  for (int round = 0; round < 2; ++round) {
    for (size_t i = round; i < keys.size(); i += 4) ASSERT_TRUE(e.DeleteRow(keys[i]).ok());
    ASSERT_TRUE(e.EndDeletes().ok());
    ASSERT_TRUE(e.Checkpoint().ok());
  }
  EXPECT_EQ(e.Verify(), "");
  EXPECT_EQ(e.rows(), 15000u);
}

// trx_undo_page_report_modify's TRX_UNDO_DEL_MARK_REC for a BINARY(16) key:
// 55 bytes between its pointers without a secondary index (type 1, undo_no
// 2, table_id 1, info bits 1, DB_TRX_ID 5, DB_ROLL_PTR 8, the key 17, the
// ordering block 2 + 18), and 9 more for a DATETIME(3) column's field
// number, length and 7 bytes.
TEST(PurgeFlush, TheDeleteMarkUndoRecordCarriesTheKeyAndTheIndexedColumns) {
  EXPECT_EQ(UndoLogs::DeleteMarkRecordBytes(16, {}), 2u + 55u + 2u);
  EXPECT_EQ(UndoLogs::DeleteMarkRecordBytes(16, {7}), 2u + 64u + 2u);
  EXPECT_LT(UndoLogs::DeleteMarkRecordBytes(8, {}), UndoLogs::DeleteMarkRecordBytes(16, {}));
}

// BufferPool::Free: a freed dirty page leaves the flush list unwritten on
// MariaDB, counts in no batch, and is an ordinary page again once created
// anew; MySQL writes it.
TEST(PurgeFlush, AFreedPageIsDroppedUnwrittenOnMariaDbOnly) {
  for (bool mariadb : {true, false}) {
    BufferPool::Options o;
    o.n_frames = 64;
    o.mariadb = mariadb;
    BufferPool pool(o);
    for (uint32_t p = 0; p < 4; ++p) {
      pool.Create(1, p, 0);
      pool.MarkDirty(1, p, 100 + p, 0);
    }
    pool.CommitMtr();
    pool.Free(1, 1, 200);
    pool.Free(1, 2, 200);
    pool.CommitMtr();
    EXPECT_EQ(pool.dirty_pages(), 4u) << "a freed page stays dirty until a flush reaches it";
    // A freed page made anew is written like any other.
    pool.Create(1, 2, 0);
    pool.MarkDirty(1, 2, 300, 0);
    pool.CommitMtr();
    EXPECT_EQ(pool.FlushListBatch(2, ~uint64_t{0}), 2u) << "freed pages take no share of the batch";
    EXPECT_EQ(pool.FlushAllDirty(), mariadb ? 1u : 2u);
    EXPECT_EQ(pool.stats().pages_written, mariadb ? 3u : 4u);
    EXPECT_EQ(pool.stats().freed_released, mariadb ? 1u : 0u);
    EXPECT_EQ(pool.IsResident(1, 1), !mariadb) << "release_freed_page evicts it";
    EXPECT_EQ(pool.Verify(), "");
  }
}

// `run --phase delete` with the flush model: each phase's pages written and
// dirty pages are reported, a checkpoint after the delete writes what it
// left dirty.
TEST(PurgeFlush, RunReportsTheDeletesPageWrites) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 30000;
  spec.flush = true;
  spec.phases = {*ParsePhase("checkpoint"), *ParsePhase("delete:range:0:50"), *ParsePhase("checkpoint")};
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->phases.size(), 4u);
  EXPECT_EQ(r->phases[1].dirty_pages, 0u);
  EXPECT_GT(r->phases[2].dirty_pages, r->phases[2].report.primary.n_leaf_pages / 2);
  EXPECT_EQ(r->phases[3].dirty_pages, 0u);
  EXPECT_GT(r->phases[3].flush.Innodb_pages_written, r->phases[2].flush.Innodb_pages_written);
  EXPECT_EQ(r->phases[2].report.rows, 15000u);
}

}  // namespace
}  // namespace innosim
