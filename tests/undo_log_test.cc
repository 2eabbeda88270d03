#include "model/undo_log.h"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "model/engine.h"
#include "model/redo_format.h"
#include "sim/runner.h"

namespace innosim {
namespace {

// Records what UndoLogs reports: pages fixed, created, modified and freed
// (page numbers only) and mtr redo.
class RecordingSink : public PageEventSink {
 public:
  void OnPageAccess(uint32_t, uint32_t page_no) override { accessed.insert(page_no); }
  void OnPageCreate(uint32_t, uint32_t page_no) override { created.insert(page_no); }
  void OnPageModify(uint32_t, uint32_t page_no) override { modified.insert(page_no); }
  void OnPageFree(uint32_t, uint32_t page_no) override { freed.insert(page_no); }
  void OnMtrCommit(uint64_t bytes) override {
    redo += bytes;
    ++mtrs;
  }
  void Reset() {
    accessed.clear();
    created.clear();
    modified.clear();
    freed.clear();
    redo = 0;
    mtrs = 0;
  }
  std::set<uint32_t> accessed, created, modified, freed;
  uint64_t redo = 0;
  uint64_t mtrs = 0;
};

constexpr uint32_t kPk = 16;

// One transaction of `rows` rows.
void Trx(UndoLogs& u, RecordingSink& s, int rows) {
  for (int i = 0; i < rows; ++i) u.ReportInsert(&s);
  u.Commit(&s);
}

TEST(UndoLogsTest, MariaDbOneRowTransactionReusesTheCachedLog) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  RecordingSink s;
  // The first transaction on each rollback segment creates its undo log.
  for (uint32_t i = 0; i < u.n_rsegs(); ++i) Trx(u, s, 1);
  EXPECT_EQ(u.stats().segments_created, u.n_rsegs());
  EXPECT_EQ(u.stats().logs_cached, u.n_rsegs());
  EXPECT_EQ(u.stats().logs_reused, 0u);
  // The next one reuses rseg 0's cached log: no new page, no FSP header or
  // inode page; the header page and the rseg header are written.
  s.Reset();
  Trx(u, s, 1);
  EXPECT_EQ(u.stats().logs_reused, 1u);
  EXPECT_TRUE(s.created.empty());
  EXPECT_EQ(s.modified, (std::set<uint32_t>{UndoLogs::kRsegFirstPage, UndoLogs::kSegmentFirstPage}));
  // Its redo beyond the undo record: the new log header and the commit
  // with purge's history removal (about 119 bytes from the records, where
  // the server advanced its LSN by ~117-132 bytes per 1-row transaction
  // more than per row of 1000-row ones, docs/flushing.md).
  const uint64_t record = redo.UndoInsert(kPk, 1, 1) + redo.MtrEnd(2);
  EXPECT_EQ(s.redo, record + u.HeaderReuseBytes() + u.CachedCommitBytes());
  EXPECT_GE(s.redo - record, 100u);
  EXPECT_LE(s.redo - record, 140u);
  // The segment's life it no longer pays is several times that.
  EXPECT_GT(redo.InsertTrxLifecycle(1), 4 * (s.redo - record));
}

TEST(UndoLogsTest, MariaDbCachedPageFillsToTheReuseLimitThenANewSegment) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  RecordingSink s;
  // Each reuse appends a 186-byte header and the record after the earlier
  // logs; the log stays cached while TRX_UNDO_PAGE_FREE is below the
  // 12,288-byte reuse limit (3/4 page): ~58 transactions per page.
  const uint64_t per_page =
      (3 * 16384 / 4 - UndoLogs::kFirstLogOffset) / (UndoLogs::kUndoLogXaHdrSize + u.undo_rec_bytes()) + 1;
  EXPECT_GT(per_page, 50u);
  for (uint64_t i = 0; i < 3 * per_page * u.n_rsegs(); ++i) Trx(u, s, 1);
  EXPECT_EQ(u.stats().segments_created, 3ull * u.n_rsegs());
  EXPECT_EQ(u.stats().logs_cached, 3ull * (per_page - 1) * u.n_rsegs());
  // A full page is freed and its page taken by the next segment: the pages
  // in use stay one per rollback segment plus the one being replaced.
  EXPECT_LE(s.created.size(), u.n_rsegs() + 1);
}

TEST(UndoLogsTest, MultiPageLogIsNeverCachedAndItsPagesAreTakenAgain) {
  for (ServerFlavor f : {ServerFlavor::kMySql84, ServerFlavor::kMariaDb1011}) {
    RedoFormat redo(f, 2, 5);
    UndoLogs u(f, 16384, &redo, kPk);
    RecordingSink s;
    Trx(u, s, 1000);
    const std::set<uint32_t> first = s.created;
    EXPECT_EQ(first.size(), 2u);  // 1000 x 25-byte records: 2 pages
    s.Reset();
    Trx(u, s, 1000);
    EXPECT_EQ(s.created, first);
    EXPECT_EQ(u.stats().logs_cached, 0u);
    EXPECT_EQ(u.stats().segments_created, 2u);
    // The segment's life as before: one record per row plus its creation
    // and free (seed 000's redo is unchanged for MySQL).
    uint64_t expect = 0;
    for (uint64_t i = 1; i <= 1000; ++i) expect += redo.UndoInsert(kPk, i, 1) + redo.MtrEnd(1);
    expect += redo.InsertTrxLifecycle(2);
    EXPECT_EQ(s.redo, expect);
    EXPECT_EQ(redo.InsertTrxLifecycle(2), redo.UndoSegmentCreate(2) + redo.UndoSegmentFree(2));
  }
}

TEST(UndoLogsTest, MySqlReusesTheInsertLogFromItsStart) {
  RedoFormat redo(ServerFlavor::kMySql84, 2, 5);
  UndoLogs u(ServerFlavor::kMySql84, 16384, &redo, kPk);
  RecordingSink s;
  // trx_undo_insert_header_reuse rewrites the header in place: a cached
  // insert log never fills, so after one creation per rseg every 1-row
  // transaction reuses.
  for (uint32_t i = 0; i < 10 * u.n_rsegs(); ++i) Trx(u, s, 1);
  EXPECT_EQ(u.stats().segments_created, u.n_rsegs());
  EXPECT_EQ(u.stats().logs_reused, 9 * u.n_rsegs());
  // An insert undo log is not in the history list: the commit writes only
  // the undo page, not the rseg header.
  s.Reset();
  Trx(u, s, 1);
  EXPECT_EQ(s.modified.size(), 1u);
  EXPECT_LT(u.HeaderReuseBytes() + u.CachedCommitBytes(), 30u);
}

TEST(UndoLogsTest, RollbackSegmentsRoundRobin) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  RecordingSink s;
  std::set<uint32_t> rseg_pages;
  for (uint32_t i = 0; i < 2 * u.n_rsegs(); ++i) {
    s.Reset();
    Trx(u, s, 1000);
    for (uint32_t p : s.modified) {
      if (p >= UndoLogs::kRsegFirstPage && p < UndoLogs::kRsegFirstPage + u.n_rsegs()) rseg_pages.insert(p);
    }
  }
  EXPECT_EQ(rseg_pages.size(), u.n_rsegs());
}

// Seed 004's table in a pool smaller than it, 10,000-row transactions: the
// round robin comes back to a rollback segment once per 1.28M rows, and
// without purge's walk the headers were evicted and read again (about 140
// reads at 2M rows; the server read 6). With it, MariaDB's headers stay
// young; MySQL's profile, whose purge does not run, still reads them (at
// 1M rows in 128 MB: 40 reads under mysql-8.4; mariadb-10.11 read 40 before
// the walk, 0 with it).
// As on the server (INFORMATION_SCHEMA.INNODB_BUFFER_PAGE after such a load:
// all 128 SYSTEM pages resident, IS_OLD = 0), every MariaDB header is
// resident and in the young sublist at the end.
TEST(UndoLogsTest, MariaDbRsegHeadersStayResidentInASmallPool) {
  uint64_t reads[2] = {0, 0};
  uint32_t young[2] = {0, 0};
  int i = 0;
  for (const char* profile : {"mariadb-10.11", "mysql-8.4"}) {
    RunSpec spec;
    spec.stream.name = "uuidv7-counter";
    spec.rows = 1000000;
    spec.trx_rows = 10000;
    spec.table = "seed004";
    spec.profile = profile;
    spec.rows_per_sec = 17000;
    spec.settings.push_back({"innodb_buffer_pool_size", "128M", "test"});
    uint32_t resident_young = 0;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      const BufferPool& bp = e.flush_model()->buffer_pool();
      for (uint32_t h = 0; h < UndoLogs::kMariaDbRsegs; ++h) {
        const uint32_t page = UndoLogs::kRsegFirstPage + h;
        resident_young += bp.IsResident(Engine::kUndoPageEventSpace, page) &&
                          !bp.IsOld(Engine::kUndoPageEventSpace, page);
      }
    });
    ASSERT_TRUE(r.ok()) << r.status();
    reads[i] = r->flush.Innodb_buffer_pool_reads;
    young[i++] = resident_young;
  }
  EXPECT_EQ(young[0], UndoLogs::kMariaDbRsegs) << "mariadb-10.11";
  EXPECT_LT(reads[0], 20u) << "mariadb-10.11";
  // MySQL 8.4: no purge on an insert-only load; a header the round robin
  // comes back to after its eviction is read again.
  EXPECT_GT(reads[1], reads[0] + 20) << "mysql-8.4";
}

// With the flush model, the pages outside the index are buffer-pool pages
// that get written: every rollback segment header a load's transactions
// used, the undo tablespace's FSP header and inode page (segments created
// and freed), and the table's XDES and inode pages (page allocation).
TEST(UndoLogsTest, ALoadWritesTheRollbackSegmentHeadersAndAllocationPages) {
  for (const char* profile : {"mysql-8.4", "mariadb-10.11"}) {
    RunSpec spec;
    spec.stream.name = "autoinc";
    spec.rows = 300000;  // 300 transactions: every rollback segment used
    spec.profile = profile;
    spec.page_writes = true;
    uint32_t rsegs_written = 0, undo_alloc = 0, table_alloc = 0;
    uint32_t n_rsegs = 0;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      const BufferPool& bp = e.flush_model()->buffer_pool();
      n_rsegs = std::string(profile) == "mysql-8.4" ? UndoLogs::kMySqlRsegs : UndoLogs::kMariaDbRsegs;
      for (uint32_t i = 0; i < n_rsegs; ++i) {
        rsegs_written += bp.PageWrites(Engine::kUndoPageEventSpace, UndoLogs::kRsegFirstPage + i) > 0;
      }
      undo_alloc = bp.PageWrites(Engine::kUndoPageEventSpace, UndoLogs::kFspHeaderPage) +
                   bp.PageWrites(Engine::kUndoPageEventSpace, UndoLogs::kInodePage);
      table_alloc = bp.PageWrites(Engine::kPageEventSpace, 0) +
                    bp.PageWrites(Engine::kPageEventSpace, Tablespace::kFirstInodePage);
    });
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(rsegs_written, n_rsegs) << profile;
    EXPECT_GE(undo_alloc, 2u) << profile;
    EXPECT_GE(table_alloc, 2u) << profile;
    // Resident from the start: none of them was read.
    EXPECT_LT(r->flush.Innodb_buffer_pool_reads, 10u) << profile;
  }
}

// MariaDB's purge lag (UndoLogs::set_deferred_purge, UndoLogs::Purge,
// Engine::EndRowLogged; docs/flushing.md "Purge's lag"): a committed insert
// log that is not cached stays in the history, its pages allocated and
// dirty, until purge's once-a-second run frees it; MySQL frees its insert
// logs at the commit.
TEST(PurgeLagTest, MariaDbLogsWaitInTheHistoryUntilPurgeFreesThem) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  u.set_deferred_purge(true);
  RecordingSink s;
  // Three 1,000-row transactions (two pages each): no page freed, each
  // takes pages of its own.
  for (int t = 0; t < 3; ++t) Trx(u, s, 1000);
  EXPECT_TRUE(u.history_exists());
  EXPECT_EQ(s.created.size(), 6u);
  EXPECT_TRUE(s.freed.empty());
  EXPECT_EQ(u.stats().segments_purged, 0u);
  const std::set<uint32_t> pages = s.created;
  uint64_t redo_total = s.redo;  // Reset clears it
  // Purge reads every waiting page and every rollback segment header, then
  // frees the three segments.
  s.Reset();
  u.Purge(&s);
  EXPECT_FALSE(u.history_exists());
  EXPECT_EQ(s.freed, pages);
  for (uint32_t p : pages) EXPECT_TRUE(s.accessed.count(p)) << p;
  for (uint32_t r = 0; r < u.n_rsegs(); ++r) EXPECT_TRUE(s.accessed.count(UndoLogs::kRsegFirstPage + r)) << r;
  EXPECT_EQ(u.stats().segments_purged, 3u);
  // The next transaction takes freed pages again; nothing new.
  redo_total += s.redo;
  s.Reset();
  Trx(u, s, 1000);
  EXPECT_EQ(s.created.size(), 2u);
  for (uint32_t p : s.created) EXPECT_TRUE(pages.count(p)) << p;
  // The redo is the segments' whole life, as when they are freed at the
  // commit: only its time moves.
  UndoLogs at_commit(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  RecordingSink t;
  for (int i = 0; i < 4; ++i) Trx(at_commit, t, 1000);
  u.Purge(&s);
  EXPECT_EQ(redo_total + s.redo, t.redo);
}

TEST(PurgeLagTest, CachedLogsOnlyEnterTheHistory) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  u.set_deferred_purge(true);
  RecordingSink s;
  Trx(u, s, 1);  // one page below the reuse limit: cached
  EXPECT_TRUE(u.history_exists());
  s.Reset();
  u.Purge(&s);
  EXPECT_FALSE(u.history_exists());
  EXPECT_TRUE(s.freed.empty());
  EXPECT_EQ(u.stats().segments_purged, 0u);
}

TEST(PurgeLagTest, MySqlFreesItsInsertLogsAtTheCommit) {
  RedoFormat redo(ServerFlavor::kMySql84, 2, 5);
  UndoLogs u(ServerFlavor::kMySql84, 16384, &redo, kPk);
  u.set_deferred_purge(true);  // no effect: the logs skip the history
  RecordingSink s;
  Trx(u, s, 1000);
  EXPECT_FALSE(u.history_exists());
  EXPECT_EQ(s.freed.size(), 0u);  // MySQL reports no free (its pages are written as any)
  const std::set<uint32_t> first = s.created;
  s.Reset();
  Trx(u, s, 1000);
  EXPECT_EQ(s.created, first);  // taken again at once
}

// The engine wakes purge half a second after the page cleaner's pass at
// each whole simulated second; a load's end purges what is left. 8,192
// rows a second (exact in binary): the half second is row 4,096.
TEST(PurgeLagTest, EnginePurgesAtTheHalfSecondAndAtTheLoadsEnd) {
  EngineOptions o;
  o.flush = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  o.trx_rows = 1000;
  o.rows_per_sec = 8192;
  Engine e(EngineProfile::MariaDB1011(), Seed000Table(16), o);
  const UndoLogs& undo = *e.undo_logs();
  uint64_t key = 1;
  auto row = [&] {
    ASSERT_TRUE(e.InsertRow(Key{0, key++}).ok());
    ASSERT_TRUE(e.EndRow().ok());
  };
  for (int i = 0; i < 4095; ++i) ASSERT_NO_FATAL_FAILURE(row());
  EXPECT_TRUE(undo.history_exists());  // four commits, none purged
  EXPECT_EQ(undo.stats().segments_purged, 0u);
  ASSERT_NO_FATAL_FAILURE(row());  // row 4,096: 0.5 s
  EXPECT_FALSE(undo.history_exists());
  EXPECT_EQ(undo.stats().segments_purged, 4u);
  for (int i = 0; i < 1000; ++i) ASSERT_NO_FATAL_FAILURE(row());
  EXPECT_TRUE(undo.history_exists());
  // The load's end commits the last 96 rows (one page: a cached log,
  // nothing to free) and purges the history.
  ASSERT_TRUE(e.EndLoad().ok());
  EXPECT_FALSE(undo.history_exists());
  EXPECT_EQ(undo.stats().segments_purged, 5u);
  EXPECT_EQ(undo.stats().logs_cached, 1u);
  EXPECT_EQ(e.Verify(), "");
}

// Without a clock no purge would come: a caller's own sink gets the frees
// at the commit.
TEST(PurgeLagTest, AnEngineWithoutTheFlushModelFreesAtTheCommit) {
  RecordingSink s;
  Engine e(EngineProfile::MariaDB1011(), Seed000Table(16), &s);
  for (uint64_t k = 1; k <= 2000; ++k) {
    ASSERT_TRUE(e.InsertRow(Key{0, k}).ok());
    ASSERT_TRUE(e.EndRow().ok());
  }
  EXPECT_FALSE(e.undo_logs()->history_exists());
  EXPECT_FALSE(s.freed.empty());
}

}  // namespace
}  // namespace innosim
