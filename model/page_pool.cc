#include "model/page_pool.h"

#include <new>

namespace innosim {

void PagePool::AlignedDelete::operator()(std::byte* p) const {
  ::operator delete[](p, std::align_val_t{kGranule});
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
    const size_t chunk = rounded > kChunkBytes ? rounded : kChunkBytes;
    auto* mem = static_cast<std::byte*>(::operator new[](chunk, std::align_val_t{kGranule}));
    chunks_.emplace_back(mem);
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
