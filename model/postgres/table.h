// A PostgreSQL table as innosim drives it: a heap, the primary key's
// nbtree index and the secondary indexes, filled row by row the way
// heapam and the executor do (ExecInsert: heap_insert first, then
// ExecInsertIndexTuples, each index in order, each entry pointing at the
// row's heap TID).
//
//   PgTable t(kPostgresql15, spec);
//   for each row: t.InsertRow(pk, row); t.InsertIndexEntry(0, k0); ...; t.EndRow();
//   t.Report(); t.Verify(); t.status();
//   t.Commit(); t.Checkpoint();   // the WAL's commit record; CHECKPOINT
//
// Every change writes its WAL record (model/postgres/wal.h): the heap is
// relation 0 of the table's WAL, the primary key's index 1, then the
// secondary indexes in order.
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_TABLE_H_
#define INNOSIM_MODEL_POSTGRES_TABLE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/key.h"
#include "model/postgres/heap.h"
#include "model/postgres/nbtree.h"
#include "model/postgres/profile.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {

struct PgIndexSpec {
  std::string name;             // empty: <table>_<columns>_idx / _key as PostgreSQL names it
  std::vector<size_t> columns;  // column numbers of the key, in order
  bool unique = false;
  int fillfactor = kBtreeDefaultFillfactor;
  bool deduplicate_items = true;
};

struct PgTableSpec {
  std::string name = "t";
  std::vector<PgColumn> columns;
  std::vector<size_t> primary_key;     // column numbers; empty: no primary key
  std::vector<PgIndexSpec> secondary;  // in creation order (ExecInsertIndexTuples' order)
  int fillfactor = kHeapDefaultFillfactor;
};

struct PgIndexReport {
  std::string name;
  bool unique = false;
  PgStatIndex stat;
  BtCounters counters;
  uint64_t dirty_blocks = 0;  // pg_buffercache isdirty census (blocks changed since the checkpoint)
};

struct PgTableReport {
  std::string profile;
  uint64_t rows = 0;
  uint32_t heap_relpages = 0;          // pg_class.relpages of the table (after ANALYZE)
  uint64_t heap_pg_relation_size = 0;  // bytes
  uint64_t heap_dirty_blocks = 0;      // pg_buffercache isdirty census of the heap's main fork
  std::string heap_name;               // the table's name
  WalCounters wal;                     // pg_stat_wal since the table was made
  std::vector<PgIndexReport> indexes;  // the primary key first (when there is one), then the secondaries
};

class PgTable {
 public:
  PgTable(const PgProfile& profile, const PgTableSpec& spec);
  PgTable(const PgTable&) = delete;
  PgTable& operator=(const PgTable&) = delete;

  // heap_insert of the row, then the primary key entry `pk`.
  void InsertRow(const Key& pk, const PgRow& row = {});
  // The entry of secondary index `index` (0-based in spec.secondary).
  void InsertIndexEntry(size_t index, const Key& entry);
  // Ends the row: every secondary index must have had its entry.
  void EndRow();
  // A transaction's commit record (xact.c XactLogCommitRecord).
  void Commit() { wal_->Commit(); }
  // CHECKPOINT: every block clean, the redo pointer at the insert position.
  void Checkpoint() { wal_->Checkpoint(); }
  const Wal& wal() const { return *wal_; }

  PgTableReport Report() const;
  std::string Verify() const;
  absl::Status status() const;

  const Heap& heap() const { return heap_; }
  const BtIndex* primary() const { return primary_.get(); }
  const BtIndex& secondary(size_t i) const { return *secondary_[i]; }
  // Every index in Report()'s order: the primary key first (when there is
  // one), then the secondaries.
  size_t index_count() const { return secondary_.size() + (primary_ != nullptr); }
  const BtIndex& index(size_t i) const { return *IndexAt(i); }
  // Traces index i's inserts (model/postgres/nbtree_trace.h); nullptr stops.
  void set_index_trace(size_t i, BtTraceSink* sink) { IndexAt(i)->set_trace(sink); }

 private:
  BtIndex* IndexAt(size_t i) const {
    return primary_ != nullptr ? (i == 0 ? primary_.get() : secondary_[i - 1].get()) : secondary_[i].get();
  }
  BtIndexDesc MakeIndexDesc(const std::string& name, const std::vector<size_t>& columns, bool unique,
                            int fillfactor, bool dedup);

  PgProfile profile_;
  PgTableSpec spec_;
  std::unique_ptr<Wal> wal_;  // its address stays put: the heap and indexes hold it
  Heap heap_;
  std::unique_ptr<BtIndex> primary_;
  std::vector<std::unique_ptr<BtIndex>> secondary_;
  uint64_t row_tid_ = 0;
  bool in_row_ = false;
  std::vector<bool> entry_done_;
  uint64_t rows_ = 0;
  absl::Status status_;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_TABLE_H_
