#include "model/flush_model.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

BufferPool::Options PoolOptions(const ServerSettings& s, bool count_page_writes) {
  BufferPool::Options o;
  o.count_page_writes = count_page_writes;
  o.n_frames = s.BufferPoolPages();
  o.old_blocks_pct = static_cast<uint32_t>(s.innodb_old_blocks_pct);
  o.old_blocks_time_ms = static_cast<uint32_t>(s.innodb_old_blocks_time);
  o.mariadb = s.flavor == ServerFlavor::kMariaDb1011;
  o.flush_neighbors = static_cast<uint32_t>(s.EffectiveFlushNeighbors());
  o.lru_scan_depth = s.innodb_lru_scan_depth;
  o.io_capacity_max = s.EffectiveIoCapacityMax();
  return o;
}

}  // namespace

FlushModel::FlushModel(const ServerSettings& settings, bool count_page_writes)
    : settings_(settings),
      pool_(PoolOptions(settings, count_page_writes)),
      log_(settings),
      cleaner_(settings, &pool_, &log_) {}

void FlushModel::Tick(double now_seconds) {
  if (now_seconds < now_s_) now_seconds = now_s_;
  now_s_ = now_seconds;
  now_ms_ = static_cast<uint64_t>(std::floor(now_seconds * 1000.0));
  while (next_iteration_s_ <= now_seconds) {
    // Passes due up to now_seconds; when many, the idle ones go in one step
    // (PageCleaner::IdlePeriod), whole periods at a time, the same as
    // running them one by one.
    const double due = std::floor(now_seconds - next_iteration_s_) + 1;
    if (skip_idle_passes_ && due >= 2) {
      const uint64_t period = cleaner_.IdlePeriod(next_iteration_s_);
      if (period != 0 && due >= static_cast<double>(period)) {
        const uint64_t skip = static_cast<uint64_t>(due) / period * period;
        cleaner_.SkipIdlePasses(skip);
        skipped_passes_ += skip;
        next_iteration_s_ += static_cast<double>(skip);
        continue;
      }
    }
    cleaner_.RunIteration(next_iteration_s_);
    next_iteration_s_ += 1;
  }
  if (cleaner_.CheckRedoPressure(now_seconds)) {
    // buf_flush_ahead woke the sleeping cleaner: a pass now, the next a
    // second after it.
    cleaner_.RunIteration(now_seconds);
    next_iteration_s_ = now_seconds + 1;
  }
}

void FlushModel::FlushAll() {
  final_flush_pages_ += pool_.FlushAllDirty();
  log_.Checkpoint(0);
}

FlushModel::Counters FlushModel::counters() const {
  Counters c;
  const BufferPool::Stats& b = pool_.stats();
  const PageCleaner::Stats& p = cleaner_.stats();
  c.Innodb_pages_written = b.pages_written;
  // MySQL: every data-page write goes through the doublewrite buffer when
  // it is on (buf0dblwr.cc, 8.0.20+), counted per page in
  // dblwr_pages_written. MariaDB: all but the writes of pages created since
  // their last write (buf_page_t::flush writes a REINIT page straight to
  // its file); measured on 10.11.19, an in-memory 1M-row autoinc load
  // doublewrote 399 of 9,486 pages: the rollback segment headers, FSP
  // header, inode and bitmap pages and the few pages written twice.
  if (settings_.innodb_doublewrite) {
    c.Innodb_dblwr_pages_written =
        settings_.flavor == ServerFlavor::kMariaDb1011 ? b.pages_written - b.reinit_written : b.pages_written;
  }
  c.Innodb_buffer_pool_reads = b.reads;
  c.buffer_page_read_system_page = pool_.ReadsOf(BufferPool::PageType::kSystemPage);
  c.buffer_page_read_undo_log = pool_.ReadsOf(BufferPool::PageType::kUndoLog);
  c.buffer_page_written_system_page = pool_.WritesOf(BufferPool::PageType::kSystemPage);
  c.buffer_page_written_undo_log = pool_.WritesOf(BufferPool::PageType::kUndoLog);
  c.peak_dirty_pages = peak_dirty_;
  c.adaptive_flush_pages = p.adaptive_pages;
  c.sync_flush_pages = p.sync_pages;
  c.async_flush_pages = p.async_pages;
  c.lru_flush_pages = b.lru_batch_written;  // the cleaner's passes and the LRU flushes threads woke it for
  c.single_page_flushes = b.single_page_written;
  c.final_flush_pages = final_flush_pages_;
  c.observer_flush_pages = b.observer_written;
  c.redo_bytes = log_.bytes_appended();
  return c;
}

absl::Status FlushModel::status() const {
  const absl::Status& s = pool_.status();
  if (s.ok()) return s;
  const bool too_small = absl::IsResourceExhausted(s);
  return absl::Status(s.code(), absl::StrCat("innodb_buffer_pool_size=", settings_.innodb_buffer_pool_size, " (",
                                             settings_.BufferPoolPages(), " pages of ", settings_.innodb_page_size,
                                             " bytes) is too ", too_small ? "small" : "large", " for the model: ",
                                             s.message(), too_small ? "; raise" : "; lower",
                                             " innodb_buffer_pool_size",
                                             !too_small                                   ? ""
                                             : settings_.flavor == ServerFlavor::kMySql84 ? " (the server's minimum is 5M)"
                                                                                          : " (the server's minimum is 2M)"));
}

std::string FlushModel::Verify() const {
  if (std::string e = pool_.Verify(); !e.empty()) return "buffer pool: " + e;
  const uint64_t lsn = log_.lsn(), checkpoint = log_.last_checkpoint_lsn();
  if (checkpoint > lsn) return absl::StrCat("redo log: checkpoint LSN ", checkpoint, " > current LSN ", lsn);
  if (pool_.dirty_pages() > 0) {
    const uint64_t oldest = pool_.OldestModification(), newest = pool_.NewestModification();
    if (checkpoint > oldest) {
      return absl::StrCat("redo log: checkpoint LSN ", checkpoint, " > oldest_modification ", oldest,
                          " of a page not written yet");
    }
    if (newest > lsn) return absl::StrCat("buffer pool: a page modified at LSN ", newest, " > current LSN ", lsn);
  }
  const BufferPool::Stats& b = pool_.stats();
  const PageCleaner::Stats& p = cleaner_.stats();
  if (p.lru_pages + b.lru_wakeup_written != b.lru_batch_written) {
    return absl::StrCat("page cleaner: ", p.lru_pages, " LRU pages + ", b.lru_wakeup_written,
                        " on wake-up, the pool's LRU batches wrote ", b.lru_batch_written);
  }
  if (p.adaptive_pages + p.sync_pages + p.async_pages + final_flush_pages_ != b.flush_list_written) {
    return absl::StrCat("page cleaner: ", p.adaptive_pages, " adaptive + ", p.sync_pages, " sync + ", p.async_pages,
                        " async + ", final_flush_pages_, " final pages, the pool's flush list wrote ",
                        b.flush_list_written);
  }
  if (peak_dirty_ < pool_.dirty_pages()) {
    return absl::StrCat("peak dirty pages ", peak_dirty_, " < dirty pages ", pool_.dirty_pages());
  }
  return "";
}

FlushModel::Sample FlushModel::Snapshot() const {
  Sample s;
  s.seconds = now_s_;
  s.lsn = log_.lsn();
  s.checkpoint_lsn = log_.last_checkpoint_lsn();
  s.checkpoint_age = log_.lsn() - log_.AvailableForCheckpoint(pool_.OldestModification());
  s.dirty_pages = pool_.dirty_pages();
  s.pages_written = pool_.stats().pages_written;
  s.buffer_pool_reads = pool_.stats().reads;
  return s;
}

}  // namespace innosim
