#include "model/index_page.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"

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
  size_t bytes = size_t{cap} * sizeof(Key);
  if (level_ > 0) bytes += size_t{cap} * sizeof(uint32_t);
  bytes += SlotCapacity(cap);
  return bytes;
}

void IndexPage::Reallocate(uint32_t cap, PagePool& pool) {
  auto* block = static_cast<std::byte*>(pool.Allocate(BlockBytes(cap)));
  auto* keys = reinterpret_cast<Key*>(block);
  uint32_t* children = nullptr;
  std::byte* after = block + size_t{cap} * sizeof(Key);
  if (level_ > 0) {
    children = reinterpret_cast<uint32_t*>(after);
    after += size_t{cap} * sizeof(uint32_t);
  }
  auto* slots = reinterpret_cast<uint8_t*>(after);
  if (keys_ != nullptr) {
    std::memcpy(keys, keys_, sizeof(Key) * n_recs_);
    if (children != nullptr) std::memcpy(children, children_, sizeof(uint32_t) * n_recs_);
    std::memcpy(slots, slots_, n_slots_);
    pool.Free(keys_, BlockBytes(cap_));
  }
  keys_ = keys;
  children_ = children;
  slots_ = slots;
  cap_ = cap;
}

void IndexPage::Reserve(int n, PagePool& pool) {
  if (static_cast<uint32_t>(n) <= cap_) return;
  const uint32_t max = MaxRecords(page_size_, rec_size_);
  uint32_t cap = (static_cast<uint32_t>(n) + kCapacityStep - 1) / kCapacityStep * kCapacityStep;
  cap = std::max(std::min(cap, max), static_cast<uint32_t>(n));
  Reallocate(cap, pool);
}

void IndexPage::ShrinkToFit(PagePool& pool) {
  const uint32_t want =
      (static_cast<uint32_t>(n_recs_) + kCapacityStep) / kCapacityStep * kCapacityStep;
  if (cap_ > want + kCapacityStep) Reallocate(want, pool);
}

void IndexPage::Release(PagePool& pool) {
  if (keys_ != nullptr) pool.Free(keys_, BlockBytes(cap_));
  keys_ = nullptr;
  children_ = nullptr;
  slots_ = nullptr;
  cap_ = 0;
  n_recs_ = 0;
  n_slots_ = 0;
  page_size_ = 0;
}

void IndexPage::Create(uint32_t page_no, uint16_t level, uint32_t rec_size, uint32_t page_size,
                       PagePool& pool) {
  Release(pool);
  page_no_ = page_no;
  prev_ = kFilNull;
  next_ = kFilNull;
  page_size_ = page_size;
  Empty(level, rec_size, pool);
}

void IndexPage::Empty(uint16_t level, uint32_t rec_size, PagePool& pool) {
  if (keys_ != nullptr && level != level_) {
    pool.Free(keys_, BlockBytes(cap_));
    keys_ = nullptr;
    children_ = nullptr;
    slots_ = nullptr;
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
  if (keys_ == nullptr || cap_ > kCapacityStep) Reallocate(kCapacityStep, pool);
  n_slots_ = 2;
  slots_[0] = 1;
  slots_[1] = 1;
}

int IndexPage::SearchLE(const Key& k) const {
  // page_cur_try_search_shortcut: a key that falls right after
  // PAGE_LAST_INSERT needs no binary search (what makes appends cheap).
  if (last_insert_ >= 0 && !(k < keys_[last_insert_]) &&
      (last_insert_ + 1 == n_recs_ || k < keys_[last_insert_ + 1])) {
    return last_insert_;
  }
  // Non-leaf pages are searched with an ordinary binary search: they are the
  // ones a random key finds out of cache, and a predicted branch lets the
  // CPU load ahead where a branch-free probe would wait for every load.
  const Key* begin = keys_;
  return static_cast<int>(std::upper_bound(begin, begin + n_recs_, k) - begin) - 1;
}

uint32_t IndexPage::OwnerSlot(uint32_t list_pos, uint32_t* owned_before) const {
  // Walk from the nearer end of the directory: appends own to the last slot.
  const uint32_t total = static_cast<uint32_t>(n_recs_) + 2;
  if (list_pos * 2 >= total) {
    uint32_t cum = total;
    for (uint32_t s = n_slots_; s-- > 0;) {
      cum -= slots_[s];
      if (list_pos >= cum) {
        *owned_before = cum;
        return s;
      }
    }
  }
  uint32_t cum = 0;
  for (uint32_t s = 0; s < n_slots_; ++s) {
    if (list_pos < cum + slots_[s]) {
      *owned_before = cum;
      return s;
    }
    cum += slots_[s];
  }
  *owned_before = cum - slots_[n_slots_ - 1];
  return n_slots_ - 1;
}

void IndexPage::InsertSlot(uint32_t at, uint8_t n_owned) {
  std::memmove(slots_ + at + 1, slots_ + at, n_slots_ - at);
  slots_[at] = n_owned;
  ++n_slots_;
}

void IndexPage::EraseSlot(uint32_t at) {
  std::memmove(slots_ + at, slots_ + at + 1, n_slots_ - at - 1);
  --n_slots_;
}

void IndexPage::UpdateDirection(int pos) {
  // page_cur_insert_rec_low step 3, with the cursor record at pos - 1 and
  // the new record's successor at old ordinal pos.
  if (last_insert_ < 0) {
    direction_ = PageDirection::kNoDirection;
    n_direction_ = 0;
  } else if (last_insert_ == pos - 1 && direction_ != PageDirection::kLeft) {
    direction_ = PageDirection::kRight;
    ++n_direction_;
  } else if (last_insert_ == pos && direction_ != PageDirection::kRight) {
    direction_ = PageDirection::kLeft;
    ++n_direction_;
  } else {
    direction_ = PageDirection::kNoDirection;
    n_direction_ = 0;
  }
  last_insert_ = pos;
}

bool IndexPage::InsertAfter(int cursor, const Key& key, uint32_t child, PagePool& pool) {
  // Step 1: the head of PAGE_FREE if it is large enough (every record here
  // has the same size, so any free record is), else page_mem_alloc_heap.
  if (n_free_ > 0) {
    --n_free_;
    garbage_ -= rec_size_;
  } else if (MaxInsertSize(1) >= rec_size_) {
    heap_top_ += rec_size_;
    ++n_heap_;
  } else {
    return false;
  }
  Reserve(n_recs_ + 1, pool);
  const int pos = cursor + 1;
  if (pos < n_recs_) {  // an append (the common case of ordered keys) moves nothing
    std::memmove(keys_ + pos + 1, keys_ + pos, sizeof(Key) * (n_recs_ - pos));
    if (level_ > 0) std::memmove(children_ + pos + 1, children_ + pos, sizeof(uint32_t) * (n_recs_ - pos));
  }
  keys_[pos] = key;
  if (level_ > 0) children_[pos] = child;
  UpdateDirection(pos);
  // Steps 7-8: the owner of the new record is the owner of its successor
  // (list position pos + 1 before the insert); split its slot at 9.
  uint32_t before = 0;
  const uint32_t slot = OwnerSlot(static_cast<uint32_t>(pos) + 1, &before);
  ++n_recs_;
  if (++slots_[slot] > kDirSlotMaxNOwned) {
    // page_dir_split_slot: a new slot below owns n/2, the old one the rest.
    const uint8_t n_owned = slots_[slot];
    slots_[slot] = static_cast<uint8_t>(n_owned - n_owned / 2);
    InsertSlot(slot, static_cast<uint8_t>(n_owned / 2));
  }
  return true;
}

void IndexPage::SetDirectory(uint32_t n_fours, uint32_t last_owned) {
  n_slots_ = static_cast<uint16_t>(2 + n_fours);
  slots_[0] = 1;
  for (uint32_t s = 1; s <= n_fours; ++s) slots_[s] = 4;
  slots_[n_slots_ - 1] = static_cast<uint8_t>(last_owned);
}

void IndexPage::BulkDirectory() {
  // page_copy_rec_list_end_to_created_page: a slot on every 4th record; the
  // last intermediate slot is merged into the supremum's when the remainder
  // plus the supremum plus 4 fits in 8 records.
  const uint32_t n = static_cast<uint32_t>(n_recs_);
  uint32_t slot_index = n / 4;
  uint32_t count = n % 4;
  if (slot_index > 0 && count + 1 + (kDirSlotMaxNOwned + 1) / 2 <= kDirSlotMaxNOwned) {
    count += (kDirSlotMaxNOwned + 1) / 2;
    --slot_index;
  }
  SetDirectory(slot_index, count + 1);
}

void IndexPage::CopyEndToCreated(const IndexPage& src, int from, PagePool& pool) {
  const int count = src.n_recs_ - from;
  if (count <= 0) return;
  Reserve(count, pool);
  std::memcpy(keys_, src.keys_ + from, sizeof(Key) * count);
  if (level_ > 0) std::memcpy(children_, src.children_ + from, sizeof(uint32_t) * count);
  n_recs_ = count;
  heap_top_ = kPageNewSupremumEnd + static_cast<uint32_t>(count) * rec_size_;
  n_heap_ = 2 + static_cast<uint32_t>(count);
  garbage_ = 0;
  n_free_ = 0;
  last_insert_ = -1;
  direction_ = PageDirection::kNoDirection;
  n_direction_ = 0;
  BulkDirectory();
}

void IndexPage::AppendStartFrom(const IndexPage& src, int to, PagePool& pool) {
  if (to <= 0) return;
  if (n_recs_ == 0 && n_free_ == 0 && last_insert_ < 0) {
    AppendToEmpty(src, to, pool);
    return;
  }
  Reserve(n_recs_ + to, pool);
  for (int i = 0; i < to; ++i) {
    const bool ok = InsertAfter(n_recs_ - 1, src.keys_[i], src.level_ > 0 ? src.children_[i] : 0, pool);
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
  const auto m = static_cast<uint32_t>(to);
  std::memcpy(keys_, src.keys_, sizeof(Key) * m);
  if (level_ > 0) std::memcpy(children_, src.children_, sizeof(uint32_t) * m);
  n_recs_ = to;
  heap_top_ += m * rec_size_;
  n_heap_ += m;
  last_insert_ = to - 1;
  direction_ = m >= 2 ? PageDirection::kRight : PageDirection::kNoDirection;
  n_direction_ = m >= 2 ? m - 1 : 0;
  const uint32_t splits = m >= kDirSlotMaxNOwned ? (m - kDirSlotMaxNOwned) / 4 + 1 : 0;
  SetDirectory(splits, m + 1 - 4 * splits);
}

void IndexPage::PrependAllFrom(const IndexPage& src, PagePool& pool) {
  Reserve(n_recs_ + src.n_recs_, pool);
  for (int i = 0; i < src.n_recs_; ++i) {
    InsertAfter(i - 1, src.keys_[i], src.level_ > 0 ? src.children_[i] : 0, pool);
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
  uint32_t before = 0;
  const uint32_t slot = OwnerSlot(static_cast<uint32_t>(from) + 1, &before);
  // The slot that owned the first deleted record now owns the survivors of
  // its group plus the supremum; the slots after it are dropped.
  slots_[slot] = static_cast<uint8_t>(static_cast<uint32_t>(from) + 2 - before);
  n_slots_ = static_cast<uint16_t>(slot + 1);
  n_free_ += moved;
  garbage_ += moved * rec_size_;
  n_recs_ = from;
  last_insert_ = -1;
  ShrinkToFit(pool);
}

void IndexPage::DeleteRecDirectory(int pos) {
  uint32_t before = 0;
  // The first record is always owned by slot 1: slot 0 owns the infimum.
  const uint32_t slot = pos == 0 ? 1 : OwnerSlot(static_cast<uint32_t>(pos) + 1, &before);
  const uint8_t old_owned = slots_[slot];
  --slots_[slot];
  --n_recs_;
  ++n_free_;
  garbage_ += rec_size_;
  last_insert_ = -1;
  if (old_owned <= kDirSlotMinNOwned && slot + 1 < n_slots_) {
    // page_dir_balance_slot: borrow from the upper neighbour or merge into it.
    if (slots_[slot + 1] > kDirSlotMinNOwned) {
      ++slots_[slot];
      --slots_[slot + 1];
    } else {
      slots_[slot + 1] = static_cast<uint8_t>(slots_[slot + 1] + slots_[slot]);
      EraseSlot(slot);
    }
  }
}

void IndexPage::DeleteRec(int pos, PagePool& pool) {
  const int after = n_recs_ - pos - 1;
  DeleteRecDirectory(pos);
  std::memmove(keys_ + pos, keys_ + pos + 1, sizeof(Key) * after);
  if (level_ > 0) std::memmove(children_ + pos, children_ + pos + 1, sizeof(uint32_t) * after);
  (void)pool;
}

void IndexPage::DeleteStart(int to, PagePool& pool) {
  if (to <= 0) return;
  if (to >= n_recs_) {
    Empty(level_, rec_size_, pool);
    return;
  }
  // page_delete_rec_list_start deletes the first record `to` times; the
  // directory goes through each step, the survivors move down once.
  for (int i = 0; i < to; ++i) DeleteRecDirectory(0);
  std::memmove(keys_, keys_ + to, sizeof(Key) * n_recs_);
  if (level_ > 0) std::memmove(children_, children_ + to, sizeof(uint32_t) * n_recs_);
  ShrinkToFit(pool);
}

void IndexPage::Reorganize(PagePool& pool) {
  // Copy to a temporary, page_create, re-insert every record in key order
  // (page_copy_rec_list_end_no_locks -> page_cur_insert_rec_low).
  const int n = n_recs_;
  heap_top_ = kPageNewSupremumEnd;
  garbage_ = 0;
  n_heap_ = 2;
  n_free_ = 0;
  last_insert_ = -1;
  direction_ = PageDirection::kNoDirection;
  n_direction_ = 0;
  n_slots_ = 2;
  slots_[0] = 1;
  slots_[1] = 1;
  n_recs_ = 0;
  for (int i = 0; i < n; ++i) {
    heap_top_ += rec_size_;
    ++n_heap_;
    UpdateDirection(i);
    ++n_recs_;
    if (++slots_[n_slots_ - 1] > kDirSlotMaxNOwned) {
      const uint8_t n_owned = slots_[n_slots_ - 1];
      slots_[n_slots_ - 1] = static_cast<uint8_t>(n_owned - n_owned / 2);
      InsertSlot(n_slots_ - 1, static_cast<uint8_t>(n_owned / 2));
    }
  }
  (void)pool;
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
    if (!(keys_[i - 1] < keys_[i])) return absl::StrFormat("page %u: keys out of order at %d", page_no_, i);
  }
  if (last_insert_ >= n_recs_) return absl::StrFormat("page %u: PAGE_LAST_INSERT out of range", page_no_);
  // Directory: infimum owns 1, the supremum 1..8, the others 4..8; together
  // they own every record.
  if (n_slots_ < 2) return absl::StrFormat("page %u: %u directory slots", page_no_, n_slots_);
  uint32_t total = 0;
  for (uint32_t s = 0; s < n_slots_; ++s) {
    const uint32_t o = slots_[s];
    total += o;
    const bool ok = s == 0 ? o == 1
                    : s + 1 == n_slots_ ? (o >= 1 && o <= kDirSlotMaxNOwned)
                                         : (o >= kDirSlotMinNOwned && o <= kDirSlotMaxNOwned);
    if (!ok) return absl::StrFormat("page %u: slot %u owns %u records", page_no_, s, o);
  }
  if (total != static_cast<uint32_t>(n_recs_) + 2) {
    return absl::StrFormat("page %u: slots own %u records, page has %d + 2", page_no_, total, n_recs_);
  }
  return "";
}

}  // namespace innosim
