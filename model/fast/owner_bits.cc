#include "model/fast/owner_bits.h"

#include <cstring>

#include "absl/strings/str_format.h"
#include "model/page_dir.h"  // kPageMaxDirSlots

namespace innosim {

uint32_t OwnerBits::Layout(uint32_t n_fours, uint32_t last_owned, uint32_t words) {
  std::memset(words_, 0, sizeof(uint64_t) * words);
  for (uint32_t s = 0; s <= n_fours; ++s) SetOwner(4 * s);
  SetOwner(4 * n_fours + last_owned);
  return 2 + n_fours;
}

uint32_t OwnerBits::BulkLayout(uint32_t n_recs, uint32_t words) {
  // A slot on every 4th record; the last of them is merged into the
  // supremum's when the remainder plus the supremum plus 4 fits in 8.
  uint32_t slot_index = n_recs / 4;
  uint32_t count = n_recs % 4;
  if (slot_index > 0 && count + 1 + (kDirSlotMaxNOwned + 1) / 2 <= kDirSlotMaxNOwned) {
    count += (kDirSlotMaxNOwned + 1) / 2;
    --slot_index;
  }
  return Layout(slot_index, count + 1, words);
}

uint32_t OwnerBits::NextOwner(uint32_t list_pos) const {
  uint32_t i = list_pos / 64;
  uint64_t x = words_[i] & (~uint64_t{0} << (list_pos % 64));
  while (x == 0) x = words_[++i];
  return i * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
}

uint32_t OwnerBits::PrevOwner(uint32_t list_pos) const {
  const uint32_t last = list_pos - 1;
  uint32_t i = last / 64;
  uint64_t x = words_[i] & (~uint64_t{0} >> (63 - last % 64));
  while (x == 0) x = words_[--i];
  return i * 64 + 63 - static_cast<uint32_t>(__builtin_clzll(x));
}

[[gnu::always_inline]] inline void OwnerBits::InsertBit(uint32_t p, uint32_t words) {
  const uint32_t w = p / 64;
  const uint64_t below = (uint64_t{1} << (p % 64)) - 1;  // kept in word w
  if (words == 2) {
    // Selected through a mask, not a branch: which word p falls in is as
    // random as the keys.
    const uint64_t in_hi = uint64_t{0} - w;
    const uint64_t lo = words_[0];
    const uint64_t hi = words_[1];
    const uint64_t x = lo ^ ((lo ^ hi) & in_hi);
    const uint64_t spliced = (x & below) | ((x << 1) & ~(below | (below + 1)));
    const uint64_t carried = (hi << 1) | (lo >> 63);
    words_[0] = spliced ^ ((spliced ^ lo) & in_hi);
    words_[1] = carried ^ ((carried ^ spliced) & in_hi);
    return;
  }
  // Every word of the block is rewritten, each through masks, for the same
  // reason.
  uint64_t carry = 0;
  for (uint32_t i = 0; i < words; ++i) {
    const uint64_t x = words_[i];
    const uint64_t shifted = (x << 1) | carry;
    carry = x >> 63;
    // Positions that move up: none below word w, all above it, and in word
    // w those past p (p itself takes the new, non-owning record).
    const uint64_t moves = i < w ? 0 : i > w ? ~uint64_t{0} : ~(below | (below + 1));
    const uint64_t keeps = i < w ? ~uint64_t{0} : i > w ? 0 : below;
    words_[i] = (x & keeps) | (shifted & moves);
  }
}

void OwnerBits::EraseBit(uint32_t p, uint32_t n_recs) {
  const uint32_t top = (n_recs + 1) / 64;  // the supremum's word
  const uint32_t w = p / 64;
  const uint64_t below = (uint64_t{1} << (p % 64)) - 1;
  words_[w] = (words_[w] & below) | ((words_[w] >> 1) & ~below);
  for (uint32_t i = w + 1; i <= top; ++i) {
    words_[i - 1] |= words_[i] << 63;
    words_[i] >>= 1;
  }
}

uint32_t OwnerBits::InsertInWords(uint32_t p, uint32_t words) {
  InsertBit(p, words);
  const uint32_t owner = NextOwner(p);
  const uint32_t prev = PrevOwner(p);
  const uint32_t n_owned = owner - prev;
  if (n_owned <= kDirSlotMaxNOwned) return 0;
  // page_dir_split_slot: a new slot below owns n/2, the old one the rest.
  SetOwner(prev + n_owned / 2);
  return 1;
}

uint32_t OwnerBits::DeleteRec(uint32_t p, uint32_t n_recs) {
  const uint32_t owner = NextOwner(p);
  const uint32_t old_owned = owner - PrevOwner(p);
  const bool last_slot = owner == n_recs + 1;
  // The record leaves the list; if it owned its slot, the record before it
  // takes the slot over (either way the owner is now at owner - 1).
  EraseBit(p, n_recs);
  SetOwner(owner - 1);
  if (old_owned > kDirSlotMinNOwned || last_slot) return 0;
  // page_dir_balance_slot: borrow from the upper neighbour or merge into it.
  const uint32_t upper_owned = NextOwner(owner) - (owner - 1);
  ClearOwner(owner - 1);
  if (upper_owned > kDirSlotMinNOwned) {
    SetOwner(owner);
    return 0;
  }
  return 1;
}

bool OwnerBits::DeleteStart(uint32_t to, uint32_t n_recs, uint32_t words, uint32_t* n_slots) {
  // The slots' n_owned in order (the infimum's left out), from the bits.
  // Deleting the first record takes one from the first group; a group that
  // had 4 or fewer then borrows one from the next (page_dir_balance_slot)
  // or, if that one has 4 or fewer too, merges into it.
  uint8_t owned[kPageMaxDirSlots];
  uint32_t slots = 0;
  uint32_t prev = 0;
  const uint32_t supremum = n_recs + 1;
  for (uint32_t w = 0; w <= supremum / 64; ++w) {
    uint64_t x = words_[w];
    if (w == 0) x &= ~uint64_t{1};  // the infimum
    while (x != 0) {
      const uint32_t pos = w * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
      x &= x - 1;
      const uint32_t o = pos - prev;
      const bool last = pos == supremum;
      if (pos > supremum || slots == kPageMaxDirSlots || o > kDirSlotMaxNOwned || (!last && o < kDirSlotMinNOwned)) {
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
  std::memset(words_, 0, sizeof(uint64_t) * words);
  SetOwner(0);
  uint32_t pos = 0;
  for (uint32_t s = first; s < slots; ++s) {
    pos += owned[s];
    SetOwner(pos);
  }
  *n_slots = 1 + slots - first;
  return true;
}

uint32_t OwnerBits::DeleteEnd(uint32_t first, uint32_t words) {
  // The owners from `first` on are dropped; the supremum, now at `first`,
  // owns the rest of the group.
  uint32_t w = first / 64;
  words_[w] &= (uint64_t{1} << (first % 64)) - 1;
  for (++w; w < words; ++w) words_[w] = 0;
  SetOwner(first);
  uint32_t slots = 0;
  for (uint32_t i = 0; i <= first / 64; ++i) slots += static_cast<uint32_t>(__builtin_popcountll(words_[i]));
  return slots;
}

uint32_t OwnerBits::NOwned(uint32_t slot, uint32_t n_recs) const {
  // The slot-th owner's distance from the one before (the infimum, slot 0,
  // owns itself), stepping from owner to owner.
  const uint32_t supremum = n_recs + 1;
  uint32_t prev = 0;
  uint32_t n = 0;
  for (uint32_t w = 0; w <= supremum / 64; ++w) {
    for (uint64_t x = words_[w]; x != 0; x &= x - 1) {
      const uint32_t pos = w * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
      if (pos > supremum) return 0;
      if (n == slot) return slot == 0 ? 1 : pos - prev;
      prev = pos;
      ++n;
    }
  }
  return 0;
}

std::vector<uint32_t> OwnerBits::AllNOwned(uint32_t n_recs) const {
  std::vector<uint32_t> n_owned = {1};  // the infimum's slot
  const uint32_t supremum = n_recs + 1;
  uint32_t prev = 0;
  for (uint32_t w = 0; w <= supremum / 64; ++w) {
    uint64_t x = words_[w];
    if (w == 0) x &= ~uint64_t{1};
    for (; x != 0; x &= x - 1) {
      const uint32_t pos = w * 64 + static_cast<uint32_t>(__builtin_ctzll(x));
      if (pos > supremum) return n_owned;
      n_owned.push_back(pos - prev);
      prev = pos;
    }
  }
  return n_owned;
}

std::string OwnerBits::Verify(uint32_t n_recs, uint32_t n_slots, uint32_t words) const {
  // The infimum owns 1, the supremum 1..8, the others 4..8; together they
  // own every record, and nothing past the supremum owns.
  if (n_slots < 2) return absl::StrFormat("%u directory slots", n_slots);
  const uint32_t supremum = n_recs + 1;
  if (!IsOwner(0) || !IsOwner(supremum)) return "the infimum or the supremum owns no slot";
  for (uint32_t pos = supremum + 1; pos < 64 * words; ++pos) {
    if (IsOwner(pos)) return absl::StrFormat("list position %u past the supremum owns a slot", pos);
  }
  uint32_t slots = 1;
  uint32_t prev = 0;
  for (uint32_t pos = 1; pos <= supremum; ++pos) {
    if (!IsOwner(pos)) continue;
    const uint32_t o = pos - prev;
    const bool ok = pos == supremum ? o <= kDirSlotMaxNOwned : (o >= kDirSlotMinNOwned && o <= kDirSlotMaxNOwned);
    if (!ok) return absl::StrFormat("slot %u owns %u records", slots, o);
    prev = pos;
    ++slots;
  }
  if (slots != n_slots) return absl::StrFormat("%u owners, PAGE_N_DIR_SLOTS %u", slots, n_slots);
  return "";
}

}  // namespace innosim
