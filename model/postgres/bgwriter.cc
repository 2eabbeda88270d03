#include "model/postgres/bgwriter.h"

namespace innosim::postgres {
namespace {

// bgwriter.c HIBERNATE_FACTOR.
constexpr int kHibernateFactor = 50;
// bufmgr.c BgBufferSync's fixed tunables: smoothing_samples and
// scan_whole_pool_milliseconds.
constexpr float kSmoothingSamples = 16;
constexpr float kScanWholePoolMilliseconds = 120000.0f;

}  // namespace

BgWriter::BgWriter(const PgSettings& settings, BufferManager* buffers)
    : delay_s_(static_cast<double>(settings.bgwriter_delay) / 1000.0),
      lru_maxpages_(settings.bgwriter_lru_maxpages),
      lru_multiplier_(settings.bgwriter_lru_multiplier),
      buffers_(buffers),
      next_round_(delay_s_) {}

void BgWriter::NoteAllocation(double now) {
  if (hibernating_ && now < next_round_) next_round_ = now;
}

void BgWriter::RunUntil(double now) {
  while (next_round_ <= now) {
    const double t = next_round_;
    const bool can_hibernate = BgBufferSync();
    ++rounds_;
    // BackgroundWriterMain: a round's WaitLatch(BgWriterDelay); when this
    // round and the one before could hibernate, the long sleep follows
    // (StrategyNotifyBgWriter: the next allocation ends it).
    hibernating_ = can_hibernate && prev_hibernate_;
    next_round_ = t + delay_s_ * (hibernating_ ? 1 + kHibernateFactor : 1);
    prev_hibernate_ = can_hibernate;
  }
}

// bufmgr.c BgBufferSync (written from its description; the arithmetic in
// the same float/int types so that its rounding is the server's).
bool BgWriter::BgBufferSync() {
  const int nbuffers = buffers_->nbuffers();
  uint32_t strategy_passes = 0;
  uint32_t recent_alloc = 0;
  const int strategy_buf_id = buffers_->StrategySyncStart(&strategy_passes, &recent_alloc);
  if (lru_maxpages_ <= 0) {
    saved_info_valid_ = false;
    return true;
  }
  // How far the sweep moved since the last round, and how far this
  // writer's scan is ahead of it (bufs_to_lap: what it may scan before
  // lapping it).
  long strategy_delta = 0;
  int bufs_to_lap = 0;
  if (saved_info_valid_) {
    const int32_t passes_delta = static_cast<int32_t>(strategy_passes - prev_strategy_passes_);
    strategy_delta = strategy_buf_id - prev_strategy_buf_id_;
    strategy_delta += static_cast<long>(passes_delta) * nbuffers;
    if (static_cast<int32_t>(next_passes_ - strategy_passes) > 0) {
      bufs_to_lap = strategy_buf_id - next_to_clean_;  // a pass ahead
    } else if (next_passes_ == strategy_passes && next_to_clean_ >= strategy_buf_id) {
      bufs_to_lap = nbuffers - (next_to_clean_ - strategy_buf_id);  // same pass, ahead
    } else {
      // Behind the sweep: start again from it.
      next_to_clean_ = strategy_buf_id;
      next_passes_ = strategy_passes;
      bufs_to_lap = nbuffers;
    }
  } else {
    strategy_delta = 0;
    next_to_clean_ = strategy_buf_id;
    next_passes_ = strategy_passes;
    bufs_to_lap = nbuffers;
  }
  prev_strategy_buf_id_ = strategy_buf_id;
  prev_strategy_passes_ = strategy_passes;
  saved_info_valid_ = true;

  // Buffers the sweep scanned per allocation, smoothed.
  if (strategy_delta > 0 && recent_alloc > 0) {
    const float scans_per_alloc = static_cast<float>(strategy_delta) / static_cast<float>(recent_alloc);
    smoothed_density_ += (scans_per_alloc - smoothed_density_) / kSmoothingSamples;
  }
  const int bufs_ahead = nbuffers - bufs_to_lap;
  const int reusable_buffers_est = static_cast<int>(static_cast<float>(bufs_ahead) / smoothed_density_);
  // Fast attack, slow decline.
  if (smoothed_alloc_ <= static_cast<float>(recent_alloc)) {
    smoothed_alloc_ = static_cast<float>(recent_alloc);
  } else {
    smoothed_alloc_ += (static_cast<float>(recent_alloc) - smoothed_alloc_) / kSmoothingSamples;
  }
  int upcoming_alloc_est = static_cast<int>(smoothed_alloc_ * static_cast<float>(lru_multiplier_));
  if (upcoming_alloc_est == 0) smoothed_alloc_ = 0;
  // At least a slice of the pool per round, so the whole pool is visited
  // every scan_whole_pool_milliseconds.
  const int min_scan_buffers = static_cast<int>(
      static_cast<float>(nbuffers) / (kScanWholePoolMilliseconds / static_cast<float>(delay_s_ * 1000.0)));
  if (upcoming_alloc_est < min_scan_buffers + reusable_buffers_est) {
    upcoming_alloc_est = min_scan_buffers + reusable_buffers_est;
  }

  int num_to_scan = bufs_to_lap;
  int num_written = 0;
  int reusable_buffers = reusable_buffers_est;
  while (num_to_scan > 0 && reusable_buffers < upcoming_alloc_est) {
    const int sync_state = buffers_->SyncOneBuffer(next_to_clean_, true, Writer::kBgWriter);
    if (++next_to_clean_ >= nbuffers) {
      next_to_clean_ = 0;
      ++next_passes_;
    }
    --num_to_scan;
    if ((sync_state & kBufWritten) != 0) {
      ++reusable_buffers;
      if (++num_written >= lru_maxpages_) {
        buffers_->CountMaxWrittenClean();
        break;
      }
    } else if ((sync_state & kBufReusable) != 0) {
      ++reusable_buffers;
    }
  }
  // The scan as if it were allocations: it updates the density too.
  const long new_strategy_delta = bufs_to_lap - num_to_scan;
  const long new_recent_alloc = reusable_buffers - reusable_buffers_est;
  if (new_strategy_delta > 0 && new_recent_alloc > 0) {
    const float scans_per_alloc = static_cast<float>(new_strategy_delta) / static_cast<float>(new_recent_alloc);
    smoothed_density_ += (scans_per_alloc - smoothed_density_) / kSmoothingSamples;
  }
  return bufs_to_lap == 0 && recent_alloc == 0;
}

}  // namespace innosim::postgres
