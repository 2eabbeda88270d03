// PostgreSQL's checkpointer on a simulated clock (postmaster/checkpointer.c
// CheckpointerMain, CheckpointWriteDelay, IsCheckpointOnSchedule; access/
// transam/xlog.c CreateCheckPoint, CalculateCheckpointSegments,
// XLogCheckpointNeeded; storage/buffer/bufmgr.c BufferSync):
//
//  - timed: checkpoint_timeout seconds after the previous checkpoint's
//    start (last_checkpoint_time is a start time, so timed checkpoints keep
//    their spacing), counted checkpoints_timed (PG18 num_timed) unless a
//    request is picked up in the same pass;
//  - requested by WAL volume: when the insert position finishes a segment
//    at least CheckPointSegments - 1 segments past the redo pointer's
//    (XLogCheckpointNeeded), counted checkpoints_req (PG18 num_requested)
//    when the checkpointer picks the request up; requests made while one
//    runs start the next as soon as it ends;
//  - requested by the CHECKPOINT command: immediate (no delay), after the
//    running one finishes at full speed;
//  - spread: the redo pointer moves at the start (full-page images restart
//    there), BufferSync marks the buffers dirty then and writes them in
//    file order, sleeping 100 ms whenever it is on schedule (its progress
//    times checkpoint_completion_target at least the elapsed fraction of
//    checkpoint_timeout and of CheckPointSegments' WAL); a marked buffer
//    someone else wrote meanwhile is passed over. Its end writes the
//    checkpoint's records.
//
// The simulated clock starts at 0 (the checkpointer's start: the first
// timed checkpoint is checkpoint_timeout into the load). Writes take no
// time; fsync is not modelled.
//
// Pure computation. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_CHECKPOINTER_H_
#define INNOSIM_MODEL_POSTGRES_CHECKPOINTER_H_

#include <cstdint>
#include <vector>

#include "model/postgres/buffer_manager.h"
#include "model/postgres/pg_settings.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {

// pg_stat_bgwriter (REL_15) / pg_stat_checkpointer (REL_17+) counters the
// checkpointer keeps; buffers_checkpoint is BufferCounters'.
struct CheckpointCounters {
  uint64_t checkpoints_timed = 0;  // PG18 num_timed
  uint64_t checkpoints_req = 0;    // PG18 num_requested
  uint64_t checkpoints_done = 0;   // PG18 num_done (REL_17+): completed
};

// xlog.c CalculateCheckpointSegments: max_wal_size in segments over
// (1 + checkpoint_completion_target), rounded down, at least 1.
int CalculateCheckpointSegments(int64_t max_wal_size_mb, double checkpoint_completion_target);

class Checkpointer {
 public:
  Checkpointer(const PgSettings& settings, BufferManager* buffers, Wal* wal);

  // The next simulated time (s) at which the checkpointer acts without a
  // new request: a step of the running checkpoint or the next timed one.
  double next_event() const;
  // Does what is due at `now` (<= next_event() or a request pending).
  void RunUntil(double now);
  // XLogWrite's check when the insert position has moved: each segment
  // finished since the last call that XLogCheckpointNeeded flags makes a
  // request (RequestCheckpoint(CHECKPOINT_CAUSE_XLOG)).
  void CheckWalVolume(double now);
  // The CHECKPOINT command at `now`: the running checkpoint finishes without
  // delay, then an immediate one writes every dirty buffer.
  void RequestImmediate(double now);

  bool active() const { return active_; }
  int checkpoint_segments() const { return checkpoint_segments_; }
  const CheckpointCounters& counters() const { return counters_; }

 private:
  void Start(double now, bool requested);
  // BufferSync's loop from the current entry: writes while behind schedule
  // (or all of it when `immediate`); true when every marked buffer is done.
  bool WriteBatch(double now, bool immediate);
  bool OnSchedule(double progress, double now);
  void Finish();

  double timeout_s_;
  double completion_target_;
  int checkpoint_segments_;
  BufferManager* buffers_;
  Wal* wal_;
  CheckpointCounters counters_;
  double last_checkpoint_time_ = 0;
  bool request_pending_ = false;
  uint64_t last_checked_segment_ = 0;
  uint64_t last_end_lsn_ = 0;  // insert LSN after the last checkpoint (or at the start)
  // The running checkpoint.
  bool active_ = false;
  double ckpt_start_time_ = 0;
  uint64_t ckpt_start_recptr_ = 0;
  double ckpt_cached_elapsed_ = 0;
  double next_step_ = 0;
  std::vector<int> to_write_;  // CkptBufferIds
  size_t processed_ = 0;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_CHECKPOINTER_H_
