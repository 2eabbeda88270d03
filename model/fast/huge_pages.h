// Memory backed by transparent huge pages where the kernel allows them, for
// the page pool's record blocks (page_pool.h).
//
// A UUIDv4 stream touches a random leaf's records on every insert: with
// 4 KiB pages nearly each of those touches is also a TLB miss. Regions
// obtained here are aligned to 2 MiB and marked MADV_HUGEPAGE (which helps
// when THP is in its "madvise" mode, Debian's default). Where huge pages are
// unavailable the memory is ordinary. A speed device only: no result depends
// on it. (Measured: the pool's 10M-row UUIDv4 run 10-15% faster; the page
// descriptor and buffer-pool frame arrays no faster, time-ordered streams
// slower, so those stay in ordinary memory.)
#ifndef INNOSIM_MODEL_FAST_HUGE_PAGES_H_
#define INNOSIM_MODEL_FAST_HUGE_PAGES_H_

#include <cstddef>
#include <new>

namespace innosim {

// The x86-64 huge page size; regions of at least this size get huge pages.
// A memory setting of the simulator, not an InnoDB constant.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` of zero-filled memory, 64-byte aligned; a region of at least
// kHugePageBytes is 2 MiB-aligned, marked for huge pages and faulted in at
// once (the pool writes all of it soon: the insert path then takes no page
// fault, with or without huge pages). Throws std::bad_alloc.
void* AllocateHuge(size_t bytes);
// Releases a region from AllocateHuge(bytes), with the same `bytes`.
void FreeHuge(void* p, size_t bytes) noexcept;

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_HUGE_PAGES_H_
