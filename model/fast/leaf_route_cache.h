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
// The owner must call Clear() when any non-leaf page or the root changes,
// except that a leaf split whose parent took just the new node pointer
// needs only Split(leaf, ...) (or Forget(leaf)).
// Not thread-safe.
#ifndef INNOSIM_MODEL_FAST_LEAF_ROUTE_CACHE_H_
#define INNOSIM_MODEL_FAST_LEAF_ROUTE_CACHE_H_

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
  // Hits in a row on the same route before Find tests that route first.
  static constexpr int kRepeatsForLastTest = 4;

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

  // Whether the last misses made the cache rest: keys are scattering.
  bool resting() const { return rest_ > 0; }

  // The place of the remembered route whose range holds k, or -1 (see
  // leaf() and route()). The ranges are disjoint and kept sorted by their
  // lower bound, so the only candidate is the last one starting at or below
  // k: its place is the number of lower bounds <= k, less one. They are
  // counted without branches (a scan would end on a branch no predictor can
  // learn when the hits spread over several leaves) and all at once: the
  // comparisons depend on nothing but k, where a binary search would chain
  // three of them one after another on the path of every insert.
  int Find(const Key& k) {
    const U w = Wide(k);
    // Appending streams hit the same leaf again and again: once the last
    // few keys did, one test of it comes first. Where hits spread over
    // several leaves that test would be a coin toss for the predictor (a
    // mispredicted branch per key), so it is made only while it keeps hitting.
    if (repeats_ >= kRepeatsForLastTest && Holds(last_, w, k)) return Hit(last_);
    // Summed as a tree: added one after another, the eight counts would
    // chain eight additions on the insert's path.
    int c[kEntries];
    for (int j = 0; j < kEntries; ++j) c[j] = static_cast<int>(lows_[j] <= w);
    static_assert(kEntries == 8, "the sum below adds eight counts");
    int i = ((c[0] + c[1]) + (c[2] + c[3])) + ((c[4] + c[5]) + (c[6] + c[7])) - 1;
    i += static_cast<int>(i < 0);  // none: place 0, whose range refuses k
    if (Holds(i, w, k)) return Hit(i);
    if (++miss_streak_ >= kMissesBeforeRest) {
      miss_streak_ = 0;
      rest_ = kRestLength;
    }
    return -1;
  }
  // The leaf of the route at a place Find returned: kept by place, so that
  // the insert that only needs the leaf reads it with one load.
  uint32_t leaf(int place) const { return leaves_[place]; }
  // The route at a place Find returned.
  const Route& route(int place) const { return routes_[slot_[place]]; }

  // Remembers a route, replacing the least recently added one when full
  // (slots are replaced in turn).
  void Add(const Route& r) {
    if (r.height <= 0 || r.height > kMaxHeight) return;
    int at;  // position in the sorted order being given up
    if (n_ < kEntries) {
      at = n_++;  // the first unused place, which holds an unused slot
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
      Move(at - 1, at);
      --at;
    }
    while (at + 1 < n_ && lows_[at + 1] < low) {
      Move(at + 1, at);
      ++at;
    }
    lows_[at] = low;
    highs_[at] = high;
    slot_[at] = slot;
    leaves_[at] = r.pages[r.height - 1];
    last_ = at;
  }

  // Forgets the route to one leaf (if remembered): after that leaf alone
  // split, and its parent only took the new node pointer, every other
  // route is still what a descent would find.
  void Forget(uint32_t leaf) {
    const int i = PlaceOf(leaf);
    if (i >= 0) Remove(i);
  }

  // After `leaf` alone split into `lower` and `upper`, and its parent only
  // took the node pointer to `upper` with key `separator`: the leaf's
  // route (if remembered) becomes the halves' routes, [low, separator) to
  // lower and [separator, high) to upper, through the same pages above.
  // Every other route is still what a descent would find.
  void Split(uint32_t leaf, const Key& separator, uint32_t lower, uint32_t upper) {
    const int i = PlaceOf(leaf);
    if (i < 0) return;
    const Route r = routes_[slot_[i]];
    Remove(i);
    Route half = r;
    half.high = separator;
    half.pages[r.height - 1] = lower;
    Add(half);
    half = r;
    half.low = separator;
    half.pages[r.height - 1] = upper;
    Add(half);
  }

  // Forgets the routes (not whether the cache is resting).
  void Clear() {
    n_ = 0;
    next_ = 0;
    last_ = 0;
    for (int i = 0; i < kEntries; ++i) Unused(i, static_cast<uint8_t>(i));
  }

  static constexpr Key kNoUpperBound{~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}};

 private:
  // A key's first 16 bytes as a 128-bit integer: a comparison is cmp + sbb,
  // free of branches.
  using U = unsigned __int128;
  static U Wide(const Key& k) { return (U{k.hi} << 64) | k.lo; }

  // The place of the route to `leaf`, or -1.
  int PlaceOf(uint32_t leaf) const {
    for (int i = 0; i < n_; ++i) {
      if (leaves_[i] == leaf) return i;
    }
    return -1;
  }
  // Drops the route at place i; the places after it move down and its slot
  // is free again.
  void Remove(int i) {
    const uint8_t slot = slot_[i];
    for (int j = i; j + 1 < kEntries; ++j) Move(j + 1, j);
    Unused(kEntries - 1, slot);
    --n_;
    last_ = 0;
  }

  void Move(int from, int to) {
    lows_[to] = lows_[from];
    highs_[to] = highs_[from];
    slot_[to] = slot_[from];
    leaves_[to] = leaves_[from];
  }
  // Unused places sort last and hold nothing: low above every key but the
  // all-ones one, which their empty [low, 0) range refuses.
  void Unused(int at, uint8_t slot) {
    lows_[at] = ~U{0};
    highs_[at] = 0;
    slot_[at] = slot;
    leaves_[at] = 0;
  }

  // Ranges are held by their first 16 bytes (Wide). Past a lower bound's
  // first 16 bytes k is in range; equal to them, the whole key decides (a
  // wide secondary entry); equal to an upper bound's, k counts as outside:
  // a miss, which costs only a descent.
  bool Holds(int i, U w, const Key& k) const {
    return (lows_[i] < w || (lows_[i] == w && !(k < routes_[slot_[i]].low))) & (w < highs_[i]);
  }
  int Hit(int i) {
    miss_streak_ = 0;
    // Counted without a branch (whether i repeats is the coin toss above),
    // saturating at kRepeatsForLastTest.
    repeats_ = (repeats_ + static_cast<int>(repeats_ < kRepeatsForLastTest)) & -static_cast<int>(i == last_);
    last_ = i;
    return i;
  }

  // Places [0, n_) are in use, sorted; lows_[i], highs_[i] bound
  // routes_[slot_[i]]. slot_ is always a permutation of the slots.
  U lows_[kEntries];
  U highs_[kEntries];
  uint8_t slot_[kEntries] = {};
  uint32_t leaves_[kEntries] = {};  // the leaf of routes_[slot_[i]]
  Route routes_[kEntries];
  int n_ = 0;
  uint8_t next_ = 0;  // the slot to replace next once all are in use
  int last_ = 0;       // sorted position of the last hit or addition
  int repeats_ = 0;    // hits in a row at last_, up to kRepeatsForLastTest
  int miss_streak_ = 0;
  int rest_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_LEAF_ROUTE_CACHE_H_
