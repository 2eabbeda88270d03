// Memory backed by transparent huge pages where the kernel allows them, for
// the page pool's record blocks (page_pool.h).
//
// A UUIDv4 stream touches a random leaf's records on every insert: with
// 4 KiB pages nearly each of those touches is also a TLB miss. And on the
// virtual machines measured here, the first touch of each new 4 KiB page
// costs 5-15 us in the hypervisor, faulted in or not: 300 MB took 0.4-1.1 s
// in 4 KiB pages against 0.02-0.45 s in huge pages. Regions obtained here
// are aligned to 2 MiB and marked MADV_HUGEPAGE (which helps when THP is in
// its "madvise" mode, Debian's default). Where huge pages are unavailable
// the memory is ordinary. Regions of one huge page that are given back are
// kept for the next request of the process instead of returned to the
// system, so that the runs of an experiment or sweep after the first reuse
// memory already backed: the process holds at most what its engines held at
// once. Larger regions are kept too, up to 256 MiB in all, each for a
// request of the same span (the next run's buffer-pool frames). A speed device only: no result depends on it (model/fast/README.md,
// "Record blocks").
#ifndef INNOSIM_MODEL_FAST_HUGE_PAGES_H_
#define INNOSIM_MODEL_FAST_HUGE_PAGES_H_

#include <cstddef>
#include <new>

namespace innosim {

// The x86-64 huge page size; regions of at least this size get huge pages.
// A memory setting of the simulator, not an InnoDB constant.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;
// The most a process keeps of regions larger than one huge page for reuse
// (a memory setting of the simulator): a 4 GB pool's frames take 20 MiB, an
// OPTIMIZE of 6M rows' keys 192 MiB. Beyond it regions go back to the system.
inline constexpr size_t kSpareLargeHugeBytes = size_t{256} << 20;

// `bytes` of zero-filled memory, 64-byte aligned; a region of at least
// kHugePageBytes is 2 MiB-aligned, marked for huge pages and faulted in at
// once (the pool writes all of it soon: the insert path then takes no page
// fault, with or without huge pages). Throws std::bad_alloc.
void* AllocateHuge(size_t bytes);
// Releases a region from AllocateHuge(bytes), with the same `bytes`: a
// region of one huge page is kept for reuse, a larger one while the larger
// regions kept stay within 256 MiB; others go back to the system.
void FreeHuge(void* p, size_t bytes) noexcept;
// Regions of one huge page kept for reuse (for tests and memory reports).
size_t SpareHugeRegions();
// Bytes of the larger regions kept for reuse.
size_t SpareLargeHugeBytes();

// An allocator for the large arrays the model fills at once and reads once
// (the keys an OPTIMIZE sorts, Engine::Rebuild): their memory comes from
// AllocateHuge, so it is faulted in 2 MiB at a time. Zero-filled.
template <typename T>
struct HugeAllocator {
  using value_type = T;
  HugeAllocator() = default;
  template <typename U>
  HugeAllocator(const HugeAllocator<U>&) noexcept {}  // NOLINT: rebinding converts implicitly
  T* allocate(size_t n) { return static_cast<T*>(AllocateHuge(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { FreeHuge(p, n * sizeof(T)); }
  friend bool operator==(const HugeAllocator&, const HugeAllocator&) { return true; }
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_HUGE_PAGES_H_
