// BtSortBuild: REINDEX of one nbtree index, as nbtsort.c builds it from
// the heap's live tuples sorted by (key, heap TID): _bt_load feeds the
// leaf level, _bt_buildadd fills each page until the next tuple would not
// fit (leaving room for a heap TID in a leaf's high key) or the page's free
// space, counting the posting list of its last tuple as free (btps_lastextra:
// that tuple becomes the high key and loses it), falls under btps_full
// (leaves: BLCKSZ * (100 - fillfactor) / 100,
// BTREE_DEFAULT_FILLFACTOR 90 or the index's reloption; internal pages:
// BTREE_NONLEAF_FILLFACTOR 70), then moves the page's last tuple to a new
// page, makes the old page's high key from it (_bt_truncate on a leaf) and
// adds the old page's low key as a downlink one level up (_bt_pagestate
// makes that level on first use). _bt_uppershutdown ends each level's
// rightmost page (no high key) and the top page becomes the root.
// Block numbers are given in that order (btws_pages_alloced), so every
// right sibling has a higher block number: leaf_fragmentation 0.
// A non-unique index that deduplicates (deduplicate_items, all columns
// equal-image) merges equal keys into posting lists on the way
// (_bt_dedup_save_htid with maxpostingsize = MAXALIGN_DOWN(BLCKSZ * 10 /
// 100) - sizeof(ItemIdData), _bt_sort_dedup_finish_pending); unique
// indexes never do (btspool->isunique).
//
//   BtSortBuild::Build(index, dead);   // dead: entries of dead heap tuples, sorted
//
// The new index is a new relfilenode: no deleted pages, an empty FSM.
// Not modelled: its WAL (log_newpage of every block). Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_NBTSORT_H_
#define INNOSIM_MODEL_POSTGRES_NBTSORT_H_

#include <span>

#include "model/postgres/nbtree.h"
#include "model/postgres/vacuum.h"

namespace innosim::postgres {

class BtSortBuild {
 public:
  // Rebuilds `ix` from its own entries minus `dead` (sorted; the entries of
  // heap tuples that are dead but still indexed, which the build's heap
  // scan skips).
  static void Build(BtIndex& ix, std::span<const BtDeadTuple> dead = {});
  // The leaf tuples a build of `ix` would take, in order, each with one
  // heap TID (posting lists expanded): for tests.
  static uint64_t CountTuples(const BtIndex& ix);

 private:
  struct Level;
  class Writer;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_NBTSORT_H_
