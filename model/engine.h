// Engine: the model's public surface. One table in one file-per-table
// tablespace, its clustered index and its secondary indexes, driven by
// InsertRow; counters and a page census come out.
//
//   Engine e(EngineProfile::MySQL84(), Seed000Table(16));
//   for (...) e.InsertRow(key);
//   EngineReport r = e.Report();   // index_page_splits, size, leaf_fill...
//
// Pure computation: no I/O. Not thread-safe; run one engine per thread.
#ifndef INNOSIM_MODEL_ENGINE_H_
#define INNOSIM_MODEL_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/btree.h"
#include "model/engine_profile.h"
#include "model/key.h"
#include "model/page_events.h"
#include "model/record_format.h"
#include "model/redo_format.h"
#include "model/tablespace.h"

namespace innosim {

// The figures of one index, as the server reports them.
struct IndexReport {
  std::string name;
  IndexCounters counters;
  uint64_t size = 0;          // mysql.innodb_index_stats 'size' (reserved pages)
  uint64_t n_leaf_pages = 0;  // mysql.innodb_index_stats 'n_leaf_pages'
  uint64_t used_pages = 0;    // pages in use by the tree, both segments
  uint32_t height = 0;
  double leaf_fill = 0;       // used bytes / usable bytes on leaf pages
  std::vector<LevelCensus> levels;  // root level first
};

struct EngineReport {
  uint64_t rows = 0;
  IndexReport primary;
  std::vector<IndexReport> secondary;
  uint64_t data_length = 0;   // PRIMARY size x page size
  uint64_t index_length = 0;  // secondary sizes x page size
  uint64_t data_free = 0;     // DATA_FREE
  uint64_t file_size = 0;     // FSP_SIZE x page size
  size_t model_bytes = 0;     // memory the model holds for pages
};

class Engine {
 public:
  // With a sink, every page access and change goes to it, and every
  // mini-transaction reports its redo bytes (the undo record of each row in
  // its own mtr first, as trx_undo_report_row_operation does).
  Engine(const EngineProfile& profile, const TableDef& table, PageEventSink* sink = nullptr);

  // Inserts one row with primary key `pk` into the clustered index.
  // AlreadyExists on a duplicate key (the tree is unchanged then).
  // Inline: without a sink it is the B-tree insert and a count, one call
  // per row fewer on the per-row path.
  absl::Status InsertRow(const Key& pk) {
    if (sink_ != nullptr) LogUndoInsert();
    absl::Status s = primary_->Insert(pk);
    if (s.ok()) ++rows_;
    return s;
  }
  // A hint that a row with primary key `pk` will be inserted two InsertRow
  // calls from now (see BTree::Prefetch): a caller that reads its keys
  // ahead lets the model overlap the cache misses of random keys. Results
  // are the same with or without it.
  void PrefetchRow(const Key& pk) { primary_->Prefetch(pk); }
  // Commits the current transaction (its undo log's life in redo).
  void CommitTrx();
  // Inserts an entry of secondary index `index`: its key columns followed by
  // the PK, encoded as one ordered Key by the caller.
  absl::Status InsertSecondary(size_t index, const Key& entry);

  // Reports every step of every PRIMARY insert to `trace` (not owned;
  // nullptr: none), for `innosim explain`. Changes no result.
  void set_trace(InsertTraceSink* trace) { primary_->set_trace(trace); }
  // Turns every index's speed devices on or off (fast/fast_path.h);
  // results are identical either way.
  void set_fast_path(const FastPath::Devices& d);

  EngineReport Report() const;
  // "" if every invariant holds, else the first broken one: each index's
  // BTree::Verify (PRIMARY, then the secondary indexes in order; each checks
  // the shared tablespace too), then the sink's (FlushModel: buffer pool,
  // redo, page cleaner). O(model); for tests, never per row.
  std::string Verify() const;
  // OK, or the first failure of the page-event sink (e.g. a buffer pool too
  // small for one mini-transaction): sticky, and the run's figures mean
  // nothing once it is not OK. The tree itself stays valid. Cheap but not
  // free (a virtual call): ask once per transaction, not per row.
  absl::Status status() const { return sink_ != nullptr ? sink_->status() : absl::OkStatus(); }

  const BTree& primary() const { return *primary_; }
  const BTree& secondary(size_t i) const { return *secondary_[i]; }
  size_t n_secondary() const { return secondary_.size(); }
  const Tablespace& tablespace() const { return space_; }
  const PageStore& page_store() const { return store_; }
  const EngineProfile& profile() const { return profile_; }
  uint64_t rows() const { return rows_; }

 private:
  IndexReport ReportIndex(const BTree& t, const std::string& name) const;
  // The row's insert undo record, in its own mtr, reported to the sink.
  void LogUndoInsert();

  EngineProfile profile_;
  TableDef table_;
  Tablespace space_;
  PageStore store_;
  std::unique_ptr<BTree> primary_;
  std::vector<std::unique_ptr<BTree>> secondary_;
  uint64_t rows_ = 0;
  PageEventSink* sink_ = nullptr;
  std::unique_ptr<RedoFormat> primary_redo_;
  std::vector<std::unique_ptr<RedoFormat>> secondary_redo_;
  uint64_t trx_rows_ = 0;      // rows of the open transaction
  uint32_t undo_rec_bytes_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_ENGINE_H_
