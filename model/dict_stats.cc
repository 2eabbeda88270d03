#include "model/dict_stats.h"

#include <algorithm>
#include <cmath>

#include "model/tablespace.h"
#include "model/undo_log.h"

namespace innosim {

namespace {

// The key of the undo space's page events (Engine::kUndoPageEventSpace,
// repeated here so that the model's files do not depend on the engine's).
constexpr uint32_t kUndoSpace = 0xFFFFFFEFu;

// Redo bytes of one row operation of dict_stats_save's transaction (the
// undo record's mtr and the statistics page's mtr together). An estimate,
// not a server constant: an innodb_index_stats row is about 100-150 bytes
// (database, table, index and stat names, stat_value, sample_size,
// last_update, stat_description, DB_TRX_ID, DB_ROLL_PTR), logged once in
// the undo record and once on the page. A recalculation of seed 004's table
// writes 11 rows twice, a few KB: nothing next to a load's redo.
constexpr uint64_t kStatsRowRedoBytes = 300;

// ut_rnd_gen's role (ut0rnd.h): the server draws the dive positions from a
// pseudo-random generator whose state the model cannot know; the model
// uses its own, seeded the same in every run (splitmix64), so that a run's
// figures are reproducible.
constexpr uint64_t kRndSeed = 0x9E3779B97F4A7C15ull;

}  // namespace

DictStats::DictStats(const ServerSettings& settings, const TableDef& table, uint32_t n_rsegs)
    : sample_pages_(std::max<uint64_t>(
          1, table.stats_sample_pages != 0 ? table.stats_sample_pages : settings.innodb_stats_persistent_sample_pages)),
      n_rsegs_(std::max<uint32_t>(1, n_rsegs)),
      rnd_(kRndSeed) {
  // dict_stats_is_persistent_enabled / dict_stats_auto_recalc_is_enabled:
  // the table's STATS_PERSISTENT / STATS_AUTO_RECALC when set, else the
  // server variable. Persistent without auto_recalc: the count runs,
  // nothing is recalculated until ANALYZE TABLE. (dict_stats_sample_pages:
  // the table's STATS_SAMPLE_PAGES when not 0.)
  const bool persistent = table.stats_persistent.value_or(settings.innodb_stats_persistent);
  const bool auto_recalc = table.stats_auto_recalc.value_or(settings.innodb_stats_auto_recalc);
  if (persistent) {
    mode_ = auto_recalc ? Mode::kPersistent : Mode::kOff;
  } else {
    mode_ = Mode::kTransient;
  }
}

DictStats::Due DictStats::PoolAdd(double now_s) {
  // dict_stats_recalc_pool_add queues the table and schedules the task now
  // (dict_stats_schedule_now; MySQL: os_event_set(dict_stats_event)); the
  // task (dict_stats_process_entry_from_recalc_pool) recalculates if
  // difftime(time(), stats_last_recalc) >= MIN_RECALC_INTERVAL, time() in
  // whole seconds; else it puts the table back and looks again 10 s later
  // (MariaDB dict_stats_schedule(MIN_RECALC_INTERVAL * 1000); MySQL's
  // dict_stats_thread wakes every MIN_RECALC_INTERVAL, and a table already
  // queued sets no event). While it waits, further triggers only restart
  // the count.
  ++counters_.pool_adds;
  in_pool_ = true;
  if (std::floor(now_s) - std::floor(last_recalc_s_) >= kMinRecalcInterval) {
    due_s_ = now_s;
    return Due::kPersistent;
  }
  due_s_ = now_s + kMinRecalcInterval;
  return Due::kNone;
}

uint64_t DictStats::RandomInterval(uint64_t n) {
  rnd_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = rnd_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return n == 0 ? 0 : z % (n + 1);
}

void DictStats::DiveBelow(uint32_t page_no, const PageStore& store, uint32_t space, PageEventSink* sink) {
  // dict_stats_analyze_index_below_cur, in an mtr of its own: each page
  // fixed on the way down; on a non-leaf page the first record that differs
  // from its right neighbour (dict_stats_scan_page,
  // QUIT_ON_FIRST_NON_BORING) leads on, and a page whose records are all
  // equal stops the dive. The model takes every record as distinct (its keys
  // carry no column boundaries): the first record leads on, and only a
  // one-record page stops.
  for (;;) {
    sink->OnPageAccess(space, page_no);
    const IndexPage& p = store.page(page_no);
    if (p.is_leaf()) {
      ++counters_.dives;
      break;
    }
    if (p.n_recs() < 2) break;
    page_no = p.child(0);
  }
  sink->OnMtrCommit(0);
}

void DictStats::AnalyzeIndex(const BTree& t, uint32_t n_uniq, const PageStore& store, uint32_t space,
                             PageEventSink* sink) {
  const uint64_t n_sample = sample_pages_;  // N_SAMPLE_PAGES(index)
  const uint64_t n_diff_required = n_sample * 10;  // N_DIFF_REQUIRED(index)
  // btr_get_size(BTR_N_LEAF_PAGES) and (BTR_TOTAL_SIZE): the root page's
  // segment headers and the segment inodes they point to.
  const uint32_t root = t.root();
  sink->OnPageAccess(space, root);
  sink->OnPageFixOnly(space, Tablespace::kFirstInodePage);  // fseg_inode_get: fsp0fsp.cc, not made young
  sink->OnMtrCommit(0);
  const uint32_t root_level = store.page(root).level();

  // One level: its pages from the left (btr_pcur_open_at_index_side, the
  // left edge fixed on the way down), with the records before each.
  std::vector<uint32_t> pages;
  std::vector<uint64_t> recs_before;
  auto scan_level = [&](uint32_t level) -> uint64_t {
    pages.clear();
    recs_before.clear();
    uint32_t pn = root;
    while (store.page(pn).level() > level) {
      sink->OnPageAccess(space, pn);
      pn = store.page(pn).child(0);
    }
    uint64_t total = 0;
    for (; pn != kFilNull; pn = store.page(pn).next()) {
      sink->OnPageAccess(space, pn);
      pages.push_back(pn);
      recs_before.push_back(total);
      total += static_cast<uint64_t>(store.page(pn).n_recs());
    }
    sink->OnMtrCommit(0);
    return total;
  };

  // A one-page tree, or a leaf level of fewer than N_SAMPLE_PAGES x n_uniq
  // pages: the whole leaf level scanned (dict_stats_analyze_index's small
  // index case), no dives.
  if (root_level == 0 || n_sample * n_uniq > t.n_leaf_pages()) {
    scan_level(0);
    return;
  }
  // The level search of dict_stats_analyze_index, per key prefix from the
  // longest: from the root down while a level has at most N_SAMPLE_PAGES
  // records above it (its page count) and fewer than N_DIFF_REQUIRED
  // distinct records; level 1 is the lowest scanned.
  uint32_t level = root_level;
  bool analyzed = false;
  uint64_t total_recs = 1;
  for (uint32_t n_prefix = n_uniq; n_prefix >= 1; --n_prefix) {
    if (!(analyzed && (total_recs >= n_diff_required || level == 1))) {
      if (analyzed && level > 1) {
        --level;
        analyzed = false;
      }
      for (;;) {
        if (total_recs > n_sample) {
          ++level;
          analyzed = true;
          // the upper level's pages again (the model scans it anew to have
          // its page list; the server kept its boundaries)
          total_recs = scan_level(level);
          break;
        }
        total_recs = scan_level(level);
        analyzed = true;
        if (level == 1 || total_recs >= n_diff_required) break;
        --level;
        analyzed = false;
      }
    }
    // dict_stats_analyze_index_for_n_prefix: min(N_SAMPLE_PAGES, n_diff)
    // records, one in each of as many equal segments of the level, at a
    // random place in it (ut_rnd_interval); the level walked from its left
    // to each, then a dive below each.
    const uint64_t n = total_recs;
    if (n == 0 || pages.empty()) continue;
    const uint64_t n_dives = std::min(n_sample, n);
    size_t page_ix = 0;
    for (uint64_t i = 0; i < n_dives; ++i) {
      const uint64_t left = n * i / n_dives;
      const uint64_t right = n * (i + 1) / n_dives - 1;
      const uint64_t idx = left + RandomInterval(right - left);
      while (page_ix + 1 < pages.size() && recs_before[page_ix + 1] <= idx) ++page_ix;
      const IndexPage& p = store.page(pages[page_ix]);
      sink->OnPageAccess(space, pages[page_ix]);
      sink->OnMtrCommit(0);
      const int slot = static_cast<int>(idx - recs_before[page_ix]);
      if (slot < p.n_recs()) DiveBelow(p.child(slot), store, space, sink);
    }
  }
}

void DictStats::EstimateTransient(const BTree& t, const PageStore& store, uint32_t space, PageEventSink* sink) {
  // dict_stats_update_transient_for_index: btr_get_size (the root and the
  // inode), then btr_estimate_number_of_different_key_vals: min(8,
  // stat_index_size) leaves reached by btr_cur_open_at_rnd_pos, a random
  // record taken on each page from the root down
  // (page_cur_open_on_rnd_user_rec).
  const uint32_t root = t.root();
  sink->OnPageAccess(space, root);
  sink->OnPageFixOnly(space, Tablespace::kFirstInodePage);  // fseg_inode_get: fsp0fsp.cc, not made young
  sink->OnMtrCommit(0);
  const uint64_t n = std::min<uint64_t>(kTransientSamplePages, std::max<uint64_t>(1, t.size()));
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t pn = root;
    for (;;) {
      sink->OnPageAccess(space, pn);
      const IndexPage& p = store.page(pn);
      if (p.is_leaf() || p.n_recs() == 0) break;
      pn = p.child(static_cast<int>(RandomInterval(static_cast<uint64_t>(p.n_recs() - 1))));
    }
    ++counters_.dives;
    sink->OnMtrCommit(0);
  }
}

void DictStats::Save(const std::vector<uint32_t>& n_uniq, PageEventSink* sink) {
  // dict_stats_save: one transaction (trx_create, its own rollback segment
  // from the round robin) that rewrites the table's row of
  // mysql.innodb_table_stats and, per index, n_uniq n_diff_pfx rows plus
  // n_leaf_pages and size in mysql.innodb_index_stats, each a DELETE then
  // an INSERT (TABLE_STATS_SAVE, INDEX_STATS_SAVE; the INSERT takes the
  // delete-marked record over, row_ins_clust_index_entry_by_modify). The
  // statistics tables are small: one page each, resident since the
  // server's start (created here, without a read, at the first save).
  const uint64_t k = counters_.recalcs_persistent;
  const uint32_t rseg = static_cast<uint32_t>(k % n_rsegs_);
  const uint32_t undo_page = kUndoFirstPage + rseg;
  if (!pages_created_) {
    sink->OnPageCreate(kStatsPageEventSpace, kTableStatsPage);
    sink->OnPageCreate(kStatsPageEventSpace, kIndexStatsPage);
    sink->OnMtrCommit(0);
    pages_created_ = true;
  }
  // The first statistics transaction in a rollback segment creates its
  // undo log segment (trx_undo_create: a page created, not read); later
  // ones reuse it from the segment's cache (trx_undo_reuse_cached).
  if (k < n_rsegs_) {
    sink->OnPageCreate(kStatsPageEventSpace, undo_page);
  } else {
    sink->OnPageAccess(kStatsPageEventSpace, undo_page);
  }
  sink->OnPageAccess(kUndoSpace, UndoLogs::kRsegFirstPage + rseg);
  sink->OnPageModify(kUndoSpace, UndoLogs::kRsegFirstPage + rseg);
  sink->OnPageModify(kStatsPageEventSpace, undo_page);
  sink->OnMtrCommit(kStatsRowRedoBytes);
  uint64_t rows = 1;
  for (uint32_t u : n_uniq) rows += u + 2;
  for (uint64_t r = 0; r < rows; ++r) {
    const uint32_t page = r == 0 ? kTableStatsPage : kIndexStatsPage;
    for (int op = 0; op < 2; ++op) {  // the DELETE's delete mark, the INSERT
      sink->OnPageAccess(kStatsPageEventSpace, undo_page);
      sink->OnPageModify(kStatsPageEventSpace, undo_page);
      sink->OnMtrCommit(kStatsRowRedoBytes / 2);
      sink->OnPageAccess(kStatsPageEventSpace, page);
      sink->OnPageModify(kStatsPageEventSpace, page);
      sink->OnMtrCommit(kStatsRowRedoBytes / 2);
    }
  }
  // The commit: the update undo log to the history list
  // (trx_purge_add_undo_to_history: the rollback segment header) and its
  // state (trx_undo_set_state_at_finish: the undo page).
  sink->OnPageAccess(kUndoSpace, UndoLogs::kRsegFirstPage + rseg);
  sink->OnPageModify(kUndoSpace, UndoLogs::kRsegFirstPage + rseg);
  sink->OnPageAccess(kStatsPageEventSpace, undo_page);
  sink->OnPageModify(kStatsPageEventSpace, undo_page);
  sink->OnMtrCommit(kStatsRowRedoBytes / 2);
}

void DictStats::Recalculate(Due due, const std::vector<const BTree*>& trees, const std::vector<uint32_t>& n_uniq,
                            const PageStore& store, uint64_t rows, double now_s, uint32_t table_space,
                            PageEventSink* sink) {
  if (due == Due::kNone) return;
  if (due == Due::kTransient) {
    for (const BTree* t : trees) EstimateTransient(*t, store, table_space, sink);
    ++counters_.recalcs_transient;
  } else {
    for (size_t i = 0; i < trees.size(); ++i) AnalyzeIndex(*trees[i], n_uniq[i], store, table_space, sink);
    Save(n_uniq, sink);
    ++counters_.recalcs_persistent;
    in_pool_ = false;
    last_recalc_s_ = now_s;
    counters_.last_saved_n_rows = rows;
    counters_.last_saved_s = now_s;
  }
  // dict_stats_update_persistent / _transient: stat_n_rows from the
  // clustered index's n_diff (the model: the table's rows), the count
  // restarted.
  stat_n_rows_ = rows;
  modified_counter_ = 0;
}

}  // namespace innosim
