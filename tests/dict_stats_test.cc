// DictStats' trigger and clock (model/dict_stats.h): the 10% rule of
// dict_stats_update_if_needed, MIN_RECALC_INTERVAL of
// dict_stats_process_entry_from_recalc_pool, the transient 16 + n/16 rule,
// and innodb_stats_auto_recalc=OFF recalculating nothing; and a
// recalculation's pages (dict_stats_save's transaction) through a sink.
#include "model/dict_stats.h"

#include <cstdint>
#include <set>
#include <utility>

#include "gtest/gtest.h"
#include "model/buffer_pool.h"
#include "model/engine.h"
#include "model/undo_log.h"
#include "sim/runner.h"

namespace innosim {
namespace {

// Records the pages fixed and modified.
class RecordingSink : public PageEventSink {
 public:
  void OnPageAccess(uint32_t s, uint32_t p) override { accessed.insert({s, p}); }
  void OnPageCreate(uint32_t s, uint32_t p) override { created.insert({s, p}); }
  void OnPageModify(uint32_t s, uint32_t p) override { modified.insert({s, p}); }
  void OnMtrCommit(uint64_t bytes) override { redo += bytes; }
  std::set<std::pair<uint32_t, uint32_t>> accessed, created, modified;
  uint64_t redo = 0;
};

ServerSettings Settings(bool persistent, bool auto_recalc) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  EXPECT_TRUE(s.Set("innodb_stats_persistent", persistent ? "ON" : "OFF").ok());
  EXPECT_TRUE(s.Set("innodb_stats_auto_recalc", auto_recalc ? "ON" : "OFF").ok());
  return s;
}

// A persistent recalculation with no index: dict_stats_save alone.
void Recalc(DictStats& d, uint64_t rows, double now_s, RecordingSink* sink) {
  PageStore store;
  d.Recalculate(DictStats::Due::kPersistent, {}, {}, store, rows, now_s, 0, sink);
}

TEST(DictStatsTest, AutoRecalcOffNeverRecalculates) {
  DictStats d(Settings(true, false), TableDef{}, 128);
  for (uint64_t i = 0; i < 1'000'000; ++i) {
    ASSERT_EQ(d.OnRowInserted(static_cast<double>(i) / 10'000), DictStats::Due::kNone) << "row " << i;
  }
}

TEST(DictStatsTest, FirstRowsOfAnEmptyTableTriggerAtOnce) {
  // stat_n_rows is 0 at CREATE TABLE: row 1 counts 0 > 1/10 = 0, no; row 2
  // counts 1 > 0, the table joins the pool, and with no recalculation
  // before, the task recalculates at once.
  DictStats d(Settings(true, true), TableDef{}, 128);
  EXPECT_EQ(d.OnRowInserted(0.0), DictStats::Due::kNone);
  EXPECT_EQ(d.OnRowInserted(0.0), DictStats::Due::kPersistent);
}

TEST(DictStatsTest, TenPercentOfTheRowsChangedTriggers) {
  DictStats d(Settings(true, true), TableDef{}, 128);
  RecordingSink sink;
  Recalc(d, 1000, 0.0, &sink);
  // After it, stat_n_rows = 1000 and the count 0; row k counts k - 1
  // against (1000 + k) / 10: row 112 counts 111 > 111, no; row 113 counts
  // 112 > 111, yes (20 s later: the interval has passed).
  for (int k = 1; k <= 112; ++k) ASSERT_EQ(d.OnRowInserted(20.0), DictStats::Due::kNone) << "row " << k;
  EXPECT_EQ(d.OnRowInserted(20.0), DictStats::Due::kPersistent);
  EXPECT_EQ(d.counters().pool_adds, 1u);
}

TEST(DictStatsTest, AtMostOnceEveryTenSeconds) {
  DictStats d(Settings(true, true), TableDef{}, 128);
  RecordingSink sink;
  Recalc(d, 1000, 100.0, &sink);
  // The trigger 5 s after the last recalculation: the task puts the table
  // back and looks again 10 s later (105 + 10).
  for (int k = 1; k <= 113; ++k) ASSERT_EQ(d.OnRowInserted(105.0), DictStats::Due::kNone) << "row " << k;
  EXPECT_EQ(d.counters().pool_adds, 1u);
  // Rows in between only restart the count; nothing is due before 115 s.
  for (int k = 0; k < 5000; ++k) ASSERT_EQ(d.OnRowInserted(105.0 + k * 0.001), DictStats::Due::kNone);
  EXPECT_EQ(d.counters().pool_adds, 1u) << "a table already queued is not queued again";
  EXPECT_EQ(d.OnRowInserted(114.999), DictStats::Due::kNone);
  EXPECT_EQ(d.OnRowInserted(115.0), DictStats::Due::kPersistent);
}

TEST(DictStatsTest, TransientStatisticsAtSixteenPlusOneSixteenth) {
  // innodb_stats_persistent=OFF: dict_stats_update_if_needed's transient
  // rule, counter > 16 + n_rows / 16: row 18 counts 17 > 16 + 18/16 = 17,
  // no; row 19 counts 18 > 17, yes; no interval.
  DictStats d(Settings(false, true), TableDef{}, 128);
  for (int k = 1; k <= 18; ++k) ASSERT_EQ(d.OnRowInserted(0.0), DictStats::Due::kNone) << "row " << k;
  EXPECT_EQ(d.OnRowInserted(0.0), DictStats::Due::kTransient);
}

TEST(DictStatsTest, SaveDirtiesTheStatisticsPagesAndAnUndoPage) {
  DictStats d(Settings(true, true), TableDef{}, 128);
  RecordingSink sink;
  Recalc(d, 10, 0.0, &sink);
  const uint32_t s = DictStats::kStatsPageEventSpace;
  EXPECT_TRUE(sink.modified.count({s, DictStats::kTableStatsPage}));
  // No index analysed here (the helper passes none): no row of
  // innodb_index_stats rewritten.
  EXPECT_FALSE(sink.modified.count({s, DictStats::kIndexStatsPage}));
  EXPECT_TRUE(sink.modified.count({s, DictStats::kUndoFirstPage})) << "the first rollback segment's undo page";
  EXPECT_TRUE(sink.created.count({s, DictStats::kUndoFirstPage})) << "a new undo segment: created, not read";
  EXPECT_GT(sink.redo, 0u);
  EXPECT_EQ(d.counters().recalcs_persistent, 1u);
}

TEST(DictStatsTest, SettingsTakeEffect) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_TRUE(s.innodb_stats_persistent);
  EXPECT_TRUE(s.innodb_stats_auto_recalc);
  EXPECT_EQ(s.innodb_stats_persistent_sample_pages, 20u);
  ASSERT_TRUE(s.Set("innodb_stats_persistent_sample_pages", "0").ok());
  EXPECT_EQ(s.innodb_stats_persistent_sample_pages, 1u) << "clamped to the minimum, 1";
  ASSERT_TRUE(s.Set("innodb_stats_auto_recalc", "OFF").ok());
  for (const ServerSettings::Row& r : s.Describe()) {
    if (r.name == "innodb_stats_auto_recalc") EXPECT_TRUE(r.modelled) << "no longer listed as without effect";
  }
}

// Seed 004's table, 2M uuidv7-counter rows in 10,000-row transactions, a
// 128 MB pool, under the mariadb-10.11 profile at `rows_per_sec`.
RunSpec Seed004Load(double rows_per_sec) {
  RunSpec spec;
  spec.stream.name = "uuidv7-counter";
  spec.rows = 2000000;
  spec.trx_rows = 10000;
  spec.table = "seed004";
  spec.profile = "mariadb-10.11";
  spec.rows_per_sec = rows_per_sec;
  spec.settings.push_back({"innodb_buffer_pool_size", "128M", "test"});
  return spec;
}

// A whole load: seed 004's table, 2M ordered keys, a 128 MB pool smaller
// than the table (docs/flushing.md, "The statistics recalculation"). With the recalculation ON its dives read leaves evicted by the
// load (OFF reads none of them) and its saves write the statistics pages.
TEST(DictStatsTest, DivesReadEvictedLeavesOfAnOrderedLoadInASmallPool) {
  uint64_t reads[2] = {0, 0}, recalcs[2] = {0, 0}, dives[2] = {0, 0}, stats_writes[2] = {0, 0};
  int i = 0;
  for (const char* recalc : {"ON", "OFF"}) {
    RunSpec spec = Seed004Load(12700);
    spec.settings.push_back({"innodb_stats_auto_recalc", recalc, "test"});
    spec.page_writes = true;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      ASSERT_NE(e.dict_stats(), nullptr);
      recalcs[i] = e.dict_stats()->counters().recalcs_persistent;
      dives[i] = e.dict_stats()->counters().dives;
      for (uint32_t p = 0; p < 1024; ++p) {
        stats_writes[i] += e.flush_model()->buffer_pool().PageWrites(DictStats::kStatsPageEventSpace, p);
      }
    });
    ASSERT_TRUE(r.ok()) << r.status();
    reads[i++] = r->flush.Innodb_buffer_pool_reads;
  }
  // 2M rows at 12,700 rows/s (the server's rate when it read 246 pages
  // here): 157 s, a recalculation at most every 10 s after the first (the
  // second row), and one per 10% of the rows: between 5 and 16.
  EXPECT_GE(recalcs[0], 5u);
  EXPECT_LE(recalcs[0], 16u);
  EXPECT_GT(dives[0], 20u * recalcs[0] / 2) << "PRIMARY's 20 dives, idx_created's 40, once the trees are big";
  EXPECT_EQ(recalcs[1], 0u);
  EXPECT_EQ(stats_writes[1], 0u);
  EXPECT_GE(stats_writes[0], 3u) << "innodb_table_stats, innodb_index_stats, an undo page";
  // The server: 246 ON, 6 OFF.
  EXPECT_GT(reads[0], reads[1] + 100) << "ON " << reads[0] << ", OFF " << reads[1];
}

// The final flush's wait (EngineOptions::end_wait_s): a recalculation the
// background task holds for MIN_RECALC_INTERVAL past the load's end runs
// during the wait when the wait reaches it, before the final flush, its
// dives reading evicted leaves; with no wait it never runs. Seed 004's
// table, 2M ordered rows at 200,000 rows/s (a 10-s load: the second
// recalculation falls due at its end), a 128 MB pool.
TEST(DictStatsTest, ARecalculationDueDuringTheFinalFlushWaitRuns) {
  uint64_t recalcs[2] = {0, 0}, reads[2] = {0, 0};
  int i = 0;
  for (double wait : {0.0, 2.0}) {
    RunSpec spec = Seed004Load(200000);
    spec.end_wait_s = wait;
    absl::StatusOr<RunResult> r = innosim::Run(
        spec, [&](const Engine& e) { recalcs[i] = e.dict_stats()->counters().recalcs_persistent; });
    ASSERT_TRUE(r.ok()) << r.status();
    reads[i++] = r->flush.Innodb_buffer_pool_reads;
  }
  EXPECT_EQ(recalcs[1], recalcs[0] + 1);
  EXPECT_GT(reads[1], reads[0] + 20) << "the dives of PRIMARY and idx_created into evicted leaves";
}

// What a run reports of the recalculation (RunResult::dict_stats, as
// `measure` holds it against mysql.innodb_table_stats): the last save's
// n_rows and time. The 10-s load above: with no final wait the last save
// is the first 10% trigger's after the 10-s interval, inside the load;
// with a 2-s wait it is the held one, at the load's end, having seen every
// row. Its pages written by tablespace add up to Innodb_pages_written, the
// statistics tables' share the same as PageWrites' tally of their pages.
TEST(DictStatsTest, TheRunReportsTheLastSaveAndThePagesWrittenBySpace) {
  for (double wait : {0.0, 2.0}) {
    RunSpec spec = Seed004Load(200000);
    spec.end_wait_s = wait;
    spec.page_writes = true;
    uint64_t stats_writes = 0, header_writes = 0, undo_log_writes = 0;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      const BufferPool& pool = e.flush_model()->buffer_pool();
      for (uint32_t p = 0; p < 1024; ++p) stats_writes += pool.PageWrites(DictStats::kStatsPageEventSpace, p);
      // By page type: the rollback segment headers of the undo side and of
      // the temporary tablespace, and the undo segments' pages.
      for (uint32_t r = 0; r < UndoLogs::kMariaDbRsegs; ++r) {
        header_writes += pool.PageWrites(Engine::kUndoPageEventSpace, UndoLogs::kRsegFirstPage + r) +
                         pool.PageWrites(UndoLogs::kTempSpaceKey, UndoLogs::kRsegFirstPage + r);
      }
      for (uint32_t p = UndoLogs::kSegmentFirstPage; p < 1000000; ++p) {
        undo_log_writes += pool.PageWrites(Engine::kUndoPageEventSpace, p);
      }
    });
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE(r->dict_stats.has_value());
    const DictStats::Counters& d = *r->dict_stats;
    ASSERT_GE(d.recalcs_persistent, 1u);
    const double load_s = 2000000 / 200000.0;
    if (wait == 0) {
      EXPECT_LT(d.last_saved_n_rows, 2000000u);
      EXPECT_NEAR(d.last_saved_s, d.last_saved_n_rows / 200000.0, 1e-3) << "a save inside the load, at its row";
    } else {
      EXPECT_EQ(d.last_saved_n_rows, 2000000u);
      EXPECT_GE(d.last_saved_s, load_s);
      EXPECT_LE(d.last_saved_s, load_s + wait);
    }
    const RunResult::PagesWrittenBySpace& w = r->pages_written_by_space;
    EXPECT_EQ(w.statistics_tables, stats_writes);
    EXPECT_GE(w.statistics_tables, 3u);
    EXPECT_GT(w.table, 18000u) << "the table's leaves, about 18,900";
    EXPECT_GT(w.undo, 0u);
    EXPECT_EQ(w.temporary, 131u) << "MariaDB's temporary tablespace: FSP header, 2 inode pages, 128 headers";
    EXPECT_EQ(w.Sum(), r->flush.Innodb_pages_written) << "no other tablespace without a rebuild";
    EXPECT_EQ(r->flush.buffer_page_written_system_page, header_writes);
    EXPECT_GE(header_writes, 128u) << "the temporary tablespace's headers at least";
    EXPECT_EQ(r->flush.buffer_page_written_undo_log, undo_log_writes);
    EXPECT_GT(undo_log_writes, 0u);
    EXPECT_LT(header_writes + undo_log_writes, w.undo + w.temporary) << "the FSP header and inode pages besides";
  }
}

// The table's STATS_PERSISTENT / STATS_AUTO_RECALC override the server's
// (dict_stats_is_persistent_enabled, dict_stats_auto_recalc_is_enabled).
TEST(DictStatsTest, TableOptionsOverrideTheServerVariables) {
  TableDef off;
  off.stats_auto_recalc = false;
  DictStats a(Settings(true, true), off, 128);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(a.OnRowInserted(0.0), DictStats::Due::kNone);
  TableDef on;
  on.stats_auto_recalc = true;
  DictStats b(Settings(true, false), on, 128);
  b.OnRowInserted(0.0);
  EXPECT_EQ(b.OnRowInserted(0.0), DictStats::Due::kPersistent);
  TableDef transient;
  transient.stats_persistent = false;
  DictStats c(Settings(true, true), transient, 128);
  // The transient rule of TransientStatisticsAtSixteenPlusOneSixteenth:
  // row 19 is the first.
  for (int k = 1; k <= 18; ++k) ASSERT_EQ(c.OnRowInserted(0.0), DictStats::Due::kNone) << "row " << k;
  EXPECT_EQ(c.OnRowInserted(0.0), DictStats::Due::kTransient);
}

// Through the table parser: the options reach the run; bad values are refused.
TEST(DictStatsTest, StatsTableOptionsFromCreateTable) {
  uint64_t recalcs[2] = {0, 0};
  int i = 0;
  for (const char* option : {"", " STATS_AUTO_RECALC=0"}) {
    RunSpec spec;
    spec.stream.name = "autoinc";
    spec.rows = 50000;
    spec.profile = "mariadb-10.11";
    spec.rows_per_sec = 1000;
    spec.table = std::string("CREATE TABLE t (id BIGINT NOT NULL, PRIMARY KEY (id))") + option;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      ASSERT_NE(e.dict_stats(), nullptr);
      recalcs[i] = e.dict_stats()->counters().recalcs_persistent;
    });
    ASSERT_TRUE(r.ok()) << r.status();
    ++i;
  }
  EXPECT_GT(recalcs[0], 0u);
  EXPECT_EQ(recalcs[1], 0u);
  for (const char* bad : {" STATS_PERSISTENT=2", " STATS_SAMPLE_PAGES=0", " STATS_SAMPLE_PAGES=70000"}) {
    RunSpec spec;
    spec.stream.name = "autoinc";
    spec.rows = 10;
    spec.table = std::string("CREATE TABLE t (id BIGINT NOT NULL, PRIMARY KEY (id))") + bad;
    EXPECT_FALSE(innosim::Run(spec).ok()) << bad;
  }
}

}  // namespace
}  // namespace innosim
