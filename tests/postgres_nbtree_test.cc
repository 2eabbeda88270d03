// The nbtree index of model/postgres/nbtree.h: splits, new roots,
// deduplication, pgstatindex figures, invariants and determinism.
#include <gtest/gtest.h>

#include <random>

#include "model/postgres/nbtree.h"
#include "model/postgres/table.h"

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

TEST(PostgresNbtree, FirstSplitMakesANewRootAfterTheRightPage) {
  BtIndex ix(kPostgresql15, Bigint(true));
  for (int i = 1; i <= 407; ++i) ix.Insert(Int8Key(i), MakeHeapTid(0, i));
  PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.leaf_pages, 1u);
  EXPECT_EQ(s.tree_level, 0);
  EXPECT_EQ(s.root_block_no, 1u);
  ix.Insert(Int8Key(408), MakeHeapTid(1, 1));  // the 408th does not fit: split
  s = ix.StatIndex();
  EXPECT_EQ(s.leaf_pages, 2u);
  EXPECT_EQ(s.internal_pages, 1u);
  EXPECT_EQ(s.tree_level, 1);
  EXPECT_EQ(s.root_block_no, 3u);  // block 2 is the right half, then the root
  EXPECT_EQ(s.index_size, 4u * 8192);
  EXPECT_EQ(ix.counters().new_roots, 1u);
  EXPECT_EQ(ix.counters().leaf_splits[static_cast<int>(SplitKind::kRightmostFillfactor)], 1u);
  EXPECT_EQ(ix.Verify(), "");
}

// Ascending bigint keys: every leaf but the last keeps 366 tuples and a
// 16-byte high key (_bt_truncate keeps the whole single-column key).
TEST(PostgresNbtree, AscendingKeysFillLeavesToFillfactor) {
  BtIndex ix(kPostgresql15, Bigint(true));
  const int n = 366 * 50 + 1;
  for (int i = 1; i <= n; ++i) ix.Insert(Int8Key(i), MakeHeapTid(i / 200, 1 + i % 200));
  const PgStatIndex s = ix.StatIndex();
  EXPECT_EQ(s.leaf_pages, 50u);
  EXPECT_EQ(s.leaf_fragmentation, 0.0);
  // A full left leaf: 366 * 20 + 16 + 4 = 7340 used; PageGetFreeSpace = 8152 - 7340 - 4.
  // 49 of them, and a last leaf of 367 tuples.
  const double free = 49 * (8152 - 7340 - 4) + (8152 - 367 * 20 - 4);
  EXPECT_NEAR(s.avg_leaf_density, 100.0 - free / (50 * 8152.0) * 100.0, 1e-9);
  EXPECT_EQ(ix.Verify(), "");
  // REL_18's pgstatindex counts 4 more free bytes a leaf.
  BtIndex ix18(kPostgresql18, Bigint(true));
  for (int i = 1; i <= n; ++i) ix18.Insert(Int8Key(i), MakeHeapTid(i / 200, 1 + i % 200));
  EXPECT_NEAR(ix18.StatIndex().avg_leaf_density, s.avg_leaf_density - 4.0 / 8152 * 100, 1e-9);
}

TEST(PostgresNbtree, RandomKeysSplitFiftyFiftyAndFragment) {
  BtIndexDesc d = Bigint(true);
  BtIndex ix(kPostgresql15, d);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) ix.Insert(Key::FromU64(rng()), MakeHeapTid(i / 200, 1 + i % 200));
  const PgStatIndex s = ix.StatIndex();
  EXPECT_GT(ix.counters().leaf_splits[static_cast<int>(SplitKind::kFiftyFifty)], 100u);
  EXPECT_GT(s.avg_leaf_density, 60.0);
  EXPECT_LT(s.avg_leaf_density, 80.0);
  EXPECT_GT(s.leaf_fragmentation, 30.0);
  EXPECT_EQ(s.relpages, 1 + s.leaf_pages + s.internal_pages);
  EXPECT_EQ(ix.Verify(), "");
}

TEST(PostgresNbtree, UniqueViolationIsAnError) {
  BtIndex ix(kPostgresql15, Bigint(true));
  ix.Insert(Int8Key(5), MakeHeapTid(0, 1));
  ix.Insert(Int8Key(5), MakeHeapTid(0, 2));
  EXPECT_EQ(ix.status().code(), absl::StatusCode::kAlreadyExists);
}

// A non-unique index full of duplicates deduplicates instead of splitting:
// 1000 equal keys fit one leaf as posting lists.
TEST(PostgresNbtree, DuplicatesDeduplicate) {
  BtIndex ix(kPostgresql15, Bigint(false));
  for (int i = 1; i <= 1000; ++i) ix.Insert(Int8Key(42), MakeHeapTid(i / 100, 1 + i % 100));
  EXPECT_GT(ix.counters().dedup_passes, 0u);
  EXPECT_EQ(ix.StatIndex().leaf_pages, 1u);
  EXPECT_EQ(ix.Verify(), "");
  // Without deduplicate_items the same rows need splits.
  BtIndexDesc off = Bigint(false);
  off.deduplicate_items = false;
  BtIndex plain(kPostgresql15, off);
  for (int i = 1; i <= 1000; ++i) plain.Insert(Int8Key(42), MakeHeapTid(i / 100, 1 + i % 100));
  EXPECT_EQ(plain.counters().dedup_passes, 0u);
  EXPECT_GE(plain.StatIndex().leaf_pages, 3u);
  EXPECT_EQ(plain.counters().leaf_splits[static_cast<int>(SplitKind::kSingleValue)], plain.StatIndex().leaf_pages - 1);
  EXPECT_EQ(plain.Verify(), "");
  // float8 is not "equal image": no deduplication either.
  BtIndexDesc f = Bigint(false);
  f.columns[0].type = PgType::kFloat8;
  BtIndex fl(kPostgresql15, f);
  for (int i = 1; i <= 1000; ++i) fl.Insert(Int8Key(42), MakeHeapTid(i / 100, 1 + i % 100));
  EXPECT_EQ(fl.counters().dedup_passes, 0u);
}

TEST(PostgresNbtree, LowCardinalityIndexVerifies) {
  BtIndex ix(kPostgresql15, Bigint(false));
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50000; ++i) ix.Insert(Int8Key(static_cast<int64_t>(rng() % 50)), MakeHeapTid(i / 200, 1 + i % 200));
  EXPECT_EQ(ix.Verify(), "");
  EXPECT_GT(ix.counters().dedup_passes, 0u);
}

TEST(PostgresTable, VerifyAfter100kRandomInserts) {
  PgTableSpec spec;
  spec.columns = {{"id", PgType::kUuid}, {"n", PgType::kInt8}, {"ts", PgType::kTimestamptz}};
  spec.primary_key = {0};
  spec.secondary = {PgIndexSpec{"", {1}, false}, PgIndexSpec{"", {2, 1}, true, 80}};
  PgTable t(kPostgresql15, spec);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    t.InsertRow(Key{rng(), rng()});
    t.InsertIndexEntry(0, Int8Key(static_cast<int64_t>(rng() % 1000)));
    Key k2 = Int8Key(i / 10);
    k2.lo = static_cast<uint64_t>(i) ^ (uint64_t{1} << 63);  // (ts, n): second column in bytes 8..15
    t.InsertIndexEntry(1, k2);
    t.EndRow();
  }
  ASSERT_TRUE(t.status().ok()) << t.status();
  EXPECT_EQ(t.Verify(), "");
  const PgTableReport r = t.Report();
  ASSERT_EQ(r.indexes.size(), 3u);
  EXPECT_EQ(r.indexes[0].name, "t_pkey");
  EXPECT_EQ(r.indexes[1].name, "t_n_idx");
  EXPECT_EQ(r.indexes[2].name, "t_ts_n_key");
  // Heap: 24 + 16 + 8 + 8 = 56 bytes + line pointer: 136 rows a page.
  EXPECT_EQ(r.heap_relpages, (100000 + 135) / 136);
}

TEST(PostgresTable, SameRowsSameReport) {
  auto run = [] {
    PgTableSpec spec;
    spec.columns = {{"id", PgType::kUuid}};
    spec.primary_key = {0};
    PgTable t(kPostgresql18, spec);
    std::mt19937_64 rng(5);
    for (int i = 0; i < 30000; ++i) {
      t.InsertRow(Key{rng(), rng()});
      t.EndRow();
    }
    const PgStatIndex s = t.Report().indexes[0].stat;
    return std::make_tuple(s.leaf_pages, s.internal_pages, s.avg_leaf_density, s.leaf_fragmentation, s.root_block_no,
                           t.Report().heap_relpages);
  };
  EXPECT_EQ(run(), run());
}

TEST(PostgresTable, MissingIndexEntryIsAnError) {
  PgTableSpec spec;
  spec.columns = {{"id", PgType::kInt8}, {"n", PgType::kInt8}};
  spec.primary_key = {0};
  spec.secondary = {PgIndexSpec{"", {1}}};
  PgTable t(kPostgresql15, spec);
  t.InsertRow(Int8Key(1));
  t.EndRow();
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace innosim::postgres
