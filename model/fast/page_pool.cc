#include "model/fast/page_pool.h"

#include <cstring>
#include <new>

#include "model/fast/huge_pages.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace innosim {

void PagePool::ChunkDelete::operator()(std::byte* p) const {
  if (kind == ChunkKind::kHuge) {
    FreeHuge(p, bytes);
    return;
  }
#ifdef __linux__
  if (kind == ChunkKind::kMapped) {
    munmap(p, bytes);
    return;
  }
#endif
  ::operator delete[](p, std::align_val_t{kGranule});
}

std::unique_ptr<std::byte[], PagePool::ChunkDelete> PagePool::AllocateChunk(size_t bytes, bool huge) {
  if (huge) {
    return std::unique_ptr<std::byte[], ChunkDelete>(static_cast<std::byte*>(AllocateHuge(bytes)),
                                                     ChunkDelete{bytes, ChunkKind::kHuge});
  }
#if defined(__linux__) && defined(MAP_POPULATE)
  // One mmap that faults the whole chunk in at once: page records are then
  // written into memory that is already there, instead of taking a page
  // fault every 4 KiB on the insert path.
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p != MAP_FAILED) {
    return std::unique_ptr<std::byte[], ChunkDelete>(static_cast<std::byte*>(p), ChunkDelete{bytes, ChunkKind::kMapped});
  }
#endif
  // Zero-filled like the mapped chunks: a page's search may read the unused
  // slot after its last key (index_page.h), so no byte here is left
  // uninitialised.
  auto* mem = static_cast<std::byte*>(::operator new[](bytes, std::align_val_t{kGranule}));
  std::memset(mem, 0, bytes);
  return std::unique_ptr<std::byte[], ChunkDelete>(mem, ChunkDelete{bytes, ChunkKind::kHeap});
}

void* PagePool::Allocate(size_t bytes) {
  const size_t cls = (bytes + kGranule - 1) / kGranule;
  const size_t rounded = cls * kGranule;
  if (cls < free_lists_.size() && free_lists_[cls] != nullptr) {
    FreeBlock* b = free_lists_[cls];
    free_lists_[cls] = b->next;
    return b;
  }
  if (bump_left_ < rounded) {
    const size_t base = huge_chunks_ ? kHugePageBytes : kChunkBytes;
    const size_t chunk = rounded > base ? rounded : base;
    chunks_.push_back(AllocateChunk(chunk, huge_chunks_));
    std::byte* mem = chunks_.back().get();
    reserved_bytes_ += chunk;
    bump_ = mem;
    bump_left_ = chunk;
  }
  void* out = bump_;
  bump_ += rounded;
  bump_left_ -= rounded;
  return out;
}

void PagePool::Free(void* block, size_t bytes) {
  if (block == nullptr) return;
  const size_t cls = (bytes + kGranule - 1) / kGranule;
  if (cls >= free_lists_.size()) free_lists_.resize(cls + 1, nullptr);
  auto* b = static_cast<FreeBlock*>(block);
  b->next = free_lists_[cls];
  free_lists_[cls] = b;
}

}  // namespace innosim
