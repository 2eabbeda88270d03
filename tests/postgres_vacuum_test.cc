// VACUUM's page deletion and the FSM (model/postgres/vacuum.h), REINDEX's
// sorted build (model/postgres/nbtsort.h) and DELETE + VACUUM of a table
// (model/postgres/vacuumlazy.h, PgEngine).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "model/postgres/nbtree.h"
#include "model/postgres/nbtsort.h"
#include "model/postgres/pg_engine.h"
#include "model/postgres/vacuum.h"

namespace innosim::postgres {
namespace {

BtIndexDesc Bigint(bool unique) {
  BtIndexDesc d;
  d.name = "i";
  d.columns = {BtKeyColumn{PgType::kInt8, 8, 0}};
  d.unique = unique;
  return d;
}

Key Int8Key(int64_t v) { return Key::FromU64(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63)); }
HeapTid Tid(int i) { return MakeHeapTid(static_cast<uint32_t>(i / 200), static_cast<uint16_t>(1 + i % 200)); }

// Ascending keys 1..n: leaves of 366 tuples (fillfactor 90), block 1 the
// first leaf, block 2 the second, block 3 the root, then one leaf a block.
void LoadAscending(BtIndex& ix, int n) {
  for (int i = 1; i <= n; ++i) ix.Insert(Int8Key(i), Tid(i));
}

std::vector<BtDeadTuple> Dead(int from, int to) {  // keys from..to inclusive
  std::vector<BtDeadTuple> d;
  for (int i = from; i <= to; ++i) d.push_back(BtDeadTuple{Int8Key(i), Tid(i)});
  return d;
}

// Four leaves (blocks 1, 2, 4, 5) under the root (block 3). Emptying the
// second leaf deletes it: unlinked from both siblings, its downlink and
// the next pivot gone from the root, counted by pgstatindex as deleted.
TEST(PostgresVacuum, EmptyLeafIsDeletedAndUnlinked) {
  BtIndex ix(kPostgresql15, Bigint(true));
  LoadAscending(ix, 366 * 3 + 100);
  ASSERT_EQ(ix.StatIndex().leaf_pages, 4u);
  ASSERT_EQ(ix.LeavesInKeyOrder(), (std::vector<uint32_t>{1, 2, 4, 5}));
  const BtVacuumStats st = BtVacuum::BulkDelete(ix, Dead(367, 732), /*next_xid=*/10);
  EXPECT_EQ(st.tuples_removed, 366u);
  EXPECT_EQ(st.pages_newly_deleted, 1u);
  EXPECT_EQ(st.pages_deleted, 1u);
  // Deleted in this scan, safexid = next xid: not yet recyclable on a
  // quiet server (_bt_pendingfsm_finalize leaves it out of the FSM).
  EXPECT_EQ(st.pages_free, 0u);
  EXPECT_EQ(ix.fsm().free_pages(), 0u);
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.leaf_pages, 3u);
  EXPECT_EQ(s.deleted_pages, 1u);
  EXPECT_EQ(s.empty_pages, 0u);
  EXPECT_EQ(s.internal_pages, 1u);
  EXPECT_EQ(s.index_size, 6u * 8192);  // nothing shrinks: deleted pages stay in the relation
  EXPECT_EQ(ix.LeavesInKeyOrder(), (std::vector<uint32_t>{1, 4, 5}));
  EXPECT_EQ(ix.View(3).nitems, 3);  // the root lost one downlink
  EXPECT_EQ(ix.Verify(), "");
  // The leaves left are the full ones: density over them only.
  const double free = 2 * (8152 - (366 * 20 + 16 + 4) - 4) + (8152 - 100 * 20 - 4);
  EXPECT_NEAR(s.avg_leaf_density, 100.0 - free / (3 * 8152.0) * 100.0, 1e-9);
}

// The rightmost leaf, and a leaf that is its parent's last child while the
// parent has others, are never deleted: they stay as empty leaves.
TEST(PostgresVacuum, RightmostLeafStaysEmpty) {
  BtIndex ix(kPostgresql15, Bigint(true));
  LoadAscending(ix, 366 * 3 + 100);
  const BtVacuumStats st = BtVacuum::BulkDelete(ix, Dead(1099, 1198), 10);
  EXPECT_EQ(st.tuples_removed, 100u);
  EXPECT_EQ(st.pages_newly_deleted, 0u);
  EXPECT_EQ(st.pagedel_refused, 1u);
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.leaf_pages, 4u);
  EXPECT_EQ(s.deleted_pages, 0u);
  EXPECT_EQ(ix.View(5).nitems, 0);
  EXPECT_EQ(ix.Verify(), "");
}

// The two stages one at a time: half-dead (pgstatindex's empty_pages: the
// downlink is gone, the page still linked), then deleted.
TEST(PostgresVacuum, HalfDeadThenDeleted) {
  BtIndex ix(kPostgresql15, Bigint(true));
  LoadAscending(ix, 366 * 3 + 100);
  EXPECT_FALSE(BtVacuum::MarkPageHalfDead(ix, 4));  // not empty: refused
  EXPECT_EQ(BtVacuum::DelItemsVacuum(ix, 4, Dead(733, 1098)), 366u);
  EXPECT_FALSE(BtVacuum::MarkPageHalfDead(ix, 5));  // the rightmost: refused
  ASSERT_TRUE(BtVacuum::MarkPageHalfDead(ix, 4));
  PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.empty_pages, 1u);
  EXPECT_EQ(s.leaf_pages, 3u);
  EXPECT_EQ(s.deleted_pages, 0u);
  EXPECT_EQ(ix.View(3).nitems, 3);  // stage one removed the downlink
  EXPECT_EQ(ix.View(2).next, 4u);   // still linked to its siblings
  ASSERT_TRUE(BtVacuum::UnlinkHalfDeadPage(ix, 4, 10));
  s = ix.StatIndex();
  EXPECT_EQ(s.empty_pages, 0u);
  EXPECT_EQ(s.deleted_pages, 1u);
  EXPECT_EQ(ix.View(2).next, 5u);
  EXPECT_FALSE(BtVacuum::UnlinkHalfDeadPage(ix, 4, 10));  // no longer half-dead
  EXPECT_EQ(ix.Verify(), "");
}

// A leaf that is its parent's only child goes with its parent (the
// subtree's top parent is unlinked first, then the leaf): a three-level
// tree whose second-level page has one child left.
TEST(PostgresVacuum, OnlyChildGoesWithItsParent) {
  BtIndex ix(kPostgresql15, Bigint(true));
  // Enough ascending keys for a root over several level-1 pages.
  const int n = 366 * 700;
  LoadAscending(ix, n);
  ASSERT_EQ(ix.StatIndex().tree_level, 2);
  const std::vector<uint32_t> leaves = ix.LeavesInKeyOrder();
  const uint64_t internal_before = ix.StatIndex().internal_pages;
  // Every tuple but those of the last 300 leaves: the level-1 pages left of
  // them lose every child but their rightmost, which then goes too.
  const int keep_from = 366 * 400 + 1;
  const BtVacuumStats st = BtVacuum::BulkDelete(ix, Dead(1, keep_from - 1), 10);
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(ix.Verify(), "");
  EXPECT_LT(s.internal_pages, internal_before);  // level-1 pages deleted with their last child
  EXPECT_EQ(s.deleted_pages, st.pages_newly_deleted);
  EXPECT_EQ(s.leaf_pages + s.internal_pages + s.deleted_pages + s.empty_pages + 1, ix.nblocks());
  // The first level-1 page held only emptied leaves: its last leaf, its
  // rightmost child, went with it once its other children were gone.
  EXPECT_EQ(s.deleted_pages, 401u);
  EXPECT_EQ(s.internal_pages, internal_before - 1);
  EXPECT_EQ(s.leaf_pages, leaves.size() - 400);
  for (uint32_t b : ix.LeavesInKeyOrder()) EXPECT_GT(ix.View(b).nitems, 0) << b;
}

// A page deleted by one VACUUM is recyclable once an xid was assigned
// after it; the next VACUUM's scan puts it in the FSM, and the next split
// takes it instead of extending the relation.
TEST(PostgresVacuum, NextSplitReusesARecyclablePage) {
  BtIndex ix(kPostgresql15, Bigint(true));
  LoadAscending(ix, 366 * 3 + 100);
  BtVacuumStats st = BtVacuum::BulkDelete(ix, Dead(367, 732), /*next_xid=*/10);
  BtVacuum::VacuumCleanup(ix, &st, 10);
  EXPECT_EQ(BtVacuum::LastCleanupNumDelpages(ix), 1u);
  // A second VACUUM with no xid assigned meanwhile: still not recyclable.
  st = BtVacuum::VacuumCleanup(ix, nullptr, 10);
  EXPECT_EQ(st.pages_deleted, 1u);
  EXPECT_EQ(st.pages_free, 0u);
  EXPECT_FALSE(ix.fsm().IsFree(2));
  // One xid later: the cleanup-only scan (1 deleted page > 6 blocks / 20)
  // records it in the FSM.
  st = BtVacuum::VacuumCleanup(ix, nullptr, 11);
  EXPECT_EQ(st.pages_free, 1u);
  EXPECT_TRUE(ix.fsm().IsFree(2));
  EXPECT_EQ(BtVacuum::LastCleanupNumDelpages(ix), 0u);
  const uint32_t nblocks = ix.nblocks();
  // Keys after the last fill the rightmost leaf (block 5, 100 tuples) until
  // it splits: the new right page is block 2, not a new block.
  for (int i = 1199; i <= 1599; ++i) ix.Insert(Int8Key(i), Tid(i));
  EXPECT_EQ(ix.nblocks(), nblocks);
  EXPECT_FALSE(ix.fsm().IsFree(2));
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.deleted_pages, 0u);
  EXPECT_EQ(s.leaf_pages, 4u);
  EXPECT_EQ(ix.LeavesInKeyOrder(), (std::vector<uint32_t>{1, 4, 5, 2}));
  // Block 2 is now the right sibling of block 5: a fragment.
  EXPECT_NEAR(s.leaf_fragmentation, 25.0, 1e-9);
  EXPECT_EQ(ix.Verify(), "");
  // Another split extends the relation again.
  for (int i = 1600; i <= 2000; ++i) ix.Insert(Int8Key(i), Tid(i));
  EXPECT_EQ(ix.nblocks(), nblocks + 1);
}

// REINDEX: leaves of 366 bigint tuples (the 367th arriving finishes a
// page at fillfactor 90: 8148 - 367 * 20 - 4 < 819), so
// ceil(tuples / 366) leaves when the tuples are a multiple of 366, block
// numbers in key order, one internal page (the root) above them.
TEST(PostgresVacuum, ReindexFillsLeavesToFillfactor) {
  BtIndex ix(kPostgresql15, Bigint(true));
  std::vector<int> keys(366 * 50);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int>(i) + 1;
  std::mt19937_64 rng(7);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (size_t i = 0; i < keys.size(); ++i)
    ix.Insert(Int8Key(keys[i]), MakeHeapTid(static_cast<uint32_t>(i / 200), 1 + i % 200));
  const PgStatIndex before = ix.StatIndex();
  EXPECT_GT(before.leaf_pages, 60u);  // random order: about 70% full
  BtSortBuild::Build(ix);
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(ix.Verify(), "");
  EXPECT_EQ(s.leaf_pages, (keys.size() + 365) / 366);
  EXPECT_EQ(s.internal_pages, 1u);
  EXPECT_EQ(s.tree_level, 1);
  EXPECT_EQ(s.leaf_fragmentation, 0.0);
  EXPECT_EQ(s.deleted_pages, 0u);
  EXPECT_EQ(BtSortBuild::CountTuples(ix), keys.size());
  // The root is the last block: _bt_pagestate gave it block 3 after
  // leaves 1 and 2, so the leaves are 1, 2, 4, 5, ... in key order.
  std::vector<uint32_t> leaves = ix.LeavesInKeyOrder();
  EXPECT_EQ(s.root_block_no, 3u);
  EXPECT_TRUE(std::is_sorted(leaves.begin(), leaves.end()));
  // Full leaves: 366 tuples and a 16-byte high key.
  const double free = 49 * (8152 - (366 * 20 + 16 + 4) - 4) + (8152 - 366 * 20 - 4);
  EXPECT_NEAR(s.avg_leaf_density, 100.0 - free / (50 * 8152.0) * 100.0, 1e-9);
  // Inserts after the build: the rightmost leaf goes on filling.
  ix.Insert(Int8Key(366 * 50 + 1), MakeHeapTid(1000, 1));
  EXPECT_EQ(ix.Verify(), "");
}

// A non-unique index with many duplicates is deduplicated by the build:
// posting lists of at most maxpostingsize (812) bytes, 132 TIDs of a
// bigint key; a unique index never is.
TEST(PostgresVacuum, ReindexDeduplicatesNonUniqueIndexes) {
  BtIndex ix(kPostgresql15, Bigint(false));
  int row = 0;
  for (int rep = 0; rep < 100; ++rep) {
    for (int v = 1; v <= 100; ++v) ix.Insert(Int8Key(v), Tid(++row));
  }
  BtSortBuild::Build(ix);
  EXPECT_EQ(ix.Verify(), "");
  EXPECT_EQ(BtSortBuild::CountTuples(ix), 10000u);
  // 100 values of 100 rows: one posting list each (100 * 6 + 16 = 616 bytes).
  uint64_t items = 0;
  for (uint32_t b : ix.LeavesInKeyOrder()) items += ix.View(b).nitems;
  EXPECT_EQ(items, 100u);
  // 620 bytes a value with its line pointer: about 12 values a leaf.
  EXPECT_LT(ix.StatIndex().leaf_pages, 10u);
  // Many TIDs of one value: posting lists capped at 132 TIDs.
  BtIndex one(kPostgresql15, Bigint(false));
  for (int i = 1; i <= 1000; ++i) one.Insert(Int8Key(5), Tid(i));
  BtSortBuild::Build(one);
  EXPECT_EQ(one.Verify(), "");
  uint64_t postings = 0;
  for (uint32_t b : one.LeavesInKeyOrder()) postings += one.View(b).posting_lists;
  EXPECT_EQ(postings, (1000u + 131) / 132);
}

// DELETE + VACUUM through the engine seam: rows found by their key, the
// heap's relpages kept (its head freed) or its tail truncated.
TEST(PostgresVacuum, EngineDeleteAndVacuum) {
  PgTableSpec spec;
  spec.columns = {PgColumn{"id", PgType::kInt8}};
  spec.primary_key = {0};
  auto load = [&](PgEngine& e, int n) {
    for (int i = 1; i <= n; ++i) {
      ASSERT_TRUE(e.InsertRow(Int8Key(i)).ok());
      ASSERT_TRUE(e.EndRow().ok());
    }
    ASSERT_TRUE(e.EndLoad().ok());
  };
  const int n = 100000;
  {
    PgEngine e(kPostgresql15, spec);
    load(e, n);
    const uint32_t heap_pages = e.table().Report().heap_relpages;
    // The first half, in key order (ForEachPrimaryKey).
    std::vector<Key> doomed;
    e.ForEachPrimaryKey([&](const Key& k) {
      if (doomed.size() < n / 2) doomed.push_back(k);
    });
    for (const Key& k : doomed) ASSERT_TRUE(e.DeleteRow(k, {}).ok());
    EXPECT_TRUE(absl::IsNotFound(e.DeleteRow(doomed.front(), {})));
    ASSERT_TRUE(e.EndDeletes().ok());
    EXPECT_FALSE(e.last_vacuum().bypassed);
    const PgTableReport r = e.table().Report();
    EXPECT_EQ(r.rows, static_cast<uint64_t>(n / 2));
    EXPECT_EQ(r.heap_relpages, heap_pages);  // the head is freed, not cut
    const PgStatIndex& s = r.indexes[0].stat;
    // 50,000 keys: leaves 1..136 of 366 go but the last of them, which
    // keeps keys above 50,000; the leftmost page goes too (its left link
    // is P_NONE).
    EXPECT_EQ(s.leaf_pages + s.deleted_pages, 274u);
    EXPECT_EQ(s.deleted_pages, 50000u / 366);
    EXPECT_EQ(e.Verify(), "");
    uint64_t live = 0;
    e.ForEachPrimaryKey([&](const Key&) { ++live; });
    EXPECT_EQ(live, static_cast<uint64_t>(n / 2));
    // No insert after a VACUUM (the heap FSM is not modelled).
    EXPECT_FALSE(e.InsertRow(Int8Key(n + 1)).ok());
  }
  {
    PgEngine e(kPostgresql15, spec);
    load(e, n);
    const uint32_t heap_pages = e.table().Report().heap_relpages;
    std::vector<Key> doomed;
    uint64_t rank = 0;
    e.ForEachPrimaryKey([&](const Key& k) {
      if (rank++ >= n / 2) doomed.push_back(k);
    });
    for (const Key& k : doomed) ASSERT_TRUE(e.DeleteRow(k, {}).ok());
    ASSERT_TRUE(e.EndDeletes().ok());
    // The tail is empty: lazy_truncate_heap cuts it (226 tuples a page).
    EXPECT_EQ(heap_pages, (n + 225) / 226);
    EXPECT_EQ(e.table().Report().heap_relpages, (n / 2 + 225) / 226);
    EXPECT_EQ(e.Verify(), "");
  }
  {
    // A few rows (under 2% of the heap's pages): index vacuuming bypassed,
    // the index keeps their tuples; REINDEX leaves them out.
    PgEngine e(kPostgresql15, spec);
    load(e, n);
    for (int i = 1; i <= 300; ++i) ASSERT_TRUE(e.DeleteRow(Int8Key(i), {}).ok());
    ASSERT_TRUE(e.EndDeletes().ok());
    EXPECT_TRUE(e.last_vacuum().bypassed);
    EXPECT_EQ(e.table().Report().indexes[0].stat.deleted_pages, 0u);
    uint64_t live = 0;
    e.ForEachPrimaryKey([&](const Key&) { ++live; });
    EXPECT_EQ(live, static_cast<uint64_t>(n - 300));
    ASSERT_TRUE(e.Rebuild().ok());
    EXPECT_EQ(BtSortBuild::CountTuples(*e.table().primary()), static_cast<uint64_t>(n - 300));
    EXPECT_EQ(e.Verify(), "");
  }
}

}  // namespace
}  // namespace innosim::postgres
