// MariaDB's purge lag (UndoLogs::set_deferred_purge, UndoLogs::Purge,
// Engine::EndRowLogged): a committed insert log that is not cached stays in
// the history, its pages allocated and dirty, until purge's once-a-second
// run frees it; MySQL frees its insert logs at the commit.
#include <cstdint>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "model/engine.h"
#include "model/redo_format.h"
#include "model/undo_log.h"
#include "sim/runner.h"

namespace innosim {
namespace {

// Records page events by kind (page numbers only: one space here) and the
// redo of every mtr.
class Events : public PageEventSink {
 public:
  void OnPageAccess(uint32_t, uint32_t page_no) override { accessed.insert(page_no); }
  void OnPageCreate(uint32_t, uint32_t page_no) override { created.insert(page_no); }
  void OnPageModify(uint32_t, uint32_t) override {}
  void OnPageFree(uint32_t, uint32_t page_no) override { freed.insert(page_no); }
  void OnMtrCommit(uint64_t bytes) override { redo += bytes; }
  void Reset() {
    accessed.clear();
    created.clear();
    freed.clear();
  }
  std::set<uint32_t> accessed, created, freed;
  uint64_t redo = 0;
};

constexpr uint32_t kPk = 16;

void Trx(UndoLogs& u, Events& s, int rows) {
  for (int i = 0; i < rows; ++i) u.ReportInsert(&s);
  u.Commit(&s);
}

TEST(PurgeLagTest, MariaDbLogsWaitInTheHistoryUntilPurgeFreesThem) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  u.set_deferred_purge(true);
  Events s;
  // Three 1,000-row transactions (two pages each): no page freed, each
  // takes pages of its own.
  for (int t = 0; t < 3; ++t) Trx(u, s, 1000);
  EXPECT_TRUE(u.history_exists());
  EXPECT_EQ(s.created.size(), 6u);
  EXPECT_TRUE(s.freed.empty());
  EXPECT_EQ(u.stats().segments_purged, 0u);
  const std::set<uint32_t> pages = s.created;
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
  s.Reset();
  Trx(u, s, 1000);
  EXPECT_EQ(s.created.size(), 2u);
  for (uint32_t p : s.created) EXPECT_TRUE(pages.count(p)) << p;
  // The redo is the segments' whole life, as when they are freed at the
  // commit: only its time moves.
  UndoLogs at_commit(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  Events t;
  for (int i = 0; i < 4; ++i) Trx(at_commit, t, 1000);
  u.Purge(&s);
  EXPECT_EQ(s.redo, t.redo);
}

TEST(PurgeLagTest, CachedLogsOnlyEnterTheHistory) {
  RedoFormat redo(ServerFlavor::kMariaDb1011, 2, 5);
  UndoLogs u(ServerFlavor::kMariaDb1011, 16384, &redo, kPk);
  u.set_deferred_purge(true);
  Events s;
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
  Events s;
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
  Events s;
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
