// BtTraceSink: the steps of nbtree inserts as PostgreSQL takes them, one
// event each, for learners (`innosim explain --profile postgresql-18`).
//
// A BtIndex with a sink (BtIndex::set_trace) reports every step of every
// insert: the leaf reached (by _bt_search_insert's rightmost-leaf fastpath
// or a descent, and why the fastpath was not taken), a deduplication pass
// (_bt_dedup_pass), the tuple added (_bt_insertonpg), each split with
// _bt_findsplitloc's strategy, candidates, interval and penalty and the new
// high key (_bt_split, _bt_truncate), the downlink into the parent
// (_bt_insert_parent) and a new root (_bt_newlevel). Each event names the
// PostgreSQL function whose rule it is. Without a sink the insert path
// pays one predicted test per step and allocates nothing; no result
// depends on whether a sink listens.
//
// Pure data. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_NBTREE_TRACE_H_
#define INNOSIM_MODEL_POSTGRES_NBTREE_TRACE_H_

#include <cstdint>

#include "model/key.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/split_point.h"

namespace innosim::postgres {

// An nbtree page as a step found or left it.
struct BtPageView {
  uint32_t block = kPNone;
  uint32_t level = 0;     // btpo_level
  int nitems = 0;         // data items (the high key apart)
  bool rightmost = true;  // P_RIGHTMOST: no right sibling, no high key
  int free_space = 0;     // PageGetFreeSpace: pd_upper - pd_lower - one line pointer
  int exact_free = 0;     // PageGetExactFreeSpace: pd_upper - pd_lower
  uint32_t next = kPNone;  // btpo_next
  int posting_lists = 0;   // data items that are posting-list tuples (leaf)
  // Bytes used of the kBTPageSpace (8152) the page offers: line pointers
  // and tuples, the high key's included.
  int used() const { return kBTPageSpace - exact_free; }
};

enum class BtStep : uint8_t {
  kLeafReached,   // _bt_search_insert: the fastpath's cached rightmost leaf, or _bt_search
  kDedupPass,     // _bt_dedup_pass (from _bt_delete_or_dedup_one_page)
  kInserted,      // _bt_insertonpg: the tuple fit (PageAddItem), any level
  kSplit,         // _bt_split with _bt_findsplitloc
  kInsertParent,  // _bt_insert_parent: the right half's downlink goes into the parent
  kNewRoot,       // _bt_newlevel: the root split, a new root above it
};

// Why _bt_search_insert did or did not take the fastpath.
enum class BtFastpath : uint8_t {
  kTaken,         // the cached block is still the rightmost leaf, has room, and the key sorts after its last item
  kTreeTooLow,    // nothing cached: _bt_insertonpg caches only from BTREE_FASTPATH_MIN_LEVEL (2)
  kNotCached,     // nothing cached: the previous insert split, or was not on the rightmost leaf
  kNoRoom,        // cached, but PageGetFreeSpace is not above the tuple's size
  kNotAfterLast,  // cached, but the key does not sort after the page's last item
};

struct BtTraceEvent {
  BtStep step = BtStep::kLeafReached;
  // The PostgreSQL function whose rule this step is.
  const char* rule = "";
  // The page the step acts on: before the step (kLeafReached, kDedupPass,
  // kSplit: the page that splits; kInsertParent: the parent before the
  // downlink goes in) or after it (kInserted; kNewRoot: the new root with
  // its two downlinks).
  BtPageView page;
  // kLeafReached: how, the pages fixed on the way down (root first, the
  // leaf last), the insert position among the data items (0-based) and the
  // new tuple's MAXALIGNed size; kInserted: the position too.
  BtFastpath fastpath = BtFastpath::kNotCached;
  uint32_t path[16] = {};
  int path_length = 0;
  int offset = 0;
  int itemsz = 0;
  // kDedupPass: the page after, posting lists formed (nintervals), whether
  // the single-value strategy ran and whether the new tuple then fits.
  BtPageView after;
  int nintervals = 0;
  bool singlevalue = false;
  bool split_avoided = false;
  // kSplit: _bt_findsplitloc's decision (split.kind, candidates, interval,
  // penalty, fillfactor; firstoldonright, newitemonleft, leftfree,
  // rightfree), the new right page (allocated by extending the relation:
  // _bt_allocbuf), its old right sibling whose btpo_prev now points at it,
  // both halves after (`after` the left, `right` the right), and the left
  // page's new high key as _bt_truncate built it.
  SplitDecision split;
  uint32_t right_block = kPNone;
  uint32_t old_next = kPNone;
  BtPageView right;
  Key hikey;
  int hikey_natts = 0;     // key attributes kept
  int hikey_size = 0;      // MAXALIGNed size
  bool hikey_heap_tid = false;  // all key attributes equal: a heap TID appended
  // kInsertParent: the child whose downlink went in (the right half) and
  // the downlink's position in the parent; kNewRoot: the two children.
  uint32_t child = kPNone;
  uint32_t left_child = kPNone;

  static BtTraceEvent At(BtStep step, const char* rule, const BtPageView& page) {
    BtTraceEvent e;
    e.step = step;
    e.rule = rule;
    e.page = page;
    return e;
  }
};

class BtTraceSink {
 public:
  virtual ~BtTraceSink() = default;
  // A new index tuple for `key` (the index's key bytes) goes into the index.
  virtual void OnInsertStart(const Key& key) = 0;
  virtual void OnStep(const BtTraceEvent& e) = 0;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_NBTREE_TRACE_H_
