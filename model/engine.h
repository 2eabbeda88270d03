// Engine: the model's public surface, and the one door a load goes through.
// One table in one file-per-table tablespace, its clustered index and its
// secondary indexes; rows go in, counters and a page census come out.
//
//   EngineOptions o;
//   o.flush = settings;        // the buffer pool, redo log and page cleaner
//   o.trx_rows = 1000;         // the seed's 1000-row multi-row INSERTs
//   o.rows_per_sec = 127290;   // the simulated clock the page cleaner runs on
//   Engine e(EngineProfile::ForServer(settings), Seed000Table(16), o);
//   for (...) {
//     e.InsertRow(pk);                               // AlreadyExists: duplicate
//     for (ix...) e.InsertSecondary(ix, entry);      // row_ins order
//     if (absl::Status s = e.EndRow(); !s.ok()) ...  // commit, clock
//   }
//   if (absl::Status s = e.EndLoad(); !s.ok()) ...   // commit, flush all
//   EngineReport r = e.Report();   // index_page_splits, size, leaf_fill...
//   e.flush_model()->counters();   // Innodb_pages_written... (flush on)
//
// Without o.flush the engine is the B-trees alone (structure only) and
// EndRow costs one test. sim/runner.cc's Run() and tools/bench.cc drive it
// this way.
//
// Pure computation: no I/O. Not thread-safe; run one engine per thread.
#ifndef INNOSIM_MODEL_ENGINE_H_
#define INNOSIM_MODEL_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "model/big_rec.h"
#include "model/btree.h"
#include "model/dict_stats.h"
#include "model/engine_profile.h"
#include "model/fast/fan_out_sink.h"
#include "model/flush_model.h"
#include "model/key.h"
#include "model/page_events.h"
#include "model/record_format.h"
#include "model/redo_format.h"
#include "model/server_settings.h"
#include "model/table_engine.h"
#include "model/tablespace.h"
#include "model/undo_log.h"

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
  // Pages of off-page columns (FIL_PAGE_TYPE_BLOB, or MySQL's LOB pages),
  // part of PRIMARY's leaf segment: in its n_leaf_pages and size.
  uint64_t extern_pages = 0;
  size_t model_bytes = 0;     // memory the model holds for pages
};

// How a load runs: what the engine simulates besides the B-trees, and the
// load's transactions and clock.
struct EngineOptions {
  // The buffer pool, redo log and page cleaner (a FlushModel the engine
  // owns), configured from these server settings; none = structure only.
  std::optional<ServerSettings> flush;
  // Rows per transaction, >= 1: the seed's multi-row INSERT batch, committed
  // by EndRow at every trx_rows-th row.
  uint64_t trx_rows = 1000;
  // Simulated insert rate, > 0 with flush: row i ends at i / rows_per_sec
  // seconds, the clock of the page cleaner's once-per-second decisions. An
  // input, not derived: docs/flushing.md shows the sensitivity.
  double rows_per_sec = 100000;
  // innodb_fill_factor: how full OPTIMIZE TABLE's sorted build fills pages
  // (Rebuild(); model/bulk_load.h). 100 unless set.
  uint32_t fill_factor = 100;
  // Keep each page's write count (BufferPool::Options::count_page_writes);
  // a picture's input, not a server counter.
  bool count_page_writes = true;
  // Seconds the load's end waits for the final flush (the seed's "wait
  // until dirty pages are 0"), through which the server's background
  // statistics recalculation goes on: one due within them runs before the
  // final flush (EndLoad). 0: none, the wait's length being unknown without
  // a server (`measure` passes its server's).
  double end_wait_s = 0;
};

// InnoDB behind the engine seam (model/table_engine.h). Final: a caller that
// holds an Engine itself (bench, tests) gets its inline per-row calls.
class Engine final : public TableEngine {
 public:
  // The space id the table's page events carry: the buffer pool's pages
  // (FlushModel) are keyed by it. A key of the simulator, not InnoDB's
  // space id (the redo records use the server's, engine.cc).
  static constexpr uint32_t kPageEventSpace = 0;
  // The key of the undo pages' events (UndoLogs: the undo tablespaces or
  // the system tablespace the insert undo logs and rollback segments live
  // in); a key of the simulator, chosen to collide with no table's.
  static constexpr uint32_t kUndoPageEventSpace = 0xFFFFFFEFu;

  // A load with `options`. trx_rows == 0 or, with flush, rows_per_sec <= 0
  // is InvalidArgument in status(), and the load runs with the defaults
  // instead (its figures mean nothing).
  Engine(const EngineProfile& profile, const TableDef& table, const EngineOptions& options);
  // One table and its trees for several server configurations at once (a
  // speed device, model/fast/fan_out_sink.h): each of `instances` (every one
  // with its flush settings) gets a server instance of its own, with its
  // buffer pool, redo log and page cleaner, undo logs, statistics
  // recalculation and clock, and sees exactly the page events a load of its
  // own would; the rows, the trees and Report() are shared. Only what no
  // tree reads may differ between them: the flush settings, rows_per_sec,
  // trx_rows, end_wait_s and count_page_writes (the caller checks the server
  // variables: sim/shared_tree.h). fill_factor is the first's. An instance
  // without flush settings is InvalidArgument in status().
  Engine(const EngineProfile& profile, const TableDef& table, absl::Span<const EngineOptions> instances);
  // A sink of the caller's own (tests): every page access and change goes to
  // it, and every mini-transaction reports its redo bytes (the undo record
  // of each row in its own mtr first, as trx_undo_report_row_operation
  // does). EndRow commits every 1000 rows then; the caller runs any clock.
  Engine(const EngineProfile& profile, const TableDef& table, PageEventSink* sink = nullptr);

  // Inserts one row with primary key `pk` into the clustered index.
  // AlreadyExists on a duplicate key (the tree is unchanged then).
  // Inline: without a sink it is the B-tree insert and a count, one call
  // per row fewer on the per-row path.
  // A row whose off-page columns (model/big_rec.h) leave the record then
  // has their pages stored (row_ins_index_entry_big_rec).
  absl::Status InsertRow(const Key& pk) override {
    if (sink_ != nullptr) LogUndoInsert();
    absl::Status s = primary_->Insert(pk);
    if (s.ok()) {
      ++rows_;
      if (!big_rec_.columns.empty()) s = primary_->StoreExtern(pk, big_rec_.extern_bytes);
    }
    return s;
  }
  // A hint that a row with primary key `pk` will be inserted two InsertRow
  // calls from now (see BTree::Prefetch): a caller that reads its keys
  // ahead lets the model overlap the cache misses of random keys. Results
  // are the same with or without it.
  void PrefetchRow(const Key& pk) override { primary_->Prefetch(pk); }
  // Inserts an entry of secondary index `index`: its key columns followed by
  // the PK, encoded as one ordered Key by the caller.
  absl::Status InsertSecondary(size_t index, const Key& entry) override;
  // Ends the row (after its InsertRow and InsertSecondary calls, refused or
  // not): commits the transaction at every trx_rows-th row and moves the
  // simulated clock one row on, which runs the page cleaner at each whole
  // second. Returns status() when it committed, OK otherwise (so a caller
  // that stops at the first error learns of it once per transaction, not
  // per row). Structure only: one inline test.
  absl::Status EndRow() override {
    if (sink_ == nullptr) return absl::OkStatus();
    return EndRowLogged();
  }
  // Ends the load as the seed did: commits the open transaction, then
  // flushes until no page is dirty (a statistics recalculation due within
  // EngineOptions::end_wait_s running first). Returns status().
  absl::Status EndLoad() override;
  // Commits the current transaction (UndoLogs::Commit: its undo log cached
  // or freed, the rollback segment, their redo). EndRow
  // and EndLoad call it; a caller with its own sink may too.
  void CommitTrx() override;

  // OPTIMIZE TABLE on InnoDB (ALTER TABLE ... FORCE, an in-place rebuild,
  // row0merge.cc row_merge_build_indexes): a new .ibd whose indexes are
  // created as CREATE TABLE creates them, the clustered index bulk-loaded
  // from the old one's rows in key order while they are read, then each
  // secondary index from its sorted entries (BTree::BulkLoad). The rebuilt
  // indexes carry the old ones' counters (INNODB_METRICS are server-wide).
  // With a sink, the new table's pages are created, allocated and built
  // in the pool under a new table_space(), with MariaDB's redo (MySQL's
  // build logs none and writes the pages it built at its end,
  // Flush_observer::flush); then the old tablespace is dropped, its dirty
  // pages never written (BufferPool::DropSpace). With the flush model the
  // rows take a row's time each, passed after the clustered index's build.
  absl::Status Rebuild(uint32_t fill_factor);
  // Rebuild at EngineOptions::fill_factor (innodb_fill_factor).
  absl::Status Rebuild() override { return Rebuild(fill_factor_); }

  // DELETE of the row with primary key `pk` (one statement's transaction,
  // rows in key order): its clustered record delete-marked, its undo record
  // written, then its entry of each secondary index (`secondary_entries[i]`
  // of index i, as InsertSecondary took it) delete-marked, each in an mtr
  // of its own (row_upd_del_mark_clust_rec, row_upd_sec_index_entry). The
  // row leaves rows() at once, the tree at EndDeletes. NotFound if there is
  // no such row (nothing is marked then); an entry a secondary index does
  // not hold (a tie the compact encoding of an entry past 32 bytes could
  // not break) is skipped. FailedPrecondition without one entry per
  // secondary index. With the flush model each row moves the clock a row on.
  absl::Status DeleteRow(const Key& pk, absl::Span<const Key> secondary_entries = {}) override;
  // The DELETE's commit and its purge, row by row in DeleteRow's order
  // (row_purge_del_mark): each secondary entry removed
  // (row_purge_remove_sec_if_poss), then the clustered record
  // (row_purge_remove_clust_if_poss), each by BTree::Purge, the clock a row
  // on per row; then the undo log's segment freed
  // (trx_purge_truncate_history). Forgets the speed devices' routes
  // (BTree::ResetFastPath). Returns status().
  absl::Status EndDeletes() override;

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
  std::string Verify() const override;
  // OK, or the first failure: bad options (InvalidArgument), a broken
  // tablespace precondition (Internal, naming the fsp function), then the
  // sink's (e.g. a buffer pool too small for one mini-transaction). Sticky,
  // and the run's figures mean nothing once it is not OK. Cheap but not
  // free (a virtual call): ask once per transaction, not per row.
  absl::Status status() const override;
  // The server instances the load feeds: one, or one per configuration of
  // the several-configuration constructor, in its order. The accessors
  // below take an instance's number; 0 is the only one of a plain load.
  size_t n_instances() const { return instances_.size(); }
  // status() as instance `i` alone would report it: the options, the
  // tablespace, then its own sink.
  absl::Status instance_status(size_t i) const;
  // The flush model the engine owns (counters, Snapshot for a time series),
  // or nullptr without EngineOptions::flush.
  const FlushModel* flush_model(size_t i = 0) const { return instances_[i].flush.get(); }
  // The undo logs and rollback segments (model/undo_log.h), or nullptr
  // without a sink.
  const UndoLogs* undo_logs(size_t i = 0) const { return instances_[i].undo.get(); }
  // The statistics recalculation (model/dict_stats.h), or nullptr without
  // the flush model.
  const DictStats* dict_stats(size_t i = 0) const { return instances_[i].stats.get(); }
  // A sharp checkpoint in the middle of a load (innosim's CHECKPOINT phase):
  // the open transaction committed, every dirty page written, the checkpoint
  // taken at the current LSN, as the load's end does (EndLoad). Needs the
  // flush model; without it nothing happens.
  absl::Status Checkpoint() override;

  const BTree& primary() const { return *primary_; }
  const BTree& secondary(size_t i) const { return *secondary_[i]; }
  size_t n_secondary() const { return secondary_.size(); }
  const Tablespace& tablespace() const { return space_; }
  const PageStore& page_store() const { return store_; }
  const EngineProfile& profile() const { return profile_; }
  // The clustered record's off-page columns (dtuple_convert_big_rec).
  const BigRec& big_rec() const { return big_rec_; }
  uint64_t rows() const override { return rows_; }
  void ForEachPrimaryKey(const std::function<void(const Key&)>& f) const override { primary_->ForEachKey(f); }
  // The key of the table's page events: kPageEventSpace, then one more per
  // Rebuild (a new .ibd, a new space id).
  uint32_t table_space() const { return table_space_; }

 private:
  // One server instance's side of the load: what a configuration has of its
  // own while the table and trees are shared (see the several-configuration
  // constructor).
  struct Instance {
    // The flush model (EngineOptions::flush), or none.
    std::unique_ptr<FlushModel> flush;
    // Where its own page events go: its flush model, or the caller's sink.
    PageEventSink* sink = nullptr;
    // The undo logs and rollback segments (with a sink).
    std::unique_ptr<UndoLogs> undo;
    // The statistics recalculation (with the flush model, whose clock it
    // needs), and the rows it has counted.
    std::unique_ptr<DictStats> stats;
    uint64_t stats_rows_seen = 0;
    // Rows per transaction, rows left until EndRow commits, rows ended, the
    // clock's seconds per row (0 without a flush model: no clock), the
    // load end's wait (EngineOptions::end_wait_s).
    uint64_t rows_per_trx = 1000;
    uint64_t trx_left = 1000;
    uint64_t rows_ended = 0;
    double seconds_per_row = 0;
    double end_wait_s = 0;
  };

  // The constructors' shared part: the instances from their options.
  void Init(absl::Span<const EngineOptions> instances);
  // The trees, their redo formats and the undo logs, given sink_ and the
  // instances' sinks.
  void Build();
  IndexReport ReportIndex(const BTree& t, const std::string& name) const;
  // The row's insert undo record, in its own mtr, reported to each
  // instance's sink (UndoLogs::ReportInsert).
  void LogUndoInsert();
  // MariaDB's purge of the history now (UndoLogs::Purge), when a commit
  // left one: at the load's end, a checkpoint and a DELETE's purge.
  void PurgeHistory(Instance& in);
  // UndoLogs::Commit of the instance's open transaction.
  void CommitTrx(Instance& in);
  // EndRow with a sink: the commit countdown and the clock, per instance;
  // true when the instance committed.
  absl::Status EndRowLogged();
  bool EndRowOf(Instance& in);
  // Each flush model's clock `rows` rows on (rows deleted, purged or
  // rebuilt), running its page cleaner at each whole second passed.
  void AdvanceClock(uint64_t rows = 1);
  // DictStats::Recalculate over this table's indexes, for one instance.
  void RecalculateStats(Instance& in, DictStats::Due due, double now_s);

  EngineProfile profile_;
  TableDef table_;
  BigRec big_rec_;
  Tablespace space_;
  PageStore store_;
  // Before the trees, which hold their sinks: destroyed after them.
  std::vector<Instance> instances_;
  // The trees' sink with several instances (each instance's sink in turn).
  FanOutSink fan_out_;
  std::unique_ptr<BTree> primary_;
  std::vector<std::unique_ptr<BTree>> secondary_;
  uint64_t rows_ = 0;
  uint32_t table_space_ = kPageEventSpace;
  // The trees' sink: the one instance's, fan_out_, or nullptr (structure
  // only).
  PageEventSink* sink_ = nullptr;
  std::unique_ptr<RedoFormat> primary_redo_;
  std::vector<std::unique_ptr<RedoFormat>> secondary_redo_;
  // The rows DeleteRow marked, waiting for EndDeletes' purge: their keys,
  // and n_secondary() entries per row.
  std::vector<Key> purge_rows_;
  std::vector<Key> purge_entries_;
  // Why the options were refused.
  absl::Status options_status_;
  uint32_t fill_factor_ = 100;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_ENGINE_H_
