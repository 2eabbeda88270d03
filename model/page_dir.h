// PageDirectory: the page directory of an InnoDB index page, as InnoDB keeps
// it, written to be read.
//
// An index page links its records in key order, from the infimum to the
// supremum. Below the page trailer sits the directory: an array of slots,
// each pointing at one record, its *owner*, the last record of its group.
// The owner's header holds n_owned, the size of its group; every other
// record has n_owned = 0. A search binary-searches the slots and then walks
// at most a group's length along the list (page/page0page.cc, the comment
// "THE INDEX PAGE").
//
// The slots own, in order: the infimum's slot exactly 1 record (itself), the
// supremum's slot (the last) 1..8, every other slot PAGE_DIR_SLOT_MIN_N_OWNED
// ..PAGE_DIR_SLOT_MAX_N_OWNED (4..8). An insert adds one record to a group
// and splits a group that reaches 9 (page_dir_split_slot); a delete removes
// one and rebalances a group that drops below 4 (page_dir_balance_slot).
//
// This class keeps only what those rules look at: each slot's n_owned, the
// infimum's slot first and the supremum's last. Records are named by their
// *list position*: 0 is the infimum, 1..n_recs() the user records in key
// order, n_recs() + 1 the supremum. It is the specification of the
// directory: the simulator's pages keep their directory in a faster
// encoding (model/fast/owner_bits.h) that must agree with this class after
// every operation (tests/directory_equivalence_test.cc).
//
// Operations that InnoDB's callers would never ask for (a position off the
// list, a bulk copy onto a page that is not empty) are refused with a
// Status and change nothing. Verify() checks the invariants above.
//
// Example: appending 8 records to an empty page.
//   PageDirectory dir;                              // {1, 1}
//   for (uint32_t i = 1; i <= 7; ++i) dir.InsertRec(i).IgnoreError();
//                                                   // {1, 8}
//   dir.InsertRec(8).IgnoreError();                 // {1, 9}: split: {1, 4, 5}
//
// Value type; not thread-safe.
#ifndef INNOSIM_MODEL_PAGE_DIR_H_
#define INNOSIM_MODEL_PAGE_DIR_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "boost/container/static_vector.hpp"
#include "model/page_format.h"

namespace innosim {

// The most user records a page can hold: the free space of an empty page of
// the largest size (UNIV_PAGE_SIZE_MAX, univ.i) over the smallest COMPACT
// record, its REC_N_NEW_EXTRA_BYTES header and one byte of data (InnoDB
// asserts the same bound, n < UNIV_PAGE_SIZE / (REC_N_NEW_EXTRA_BYTES + 1),
// in page_rec_get_n_recs_before).
inline constexpr uint32_t kPageMaxRecs =
    (kUnivPageSizeMax - kPageNewSupremumEnd - kPageDir - 2 * kPageDirSlotSize) / (kRecNewExtraBytes + 1);

// The most directory slots a page can have: the infimum's and the
// supremum's, and one for every PAGE_DIR_SLOT_MIN_N_OWNED records of the
// largest page.
inline constexpr uint32_t kPageMaxDirSlots = kPageMaxRecs / kDirSlotMinNOwned + 2;

class PageDirectory {
 public:
  // page_create: an empty page.
  PageDirectory() { Create(); }

  // page_create_low (page/page0page.cc), its directory part: two slots, the
  // infimum's and the supremum's, each owning its own record. Also what
  // page_create_empty leaves.
  void Create();

  // --- What the record operations do to the directory ---

  // page_cur_insert_rec_low (page/page0cur.cc), steps "update the number of
  // owned records" and "split the directory slot if needed": a new record
  // is linked in at list position `list_pos` (1..n_recs() + 1, after the
  // record at list_pos - 1). It owns nothing; it joins the group of the
  // record after it, whose owner's n_owned grows by one; a group that now
  // owns more than PAGE_DIR_SLOT_MAX_N_OWNED is split (page_dir_split_slot).
  absl::Status InsertRec(uint32_t list_pos);

  // page_cur_delete_rec (page/page0cur.cc): the user record at `list_pos`
  // (1..n_recs()) is unlinked. Its group owns one record fewer (if it was
  // the owner, the record before it becomes the owner, in the same group).
  // If the group owned PAGE_DIR_SLOT_MIN_N_OWNED or fewer before, it is
  // rebalanced with the group above it (page_dir_balance_slot).
  absl::Status DeleteRec(uint32_t list_pos);

  // page_delete_rec_list_end (page/page0page.cc): deletes the records from
  // `list_pos` (1..n_recs() + 1) to the last one in one go. The slot that
  // owned the record at list_pos now owns the survivors of its group and
  // the supremum; the slots above it are dropped; nothing is rebalanced (the
  // supremum's slot may own fewer than 4). From the supremum: nothing to
  // delete. From the first record: page_create_empty.
  absl::Status DeleteRecListEnd(uint32_t list_pos);

  // page_delete_rec_list_start (page/page0page.cc): deletes the records
  // before `list_pos` (1..n_recs() + 1), one at a time through
  // page_cur_delete_rec on the first record. Up to the supremum:
  // page_create_empty.
  absl::Status DeleteRecListStart(uint32_t list_pos);

  // page_copy_rec_list_end_to_created_page (page/page0cur.cc): n_recs
  // records copied onto a page just created (this directory must be empty)
  // get their slots in one pass: one slot on every
  // (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2 = 4th record, each owning 4; the
  // supremum's slot owns the rest and itself, after taking over the last of
  // those slots when the two together own no more than
  // PAGE_DIR_SLOT_MAX_N_OWNED (so that the result is what inserts would
  // leave on the last group, InnoDB's comment says).
  absl::Status CopyRecListEndToCreatedPage(uint32_t n_recs);

  // --- Reading the directory ---

  // page_dir_find_owner_slot (page/page0page.cc): the slot whose group holds
  // the record at `list_pos` (0..n_recs() + 1). InnoDB walks to the owner
  // along the list and then looks for the slot pointing at it; on counts,
  // the groups are consecutive runs of n_owned records.
  uint32_t FindOwnerSlot(uint32_t list_pos) const;

  // PAGE_N_DIR_SLOTS.
  uint32_t n_slots() const { return static_cast<uint32_t>(n_owned_.size()); }
  // n_owned of slot `slot` (0 = the infimum's, n_slots() - 1 the
  // supremum's).
  uint32_t n_owned(uint32_t slot) const { return n_owned_[slot]; }
  // PAGE_N_RECS: every record the slots own but the infimum and the
  // supremum.
  uint32_t n_recs() const;

  // Checks the invariants of the header comment (page_dir_slot_check,
  // page/page0page.cc); "" if they hold, else what is wrong.
  std::string Verify() const;

 private:
  // page_dir_split_slot (page/page0page.cc): slot `slot_no` owns
  // PAGE_DIR_SLOT_MAX_N_OWNED + 1 = 9 records. A new slot is added just
  // below it (page_dir_add_slot), pointing at the record n_owned / 2 = 4
  // records after the lower neighbour's owner and owning those 4; the old
  // slot keeps the other 5.
  void SplitSlot(uint32_t slot_no);

  // page_dir_balance_slot (page/page0page.cc): slot `slot_no` owns
  // PAGE_DIR_SLOT_MIN_N_OWNED - 1 = 3 records. The supremum's slot has no
  // upper neighbour and is left alone. If the upper neighbour owns more
  // than PAGE_DIR_SLOT_MIN_N_OWNED, it hands its first record down (the
  // slot's pointer moves one record on); else the two merge
  // (page_dir_delete_slot).
  void BalanceSlot(uint32_t slot_no);

  // page_dir_delete_slot (page/page0page.cc): slot `slot_no` is removed and
  // the slot above it inherits its records.
  void DeleteSlot(uint32_t slot_no);

  // n_owned fits in InnoDB's 4-bit field; a group owns at most 9 records,
  // for the moment between an insert and its split.
  boost::container::static_vector<uint8_t, kPageMaxDirSlots> n_owned_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_PAGE_DIR_H_
