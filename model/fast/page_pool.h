// PagePool: memory for the record arrays of index pages.
//
// A page keeps its records' keys (and, on non-leaf pages, child page
// numbers) in one block sized to what the page holds, not to what a page
// could hold: a half-full frozen page then costs half the memory. Blocks come
// in size classes of 64 bytes, carved from chunks and recycled through
// per-class free lists, so steady-state inserts never call the system
// allocator; a page grows or shrinks its block only a few times in its life.
// Chunks are 2 MiB huge-page regions (huge_pages.h) unless told otherwise
// (set_huge_chunks(false), FastPath::Devices::huge_chunks): random inserts
// touch blocks all over the pool, and each touch of a 4 KiB page would be a
// TLB miss; and on the virtual machines measured here every new 4 KiB page
// costs microseconds in the hypervisor on its first touch, which huge pages
// pay once per 2 MiB, and regions reused from an earlier engine of the
// process not at all. (Measured: a 10M-row UUIDv4 run 10-15% faster; seed
// 004's experiment 18.6-18.9 s of CPU against 22.8-23.1 s, a 10M-row
// autoinc run 0.72-0.74 s against 0.95-0.99 s, before regions were reused.)
//
// Every byte a block can hold is initialised: chunks come zero-filled.
//
// Not thread-safe: one pool per engine.
#ifndef INNOSIM_MODEL_FAST_PAGE_POOL_H_
#define INNOSIM_MODEL_FAST_PAGE_POOL_H_

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

  // Whether chunks obtained from now on are huge-page regions (the
  // default) or ordinary mapped memory.
  void set_huge_chunks(bool on) { huge_chunks_ = on; }
  bool huge_chunks() const { return huge_chunks_; }
  // How index pages size their blocks (index_page.h): by steps as they
  // fill (the default), or, while the inserts go to a few hot pages, at a
  // page's full capacity at once, the tree compacting each page when it
  // has gone cold (btree.h).
  void set_full_blocks(bool on) { full_blocks_ = on; }
  bool full_blocks() const { return full_blocks_; }

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
  enum class ChunkKind : uint8_t { kHeap, kMapped, kHuge };
  struct ChunkDelete {
    size_t bytes = 0;
    ChunkKind kind = ChunkKind::kHeap;
    void operator()(std::byte* p) const;
  };
  static std::unique_ptr<std::byte[], ChunkDelete> AllocateChunk(size_t bytes, bool huge);

  std::vector<FreeBlock*> free_lists_;  // index: size class (bytes / 64)
  std::vector<std::unique_ptr<std::byte[], ChunkDelete>> chunks_;
  std::byte* bump_ = nullptr;
  size_t bump_left_ = 0;
  size_t reserved_bytes_ = 0;
  bool huge_chunks_ = true;
  bool full_blocks_ = false;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_PAGE_POOL_H_
