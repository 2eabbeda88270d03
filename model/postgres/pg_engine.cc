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
  return table_.status();
}

void PgEngine::CommitTrx() {
  if (rows_in_trx_ == 0) return;  // no transaction wrote anything: no commit record
  table_.Commit();
  rows_in_trx_ = 0;
}

absl::Status PgEngine::EndLoad() {
  CommitTrx();
  return table_.status();
}

absl::Status PgEngine::DeleteRow(const Key&, absl::Span<const Key>) { return NotModelled("DELETE and VACUUM"); }
absl::Status PgEngine::EndDeletes() { return NotModelled("DELETE and VACUUM"); }
absl::Status PgEngine::Checkpoint() {
  table_.Checkpoint();
  return table_.status();
}
absl::Status PgEngine::Rebuild() { return NotModelled("REINDEX"); }
void PgEngine::ForEachPrimaryKey(const std::function<void(const Key&)>&) const {}

}  // namespace innosim::postgres
