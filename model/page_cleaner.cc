#include "model/page_cleaner.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace innosim {
namespace {
constexpr uint64_t kLsnMax = std::numeric_limits<uint64_t>::max();

// PCT_IO(p) = (ulint)(srv_io_capacity * ((double)(p) / 100.0)) (buf0flu.cc).
uint64_t PctIo(uint64_t io_capacity, uint64_t pct) {
  return static_cast<uint64_t>(static_cast<double>(io_capacity) * (static_cast<double>(pct) / 100.0));
}
}  // namespace

PageCleaner::PageCleaner(const ServerSettings& s, BufferPool* pool, RedoLog* log)
    : settings_(s),
      pool_(pool),
      log_(log),
      io_capacity_(std::max<uint64_t>(s.innodb_io_capacity, 1)),
      io_capacity_max_(s.EffectiveIoCapacityMax()),
      instances_(s.EffectiveBufferPoolInstances()) {
  // The coordinator thread started with the server: Adaptive_flush
  // initialize() has already recorded the LSN and time of its first pass.
  prev_lsn_ = log_->lsn();
  prev_time_ = 0;
}

uint64_t PageCleaner::MySqlPctForDirty(double dirty_pct, double max_dirty_pct, double lwm_pct) {
  if (dirty_pct == 0.0) return 0;
  if (lwm_pct == 0) return dirty_pct >= max_dirty_pct ? 100 : 0;
  if (dirty_pct >= lwm_pct) return static_cast<uint64_t>((dirty_pct * 100) / (max_dirty_pct + 1));
  return 0;
}

uint64_t PageCleaner::MySqlPctForLsn(uint64_t age, uint64_t limit_for_free_check,
                                     uint64_t limit_for_dirty_page_age,
                                     double adaptive_flushing_lwm, bool adaptive_flushing,
                                     uint64_t io_capacity, uint64_t io_capacity_max) {
  // srv_adaptive_flushing_lwm is a ulong: integer arithmetic.
  const uint64_t af_lwm =
      (static_cast<uint64_t>(adaptive_flushing_lwm) * limit_for_free_check) / 100;
  if (age < af_lwm) return 0;
  if (age < limit_for_dirty_page_age && !adaptive_flushing) return 0;
  const double f = (static_cast<double>(age) * 100.0) / static_cast<double>(limit_for_dirty_page_age);
  // (srv_max_io_capacity / srv_io_capacity) is an integer division.
  const uint64_t ratio = io_capacity_max / io_capacity;
  return static_cast<uint64_t>((static_cast<double>(ratio) * (f * std::sqrt(f))) / 7.5);
}

uint64_t PageCleaner::MariaDbPctForLsn(uint64_t age, uint64_t log_capacity,
                                       uint64_t max_modified_age_async,
                                       double adaptive_flushing_lwm, uint64_t io_capacity,
                                       uint64_t io_capacity_max) {
  // [Ma] buf0flu.cc af_get_pct_for_lsn.
  const uint64_t af_lwm =
      static_cast<uint64_t>(adaptive_flushing_lwm * static_cast<double>(log_capacity) / 100);
  if (age < af_lwm) return 0;
  const double f = static_cast<double>(age) * 100.0 / static_cast<double>(max_modified_age_async);
  const uint64_t ratio = io_capacity_max / io_capacity;
  return static_cast<uint64_t>((static_cast<double>(ratio) * f * std::sqrt(f)) / 7.5);
}

uint64_t PageCleaner::MySqlPagesToFlush(bool sync, uint64_t pct_total, uint64_t page_avg_rate,
                                        uint64_t pages_counted, uint64_t scan_factor,
                                        uint64_t io_capacity, uint64_t io_capacity_max) {
  uint64_t sum_pages_for_lsn = pages_counted / scan_factor;
  if (sum_pages_for_lsn < 1) sum_pages_for_lsn = 1;
  const uint64_t sum_pages_max = io_capacity_max * 2;
  const uint64_t pages_for_lsn = std::min(sum_pages_for_lsn, sum_pages_max);
  if (sync) return std::max(pages_for_lsn, io_capacity);
  uint64_t n = (PctIo(io_capacity, pct_total) + page_avg_rate + pages_for_lsn) / 3;
  return std::min(n, io_capacity_max);
}

// ---------------------------------------------------------------------------
// MySQL

void PageCleaner::SetAverage() {
  // Adaptive_flush::set_average.
  ++n_iterations_;
  sum_pages_ += prev_iter_pages_flushed_;
  double elapsed = cur_iter_time_ - prev_time_;
  if (elapsed < 1) elapsed = 1;
  const double avg_loops = static_cast<double>(settings_.innodb_flushing_avg_loops);
  if (static_cast<double>(n_iterations_) < avg_loops && elapsed < avg_loops) return;
  page_avg_rate_ = static_cast<uint64_t>(
      (static_cast<double>(sum_pages_) / elapsed + static_cast<double>(page_avg_rate_)) / 2);
  const uint64_t lsn_rate = static_cast<uint64_t>(static_cast<double>(cur_iter_lsn_ - prev_lsn_) / elapsed);
  lsn_avg_rate_ = (lsn_avg_rate_ + lsn_rate) / 2;
  prev_lsn_ = cur_iter_lsn_;
  prev_time_ = cur_iter_time_;
  n_iterations_ = 0;
  sum_pages_ = 0;
}

uint64_t PageCleaner::PageRecommendation(uint64_t last_pages, bool sync, uint64_t sync_limit,
                                         double now_s, uint64_t* requested_total) {
  *requested_total = 0;
  // initialize().
  const uint64_t cur_lsn = log_->lsn();
  if (prev_lsn_ == 0) {
    prev_lsn_ = cur_lsn;
    prev_time_ = now_s;
    return 0;
  }
  prev_iter_pages_flushed_ = last_pages;
  cur_iter_lsn_ = cur_lsn;
  cur_iter_time_ = now_s;
  const bool skip_lsn = prev_lsn_ == cur_iter_lsn_ && !sync;
  SetAverage();
  if (skip_lsn) return 0;

  // set_flush_target_by_lsn.
  const uint64_t oldest = pool_->OldestModification();
  const uint64_t age = cur_iter_lsn_ > oldest ? cur_iter_lsn_ - oldest : 0;
  const MySqlRedoLimits& lim = log_->mysql();
  const uint64_t pct_for_dirty =
      MySqlPctForDirty(pool_->ModifiedRatioPct(), settings_.innodb_max_dirty_pages_pct,
                       settings_.innodb_max_dirty_pages_pct_lwm);
  const uint64_t pct_for_lsn = MySqlPctForLsn(
      age, lim.limit_for_free_check, lim.limit_for_dirty_page_age,
      settings_.innodb_adaptive_flushing_lwm, settings_.innodb_adaptive_flushing, io_capacity_,
      io_capacity_max_);
  const uint64_t pct_total = std::max(pct_for_dirty, pct_for_lsn);
  const uint64_t scan_factor = sync ? 1 : kLsnScanFactor;
  const uint64_t target_lsn = sync ? sync_limit : oldest + lsn_avg_rate_ * kLsnScanFactor;
  // pages_for_lsn_max per instance = (sum_pages_max / instances) *
  // scan_factor * 2; the single modelled list scans the sum over instances.
  const uint64_t sum_pages_max = io_capacity_max_ * 2;
  const uint64_t scan_max = (sum_pages_max / instances_) * scan_factor * 2 * instances_;
  const uint64_t counted = pool_->CountFlushListUpTo(target_lsn, scan_max);
  const uint64_t n = MySqlPagesToFlush(sync, pct_total, page_avg_rate_, counted, scan_factor,
                                       io_capacity_, io_capacity_max_);
  // Per-instance requests: n / instances + 1 each, or (pct_for_lsn > 30)
  // proportional to each instance's old pages, + 1 each.
  *requested_total = pct_for_lsn > 30 ? n + instances_ : instances_ * (n / instances_ + 1);
  stats_.last_n_to_flush = n;
  stats_.last_pct_for_dirty = pct_for_dirty;
  stats_.last_pct_for_lsn = pct_for_lsn;
  return n;
}

uint64_t PageCleaner::LruBatch() {
  // buf_flush_LRU_list per instance: scan_depth = min(innodb_lru_scan_depth,
  // LRU length), free target innodb_lru_scan_depth.
  const uint64_t depth = settings_.innodb_lru_scan_depth * instances_;
  const uint64_t written = pool_->LruBatch(std::min(depth, pool_->lru_len()), depth);
  stats_.lru_pages += written;
  return written;
}

void PageCleaner::MySqlSyncLoop(double now_s) {
  if (in_sync_loop_) return;
  in_sync_loop_ = true;
  for (;;) {
    const uint64_t sync_lsn = log_->MySqlSyncFlushLsn(pool_->OldestModification());
    if (sync_lsn == 0) break;
    // buf_flush_page_coordinator_thread: lsn_limit += lsn_avg_rate * scan factor.
    const uint64_t lsn_limit = sync_lsn + lsn_avg_rate_ * kLsnScanFactor;
    ++stats_.sync_iterations;
    LruBatch();
    uint64_t requested = 0;
    const uint64_t n = PageRecommendation(last_pages_, true, lsn_limit, now_s, &requested);
    last_pages_ = 0;
    const uint64_t flushed = pool_->FlushListBatch(requested, lsn_limit);
    if (n != 0) last_pages_ = flushed;
    stats_.sync_pages += flushed;
    log_->Checkpoint(pool_->OldestModification());
    if (flushed == 0) break;
  }
  in_sync_loop_ = false;
}

void PageCleaner::MySqlIteration(double now_s) {
  ++stats_.iterations;
  if (settings_.innodb_flush_sync && log_->MySqlSyncFlushLsn(pool_->OldestModification()) != 0) {
    MySqlSyncLoop(now_s);
  } else {
    LruBatch();
    uint64_t requested = 0;
    const uint64_t n = PageRecommendation(last_pages_, false, kLsnMax, now_s, &requested);
    last_pages_ = 0;
    const uint64_t flushed = n != 0 ? pool_->FlushListBatch(requested, kLsnMax) : 0;
    if (n != 0) last_pages_ = flushed;
    stats_.adaptive_pages += flushed;
  }
  // log_checkpointer: a checkpoint every innodb_log_checkpoint_every (1 s).
  log_->Checkpoint(pool_->OldestModification());
}

// ---------------------------------------------------------------------------
// MariaDB

uint64_t PageCleaner::MariaDbRecommendation(double now_s, uint64_t last_pages, uint64_t age, double pct_lwm) {
  // [Ma] page_cleaner_flush_pages_recommendation (10.11.5+, MDEV-26055's
  // form: pct_lwm and total_ratio).
  const MariaDbRedoLimits& lim = log_->mariadb();
  const double dirty_pct = pool_->ModifiedRatioPct();
  const uint64_t dirty_blocks = pool_->dirty_pages();
  const double max_pct = settings_.innodb_max_dirty_pages_pct;
  const uint64_t pct_for_lsn =
      MariaDbPctForLsn(age, lim.log_capacity, lim.max_modified_age_async,
                       settings_.innodb_adaptive_flushing_lwm, io_capacity_, io_capacity_max_);
  stats_.last_pct_for_lsn = pct_for_lsn;
  prev_iter_pages_flushed_ = last_pages;
  cur_iter_lsn_ = log_->lsn();
  cur_iter_time_ = now_s;
  if (mariadb_first_ || pct_for_lsn == 0) {
    // The first call, or no redo pressure: no averaging (prev_lsn and
    // prev_time restart; the loop counters and page sum carry on).
    mariadb_first_ = false;
    prev_lsn_ = cur_iter_lsn_;
    prev_time_ = now_s;
    uint64_t n;
    if (io_capacity_ >= dirty_blocks) {
      n = dirty_blocks;
    } else {
      const double ratio = max_pct > 1.0 ? dirty_pct / max_pct : dirty_pct;
      n = static_cast<uint64_t>(ratio * static_cast<double>(io_capacity_));
      n = n < dirty_blocks ? io_capacity_ : std::min(io_capacity_max_, dirty_blocks);
    }
    stats_.last_n_to_flush = n;
    return n;
  }
  SetAverage();
  // total_ratio: 1 (all of innodb_io_capacity) unless the dirty-page low
  // water mark is in force, then the larger of pct_for_lsn and the dirty
  // ratio's share of innodb_max_dirty_pages_pct.
  double total_ratio = 1;
  if (pct_lwm != 0.0 && max_pct != 0.0) {
    total_ratio = std::max(static_cast<double>(pct_for_lsn) / 100, dirty_pct / max_pct);
  }
  stats_.last_pct_for_dirty = static_cast<uint64_t>(total_ratio * 100);
  const uint64_t oldest = pool_->OldestModification();
  const uint64_t target = oldest + lsn_avg_rate_ * kLsnScanFactor;
  uint64_t pages_for_lsn = pool_->CountFlushListUpTo(target, io_capacity_max_) / kLsnScanFactor;
  if (pages_for_lsn < 1) pages_for_lsn = 1;
  uint64_t n = (static_cast<uint64_t>(static_cast<double>(io_capacity_) * total_ratio) + page_avg_rate_ +
                pages_for_lsn) /
               3;
  n = std::min(n, io_capacity_max_);
  stats_.last_n_to_flush = n;
  return n;
}

uint64_t PageCleaner::MariaDbLruFlush(uint64_t n) {
  const uint64_t written = pool_->LruFlushMariaDb(n);
  stats_.lru_pages += written;
  return written;
}

void PageCleaner::MariaDbFlushThenLru(uint64_t flushed) {
  // [Ma] buf_flush_page_cleaner after a flush-list batch: "It is critical to
  // generate free pages to keep the system alive": an LRU flush of
  // max(io_capacity_max - n_flushed, min(io_capacity_max, LRU_scan_depth)),
  // whose pages join last_pages (the next recommendation's page rate).
  const uint64_t left = io_capacity_max_ >= flushed ? io_capacity_max_ - flushed : 0;
  last_pages_ += MariaDbLruFlush(std::max(left, std::min(io_capacity_max_, settings_.innodb_lru_scan_depth)));
}

void PageCleaner::MariaDbIteration(double now_s) {
  ++stats_.iterations;
  if (pool_->NeedLruEviction()) {
    // need_LRU_eviction: an LRU flush of io_capacity_max instead of the
    // flush list this pass (the user threads' wake-ups usually got here
    // first: BufferPool::GetFreeFrame).
    last_pages_ += MariaDbLruFlush(io_capacity_max_);
    log_->Checkpoint(pool_->OldestModification());
    return;
  }
  const uint64_t oldest = pool_->OldestModification();
  if (oldest == 0) {
    mariadb_idle_ = true;  // fully_unemployed -> set_idle
    log_->Checkpoint(0);
    return;
  }
  // buf_flush_page_cleaner: an idle cleaner waits without a timeout when
  // innodb_max_dirty_pages_pct_lwm is 0, for buf_pool_t::
  // page_cleaner_wakeup, which with lwm 0 signals only once the dirty share
  // reaches innodb_max_dirty_pages_pct, or for buf_flush_ahead's async or
  // sync LSN (CheckRedoPressure). Measured on 10.11.19: no page written
  // during a 1-row-transaction load until the checkpoint age passed
  // max_modified_age_async (docs/flushing.md).
  if (MariaDbWaitsWithoutTimeout() && async_lsn_ == 0 &&
      pool_->ModifiedRatioPct() < settings_.innodb_max_dirty_pages_pct) {
    return;  // asleep: no flush, no checkpoint
  }
  mariadb_idle_ = false;
  if (async_lsn_ != 0) {
    // buf_flush_async_lsn: buf_flush_list(io_capacity_max, lsn), then the LRU flush.
    const uint64_t n = pool_->FlushListBatch(io_capacity_max_, async_lsn_);
    stats_.async_pages += n;
    MariaDbFlushThenLru(n);
    const uint64_t o = pool_->OldestModification();
    if (o == 0 || o >= async_lsn_) async_lsn_ = 0;
    log_->Checkpoint(o);
    return;
  }
  const uint64_t age = log_->lsn() - oldest;
  double pct_lwm = 0;
  if (!MariaDbPassWorks(oldest, &pct_lwm)) {
    // possibly_unemployed -> set_idle: no flush-list batch, no LRU flush;
    // with innodb_max_dirty_pages_pct_lwm = 0 the cleaner then sleeps
    // (above) until page_cleaner_wakeup.
    mariadb_idle_ = true;
    return;
  }
  uint64_t flushed = 0;
  if (!settings_.innodb_adaptive_flushing) {
    // idle_flush / background_flush: io_capacity pages; not in last_pages.
    flushed = pool_->FlushListBatch(io_capacity_, kLsnMax);
    stats_.adaptive_pages += flushed;
  } else {
    const uint64_t n = MariaDbRecommendation(now_s, last_pages_, age, pct_lwm);
    // A recommendation of 0 pages goes idle without the LRU flush
    // (check_oldest_and_set_idle).
    if (n == 0) {
      mariadb_idle_ = true;
      return;
    }
    flushed = pool_->FlushListBatch(n, kLsnMax);
    last_pages_ = flushed;
    stats_.adaptive_pages += flushed;
  }
  MariaDbFlushThenLru(flushed);
  if (flushed) log_->Checkpoint(pool_->OldestModification());
}

bool PageCleaner::MariaDbPassWorks(uint64_t oldest, double* pct_lwm) const {
  const uint64_t age = log_->lsn() - oldest;
  const double dirty_pct = pool_->ModifiedRatioPct();
  const MariaDbRedoLimits& lim = log_->mariadb();
  // af_needed_for_redo: the oldest page's age above
  // innodb_adaptive_flushing_lwm % of the log capacity.
  const bool af_needed_for_redo =
      static_cast<double>(age) > settings_.innodb_adaptive_flushing_lwm / 100.0 *
                                     static_cast<double>(lim.log_capacity);
  // Whether the pass works or goes idle. With innodb_max_dirty_pages_pct_lwm
  // set, a pass below it works only for redo (and then without the lwm:
  // pct_lwm = 0); without it (MariaDB's default), a pass below
  // innodb_max_dirty_pages_pct likewise. (The idle flush of a server with
  // no commits since the last pass never applies during a load.)
  *pct_lwm = settings_.innodb_max_dirty_pages_pct_lwm;
  if (*pct_lwm != 0.0) {
    if (dirty_pct < *pct_lwm) {
      *pct_lwm = 0.0;
      return af_needed_for_redo;
    }
  } else if (dirty_pct < settings_.innodb_max_dirty_pages_pct) {
    return af_needed_for_redo;
  }
  return true;
}

// ---------------------------------------------------------------------------

void PageCleaner::RunIteration(double now_s) {
  if (settings_.flavor == ServerFlavor::kMySql84) {
    MySqlIteration(now_s);
  } else {
    MariaDbIteration(now_s);
  }
}

uint64_t PageCleaner::IdlePeriod(double next_s) const {
  const uint64_t oldest = pool_->OldestModification();
  if (settings_.flavor == ServerFlavor::kMySql84) {
    // The pass's closing checkpoint must not move.
    if (log_->AvailableForCheckpoint(oldest) > log_->last_checkpoint_lsn()) return 0;
    if (settings_.innodb_flush_sync && log_->MySqlSyncFlushLsn(oldest) != 0) return 0;
    const uint64_t depth = settings_.innodb_lru_scan_depth * instances_;
    if (!pool_->LruBatchIsNoOp(std::min(depth, pool_->lru_len()), depth)) return 0;
    // PageRecommendation: skip_lsn every pass (no new redo since the last
    // set_average), nothing flushed to add to sum_pages, rates already 0
    // (set_average halves them: (0 + 0) / 2 stays 0), and a window that
    // restarted at the last pass, so the next resets after exactly
    // innodb_flushing_avg_loops passes (n_iterations and elapsed both reach
    // it then).
    if (prev_lsn_ == 0 || prev_lsn_ != log_->lsn()) return 0;
    if (last_pages_ != 0 || sum_pages_ != 0 || page_avg_rate_ != 0 || lsn_avg_rate_ != 0) return 0;
    if (n_iterations_ != 0 || next_s != prev_time_ + 1) return 0;
    return std::max<uint64_t>(settings_.innodb_flushing_avg_loops, 1);
  }
  // MariaDB: the three ways MariaDbIteration returns without flushing. Each
  // reads only the pool and the log, which an idle pass leaves as they are,
  // and ends with the cleaner idle; so every later pass takes the same
  // way. An LRU eviction pass (need_LRU_eviction) writes or frees pages:
  // run it.
  if (pool_->NeedLruEviction()) return 0;
  // fully_unemployed: set_idle and a checkpoint at the current LSN, the
  // same at every pass (SkipIdlePasses writes it once).
  if (oldest == 0) return 1;
  // Asleep: returns before any work or checkpoint.
  if (async_lsn_ != 0) return 0;  // buf_flush_async_lsn: a flush-list batch
  if (MariaDbWaitsWithoutTimeout() &&
      pool_->ModifiedRatioPct() < settings_.innodb_max_dirty_pages_pct) {
    return 1;
  }
  // possibly_unemployed: below the dirty-page mark and no redo need, the
  // pass sets idle and returns (no checkpoint).
  double pct_lwm = 0;
  return MariaDbPassWorks(oldest, &pct_lwm) ? 0 : 1;
}

void PageCleaner::SkipIdlePasses(uint64_t passes) {
  if (passes == 0) return;
  stats_.iterations += passes;
  if (settings_.flavor == ServerFlavor::kMySql84) {
    // Each period ends with set_average's reset at its last pass.
    prev_time_ += static_cast<double>(passes);
    cur_iter_time_ = prev_time_;
    cur_iter_lsn_ = log_->lsn();
    prev_iter_pages_flushed_ = 0;
  } else {
    // What the first of the passes does and the others repeat.
    mariadb_idle_ = true;
    if (pool_->OldestModification() == 0) log_->Checkpoint(0);
  }
}

bool PageCleaner::CheckRedoPressure(double now_s) {
  const uint64_t oldest = pool_->OldestModification();
  if (oldest == 0) return false;
  if (settings_.flavor == ServerFlavor::kMySql84) {
    if (settings_.innodb_flush_sync) {
      if (log_->MySqlSyncFlushLsn(oldest) != 0) MySqlSyncLoop(now_s);
      return false;
    }
    // innodb_flush_sync=OFF: user threads stop in log_free_check once the
    // checkpoint age passes limit_for_free_check and request a checkpoint
    // at current - limit; the model has no stalled time, so the pages up to
    // that LSN are written at once.
    const uint64_t age = log_->lsn() - log_->AvailableForCheckpoint(oldest);
    if (age > log_->mysql().limit_for_free_check) {
      const uint64_t target = log_->lsn() - log_->mysql().limit_for_free_check;
      stats_.sync_pages += pool_->FlushListBatch(kLsnMax, target + RedoLog::kFlushOrderLag);
      log_->Checkpoint(pool_->OldestModification());
    }
    return false;
  }
  // MariaDB log_close() at mtr commit: checkpoint age against the limits.
  // Above max_modified_age_async it returns a flush target, not the commit
  // LSN: lsn - max_modified_age_async, the checkpoint that brings the age
  // back to the async limit, for the async and the furious request alike
  // (log_close's "checkpoint age target"; mtr_t::commit -> buf_flush_ahead
  // (target, furious)). So an async pass writes only the pages modified
  // before that LSN (buf_do_flush_list_batch stops at the first page with
  // oldest_modification >= lsn), not io_capacity_max pages: measured on
  // 10.11.19 with INNODB_METRICS, the first async batch of a 1-row-
  // transaction load scanned 4 pages (docs/flushing.md).
  const uint64_t lsn = log_->lsn();
  const uint64_t ckpt_age = lsn - log_->last_checkpoint_lsn();
  const MariaDbRedoLimits& lim = log_->mariadb();
  if (ckpt_age <= lim.max_modified_age_async) return false;
  const uint64_t target = lsn - lim.max_modified_age_async;
  if (ckpt_age < lim.max_checkpoint_age || !settings_.innodb_flush_sync) {
    // buf_flush_ahead(target, false): a raised limit wakes a cleaner that
    // waits without a timeout (idle with innodb_max_dirty_pages_pct_lwm 0,
    // the wait MariaDbIteration's sleep stands for); a cleaner in its timed
    // wait takes the limit at its next pass.
    const bool raised = target > async_lsn_;
    async_lsn_ = std::max(async_lsn_, target);
    return raised && MariaDbWaitsWithoutTimeout();
  }
  // furious (age >= max_checkpoint_age) -> buf_flush_ahead(target, true) ->
  // the cleaner runs buf_flush_sync_for_checkpoint(target) until every page
  // modified before target is written.
  ++stats_.sync_iterations;
  stats_.sync_pages += pool_->FlushListBatch(kLsnMax, target);
  async_lsn_ = 0;
  last_pages_ = 0;  // furious_flush: last_pages= 0
  log_->Checkpoint(pool_->OldestModification());
  return false;
}

}  // namespace innosim
