#include "model/postgres/vacuumlazy.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "model/postgres/nbtsort.h"

namespace innosim::postgres {
namespace {

// vacuumlazy.c BYPASS_THRESHOLD_PAGES: index vacuuming is skipped when
// fewer than this share of the heap's pages have LP_DEAD items...
constexpr double kBypassThresholdPages = 0.02;
// ... and the dead items take less than 32 MB: REL_15's
// MAXDEADITEMS(32 MB) = (32 MB - offsetof(VacDeadItems, items)) /
// sizeof(ItemPointerData) = 5,592,404 TIDs. (REL_17+ compare the TidStore's
// memory with 32 MB instead; both are far above the tables modelled here.)
constexpr uint64_t kBypassMaxDeadItems = (32ull * 1024 * 1024 - 8) / kSizeOfItemPointerData;
// vacuumlazy.c REL_TRUNCATE_MINIMUM and REL_TRUNCATE_FRACTION.
constexpr uint32_t kRelTruncateMinimum = 1000;
constexpr uint32_t kRelTruncateFraction = 16;

}  // namespace

LazyVacuum::LazyVacuum(PgTable& table) : t_(table) {
  dead_.resize(table.index_count());
  sorted_.assign(table.index_count(), 0);
}

bool LazyVacuum::IsDeadPrimary(const Key& key, HeapTid tid) const {
  if (dead_.empty()) return false;
  const auto& d = dead_[0];
  return std::binary_search(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(sorted_[0]), BtDeadTuple{key, tid});
}

absl::Status LazyVacuum::Delete(const Key& pk, std::span<const Key> secondary_entries) {
  if (t_.primary_ == nullptr) {
    return absl::FailedPreconditionError(
        "DELETE in the PostgreSQL model finds rows by the primary key: give the table a PRIMARY KEY");
  }
  if (secondary_entries.size() != t_.secondary_.size()) {
    return absl::InvalidArgumentError(absl::StrCat("DELETE: ", secondary_entries.size(), " secondary entries for ",
                                                   t_.secondary_.size(), " secondary indexes"));
  }
  HeapTid tid = 0;
  // The primary key's index scan finds the row (a dead one not yet vacuumed
  // is invisible to the DELETE's snapshot).
  if (!BtVacuum::FindTid(*t_.primary_, pk, &tid) || IsDeadPrimary(pk, tid) || DeletedNow(tid)) {
    return absl::NotFoundError("DELETE: no row with that primary key");
  }
  // heap_delete: xmax set on the tuple; pages and indexes unchanged.
  const uint32_t block = static_cast<uint32_t>(tid >> 16);
  if (block >= t_.heap_.pages_.size()) return absl::InternalError("DELETE: heap TID beyond the heap");
  ++t_.heap_.pages_[block].dead;
  const size_t bit = DeletedBit(tid);
  if (bit >= deleted_now_.size()) {
    deleted_now_.resize(static_cast<size_t>(t_.heap_.pages_.size()) * (kMaxHeapTuplesPerPage + 1));
  }
  deleted_now_[bit] = true;
  dead_[0].push_back(BtDeadTuple{pk, tid});
  for (size_t i = 0; i < secondary_entries.size(); ++i) dead_[i + 1].push_back(BtDeadTuple{secondary_entries[i], tid});
  --t_.rows_;
  return absl::OkStatus();
}

LazyVacuumStats LazyVacuum::Vacuum(uint64_t next_xid) {
  LazyVacuumStats st;
  Heap& heap = t_.heap_;
  st.rel_pages = heap.relpages();
  // lazy_scan_prune: each deleted tuple (dead to every snapshot: nothing
  // else runs) becomes an LP_DEAD line pointer, its storage freed.
  for (Heap::Page& p : heap.pages_) {
    st.tuples_deleted += p.dead;
    p.lp_dead = static_cast<uint16_t>(p.lp_dead + p.dead);
    p.dead = 0;
    st.lpdead_items += p.lp_dead;
    st.lpdead_item_pages += p.lp_dead > 0;
  }
  deleted_now_.clear();  // the DELETE committed: its rows are dead_ entries now
  for (size_t i = 0; i < dead_.size(); ++i) {
    std::sort(dead_[i].begin(), dead_[i].end());
    sorted_[i] = dead_[i].size();
  }
  std::vector<BtVacuumStats> bulk(t_.index_count());
  bool index_vacuumed = false;
  if (st.lpdead_items > 0) {
    // lazy_vacuum's bypass (consider_bypass_optimization: INDEX_CLEANUP AUTO,
    // first index pass).
    const double threshold = static_cast<double>(st.rel_pages) * kBypassThresholdPages;
    st.bypassed = static_cast<double>(st.lpdead_item_pages) < threshold && st.lpdead_items < kBypassMaxDeadItems;
    if (!st.bypassed) {
      // lazy_vacuum_all_indexes: btbulkdelete on each index, in order.
      for (size_t i = 0; i < t_.index_count(); ++i) {
        bulk[i] = BtVacuum::BulkDelete(*t_.IndexAt(i), dead_[i], next_xid);
      }
      // lazy_vacuum_heap_rel: LP_DEAD -> LP_UNUSED.
      for (Heap::Page& p : heap.pages_) {
        p.unused = static_cast<uint16_t>(p.unused + p.lp_dead);
        p.lp_dead = 0;
      }
      for (size_t i = 0; i < dead_.size(); ++i) {
        dead_[i].clear();
        sorted_[i] = 0;
      }
      index_vacuumed = true;
    }
  }
  // lazy_cleanup_all_indexes: btvacuumcleanup with the bulk delete's
  // stats, or none (a cleanup-only scan when _bt_vacuum_needs_cleanup).
  for (size_t i = 0; i < t_.index_count(); ++i) {
    st.indexes.push_back(BtVacuum::VacuumCleanup(*t_.IndexAt(i), index_vacuumed ? &bulk[i] : nullptr, next_xid));
  }
  // should_attempt_truncation: the empty tail by the scan's nonempty_pages
  // (pages with tuples; LP_DEAD items do not count), at least
  // REL_TRUNCATE_MINIMUM pages or rel_pages / REL_TRUNCATE_FRACTION; then
  // lazy_truncate_heap cuts back to count_nondeletable_pages: the last page
  // with a used line pointer (LP_DEAD included).
  uint32_t nonempty_pages = 0;
  uint32_t nondeletable = 0;
  for (uint32_t b = 0; b < heap.pages_.size(); ++b) {
    const Heap::Page& p = heap.pages_[b];
    if (p.nline - p.unused - p.lp_dead > 0) nonempty_pages = b + 1;
    if (p.nline - p.unused > 0) nondeletable = b + 1;
  }
  const uint32_t possibly_freeable = st.rel_pages - nonempty_pages;
  st.new_rel_pages = st.rel_pages;
  if (possibly_freeable > 0 &&
      (possibly_freeable >= kRelTruncateMinimum || possibly_freeable >= st.rel_pages / kRelTruncateFraction) &&
      nondeletable < st.rel_pages) {
    for (uint32_t b = nondeletable; b < heap.pages_.size(); ++b) heap.tuples_ -= heap.pages_[b].nline;
    heap.pages_.resize(nondeletable);
    st.new_rel_pages = nondeletable;
  }
  return st;
}

void LazyVacuum::Reindex() {
  // reindex_relation: each index rebuilt by index_build -> btbuild, whose
  // heap scan skips the LP_DEAD items a bypassed VACUUM left.
  for (size_t i = 0; i < t_.index_count(); ++i) {
    std::vector<BtDeadTuple> dead = dead_[i];
    std::sort(dead.begin(), dead.end());
    BtSortBuild::Build(*t_.IndexAt(i), dead);
  }
}

void LazyVacuum::ForEachLiveKey(const std::function<void(const Key&)>& f) const {
  if (t_.primary_ == nullptr) return;
  BtVacuum::ForEachLeafTuple(*t_.primary_, [&](const Key& k, HeapTid tid) {
    if (!IsDeadPrimary(k, tid)) f(k);
  });
}

}  // namespace innosim::postgres
