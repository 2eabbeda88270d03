// The leaf route cache (model/fast/leaf_route_cache.h) skips descents; it
// must change nothing: not the tree, not the counters, not one page event
// the buffer pool sees. Also the plain tree: every speed device off at once.
#include <gtest/gtest.h>

#include "model/fast/fast_path.h"
#include "tests/tree_streams.h"

namespace innosim {
namespace {

class RouteCacheEquivalenceTest : public ::testing::TestWithParam<Param> {};

TEST_P(RouteCacheEquivalenceTest, SameTreeAndSamePageEventsWithoutTheRouteCache) {
  FastPath::Devices without;
  without.route_cache = false;
  EXPECT_GT(ExpectSameRunsWithout(without, GetParam(), 20000, 77), 10u);
}

TEST_P(RouteCacheEquivalenceTest, SameTreeAndSamePageEventsWithEveryDeviceOff) {
  const FastPath::Devices none{false, false, false, false, false};
  EXPECT_GT(ExpectSameRunsWithout(none, GetParam(), 20000, 76), 10u);
}

INSTANTIATE_TEST_SUITE_P(Streams, RouteCacheEquivalenceTest, AllParams(), ParamName);

// The cache is not idle in the tests above: on a time-ordered stream most
// inserts take a remembered route instead of descending.
TEST(RouteCacheUseTest, MostTimeOrderedInsertsTakeARememberedRoute) {
  Engine e(ProfileFor(false, 16384), Seed000Table(16));
  Generator g(Stream::kUuidV7Windows, 5);
  for (int i = 0; i < 20000; ++i) ASSERT_TRUE(e.InsertRow(g.Next()).ok());
  EXPECT_GT(e.primary().fast_path().route_hits(), 15000u);
}

}  // namespace
}  // namespace innosim
