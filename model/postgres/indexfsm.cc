#include "model/postgres/indexfsm.h"

#include "model/postgres/page_layout.h"

namespace innosim::postgres {

uint32_t IndexFsm::GetFreeIndexPage() {
  if (free_.empty()) return kPNone;
  // fsm_search_avail: from fp_next_slot rightwards, wrapping to the start.
  auto it = free_.lower_bound(next_slot_);
  if (it == free_.end()) it = free_.begin();
  const uint32_t block = *it;
  // advancenext at the bottom level: fp_next_slot = slot + 1.
  next_slot_ = block + 1;
  free_.erase(it);  // GetFreeIndexPage's RecordUsedIndexPage
  return block;
}

}  // namespace innosim::postgres
