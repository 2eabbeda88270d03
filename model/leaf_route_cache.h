// LeafRouteCache: the last few root-to-leaf routes of a B-tree, each with the
// key range its node pointers send to that leaf.
//
// A descent picks, on every non-leaf page, the last node pointer <= k; the
// leaf it reaches is the same for every key in [low, high), where low is the
// greatest and high the least of the node-pointer keys on either side of the
// chosen ones. While no non-leaf page changes, a key in a remembered range
// can skip the descent: the pages fixed on the way are the remembered ones,
// in the same order, so a buffer pool model sees the same accesses. This is a
// speed device of the simulator, not of InnoDB (whose nearest relative is the
// adaptive hash index): results are identical with it on or off.
//
// The owner must call Clear() before any non-leaf page or the root changes.
// Not thread-safe.
#ifndef INNOSIM_MODEL_LEAF_ROUTE_CACHE_H_
#define INNOSIM_MODEL_LEAF_ROUTE_CACHE_H_

#include <cstdint>

#include "model/key.h"

namespace innosim {

class LeafRouteCache {
 public:
  // The constants below are speed settings of the simulator, not InnoDB's:
  // no result depends on them.
  // Routes of trees up to this height are remembered; taller trees descend.
  static constexpr int kMaxHeight = 8;
  // Enough for the handful of leaves a time-ordered stream with random
  // sub-millisecond bits keeps filling at once; a miss costs one descent.
  // A power of two: the lookup is a fixed three-step binary search.
  static constexpr int kEntries = 8;
  static constexpr int kMissesBeforeRest = 64;
  static constexpr int kRestLength = 1024;

  struct Route {
    Key low;   // inclusive
    Key high;  // exclusive; the all-ones key stands for "no upper bound"
    uint32_t pages[kMaxHeight];  // root first, leaf last
    int height = 0;
  };

  LeafRouteCache() { Clear(); }

  // Whether to look at all for this key. Keys that scatter over the whole
  // tree (UUIDv4) never hit: after kMissesBeforeRest misses in a row the
  // cache rests for kRestLength keys, which then descend without it.
  bool Active() {
    if (rest_ == 0) return true;
    --rest_;
    return false;
  }

  // The remembered route whose range holds k, or nullptr. The ranges are
  // disjoint and kept sorted by their lower bound, so the only candidate is
  // the last one starting at or below k; finding it takes three branch-free
  // steps (a scan would end on a branch no predictor can learn when the
  // hits spread over several leaves).
  const Route* Find(const Key& k) {
    const U w = Wide(k);
    // Appending streams hit the same leaf again and again: one test.
    if (Holds(last_, w)) return Hit(last_);
    int i = 0;
    for (int step = kEntries / 2; step > 0; step /= 2) {
      i += step & -static_cast<int>(lows_[i + step] <= w);
    }
    if (Holds(i, w)) return Hit(i);
    if (++miss_streak_ >= kMissesBeforeRest) {
      miss_streak_ = 0;
      rest_ = kRestLength;
    }
    return nullptr;
  }

  // Remembers a route, replacing the least recently added one when full
  // (slots are filled, then replaced, in turn).
  void Add(const Route& r) {
    if (r.height <= 0 || r.height > kMaxHeight) return;
    int at;  // position in the sorted order being given up
    if (n_ < kEntries) {
      at = n_++;
      slot_[at] = static_cast<uint8_t>(at);
    } else {
      at = 0;
      while (slot_[at] != next_) ++at;
      next_ = static_cast<uint8_t>((next_ + 1) % kEntries);
    }
    const uint8_t slot = slot_[at];
    routes_[slot] = r;
    // Re-sort the one changed entry into place (insertion sort step).
    const U low = Wide(r.low);
    const U high = Wide(r.high);
    while (at > 0 && lows_[at - 1] > low) {
      lows_[at] = lows_[at - 1];
      highs_[at] = highs_[at - 1];
      slot_[at] = slot_[at - 1];
      --at;
    }
    while (at + 1 < n_ && lows_[at + 1] < low) {
      lows_[at] = lows_[at + 1];
      highs_[at] = highs_[at + 1];
      slot_[at] = slot_[at + 1];
      ++at;
    }
    lows_[at] = low;
    highs_[at] = high;
    slot_[at] = slot;
    last_ = at;
  }

  // Forgets the routes (not whether the cache is resting).
  void Clear() {
    n_ = 0;
    next_ = 0;
    last_ = 0;
    // Unused places sort last and hold nothing: low above every key but the
    // all-ones one, which their empty [low, 0) range refuses.
    for (int i = 0; i < kEntries; ++i) {
      lows_[i] = ~U{0};
      highs_[i] = 0;
    }
  }

  static constexpr Key kNoUpperBound{~uint64_t{0}, ~uint64_t{0}};

 private:
  // Keys as 128-bit integers: a comparison is cmp + sbb, free of branches.
  using U = unsigned __int128;
  static U Wide(const Key& k) { return (U{k.hi} << 64) | k.lo; }

  bool Holds(int i, U w) const { return (lows_[i] <= w) & (w < highs_[i]); }
  const Route* Hit(int i) {
    miss_streak_ = 0;
    last_ = i;
    return &routes_[slot_[i]];
  }

  U lows_[kEntries];   // sorted; lows_[i], highs_[i] bound routes_[slot_[i]]
  U highs_[kEntries];
  uint8_t slot_[kEntries] = {};
  Route routes_[kEntries];
  int n_ = 0;
  uint8_t next_ = 0;  // the slot to replace next once all are in use
  int last_ = 0;  // sorted position of the last hit or addition
  int miss_streak_ = 0;
  int rest_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_LEAF_ROUTE_CACHE_H_
