#include "model/fast/page_store.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "model/fast/huge_pages.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace innosim {
namespace {

// Both ways of growing move descriptors as bytes.
static_assert(std::is_trivially_copyable_v<IndexPage> && std::is_trivially_destructible_v<IndexPage>);

// The x86-64 base page: mappings are made and grown in whole ones.
constexpr size_t kMapUnit = 4096;

size_t MappedBytes(size_t pages) { return (pages * sizeof(IndexPage) + kMapUnit - 1) / kMapUnit * kMapUnit; }

// Address space reserved at once for the descriptors (no memory until a
// descriptor is made): far more pages than a run allocates (a billion
// appended rows make about nine million), so the array never moves and is
// faulted in 2 MiB at a time (huge_pages.h: a new 4 KiB page costs
// microseconds on first touch on the virtual machines measured). A setting
// of the simulator; where the reservation is refused, the array grows by
// mremap as before.
constexpr size_t kReserveBytes = size_t{32} << 30;

}  // namespace

PageStore::~PageStore() {
  if (pages_ == nullptr) return;
#ifdef __linux__
  if (reservation_ != nullptr) {
    munmap(reservation_, kReserveBytes);
    return;
  }
  if (mapped_) {
    munmap(pages_, MappedBytes(reserved_));
    return;
  }
#endif
  ::operator delete(pages_, std::align_val_t{alignof(IndexPage)});
}

void PageStore::Extend(uint32_t page_no) {
  const size_t want = size_t{page_no} + kGrowthPages;
#ifdef __linux__
  if (pages_ == nullptr) {
    // The first page: the whole range reserved at once, if the system grants
    // it (a run past it fails below, as a mapping that cannot grow does).
    void* raw = mmap(nullptr, kReserveBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw != MAP_FAILED) {
      // The array starts on a huge-page boundary, so that its first 2 MiB
      // is one huge page too.
      const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
      const uintptr_t aligned = (base + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
      (void)madvise(reinterpret_cast<void*>(aligned), kReserveBytes - (aligned - base), MADV_HUGEPAGE);
      reservation_ = raw;
      pages_ = reinterpret_cast<IndexPage*>(aligned);
      reserved_ = (kReserveBytes - (aligned - base)) / sizeof(IndexPage);
      mapped_ = true;
    }
  }
#endif
  if (want > reserved_) {
    const size_t reserve = std::max(want, 2 * reserved_);
    void* grown = nullptr;
#ifdef __linux__
    if (pages_ == nullptr) {
      grown = mmap(nullptr, MappedBytes(reserve), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    } else if (reservation_ != nullptr) {
      throw std::bad_alloc();  // past the reservation: a run of billions of pages
    } else if (mapped_) {
      grown = mremap(pages_, MappedBytes(reserved_), MappedBytes(reserve), MREMAP_MAYMOVE);
    }
    if (grown == MAP_FAILED) grown = nullptr;
    if (grown != nullptr) mapped_ = true;
#endif
    if (grown == nullptr) {
      if (mapped_) throw std::bad_alloc();  // a mapping that cannot grow
      grown = ::operator new(reserve * sizeof(IndexPage), std::align_val_t{alignof(IndexPage)});
      if (pages_ != nullptr) {
        std::memcpy(grown, pages_, size_ * sizeof(IndexPage));
        ::operator delete(pages_, std::align_val_t{alignof(IndexPage)});
      }
    }
    pages_ = static_cast<IndexPage*>(grown);
    reserved_ = reserve;
  }
  for (size_t i = size_; i < want; ++i) new (&pages_[i]) IndexPage();
  size_ = want;
}

}  // namespace innosim
