#include "model/postgres/checkpointer.h"

#include <algorithm>
#include <limits>

namespace innosim::postgres {
namespace {

// checkpointer.c CheckpointWriteDelay: the sleep when on schedule (100 ms).
constexpr double kWriteDelayS = 0.1;

}  // namespace

int CalculateCheckpointSegments(int64_t max_wal_size_mb, double checkpoint_completion_target) {
  // ConvertToXSegs(max_wal_size_mb, wal_segment_size): MB over the
  // segment size in MB, integer division.
  const int64_t segs = max_wal_size_mb / static_cast<int64_t>(kWalSegmentSize >> 20);
  const int target = static_cast<int>(static_cast<double>(segs) / (1.0 + checkpoint_completion_target));
  return std::max(target, 1);
}

Checkpointer::Checkpointer(const PgSettings& settings, BufferManager* buffers, Wal* wal)
    : timeout_s_(static_cast<double>(settings.checkpoint_timeout)),
      completion_target_(settings.checkpoint_completion_target),
      checkpoint_segments_(CalculateCheckpointSegments(settings.max_wal_size, settings.checkpoint_completion_target)),
      buffers_(buffers),
      wal_(wal),
      last_end_lsn_(wal->InsertRecPtr()) {}

double Checkpointer::next_event() const {
  if (active_) return next_step_;
  return last_checkpoint_time_ + timeout_s_;
}

void Checkpointer::Start(double now, bool requested) {
  // CheckpointerMain: a request picked up counts checkpoints_requested; a
  // timeout alone counts checkpoints_timed.
  if (requested) {
    ++counters_.checkpoints_req;
  } else {
    ++counters_.checkpoints_timed;
  }
  request_pending_ = false;
  last_checkpoint_time_ = now;  // the start, not the end
  // CreateCheckPoint (not forced): nothing written since the last
  // checkpoint, nothing to do (counted all the same).
  if (!requested && wal_->InsertRecPtr() == last_end_lsn_) return;
  ckpt_start_recptr_ = wal_->InsertRecPtr();
  ckpt_start_time_ = now;
  ckpt_cached_elapsed_ = 0;
  wal_->BeginCheckpoint();
  buffers_->MarkCheckpointNeeded(&to_write_);
  processed_ = 0;
  active_ = true;
  next_step_ = now;
}

// checkpointer.c IsCheckpointOnSchedule.
bool Checkpointer::OnSchedule(double progress, double now) {
  progress *= completion_target_;
  if (progress < ckpt_cached_elapsed_) return false;
  const double elapsed_xlogs = static_cast<double>(wal_->InsertRecPtr() - ckpt_start_recptr_) /
                               static_cast<double>(kWalSegmentSize) / checkpoint_segments_;
  if (progress < elapsed_xlogs) {
    ckpt_cached_elapsed_ = elapsed_xlogs;
    return false;
  }
  const double elapsed_time = (now - ckpt_start_time_) / timeout_s_;
  if (progress < elapsed_time) {
    ckpt_cached_elapsed_ = elapsed_time;
    return false;
  }
  return true;
}

// bufmgr.c BufferSync's loop: each marked buffer still BM_CHECKPOINT_NEEDED
// is written (SyncOneBuffer without skipping recently used ones); after
// each, CheckpointWriteDelay sleeps 100 ms when on schedule.
bool Checkpointer::WriteBatch(double now, bool immediate) {
  const size_t n = to_write_.size();
  while (processed_ < n) {
    const int b = to_write_[processed_++];
    if (buffers_->CheckpointNeeded(b)) buffers_->SyncOneBuffer(b, false, Writer::kCheckpointer);
    if (!immediate && processed_ < n &&
        OnSchedule(static_cast<double>(processed_) / static_cast<double>(n), now)) {
      next_step_ = now + kWriteDelayS;
      return false;
    }
  }
  return true;
}

void Checkpointer::Finish() {
  // CreateCheckPoint after CheckPointGuts: the standby snapshot and the
  // checkpoint record.
  wal_->EndCheckpoint();
  last_end_lsn_ = wal_->InsertRecPtr();
  ++counters_.checkpoints_done;
  active_ = false;
  to_write_.clear();
}

void Checkpointer::RunUntil(double now) {
  while (next_event() <= now) {
    const double t = next_event();
    if (active_) {
      if (!WriteBatch(t, false)) continue;
      Finish();
      if (request_pending_) Start(t, true);
    } else {
      Start(t, false);
    }
  }
}

void Checkpointer::CheckWalVolume(double now) {
  const uint64_t segment = wal_->InsertRecPtr() / kWalSegmentSize;
  if (segment <= last_checked_segment_) return;
  last_checked_segment_ = segment;
  // xlog.c XLogCheckpointNeeded for the segment just finished.
  const uint64_t finished = segment - 1;
  const uint64_t old_segno = wal_->RedoRecPtr() / kWalSegmentSize;
  if (finished < old_segno + static_cast<uint64_t>(checkpoint_segments_ - 1)) return;
  if (active_) {
    request_pending_ = true;
  } else {
    Start(now, true);
  }
}

void Checkpointer::RequestImmediate(double now) {
  // ImmediateCheckpointRequested: the running one stops sleeping.
  if (active_) {
    WriteBatch(now, true);
    Finish();
  }
  Start(now, true);  // a pending WAL request merges into this one
  WriteBatch(now, true);
  Finish();
}

}  // namespace innosim::postgres
