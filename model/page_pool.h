// PagePool: memory for the record arrays of index pages.
//
// A page keeps its records' keys (and, on non-leaf pages, child page
// numbers) in one block sized to what the page holds, not to what a page
// could hold: a half-full frozen page then costs half the memory. Blocks come
// in size classes of 64 bytes, carved from 1 MiB chunks and recycled through
// per-class free lists, so steady-state inserts never call the system
// allocator; a page grows or shrinks its block only a few times in its life.
//
// Not thread-safe: one pool per engine.
#ifndef INNOSIM_MODEL_PAGE_POOL_H_
#define INNOSIM_MODEL_PAGE_POOL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace innosim {

class PagePool {
 public:
  PagePool() = default;
  PagePool(const PagePool&) = delete;
  PagePool& operator=(const PagePool&) = delete;

  // Returns a 64-byte aligned block of at least `bytes` bytes.
  void* Allocate(size_t bytes);
  // Returns a block obtained from Allocate(bytes) with the same `bytes`.
  void Free(void* block, size_t bytes);

  // Bytes obtained from the system (chunks), for memory reports.
  size_t reserved_bytes() const { return reserved_bytes_; }

 private:
  static constexpr size_t kGranule = 64;
  static constexpr size_t kChunkBytes = size_t{1} << 20;

  struct FreeBlock {
    FreeBlock* next;
  };
  // Chunks come from the system already backed by memory (see
  // AllocateChunk); the deleter knows how each was obtained.
  struct ChunkDelete {
    size_t bytes = 0;
    bool mapped = false;
    void operator()(std::byte* p) const;
  };
  static std::unique_ptr<std::byte[], ChunkDelete> AllocateChunk(size_t bytes);

  std::vector<FreeBlock*> free_lists_;  // index: size class (bytes / 64)
  std::vector<std::unique_ptr<std::byte[], ChunkDelete>> chunks_;
  std::byte* bump_ = nullptr;
  size_t bump_left_ = 0;
  size_t reserved_bytes_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_PAGE_POOL_H_
