// ShortcutStreak: whether the leaf search tries page_cur_try_search_shortcut
// (the key right after PAGE_LAST_INSERT) before its binary search.
//
// InnoDB tries the shortcut first on every search. The cursor is the same
// either way, so the simulator tries it only once the last kShortcutStreak
// inserts in a row landed right after PAGE_LAST_INSERT (appending streams);
// while keys land at random, whether the shortcut applies is a branch no
// predictor can learn, decided just as the search starts, and the search
// alone is cheaper. A speed device; no result depends on it
// (tests/shortcut_streak_equivalence_test.cc).
#ifndef INNOSIM_MODEL_FAST_SHORTCUT_STREAK_H_
#define INNOSIM_MODEL_FAST_SHORTCUT_STREAK_H_

namespace innosim {

class ShortcutStreak {
 public:
  // Inserts in a row at PAGE_LAST_INSERT before the shortcut is tried first
  // (a speed setting of the simulator, not InnoDB's).
  static constexpr int kShortcutStreak = 4;

  // Off: the shortcut is always tried first, as InnoDB does.
  void set_enabled(bool on) { enabled_ = on; }
  bool TryShortcutFirst() const { return !enabled_ || streak_ >= kShortcutStreak; }
  // Whether this insert's cursor was PAGE_LAST_INSERT; counted without a
  // branch, saturating.
  void CursorFound(bool at_last_insert) {
    streak_ = (streak_ + static_cast<int>(streak_ < kShortcutStreak)) & -static_cast<int>(at_last_insert);
  }

 private:
  int streak_ = 0;
  bool enabled_ = true;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_SHORTCUT_STREAK_H_
