// PostgreSQL's background writer on a simulated clock (postmaster/
// bgwriter.c BackgroundWriterMain; storage/buffer/bufmgr.c BgBufferSync):
// every bgwriter_delay one round that estimates the next round's buffer
// allocations (recent allocations, smoothed with fast attack and slow
// decline, times bgwriter_lru_multiplier, at least a slice of the pool and
// the reusable buffers it already found ahead) and writes the dirty
// reusable buffers (unpinned, usage count 0) ahead of the clock sweep until
// it has that many reusable ones, laps the sweep, or has written
// bgwriter_lru_maxpages (maxwritten_clean). After two rounds with nothing
// to do it hibernates until the next buffer allocation (HIBERNATE_FACTOR's
// 50 delays at most).
//
// Pure computation. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_BGWRITER_H_
#define INNOSIM_MODEL_POSTGRES_BGWRITER_H_

#include <cstdint>

#include "model/postgres/buffer_manager.h"
#include "model/postgres/pg_settings.h"

namespace innosim::postgres {

class BgWriter {
 public:
  BgWriter(const PgSettings& settings, BufferManager* buffers);

  // The next round's simulated time (s).
  double next_event() const { return next_round_; }
  // The rounds due by `now`.
  void RunUntil(double now);
  // StrategyGetBuffer's wake-up: a hibernating writer runs at `now` once a
  // buffer has been allocated.
  void NoteAllocation(double now);

  uint64_t rounds() const { return rounds_; }

 private:
  // One BgBufferSync; true when it may hibernate.
  bool BgBufferSync();

  double delay_s_;
  int64_t lru_maxpages_;
  double lru_multiplier_;
  BufferManager* buffers_;
  double next_round_;
  bool prev_hibernate_ = false;
  bool hibernating_ = false;
  uint64_t rounds_ = 0;
  // BgBufferSync's statics.
  bool saved_info_valid_ = false;
  int prev_strategy_buf_id_ = 0;
  uint32_t prev_strategy_passes_ = 0;
  int next_to_clean_ = 0;
  uint32_t next_passes_ = 0;
  float smoothed_alloc_ = 0;
  float smoothed_density_ = 10.0f;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_BGWRITER_H_
