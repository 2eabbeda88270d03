#include "model/fast/huge_pages.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace innosim {
namespace {

constexpr std::align_val_t kSmallAlign{64};
// The x86-64 base page: touching one byte in each faults the region in.
constexpr size_t kBasePageBytes = 4096;

// Bytes of address space a huge region of `bytes` occupies: whole huge
// pages, so that its end is aligned too and nothing else shares its last one.
size_t HugeSpan(size_t bytes) { return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes; }

// Regions of one huge page given back, kept for the next AllocateHuge of
// the process (huge_pages.h). Never destroyed: the process's own memory
// until it exits.
struct Spare {
  std::mutex mu;
  std::vector<void*> regions;
  // Larger regions given back, with their spans, and their sum: reused by
  // a request of exactly the same span (the buffer pool's frames of the
  // next run of the same pool size, an OPTIMIZE's keys of the same rows).
  std::vector<std::pair<void*, size_t>> large;
  size_t large_bytes = 0;
};
Spare& SpareRegions() {
  static Spare* spare = new Spare;
  return *spare;
}

}  // namespace

void* AllocateHuge(size_t bytes) {
#ifdef __linux__
  if (bytes >= kHugePageBytes) {
    const size_t span = HugeSpan(bytes);
    if (span == kHugePageBytes) {
      void* reused = nullptr;
      {
        Spare& spare = SpareRegions();
        std::lock_guard<std::mutex> lock(spare.mu);
        if (!spare.regions.empty()) {
          reused = spare.regions.back();
          spare.regions.pop_back();
        }
      }
      if (reused != nullptr) {
        std::memset(reused, 0, span);  // zero-filled, as a new mapping is
        return reused;
      }
    } else {
      void* reused = nullptr;
      {
        Spare& spare = SpareRegions();
        std::lock_guard<std::mutex> lock(spare.mu);
        for (size_t i = spare.large.size(); i-- > 0;) {
          if (spare.large[i].second != span) continue;
          reused = spare.large[i].first;
          spare.large_bytes -= span;
          spare.large.erase(spare.large.begin() + static_cast<ptrdiff_t>(i));
          break;
        }
      }
      if (reused != nullptr) {
        // Zeroing in place costs a few milliseconds per 20 MiB; faulting a
        // new mapping in costs the kernel's zeroing and, on the virtual
        // machines measured here, the hypervisor's first touch of each page.
        std::memset(reused, 0, span);
        return reused;
      }
    }
    // Over-allocate by one huge page, then return the unaligned head and
    // the tail beyond the aligned span to the system.
    void* raw = mmap(nullptr, span + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<char*>(raw);
    const uintptr_t aligned = (reinterpret_cast<uintptr_t>(base) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    auto* p = reinterpret_cast<char*>(aligned);
    const size_t head = static_cast<size_t>(p - base);
    if (head > 0) munmap(base, head);
    munmap(p + span, kHugePageBytes - head);  // head < kHugePageBytes
    // Advice only: without THP the region stays in 4 KiB pages.
    (void)madvise(p, span, MADV_HUGEPAGE);
    // One fault per huge page when THP applies, else one per 4 KiB page.
    for (size_t off = 0; off < span; off += kBasePageBytes) static_cast<volatile char*>(p)[off] = 0;
    return p;
  }
#endif
  void* p = ::operator new(bytes, kSmallAlign);
  std::memset(p, 0, bytes);  // zero-filled, as mapped memory is
  return p;
}

void FreeHuge(void* p, size_t bytes) noexcept {
  if (p == nullptr) return;
#ifdef __linux__
  if (bytes >= kHugePageBytes) {
    const size_t span = HugeSpan(bytes);
    {
      Spare& spare = SpareRegions();
      std::lock_guard<std::mutex> lock(spare.mu);
      try {
        if (span == kHugePageBytes) {
          spare.regions.push_back(p);
          return;
        }
        if (spare.large_bytes + span <= kSpareLargeHugeBytes) {
          spare.large.emplace_back(p, span);
          spare.large_bytes += span;
          return;
        }
      } catch (const std::bad_alloc&) {
        // No room to remember it: it goes back to the system below.
      }
    }
    munmap(p, span);
    return;
  }
#endif
  ::operator delete(p, kSmallAlign);
}

size_t SpareHugeRegions() {
#ifdef __linux__
  Spare& spare = SpareRegions();
  std::lock_guard<std::mutex> lock(spare.mu);
  return spare.regions.size();
#else
  return 0;
#endif
}

size_t SpareLargeHugeBytes() {
#ifdef __linux__
  Spare& spare = SpareRegions();
  std::lock_guard<std::mutex> lock(spare.mu);
  return spare.large_bytes;
#else
  return 0;
#endif
}

}  // namespace innosim
