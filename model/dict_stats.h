// DictStats: InnoDB's automatic recalculation of a table's statistics, the
// trigger and the clock (dict0stats_bg.cc, row0mysql.cc) and the pages a
// recalculation fixes and dirties (dict0stats.cc). Both servers.
//
//   DictStats stats(settings, n_rsegs);
//   // per inserted row, with the simulated clock:
//   const DictStats::Due due = stats.OnRowInserted(now_s);
//   if (due != DictStats::Due::kNone) {
//     stats.Recalculate(due, trees, n_uniq, store, rows, now_s, table_space, sink);
//   }
//
// The trigger (dict_stats_update_if_needed, called by row_insert_for_mysql
// after dict_table_n_rows_inc): stat_modified_counter counts the rows; with
// persistent statistics (innodb_stats_persistent) and innodb_stats_auto_recalc
// the table joins the recalc pool when the count passes stat_n_rows / 10 and
// the count restarts; the background task recalculates at once if the last
// recalculation is MIN_RECALC_INTERVAL (10 s) old, else 10 s later. With
// transient statistics (innodb_stats_persistent OFF) the inserting thread
// recalculates itself when the count passes 16 + stat_n_rows / 16.
//
// Pure computation; nothing allocated per row (Recalculate allocates).
#ifndef INNOSIM_MODEL_DICT_STATS_H_
#define INNOSIM_MODEL_DICT_STATS_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "model/btree.h"
#include "model/fast/page_store.h"
#include "model/page_events.h"
#include "model/record_format.h"
#include "model/server_settings.h"

namespace innosim {

class DictStats {
 public:
  // MIN_RECALC_INTERVAL (dict0stats_bg.cc, both servers): 10 seconds.
  static constexpr double kMinRecalcInterval = 10;
  // innodb_stats_transient_sample_pages: 8 ([Doc], both servers), the leaf
  // pages btr_estimate_number_of_different_key_vals samples per index.
  static constexpr uint64_t kTransientSamplePages = 8;
  // The key of the statistics tables' page events (mysql.innodb_table_stats
  // and mysql.innodb_index_stats: MariaDB's own .ibd files, MySQL's
  // mysql.ibd) and of the statistics transactions' undo pages: a key of the
  // simulator, colliding with no table's or the undo space's.
  static constexpr uint32_t kStatsPageEventSpace = 0xFFFFFFEEu;
  static constexpr uint32_t kTableStatsPage = 3;  // innodb_table_stats' root (leaf)
  static constexpr uint32_t kIndexStatsPage = 4;  // innodb_index_stats' root (leaf)
  static constexpr uint32_t kUndoFirstPage = 16;  // the model's numbering

  enum class Due : uint8_t { kNone, kPersistent, kTransient };

  struct Counters {
    uint64_t recalcs_persistent = 0;  // dict_stats_update(DICT_STATS_RECALC_PERSISTENT)
    uint64_t recalcs_transient = 0;   // dict_stats_update(DICT_STATS_RECALC_TRANSIENT)
    uint64_t pool_adds = 0;           // dict_stats_recalc_pool_add that queued the table
    uint64_t dives = 0;               // leaf pages fixed by the sampling
    // The last persistent recalculation: the rows it saw (the n_rows
    // dict_stats_save writes to mysql.innodb_table_stats; the model's is
    // exact, the server's an estimate from the sample) and when, in
    // simulated seconds from the load's start. Unset before the first.
    uint64_t last_saved_n_rows = 0;
    double last_saved_s = -1;
  };

  // The settings' innodb_stats_persistent, innodb_stats_auto_recalc and
  // innodb_stats_persistent_sample_pages, each overridden by the table's
  // STATS_PERSISTENT, STATS_AUTO_RECALC and STATS_SAMPLE_PAGES when given;
  // `n_rsegs`: the rollback segments the statistics transactions go round
  // (UndoLogs::n_rsegs).
  DictStats(const ServerSettings& settings, const TableDef& table, uint32_t n_rsegs);

  // One row inserted at `now_s` seconds: dict_table_n_rows_inc, then
  // dict_stats_update_if_needed, then the background task's timer. Returns
  // what must be recalculated now (Recalculate).
  Due OnRowInserted(double now_s) {
    if (mode_ == Mode::kOff) return Due::kNone;
    const uint64_t counter = modified_counter_++;
    ++stat_n_rows_;
    if (mode_ == Mode::kTransient) {
      return counter > 16 + stat_n_rows_ / 16 ? Due::kTransient : Due::kNone;
    }
    if (counter > stat_n_rows_ / 10) {
      modified_counter_ = 0;
      if (!in_pool_) return PoolAdd(now_s);
    }
    return in_pool_ && now_s >= due_s_ ? Due::kPersistent : Due::kNone;
  }

  // dict_stats_update of kind `due` at `now_s`: every index analysed
  // (`trees`, the clustered index first, `n_uniq` of each), their pages
  // fixed through `sink` under `table_space`; persistent: dict_stats_save's
  // transaction on the statistics tables. stat_n_rows becomes `rows`.
  void Recalculate(Due due, const std::vector<const BTree*>& trees, const std::vector<uint32_t>& n_uniq,
                   const PageStore& store, uint64_t rows, double now_s, uint32_t table_space,
                   PageEventSink* sink);

  // What the background task would recalculate by `t_s` with no more rows
  // inserted (the table waiting in the recalc pool until due_s()).
  Due DueBy(double t_s) const { return in_pool_ && t_s >= due_s_ ? Due::kPersistent : Due::kNone; }
  double due_s() const { return due_s_; }

  const Counters& counters() const { return counters_; }

 private:
  enum class Mode : uint8_t { kOff, kPersistent, kTransient };
  Due PoolAdd(double now_s);
  // dict_stats_analyze_index for one tree.
  void AnalyzeIndex(const BTree& t, uint32_t n_uniq, const PageStore& store, uint32_t space, PageEventSink* sink);
  // btr_estimate_number_of_different_key_vals for one tree.
  void EstimateTransient(const BTree& t, const PageStore& store, uint32_t space, PageEventSink* sink);
  // From `page_no` down to a leaf along the first record's child
  // (dict_stats_analyze_index_below_cur), each page fixed.
  void DiveBelow(uint32_t page_no, const PageStore& store, uint32_t space, PageEventSink* sink);
  // dict_stats_save: the rows of the statistics tables rewritten.
  void Save(const std::vector<uint32_t>& n_uniq, PageEventSink* sink);
  // ut_rnd_interval: a uniform number in [0, n].
  uint64_t RandomInterval(uint64_t n);

  Mode mode_ = Mode::kOff;
  uint64_t sample_pages_ = 20;
  uint32_t n_rsegs_ = 128;
  uint64_t modified_counter_ = 0;  // stat_modified_counter
  uint64_t stat_n_rows_ = 0;       // stat_n_rows (0 at CREATE TABLE)
  bool in_pool_ = false;           // in the recalc pool, waiting for its time
  double due_s_ = 0;               // when the background task looks again
  double last_recalc_s_ = -std::numeric_limits<double>::infinity();  // stats_last_recalc
  uint64_t rnd_ = 0;
  bool pages_created_ = false;
  Counters counters_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_DICT_STATS_H_
