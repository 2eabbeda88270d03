// FastPath: the speed devices of one B-tree's insert path, behind the seams
// BTree calls at defined points. No result depends on any of them: every
// device can be switched off (Devices), and tests/*_equivalence_test.cc
// check that the tree, its counters and every page event are the same
// without it. model/fast/README.md says what each buys, measured.
//
// The seams, in the order of an insert (btree.cc):
//   1. find a leaf: FindLeaf(k) gives the route a descent for k would take
//      (root first), or asks the tree to descend, remembering the route
//      (Remember) when the route cache wants it;
//   2. search the leaf: TryShortcutFirst(), then CursorFound();
//   3. a pessimistic insert changes the tree's shape: BeginShapeChange(),
//      then the structural events as they happen (PageAllocated,
//      PageFreed, RightSiblingInsert, LeafSplit), then EndShapeChange(leaf),
//      which repairs or drops the remembered routes;
//   4. Announce(k): a key the caller will insert two rows from now.
//
// Not thread-safe: one per BTree.
#ifndef INNOSIM_MODEL_FAST_FAST_PATH_H_
#define INNOSIM_MODEL_FAST_FAST_PATH_H_

#include <cstdint>

#include "model/fast/hot_leaves.h"
#include "model/fast/leaf_route_cache.h"
#include "model/fast/page_store.h"
#include "model/fast/route_lookahead.h"
#include "model/fast/shortcut_streak.h"
#include "model/key.h"
#include "model/page_events.h"

namespace innosim {

class FastPath {
 public:
  // Which devices are on (all by default).
  struct Devices {
    bool route_cache = true;      // leaf_route_cache.h
    bool lookahead = true;        // route_lookahead.h (needs the route cache)
    bool shortcut_streak = true;  // shortcut_streak.h
    bool full_blocks = true;      // page_pool.h's full blocks + hot_leaves.h (needs the route cache)
    bool huge_chunks = true;      // page_pool.h's huge-page chunks
  };

  FastPath(PageStore* store, PageEventSink* sink, uint32_t space_id)
      : store_(store), sink_(sink), space_id_(space_id) {}

  void set_devices(const Devices& d) {
    devices_ = d;
    routes_.Clear();
    streak_.set_enabled(d.shortcut_streak);
    store_->pool().set_huge_chunks(d.huge_chunks);
  }
  const Devices& devices() const { return devices_; }
  // Inserts whose leaf came from an announced walk (speed statistics).
  uint64_t lookahead_taken() const { return lookahead_.taken(); }
  // Leaves found through the route cache (speed statistics).
  uint64_t route_hits() const { return route_hits_; }

  // --- Seam 1: find a leaf ---
  // A known route to k's leaf (pages root first), or a request to descend.
  struct Found {
    const uint32_t* pages = nullptr;  // nullptr: descend
    int height = 0;
    uint32_t leaf = kFilNull;
    bool remember = false;  // descend recording the route, then Remember it
  };
  Found FindLeaf(const Key& k) {
    Found f;
    if (!lookahead_.empty()) {
      if (const RouteLookahead::Walk* w = lookahead_.Take(k, shape_changes_); w != nullptr) {
        f.pages = w->pages;
        f.height = w->height;
        f.leaf = w->pages[w->height - 1];
        store_->page(f.leaf).PrefetchKeys();  // as the descent does
        return f;
      }
    }
    if (!devices_.route_cache || !routes_.Active()) return f;
    if (const int place = routes_.Find(k); place >= 0) {
      const LeafRouteCache::Route& r = routes_.route(place);
      f.pages = r.pages;
      f.height = r.height;
      f.leaf = routes_.leaf(place);
      ++route_hits_;
      return f;
    }
    f.remember = true;
    return f;
  }
  // The route a descent found for a key FindLeaf asked to remember.
  void Remember(const LeafRouteCache::Route& r) {
    routes_.Add(r);
  }

  // --- Seam 2: search the leaf ---
  bool TryShortcutFirst() const { return streak_.TryShortcutFirst(); }
  void CursorFound(bool at_last_insert) { streak_.CursorFound(at_last_insert); }

  // --- Seam 3: the tree changes shape ---
  void BeginShapeChange() {
    ++shape_changes_;
    // Page blocks: full at once while the route cache finds the leaves (the
    // inserts go to a few hot pages), by steps while keys scatter.
    store_->pool().set_full_blocks(devices_.full_blocks && devices_.route_cache && !routes_.resting());
    change_ = ShapeChange{};
  }
  void PageAllocated() { ++change_.allocated; }
  void PageFreed() { ++change_.freed; }
  void RightSiblingInsert() { ++change_.right_sibling; }
  // Leaf `page` split into `lower` and `upper` (one of them `page`); the
  // parent is given a node pointer to `upper` with key `separator`.
  void LeafSplit(uint32_t page, uint32_t lower, uint32_t upper, const Key& separator) {
    change_.split = page;
    change_.lower = lower;
    change_.upper = upper;
    change_.separator = separator;
    if (store_->pool().full_blocks()) hot_.Made(page == lower ? upper : lower, *store_);
  }
  // The pessimistic insert into `leaf` is done. A split of this leaf alone
  // (one page allocated, no sibling shortcut, nothing freed) changed only
  // its parent, by one node pointer inside the leaf's own key range: only
  // the leaf's route is stale. Anything else (a parent split, a root raise,
  // a node pointer moved or merged) may have changed any route.
  void EndShapeChange(uint32_t leaf) {
    const bool leaf_split_only = change_.allocated == 1 && change_.right_sibling == 0 && change_.freed == 0;
    if (leaf_split_only && change_.split == leaf) {
      routes_.Split(leaf, change_.separator, change_.lower, change_.upper);
    } else if (leaf_split_only) {
      routes_.Forget(leaf);
    } else {
      routes_.Clear();
    }
  }

  // --- Seam 4: a key two inserts from now ---
  // Inline: on keys that do not scatter it is one test per row.
  void Announce(const Key& k, uint32_t root) {
    if (devices_.lookahead && devices_.route_cache && routes_.resting()) {
      lookahead_.Announce(k, root, shape_changes_, *store_, sink_, space_id_);
    }
  }

 private:
  // What the current pessimistic insert did to the tree's shape.
  struct ShapeChange {
    uint32_t allocated = 0;
    uint32_t freed = 0;
    uint32_t right_sibling = 0;
    uint32_t split = kFilNull;  // the last leaf that split
    uint32_t lower = kFilNull;
    uint32_t upper = kFilNull;
    Key separator;
  };

  PageStore* store_;
  PageEventSink* sink_;
  uint32_t space_id_;
  Devices devices_;
  LeafRouteCache routes_;
  RouteLookahead lookahead_;
  ShortcutStreak streak_;
  HotLeaves hot_;
  // Pessimistic inserts so far: anything that may move a key to another
  // leaf or change a non-leaf page goes through one.
  uint64_t shape_changes_ = 0;
  uint64_t route_hits_ = 0;
  ShapeChange change_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_FAST_PATH_H_
