// BtVacuum: what VACUUM does to one nbtree index (access/nbtree/nbtree.c
// btbulkdelete, btvacuumcleanup, btvacuumscan, btvacuumpage; nbtpage.c
// _bt_pagedel, _bt_mark_page_halfdead, _bt_lock_subtree_parent,
// _bt_unlink_halfdead_page, _bt_pendingfsm_finalize, _bt_vacuum_needs_cleanup).
//
//   BtVacuumStats st = BtVacuum::BulkDelete(ix, dead, next_xid);  // sorted (key, TID)s
//   BtVacuum::VacuumCleanup(ix, &st, next_xid);                    // or nullptr: cleanup only
//
// btvacuumscan visits blocks 1..n-1 in block order: a deleted page whose
// safexid every snapshot has passed goes into the free space map
// (BTPageIsRecyclable -> RecordFreeIndexPage); a leaf loses the tuples
// whose heap TIDs are dead (posting lists lose those TIDs); a leaf left
// empty is deleted in two stages when _bt_pagedel allows (not the
// rightmost page of its level, not the rightmost child of a parent with
// other children): half-dead (the parent's downlink and the next pivot
// go, the key space moves right), then unlinked from its siblings and
// marked deleted with safexid = ReadNextFullTransactionId(). Pages
// deleted in this scan go into the FSM at its end only if their safexid is
// already older than every snapshot (_bt_pendingfsm_finalize), which on a
// quiet server, where no transaction takes an xid meanwhile, never holds;
// they are recycled by a later VACUUM's scan, after some xid was assigned.
//
// Transaction ids: `next_xid` is ReadNextFullTransactionId(); on a quiet
// server (no snapshot held) an xid is removable, GlobalVisCheckRemovable-
// FullXid, when it precedes next_xid. Pure computation; the fast root
// (btm_fastroot) is not kept apart from the root. WAL of VACUUM is not
// written (XLOG_BTREE_VACUUM, _MARK_PAGE_HALFDEAD, _UNLINK_PAGE).
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_VACUUM_H_
#define INNOSIM_MODEL_POSTGRES_VACUUM_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/key.h"
#include "model/postgres/nbtree.h"

namespace innosim::postgres {

// An index tuple's key and heap TID whose heap tuple VACUUM found dead
// (vacuumlazy.c dead_items); BulkDelete wants them sorted.
struct BtDeadTuple {
  Key key;
  HeapTid tid = 0;
  friend auto operator<=>(const BtDeadTuple&, const BtDeadTuple&) = default;
};

// IndexBulkDeleteResult's page counts, as btvacuumscan keeps them.
struct BtVacuumStats {
  uint32_t num_pages = 0;            // blocks scanned, metapage included
  uint64_t tuples_removed = 0;       // heap TIDs removed (each of a posting list counts)
  uint64_t pages_newly_deleted = 0;  // deleted by this scan
  uint64_t pages_deleted = 0;        // deleted pages seen or made
  uint64_t pages_free = 0;           // of those, recorded in the FSM
  uint64_t pages_half_dead = 0;      // _bt_mark_page_halfdead calls that succeeded
  uint64_t pagedel_refused = 0;      // empty leaves _bt_pagedel could not delete
};

class BtVacuum {
 public:
  // btbulkdelete: btvacuumscan removing `dead` (sorted by key, then TID).
  static BtVacuumStats BulkDelete(BtIndex& ix, std::span<const BtDeadTuple> dead, uint64_t next_xid);
  // btvacuumcleanup: after a bulk delete (`stats`) only the metapage's
  // btm_last_cleanup_num_delpages; without one (nullptr: the heap had no
  // dead tuples, or the bypass) a cleanup-only btvacuumscan when
  // _bt_vacuum_needs_cleanup says so (deleted pages not yet in the FSM
  // over 5% of the index's blocks). Returns the stats of the scan it ran
  // (or `stats`).
  static BtVacuumStats VacuumCleanup(BtIndex& ix, const BtVacuumStats* stats, uint64_t next_xid);

  // The stages one at a time, for tests. _bt_pagedel of the empty leaf
  // `leaf` (both stages, then its empty right siblings); false when it
  // deleted nothing.
  static bool PageDel(BtIndex& ix, uint32_t leaf, uint64_t next_xid);
  // btvacuumpage's removal alone (_bt_delitems_vacuum): the dead tuples of
  // leaf `blkno` go, no page deletion follows. Returns the TIDs removed.
  static uint64_t DelItemsVacuum(BtIndex& ix, uint32_t blkno, std::span<const BtDeadTuple> dead);
  // _bt_mark_page_halfdead alone: false when the leaf cannot be deleted.
  static bool MarkPageHalfDead(BtIndex& ix, uint32_t leaf);
  // One _bt_unlink_halfdead_page call for the half-dead `leaf`: unlinks
  // the top page of its subtree. false if `leaf` is not half-dead.
  static bool UnlinkHalfDeadPage(BtIndex& ix, uint32_t leaf, uint64_t next_xid);
  // The heap TID of the tuple with key `key` in a unique index (the
  // executor's index scan of a DELETE ... WHERE pk = ...); false if none.
  static bool FindTid(const BtIndex& ix, const Key& key, HeapTid* tid);
  // Every leaf tuple in key order with its lowest heap TID.
  static void ForEachLeafTuple(const BtIndex& ix, const std::function<void(const Key&, HeapTid)>& f);
  // Metapage btm_last_cleanup_num_delpages as the last btvacuumcleanup set it.
  static uint64_t LastCleanupNumDelpages(const BtIndex& ix);

 private:
  struct Scan;
  static void VacuumScan(BtIndex& ix, std::span<const BtDeadTuple> dead, bool cleanuponly, uint64_t next_xid,
                         BtVacuumStats* stats);
  static void VacuumPage(BtIndex& ix, Scan& scan, uint32_t blkno);
  static void RemoveDead(BtIndex& ix, uint32_t blkno, std::span<const BtDeadTuple> dead, BtVacuumStats* stats);
  static void PageDelAt(BtIndex& ix, Scan& scan, uint32_t leaf);
  static bool LockSubtreeParent(const BtIndex& ix, uint32_t child, uint32_t* subtreeparent, int* poffset,
                                uint32_t* topparent, uint32_t* topparentrightsib);
  static bool UnlinkStep(BtIndex& ix, Scan& scan, uint32_t leaf, bool* rightsib_empty);
  static uint32_t ParentOf(const BtIndex& ix, uint32_t child, int* offset);
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_VACUUM_H_
