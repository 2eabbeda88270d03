// Block storage modes (model/fast/page_pool.h's full blocks, and the
// compaction of cold leaves by model/fast/hot_leaves.h; huge-page chunks)
// decide only where a page's records live in memory: the tree, the counters
// and every page event must be the same without them.
#include <gtest/gtest.h>

#include "model/fast/fast_path.h"
#include "model/fast/page_store.h"
#include "model/index_page.h"
#include "tests/tree_streams.h"

namespace innosim {
namespace {

class BlockStorageEquivalenceTest : public ::testing::TestWithParam<Param> {};

TEST_P(BlockStorageEquivalenceTest, SameTreeAndSamePageEventsWithoutFullBlocks) {
  FastPath::Devices without;
  without.full_blocks = false;
  EXPECT_GT(ExpectSameRunsWithout(without, GetParam(), 20000, 81), 10u);
}

TEST_P(BlockStorageEquivalenceTest, SameTreeAndSamePageEventsWithoutHugeChunks) {
  FastPath::Devices without;
  without.huge_chunks = false;
  EXPECT_GT(ExpectSameRunsWithout(without, GetParam(), 20000, 82), 10u);
}

INSTANTIATE_TEST_SUITE_P(Streams, BlockStorageEquivalenceTest, AllParams(), ParamName);

// Leaves whose record storage exceeds what their records need by a 64-byte
// pool granule or more.
int SlackLeaves(const Engine& e) {
  const PageStore& store = e.page_store();
  uint32_t pn = e.primary().root();
  while (!store.page(pn).is_leaf()) pn = store.page(pn).child(0);
  int slack = 0;
  for (; pn != kFilNull; pn = store.page(pn).next()) {
    const IndexPage& p = store.page(pn);
    slack += static_cast<int>(p.capacity() >= static_cast<uint32_t>(p.n_recs()) + 4);
  }
  return slack;
}

// While the route cache finds the leaves, a split's pages take their whole
// capacity at once, and a leaf is compacted once 64 newer leaves have
// split: only the leaves that split lately keep room to spare. Without full
// blocks (blocks grown by steps of 32 records) most leaves do. The trees
// are the same.
TEST(BlockStorageUseTest, ColdLeavesOfATimeOrderedStreamAreCompacted) {
  EnginePair e(ProfileFor(false, 16384));
  FastPath::Devices without;
  without.full_blocks = false;
  e.without.set_fast_path(without);
  Generator g(Stream::kUuidV7Windows, 79);
  for (int i = 0; i < 40000; ++i) ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(g.Next(), i));
  e.ExpectSameRuns();
  const uint64_t leaves = e.with.primary().n_leaf_pages();
  ASSERT_GT(leaves, 400u);
  EXPECT_LE(SlackLeaves(e.with), 64);
  EXPECT_GT(SlackLeaves(e.without), static_cast<int>(leaves / 2));
}

// The pool takes huge-page chunks; without the device, ordinary ones; the
// trees are the same.
TEST(BlockStorageUseTest, ThePoolTakesHugeChunksUnlessTheDeviceIsOff) {
  EnginePair e(ProfileFor(false, 4096));
  FastPath::Devices without;
  without.huge_chunks = false;
  e.without.set_fast_path(without);
  Generator g(Stream::kUniform, 83);
  for (int i = 0; i < 30000; ++i) ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(g.Next(), i));
  e.ExpectSameRuns();
  EXPECT_TRUE(e.with.page_store().pool().huge_chunks());
  EXPECT_FALSE(e.without.page_store().pool().huge_chunks());
}

}  // namespace
}  // namespace innosim
