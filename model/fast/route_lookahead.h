// RouteLookahead: the leaf routes of keys announced a few inserts before
// they are inserted (Engine::PrefetchRow), found early so that the cache
// misses of a random leaf overlap the work of the rows before it.
//
// Announce(k) walks the tree from the root to k's leaf without fixing any
// page, prefetches the leaf into the CPU cache and asks the page-event sink
// to prefetch its buffer-pool frame; Take(k), at k's insert, hands the walk
// back if the tree has not changed shape since (a shape counter the owner
// advances at every pessimistic insert). The route taken is the route a
// descent would take: the owner fixes its pages in the same order. A speed
// device of the simulator; no result depends on it
// (tests/route_lookahead_equivalence_test.cc).
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_FAST_ROUTE_LOOKAHEAD_H_
#define INNOSIM_MODEL_FAST_ROUTE_LOOKAHEAD_H_

#include <algorithm>
#include <cstdint>

#include "model/fast/leaf_route_cache.h"
#include "model/fast/page_store.h"
#include "model/index_page.h"
#include "model/key.h"
#include "model/page_events.h"

namespace innosim {

class RouteLookahead {
 public:
  // The key being inserted and the three announced after it (a speed
  // setting of the simulator, not InnoDB's; no result depends on it).
  static constexpr int kAhead = 4;

  struct Walk {
    Key key;
    uint64_t shape = 0;  // the owner's shape counter when found
    uint32_t pages[LeafRouteCache::kMaxHeight];
    int height = 0;
  };

  bool empty() const { return n_ == 0; }
  uint64_t taken() const { return taken_; }

  // Walks from `root` to the leaf for `key` through `store`'s pages, fixing
  // nothing; the walk found on the previous call is an insert nearer now,
  // so its leaf's keys are fetched too. The oldest walk gives way when all
  // kAhead are in use.
  void Announce(const Key& key, uint32_t root, uint64_t shape, const PageStore& store, PageEventSink* sink,
                uint32_t space_id) {
    if (n_ > 0) {
      const Walk& prev = walks_[(first_ + n_ - 1) % kAhead];
      const uint32_t prev_leaf = prev.pages[prev.height - 1];
      // The frame first: one line, asked for before the key array's lines
      // take the CPU's outstanding-miss slots.
      if (sink != nullptr) sink->OnPageSoon(space_id, prev_leaf, 1);
      store.page(prev_leaf).PrefetchKeys();
    }
    if (n_ == kAhead) {
      first_ = (first_ + 1) % kAhead;
      --n_;
    }
    Walk& a = walks_[(first_ + n_) % kAhead];
    a.key = key;
    a.shape = shape;
    a.height = 0;
    // BTree::SearchToLevel(key, 0) without fixing anything. The child of a
    // level-1 page is the leaf: its descriptor is not read here (it is the
    // walk's one cold page, fetched below without waiting for it).
    uint32_t page_no = root;
    for (;;) {
      if (a.height == LeafRouteCache::kMaxHeight) return;  // too tall: no hint
      a.pages[a.height++] = page_no;
      const IndexPage& p = store.page(page_no);
      if (p.is_leaf()) break;
      page_no = p.child(std::max(p.SearchLE(key), 0));
      if (p.level() == 1) {
        if (a.height == LeafRouteCache::kMaxHeight) return;
        a.pages[a.height++] = page_no;
        break;
      }
    }
    const char* leaf = reinterpret_cast<const char*>(&store.page(page_no));
    __builtin_prefetch(leaf);
    __builtin_prefetch(leaf + sizeof(IndexPage) - 1);
    if (sink != nullptr) sink->OnPageSoon(space_id, page_no, 0);
    ++n_;
  }

  // The walk announced for k if the shape counter still is `shape`, else
  // nullptr; walks announced before k's are dropped either way.
  const Walk* Take(const Key& k, uint64_t shape) {
    for (int i = 0; i < n_; ++i) {
      const Walk& a = walks_[(first_ + i) % kAhead];
      if (a.key != k) continue;
      first_ = (first_ + i + 1) % kAhead;
      n_ -= i + 1;
      if (a.shape != shape) return nullptr;
      ++taken_;
      return &a;
    }
    return nullptr;
  }

 private:
  // walks_[first_ .. first_ + n_) (mod kAhead), oldest first.
  Walk walks_[kAhead];
  int first_ = 0;
  int n_ = 0;
  uint64_t taken_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_ROUTE_LOOKAHEAD_H_
