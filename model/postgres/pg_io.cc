#include "model/postgres/pg_io.h"

#include <algorithm>

namespace innosim::postgres {

PgIo::PgIo(const PgProfile& profile, const PgSettings& settings, Wal* wal)
    : settings_(settings),
      wal_(wal),
      buffers_(profile, settings.shared_buffers),
      checkpointer_(settings, &buffers_, wal),
      bgwriter_(settings, &buffers_) {
  wal_->AttachBuffers(&buffers_);
  wal_->set_full_page_writes(settings.full_page_writes);
  next_event_ = std::min(checkpointer_.next_event(), bgwriter_.next_event());
}

void PgIo::AdvanceTo(double now) {
  if (now < now_) return;
  now_ = now;
  if (buffers_.allocs_total() != allocs_seen_) {
    allocs_seen_ = buffers_.allocs_total();
    // StrategyGetBuffer sets the hibernating writer's latch.
    bgwriter_.NoteAllocation(now);
    next_event_ = std::min(next_event_, bgwriter_.next_event());
  }
  while (next_event_ <= now) {
    if (bgwriter_.next_event() <= checkpointer_.next_event()) {
      bgwriter_.RunUntil(bgwriter_.next_event());
    } else {
      checkpointer_.RunUntil(checkpointer_.next_event());
    }
    next_event_ = std::min(checkpointer_.next_event(), bgwriter_.next_event());
  }
  checkpointer_.CheckWalVolume(now);
  next_event_ = std::min(checkpointer_.next_event(), bgwriter_.next_event());
}

void PgIo::Checkpoint(double now) {
  AdvanceTo(now);
  checkpointer_.RequestImmediate(now_);
  next_event_ = std::min(checkpointer_.next_event(), bgwriter_.next_event());
}

PgIoReport PgIo::Report() const {
  PgIoReport r;
  r.buffers = buffers_.counters();
  r.checkpoints = checkpointer_.counters();
  r.bgwriter_rounds = bgwriter_.rounds();
  r.clock_s = now_;
  r.settings = settings_.Describe();
  return r;
}

}  // namespace innosim::postgres
