// OwnerBits: a page's directory as one bit per record, a speed device.
//
// What it encodes. InnoDB marks a slot's owner in the record itself (its
// n_owned is not 0). Here each record of the list, from the infimum (list
// position 0) through the user records (1..n_recs) to the supremum
// (n_recs + 1), has one bit, set when the record owns a slot; a slot's
// n_owned is the distance from the previous owner. The rules applied to
// those bits are InnoDB's directory rules: page_cur_insert_rec_low with
// page_dir_split_slot, page_cur_delete_rec with page_dir_balance_slot,
// page_delete_rec_list_end, page_delete_rec_list_start,
// page_copy_rec_list_end_to_created_page, and the layout a run of appends
// onto an empty page leaves (btr_page_reorganize_low,
// page_copy_rec_list_start). Their readable statement is PageDirectory
// (model/page_dir.h); after every operation, n_slots and every slot's
// n_owned here must equal what PageDirectory computes for the same
// operation (tests/directory_equivalence_test.cc checks it).
//
// What it buys. An insert at a random place in a page is the per-row work of
// a random-key load; on bits it is a shift and a few masks, without a loop
// or a branch on where the record falls (a branch no predictor learns).
// Measured in model/fast/README.md, "The page directory and the key search". No result depends on it: it
// answers exactly what PageDirectory answers.
//
// The bits live in words the page owns (IndexPage's block from PagePool,
// after the keys); OwnerBits is a view of them, and the caller passes the
// counts it keeps in the page header (PAGE_N_RECS, PAGE_N_DIR_SLOTS).
// Not thread-safe.
#ifndef INNOSIM_MODEL_FAST_OWNER_BITS_H_
#define INNOSIM_MODEL_FAST_OWNER_BITS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/page_format.h"  // kDirSlotMaxNOwned, kDirSlotMinNOwned

namespace innosim {

class OwnerBits {
 public:
  // Words for a page of up to `cap` records: bits for list positions 0..
  // cap + 1, and at least two words, so that pages of up to 126 records
  // shift theirs as one 128-bit integer (InsertInTwoWords).
  static uint32_t Words(uint32_t cap) { return cap + 2 <= 2 * 64 ? 2 : (cap + 2 + 63) / 64; }

  OwnerBits() = default;
  explicit OwnerBits(uint64_t* words) : words_(words) {}
  uint64_t* words() const { return words_; }

  // --- Layouts set in one go; each returns PAGE_N_DIR_SLOTS ---
  // The infimum's slot, n_fours slots owning 4 records each, then the
  // supremum's owning last_owned. page_create is Layout(0, 1, ...).
  uint32_t Layout(uint32_t n_fours, uint32_t last_owned, uint32_t words);
  // page_copy_rec_list_end_to_created_page's layout of n_recs records.
  uint32_t BulkLayout(uint32_t n_recs, uint32_t words);
  // What m appends through page_cur_insert_rec_low leave on an empty page,
  // in closed form: the supremum's group grows to 9, then splits into 4
  // below and 5 kept, every 4 records after the 8th.
  uint32_t AppendedLayout(uint32_t m, uint32_t words) {
    const uint32_t splits = m >= kDirSlotMaxNOwned ? (m - kDirSlotMaxNOwned) / 4 + 1 : 0;
    return Layout(splits, m + 1 - 4 * splits, words);
  }

  // --- Record operations ---
  // page_cur_insert_rec_low's directory steps for a record entering at list
  // position p (the positions from p up move up one): the new record owns
  // nothing, its successor's group owns one more, and a group of 9 splits
  // (page_dir_split_slot). Returns the slots added (0 or 1).
  // InsertInTwoWords: pages whose bits are two words (Words(cap) == 2).
  [[gnu::always_inline]] inline uint32_t InsertInTwoWords(uint32_t p);
  uint32_t InsertInWords(uint32_t p, uint32_t words);
  // page_cur_delete_rec for the record at list position p of a page of
  // n_recs records (before the delete), with page_dir_balance_slot. Returns
  // the slots removed (0 or 1).
  uint32_t DeleteRec(uint32_t p, uint32_t n_recs);
  // page_delete_rec_list_start of the first `to` records of a page of
  // n_recs, applied to the slots' counts at once (the same steps as `to`
  // DeleteRec(1) calls, without shifting every bit at every step). Sets
  // *n_slots. Returns false, changing nothing, on a directory outside
  // InnoDB's bounds (never met on the insert path): the caller then takes
  // the DeleteRec steps.
  bool DeleteStart(uint32_t to, uint32_t n_recs, uint32_t words, uint32_t* n_slots);
  // page_delete_rec_list_end from list position `first` (2..n_recs): the
  // slot owning `first` keeps the survivors of its group and the supremum,
  // which moves to `first`. Returns PAGE_N_DIR_SLOTS.
  uint32_t DeleteEnd(uint32_t first, uint32_t words);

  // --- Reading ---
  // n_owned of slot `slot` (0 = the infimum's) of a page of n_recs records.
  uint32_t NOwned(uint32_t slot, uint32_t n_recs) const;
  // Every slot's n_owned, in slot order.
  std::vector<uint32_t> AllNOwned(uint32_t n_recs) const;
  // The directory's invariants (page_dir_slot_check) and its agreement with
  // PAGE_N_DIR_SLOTS; "" if they hold, else what is wrong.
  std::string Verify(uint32_t n_recs, uint32_t n_slots, uint32_t words) const;

 private:
  bool IsOwner(uint32_t list_pos) const { return (words_[list_pos / 64] >> (list_pos % 64)) & 1; }
  void SetOwner(uint32_t list_pos) { words_[list_pos / 64] |= uint64_t{1} << (list_pos % 64); }
  void ClearOwner(uint32_t list_pos) { words_[list_pos / 64] &= ~(uint64_t{1} << (list_pos % 64)); }
  // The first owner at or after list_pos (the owner of its group), and the
  // last owner before list_pos (list_pos >= 1): the infimum and the
  // supremum always own, so both exist.
  uint32_t NextOwner(uint32_t list_pos) const;
  uint32_t PrevOwner(uint32_t list_pos) const;
  // A record that owns nothing enters at list position p, or the record at
  // p leaves; the positions after it move up or down by one.
  void InsertBit(uint32_t p, uint32_t words);
  void EraseBit(uint32_t p, uint32_t n_recs);

  uint64_t* words_ = nullptr;
};

// The insert on a page whose bits fit one 128-bit word (up to 126 records:
// every 16 KiB page of the seed tables): the bit shift, the group's owners
// and the slot split without a loop or a branch on where p falls.
[[gnu::always_inline]] inline uint32_t OwnerBits::InsertInTwoWords(uint32_t p) {
  using U = unsigned __int128;
  const uint64_t old_lo = words_[0];
  const uint64_t old_hi = words_[1];
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
  words_[0] = static_cast<uint64_t>(x) | (uint64_t{split & (in_hi_word ^ 1)} << (new_owner & 63));
  words_[1] = static_cast<uint64_t>(x >> 64) | (uint64_t{split & in_hi_word} << (new_owner & 63));
  return split;
}

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_OWNER_BITS_H_
