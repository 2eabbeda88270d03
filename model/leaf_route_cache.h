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
  // Routes of trees up to this height are remembered; taller trees descend.
  static constexpr int kMaxHeight = 8;
  // Enough for the handful of leaves a time-ordered stream with random
  // sub-millisecond bits keeps filling at once; a miss costs one descent.
  static constexpr int kEntries = 8;
  static constexpr int kMissesBeforeRest = 64;
  static constexpr int kRestLength = 1024;

  struct Route {
    Key low;   // inclusive
    Key high;  // exclusive; the all-ones key stands for "no upper bound"
    uint32_t pages[kMaxHeight];  // root first, leaf last
    int height = 0;
  };

  // Whether to look at all for this key. Keys that scatter over the whole
  // tree (UUIDv4) never hit: after kMissesBeforeRest misses in a row the
  // cache rests for kRestLength keys, which then descend without it.
  bool Active() {
    if (rest_ == 0) return true;
    --rest_;
    return false;
  }

  // The remembered route whose range holds k, or nullptr.
  const Route* Find(const Key& k) {
    if (last_hit_ < n_ && Holds(routes_[last_hit_], k)) return Hit(last_hit_);
    for (int i = 0; i < n_; ++i) {
      if (Holds(routes_[i], k)) return Hit(i);
    }
    if (++miss_streak_ >= kMissesBeforeRest) {
      miss_streak_ = 0;
      rest_ = kRestLength;
    }
    return nullptr;
  }

  // Remembers a route, replacing the oldest one when full.
  void Add(const Route& r) {
    if (r.height <= 0 || r.height > kMaxHeight) return;
    const int at = n_ < kEntries ? n_++ : next_;
    next_ = (at + 1) % kEntries;
    routes_[at] = r;
    last_hit_ = at;
  }

  // Forgets the routes (not whether the cache is resting).
  void Clear() {
    n_ = 0;
    next_ = 0;
  }

  static constexpr Key kNoUpperBound{~uint64_t{0}, ~uint64_t{0}};

 private:
  const Route* Hit(int i) {
    last_hit_ = i;
    miss_streak_ = 0;
    return &routes_[i];
  }

  // 128-bit comparisons keep the range test free of branches.
  static bool Holds(const Route& r, const Key& k) {
    using U = unsigned __int128;
    const U w = (U{k.hi} << 64) | k.lo;
    const U lo = (U{r.low.hi} << 64) | r.low.lo;
    const U hi = (U{r.high.hi} << 64) | r.high.lo;
    return (lo <= w) & (w < hi);
  }

  Route routes_[kEntries];
  int n_ = 0;
  int next_ = 0;
  int last_hit_ = 0;
  int miss_streak_ = 0;
  int rest_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_LEAF_ROUTE_CACHE_H_
