// IndexPage: one B-tree page in the COMPACT format, with InnoDB's exact byte
// accounting (page/page0page.cc, page/page0cur.cc, include/page0page.ic).
//
// What is kept is what decides InnoDB's behaviour: the page header fields
// (PAGE_HEAP_TOP, PAGE_N_HEAP, PAGE_FREE as a count, PAGE_GARBAGE,
// PAGE_LAST_INSERT, PAGE_DIRECTION, PAGE_N_DIRECTION, PAGE_N_RECS,
// PAGE_LEVEL, PAGE_N_DIR_SLOTS), the sibling links, the directory, and the
// records' keys in key order (plus child page numbers on non-leaf pages).
// Keys are kept as heads (their first 16 bytes) and, on the pages of an
// index whose keys are longer (`wide_keys` at Create), tails: a narrow
// index's search and moves touch 16 bytes a record.
// Record bytes other than the key are not stored: every record of a page has
// the same size (see record_format.h), so the free list is a count and any
// freed record is reused byte for byte.
//
// The directory's rules are InnoDB's (page_dir_split_slot,
// page_dir_balance_slot, ...), stated in PageDirectory (page_dir.h). The page
// keeps its directory in a faster encoding, one owner bit per record
// (fast/owner_bits.h), and finds a key's position with a branch-free search
// (fast/branchless_search.h); both give exactly PageDirectory's and
// std::lower_bound's answers (tests/*_equivalence_test.cc).
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
#include <vector>

#include "model/fast/branchless_search.h"
#include "model/fast/owner_bits.h"
#include "model/fast/page_pool.h"
#include "model/key.h"
#include "model/page_format.h"  // kFilNull, kPageNewSupremumEnd, kPageDir, ...

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
  // are `rec_size` bytes, holding keys up to 16 bytes or, with `wide_keys`,
  // up to Key::kMaxBytes. Releases any records it held. With
  // `reclaim_heap_top` (MariaDB, EngineProfile::delete_reclaims_heap_top) a
  // single-record delete of the record last allocated from the heap lowers
  // PAGE_HEAP_TOP and PAGE_N_HEAP instead of adding it to PAGE_FREE; the
  // page then keeps every record's heap number and the PAGE_FREE list.
  void Create(uint32_t page_no, uint16_t level, uint32_t rec_size, uint32_t page_size, PagePool& pool,
              bool wide_keys = false, bool reclaim_heap_top = false);
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
  // page_delete_rec_list_start: deletes records [0, to) one by one, each as
  // page_cur_delete_rec does.
  void DeleteStart(int to, PagePool& pool);
  // page_cur_delete_rec: the record goes to PAGE_FREE as garbage, or, with
  // reclaim_heap_top, back to the heap if it is the heap's last record.
  void DeleteRec(int pos);
  // btr_page_reorganize_low's effect: records re-inserted in key order.
  void Reorganize();
  // btr_page_empty: page_create again, keeping the page number.
  void Empty(uint16_t level, uint32_t rec_size, PagePool& pool);

  // --- Search ---
  // Hints the CPU to load the key array before a binary search of a page
  // that may not be in its cache (random inserts): the search's dependent
  // loads then overlap. A performance hint only.
  void PrefetchKeys() const {
    const char* p = reinterpret_cast<const char*>(heads_);
    const char* end = p + sizeof(KeyHalf) * static_cast<size_t>(n_recs_);
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
    // A narrow page's keys and the keys searched in it have zero tails, so
    // their heads decide; a wide page's search stays out of this inline one.
    if (tails_ != nullptr) return SearchInsertCursorWide(k, duplicate, try_shortcut);
    const KeyHalf h = k.head();
    if (try_shortcut && last_insert_ >= 0 && heads_[last_insert_] < h &&
        (last_insert_ + 1 == n_recs_ || h < heads_[last_insert_ + 1])) {
      *duplicate = false;
      return last_insert_;
    }
    const uint32_t n = static_cast<uint32_t>(n_recs_);
    const uint32_t at = BranchlessLowerBound(heads_, n, h);
    *duplicate = at < n && heads_[at] == h;
    return static_cast<int>(at) - 1;
  }
  // SearchInsertCursor on a page that keeps key tails.
  int SearchInsertCursorWide(const Key& k, bool* duplicate, bool try_shortcut) const;

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
  bool reclaim_heap_top() const { return reclaim_heap_top_; }
  // With reclaim_heap_top: the heap number of record i (2 for the first
  // record allocated from the heap), and of the i-th record of PAGE_FREE
  // (0 = its head).
  uint32_t heap_no(int i) const { return heap_nos_[i]; }
  uint32_t free_heap_no(uint32_t i) const { return heap_nos_[heap_cap_ - n_free_ + i]; }
  int last_insert() const { return last_insert_; }
  PageDirection direction() const { return direction_; }
  uint32_t n_direction() const { return n_direction_; }
  uint32_t n_dir_slots() const { return n_slots_; }
  // n_owned of directory slot `slot` (0 = the infimum's).
  uint32_t slot_n_owned(uint32_t slot) const;
  // Every slot's n_owned, in slot order (one pass, where slot_n_owned
  // walks to its slot).
  std::vector<uint32_t> slots_n_owned() const { return owners_.AllNOwned(static_cast<uint32_t>(n_recs_)); }
  Key key(int i) const { return tails_ != nullptr ? Key::Join(heads_[i], tails_[i]) : Key::Join(heads_[i]); }
  uint32_t child(int i) const { return children_[i]; }
  void set_child(int i, uint32_t c) { children_[i] = c; }
  // btr_page_set_level on a page that keeps its records (btr_lift_page_up
  // lowers the pages above the lifted one by a level): the level alone
  // changes, from one non-leaf level to another (the storage of a non-leaf
  // page is the same at every level above 0).
  void set_non_leaf_level(uint16_t level) { level_ = level; }
  // btr_set_min_rec_mark: the first node pointer of the leftmost page of a
  // non-leaf level compares below every key; it is stored as the smallest
  // key so that the page stays sorted.
  void SetMinRecMark() {
    heads_[0] = KeyHalf{};
    if (tails_ != nullptr) tails_[0] = KeyHalf{};
  }
  bool wide_keys() const { return wide_keys_; }
  uint32_t prev() const { return prev_; }
  uint32_t next() const { return next_; }
  void set_prev(uint32_t p) { prev_ = p; }
  void set_next(uint32_t n) { next_ = n; }
  uint32_t page_size() const { return page_size_; }
  // Records the storage has room for (a simulator figure, not InnoDB's).
  uint32_t capacity() const { return cap_; }
  bool in_use() const { return heads_ != nullptr || page_size_ != 0; }

  // Checks the page's own invariants; "" if all hold, else what is wrong.
  // (Key order is checked from the record after a min-rec-marked one.)
  std::string Verify() const;

 private:
  // Record storage: heads[cap], tails[cap] (wide keys only), owner
  // words[OwnerBits::Words(cap)], then children[cap] (non-leaf only).
  void Reserve(int n, PagePool& pool) {
    if (static_cast<uint32_t>(n) > cap_) Grow(n, pool);
  }
  void Grow(int n, PagePool& pool);
  void ShrinkToFit(PagePool& pool);
  void Reallocate(uint32_t cap, PagePool& pool);
  size_t BlockBytes(uint32_t cap) const;
  // page_cur_delete_rec without moving the keys: the directory and space
  // bookkeeping of deleting the record at ordinal pos.
  void DeleteRecDirectory(int pos);
  // page_mem_free's space bookkeeping for a deleted record whose heap
  // number is `heap_no` (already taken out of the record order): back to
  // the heap when reclaim_heap_top and it is the heap's last record, else
  // pushed on PAGE_FREE as garbage.
  void FreeRecordSpace(uint32_t heap_no);
  // Room in heap_nos_ for n records of the heap (live and free).
  void ReserveHeapNos(uint32_t n, PagePool& pool);
  // heap_nos_[0, n) = 2, 3, ...: records laid out in key order from the heap.
  void NumberHeapInOrder(uint32_t n);
  // AppendStartFrom onto an empty page without free records.
  void AppendToEmpty(const IndexPage& src, int to, PagePool& pool);
  // The bookkeeping m appends through page_cur_insert_rec_low leave on an
  // empty page with no free records (its keys are already in place).
  void AppendedToEmpty(uint32_t m);
  // The direction bookkeeping of page_cur_insert_rec_low for an insert at
  // ordinal `pos` (after cursor pos - 1), before n_recs is incremented.
  inline void UpdateDirection(int pos);
  // k < key(i). A narrow page's keys and the keys searched in it have zero
  // tails, so their heads decide.
  bool RecAbove(int i, const Key& k) const { return tails_ == nullptr ? k.head() < heads_[i] : k < key(i); }
  // Moves `count` records' keys (and children on non-leaf pages) from
  // ordinal `from` to `to` within this page (memmove).
  void MoveRecords(int to, int from, int count);
  // Copies src's records [from, from + count) to ordinals [0, count).
  void CopyRecordsFrom(const IndexPage& src, int from, int count);

  KeyHalf* heads_ = nullptr;
  KeyHalf* tails_ = nullptr;
  uint32_t* children_ = nullptr;
  // With reclaim_heap_top only (else null), a block of its own of heap_cap_
  // entries: [0, n_recs) the heap number of each record in key order, and
  // [heap_cap_ - n_free, heap_cap_) PAGE_FREE's heap numbers, head first.
  uint16_t* heap_nos_ = nullptr;
  uint32_t heap_cap_ = 0;
  OwnerBits owners_;  // the directory (model/fast/owner_bits.h)
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
  bool wide_keys_ = false;
  bool reclaim_heap_top_ = false;
};

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

inline void IndexPage::MoveRecords(int to, int from, int count) {
  const auto n = static_cast<size_t>(count);
  std::memmove(heads_ + to, heads_ + from, sizeof(KeyHalf) * n);
  if (tails_ != nullptr) std::memmove(tails_ + to, tails_ + from, sizeof(KeyHalf) * n);
  if (level_ > 0) std::memmove(children_ + to, children_ + from, sizeof(uint32_t) * n);
}

[[gnu::always_inline]] inline bool IndexPage::InsertAfterInline(int cursor, const Key& key, uint32_t child,
                                                              PagePool& pool) {
  // Step 1: the head of PAGE_FREE if it is large enough (every record here
  // has the same size, so any free record is), else page_mem_alloc_heap.
  uint32_t heap_no = 0;
  if (n_free_ > 0) {
    if (reclaim_heap_top_) heap_no = heap_nos_[heap_cap_ - n_free_];
    --n_free_;
    garbage_ -= rec_size_;
  } else if (MaxInsertSize(1) >= rec_size_) {
    if (reclaim_heap_top_) ReserveHeapNos(n_heap_ - 1, pool);
    heap_no = n_heap_;
    heap_top_ += rec_size_;
    ++n_heap_;
  } else {
    return false;
  }
  Reserve(n_recs_ + 1, pool);
  const int pos = cursor + 1;
  if (pos < n_recs_) MoveRecords(pos + 1, pos, n_recs_ - pos);  // an append moves nothing
  if (reclaim_heap_top_) {
    std::memmove(heap_nos_ + pos + 1, heap_nos_ + pos, sizeof(uint16_t) * static_cast<size_t>(n_recs_ - pos));
    heap_nos_[pos] = static_cast<uint16_t>(heap_no);
  }
  heads_[pos] = key.head();
  if (tails_ != nullptr) tails_[pos] = key.tail();
  if (level_ > 0) children_[pos] = child;
  UpdateDirection(pos);
  // Steps 7-8: the new record (list position pos + 1) owns nothing; the
  // owner of its successor's group owns one more, and at 9 its slot splits.
  const uint32_t at = static_cast<uint32_t>(pos) + 1;
  const uint32_t words = OwnerBits::Words(cap_);
  const uint32_t split = words == 2 ? owners_.InsertInTwoWords(at) : owners_.InsertInWords(at, words);
  n_slots_ = static_cast<uint16_t>(n_slots_ + split);
  ++n_recs_;
  return true;
}

}  // namespace innosim

#endif  // INNOSIM_MODEL_INDEX_PAGE_H_
