// IndexPage: one B-tree page in the COMPACT format, with InnoDB's exact byte
// accounting (page/page0page.cc, page/page0cur.cc, include/page0page.ic).
//
// What is kept is what decides InnoDB's behaviour: the page header fields
// (PAGE_HEAP_TOP, PAGE_N_HEAP, PAGE_FREE as a count, PAGE_GARBAGE,
// PAGE_LAST_INSERT, PAGE_DIRECTION, PAGE_N_DIRECTION, PAGE_N_RECS,
// PAGE_LEVEL, PAGE_N_DIR_SLOTS), the sibling links, the directory, and the
// records' keys in key order (plus child page numbers on non-leaf pages).
// The directory is kept as InnoDB marks it in the records themselves: which
// records own a slot (their n_owned is not 0), one bit per record in list
// order; a slot's n_owned is the distance from the previous owner. Record
// bytes other than the key are not stored: every record of a page has the
// same size (see record_format.h), so the free list is a count and any
// freed record is reused byte for byte.
//
// Records are addressed by their ordinal among the user records, 0..n_recs-1;
// -1 stands for the infimum. PAGE_LAST_INSERT is kept as such an ordinal and
// moved along when records are inserted before it.
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_INDEX_PAGE_H_
#define INNOSIM_MODEL_INDEX_PAGE_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "model/key.h"
#include "model/page_format.h"  // kFilNull, kPageNewSupremumEnd, kPageDir, ...
#include "model/fast/page_pool.h"

namespace innosim {

// PAGE_DIRECTION values (include/page0types.h).
enum class PageDirection : uint8_t {
  kLeft = 1,
  kRight = 2,
  kSameRec = 3,
  kSamePage = 4,
  kNoDirection = 5,
};

// page_get_free_space_of_empty(comp=true): the usable bytes of an empty
// compact page: page size - PAGE_NEW_SUPREMUM_END - PAGE_DIR - 2 slots.
constexpr uint32_t FreeSpaceOfEmpty(uint32_t page_size) {
  return page_size - kPageNewSupremumEnd - kPageDir - 2 * kPageDirSlotSize;
}

// page_dir_calc_reserved_space: directory bytes reserved for n records.
constexpr uint32_t DirReservedSpace(uint32_t n_recs) {
  return (kPageDirSlotSize * n_recs + kDirSlotMinNOwned - 1) / kDirSlotMinNOwned;
}

class IndexPage {
 public:
  IndexPage() = default;

  // page_create + btr_page_create: an empty page of `level` whose records
  // are `rec_size` bytes. Releases any records it held.
  void Create(uint32_t page_no, uint16_t level, uint32_t rec_size, uint32_t page_size,
              PagePool& pool);
  // Returns the record storage to the pool (page freed).
  void Release(PagePool& pool);
  // Shrinks the record storage to the records held (a page that has gone
  // cold). Storage only: nothing InnoDB would see changes.
  void Compact(PagePool& pool);

  // --- Space (include/page0page.ic) ---
  // page_get_data_size: HEAP_TOP - PAGE_NEW_SUPREMUM_END - PAGE_GARBAGE.
  uint32_t DataSize() const { return heap_top_ - kPageNewSupremumEnd - garbage_; }
  // page_get_max_insert_size(page, n): room at the heap top right now.
  uint32_t MaxInsertSize(uint32_t n) const {
    const uint32_t occupied = (heap_top_ - kPageNewSupremumEnd) + DirReservedSpace(n + n_heap_ - 2);
    const uint32_t free_space = FreeSpaceOfEmpty(page_size_);
    return occupied < free_space ? free_space - occupied : 0;
  }
  // page_get_max_insert_size_after_reorganize(page, n).
  uint32_t MaxInsertSizeAfterReorganize(uint32_t n) const {
    const uint32_t occupied = DataSize() + DirReservedSpace(n + n_recs_);
    const uint32_t free_space = FreeSpaceOfEmpty(page_size_);
    return occupied < free_space ? free_space - occupied : 0;
  }
  bool HasGarbage() const { return garbage_ != 0; }

  // --- Record operations ---
  // page_cur_insert_rec_low: inserts after record `cursor` (-1 = infimum).
  // Reuses the head of PAGE_FREE if it is large enough, else allocates from
  // the heap; returns false (nothing changed) if neither has room.
  bool InsertAfter(int cursor, const Key& key, uint32_t child, PagePool& pool);
  // The same, inlined into the caller: the per-row insert of a leaf.
  inline bool InsertAfterInline(int cursor, const Key& key, uint32_t child, PagePool& pool);
  // page_copy_rec_list_end_to_created_page: this page is freshly created;
  // copies src's records [from, n_recs) with the bulk directory layout.
  void CopyEndToCreated(const IndexPage& src, int from, PagePool& pool);
  // page_copy_rec_list_start: appends src's records [0, to) one at a time.
  void AppendStartFrom(const IndexPage& src, int to, PagePool& pool);
  // page_copy_rec_list_end_no_locks-style append of all of src's records
  // after this page's last record, one at a time (merge into the left page).
  void AppendAllFrom(const IndexPage& src, PagePool& pool) { AppendStartFrom(src, src.n_recs_, pool); }
  // page_copy_rec_list_end onto a non-empty page: inserts all of src's
  // records before this page's first record, one at a time (merge right).
  void PrependAllFrom(const IndexPage& src, PagePool& pool);
  // page_delete_rec_list_end: deletes records [from, n_recs); they go to
  // PAGE_FREE as garbage and the directory is truncated.
  void DeleteEnd(int from, PagePool& pool);
  // page_delete_rec_list_start: deletes records [0, to) one by one.
  void DeleteStart(int to, PagePool& pool);
  // page_cur_delete_rec.
  void DeleteRec(int pos, PagePool& pool);
  // btr_page_reorganize_low's effect: records re-inserted in key order.
  void Reorganize(PagePool& pool);
  // btr_page_empty: page_create again, keeping the page number.
  void Empty(uint16_t level, uint32_t rec_size, PagePool& pool);

  // --- Search ---
  // Hints the CPU to load the key array before a binary search of a page
  // that may not be in its cache (random inserts): the search's dependent
  // loads then overlap. A performance hint only.
  void PrefetchKeys() const {
    const char* p = reinterpret_cast<const char*>(keys_);
    const char* end = p + sizeof(Key) * static_cast<size_t>(n_recs_);
    for (; p < end; p += 64) __builtin_prefetch(p);
  }
  // Ordinal of the last record with key <= k, -1 if none (PAGE_CUR_LE).
  int SearchLE(const Key& k) const;
  // Ordinal of the last record with key < k (the insert cursor for a new
  // unique key), and whether k itself is present. Inline: it is most of
  // the work of every insert. With `try_shortcut`, page_cur_try_search_shortcut
  // comes first: a key right after PAGE_LAST_INSERT needs no search (what
  // makes appends cheap). Without, the search alone gives the same answer:
  // for keys that land at random in a page, whether the shortcut applies is
  // a branch no predictor can learn, decided just as the search starts.
  int SearchInsertCursor(const Key& k, bool* duplicate, bool try_shortcut = true) const {
    if (try_shortcut && last_insert_ >= 0 && keys_[last_insert_] < k &&
        (last_insert_ + 1 == n_recs_ || k < keys_[last_insert_ + 1])) {
      *duplicate = false;
      return last_insert_;
    }
    const uint32_t at = CountLess(k);
    *duplicate = at < static_cast<uint32_t>(n_recs_) && keys_[at] == k;
    return static_cast<int>(at) - 1;
  }

  // --- Accessors ---
  uint32_t page_no() const { return page_no_; }
  uint16_t level() const { return level_; }
  bool is_leaf() const { return level_ == 0; }
  uint32_t rec_size() const { return rec_size_; }
  int n_recs() const { return n_recs_; }
  uint32_t n_heap() const { return n_heap_; }
  uint32_t heap_top() const { return heap_top_; }
  uint32_t garbage() const { return garbage_; }
  uint32_t n_free() const { return n_free_; }
  int last_insert() const { return last_insert_; }
  PageDirection direction() const { return direction_; }
  uint32_t n_direction() const { return n_direction_; }
  uint32_t n_dir_slots() const { return n_slots_; }
  // n_owned of directory slot `slot` (0 = the infimum's).
  uint32_t slot_n_owned(uint32_t slot) const;
  const Key& key(int i) const { return keys_[i]; }
  uint32_t child(int i) const { return children_[i]; }
  void set_child(int i, uint32_t c) { children_[i] = c; }
  // btr_set_min_rec_mark: the first node pointer of the leftmost page of a
  // non-leaf level compares below every key; it is stored as the smallest
  // key so that the page stays sorted.
  void SetMinRecMark() { keys_[0] = Key{}; }
  const Key* keys() const { return keys_; }
  uint32_t prev() const { return prev_; }
  uint32_t next() const { return next_; }
  void set_prev(uint32_t p) { prev_ = p; }
  void set_next(uint32_t n) { next_ = n; }
  uint32_t page_size() const { return page_size_; }
  // Records the storage has room for (a simulator figure, not InnoDB's).
  uint32_t capacity() const { return cap_; }
  bool in_use() const { return keys_ != nullptr || page_size_ != 0; }

  // Checks the page's own invariants; "" if all hold, else what is wrong.
  // (Key order is checked from the record after a min-rec-marked one.)
  std::string Verify() const;

 private:
  // The number of keys < k (std::lower_bound's index), by a branch-free
  // search: a random key makes every probe of an ordinary binary search a
  // coin toss for the branch predictor. Shar's layout: one probe aligns the
  // rest to a power of two; then each step quarters it with three probes
  // that depend only on the previous step (so their loads overlap), and
  // selects the next position through masks: half the dependent loads of a
  // binary search. Probes compare the high halves only (one 64-bit
  // compare); keys whose high half equals k's are few and adjacent, and
  // are stepped over afterwards.
  uint32_t CountLess(const Key& k) const {
    const uint32_t n = static_cast<uint32_t>(n_recs_);
    if (n == 0) return 0;
    const uint64_t hi = k.hi;
    // All ones when the key at i is below k, else 0.
    auto below = [&](uint32_t i) { return uint32_t{0} - static_cast<uint32_t>(keys_[i].hi < hi); };
    const uint32_t log = 31 - static_cast<uint32_t>(__builtin_clz(n));
    uint32_t step = uint32_t{1} << log;
    // Invariant from here: at <= (keys below k) <= at + step.
    uint32_t at = (n - step) & below(step - 1);
    if (log & 1) {
      step >>= 1;
      at += step & below(at + step - 1);
    }
    while (step >= 4) {
      const uint32_t q = step >> 2;
      at += (q & below(at + q - 1)) + (q & below(at + 2 * q - 1)) + (q & below(at + 3 * q - 1));
      step = q;
    }
    // Now at <= (keys whose high half is below k's) <= at + 1. The keys
    // at at and at + 1 are compared whole, at once: each is below k either
    // by its high half or, sharing k's high half (a time-ordered key often
    // shares it with a neighbour), by its low half. One level of loads where
    // a step over the high halves and a step over equal high halves took
    // two; a third key below k sharing the high half is rare. Positions at
    // or past n do not count; at + 1 is read only when it is below n, and
    // keys_[n] may be read: the block holds the owner words after the
    // keys, all of it is initialised (page_pool.h).
    const uint32_t next = at + 1;
    const uint32_t next_read = next < n ? next : at;
    at += static_cast<uint32_t>(at < n) & static_cast<uint32_t>(Below(keys_[at], k));
    at += static_cast<uint32_t>(next < n) & static_cast<uint32_t>(Below(keys_[next_read], k));
    while (at < n && Below(keys_[at], k)) ++at;
    return at;
  }

  // a < b as one 128-bit comparison (a subtract with borrow, no branch).
  static bool Below(const Key& a, const Key& b) {
    using U = unsigned __int128;
    return ((U{a.hi} << 64) | a.lo) < ((U{b.hi} << 64) | b.lo);
  }

  // Record storage: keys[cap], owner words[OwnerWords(cap)], then
  // children[cap] (non-leaf only).
  void Reserve(int n, PagePool& pool) {
    if (static_cast<uint32_t>(n) > cap_) Grow(n, pool);
  }
  void Grow(int n, PagePool& pool);
  void ShrinkToFit(PagePool& pool);
  void Reallocate(uint32_t cap, PagePool& pool);
  size_t BlockBytes(uint32_t cap) const;
  // Owner bits for list positions 0 (infimum), 1..n_recs (user records)
  // and n_recs + 1 (supremum) of up to cap records; at least two words, so
  // that pages of up to 126 records shift theirs as one 128-bit integer.
  static uint32_t OwnerWords(uint32_t cap) { return cap + 2 <= 2 * 64 ? 2 : (cap + 2 + 63) / 64; }
  bool IsOwner(uint32_t list_pos) const { return (owners_[list_pos / 64] >> (list_pos % 64)) & 1; }
  void SetOwner(uint32_t list_pos) { owners_[list_pos / 64] |= uint64_t{1} << (list_pos % 64); }
  void ClearOwner(uint32_t list_pos) { owners_[list_pos / 64] &= ~(uint64_t{1} << (list_pos % 64)); }
  // The first owner at or after list_pos (the owner of its group), and the
  // last owner before list_pos (list_pos >= 1): the infimum and the
  // supremum always own, so both exist.
  uint32_t NextOwner(uint32_t list_pos) const;
  uint32_t PrevOwner(uint32_t list_pos) const;
  // A record that owns nothing enters at list position p, or the record at
  // p leaves; the positions after it move up or down by one. Both are
  // called before n_recs changes.
  void InsertOwnerBit(uint32_t p);
  inline void InsertOwnerBitInTwoWords(uint32_t p);
  // InsertAfter's steps 7-8 on pages of more than two owner words (also
  // counts the new record).
  void InsertOwnerBitInWords(uint32_t at);
  void EraseOwnerBit(uint32_t p);
  // page_cur_delete_rec without moving the keys: the directory and space
  // bookkeeping of deleting the record at ordinal pos.
  void DeleteRecDirectory(int pos);
  // DeleteStart's `to` DeleteRecDirectory(0) steps at once, on the slots'
  // counts; false (nothing changed) for a directory outside InnoDB's
  // bounds.
  bool DeleteStartDirectory(uint32_t to);
  // AppendStartFrom onto an empty page without free records.
  void AppendToEmpty(const IndexPage& src, int to, PagePool& pool);
  // The bookkeeping m appends through page_cur_insert_rec_low leave on an
  // empty page with no free records (its keys are already in place).
  void AppendedToEmpty(uint32_t m);
  // The infimum's slot, n_fours slots owning 4 records each, then the
  // supremum's owning last_owned: the directory bulk copies and runs of
  // appends leave.
  void SetDirectory(uint32_t n_fours, uint32_t last_owned);
  void BulkDirectory();
  // The direction bookkeeping of page_cur_insert_rec_low for an insert at
  // ordinal `pos` (after cursor pos - 1), before n_recs is incremented.
  inline void UpdateDirection(int pos);

  Key* keys_ = nullptr;
  uint32_t* children_ = nullptr;
  uint64_t* owners_ = nullptr;
  uint32_t cap_ = 0;

  uint32_t page_no_ = kFilNull;
  uint32_t prev_ = kFilNull;
  uint32_t next_ = kFilNull;
  uint32_t page_size_ = 0;
  uint32_t rec_size_ = 0;
  uint32_t heap_top_ = kPageNewSupremumEnd;
  uint32_t garbage_ = 0;
  uint32_t n_heap_ = 2;
  uint32_t n_free_ = 0;
  int n_recs_ = 0;
  int last_insert_ = -1;
  uint32_t n_direction_ = 0;
  uint16_t n_slots_ = 0;
  uint16_t level_ = 0;
  PageDirection direction_ = PageDirection::kNoDirection;
};

// InsertAfter's steps 7-8 on a page whose owner bits fit one 128-bit word
// (up to 126 records: every 16 KiB page of the seed tables): the bit
// shift, the group's owners and the slot split without a loop or a branch
// on where p falls. Also counts the new record.
[[gnu::always_inline]] inline void IndexPage::InsertOwnerBitInTwoWords(uint32_t p) {
  using U = unsigned __int128;
  const uint64_t old_lo = owners_[0];
  const uint64_t old_hi = owners_[1];
  // The bits below p (p is 1..127), word by word: a 128-bit mask made by a
  // 128-bit shift costs a dozen instructions.
  const uint64_t in_hi = uint64_t{0} - (p >> 6);  // all ones when p is in the high word
  const uint64_t part = (uint64_t{1} << (p & 63)) - 1;
  const uint64_t below_lo = part | in_hi;
  const uint64_t below_hi = part & in_hi;
  // The bits from p up move up one, p itself taking the new record, which
  // owns nothing: x + (x above p) is (x below p) + 2 (x above p).
  const U old_x = (U{old_hi} << 64) | old_lo;
  const U x = old_x + ((U{old_hi & ~below_hi} << 64) | (old_lo & ~below_lo));
  ++n_recs_;
  // The owner of p's group is the first owner after p: at most 8
  // positions on, since a group owns at most 9 records now, so a 16-bit
  // window finds it (the new record's bit, the window's first, is clear).
  // The previous group's owner is the last owner before p (the infimum at
  // worst): the leading zeros of the bits below p, in the high word or,
  // when that is empty, in the low one, picked through a mask (a branch
  // here would be decided late and often wrong).
  const auto window = static_cast<uint32_t>(old_x >> p) << 1;
  const auto to_owner = static_cast<uint32_t>(__builtin_ctz(window | (uint32_t{1} << 16)));
  const uint64_t before_lo = old_lo & below_lo;  // bit 0: the infimum
  const uint64_t before_hi = old_hi & below_hi;
  const auto lead_hi = static_cast<uint32_t>(__builtin_clzll(before_hi | 1));
  const auto lead_lo = 64 + static_cast<uint32_t>(__builtin_clzll(before_lo));
  const uint32_t hi_empty = uint32_t{0} - static_cast<uint32_t>(before_hi == 0);
  const uint32_t lead = (lead_lo & hi_empty) | (lead_hi & ~hi_empty);
  const uint32_t owner = p + to_owner;
  const uint32_t prev = 127 - lead;
  const uint32_t n_owned = owner - prev;
  // page_dir_split_slot at 9: a new slot below owns n/2, the old one the
  // rest. Set through a mask: whether the group reached 9 is known only at
  // the end of the insert, and is a coin toss about one insert in four.
  const uint32_t split = static_cast<uint32_t>(n_owned > kDirSlotMaxNOwned);
  const uint32_t new_owner = prev + n_owned / 2;
  const auto in_hi_word = static_cast<uint32_t>(new_owner >> 6);
  owners_[0] = static_cast<uint64_t>(x) | (uint64_t{split & (in_hi_word ^ 1)} << (new_owner & 63));
  owners_[1] = static_cast<uint64_t>(x >> 64) | (uint64_t{split & in_hi_word} << (new_owner & 63));
  n_slots_ = static_cast<uint16_t>(n_slots_ + split);
}

[[gnu::always_inline]] inline void IndexPage::UpdateDirection(int pos) {
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

[[gnu::always_inline]] inline bool IndexPage::InsertAfterInline(int cursor, const Key& key, uint32_t child,
                                                              PagePool& pool) {
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
  // Steps 7-8: the new record (list position pos + 1) owns nothing; the
  // owner of its successor's group owns one more, and at 9 its slot splits.
  const uint32_t at = static_cast<uint32_t>(pos) + 1;
  if (OwnerWords(cap_) == 2) {
    InsertOwnerBitInTwoWords(at);
    return true;
  }
  InsertOwnerBitInWords(at);
  return true;
}

}  // namespace innosim

#endif  // INNOSIM_MODEL_INDEX_PAGE_H_
