// TableEngine: what sim/ needs of a storage engine, and all it may use.
//
// One table (a clustered or heap relation with its primary key and its
// secondary indexes) takes rows in the order a key stream gives them, runs
// the phases of a workload (a DELETE and its clean-up, a rebuild, a
// checkpoint) and says at any time whether its invariants hold. Each engine
// lives in its own folder behind this seam (InnoDB: model/engine.h;
// PostgreSQL: model/postgres/) and reports its figures under its own names
// through the engine's driver in sim/ (sim/engine_driver.h): the seam
// carries rows in, never an engine's counters out.
//
//   TableEngine& e = ...;                     // built by the engine's driver
//   for (...) {
//     e.InsertRow(pk);                        // AlreadyExists: a duplicate
//     for (ix...) e.InsertSecondary(ix, entry);
//     e.EndRow();                             // commit, clock
//   }
//   e.EndLoad();
//
// Pure computation. Not thread-safe: one engine per thread.
#ifndef INNOSIM_MODEL_TABLE_ENGINE_H_
#define INNOSIM_MODEL_TABLE_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "model/key.h"

namespace innosim {

class TableEngine {
 public:
  virtual ~TableEngine() = default;

  // Inserts the row with primary key `pk`: the clustered index, or the heap
  // tuple and the primary key's index entry. AlreadyExists on a duplicate
  // key (nothing changes then).
  virtual absl::Status InsertRow(const Key& pk) = 0;
  // A hint that `pk` will be inserted two InsertRow calls from now (the
  // runner reads its keys ahead); results are the same without it.
  virtual void PrefetchRow(const Key& /*pk*/) {}
  // Inserts the row's entry of secondary index `index` (its key columns,
  // then the primary key, encoded as one ordered Key by sim/secondary_keys.h).
  // AlreadyExists for an entry that ties an existing one.
  virtual absl::Status InsertSecondary(size_t index, const Key& entry) = 0;
  // Ends the row: commits every batch-th row, moves the engine's clock.
  virtual absl::Status EndRow() = 0;
  // Ends the load: commits, then whatever the engine does at a load's end
  // (InnoDB: flushes until no page is dirty). Returns status().
  virtual absl::Status EndLoad() = 0;

  // Phases (sim/phases.h). CommitTrx ends the open transaction (a DDL's or
  // a DELETE's implicit commit).
  virtual void CommitTrx() = 0;
  // DELETE of the row `pk` with its secondary entries (one per secondary
  // index, as InsertSecondary took them). NotFound if there is no such row.
  virtual absl::Status DeleteRow(const Key& pk, absl::Span<const Key> secondary_entries) = 0;
  // The DELETE's commit and the clean-up that follows it (InnoDB's purge,
  // PostgreSQL's VACUUM).
  virtual absl::Status EndDeletes() = 0;
  // Every dirty page written and a checkpoint taken (the CHECKPOINT phase).
  virtual absl::Status Checkpoint() = 0;
  // The table rebuilt by a sorted build (InnoDB's OPTIMIZE TABLE,
  // PostgreSQL's REINDEX), its pages filled to the engine's own setting.
  virtual absl::Status Rebuild() = 0;
  // Every primary key the table holds, in key order.
  virtual void ForEachPrimaryKey(const std::function<void(const Key&)>& f) const = 0;
  // Rows the table holds.
  virtual uint64_t rows() const = 0;

  // OK, or the first failure; sticky. Ask once per transaction, not per row.
  virtual absl::Status status() const = 0;
  // "" if every invariant holds, else the first broken one. O(model): for
  // tests, never per row.
  virtual std::string Verify() const = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_TABLE_ENGINE_H_
