// The shortcut streak (model/fast/shortcut_streak.h) decides only whether
// the leaf search tries page_cur_try_search_shortcut before its binary
// search, as InnoDB always does: the cursor, and so everything else, must be
// the same with the device off.
#include <gtest/gtest.h>

#include "model/fast/fast_path.h"
#include "model/fast/shortcut_streak.h"
#include "tests/tree_streams.h"

namespace innosim {
namespace {

class ShortcutStreakEquivalenceTest : public ::testing::TestWithParam<Param> {};

TEST_P(ShortcutStreakEquivalenceTest, SameTreeAndSamePageEventsWithoutTheStreak) {
  FastPath::Devices without;
  without.shortcut_streak = false;
  EXPECT_GT(ExpectSameRunsWithout(without, GetParam(), 20000, 85), 10u);
}

INSTANTIATE_TEST_SUITE_P(Streams, ShortcutStreakEquivalenceTest, AllParams(), ParamName);

TEST(ShortcutStreakTest, TriesTheShortcutFirstOnlyAfterAStreakOfAppends) {
  ShortcutStreak s;
  EXPECT_FALSE(s.TryShortcutFirst());
  for (int i = 0; i < ShortcutStreak::kShortcutStreak - 1; ++i) s.CursorFound(true);
  EXPECT_FALSE(s.TryShortcutFirst());
  s.CursorFound(true);
  EXPECT_TRUE(s.TryShortcutFirst());
  s.CursorFound(false);  // one key elsewhere ends the streak
  EXPECT_FALSE(s.TryShortcutFirst());
  s.set_enabled(false);  // off: always first, as InnoDB
  EXPECT_TRUE(s.TryShortcutFirst());
}

}  // namespace
}  // namespace innosim
