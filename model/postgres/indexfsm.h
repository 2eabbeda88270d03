// IndexFsm: an index's free space map as indexfsm.c uses it. A block is
// either free (RecordFreeIndexPage: VACUUM found it deleted and
// recyclable) or not; GetFreeIndexPage hands out a free block and marks it
// used (RecordUsedIndexPage), as _bt_allocbuf (REL_16+) / _bt_getbuf with
// P_NEW (REL_15) asks before extending the relation.
//
//   IndexFsm fsm; fsm.RecordFreeIndexPage(7);
//   uint32_t b = fsm.GetFreeIndexPage();   // 7, then kPNone
//
// The search (freespace.c fsm_search / fsm_search_avail) starts at the FSM
// page's fp_next_slot, takes the first free slot at or after it (wrapping
// around to the first), and moves fp_next_slot past the slot it returns.
// One cursor stands for the FSM's pages here: an index of more than
// SlotsPerFSMPage (4069) blocks has several bottom FSM pages, each with its
// own cursor, which can order a few hand-outs differently. No I/O.
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_INDEXFSM_H_
#define INNOSIM_MODEL_POSTGRES_INDEXFSM_H_

#include <cstdint>
#include <set>

namespace innosim::postgres {

class IndexFsm {
 public:
  // indexfsm.c RecordFreeIndexPage: the block's slot set to BLCKSZ - 1.
  void RecordFreeIndexPage(uint32_t block) { free_.insert(block); }
  // indexfsm.c RecordUsedIndexPage: the block's slot set to 0.
  void RecordUsedIndexPage(uint32_t block) { free_.erase(block); }
  // indexfsm.c GetFreeIndexPage: a free block (then recorded used), or
  // kPNone (InvalidBlockNumber) when there is none.
  uint32_t GetFreeIndexPage();
  bool IsFree(uint32_t block) const { return free_.count(block) != 0; }
  uint64_t free_pages() const { return free_.size(); }
  // A new relfilenode (REINDEX): an empty map.
  void Reset() {
    free_.clear();
    next_slot_ = 0;
  }

 private:
  std::set<uint32_t> free_;
  uint32_t next_slot_ = 0;  // fp_next_slot
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_INDEXFSM_H_
