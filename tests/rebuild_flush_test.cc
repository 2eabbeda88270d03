// OPTIMIZE TABLE's rebuild under the flush model (Engine::Rebuild with a
// sink, BTree::BulkLoad's page events): the new tablespace's pages built in
// the pool, MySQL's Flush_observer writing them at the build's end, the old
// tablespace dropped without a write (BufferPool::DropSpace).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "model/bulk_load.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "model/record_format.h"
#include "sim/phases.h"
#include "sim/runner.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

struct Rebuilt {
  uint64_t built = 0;            // pages of the new indexes (root included)
  uint64_t written_by_rebuild = 0;
  uint64_t dirty_after = 0;      // dirty pages right after the rebuild
  uint64_t old_dirty_after = 0;  // of them, the old tablespace's
  uint64_t written_by_checkpoint = 0;
  uint32_t old_space = 0;
  uint32_t new_space = 0;
  uint64_t old_writes_before = 0;  // the old tablespace's page writes before the rebuild
  uint64_t old_writes_after = 0;   // and after it and the checkpoint
  std::string verify;
  EngineReport report;
};

// 30,000 random rows with a secondary index; with `checkpoint_first` a
// checkpoint before the rebuild, else the load's pages are still dirty.
Rebuilt Rebuild(const EngineProfile& profile, bool flush, bool checkpoint_first) {
  EngineOptions o;
  if (flush) o.flush = ServerSettings::Defaults(profile.flavor());
  Engine e(profile, BinaryTableWithIndex(16, "c", 8), o);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 30000; ++i) {
    const Key pk{rng(), rng()};
    EXPECT_TRUE(e.InsertRow(pk).ok());
    EXPECT_TRUE(e.InsertSecondary(0, Key{rng(), pk.hi}).ok());
    EXPECT_TRUE(e.EndRow().ok());
  }
  if (checkpoint_first) {
    EXPECT_TRUE(e.Checkpoint().ok());
  }
  e.CommitTrx();
  Rebuilt r;
  r.old_space = e.table_space();
  const uint64_t old_pages = e.Report().file_size / e.profile().page_size;
  auto old_writes = [&] {
    uint64_t n = 0;
    for (uint32_t p = 0; p < old_pages; ++p) n += e.flush_model()->buffer_pool().PageWrites(r.old_space, p);
    return n;
  };
  if (flush) r.old_writes_before = old_writes();
  const uint64_t written = flush ? e.flush_model()->counters().Innodb_pages_written : 0;
  EXPECT_TRUE(e.Rebuild(kDefaultFillFactor).ok());
  r.new_space = e.table_space();
  r.built = e.primary().bulk_built_pages().size() + e.secondary(0).bulk_built_pages().size();
  if (flush) {
    r.written_by_rebuild = e.flush_model()->counters().Innodb_pages_written - written;
    r.dirty_after = e.flush_model()->Snapshot().dirty_pages;
    r.old_dirty_after = e.flush_model()->DirtyPagesOf(r.old_space);
    EXPECT_TRUE(e.Checkpoint().ok());
    r.written_by_checkpoint = e.flush_model()->counters().Innodb_pages_written - written - r.written_by_rebuild;
    r.old_writes_after = old_writes();
  }
  r.verify = e.Verify();
  r.report = e.Report();
  return r;
}

TEST(RebuildFlush, TheTreeIsTheStructureOnlyTree) {
  for (const EngineProfile& p : {EngineProfile::MariaDB1011(), EngineProfile::MySQL84()}) {
    const Rebuilt with = Rebuild(p, true, true);
    const Rebuilt without = Rebuild(p, false, true);
    EXPECT_EQ(with.verify, "");
    EXPECT_EQ(without.verify, "");
    EXPECT_EQ(with.report.primary.n_leaf_pages, without.report.primary.n_leaf_pages);
    EXPECT_EQ(with.report.secondary[0].n_leaf_pages, without.report.secondary[0].n_leaf_pages);
    EXPECT_EQ(with.report.data_length, without.report.data_length);
    EXPECT_EQ(with.report.index_length, without.report.index_length);
    EXPECT_EQ(with.new_space, with.old_space + 1) << "a new .ibd, a new space id";
  }
}

// MariaDB's build goes through the pool with redo: every page it built is
// dirty after it, none written yet (no simulated time passes), and the
// checkpoint writes them, with the new tablespace's allocation pages.
TEST(RebuildFlush, MariaDbLeavesTheBuiltPagesDirtyForThePageCleaner) {
  const Rebuilt r = Rebuild(EngineProfile::MariaDB1011(), true, true);
  EXPECT_GT(r.built, 100u);
  EXPECT_EQ(r.written_by_rebuild, 0u);
  EXPECT_GE(r.dirty_after, r.built);
  EXPECT_GE(r.written_by_checkpoint, r.built);
  EXPECT_LT(r.written_by_checkpoint, r.built + 20) << "the built pages, page 0, the inode and undo pages";
}

// MySQL's build logs no redo and its Flush_observer writes the pages it
// built at once; what stays dirty is the allocation pages.
TEST(RebuildFlush, MySqlWritesTheBuiltPagesAtTheBuildsEnd) {
  const Rebuilt r = Rebuild(EngineProfile::MySQL84(), true, true);
  EXPECT_GT(r.built, 100u);
  EXPECT_EQ(r.written_by_rebuild, r.built);
  EXPECT_LT(r.dirty_after, 20u);
  EXPECT_LT(r.written_by_checkpoint, 20u);
}

// The old table is dropped: its dirty pages leave the pool unwritten.
TEST(RebuildFlush, TheOldTablesDirtyPagesAreNeverWritten) {
  for (const EngineProfile& p : {EngineProfile::MariaDB1011(), EngineProfile::MySQL84()}) {
    const Rebuilt r = Rebuild(p, true, false);
    EXPECT_EQ(r.verify, "");
    // Still dirty (the server counts them in Innodb_buffer_pool_pages_dirty
    // until a flush reaches them), never written.
    EXPECT_GT(r.old_dirty_after, 0u);
    EXPECT_EQ(r.old_writes_after, r.old_writes_before) << "an old page was written after the load";
    // After a checkpoint the new table's pages are written as ever.
    EXPECT_GE(r.written_by_rebuild + r.written_by_checkpoint, r.built);
  }
}

// `run --phase optimize` with the flush model: the phase's dirty pages are
// the new table's, and a checkpoint after it writes them.
TEST(RebuildFlush, RunReportsTheRebuildsPages) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 30000;
  spec.flush = true;
  spec.profile = "mariadb-10.11";
  spec.phases = {*ParsePhase("checkpoint"), *ParsePhase("optimize"), *ParsePhase("checkpoint")};
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->phases.size(), 4u);
  const PhaseResult& optimized = r->phases[2];
  EXPECT_GT(optimized.table_dirty_pages, optimized.report.primary.n_leaf_pages);
  EXPECT_EQ(r->phases[3].dirty_pages, 0u);
  // All but the page BtrBulk::finish freed, dirty and then dropped unwritten
  // (MariaDB), one per index.
  EXPECT_EQ(r->phases[3].flush.Innodb_pages_written - optimized.flush.Innodb_pages_written + 1,
            optimized.dirty_pages);
}

}  // namespace
}  // namespace innosim
