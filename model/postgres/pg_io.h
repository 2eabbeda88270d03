// PgIo: a table's I/O as one PostgreSQL backend and the server's two
// writers make it: shared buffers (buffer_manager.h), the checkpointer
// (checkpointer.h) and the background writer (bgwriter.h) on one simulated
// clock, over the table's WAL (wal.h).
//
//   PgIo io(kPostgresql15, settings, &wal);   // relations added as the Wal's
//   io.buffers().ReadBuffer(rel, block); ...   // the table's accesses
//   io.AdvanceTo(seconds);                      // after each row: the writers' turns
//   io.Checkpoint(seconds);                     // the CHECKPOINT command
//
// AdvanceTo runs the writers' due events in time order (the background
// writer first at a tie), then the WAL-volume check (XLogCheckpointNeeded).
//
// Pure computation. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_PG_IO_H_
#define INNOSIM_MODEL_POSTGRES_PG_IO_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/postgres/bgwriter.h"
#include "model/postgres/buffer_manager.h"
#include "model/postgres/checkpointer.h"
#include "model/postgres/pg_settings.h"
#include "model/postgres/profile.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {

// Every I/O figure at one moment, by the server's names.
struct PgIoReport {
  BufferCounters buffers;
  CheckpointCounters checkpoints;
  uint64_t bgwriter_rounds = 0;
  double clock_s = 0;  // simulated seconds since the load began
  std::vector<PgSettings::Row> settings;  // as SHOW prints them
};

class PgIo {
 public:
  PgIo(const PgProfile& profile, const PgSettings& settings, Wal* wal);
  PgIo(const PgIo&) = delete;
  PgIo& operator=(const PgIo&) = delete;

  BufferManager& buffers() { return buffers_; }
  const BufferManager& buffers() const { return buffers_; }
  const PgSettings& settings() const { return settings_; }
  void AdvanceTo(double now);
  void Checkpoint(double now);
  PgIoReport Report() const;
  double clock() const { return now_; }

  absl::Status status() const { return buffers_.status(); }
  std::string Verify() const { return buffers_.Verify(); }

 private:
  PgSettings settings_;
  Wal* wal_;
  BufferManager buffers_;
  Checkpointer checkpointer_;
  BgWriter bgwriter_;
  double now_ = 0;
  uint64_t allocs_seen_ = 0;
  double next_event_ = 0;  // the earlier writer's next event
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PG_IO_H_
