// PgEngine: a PostgreSQL table (model/postgres/table.h) behind the engine
// seam (model/table_engine.h), so that sim/'s Load and PhaseRunner drive
// it as they drive InnoDB's Engine.
//
//   PgEngine e(kPostgresql18, spec);
//   e.InsertRow(pk); e.InsertSecondary(0, entry); e.EndRow(); ...; e.EndLoad();
//   e.table().Report();
//
// Rows commit every `trx_rows` (--batch), and at the load's end or a
// CommitTrx: one commit record each. Checkpoint() is a requested
// CHECKPOINT: every buffer written, the redo pointer moved (the WAL of
// model/postgres/wal.h). DeleteRow is a DELETE of the row (its xid taken
// by the first row), EndDeletes its commit and a VACUUM, Rebuild a REINDEX
// TABLE (model/postgres/vacuumlazy.h). Each committed transaction takes one
// xid (ReadNextFullTransactionId moves on), which is what lets VACUUM
// recycle the index pages an earlier VACUUM deleted. Rows inserted after a
// VACUUM would go into the heap space it freed (the heap's FSM, not
// modelled): InsertRow refuses them with a one-line Unimplemented status,
// as sim/'s PostgreSQL driver refuses an insert phase after a delete phase.
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_
#define INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_

#include <string>

#include "model/postgres/table.h"
#include "model/postgres/vacuumlazy.h"
#include "model/table_engine.h"

namespace innosim::postgres {

// Shared buffers and the writers (model/postgres/pg_io.h) on the load's
// clock: row i ends at (i + 1) / rows_per_sec seconds.
struct PgIoOptions {
  PgSettings settings;
  double rows_per_sec = 100000;
};

class PgEngine final : public TableEngine {
 public:
  // `io`: shared buffers, the checkpointer and the background writer with
  // these settings and clock; nullptr: pages and WAL only.
  PgEngine(const PgProfile& profile, const PgTableSpec& spec, uint64_t trx_rows = 1000,
           const PgIoOptions* io = nullptr)
      : table_(profile, spec, io != nullptr ? &io->settings : nullptr),
        trx_rows_(trx_rows == 0 ? 1 : trx_rows),
        vacuum_(table_),
        rows_per_sec_(io != nullptr && io->rows_per_sec > 0 ? io->rows_per_sec : 0) {}

  // heap_insert, then the primary key's entry (ExecInsert). A key the
  // primary key already holds is AlreadyExists (unique_violation); the
  // table is then unusable (its status stays the error).
  absl::Status InsertRow(const Key& pk) override;
  // The row's entry of secondary index `index`: its key columns only (the
  // heap TID that orders equal keys is the table's).
  absl::Status InsertSecondary(size_t index, const Key& entry) override;
  absl::Status EndRow() override;
  // The open transaction commits; nothing else is pending.
  absl::Status EndLoad() override;
  // Commits the open transaction, if any (its commit record).
  void CommitTrx() override;
  absl::Status DeleteRow(const Key& pk, absl::Span<const Key> secondary_entries) override;
  absl::Status EndDeletes() override;
  absl::Status Checkpoint() override;
  absl::Status Rebuild() override;
  // The primary key's index in key order, rows deleted but still indexed
  // skipped (nothing without a primary key).
  void ForEachPrimaryKey(const std::function<void(const Key&)>& f) const override;
  uint64_t rows() const override { return rows_; }
  absl::Status status() const override { return status_.ok() ? table_.status() : status_; }
  std::string Verify() const override { return table_.Verify(); }

  const PgTable& table() const { return table_; }
  // The last VACUUM's figures (EndDeletes).
  const LazyVacuumStats& last_vacuum() const { return last_vacuum_; }
  // ReadNextFullTransactionId(): the xid the next transaction would take.
  uint64_t next_xid() const { return next_xid_; }
  // For the callers that watch the table's inserts (explain's trace:
  // PgTable::set_index_trace); the pages change only through the seam.
  PgTable& mutable_table() { return table_; }

 private:
  PgTable table_;
  uint64_t trx_rows_;
  uint64_t rows_in_trx_ = 0;
  uint64_t rows_ = 0;
  LazyVacuum vacuum_;
  LazyVacuumStats last_vacuum_;
  // The first normal xid (transam.h FirstNormalTransactionId); only
  // differences matter.
  uint64_t next_xid_ = 3;
  bool deleting_ = false;  // a DELETE's transaction is open
  bool vacuumed_ = false;  // a VACUUM ran: inserts are refused
  absl::Status status_;    // the first refusal, sticky
  double rows_per_sec_;  // 0: no clock
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_
