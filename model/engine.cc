#include "model/engine.h"

#include <algorithm>
#include <cmath>
#include <new>

#include "absl/strings/str_cat.h"
#include "model/fast/huge_pages.h"

namespace innosim {

namespace {

// The table's tablespace id in redo records (a file-per-table space created
// after the system spaces; its compressed size is what matters, 1 byte).
constexpr uint32_t kTableSpaceId = 2;

// Where in each simulated second purge runs, after the page cleaner's pass
// at the whole second (EndRowLogged): half a second, the mean of a phase
// the server leaves arbitrary. Not a server constant.
constexpr double kPurgePhaseS = 0.5;

}  // namespace

Engine::Engine(const EngineProfile& profile, const TableDef& table, const EngineOptions& options)
    : Engine(profile, table, absl::MakeConstSpan(&options, 1)) {}

Engine::Engine(const EngineProfile& profile, const TableDef& table, absl::Span<const EngineOptions> instances)
    : profile_(profile),
      table_(table),
      big_rec_(ConvertBigRec(table, profile.page_size)),
      space_(profile.page_size, profile.allocation, profile.segment_reserve_pct) {
  Init(instances);
}

Engine::Engine(const EngineProfile& profile, const TableDef& table, PageEventSink* sink)
    : profile_(profile),
      table_(table),
      big_rec_(ConvertBigRec(table, profile.page_size)),
      space_(profile.page_size, profile.allocation, profile.segment_reserve_pct) {
  instances_.resize(1);
  instances_[0].sink = sink;
  sink_ = sink;
  Build();
}

void Engine::Init(absl::Span<const EngineOptions> instances) {
  if (instances.empty()) {
    options_status_ = absl::InvalidArgumentError("an Engine needs at least one instance's options");
    instances_.resize(1);
  } else {
    instances_.resize(instances.size());
  }
  // Bad options are reported, not run: the load goes on with the defaults.
  const EngineOptions defaults;
  for (size_t i = 0; i < instances.size(); ++i) {
    const EngineOptions& options = instances[i];
    Instance& in = instances_[i];
    if (options.flush) {
      in.flush = std::make_unique<FlushModel>(*options.flush, options.count_page_writes);
    } else if (instances.size() > 1) {
      // Refused below; the load goes on with the server's defaults, as for
      // any bad option, so that the fan-out has a pool to hand events to.
      in.flush = std::make_unique<FlushModel>(ServerSettings::Defaults(profile_.flavor()), options.count_page_writes);
    }
    absl::Status bad;
    if (options.trx_rows == 0) {
      bad = absl::InvalidArgumentError("EngineOptions::trx_rows must be at least 1");
    } else if (in.flush != nullptr && !(options.rows_per_sec >= FlushModel::kMinRowsPerSec &&
                                         std::isfinite(options.rows_per_sec))) {
      bad = absl::InvalidArgumentError(
          absl::StrCat("EngineOptions::rows_per_sec must be at least ", FlushModel::kMinRowsPerSec,
                       " and finite with the flush model (got ", options.rows_per_sec, ")"));
    } else if (instances.size() > 1 && !options.flush) {
      bad = absl::InvalidArgumentError("each of several instances needs its flush settings (EngineOptions::flush)");
    }
    if (!bad.ok() && options_status_.ok()) options_status_ = bad;
    const EngineOptions& o = bad.ok() ? options : defaults;
    in.rows_per_trx = in.trx_left = o.trx_rows;
    in.end_wait_s = std::max(0.0, options.end_wait_s);
    if (in.flush != nullptr) in.seconds_per_row = 1.0 / o.rows_per_sec;
    in.sink = in.flush.get();
  }
  if (!instances.empty()) fill_factor_ = instances[0].fill_factor;
  if (instances_.size() == 1) {
    sink_ = instances_[0].sink;
  } else {
    for (Instance& in : instances_) fan_out_.Add(in.sink);
    sink_ = &fan_out_;
  }
  Build();
  // The statistics recalculation runs on the load's clock: with the flush
  // model only (a caller's own sink has no clock).
  for (size_t i = 0; i < instances.size(); ++i) {
    Instance& in = instances_[i];
    if (in.flush != nullptr) in.stats = std::make_unique<DictStats>(in.flush->settings(), table_, in.undo->n_rsegs());
  }
}

void Engine::Build() {
  if (options_status_.ok() && !big_rec_.fits) {
    options_status_ = absl::InvalidArgumentError(absl::StrCat(
        "a row of table ", table_.name, " is ", big_rec_.rec_size,
        " bytes with every column that may go off-page stored off-page, still over half a page "
        "(DB_TOO_BIG_RECORD, dtuple_convert_big_rec)"));
  }
  const FilePerTableLayout layout =
      CreateFilePerTableLayout(space_, static_cast<uint32_t>(1 + table_.secondary.size()));
  // table_space_ is this table's tablespace; indexes share it and the page
  // numbering.
  primary_ = std::make_unique<BTree>(profile_, &space_, &store_, layout.indexes[0],
                                     ClusteredRecordSizes(table_, big_rec_.columns), true, table_space_, sink_);
  for (size_t i = 0; i < table_.secondary.size(); ++i) {
    secondary_.push_back(std::make_unique<BTree>(profile_, &space_, &store_, layout.indexes[i + 1],
                                                 SecondaryRecordSizes(table_, table_.secondary[i]),
                                                 false, table_space_, sink_));
  }
  if (sink_ != nullptr) {
    const ServerFlavor flavor = profile_.flavor();
    // dict_index_get_n_fields: a clustered index has every column plus
    // DB_TRX_ID and DB_ROLL_PTR; a secondary one its key and the PK.
    // Kept by a rebuild (the table is the same, and UndoLogs holds it).
    if (primary_redo_ == nullptr) {
      primary_redo_ = std::make_unique<RedoFormat>(flavor, kTableSpaceId,
                                                   static_cast<uint32_t>(table_.columns.size() + 2),
                                                   profile_.page_size);
    }
    primary_->SetRedo(primary_redo_.get(), 1);
    secondary_redo_.clear();
    for (size_t i = 0; i < secondary_.size(); ++i) {
      const uint32_t n = static_cast<uint32_t>(table_.secondary[i].columns.size() + table_.primary.columns.size());
      secondary_redo_.push_back(std::make_unique<RedoFormat>(flavor, kTableSpaceId, n, profile_.page_size));
      secondary_[i]->SetRedo(secondary_redo_.back().get(), 2 + i);
    }
    // The columns of the secondary indexes that are not key columns: what a
    // delete mark's undo record carries besides the key.
    std::vector<uint32_t> ordering;
    std::vector<bool> seen(table_.columns.size(), false);
    for (uint32_t c : table_.primary.columns) seen[c] = true;
    for (const IndexDef& ix : table_.secondary) {
      for (uint32_t c : ix.columns) {
        if (!seen[c]) ordering.push_back(table_.columns[c].stored_bytes);
        seen[c] = true;
      }
    }
    // The undo logs are each server's: made once, kept by a rebuild.
    for (Instance& in : instances_) {
      const bool first = in.undo == nullptr;
      if (first) {
        in.undo = std::make_unique<UndoLogs>(flavor, profile_.page_size, primary_redo_.get(),
                                             primary_->record_sizes().key_bytes);
        // MariaDB's purge comes once a simulated second (EndRowLogged): only
        // with the flush model's clock can a log wait for it.
        in.undo->set_deferred_purge(in.flush != nullptr);
        // The undo side's reads and writes by page type, as the server's
        // buffer_page_* counters tell them apart: the rollback segment
        // headers, the temporary tablespace's too (UndoLogs::Startup), are
        // FIL_PAGE_TYPE_SYS pages, the undo segments' pages
        // FIL_PAGE_UNDO_LOG.
        if (in.flush != nullptr) {
          in.flush->CountPagesAs(BufferPool::PageType::kSystemPage, kUndoPageEventSpace, UndoLogs::kRsegFirstPage,
                                 UndoLogs::kRsegFirstPage + in.undo->n_rsegs());
          in.flush->CountPagesAs(BufferPool::PageType::kSystemPage, UndoLogs::kTempSpaceKey, UndoLogs::kRsegFirstPage,
                                 UndoLogs::kRsegFirstPage + UndoLogs::kMariaDbRsegs);
          in.flush->CountPagesAs(BufferPool::PageType::kUndoLog, kUndoPageEventSpace, UndoLogs::kSegmentFirstPage,
                                 UINT32_MAX);
        }
      }
      in.undo->set_delete_mark_record_bytes(
          UndoLogs::DeleteMarkRecordBytes(primary_->record_sizes().key_bytes, ordering));
      // Resident before the load, never read by it: the undo side's pages
      // since the server's start.
      if (first) in.undo->Startup(in.sink);
    }
    // The table's FSP header / first XDES page and inode page, resident
    // since fsp_header_init at CREATE TABLE.
    sink_->OnPageCreate(table_space_, 0);
    sink_->OnMtrCommit(0);
    sink_->OnPageCreate(table_space_, Tablespace::kFirstInodePage);
    sink_->OnMtrCommit(0);
    // Each index's root page, created by btr_create at CREATE TABLE
    // (buf_page_create: resident, never read by the load).
    for (const IndexSegments& ix : layout.indexes) {
      sink_->OnPageCreate(table_space_, ix.root_page);
      sink_->OnMtrCommit(0);
    }
  }
}

absl::Status Engine::Rebuild(uint32_t fill_factor) {
  // The rows and entries in key order: what row_merge_read_clustered_index
  // reads and row_merge_sort sorts.
  std::vector<Key, HugeAllocator<Key>> primary_keys;
  primary_keys.reserve(rows_);
  primary_->ForEachKey([&](const Key& k) { primary_keys.push_back(k); });
  const IndexCounters primary_before = primary_->counters();
  std::vector<IndexCounters> secondary_before;
  std::vector<std::vector<Key, HugeAllocator<Key>>> secondary_keys(secondary_.size());
  for (size_t i = 0; i < secondary_.size(); ++i) {
    secondary_before.push_back(secondary_[i]->counters());
    secondary_keys[i].reserve(rows_);  // an entry per row
    secondary_[i]->ForEachKey([&](const Key& k) { secondary_keys[i].push_back(k); });
  }
  const FastPath::Devices devices = primary_->fast_path().devices();
  // The old table goes (its pages with it); the new one starts from
  // fil_ibd_create and btr_create, as CREATE TABLE does, in a tablespace
  // of its own.
  secondary_.clear();
  primary_.reset();
  // PageStore is neither copyable nor movable (it may own a mapping): a
  // new one in place, after every tree that pointed into it is gone.
  store_.~PageStore();
  new (&store_) PageStore();
  space_ = Tablespace(profile_.page_size, profile_.allocation, profile_.segment_reserve_pct);
  const uint32_t old_space = table_space_;
  ++table_space_;
  Build();
  set_fast_path(devices);
  if (absl::Status s = primary_->BulkLoad(primary_keys, fill_factor); !s.ok()) return s;
  // The rows' off-page columns copied to new pages of the new table
  // (row_merge_insert_index_tuples stores them as it builds). The model
  // stores them after the build, row by row in key order: the same pages,
  // allocated after the leaves rather than among them.
  if (!big_rec_.columns.empty()) {
    for (const Key& k : primary_keys) {
      if (absl::Status s = primary_->StoreExtern(k, big_rec_.extern_bytes); !s.ok()) return s;
    }
  }
  primary_->AddCounters(primary_before);
  // The rows read and built take a row's time each, as inserted rows do;
  // the page cleaner's seconds pass after the clustered index's build.
  AdvanceClock(primary_keys.size());
  primary_keys = {};
  for (size_t i = 0; i < secondary_.size(); ++i) {
    // After the clustered index, each secondary index in turn from its
    // sorted merge file (row_merge_build_indexes' loop over the indexes).
    if (absl::Status s = secondary_[i]->BulkLoad(secondary_keys[i], fill_factor); !s.ok()) return s;
    secondary_[i]->AddCounters(secondary_before[i]);
    secondary_keys[i] = {};
  }
  if (sink_ != nullptr) {
    if (profile_.flavor() == ServerFlavor::kMySql84) {
      // MySQL: the build logged no redo; ddl::Context::cleanup's
      // Flush_observer::flush writes the pages it built.
      std::vector<uint32_t> built = primary_->bulk_built_pages();
      for (const auto& t : secondary_) {
        built.insert(built.end(), t->bulk_built_pages().begin(), t->bulk_built_pages().end());
      }
      sink_->OnPagesFlush(table_space_, built);
    }
    // The old table dropped: its dirty pages are never written.
    sink_->OnSpaceDrop(old_space);
  }
  return status();
}

absl::Status Engine::DeleteRow(const Key& pk, absl::Span<const Key> secondary_entries) {
  if (!big_rec_.columns.empty()) {
    // Purge would free the row's off-page pages (btr_free_externally_
    // stored_field), which the model does not follow.
    return absl::UnimplementedError(
        "DELETE of rows with off-page columns is not modelled (purge would free their BLOB pages): drop the "
        "delete phase or shorten --payload-bytes");
  }
  if (secondary_entries.size() != secondary_.size()) {
    return absl::FailedPreconditionError(absl::StrCat("a delete needs the row's entry of each of the ",
                                                      secondary_.size(), " secondary indexes"));
  }
  // row_upd_del_mark_clust_rec: the clustered record first; a row that is
  // not there costs nothing more.
  if (absl::Status s = primary_->DeleteMark(pk); !s.ok()) return s;
  // Its undo record (trx_undo_report_row_operation, an mtr of its own).
  if (sink_ != nullptr) {
    for (Instance& in : instances_) in.undo->ReportDeleteMark(in.sink);
  }
  // row_upd_sec_index_entry for each secondary index, in order. An entry
  // the index does not hold (a tie the compact encoding of an entry past
  // 32 bytes could not break) is skipped, here and at purge.
  for (size_t i = 0; i < secondary_.size(); ++i) {
    absl::Status s = secondary_[i]->DeleteMark(secondary_entries[i]);
    if (!s.ok() && !absl::IsNotFound(s)) return s;
  }
  purge_rows_.push_back(pk);
  purge_entries_.insert(purge_entries_.end(), secondary_entries.begin(), secondary_entries.end());
  --rows_;
  AdvanceClock();
  return status();
}

absl::Status Engine::EndDeletes() {
  // The DELETE commits: its undo log goes to the history list, after the
  // insert logs still in it, which purge takes first (trx_no order).
  for (Instance& in : instances_) {
    CommitTrx(in);
    PurgeHistory(in);
  }
  // Purge, in the undo log's order (row_purge_del_mark): each row's
  // secondary entries (row_purge_remove_sec_if_poss), then its clustered
  // record (row_purge_remove_clust_if_poss), the undo record read first.
  const size_t n = secondary_.size();
  for (size_t r = 0; r < purge_rows_.size(); ++r) {
    if (sink_ != nullptr) {
      for (Instance& in : instances_) in.undo->ReadForPurge(in.sink, r);
    }
    for (size_t i = 0; i < n; ++i) {
      absl::Status s = secondary_[i]->Purge(purge_entries_[r * n + i]);
      if (!s.ok() && !absl::IsNotFound(s)) return s;
    }
    if (absl::Status s = primary_->Purge(purge_rows_[r]); !s.ok()) return s;
    AdvanceClock();
  }
  // trx_purge_truncate_history: the purged undo logs' segments freed.
  if (sink_ != nullptr) {
    for (Instance& in : instances_) in.undo->EndPurge(in.sink);
  }
  purge_rows_.clear();
  purge_entries_.clear();
  primary_->ResetFastPath();
  for (auto& t : secondary_) t->ResetFastPath();
  return status();
}

void Engine::AdvanceClock(uint64_t rows) {
  for (Instance& in : instances_) {
    if (in.flush == nullptr) continue;
    in.rows_ended += rows;
    in.flush->Tick(static_cast<double>(in.rows_ended) * in.seconds_per_row);
  }
}

void Engine::LogUndoInsert() {
  // The insert undo record goes first, in its own mtr (UndoLogs).
  for (Instance& in : instances_) in.undo->ReportInsert(in.sink);
}

void Engine::set_fast_path(const FastPath::Devices& d) {
  primary_->set_fast_path(d);
  for (auto& t : secondary_) t->set_fast_path(d);
}

absl::Status Engine::EndRowLogged() {
  bool committed = false;
  for (Instance& in : instances_) committed |= EndRowOf(in);
  return committed ? status() : absl::OkStatus();
}

bool Engine::EndRowOf(Instance& in) {
  ++in.rows_ended;
  bool committed = false;
  // A countdown, not rows % trx_rows: no division per row.
  if (--in.trx_left == 0) {
    CommitTrx(in);
    in.trx_left = in.rows_per_trx;
    committed = true;
  }
  // The row ends at rows_ended / rows_per_sec seconds: the multiplication
  // by the reciprocal that the runner has always used, so that clocks (and
  // figures) are bit-for-bit those of earlier versions.
  if (in.flush != nullptr) {
    const double now_s = static_cast<double>(in.rows_ended) * in.seconds_per_row;
    in.flush->Tick(now_s);
    // srv_master_callback's once-a-second wake of purge (MariaDB 10.11,
    // purge_sys.wake_if_not_active while trx_sys.history_exists()), which
    // purges the whole history (UndoLogs::Purge; docs/flushing.md "Purge's
    // lag"). Its timer and the page cleaner's one-second wait run apart
    // (buf_flush_page_cleaner sets its deadline a second after each pass,
    // and a user thread's wake-up starts a pass early), so purge's phase
    // against the cleaner's passes, which the model runs at whole seconds,
    // is arbitrary: the model takes the mean, half a second after them.
    // MySQL 8.4 keeps insert undo logs out of the history
    // (trx_undo_insert_cleanup) and its purge stops at rseg_history_len ==
    // 0 (srv_do_purge): no purge on an insert-only load.
    if (in.undo->history_exists() &&
        std::floor(now_s - kPurgePhaseS) >
            std::floor(static_cast<double>(in.rows_ended - 1) * in.seconds_per_row - kPurgePhaseS)) {
      in.undo->Purge(in.sink);
    }
    // row_insert_for_mysql's dict_stats_update_if_needed, per inserted row
    // (a refused row counts nothing), and the recalculation it leads to.
    if (rows_ != in.stats_rows_seen) {
      in.stats_rows_seen = rows_;
      const DictStats::Due due = in.stats->OnRowInserted(now_s);
      if (due != DictStats::Due::kNone) RecalculateStats(in, due, now_s);
    }
  }
  return committed;
}

void Engine::RecalculateStats(Instance& in, DictStats::Due due, double now_s) {
  // dict_index_get_n_unique: the clustered index's key columns; a unique
  // secondary index's own columns, a non-unique one's with the primary key
  // columns it does not already hold.
  std::vector<const BTree*> trees{primary_.get()};
  std::vector<uint32_t> n_uniq{static_cast<uint32_t>(table_.primary.columns.size())};
  for (size_t i = 0; i < secondary_.size(); ++i) {
    const IndexDef& ix = table_.secondary[i];
    uint32_t n = static_cast<uint32_t>(ix.columns.size());
    if (!ix.unique) {
      for (uint32_t c : table_.primary.columns) {
        if (std::find(ix.columns.begin(), ix.columns.end(), c) == ix.columns.end()) ++n;
      }
    }
    trees.push_back(secondary_[i].get());
    n_uniq.push_back(n);
  }
  in.stats->Recalculate(due, trees, n_uniq, store_, rows_, now_s, table_space_, in.sink);
}

absl::Status Engine::EndLoad() {
  for (Instance& in : instances_) {
    // The seed's procedure: commit, then wait until no page is dirty. The
    // server's purge, woken within the second, frees the last logs before
    // that wait is over (MariaDB; a private 10.11.19 emptied its history
    // 0.5 s after a load's last commit, before the final flush's writes).
    CommitTrx(in);
    PurgeHistory(in);
    // dict_stats_process_entry_from_recalc_pool's timer still fires during
    // the wait: a recalculation due before it is over reads and writes then.
    if (in.stats != nullptr && in.end_wait_s > 0) {
      const double now_s = static_cast<double>(in.rows_ended) * in.seconds_per_row;
      const DictStats::Due due = in.stats->DueBy(now_s + in.end_wait_s);
      if (due != DictStats::Due::kNone) RecalculateStats(in, due, std::max(now_s, in.stats->due_s()));
    }
    if (in.flush != nullptr) in.flush->FlushAll();
  }
  return status();
}

absl::Status Engine::Checkpoint() {
  for (Instance& in : instances_) {
    CommitTrx(in);
    PurgeHistory(in);
    if (in.flush != nullptr) in.flush->FlushAll();
  }
  return status();
}

void Engine::PurgeHistory(Instance& in) {
  if (in.sink != nullptr && in.undo->history_exists()) in.undo->Purge(in.sink);
}

absl::Status Engine::status() const {
  if (!options_status_.ok()) return options_status_;
  if (!space_.status().ok()) return space_.status();
  return sink_ != nullptr ? sink_->status() : absl::OkStatus();
}

absl::Status Engine::instance_status(size_t i) const {
  if (!options_status_.ok()) return options_status_;
  if (!space_.status().ok()) return space_.status();
  return instances_[i].sink != nullptr ? instances_[i].sink->status() : absl::OkStatus();
}

void Engine::CommitTrx() {
  for (Instance& in : instances_) CommitTrx(in);
}

void Engine::CommitTrx(Instance& in) {
  if (in.sink != nullptr) in.undo->Commit(in.sink);
}

absl::Status Engine::InsertSecondary(size_t index, const Key& entry) {
  // An index of keys up to 16 bytes keeps no tails (model/key.h): a longer
  // entry would be cut, so it is refused instead.
  if (!secondary_[index]->wide_keys() && entry.tail() != KeyHalf{}) {
    return absl::InvalidArgumentError(absl::StrCat("entry of ", table_.secondary[index].name,
                                                   " longer than the index's ", Key::kHeadBytes, "-byte keys"));
  }
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
  r.extern_pages = primary_->extern_pages();
  r.model_bytes = store_.pool().reserved_bytes() + store_.capacity() * sizeof(IndexPage);
  return r;
}

std::string Engine::Verify() const {
  if (std::string e = primary_->Verify(); !e.empty()) return "PRIMARY: " + e;
  for (size_t i = 0; i < secondary_.size(); ++i) {
    if (std::string e = secondary_[i]->Verify(); !e.empty()) return table_.secondary[i].name + ": " + e;
  }
  if (sink_ != nullptr) return sink_->Verify();
  return "";
}

}  // namespace innosim
