// The nbtree trace sink (model/postgres/nbtree_trace.h): each insert starts
// with the leaf reached, a split's halves hold the page's items and the new
// one, and an index with a sink ends exactly as one without.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "model/postgres/nbtree.h"

namespace innosim::postgres {
namespace {

class Recorder final : public BtTraceSink {
 public:
  void OnInsertStart(const Key&) override { ++starts; }
  void OnStep(const BtTraceEvent& e) override { events.push_back(e); }
  uint64_t starts = 0;
  std::vector<BtTraceEvent> events;
};

TEST(PostgresNbtreeTrace, EveryStepIsReportedAndTheSinkChangesNothing) {
  for (bool unique : {true, false}) {
    BtIndexDesc d;
    d.name = "i";
    d.columns = {BtKeyColumn{}};
    d.unique = unique;
    BtIndex traced(kPostgresql18, d), plain(kPostgresql18, d);
    Recorder rec;
    traced.set_trace(&rec);
    std::mt19937_64 rng(7);
    constexpr uint64_t kRows = 50000;
    for (uint64_t i = 1; i <= kRows; ++i) {
      // Unique: random keys; non-unique: 50 values, so pages deduplicate.
      const Key k = Key::FromU64(unique ? rng() : rng() % 50);
      const HeapTid tid = MakeHeapTid(static_cast<uint32_t>(i / 200 + 1), static_cast<uint16_t>(i % 200 + 1));
      traced.Insert(k, tid);
      plain.Insert(k, tid);
    }
    ASSERT_TRUE(traced.status().ok()) << traced.status();
    EXPECT_EQ(traced.Verify(), "");
    EXPECT_EQ(rec.starts, kRows);
    const PgStatIndex a = traced.StatIndex(), b = plain.StatIndex();
    EXPECT_EQ(a.leaf_pages, b.leaf_pages);
    EXPECT_EQ(a.internal_pages, b.internal_pages);
    EXPECT_EQ(a.root_block_no, b.root_block_no);
    EXPECT_DOUBLE_EQ(a.avg_leaf_density, b.avg_leaf_density);
    uint64_t leaf_reached = 0, splits = 0, dedups = 0, roots = 0;
    for (const BtTraceEvent& e : rec.events) {
      switch (e.step) {
        case BtStep::kLeafReached:
          ++leaf_reached;
          EXPECT_EQ(e.page.level, 0u);
          EXPECT_GE(e.path_length, 1);
          EXPECT_EQ(e.path[e.path_length - 1], e.page.block);
          break;
        case BtStep::kSplit:
          ++splits;
          // The old items and the new one, between the two halves.
          EXPECT_EQ(e.after.nitems + e.right.nitems, e.page.nitems + 1);
          EXPECT_EQ(e.right.block, e.right_block);
          EXPECT_FALSE(e.after.rightmost);
          EXPECT_GE(e.split.candidates, 1);
          break;
        case BtStep::kDedupPass:
          dedups += e.nintervals > 0;
          EXPECT_FALSE(unique);
          break;
        case BtStep::kNewRoot:
          ++roots;
          break;
        default:
          break;
      }
    }
    EXPECT_EQ(leaf_reached, kRows);
    uint64_t counted = 0;
    for (int k = 0; k < 5; ++k) counted += traced.counters().leaf_splits[k] + traced.counters().internal_splits[k];
    EXPECT_EQ(splits, counted);
    EXPECT_GT(splits, 0u);
    EXPECT_EQ(dedups, traced.counters().dedup_passes);
    EXPECT_EQ(roots, traced.counters().new_roots);
    if (!unique) EXPECT_GT(dedups, 0u);
  }
}

}  // namespace
}  // namespace innosim::postgres
