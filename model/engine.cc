#include "model/engine.h"

namespace innosim {

Engine::Engine(const EngineProfile& profile, const TableDef& table, PageEventSink* sink)
    : profile_(profile),
      table_(table),
      space_(profile.page_size, profile.allocation, profile.segment_reserve_pct) {
  const FilePerTableLayout layout =
      CreateFilePerTableLayout(space_, static_cast<uint32_t>(1 + table.secondary.size()));
  // Space id 0 is this table; indexes share it and the page numbering.
  primary_ = std::make_unique<BTree>(profile_, &space_, &store_, layout.indexes[0],
                                     ClusteredRecordSizes(table_), true, 0, sink);
  for (size_t i = 0; i < table_.secondary.size(); ++i) {
    secondary_.push_back(std::make_unique<BTree>(profile_, &space_, &store_, layout.indexes[i + 1],
                                                 SecondaryRecordSizes(table_, table_.secondary[i]),
                                                 false, 0, sink));
  }
}

absl::Status Engine::InsertRow(const Key& pk) {
  absl::Status s = primary_->Insert(pk);
  if (s.ok()) ++rows_;
  return s;
}

absl::Status Engine::InsertSecondary(size_t index, const Key& entry) {
  return secondary_[index]->Insert(entry);
}

IndexReport Engine::ReportIndex(const BTree& t, const std::string& name) const {
  IndexReport r;
  r.name = name;
  r.counters = t.counters();
  r.size = t.size();
  r.n_leaf_pages = t.n_leaf_pages();
  r.height = t.height();
  r.levels = t.Census();
  uint64_t used = 0;
  for (const LevelCensus& lc : r.levels) used += lc.pages;
  r.used_pages = used;
  const LevelCensus& leaf = r.levels.back();
  r.leaf_fill = leaf.usable_bytes > 0 ? static_cast<double>(leaf.data_bytes) / static_cast<double>(leaf.usable_bytes) : 0;
  return r;
}

EngineReport Engine::Report() const {
  EngineReport r;
  r.rows = rows_;
  r.primary = ReportIndex(*primary_, table_.primary.name);
  for (size_t i = 0; i < secondary_.size(); ++i) {
    r.secondary.push_back(ReportIndex(*secondary_[i], table_.secondary[i].name));
    r.index_length += r.secondary.back().size * profile_.page_size;
  }
  r.data_length = r.primary.size * profile_.page_size;
  r.data_free = space_.data_free_bytes();
  r.file_size = static_cast<uint64_t>(space_.size_in_pages()) * profile_.page_size;
  r.model_bytes = store_.pool().reserved_bytes() + store_.capacity() * sizeof(IndexPage);
  return r;
}

std::string Engine::Verify() const {
  if (std::string e = primary_->Verify(); !e.empty()) return "PRIMARY: " + e;
  for (size_t i = 0; i < secondary_.size(); ++i) {
    if (std::string e = secondary_[i]->Verify(); !e.empty()) return table_.secondary[i].name + ": " + e;
  }
  return "";
}

}  // namespace innosim
