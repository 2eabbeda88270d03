// PageStore: the index pages of one tablespace, by page number, and the
// pool their records live in.
//
// The page descriptors are one array that grows as pages are allocated.
// On Linux it lies in a large range of address space reserved at once and
// marked for huge pages, so it never moves and takes memory 2 MiB at a
// time as descriptors are made; where that reservation is refused, it is
// an anonymous mapping grown with mremap, which moves the mapping's
// page-table entries instead of copying the descriptors (a doubling
// std::vector copied the array at every growth and faulted in memory for
// both copies: at 10M UUIDv7 rows, about 2% of the run). A speed setting of
// the simulator; no result depends on it.
//
// Not thread-safe: one store per engine.
#ifndef INNOSIM_MODEL_FAST_PAGE_STORE_H_
#define INNOSIM_MODEL_FAST_PAGE_STORE_H_

#include <cstddef>
#include <cstdint>

#include "model/index_page.h"
#include "model/fast/page_pool.h"

namespace innosim {

class PageStore {
 public:
  PageStore() = default;
  PageStore(const PageStore&) = delete;
  PageStore& operator=(const PageStore&) = delete;
  ~PageStore();

  // A page that exists (was allocated).
  IndexPage& page(uint32_t page_no) { return pages_[page_no]; }
  const IndexPage& page(uint32_t page_no) const { return pages_[page_no]; }
  // Makes room for page_no (a page being allocated) and returns it: the
  // descriptors up to page_no + kGrowthPages exist from then on.
  IndexPage& Grow(uint32_t page_no) {
    if (page_no >= size_) Extend(page_no);
    return pages_[page_no];
  }
  PagePool& pool() { return pool_; }
  const PagePool& pool() const { return pool_; }
  // Descriptors that exist (for memory reports).
  size_t capacity() const { return size_; }

 private:
  // Descriptors made at once past a page that needs them (a setting of the
  // simulator, as the std::vector it replaces grew: no result depends on it).
  static constexpr size_t kGrowthPages = 1024;
  void Extend(uint32_t page_no);

  IndexPage* pages_ = nullptr;
  size_t size_ = 0;      // descriptors constructed: [0, size_)
  size_t reserved_ = 0;  // descriptors the array has room for
  bool mapped_ = false;  // the array is a mapping (else operator new)
  void* reservation_ = nullptr;  // the reserved range the array lies in, if any
  PagePool pool_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_PAGE_STORE_H_
