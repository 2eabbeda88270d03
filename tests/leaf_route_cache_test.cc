// LeafRouteCache on hand-made routes: lookups by range, Forget of one leaf,
// Clear, and replacement once every slot is in use.
#include "model/fast/leaf_route_cache.h"

#include <gtest/gtest.h>

namespace innosim {
namespace {

// A two-level route root -> leaf covering [low, high) (hi halves only).
LeafRouteCache::Route MakeRoute(uint64_t low, uint64_t high, uint32_t leaf) {
  LeafRouteCache::Route r;
  r.low = Key{low, 0};
  r.high = Key{high, 0};
  r.pages[0] = 3;
  r.pages[1] = leaf;
  r.height = 2;
  return r;
}

uint32_t LeafOf(LeafRouteCache& c, uint64_t k) {
  const int place = c.Find(Key{k, 0});
  if (place < 0) return 0;
  const LeafRouteCache::Route& r = c.route(place);
  EXPECT_EQ(c.leaf(place), r.pages[r.height - 1]);  // kept by place, the same
  return c.leaf(place);
}

// Three adjacent routes: [100, 200) to leaf 11, [200, 300) to 12 and
// [300, 400) to 13, added in that order.
void AddThreeRoutes(LeafRouteCache& c) {
  c.Add(MakeRoute(100, 200, 11));
  c.Add(MakeRoute(200, 300, 12));
  c.Add(MakeRoute(300, 400, 13));
}

// Keys from, from + 1, ... all find `leaf`, enough of them in a row for
// Find to test that route first.
void ExpectRepeatedHits(LeafRouteCache& c, uint64_t from, uint32_t leaf) {
  for (int i = 0; i < 3 * LeafRouteCache::kRepeatsForLastTest; ++i) EXPECT_EQ(LeafOf(c, from + i), leaf) << from + i;
}

TEST(LeafRouteCacheTest, FindsTheRouteWhoseRangeHoldsTheKey) {
  LeafRouteCache c;
  c.Add(MakeRoute(200, 300, 12));
  c.Add(MakeRoute(100, 200, 11));
  c.Add(MakeRoute(300, 400, 13));
  EXPECT_EQ(LeafOf(c, 100), 11u);
  EXPECT_EQ(LeafOf(c, 199), 11u);
  EXPECT_EQ(LeafOf(c, 200), 12u);  // low inclusive, high exclusive
  EXPECT_EQ(LeafOf(c, 399), 13u);
  EXPECT_EQ(LeafOf(c, 400), 0u);
  EXPECT_EQ(LeafOf(c, 99), 0u);
}

TEST(LeafRouteCacheTest, RepeatedHitsStillLetOtherKeysFindTheirRoutes) {
  // After enough hits in a row on one route Find tests it first; a key
  // outside it must still reach its own route (or none), and so must keys
  // after routes were added, forgotten or cleared under a repeating one.
  LeafRouteCache c;
  AddThreeRoutes(c);
  ExpectRepeatedHits(c, 210, 12);
  EXPECT_EQ(LeafOf(c, 150), 11u);
  EXPECT_EQ(LeafOf(c, 350), 13u);
  EXPECT_EQ(LeafOf(c, 50), 0u);
  ExpectRepeatedHits(c, 310, 13);
  c.Add(MakeRoute(50, 100, 10));  // sorts before the repeating route
  EXPECT_EQ(LeafOf(c, 60), 10u);
  EXPECT_EQ(LeafOf(c, 320), 13u);
  ExpectRepeatedHits(c, 330, 13);
  c.Forget(13);
  EXPECT_EQ(LeafOf(c, 340), 0u);
  EXPECT_EQ(LeafOf(c, 250), 12u);
  ExpectRepeatedHits(c, 260, 12);
  c.Clear();
  EXPECT_EQ(LeafOf(c, 270), 0u);
}

TEST(LeafRouteCacheTest, SplitDividesTheLeafsRangeBetweenItsHalves) {
  LeafRouteCache c;
  AddThreeRoutes(c);
  c.Split(12, Key{240, 0}, 12, 20);  // 12 keeps [200, 240), 20 takes [240, 300)
  EXPECT_EQ(LeafOf(c, 200), 12u);
  EXPECT_EQ(LeafOf(c, 239), 12u);
  EXPECT_EQ(LeafOf(c, 240), 20u);
  EXPECT_EQ(LeafOf(c, 299), 20u);
  EXPECT_EQ(LeafOf(c, 150), 11u);
  EXPECT_EQ(LeafOf(c, 300), 13u);
  // A split to the left: the new page is the lower half.
  c.Split(11, Key{120, 0}, 21, 11);
  EXPECT_EQ(LeafOf(c, 119), 21u);
  EXPECT_EQ(LeafOf(c, 120), 11u);
  // The halves go through the split leaf's pages above it.
  const LeafRouteCache::Route& r = c.route(c.Find(Key{130, 0}));
  EXPECT_EQ(r.height, 2);
  EXPECT_EQ(r.pages[0], 3u);
  // A leaf not remembered: nothing changes.
  c.Split(99, Key{350, 0}, 99, 98);
  EXPECT_EQ(LeafOf(c, 350), 13u);
}

TEST(LeafRouteCacheTest, ForgetDropsOnlyThatLeafAndFreesItsSlot) {
  LeafRouteCache c;
  AddThreeRoutes(c);
  c.Forget(12);
  EXPECT_EQ(LeafOf(c, 250), 0u);
  EXPECT_EQ(LeafOf(c, 150), 11u);
  EXPECT_EQ(LeafOf(c, 350), 13u);
  c.Forget(99);  // not remembered: nothing changes
  EXPECT_EQ(LeafOf(c, 150), 11u);
  EXPECT_EQ(LeafOf(c, 350), 13u);
  // The split halves come back as two routes; with the slot freed, all
  // kEntries routes fit again without replacing any.
  c.Add(MakeRoute(200, 250, 12));
  c.Add(MakeRoute(250, 300, 14));
  for (int i = 0; i < LeafRouteCache::kEntries - 4; ++i) {
    c.Add(MakeRoute(1000 + 100 * i, 1100 + 100 * i, 20 + i));
  }
  EXPECT_EQ(LeafOf(c, 150), 11u);
  EXPECT_EQ(LeafOf(c, 220), 12u);
  EXPECT_EQ(LeafOf(c, 260), 14u);
  EXPECT_EQ(LeafOf(c, 350), 13u);
  EXPECT_EQ(LeafOf(c, 1000 + 100 * (LeafRouteCache::kEntries - 5)), static_cast<uint32_t>(20 + LeafRouteCache::kEntries - 5));
}

TEST(LeafRouteCacheTest, ReplacesInTurnWhenFullAndClearForgetsAll) {
  LeafRouteCache c;
  for (int i = 0; i < LeafRouteCache::kEntries + 1; ++i) {
    c.Add(MakeRoute(100 * (i + 1), 100 * (i + 2), 10 + i));
  }
  // The first route added went to make room for the last.
  EXPECT_EQ(LeafOf(c, 150), 0u);
  EXPECT_EQ(LeafOf(c, 250), 11u);
  EXPECT_EQ(LeafOf(c, 100 * (LeafRouteCache::kEntries + 1) + 50), static_cast<uint32_t>(10 + LeafRouteCache::kEntries));
  c.Clear();
  EXPECT_EQ(LeafOf(c, 250), 0u);
  c.Add(MakeRoute(100, 200, 11));
  EXPECT_EQ(LeafOf(c, 150), 11u);
}

}  // namespace
}  // namespace innosim
