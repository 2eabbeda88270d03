// HotLeaves: the leaves splits made lately, while index pages take their
// record blocks at full capacity at once (PagePool::full_blocks: the inserts
// go to a few hot pages). When a new one displaces the one made longest ago,
// that page has gone cold (the keys have moved on) and its block is
// compacted to what its records need. Storage only: nothing InnoDB would see
// changes, and no result depends on it
// (tests/block_storage_equivalence_test.cc).
#ifndef INNOSIM_MODEL_FAST_HOT_LEAVES_H_
#define INNOSIM_MODEL_FAST_HOT_LEAVES_H_

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "model/fast/page_store.h"
#include "model/page_format.h"

namespace innosim {

class HotLeaves {
 public:
  // Enough for every leaf a time-ordered stream fills at once (UUIDv7 at
  // 1000 rows per ms keeps about 14 hot): a speed and memory setting of the
  // simulator, not InnoDB's.
  static constexpr int kHotLeaves = 64;

  HotLeaves() { std::fill(std::begin(leaves_), std::end(leaves_), kFilNull); }

  // A leaf a split just made. (Compacting a page that was freed meanwhile,
  // or allocated again, is harmless: a page's storage is not modelled.)
  void Made(uint32_t page_no, PageStore& store) {
    const uint32_t cold = leaves_[next_];
    if (cold != kFilNull && store.page(cold).in_use() && store.page(cold).is_leaf()) {
      store.page(cold).Compact(store.pool());
    }
    leaves_[next_] = page_no;
    next_ = (next_ + 1) % kHotLeaves;
  }

 private:
  uint32_t leaves_[kHotLeaves];
  int next_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_HOT_LEAVES_H_
