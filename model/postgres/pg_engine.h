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
// model/postgres/wal.h). What the seam carries that this model does not
// simulate yet is refused with a one-line Unimplemented status naming it
// (DELETE with VACUUM, REINDEX): sim/'s PostgreSQL driver refuses such
// phases before a run starts, so a run never reaches them.
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_
#define INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_

#include <string>

#include "model/postgres/table.h"
#include "model/table_engine.h"

namespace innosim::postgres {

class PgEngine final : public TableEngine {
 public:
  PgEngine(const PgProfile& profile, const PgTableSpec& spec, uint64_t trx_rows = 1000)
      : table_(profile, spec), trx_rows_(trx_rows == 0 ? 1 : trx_rows) {}

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
  // The table's rows are not kept in key order apart from the index pages'
  // counts, so this visits nothing; only DELETE phases need it, and those
  // are refused (see above).
  void ForEachPrimaryKey(const std::function<void(const Key&)>& f) const override;
  uint64_t rows() const override { return rows_; }
  absl::Status status() const override { return table_.status(); }
  std::string Verify() const override { return table_.Verify(); }

  const PgTable& table() const { return table_; }
  // For the callers that watch the table's inserts (explain's trace:
  // PgTable::set_index_trace); the pages change only through the seam.
  PgTable& mutable_table() { return table_; }

 private:
  PgTable table_;
  uint64_t trx_rows_;
  uint64_t rows_in_trx_ = 0;
  uint64_t rows_ = 0;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PG_ENGINE_H_
