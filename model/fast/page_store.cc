#include "model/fast/page_store.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

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

}  // namespace

PageStore::~PageStore() {
  if (pages_ == nullptr) return;
#ifdef __linux__
  if (mapped_) {
    munmap(pages_, MappedBytes(reserved_));
    return;
  }
#endif
  ::operator delete(pages_, std::align_val_t{alignof(IndexPage)});
}

void PageStore::Extend(uint32_t page_no) {
  const size_t want = size_t{page_no} + kGrowthPages;
  if (want > reserved_) {
    const size_t reserve = std::max(want, 2 * reserved_);
    void* grown = nullptr;
#ifdef __linux__
    if (pages_ == nullptr) {
      grown = mmap(nullptr, MappedBytes(reserve), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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
