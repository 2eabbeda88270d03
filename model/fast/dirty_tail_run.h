// DirtyTailRun: how many pages at the LRU tail are known to be dirty, so
// that a user thread's scan for a clean page (buf_LRU_free_from_common_LRU_
// list, BufferPool::GetFreeFrame) does not walk them again.
//
// With random keys in a pool smaller than the table nearly every page is
// dirty, and the scan walks its full BUF_LRU_SEARCH_SCAN_THRESHOLD (100)
// pages from the tail for every page read, finds nothing and falls back to
// a single-page flush of the tail. The run holds the first `length` pages
// from the tail, all dirty, each marked by kInRun in its byte of the
// pool's dirty array, and `edge`, the youngest of them. The pool keeps it
// true: a page of the run leaving the LRU list shortens it (Leave, before
// the page is unlinked), a page of the run written while it stays on the
// list ends it (Clear), a page inserted into the list among its pages
// ends it (the midpoint insertion below LRU_old when the old sublist is
// no longer than the run). The scan then starts past the edge and extends
// the run while it meets dirty pages. A speed device: the scan's answer is
// the same (tests/dirty_tail_run_equivalence_test.cc; BufferPool::Verify
// checks the run).
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_FAST_DIRTY_TAIL_RUN_H_
#define INNOSIM_MODEL_FAST_DIRTY_TAIL_RUN_H_

#include <cstdint>
#include <vector>

namespace innosim {

class DirtyTailRun {
 public:
  // The bit a page of the run carries in the pool's dirty byte (bit 0 is
  // the dirty flag itself, so a byte of 0 still means clean).
  static constexpr uint8_t kInRun = 2;

  explicit DirtyTailRun(bool on = true) : on_(on) {}

  bool on() const { return on_; }
  uint64_t length() const { return length_; }
  int32_t edge() const { return edge_; }

  // Page f (of the run) leaves the LRU list; `older` is its neighbour
  // toward the tail (-1 at the tail). The rest of the run is still the
  // pages next to the tail.
  void Leave(int32_t f, int32_t older, std::vector<uint8_t>& dirty) {
    dirty[f] &= static_cast<uint8_t>(~kInRun);
    --length_;
    if (f == edge_) edge_ = length_ == 0 ? -1 : older;
  }

  // The run is no longer known: its marks are cleared, walking it from
  // the tail.
  void Clear(int32_t tail, const std::vector<int32_t>& lru_prev, std::vector<uint8_t>& dirty) {
    int32_t g = tail;
    for (uint64_t i = 0; i < length_ && g >= 0; ++i, g = lru_prev[g]) dirty[g] &= static_cast<uint8_t>(~kInRun);
    length_ = 0;
    edge_ = -1;
  }

  // Page g, the next page past the run toward the head, is dirty: it joins.
  void Extend(int32_t g, std::vector<uint8_t>& dirty) {
    dirty[g] |= kInRun;
    edge_ = g;
    ++length_;
  }

 private:
  bool on_;
  uint64_t length_ = 0;
  int32_t edge_ = -1;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_DIRTY_TAIL_RUN_H_
