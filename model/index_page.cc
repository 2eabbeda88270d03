#include "model/index_page.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"
#include "model/record_format.h"

namespace innosim {
namespace {

// Records a page can hold at most, from the space formula alone.
uint32_t MaxRecords(uint32_t page_size, uint32_t rec_size) {
  return FreeSpaceOfEmpty(page_size) / rec_size + 1;
}

// Capacity steps: blocks grow and shrink by this many records, so a page
// reallocates a handful of times in its life and wastes at most one step.
// A memory/speed setting of the simulator, not InnoDB's: no result depends
// on it.
constexpr uint32_t kCapacityStep = 32;

}  // namespace

size_t IndexPage::BlockBytes(uint32_t cap) const {
  size_t bytes = size_t{cap} * sizeof(KeyHalf) * (wide_keys_ ? 2 : 1) + size_t{OwnerBits::Words(cap)} * sizeof(uint64_t);
  if (level_ > 0) bytes += size_t{cap} * sizeof(uint32_t);
  return bytes;
}

void IndexPage::Reallocate(uint32_t cap, PagePool& pool) {
  auto* block = static_cast<std::byte*>(pool.Allocate(BlockBytes(cap)));
  // Heads first (16-byte aligned), then the tails, the owner words and the
  // children: every part stays aligned whatever cap is.
  auto* heads = reinterpret_cast<KeyHalf*>(block);
  KeyHalf* tails = wide_keys_ ? heads + cap : nullptr;
  auto* owners = reinterpret_cast<uint64_t*>(heads + size_t{cap} * (wide_keys_ ? 2 : 1));
  const uint32_t words = OwnerBits::Words(cap);
  uint32_t* children = level_ > 0 ? reinterpret_cast<uint32_t*>(owners + words) : nullptr;
  std::memset(owners, 0, sizeof(uint64_t) * words);
  if (heads_ != nullptr) {
    std::memcpy(heads, heads_, sizeof(KeyHalf) * n_recs_);
    if (tails != nullptr) std::memcpy(tails, tails_, sizeof(KeyHalf) * n_recs_);
    if (children != nullptr) std::memcpy(children, children_, sizeof(uint32_t) * n_recs_);
    std::memcpy(owners, owners_.words(), sizeof(uint64_t) * OwnerBits::Words(static_cast<uint32_t>(n_recs_)));
    pool.Free(heads_, BlockBytes(cap_));
  }
  heads_ = heads;
  tails_ = tails;
  children_ = children;
  owners_ = OwnerBits(owners);
  cap_ = cap;
}

void IndexPage::Grow(int n, PagePool& pool) {
  const uint32_t max = MaxRecords(page_size_, rec_size_);
  uint32_t cap = (static_cast<uint32_t>(n) + kCapacityStep - 1) / kCapacityStep * kCapacityStep;
  if (pool.full_blocks()) cap = max;
  cap = std::max(std::min(cap, max), static_cast<uint32_t>(n));
  Reallocate(cap, pool);
}

void IndexPage::ShrinkToFit(PagePool& pool) {
  // A hot page keeps its full block: it fills again (PagePool::full_blocks).
  if (pool.full_blocks()) return;
  const uint32_t want =
      (static_cast<uint32_t>(n_recs_) + kCapacityStep) / kCapacityStep * kCapacityStep;
  if (cap_ > want + kCapacityStep) Reallocate(want, pool);
}

void IndexPage::Compact(PagePool& pool) {
  if (heads_ == nullptr) return;
  // The smallest capacity that holds the records, widened to what fills
  // the pool's 64-byte granules it occupies anyway.
  uint32_t cap = std::max(static_cast<uint32_t>(n_recs_), uint32_t{1});
  const size_t granules = (BlockBytes(cap) + 63) / 64;
  while ((BlockBytes(cap + 1) + 63) / 64 == granules) ++cap;
  if (cap < cap_) Reallocate(cap, pool);
}

void IndexPage::Release(PagePool& pool) {
  if (heads_ != nullptr) pool.Free(heads_, BlockBytes(cap_));
  if (heap_nos_ != nullptr) pool.Free(heap_nos_, sizeof(uint16_t) * heap_cap_);
  heap_nos_ = nullptr;
  heap_cap_ = 0;
  heads_ = nullptr;
  tails_ = nullptr;
  children_ = nullptr;
  owners_ = OwnerBits();
  cap_ = 0;
  n_recs_ = 0;
  n_slots_ = 0;
  page_size_ = 0;
}

void IndexPage::Create(uint32_t page_no, uint16_t level, uint32_t rec_size, uint32_t page_size, PagePool& pool,
                       bool wide_keys, bool reclaim_heap_top) {
  Release(pool);
  wide_keys_ = wide_keys;
  reclaim_heap_top_ = reclaim_heap_top;
  page_no_ = page_no;
  prev_ = kFilNull;
  next_ = kFilNull;
  page_size_ = page_size;
  Empty(level, rec_size, pool);
}

void IndexPage::Empty(uint16_t level, uint32_t rec_size, PagePool& pool) {
  if (heads_ != nullptr && level != level_) {
    pool.Free(heads_, BlockBytes(cap_));
    heads_ = nullptr;
    tails_ = nullptr;
    children_ = nullptr;
    owners_ = OwnerBits();
    cap_ = 0;
  }
  level_ = level;
  rec_size_ = rec_size;
  n_recs_ = 0;
  n_slots_ = 0;
  // page_create_low: N_HEAP = 2, HEAP_TOP = PAGE_NEW_SUPREMUM_END, no free
  // list, no garbage, LAST_INSERT = 0, NO_DIRECTION, 2 slots owning 1 each.
  heap_top_ = kPageNewSupremumEnd;
  garbage_ = 0;
  n_heap_ = 2;
  n_free_ = 0;
  last_insert_ = -1;
  direction_ = PageDirection::kNoDirection;
  n_direction_ = 0;
  if (pool.full_blocks()) {
    const uint32_t max = MaxRecords(page_size_, rec_size_);
    if (heads_ == nullptr || cap_ < max) Reallocate(max, pool);
  } else if (heads_ == nullptr || cap_ > kCapacityStep) {
    Reallocate(kCapacityStep, pool);
  }
  n_slots_ = static_cast<uint16_t>(owners_.Layout(0, 1, OwnerBits::Words(cap_)));
}

int IndexPage::SearchLE(const Key& k) const {
  // page_cur_try_search_shortcut: a key that falls right after
  // PAGE_LAST_INSERT needs no binary search (what makes appends cheap).
  if (last_insert_ >= 0 && !RecAbove(last_insert_, k) && (last_insert_ + 1 == n_recs_ || RecAbove(last_insert_ + 1, k))) {
    return last_insert_;
  }
  // Non-leaf pages are searched with an ordinary binary search: they are the
  // ones a random key finds out of cache, and a predicted branch lets the
  // CPU load ahead where a branch-free probe would wait for every load.
  const KeyHalf head = k.head();
  auto at = static_cast<int>(std::upper_bound(heads_, heads_ + n_recs_, head) - heads_);
  // Among keys whose heads equal k's, those with greater tails are above k.
  if (tails_ != nullptr) {
    while (at > 0 && heads_[at - 1] == head && k.tail() < tails_[at - 1]) --at;
  }
  return at - 1;
}

int IndexPage::SearchInsertCursorWide(const Key& k, bool* duplicate, bool try_shortcut) const {
  if (try_shortcut && last_insert_ >= 0 && key(last_insert_) < k &&
      (last_insert_ + 1 == n_recs_ || k < key(last_insert_ + 1))) {
    *duplicate = false;
    return last_insert_;
  }
  const auto n = static_cast<uint32_t>(n_recs_);
  uint32_t at = BranchlessLowerBound(heads_, n, k.head());
  // Among keys whose heads equal k's, the tails decide.
  while (at < n && heads_[at] == k.head() && tails_[at] < k.tail()) ++at;
  *duplicate = at < n && key(static_cast<int>(at)) == k;
  return static_cast<int>(at) - 1;
}

uint32_t IndexPage::slot_n_owned(uint32_t slot) const { return owners_.NOwned(slot, static_cast<uint32_t>(n_recs_)); }

bool IndexPage::InsertAfter(int cursor, const Key& key, uint32_t child, PagePool& pool) {
  return InsertAfterInline(cursor, key, child, pool);
}

void IndexPage::CopyEndToCreated(const IndexPage& src, int from, PagePool& pool) {
  const int count = src.n_recs_ - from;
  if (count <= 0) return;
  Reserve(count, pool);
  CopyRecordsFrom(src, from, count);
  if (reclaim_heap_top_) {
    ReserveHeapNos(static_cast<uint32_t>(count), pool);
    NumberHeapInOrder(static_cast<uint32_t>(count));
  }
  n_recs_ = count;
  heap_top_ = kPageNewSupremumEnd + static_cast<uint32_t>(count) * rec_size_;
  n_heap_ = 2 + static_cast<uint32_t>(count);
  garbage_ = 0;
  n_free_ = 0;
  last_insert_ = -1;
  direction_ = PageDirection::kNoDirection;
  n_direction_ = 0;
  n_slots_ = static_cast<uint16_t>(owners_.BulkLayout(static_cast<uint32_t>(count), OwnerBits::Words(cap_)));
}

void IndexPage::AppendStartFrom(const IndexPage& src, int to, PagePool& pool) {
  if (to <= 0) return;
  if (n_recs_ == 0 && n_free_ == 0 && last_insert_ < 0) {
    AppendToEmpty(src, to, pool);
    return;
  }
  Reserve(n_recs_ + to, pool);
  for (int i = 0; i < to; ++i) {
    const bool ok = InsertAfter(n_recs_ - 1, src.key(i), src.level_ > 0 ? src.children_[i] : 0, pool);
    (void)ok;  // callers check the room first (btr_can_merge_with_page / split halves)
  }
}

void IndexPage::AppendToEmpty(const IndexPage& src, int to, PagePool& pool) {
  // What `to` appends through page_cur_insert_rec_low leave on an empty page
  // with no free records, in closed form: every record from the heap top;
  // PAGE_DIRECTION right after the second (PAGE_N_DIRECTION one less than
  // the records); and the supremum's slot growing to 9, then splitting into
  // 4 below and 5 kept, every 4 records after the 8th.
  Reserve(to, pool);
  CopyRecordsFrom(src, 0, to);
  if (reclaim_heap_top_) ReserveHeapNos(static_cast<uint32_t>(to), pool);
  AppendedToEmpty(static_cast<uint32_t>(to));
}

void IndexPage::CopyRecordsFrom(const IndexPage& src, int from, int count) {
  const auto n = static_cast<size_t>(count);
  std::memcpy(heads_, src.heads_ + from, sizeof(KeyHalf) * n);
  // A tree's pages are all wide or all narrow; a narrow source has zero tails.
  if (tails_ != nullptr) {
    if (src.tails_ != nullptr) {
      std::memcpy(tails_, src.tails_ + from, sizeof(KeyHalf) * n);
    } else {
      std::fill_n(tails_, n, KeyHalf{});
    }
  }
  if (level_ > 0) std::memcpy(children_, src.children_ + from, sizeof(uint32_t) * n);
}

void IndexPage::AppendedToEmpty(uint32_t m) {
  if (reclaim_heap_top_) NumberHeapInOrder(m);
  n_recs_ = static_cast<int>(m);
  heap_top_ += m * rec_size_;
  n_heap_ += m;
  last_insert_ = static_cast<int>(m) - 1;
  direction_ = m >= 2 ? PageDirection::kRight : PageDirection::kNoDirection;
  n_direction_ = m >= 2 ? m - 1 : 0;
  n_slots_ = static_cast<uint16_t>(owners_.AppendedLayout(m, OwnerBits::Words(cap_)));
}

void IndexPage::PrependAllFrom(const IndexPage& src, PagePool& pool) {
  Reserve(n_recs_ + src.n_recs_, pool);
  for (int i = 0; i < src.n_recs_; ++i) {
    InsertAfter(i - 1, src.key(i), src.level_ > 0 ? src.children_[i] : 0, pool);
  }
}

void IndexPage::DeleteEnd(int from, PagePool& pool) {
  if (from >= n_recs_) return;  // the supremum: nothing to delete
  if (from <= 0) {
    // Deleting every record: page_create_empty.
    Empty(level_, rec_size_, pool);
    return;
  }
  const uint32_t moved = static_cast<uint32_t>(n_recs_ - from);
  // page_delete_rec_list_end's directory: the slot that owned the first
  // deleted record now owns the survivors of its group plus the supremum
  // (which takes list position from + 1); the slots after it are dropped.
  n_slots_ = static_cast<uint16_t>(owners_.DeleteEnd(static_cast<uint32_t>(from) + 1, OwnerBits::Words(cap_)));
  if (reclaim_heap_top_) {
    // The deleted chain, in key order, becomes PAGE_FREE's head: its first
    // record is the new head, its last links to the old head. (No record
    // returns to the heap here: page_delete_rec_list_end does not call
    // page_mem_free.)
    std::memmove(heap_nos_ + heap_cap_ - n_free_ - moved, heap_nos_ + from, sizeof(uint16_t) * moved);
  }
  n_free_ += moved;
  garbage_ += moved * rec_size_;
  n_recs_ = from;
  last_insert_ = -1;
  ShrinkToFit(pool);
}

void IndexPage::DeleteRecDirectory(int pos) {
  n_slots_ = static_cast<uint16_t>(n_slots_ -
                                   owners_.DeleteRec(static_cast<uint32_t>(pos) + 1, static_cast<uint32_t>(n_recs_)));
  uint32_t heap_no = 0;
  if (reclaim_heap_top_) {
    heap_no = heap_nos_[pos];
    std::memmove(heap_nos_ + pos, heap_nos_ + pos + 1, sizeof(uint16_t) * static_cast<size_t>(n_recs_ - pos - 1));
  }
  --n_recs_;
  FreeRecordSpace(heap_no);
  last_insert_ = -1;
}

void IndexPage::FreeRecordSpace(uint32_t heap_no) {
  // MariaDB page_mem_free (page/page0cur.cc): "When deleting the last
  // record, do not add it to the PAGE_FREE list. Instead, decrement
  // PAGE_HEAP_TOP and PAGE_N_HEAP." The last record is the one whose heap
  // number is PAGE_N_HEAP - 1. Records here have one size, so nothing lies
  // between it and the heap top (no PAGE_GARBAGE to give back).
  if (reclaim_heap_top_ && heap_no == n_heap_ - 1) {
    --n_heap_;
    heap_top_ -= rec_size_;
    return;
  }
  if (reclaim_heap_top_) heap_nos_[heap_cap_ - n_free_ - 1] = static_cast<uint16_t>(heap_no);
  ++n_free_;
  garbage_ += rec_size_;
}

void IndexPage::ReserveHeapNos(uint32_t n, PagePool& pool) {
  if (n <= heap_cap_) return;
  const uint32_t max = MaxRecords(page_size_, rec_size_);
  uint32_t cap = (n + kCapacityStep - 1) / kCapacityStep * kCapacityStep;
  cap = std::max(std::min(cap, max), n);
  auto* nos = static_cast<uint16_t*>(pool.Allocate(sizeof(uint16_t) * cap));
  if (heap_nos_ != nullptr) {
    std::memcpy(nos, heap_nos_, sizeof(uint16_t) * static_cast<size_t>(n_recs_));
    std::memcpy(nos + cap - n_free_, heap_nos_ + heap_cap_ - n_free_, sizeof(uint16_t) * n_free_);
    pool.Free(heap_nos_, sizeof(uint16_t) * heap_cap_);
  }
  heap_nos_ = nos;
  heap_cap_ = cap;
}

void IndexPage::NumberHeapInOrder(uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) heap_nos_[i] = static_cast<uint16_t>(kPageHeapNoUserLow + i);
}

void IndexPage::DeleteRec(int pos) {
  const int after = n_recs_ - pos - 1;
  DeleteRecDirectory(pos);
  MoveRecords(pos, pos + 1, after);
}

void IndexPage::DeleteStart(int to, PagePool& pool) {
  if (to <= 0) return;
  if (to >= n_recs_) {
    Empty(level_, rec_size_, pool);
    return;
  }
  // page_delete_rec_list_start deletes the first record `to` times; the
  // directory goes through each step, the survivors move down once.
  uint32_t n_slots = 0;
  if (owners_.DeleteStart(static_cast<uint32_t>(to), static_cast<uint32_t>(n_recs_), OwnerBits::Words(cap_),
                          &n_slots)) {
    n_slots_ = static_cast<uint16_t>(n_slots);
    if (reclaim_heap_top_) {
      // One page_cur_delete_rec per record, first record first: whether each
      // returns to the heap depends on the ones before it. The deleted heap
      // numbers are set aside first, as PAGE_FREE may grow over the survivors'
      // old places.
      const std::vector<uint16_t> deleted(heap_nos_, heap_nos_ + to);
      std::memmove(heap_nos_, heap_nos_ + to, sizeof(uint16_t) * static_cast<size_t>(n_recs_ - to));
      n_recs_ -= to;
      for (const uint16_t heap_no : deleted) FreeRecordSpace(heap_no);
    } else {
      n_recs_ -= to;
      n_free_ += static_cast<uint32_t>(to);
      garbage_ += static_cast<uint32_t>(to) * rec_size_;
    }
    last_insert_ = -1;
  } else {
    for (int i = 0; i < to; ++i) DeleteRecDirectory(0);
  }
  MoveRecords(0, to, n_recs_);
  ShrinkToFit(pool);
}

void IndexPage::Reorganize() {
  // Copy to a temporary, page_create, re-insert every record in key order
  // (page_copy_rec_list_end_no_locks -> page_cur_insert_rec_low): a run of
  // appends onto an empty page, whose result AppendedToEmpty computes.
  const int n = n_recs_;
  heap_top_ = kPageNewSupremumEnd;
  garbage_ = 0;
  n_heap_ = 2;
  n_free_ = 0;
  AppendedToEmpty(static_cast<uint32_t>(n));
}

std::string IndexPage::Verify() const {
  const uint32_t free_space = FreeSpaceOfEmpty(page_size_);
  if (heap_top_ < kPageNewSupremumEnd) return absl::StrFormat("page %u: HEAP_TOP %u below 120", page_no_, heap_top_);
  // Byte accounting: the heap and the directory share the page without
  // overlapping; the heap is the user records plus the free ones.
  const uint32_t heap_bytes = heap_top_ - kPageNewSupremumEnd;
  if (heap_bytes != (static_cast<uint32_t>(n_recs_) + n_free_) * rec_size_) {
    return absl::StrFormat("page %u: heap %u bytes != (%d recs + %u free) x %u", page_no_, heap_bytes,
                           n_recs_, n_free_, rec_size_);
  }
  if (garbage_ != n_free_ * rec_size_) {
    return absl::StrFormat("page %u: PAGE_GARBAGE %u != %u free x %u", page_no_, garbage_, n_free_, rec_size_);
  }
  if (n_heap_ != 2 + static_cast<uint32_t>(n_recs_) + n_free_) {
    return absl::StrFormat("page %u: PAGE_N_HEAP %u != 2 + %d + %u", page_no_, n_heap_, n_recs_, n_free_);
  }
  if (heap_top_ + kPageDirSlotSize * n_slots_ + kPageDir > page_size_) {
    return absl::StrFormat("page %u: heap top %u and %u slots overflow the page", page_no_, heap_top_, n_slots_);
  }
  if (DataSize() + DirReservedSpace(static_cast<uint32_t>(n_recs_)) > free_space) {
    return absl::StrFormat("page %u: data %u exceeds the usable space", page_no_, DataSize());
  }
  const bool min_rec = level_ > 0 && prev_ == kFilNull;
  for (int i = min_rec ? 2 : 1; i < n_recs_; ++i) {
    if (!(key(i - 1) < key(i))) return absl::StrFormat("page %u: keys out of order at %d", page_no_, i);
  }
  if (last_insert_ >= n_recs_) return absl::StrFormat("page %u: PAGE_LAST_INSERT out of range", page_no_);
  if (reclaim_heap_top_ && n_heap_ > 2) {
    // The records and PAGE_FREE hold each heap number 2 .. N_HEAP - 1 once.
    std::vector<bool> seen(n_heap_, false);
    const uint32_t total = static_cast<uint32_t>(n_recs_) + n_free_;
    for (uint32_t i = 0; i < total; ++i) {
      const uint32_t h = i < static_cast<uint32_t>(n_recs_) ? heap_no(static_cast<int>(i)) : free_heap_no(i - n_recs_);
      if (h < 2 || h >= n_heap_ || seen[h]) return absl::StrFormat("page %u: heap number %u out of place", page_no_, h);
      seen[h] = true;
    }
  }
  const std::string dir = owners_.Verify(static_cast<uint32_t>(n_recs_), n_slots_, OwnerBits::Words(cap_));
  if (!dir.empty()) return absl::StrFormat("page %u: %s", page_no_, dir);
  return "";
}

}  // namespace innosim
