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

// The most directory slots a page can have: the records of the largest page
// (UNIV_PAGE_SIZE_MAX, 64 KiB, include/univ.i), each at least its
// REC_N_NEW_EXTRA_BYTES header and one byte, 4 to a slot
// (PAGE_DIR_SLOT_MIN_N_OWNED), plus the infimum's and the supremum's slots.
constexpr uint32_t kMaxDirSlots = FreeSpaceOfEmpty(kUnivPageSizeMax) / (kRecNewExtraBytes + 1) / kDirSlotMinNOwned + 2;

}  // namespace

size_t IndexPage::BlockBytes(uint32_t cap) const {
  size_t bytes = size_t{cap} * sizeof(Key) + size_t{OwnerWords(cap)} * sizeof(uint64_t);
  if (level_ > 0) bytes += size_t{cap} * sizeof(uint32_t);
  return bytes;
}

void IndexPage::Reallocate(uint32_t cap, PagePool& pool) {
  auto* block = static_cast<std::byte*>(pool.Allocate(BlockBytes(cap)));
  // Keys first (16-byte aligned), then the owner words, then the children:
  // every part stays aligned whatever cap is.
  auto* keys = reinterpret_cast<Key*>(block);
  auto* owners = reinterpret_cast<uint64_t*>(block + size_t{cap} * sizeof(Key));
  const uint32_t words = OwnerWords(cap);
  uint32_t* children = level_ > 0 ? reinterpret_cast<uint32_t*>(owners + words) : nullptr;
  std::memset(owners, 0, sizeof(uint64_t) * words);
  if (keys_ != nullptr) {
    std::memcpy(keys, keys_, sizeof(Key) * n_recs_);
    if (children != nullptr) std::memcpy(children, children_, sizeof(uint32_t) * n_recs_);
    std::memcpy(owners, owners_, sizeof(uint64_t) * OwnerWords(static_cast<uint32_t>(n_recs_)));
    pool.Free(keys_, BlockBytes(cap_));
  }
  keys_ = keys;
  children_ = children;
  owners_ = owners;
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
  if (keys_ == nullptr) return;
  // The smallest capacity that holds the records, widened to what fills
  // the pool's 64-byte granules it occupies anyway.
  uint32_t cap = std::max(static_cast<uint32_t>(n_recs_), uint32_t{1});
  const size_t granules = (BlockBytes(cap) + 63) / 64;
  while ((BlockBytes(cap + 1) + 63) / 64 == granules) ++cap;
  if (cap < cap_) Reallocate(cap, pool);
}

void IndexPage::Release(PagePool& pool) {
  if (keys_ != nullptr) pool.Free(keys_, BlockBytes(cap_));
  keys_ = nullptr;
  children_ = nullptr;
  owners_ = nullptr;
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
    owners_ = nullptr;
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
    if (keys_ == nullptr || cap_ < max) Reallocate(max, pool);
  } else if (keys_ == nullptr || cap_ > kCapacityStep) {
    Reallocate(kCapacityStep, pool);
  }
  SetDirectory(0, 1);
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

uint32_t IndexPage::NextOwner(uint32_t list_pos) const {
  uint32_t i = list_pos / 64;
  uint64_t x = owners_[i] & (~uint64_t{0} << (list_pos % 64));
  while (x == 0) x = owners_[++i];
  return i * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
}

uint32_t IndexPage::PrevOwner(uint32_t list_pos) const {
  const uint32_t last = list_pos - 1;
  uint32_t i = last / 64;
  uint64_t x = owners_[i] & (~uint64_t{0} >> (63 - last % 64));
  while (x == 0) x = owners_[--i];
  return i * 64 + 63 - static_cast<uint32_t>(__builtin_clzll(x));
}

[[gnu::always_inline]] inline void IndexPage::InsertOwnerBit(uint32_t p) {
  const uint32_t words = OwnerWords(cap_);
  const uint32_t w = p / 64;
  const uint64_t below = (uint64_t{1} << (p % 64)) - 1;  // kept in word w
  if (words == 2) {
    // Selected through a mask, not a branch: which word p falls in is as
    // random as the keys.
    const uint64_t in_hi = uint64_t{0} - w;
    const uint64_t lo = owners_[0];
    const uint64_t hi = owners_[1];
    const uint64_t x = lo ^ ((lo ^ hi) & in_hi);
    const uint64_t spliced = (x & below) | ((x << 1) & ~(below | (below + 1)));
    const uint64_t carried = (hi << 1) | (lo >> 63);
    owners_[0] = spliced ^ ((spliced ^ lo) & in_hi);
    owners_[1] = carried ^ ((carried ^ spliced) & in_hi);
    return;
  }
  // Every word of the block is rewritten, each through masks, for the same
  // reason.
  uint64_t carry = 0;
  for (uint32_t i = 0; i < words; ++i) {
    const uint64_t x = owners_[i];
    const uint64_t shifted = (x << 1) | carry;
    carry = x >> 63;
    // Positions that move up: none below word w, all above it, and in word
    // w those past p (p itself takes the new, non-owning record).
    const uint64_t moves = i < w ? 0 : i > w ? ~uint64_t{0} : ~(below | (below + 1));
    const uint64_t keeps = i < w ? ~uint64_t{0} : i > w ? 0 : below;
    owners_[i] = (x & keeps) | (shifted & moves);
  }
}

void IndexPage::EraseOwnerBit(uint32_t p) {
  const uint32_t top = (static_cast<uint32_t>(n_recs_) + 1) / 64;  // the supremum's word
  const uint32_t w = p / 64;
  const uint64_t below = (uint64_t{1} << (p % 64)) - 1;
  owners_[w] = (owners_[w] & below) | ((owners_[w] >> 1) & ~below);
  for (uint32_t i = w + 1; i <= top; ++i) {
    owners_[i - 1] |= owners_[i] << 63;
    owners_[i] >>= 1;
  }
}

uint32_t IndexPage::slot_n_owned(uint32_t slot) const {
  uint32_t prev = 0;
  uint32_t n = 0;
  for (uint32_t pos = 0; pos <= static_cast<uint32_t>(n_recs_) + 1; ++pos) {
    if (!IsOwner(pos)) continue;
    if (n == slot) return slot == 0 ? 1 : pos - prev;
    prev = pos;
    ++n;
  }
  return 0;
}

bool IndexPage::InsertAfter(int cursor, const Key& key, uint32_t child, PagePool& pool) {
  return InsertAfterInline(cursor, key, child, pool);
}

void IndexPage::InsertOwnerBitInWords(uint32_t at) {
  InsertOwnerBit(at);
  ++n_recs_;
  const uint32_t owner = NextOwner(at);
  const uint32_t prev = PrevOwner(at);
  const uint32_t n_owned = owner - prev;
  if (n_owned > kDirSlotMaxNOwned) {
    // page_dir_split_slot: a new slot below owns n/2, the old one the rest.
    SetOwner(prev + n_owned / 2);
    ++n_slots_;
  }
}

void IndexPage::SetDirectory(uint32_t n_fours, uint32_t last_owned) {
  std::memset(owners_, 0, sizeof(uint64_t) * OwnerWords(cap_));
  n_slots_ = static_cast<uint16_t>(2 + n_fours);
  for (uint32_t s = 0; s <= n_fours; ++s) SetOwner(4 * s);
  SetOwner(4 * n_fours + last_owned);
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
  AppendedToEmpty(m);
}

void IndexPage::AppendedToEmpty(uint32_t m) {
  n_recs_ = static_cast<int>(m);
  heap_top_ += m * rec_size_;
  n_heap_ += m;
  last_insert_ = static_cast<int>(m) - 1;
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
  // The slot that owned the first deleted record now owns the survivors of
  // its group plus the supremum (which takes list position from + 1); the
  // slots after it are dropped.
  const uint32_t first = static_cast<uint32_t>(from) + 1;
  const uint32_t words = OwnerWords(cap_);
  uint32_t w = first / 64;
  owners_[w] &= (uint64_t{1} << (first % 64)) - 1;
  for (++w; w < words; ++w) owners_[w] = 0;
  SetOwner(first);
  uint32_t slots = 0;
  for (uint32_t i = 0; i <= first / 64; ++i) slots += static_cast<uint32_t>(__builtin_popcountll(owners_[i]));
  n_slots_ = static_cast<uint16_t>(slots);
  n_free_ += moved;
  garbage_ += moved * rec_size_;
  n_recs_ = from;
  last_insert_ = -1;
  ShrinkToFit(pool);
}

void IndexPage::DeleteRecDirectory(int pos) {
  const uint32_t at = static_cast<uint32_t>(pos) + 1;
  const uint32_t owner = NextOwner(at);
  const uint32_t old_owned = owner - PrevOwner(at);
  const bool last_slot = owner == static_cast<uint32_t>(n_recs_) + 1;
  // The record leaves the list; if it owned its slot, the record before it
  // takes the slot over (either way the owner is now at owner - 1).
  EraseOwnerBit(at);
  --n_recs_;
  SetOwner(owner - 1);
  ++n_free_;
  garbage_ += rec_size_;
  last_insert_ = -1;
  if (old_owned <= kDirSlotMinNOwned && !last_slot) {
    // page_dir_balance_slot: borrow from the upper neighbour or merge into it.
    const uint32_t upper_owned = NextOwner(owner) - (owner - 1);
    ClearOwner(owner - 1);
    if (upper_owned > kDirSlotMinNOwned) {
      SetOwner(owner);
    } else {
      --n_slots_;
    }
  }
}

bool IndexPage::DeleteStartDirectory(uint32_t to) {
  // The slots' n_owned in order (the infimum's left out), from the owner
  // bits. Deleting the first record takes one from the first group; a group
  // that had 4 or fewer then borrows one from the next (page_dir_balance_slot)
  // or, if that one has 4 or fewer too, merges into it. Applied to the
  // counts directly: DeleteRecDirectory's steps, without shifting every
  // record's bit at every step. Pages whose directory is outside InnoDB's
  // bounds (not met on the insert path) are left to those steps.
  const uint32_t n = static_cast<uint32_t>(n_recs_);
  uint8_t owned[kMaxDirSlots];
  uint32_t slots = 0;
  uint32_t prev = 0;
  const uint32_t supremum = n + 1;
  for (uint32_t w = 0; w <= supremum / 64; ++w) {
    uint64_t x = owners_[w];
    if (w == 0) x &= ~uint64_t{1};  // the infimum
    while (x != 0) {
      const uint32_t pos = w * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
      x &= x - 1;
      const uint32_t o = pos - prev;
      const bool last = pos == supremum;
      if (pos > supremum || slots == kMaxDirSlots || o > kDirSlotMaxNOwned ||
          (!last && o < kDirSlotMinNOwned)) {
        return false;
      }
      owned[slots++] = static_cast<uint8_t>(o);
      prev = pos;
    }
  }
  if (prev != supremum) return false;
  uint32_t first = 0;  // owned[first..slots): the groups left
  for (uint32_t i = 0; i < to; ++i) {
    const uint32_t old = owned[first]--;
    if (old <= kDirSlotMinNOwned && first + 1 < slots) {
      if (owned[first + 1] > kDirSlotMinNOwned) {
        ++owned[first];
        --owned[first + 1];
      } else {
        owned[first + 1] = static_cast<uint8_t>(owned[first + 1] + owned[first]);
        ++first;
      }
    }
  }
  std::memset(owners_, 0, sizeof(uint64_t) * OwnerWords(cap_));
  SetOwner(0);
  uint32_t pos = 0;
  for (uint32_t s = first; s < slots; ++s) {
    pos += owned[s];
    SetOwner(pos);
  }
  n_slots_ = static_cast<uint16_t>(1 + slots - first);
  n_recs_ -= static_cast<int>(to);
  n_free_ += to;
  garbage_ += to * rec_size_;
  last_insert_ = -1;
  return true;
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
  if (!DeleteStartDirectory(static_cast<uint32_t>(to))) {
    for (int i = 0; i < to; ++i) DeleteRecDirectory(0);
  }
  std::memmove(keys_, keys_ + to, sizeof(Key) * n_recs_);
  if (level_ > 0) std::memmove(children_, children_ + to, sizeof(uint32_t) * n_recs_);
  ShrinkToFit(pool);
}

void IndexPage::Reorganize(PagePool& pool) {
  // Copy to a temporary, page_create, re-insert every record in key order
  // (page_copy_rec_list_end_no_locks -> page_cur_insert_rec_low): a run of
  // appends onto an empty page, whose result AppendedToEmpty computes.
  const int n = n_recs_;
  heap_top_ = kPageNewSupremumEnd;
  garbage_ = 0;
  n_heap_ = 2;
  n_free_ = 0;
  AppendedToEmpty(static_cast<uint32_t>(n));
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
  // they own every record, and nothing past the supremum owns.
  if (n_slots_ < 2) return absl::StrFormat("page %u: %u directory slots", page_no_, n_slots_);
  const uint32_t supremum = static_cast<uint32_t>(n_recs_) + 1;
  if (!IsOwner(0) || !IsOwner(supremum)) {
    return absl::StrFormat("page %u: the infimum or the supremum owns no slot", page_no_);
  }
  for (uint32_t pos = supremum + 1; pos < 64 * OwnerWords(cap_); ++pos) {
    if (IsOwner(pos)) return absl::StrFormat("page %u: list position %u past the supremum owns a slot", page_no_, pos);
  }
  uint32_t slots = 1;
  uint32_t prev = 0;
  for (uint32_t pos = 1; pos <= supremum; ++pos) {
    if (!IsOwner(pos)) continue;
    const uint32_t o = pos - prev;
    const bool ok = pos == supremum ? o <= kDirSlotMaxNOwned : (o >= kDirSlotMinNOwned && o <= kDirSlotMaxNOwned);
    if (!ok) return absl::StrFormat("page %u: slot %u owns %u records", page_no_, slots, o);
    prev = pos;
    ++slots;
  }
  if (slots != n_slots_) return absl::StrFormat("page %u: %u owners, PAGE_N_DIR_SLOTS %u", page_no_, slots, n_slots_);
  return "";
}

}  // namespace innosim
