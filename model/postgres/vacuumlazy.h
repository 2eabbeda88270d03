// LazyVacuum: DELETE of a table's rows, the VACUUM that follows, and
// REINDEX TABLE, on one PgTable (model/postgres/table.h).
//
//   LazyVacuum v(table);
//   v.Delete(pk, secondary_entries);     // heapam.c heap_delete: xmax set, nothing removed
//   LazyVacuumStats s = v.Vacuum(next_xid);
//   v.Reindex();
//
// Vacuum is vacuumlazy.c's heap_vacuum_rel on a quiet server: lazy_scan_heap
// prunes each deleted tuple to an LP_DEAD line pointer (lazy_scan_prune;
// the table has indexes); lazy_vacuum then skips the indexes when fewer than
// BYPASS_THRESHOLD_PAGES (2%) of the heap's pages hold LP_DEAD items
// (the bypass of PostgreSQL 14+; the LP_DEAD items and their index tuples
// stay for a later VACUUM), else runs btbulkdelete on every index
// (vacuum.h) and sets the LP_DEAD line pointers LP_UNUSED
// (lazy_vacuum_heap_rel); lazy_cleanup_all_indexes runs btvacuumcleanup
// on each index; lazy_truncate_heap cuts the heap's empty tail when it is
// at least REL_TRUNCATE_MINIMUM (1000) pages or 1/REL_TRUNCATE_FRACTION
// (16) of the heap. Otherwise heap pages stay (relpages unchanged).
//
// Not modelled: the dead-item memory limit's extra index passes
// (maintenance_work_mem 64 MB: 11M TIDs on PostgreSQL 15; a TidStore on
// 17+), the heap's free space after VACUUM and the FSM that would hand it to
// later inserts (PgEngine refuses inserts after a VACUUM), WAL of DELETE,
// VACUUM and REINDEX. A DELETE needs the table's primary key to find rows.
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_VACUUMLAZY_H_
#define INNOSIM_MODEL_POSTGRES_VACUUMLAZY_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "model/key.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/table.h"
#include "model/postgres/vacuum.h"

namespace innosim::postgres {

struct LazyVacuumStats {
  uint64_t tuples_deleted = 0;         // tuples pruned by this VACUUM
  uint64_t lpdead_items = 0;           // LP_DEAD items after pruning
  uint64_t lpdead_item_pages = 0;      // heap pages holding them
  bool bypassed = false;               // index vacuuming skipped (BYPASS_THRESHOLD_PAGES)
  uint32_t rel_pages = 0;              // heap pages scanned
  uint32_t new_rel_pages = 0;          // after lazy_truncate_heap
  std::vector<BtVacuumStats> indexes;  // btbulkdelete/btvacuumcleanup of each index, Report() order
};

class LazyVacuum {
 public:
  explicit LazyVacuum(PgTable& table);

  // DELETE of the row whose primary key is `pk`, with its secondary index
  // entries (one per secondary index, as InsertIndexEntry took them).
  // NotFound when no live row has that key; FailedPrecondition without a
  // primary key.
  absl::Status Delete(const Key& pk, std::span<const Key> secondary_entries);
  // VACUUM of the table. `next_xid`: ReadNextFullTransactionId() now.
  LazyVacuumStats Vacuum(uint64_t next_xid);
  // REINDEX TABLE: every index rebuilt by nbtsort.c from the live tuples.
  void Reindex();
  // The primary key's live keys in key order (dead ones still indexed skipped).
  void ForEachLiveKey(const std::function<void(const Key&)>& f) const;

 private:
  bool IsDeadPrimary(const Key& key, HeapTid tid) const;

  PgTable& t_;
  // Per index (Report() order): entries of deleted tuples still indexed,
  // sorted up to sorted_[i] (the rest: this DELETE's, in arrival order).
  std::vector<std::vector<BtDeadTuple>> dead_;
  std::vector<size_t> sorted_;
  // The TIDs the current DELETE took, a bit each at block *
  // (kMaxHeapTuplesPerPage + 1) + offset: a DELETE of a whole table's rows
  // in key order visits its TIDs at random, and a bitmap of the heap stays
  // in the CPU's cache where a hash set of as many TIDs did not.
  std::vector<bool> deleted_now_;
  bool DeletedNow(HeapTid tid) const {
    const size_t bit = DeletedBit(tid);
    return bit < deleted_now_.size() && deleted_now_[bit];
  }
  static size_t DeletedBit(HeapTid tid) {
    return static_cast<size_t>(tid >> 16) * (kMaxHeapTuplesPerPage + 1) + static_cast<size_t>(tid & 0xffff);
  }
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_VACUUMLAZY_H_
