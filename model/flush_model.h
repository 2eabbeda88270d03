// FlushModel: the PageEventSink that turns the B-tree's page traffic into
// InnoDB's page writes, doublewrite writes and physical reads.
//
// It ties together a BufferPool (residency, LRU, flush list), a RedoLog
// (LSN, checkpoint, capacity thresholds) and a PageCleaner (adaptive, LRU
// and sync flushing), configured from ServerSettings.
//
// An Engine owns one when EngineOptions::flush is set, and drives it: the
// page events of every insert, Tick at the end of each row (EndRow), FlushAll
// at the end of the load (EndLoad).
//
//   EngineOptions o;
//   o.flush = settings;  // this FlushModel's ServerSettings
//   o.trx_rows = trx_rows;
//   o.rows_per_sec = rows_per_sec;
//   Engine engine(EngineProfile::ForServer(settings), table, o);
//   for (...) {
//     engine.InsertRow(key);               // calls OnPage* / OnMtrCommit
//     if (!engine.EndRow().ok()) ...       // CommitTrx every trx_rows; Tick
//   }
//   if (!engine.EndLoad().ok()) ...        // CommitTrx; FlushAll (e.g. a
//                                          // buffer pool too small fails)
//   uint64_t written = engine.flush_model()->counters().Innodb_pages_written;
//
// (sim/runner.cc's Run() is this loop, with key lookahead and secondary
// indexes.) Tests may also drive one by hand, as a sink passed to Engine.
//
// The simulated insert rate (rows_per_sec) is an input: the page cleaner's
// once-per-second decisions depend on it. docs/flushing.md explains why.
//
// Hot-path calls are O(1) and allocate nothing. Not thread-safe.
#ifndef INNOSIM_MODEL_FLUSH_MODEL_H_
#define INNOSIM_MODEL_FLUSH_MODEL_H_

#include <cstdint>

#include "model/buffer_pool.h"
#include "model/page_cleaner.h"
#include "model/page_events.h"
#include "model/redo_log.h"
#include "model/server_settings.h"

namespace innosim {

class FlushModel : public PageEventSink {
 public:
  // The lowest simulated insert rate innosim accepts: one row per 1000
  // simulated seconds. innosim's own limit, not the server's: idle seconds
  // cost nothing (Tick skips them), but the clock is a double of seconds
  // that must count whole seconds exactly (below 2^53 s), which this floor
  // keeps for up to 9e12 rows. docs/limits.md.
  static constexpr double kMinRowsPerSec = 1e-3;

  // Status counters under InnoDB's names.
  struct Counters {
    uint64_t Innodb_pages_written = 0;
    uint64_t Innodb_dblwr_pages_written = 0;  // = pages written when
                                              // innodb_doublewrite=ON
    uint64_t Innodb_buffer_pool_reads = 0;
    // Of the reads and of Innodb_pages_written, INNODB_METRICS
    // buffer_page_{read,written}_system_page (the rollback segment headers,
    // FIL_PAGE_TYPE_SYS) and buffer_page_{read,written}_undo_log: the
    // ranges the engine gave CountPagesAs.
    uint64_t buffer_page_read_system_page = 0;
    uint64_t buffer_page_read_undo_log = 0;
    uint64_t buffer_page_written_system_page = 0;
    uint64_t buffer_page_written_undo_log = 0;
    uint64_t peak_dirty_pages = 0;
    // Where the writes came from.
    uint64_t adaptive_flush_pages = 0;  // page_recommendation batches
    uint64_t sync_flush_pages = 0;      // sync / furious flushing
    uint64_t async_flush_pages = 0;     // MariaDB buf_flush_async_lsn
    uint64_t lru_flush_pages = 0;       // page cleaner LRU batch
    uint64_t single_page_flushes = 0;   // user threads needing a free frame
    uint64_t final_flush_pages = 0;     // FlushAll()
    uint64_t observer_flush_pages = 0;  // MySQL Flush_observer (a rebuild)
    uint64_t redo_bytes = 0;            // data bytes of all mtrs
  };
  // One point of the time series.
  struct Sample {
    double seconds = 0;
    uint64_t lsn = 0;
    uint64_t checkpoint_lsn = 0;
    uint64_t checkpoint_age = 0;  // lsn - AvailableForCheckpoint (what the
                                  // next checkpoint would leave)
    uint64_t dirty_pages = 0;
    uint64_t pages_written = 0;
    uint64_t buffer_pool_reads = 0;
  };

  // `count_page_writes`: BufferPool::Options::count_page_writes.
  explicit FlushModel(const ServerSettings& settings, bool count_page_writes = true);

  // PageEventSink.
  void OnPageAccess(uint32_t space_id, uint32_t page_no) override {
    pool_.Fix(space_id, page_no, now_ms_);
  }
  void OnPageFixOnly(uint32_t space_id, uint32_t page_no) override {
    // MySQL 8.4's Buf_fetch makes every page it fixes young if needed.
    if (settings_.flavor == ServerFlavor::kMariaDb1011) {
      pool_.FixNoAccess(space_id, page_no, now_ms_);
    } else {
      pool_.Fix(space_id, page_no, now_ms_);
    }
  }
  void OnPageCreate(uint32_t space_id, uint32_t page_no) override {
    pool_.Create(space_id, page_no, now_ms_);
  }
  void OnPageModify(uint32_t space_id, uint32_t page_no) override {
    // The LSN does not move inside an mtr: the current LSN is the mtr's
    // start LSN, the oldest_modification a clean page receives.
    pool_.MarkDirty(space_id, page_no, log_.lsn(), now_ms_);
    NotePeakDirty();
  }
  void OnPageFree(uint32_t space_id, uint32_t page_no) override {
    // A clean page freed enters the flush list (MariaDB, BufferPool::Free).
    pool_.Free(space_id, page_no, log_.lsn());
    NotePeakDirty();
  }
  void OnTempPageModify(uint32_t space_id, uint32_t page_no) override {
    pool_.MarkTempDirty(space_id, page_no, now_ms_);
  }
  void OnSpaceDrop(uint32_t space_id) override { pool_.DropSpace(space_id); }
  void OnPagesFlush(uint32_t space_id, const std::vector<uint32_t>& pages) override {
    pool_.FlushPages(space_id, pages);
  }
  void OnPageSoon(uint32_t space_id, uint32_t page_no, int step) override {
    pool_.Prefetch(space_id, page_no, step);
  }
  void OnMtrCommit(uint64_t redo_bytes) override {
    log_.Append(redo_bytes);
    pool_.CommitMtr();
  }

  // Advances the simulated clock (seconds since the start of the load); runs
  // the page cleaner at each whole second passed, and checks redo pressure.
  void Tick(double now_seconds);
  // Tests: false runs every pass one by one (the equivalence test of the
  // idle skip). True by default.
  void set_skip_idle_passes(bool on) { skip_idle_passes_ = on; }
  // Passes skipped as idle so far (tests).
  uint64_t skipped_passes() const { return skipped_passes_; }
  // Flushes until no dirty page remains (the seed's "wait until dirty pages
  // are 0"); the writes are counted.
  void FlushAll();
  // Dirty pages of one tablespace (the engine's page-event space ids).
  uint64_t DirtyPagesOf(uint32_t space_id) const { return pool_.DirtyPagesOf(space_id); }

  Counters counters() const;
  Sample Snapshot() const;
  // OK, or the buffer pool's failure in the server's terms: a pool too
  // small for one mini-transaction (ResourceExhausted) or too large for the
  // model (OutOfRange), naming innodb_buffer_pool_size. Sticky; the
  // counters of a failed model mean nothing.
  absl::Status status() const override;
  // "" or what is wrong: BufferPool::Verify; the redo log (checkpoint <=
  // the oldest modification still dirty <= the newest <= current LSN: no
  // checkpoint passes an unwritten change); the page cleaner's and the
  // final flush's writes add up to the pool's flush-list and LRU-batch
  // writes; the dirty peak is a peak.
  std::string Verify() const override;

  const BufferPool& buffer_pool() const { return pool_; }
  // BufferPool::CountPagesAs, before the load's first page event.
  void CountPagesAs(BufferPool::PageType type, uint32_t space_id, uint32_t first_page, uint32_t end_page) {
    pool_.CountPagesAs(type, space_id, first_page, end_page);
  }
  const RedoLog& redo_log() const { return log_; }
  const PageCleaner& page_cleaner() const { return cleaner_; }
  const ServerSettings& settings() const { return settings_; }

 private:
  ServerSettings settings_;
  BufferPool pool_;
  RedoLog log_;
  PageCleaner cleaner_;
  uint64_t now_ms_ = 0;
  double now_s_ = 0;
  double next_iteration_s_ = 1;
  uint64_t peak_dirty_ = 0;
  // The flush list may have grown: peak_dirty_ follows it.
  void NotePeakDirty() {
    if (pool_.dirty_pages() > peak_dirty_) peak_dirty_ = pool_.dirty_pages();
  }
  uint64_t final_flush_pages_ = 0;
  bool skip_idle_passes_ = true;
  uint64_t skipped_passes_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FLUSH_MODEL_H_
