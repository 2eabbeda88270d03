#include "model/postgres/table.h"

#include "absl/strings/str_cat.h"

namespace innosim::postgres {

BtIndexDesc PgTable::MakeIndexDesc(const std::string& name, const std::vector<size_t>& columns, bool unique,
                                   int fillfactor, bool dedup) {
  BtIndexDesc d;
  d.name = name;
  d.unique = unique;
  d.fillfactor = fillfactor;
  d.deduplicate_items = dedup;
  for (size_t c : columns) {
    if (c >= spec_.columns.size()) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat("index ", name, ": column ", c, " does not exist (the table has ", spec_.columns.size(), ")"));
      continue;
    }
    const PgColumn& col = spec_.columns[c];
    const PgTypeInfo info = TypeInfo(col.type);
    BtKeyColumn k;
    k.type = col.type;
    k.varlena_bytes = col.varlena_bytes;
    // A fixed-length column takes its typlen in the Key; a varlena its
    // payload (compared bytewise, as under the C collation).
    k.key_bytes = info.typlen > 0 ? info.typlen : col.varlena_bytes;
    d.columns.push_back(k);
  }
  return d;
}

PgTable::PgTable(const PgProfile& profile, const PgTableSpec& spec)
    : profile_(profile), spec_(spec), wal_(std::make_unique<Wal>(profile)), heap_(spec.fillfactor) {
  heap_.AttachWal(wal_.get(), wal_->AddRelation());
  if (spec_.columns.empty() || spec_.columns.size() > 64) {
    status_ = absl::InvalidArgumentError("a table needs 1 to 64 columns");
  }
  if (!spec_.primary_key.empty()) {
    // index.c ChooseIndexName: <table>_pkey.
    primary_ = std::make_unique<BtIndex>(
        profile_, MakeIndexDesc(spec_.name + "_pkey", spec_.primary_key, true, kBtreeDefaultFillfactor, true));
    primary_->AttachWal(wal_.get(), wal_->AddRelation());
  }
  for (size_t i = 0; i < spec_.secondary.size(); ++i) {
    const PgIndexSpec& s = spec_.secondary[i];
    std::string name = s.name;
    if (name.empty()) {
      name = spec_.name;
      for (size_t c : s.columns) {
        if (c < spec_.columns.size()) absl::StrAppend(&name, "_", spec_.columns[c].name);
      }
      absl::StrAppend(&name, s.unique ? "_key" : "_idx");
    }
    secondary_.push_back(std::make_unique<BtIndex>(
        profile_, MakeIndexDesc(name, s.columns, s.unique, s.fillfactor, s.deduplicate_items)));
    secondary_.back()->AttachWal(wal_.get(), wal_->AddRelation());
  }
  entry_done_.assign(secondary_.size(), false);
}

void PgTable::InsertRow(const Key& pk, const PgRow& row) {
  if (!status_.ok()) return;
  if (in_row_) {
    status_ = absl::FailedPreconditionError("InsertRow before EndRow of the previous row");
    return;
  }
  in_row_ = true;
  entry_done_.assign(secondary_.size(), false);
  row_tid_ = heap_.Insert(HeapTupleLength(spec_.columns, row));
  ++rows_;
  if (primary_ != nullptr) primary_->Insert(pk, row_tid_);
}

void PgTable::InsertIndexEntry(size_t index, const Key& entry) {
  if (!status_.ok()) return;
  if (!in_row_ || index >= secondary_.size() || entry_done_[index]) {
    status_ = absl::FailedPreconditionError(
        absl::StrCat("InsertIndexEntry(", index, "): outside a row, no such secondary index, or given twice"));
    return;
  }
  entry_done_[index] = true;
  secondary_[index]->Insert(entry, row_tid_);
}

void PgTable::EndRow() {
  if (!status_.ok()) return;
  for (size_t i = 0; i < entry_done_.size(); ++i) {
    if (!entry_done_[i]) {
      status_ = absl::FailedPreconditionError(
          absl::StrCat("EndRow: secondary index ", secondary_[i]->desc().name, " has no entry for the row"));
      return;
    }
  }
  in_row_ = false;
}

absl::Status PgTable::status() const {
  if (!status_.ok()) return status_;
  if (!heap_.status().ok()) return heap_.status();
  if (!wal_->status().ok()) return wal_->status();
  if (primary_ != nullptr && !primary_->status().ok()) return primary_->status();
  for (const auto& s : secondary_) {
    if (!s->status().ok()) return s->status();
  }
  return absl::OkStatus();
}

PgTableReport PgTable::Report() const {
  PgTableReport r;
  r.profile = std::string(profile_.name);
  r.rows = rows_;
  r.heap_relpages = heap_.relpages();
  r.heap_pg_relation_size = heap_.pg_relation_size();
  r.heap_name = spec_.name;
  r.heap_dirty_blocks = wal_->dirty_blocks(0);
  r.wal = wal_->counters();
  int relation = 0;
  auto add = [&](const BtIndex& ix) {
    r.indexes.push_back(PgIndexReport{ix.desc().name, ix.desc().unique, ix.StatIndex(), ix.counters(),
                                      wal_->dirty_blocks(++relation)});
  };
  if (primary_ != nullptr) add(*primary_);
  for (const auto& s : secondary_) add(*s);
  return r;
}

std::string PgTable::Verify() const {
  if (!status_.ok()) return std::string(status_.message());
  if (std::string v = heap_.Verify(); !v.empty()) return v;
  if (primary_ != nullptr) {
    if (std::string v = primary_->Verify(); !v.empty()) return v;
  }
  for (const auto& s : secondary_) {
    if (std::string v = s->Verify(); !v.empty()) return v;
  }
  return "";
}

}  // namespace innosim::postgres
