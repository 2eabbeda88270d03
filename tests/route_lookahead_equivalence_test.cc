// The lookahead (model/fast/route_lookahead.h): Engine::PrefetchRow only
// hints. Announcing every key two rows ahead (and, now and then, a key that
// never comes or no key at all) must change nothing, while on scattered keys
// most leaves come from the announced walks.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "model/fast/fast_path.h"
#include "tests/tree_streams.h"

namespace innosim {
namespace {

class RouteLookaheadEquivalenceTest : public ::testing::TestWithParam<Param> {};

TEST_P(RouteLookaheadEquivalenceTest, SameTreeAndSamePageEventsWithAndWithoutHints) {
  const auto [stream, page_size, mariadb] = GetParam();
  EnginePair e(ProfileFor(mariadb, page_size));
  Generator a(stream, 78), ahead(stream, 78);
  std::mt19937_64 noise(5);
  constexpr int kRows = 20000;
  std::vector<Key> keys;
  for (int i = 0; i < kRows + 2; ++i) keys.push_back(ahead.Next());
  e.with.PrefetchRow(keys[0]);
  e.with.PrefetchRow(keys[1]);
  for (int i = 0; i < kRows; ++i) {
    const Key k = a.Next();
    ASSERT_EQ(k, keys[i]);
    if (i % 89 != 0) e.with.PrefetchRow(keys[i + 2]);
    if (i % 97 == 0) e.with.PrefetchRow(Key{noise(), noise()});
    ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(k, i));
  }
  e.ExpectSameRuns();
  if (stream == Stream::kUniform) {
    EXPECT_GT(e.with.primary().fast_path().lookahead_taken(), kRows / 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Streams, RouteLookaheadEquivalenceTest, AllParams(), ParamName);

}  // namespace
}  // namespace innosim
