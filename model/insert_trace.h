// InsertTrace: the steps of B-tree inserts as InnoDB takes them, one event
// each, for learners (`innosim explain`).
//
// A BTree with a sink (BTree::set_trace) reports every step of every insert:
// the leaf reached, the optimistic insert or why it failed (no room, or the
// 1/16 reserve of a page that looks sequential), reorganizations, the
// right-sibling shortcut, each split with its rule, root raises, node
// pointers going into parents, pages allocated and merges. Each event names
// the InnoDB function whose rule it is and carries the page header as the
// step found it. Without a sink the insert path pays one predicted test per
// step; no result depends on whether a sink listens.
//
// Pure data. Not thread-safe.
#ifndef INNOSIM_MODEL_INSERT_TRACE_H_
#define INNOSIM_MODEL_INSERT_TRACE_H_

#include <cstdint>

#include "model/index_page.h"
#include "model/key.h"
#include "model/page_format.h"
#include "model/split_rules.h"

namespace innosim {

// The page header fields a split decision reads, as a step found them.
struct PageHeaderView {
  uint32_t page_no = kFilNull;
  uint16_t level = 0;
  uint32_t n_recs = 0;                                    // PAGE_N_RECS
  int last_insert = -1;                                   // PAGE_LAST_INSERT as a record ordinal, -1 = none
  PageDirection direction = PageDirection::kNoDirection;  // PAGE_DIRECTION
  uint32_t n_direction = 0;                               // PAGE_N_DIRECTION
  uint32_t data_size = 0;                                 // page_get_data_size
  uint32_t max_insert = 0;                                // page_get_max_insert_size_after_reorganize(page, 1)
  uint32_t garbage = 0;                                   // PAGE_GARBAGE
  uint32_t usable = 0;                                    // page_get_free_space_of_empty
  uint32_t rec_size = 0;                                  // bytes of one record on this page
  uint32_t page_size = 0;

  static PageHeaderView Of(const IndexPage& p) {
    PageHeaderView h;
    h.page_no = p.page_no();
    h.level = p.level();
    h.n_recs = static_cast<uint32_t>(p.n_recs());
    h.last_insert = p.last_insert();
    h.direction = p.direction();
    h.n_direction = p.n_direction();
    h.data_size = p.DataSize();
    h.max_insert = p.MaxInsertSizeAfterReorganize(1);
    h.garbage = p.garbage();
    h.usable = FreeSpaceOfEmpty(p.page_size());
    h.rec_size = p.rec_size();
    h.page_size = p.page_size();
    return h;
  }
};

enum class TraceStep : uint8_t {
  kLeafReached,         // btr_cur_search_to_nth_level: the leaf and the cursor on it
  kInserted,            // btr_cur_optimistic_insert: the record fit (header after)
  kRefusedNoRoom,       // btr_cur_optimistic_insert: DB_FAIL, no room even after a reorganize
  kRefusedByReserve,    // btr_cur_optimistic_insert: DB_FAIL, the 1/16 reserve of a sequential-looking leaf
  kReorganized,         // btr_page_reorganize_low
  kRightSiblingInsert,  // btr_insert_into_right_sibling
  kRootRaise,           // btr_root_raise_and_insert
  kSplit,               // btr_page_split_and_insert
  kNodePointer,         // btr_insert_on_non_leaf_level
  kPageAllocated,       // btr_page_alloc -> fseg_alloc_free_page_general
  kMerged,              // btr_compress
};

struct TraceEvent {
  TraceStep step = TraceStep::kLeafReached;
  // The InnoDB function whose rule this step is.
  const char* rule = "";
  // The page the step acts on, its header before the step (after it for
  // kInserted: the leaf's header before is kLeafReached's).
  PageHeaderView page;
  // kLeafReached: the record the tuple goes after (-1 = infimum), and the
  // pages fixed on the way down, root first.
  int cursor = -1;
  uint32_t path[16] = {};
  int path_length = 0;
  // kSplit: how, where, and where the halves went.
  SplitDecision::Kind split_kind = SplitDecision::Kind::kMiddle;
  int split_rec = -2;            // first record of the upper half; -2: the tuple itself
  bool insert_left = false;      // the tuple goes to the lower half
  uint32_t new_page = kFilNull;  // the page allocated for the split
  uint32_t lower = kFilNull;
  uint32_t upper = kFilNull;
  uint32_t moved = 0;  // records moved to the new page
  // kNodePointer: the child the new node pointer points to; kPageAllocated:
  // the hint page and whether it came from the leaf segment.
  uint32_t child = kFilNull;
  uint32_t hint = kFilNull;
  bool leaf_segment = false;
  // kMerged: the page merged into.
  uint32_t into = kFilNull;

  // An event of `step` under `rule` on a page whose header is `page`; the
  // step's own fields are set by the caller.
  static TraceEvent At(TraceStep step, const char* rule, const PageHeaderView& page) {
    TraceEvent e;
    e.step = step;
    e.rule = rule;
    e.page = page;
    return e;
  }
};

class InsertTraceSink {
 public:
  virtual ~InsertTraceSink() = default;
  // A new insert of `key` starts (the clustered index's, or a secondary's).
  virtual void OnInsertStart(const Key& key) = 0;
  virtual void OnStep(const TraceEvent& e) = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_INSERT_TRACE_H_
