// PageCleaner: decides how many dirty pages InnoDB writes each second, and
// when redo pressure forces more.
//
// MySQL 8.4 (buf/buf0flu.cc, buf_flush_page_coordinator_thread):
//   * once per second: an LRU batch (buf_flush_LRU_list: up to
//     innodb_lru_scan_depth pages from the LRU tail while the free list is
//     short), then n = Adaptive_flush::page_recommendation() pages from the
//     flush-list tail (oldest modification first);
//   * page_recommendation: set_average() every innodb_flushing_avg_loops
//     iterations (or seconds), get_pct_for_dirty(), get_pct_for_lsn(),
//     pages_for_lsn from the flush list up to oldest + lsn_avg_rate *
//     buf_flush_lsn_scan_factor, n = (PCT_IO(max pct) + page_avg_rate +
//     pages_for_lsn) / 3 capped at innodb_io_capacity_max;
//   * sync flush: when log_sync_flush_lsn() is non-zero (innodb_flush_sync),
//     the coordinator loops without sleeping, each pass flushing
//     max(pages_for_lsn, io_capacity) pages below the sync limit, until the
//     oldest page is young enough again. Not capped by io_capacity_max.
// MariaDB 10.11 (buf_flush_page_cleaner, [Ma] buf/buf0flu.cc): furious
//   flushing beyond max_checkpoint_age, async flushing (io_capacity_max per
//   second) beyond max_modified_age_async, otherwise
//   page_cleaner_flush_pages_recommendation when the age passes
//   innodb_adaptive_flushing_lwm % of the log capacity, or io_capacity pages
//   when the dirty ratio passes innodb_max_dirty_pages_pct; each such pass
//   ends with an LRU flush (buf_flush_LRU) that refills the free list to
//   innodb_lru_scan_depth, and a pass that finds fewer than half that many
//   free frames does only the LRU flush (need_LRU_eviction).
//
// Simulated time: the model assumes page writes take no simulated time (the
// insert rate is an input; docs/flushing.md). RunIteration() is called at
// each whole simulated second; CheckRedoPressure() after each row stands for
// the checkpointer and user threads waking the cleaner (log_request_sync_flush,
// buf_flush_ahead), which in the server happens within the second.
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_PAGE_CLEANER_H_
#define INNOSIM_MODEL_PAGE_CLEANER_H_

#include <cstdint>

#include "model/buffer_pool.h"
#include "model/redo_log.h"
#include "model/server_settings.h"

namespace innosim {

class PageCleaner {
 public:
  // buf/buf0flu.cc: `const ulint buf_flush_lsn_scan_factor = 3;` (MySQL);
  // the same constant in MariaDB's buf0flu.cc.
  static constexpr uint64_t kLsnScanFactor = 3;

  struct Stats {
    uint64_t iterations = 0;         // once-per-second passes
    uint64_t sync_iterations = 0;    // passes in sync (furious) mode
    uint64_t adaptive_pages = 0;     // flush-list pages by page_recommendation
    uint64_t sync_pages = 0;         // pages written in sync/furious mode
    uint64_t async_pages = 0;        // MariaDB async (buf_flush_async_lsn)
    uint64_t lru_pages = 0;          // written by the LRU batch
    // Last recommendation's inputs, for the time series and tests.
    uint64_t last_n_to_flush = 0;
    uint64_t last_pct_for_dirty = 0;
    uint64_t last_pct_for_lsn = 0;
  };

  PageCleaner(const ServerSettings& settings, BufferPool* pool, RedoLog* log);

  // One coordinator pass at whole simulated second `now_s`.
  void RunIteration(double now_s);
  // Idle seconds at no cost (issue 29: a low --rows-per-sec leaves millions
  // of simulated seconds between rows). IdlePeriod(next_s) is P > 0 when the
  // passes at next_s, next_s + 1, ..., next_s + P - 1 would change nothing
  // but the pass count and the averaging clock, and leave the cleaner in the
  // same state, so any whole number of periods can be skipped at once; 0
  // when that cannot be shown (then run the passes). MySQL: no redo since
  // the last averaging (skip_lsn), averages decayed to 0, an LRU batch with
  // nothing to do, no sync flush, no checkpoint to move, and the averaging
  // window just restarted: P = innodb_flushing_avg_loops. MariaDB: no LRU
  // eviction needed, no async LSN, and a pass that would not flush (clean:
  // fully_unemployed; asleep; or below the dirty-page mark without redo
  // need: possibly_unemployed): P = 1; such a pass only sets the cleaner
  // idle (and, when clean, checkpoints at the current LSN), which the first
  // pass does and the rest repeat.
  uint64_t IdlePeriod(double next_s) const;
  // The effect of `passes` (a multiple of IdlePeriod) passes from an idle
  // state: exactly what running them one by one would do.
  void SkipIdlePasses(uint64_t passes);

  // Cheap check after each row: starts sync (MySQL) or furious/async
  // (MariaDB) flushing when redo requires it. True when a MariaDB request
  // for async flushing woke the cleaner from its wait without a timeout
  // (idle, innodb_max_dirty_pages_pct_lwm 0): buf_flush_ahead wakes such a
  // cleaner at once ("we will only wake the buf_flush_page_cleaner() from
  // an indefinite my_cond_wait(), but we will not disturb the regular
  // 1-second sleep"); the caller runs a pass now and counts the cleaner's
  // next second from it (set_timespec(abstime, 1) after the wait).
  [[nodiscard]] bool CheckRedoPressure(double now_s);

  // --- Formulas, exposed for tests ----------------------------------------
  // MySQL Adaptive_flush::get_pct_for_dirty.
  static uint64_t MySqlPctForDirty(double dirty_pct, double max_dirty_pct, double lwm_pct);
  // MySQL Adaptive_flush::get_pct_for_lsn.
  static uint64_t MySqlPctForLsn(uint64_t age, uint64_t limit_for_free_check,
                                 uint64_t limit_for_dirty_page_age, double adaptive_flushing_lwm,
                                 bool adaptive_flushing, uint64_t io_capacity,
                                 uint64_t io_capacity_max);
  // MariaDB af_get_pct_for_lsn.
  static uint64_t MariaDbPctForLsn(uint64_t age, uint64_t log_capacity,
                                   uint64_t max_modified_age_async, double adaptive_flushing_lwm,
                                   uint64_t io_capacity, uint64_t io_capacity_max);
  // The page count of set_flush_target_by_lsn given its inputs:
  // sync ? max(pages_for_lsn, io) : min((PCT_IO(pct) + page_avg_rate +
  // pages_for_lsn) / 3, io_max), where pages_for_lsn = max(counted /
  // scan_factor, 1) capped at 2 * io_max.
  static uint64_t MySqlPagesToFlush(bool sync, uint64_t pct_total, uint64_t page_avg_rate,
                                    uint64_t pages_counted, uint64_t scan_factor,
                                    uint64_t io_capacity, uint64_t io_capacity_max);

  const Stats& stats() const { return stats_; }
  uint64_t page_avg_rate() const { return page_avg_rate_; }
  uint64_t lsn_avg_rate() const { return lsn_avg_rate_; }

 private:
  // MySQL.
  void MySqlIteration(double now_s);
  void MySqlSyncLoop(double now_s);
  uint64_t PageRecommendation(uint64_t last_pages, bool sync, uint64_t sync_limit, double now_s,
                              uint64_t* requested_total);
  void SetAverage();
  uint64_t LruBatch();
  // MariaDB.
  void MariaDbIteration(double now_s);
  // buf_flush_LRU(n) by the cleaner, counted in lru_pages.
  uint64_t MariaDbLruFlush(uint64_t n);
  // The LRU flush that follows a flush-list batch of `flushed` pages.
  void MariaDbFlushThenLru(uint64_t flushed);
  // `pct_lwm`: innodb_max_dirty_pages_pct_lwm as the pass hands it on (0
  // when the dirty ratio is below it).
  uint64_t MariaDbRecommendation(double now_s, uint64_t last_pages, uint64_t age, double pct_lwm);
  // Whether a pass of a cleaner not asleep, with dirty pages (`oldest`) and
  // no async LSN, flushes or goes idle (possibly_unemployed); the
  // innodb_max_dirty_pages_pct_lwm it hands on in *pct_lwm (0 below it).
  bool MariaDbPassWorks(uint64_t oldest, double* pct_lwm) const;
  // buf_flush_page_cleaner's wait without a timeout (my_cond_wait): idle
  // with innodb_max_dirty_pages_pct_lwm 0 (its flush list is never empty
  // where this is asked), woken only by page_cleaner_wakeup or
  // buf_flush_ahead.
  bool MariaDbWaitsWithoutTimeout() const {
    return mariadb_idle_ && settings_.innodb_max_dirty_pages_pct_lwm == 0;
  }

  ServerSettings settings_;
  BufferPool* pool_;
  RedoLog* log_;
  uint64_t io_capacity_;
  uint64_t io_capacity_max_;
  uint64_t instances_;

  // Adaptive_flush namespace state.
  uint64_t prev_lsn_ = 0;
  double prev_time_ = 0;
  uint64_t n_iterations_ = 0;
  uint64_t sum_pages_ = 0;
  uint64_t page_avg_rate_ = 0;
  uint64_t lsn_avg_rate_ = 0;
  uint64_t prev_iter_pages_flushed_ = 0;
  uint64_t cur_iter_lsn_ = 0;
  double cur_iter_time_ = 0;
  uint64_t last_pages_ = 0;
  bool in_sync_loop_ = false;

  // MariaDB buf_flush_async_lsn / buf_flush_sync_lsn.
  uint64_t async_lsn_ = 0;
  bool mariadb_first_ = true;
  // MariaDB buf_pool.page_cleaner_is_idle: set when a pass finds nothing to
  // do; an idle cleaner with innodb_max_dirty_pages_pct_lwm=0 sleeps until
  // page_cleaner_wakeup (MariaDbIteration). Idle at the start: no page is
  // dirty before the load.
  bool mariadb_idle_ = true;

  Stats stats_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_PAGE_CLEANER_H_
