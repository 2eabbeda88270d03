#include "model/page_dir.h"

#include "absl/strings/str_format.h"

namespace innosim {

void PageDirectory::Create() {
  n_owned_.clear();
  n_owned_.push_back(1);  // the infimum
  n_owned_.push_back(1);  // the supremum
}

uint32_t PageDirectory::n_recs() const {
  uint32_t records = 0;
  for (const uint8_t n : n_owned_) records += n;
  return records - 2;
}

uint32_t PageDirectory::FindOwnerSlot(uint32_t list_pos) const {
  // Slot s owns the list positions after the records of slots 0..s-1.
  uint32_t end = 0;
  for (uint32_t slot = 0; slot < n_slots(); ++slot) {
    end += n_owned_[slot];
    if (list_pos < end) return slot;
  }
  return n_slots() - 1;
}

absl::Status PageDirectory::InsertRec(uint32_t list_pos) {
  const uint32_t n = n_recs();
  if (list_pos < 1 || list_pos > n + 1) {
    return absl::OutOfRangeError(absl::StrFormat("insert at list position %u of a page of %u records", list_pos, n));
  }
  if (n == kPageMaxRecs) return absl::ResourceExhaustedError("the page holds the most records a page can hold");
  // The new record's successor is the record now at list_pos; the new
  // record enters that record's group.
  const uint32_t slot = FindOwnerSlot(list_pos);
  ++n_owned_[slot];
  if (n_owned_[slot] > kDirSlotMaxNOwned) SplitSlot(slot);
  return absl::OkStatus();
}

void PageDirectory::SplitSlot(uint32_t slot_no) {
  const uint32_t n_owned = n_owned_[slot_no];
  const uint32_t lower_half = n_owned / 2;
  n_owned_.insert(n_owned_.begin() + slot_no, static_cast<uint8_t>(lower_half));
  n_owned_[slot_no + 1] = static_cast<uint8_t>(n_owned - lower_half);
}

absl::Status PageDirectory::DeleteRec(uint32_t list_pos) {
  const uint32_t n = n_recs();
  if (list_pos < 1 || list_pos > n) {
    return absl::OutOfRangeError(absl::StrFormat("delete at list position %u of a page of %u records", list_pos, n));
  }
  const uint32_t slot = FindOwnerSlot(list_pos);
  const uint32_t cur_n_owned = n_owned_[slot];
  n_owned_[slot] = static_cast<uint8_t>(cur_n_owned - 1);
  if (cur_n_owned <= kDirSlotMinNOwned) BalanceSlot(slot);
  return absl::OkStatus();
}

void PageDirectory::BalanceSlot(uint32_t slot_no) {
  if (slot_no == n_slots() - 1) return;
  const uint32_t up_slot = slot_no + 1;
  if (n_owned_[up_slot] > kDirSlotMinNOwned) {
    ++n_owned_[slot_no];
    --n_owned_[up_slot];
  } else {
    DeleteSlot(slot_no);
  }
}

void PageDirectory::DeleteSlot(uint32_t slot_no) {
  n_owned_[slot_no + 1] = static_cast<uint8_t>(n_owned_[slot_no + 1] + n_owned_[slot_no]);
  n_owned_.erase(n_owned_.begin() + slot_no);
}

absl::Status PageDirectory::DeleteRecListEnd(uint32_t list_pos) {
  const uint32_t n = n_recs();
  if (list_pos < 1 || list_pos > n + 1) {
    return absl::OutOfRangeError(
        absl::StrFormat("delete from list position %u to the end of a page of %u records", list_pos, n));
  }
  if (list_pos == n + 1) return absl::OkStatus();  // the supremum: nothing to delete
  if (list_pos == 1) {
    Create();  // page_create_empty
    return absl::OkStatus();
  }
  // The slot's group ran from after the lower neighbour's owner up to its
  // owner; the survivors are those before list_pos, and the supremum takes
  // the owner's place.
  const uint32_t slot = FindOwnerSlot(list_pos);
  uint32_t group_start = 0;  // list position of the group's first record
  for (uint32_t s = 0; s < slot; ++s) group_start += n_owned_[s];
  n_owned_[slot] = static_cast<uint8_t>(list_pos - group_start + 1);
  n_owned_.resize(slot + 1);
  return absl::OkStatus();
}

absl::Status PageDirectory::DeleteRecListStart(uint32_t list_pos) {
  const uint32_t n = n_recs();
  if (list_pos < 1 || list_pos > n + 1) {
    return absl::OutOfRangeError(
        absl::StrFormat("delete the records before list position %u of a page of %u records", list_pos, n));
  }
  if (list_pos == n + 1) {
    Create();  // page_create_empty
    return absl::OkStatus();
  }
  for (uint32_t i = 1; i < list_pos; ++i) {
    if (absl::Status s = DeleteRec(1); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status PageDirectory::CopyRecListEndToCreatedPage(uint32_t n_recs) {
  if (this->n_recs() != 0) return absl::FailedPreconditionError("the page is not empty");
  if (n_recs > kPageMaxRecs) return absl::ResourceExhaustedError("more records than a page can hold");
  // page_copy_rec_list_end_to_created_page (page/page0page.cc): a slot every
  // (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2 records.
  constexpr uint32_t kGroup = (kDirSlotMaxNOwned + 1) / 2;
  n_owned_.clear();
  n_owned_.push_back(1);  // the infimum
  uint32_t count = 0;     // records since the last slot
  for (uint32_t i = 0; i < n_recs; ++i) {
    ++count;
    if (count == kGroup) {
      n_owned_.push_back(static_cast<uint8_t>(count));
      count = 0;
    }
  }
  // The last slot merged into the supremum's when the two fit in one group.
  if (n_owned_.size() > 1 && count + 1 + kGroup <= kDirSlotMaxNOwned) {
    count += kGroup;
    n_owned_.pop_back();
  }
  n_owned_.push_back(static_cast<uint8_t>(count + 1));
  return absl::OkStatus();
}

std::string PageDirectory::Verify() const {
  if (n_owned_.size() < 2) return absl::StrFormat("%u directory slots", n_owned_.size());
  if (n_owned_.front() != 1) return absl::StrFormat("the infimum's slot owns %u records", n_owned_.front());
  const uint32_t last = n_slots() - 1;
  if (n_owned_[last] < 1 || n_owned_[last] > kDirSlotMaxNOwned) {
    return absl::StrFormat("the supremum's slot owns %u records", n_owned_[last]);
  }
  for (uint32_t slot = 1; slot < last; ++slot) {
    if (n_owned_[slot] < kDirSlotMinNOwned || n_owned_[slot] > kDirSlotMaxNOwned) {
      return absl::StrFormat("slot %u owns %u records", slot, n_owned_[slot]);
    }
  }
  return "";
}

}  // namespace innosim
