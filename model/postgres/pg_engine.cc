#include "model/postgres/pg_engine.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace innosim::postgres {
namespace {

// The phases this model does not simulate yet, each named as the user
// wrote it.
absl::Status NotModelled(const char* what) {
  return absl::UnimplementedError(absl::StrCat("the PostgreSQL model does not simulate ", what,
                                               " yet: run the PostgreSQL profile without that phase"));
}

}  // namespace

absl::Status PgEngine::InsertRow(const Key& pk) {
  if (vacuumed_) {
    status_ = NotModelled("inserts after a VACUUM (the heap's free space map would place them in freed pages)");
    return status_;
  }
  table_.InsertRow(pk);
  absl::Status s = table_.status();
  if (!s.ok()) {
    // _bt_check_unique's error, as BtIndex words it.
    if (absl::StartsWith(s.message(), "duplicate key value")) return absl::AlreadyExistsError(s.message());
    return s;
  }
  ++rows_;
  return absl::OkStatus();
}

absl::Status PgEngine::InsertSecondary(size_t index, const Key& entry) {
  table_.InsertIndexEntry(index, entry);
  return table_.status();
}

absl::Status PgEngine::EndRow() {
  table_.EndRow();
  if (++rows_in_trx_ == trx_rows_) CommitTrx();
  if (rows_per_sec_ > 0) table_.AdvanceClock(static_cast<double>(rows_) / rows_per_sec_);
  return table_.status();
}

void PgEngine::CommitTrx() {
  if (rows_in_trx_ == 0) return;  // no transaction wrote anything: no commit record
  table_.Commit();
  rows_in_trx_ = 0;
  ++next_xid_;  // the transaction's xid (GetNewTransactionId at its first row)
}

absl::Status PgEngine::EndLoad() {
  CommitTrx();
  return table_.status();
}

absl::Status PgEngine::DeleteRow(const Key& pk, absl::Span<const Key> secondary_entries) {
  if (!status_.ok()) return status_;
  absl::Status s = vacuum_.Delete(pk, std::span<const Key>(secondary_entries.data(), secondary_entries.size()));
  if (s.ok()) {
    deleting_ = true;
    --rows_;
  } else if (!absl::IsNotFound(s)) {
    status_ = s;
  }
  return s;
}

absl::Status PgEngine::EndDeletes() {
  if (!status_.ok()) return status_;
  // The DELETE commits (its xid: the next one), then VACUUM runs on a quiet
  // server. (The DELETE's WAL and commit record are not modelled.)
  if (deleting_) ++next_xid_;
  deleting_ = false;
  last_vacuum_ = vacuum_.Vacuum(next_xid_);
  vacuumed_ = true;
  return table_.status();
}
absl::Status PgEngine::Checkpoint() {
  table_.Checkpoint();
  return table_.status();
}
absl::Status PgEngine::Rebuild() {
  if (!status_.ok()) return status_;
  // REINDEX TABLE: its own transaction (an xid: it updates pg_class).
  vacuum_.Reindex();
  ++next_xid_;
  return table_.status();
}

void PgEngine::ForEachPrimaryKey(const std::function<void(const Key&)>& f) const { vacuum_.ForEachLiveKey(f); }

}  // namespace innosim::postgres
