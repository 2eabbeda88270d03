// One tree for several configurations (model/fast/fan_out_sink.h, Engine's
// several-configuration constructor, sim/shared_tree.h): each instance of a
// shared engine must end, and pass every point of its load, exactly where an
// engine of its own does: the same time series at every sample, the same
// counters, writes per space, statistics and undo figures, the same pool;
// and RunMany's results must be the same with and without sharing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "model/dict_stats.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "model/record_format.h"
#include "model/undo_log.h"
#include "sim/column_values.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/shared_tree.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

ServerSettings Settings(ServerFlavor flavor, const std::vector<std::pair<std::string, std::string>>& set) {
  ServerSettings s = ServerSettings::Defaults(flavor);
  for (const auto& [name, value] : set) {
    const absl::Status st = s.Set(name, value);
    EXPECT_TRUE(st.ok()) << name << "=" << value << ": " << st;
  }
  return s;
}

EngineOptions Options(const ServerSettings& s, double rows_per_sec, uint64_t trx_rows, double end_wait_s = 0) {
  EngineOptions o;
  o.flush = s;
  o.rows_per_sec = rows_per_sec;
  o.trx_rows = trx_rows;
  o.end_wait_s = end_wait_s;
  return o;
}

void ExpectSameSample(const FlushModel::Sample& a, const FlushModel::Sample& b, const std::string& where) {
  EXPECT_EQ(a.seconds, b.seconds) << where;
  EXPECT_EQ(a.lsn, b.lsn) << where;
  EXPECT_EQ(a.checkpoint_lsn, b.checkpoint_lsn) << where;
  EXPECT_EQ(a.checkpoint_age, b.checkpoint_age) << where;
  EXPECT_EQ(a.dirty_pages, b.dirty_pages) << where;
  EXPECT_EQ(a.pages_written, b.pages_written) << where;
  EXPECT_EQ(a.buffer_pool_reads, b.buffer_pool_reads) << where;
}

// Instance i of `shared` against `alone`, an engine of its own.
void ExpectSameInstance(const Engine& shared, size_t i, const Engine& alone, const std::string& where) {
  const FlushModel& a = *shared.flush_model(i);
  const FlushModel& b = *alone.flush_model();
  ExpectSameSample(a.Snapshot(), b.Snapshot(), where);
  const FlushModel::Counters& ca = a.counters();
  const FlushModel::Counters& cb = b.counters();
  EXPECT_EQ(ca.Innodb_pages_written, cb.Innodb_pages_written) << where;
  EXPECT_EQ(ca.Innodb_dblwr_pages_written, cb.Innodb_dblwr_pages_written) << where;
  EXPECT_EQ(ca.Innodb_buffer_pool_reads, cb.Innodb_buffer_pool_reads) << where;
  EXPECT_EQ(ca.peak_dirty_pages, cb.peak_dirty_pages) << where;
  EXPECT_EQ(ca.adaptive_flush_pages, cb.adaptive_flush_pages) << where;
  EXPECT_EQ(ca.sync_flush_pages, cb.sync_flush_pages) << where;
  EXPECT_EQ(ca.async_flush_pages, cb.async_flush_pages) << where;
  EXPECT_EQ(ca.lru_flush_pages, cb.lru_flush_pages) << where;
  EXPECT_EQ(ca.single_page_flushes, cb.single_page_flushes) << where;
  EXPECT_EQ(ca.final_flush_pages, cb.final_flush_pages) << where;
  EXPECT_EQ(ca.observer_flush_pages, cb.observer_flush_pages) << where;
  EXPECT_EQ(ca.redo_bytes, cb.redo_bytes) << where;
  const BufferPool::Stats& pa = a.buffer_pool().stats();
  const BufferPool::Stats& pb = b.buffer_pool().stats();
  EXPECT_EQ(pa.evicted, pb.evicted) << where;
  EXPECT_EQ(pa.made_young, pb.made_young) << where;
  EXPECT_EQ(pa.not_made_young, pb.not_made_young) << where;
  EXPECT_EQ(pa.freed_released, pb.freed_released) << where;
  for (uint32_t space : {shared.table_space(), Engine::kUndoPageEventSpace, DictStats::kStatsPageEventSpace,
                         UndoLogs::kTempSpaceKey}) {
    EXPECT_EQ(a.buffer_pool().PagesWrittenOf(space), b.buffer_pool().PagesWrittenOf(space)) << where << " space " << space;
  }
  const DictStats::Counters& sa = shared.dict_stats(i)->counters();
  const DictStats::Counters& sb = alone.dict_stats()->counters();
  EXPECT_EQ(sa.recalcs_persistent, sb.recalcs_persistent) << where;
  EXPECT_EQ(sa.recalcs_transient, sb.recalcs_transient) << where;
  EXPECT_EQ(sa.dives, sb.dives) << where;
  EXPECT_EQ(sa.last_saved_n_rows, sb.last_saved_n_rows) << where;
  EXPECT_EQ(sa.last_saved_s, sb.last_saved_s) << where;
  const UndoLogs::Stats& ua = shared.undo_logs(i)->stats();
  const UndoLogs::Stats& ub = alone.undo_logs()->stats();
  EXPECT_EQ(ua.transactions, ub.transactions) << where;
  EXPECT_EQ(ua.logs_reused, ub.logs_reused) << where;
  EXPECT_EQ(ua.segments_created, ub.segments_created) << where;
  EXPECT_EQ(ua.segments_purged, ub.segments_purged) << where;
  EXPECT_EQ(shared.instance_status(i).ok(), alone.status().ok()) << where;
}

// A shared engine and one engine per configuration, driven alike.
struct Engines {
  Engines(const EngineProfile& profile, const TableDef& table, const std::vector<EngineOptions>& options)
      : shared(profile, table, options) {
    for (const EngineOptions& o : options) alone.push_back(std::make_unique<Engine>(profile, table, o));
  }
  template <typename F>
  void Each(F f) {
    f(shared);
    for (auto& e : alone) f(*e);
  }
  void ExpectSame(const std::string& where) {
    ASSERT_EQ(shared.n_instances(), alone.size());
    for (size_t i = 0; i < alone.size(); ++i) {
      ExpectSameInstance(shared, i, *alone[i], where + " instance " + std::to_string(i));
    }
    EXPECT_EQ(shared.Verify(), "");
    EXPECT_EQ(shared.Report().primary.n_leaf_pages, alone[0]->Report().primary.n_leaf_pages);
  }
  Engine shared;
  std::vector<std::unique_ptr<Engine>> alone;
};

TEST(SharedTreeEquivalenceTest, MySqlRandomKeysInPoolsOfEverySize) {
  // The doublewrite pair, a pool a twentieth of the table (reads,
  // evictions, LRU flushes, single-page flushes), a pool larger than it,
  // each at its own rate, transaction size and statistics settings.
  const ServerFlavor f = ServerFlavor::kMySql84;
  const std::vector<EngineOptions> options = {
      Options(Settings(f, {{"innodb_doublewrite", "OFF"}, {"innodb_buffer_pool_size", "4G"}}), 127290, 1000),
      Options(Settings(f, {{"innodb_doublewrite", "ON"}, {"innodb_buffer_pool_size", "4G"}}), 88000, 1000),
      Options(Settings(f, {{"innodb_buffer_pool_size", "5M"}, {"innodb_io_capacity", "200"},
                           {"innodb_lru_scan_depth", "128"}}),
              20000, 10),
      Options(Settings(f, {{"innodb_buffer_pool_size", "16M"}, {"innodb_stats_persistent_sample_pages", "4"},
                           {"innodb_redo_log_capacity", "8M"}}),
              300000, 1, 3.0),
  };
  Engines e(EngineProfile::MySQL84(), Seed000Table(16), options);
  std::mt19937_64 rng(7);
  for (int row = 0; row < 60000; ++row) {
    const Key k{rng(), rng()};
    e.Each([&](Engine& x) {
      x.PrefetchRow(k);  // a hint only: on the shared engine it reaches every pool
      ASSERT_TRUE(x.InsertRow(k).ok());
      ASSERT_TRUE(x.EndRow().ok());
    });
    if (row % 4999 == 0) ASSERT_NO_FATAL_FAILURE(e.ExpectSame("row " + std::to_string(row)));
  }
  e.Each([](Engine& x) { ASSERT_TRUE(x.EndLoad().ok()); });
  e.ExpectSame("end");
  // The small pool read pages back: the comparison covered reads.
  EXPECT_GT(e.alone[2]->flush_model()->counters().Innodb_buffer_pool_reads, 100u);
  EXPECT_GT(e.alone[1]->flush_model()->counters().Innodb_dblwr_pages_written, 0u);
}

TEST(SharedTreeEquivalenceTest, MariaDbSecondaryIndexPurgeDeletesAndRebuild) {
  // MariaDB's deferred purge, its fix-only pages (OnPageFixOnly) and
  // temporary tablespace, a secondary index, a DELETE and its purge, a
  // checkpoint and OPTIMIZE TABLE's rebuild, with statistics on and off.
  const ServerFlavor f = ServerFlavor::kMariaDb1011;
  const std::vector<EngineOptions> options = {
      Options(Settings(f, {{"innodb_buffer_pool_size", "6M"}, {"innodb_old_blocks_time", "0"}}), 50000, 100),
      Options(Settings(f, {{"innodb_buffer_pool_size", "6M"}, {"innodb_stats_auto_recalc", "OFF"}}), 50000, 7),
      Options(Settings(f, {{"innodb_buffer_pool_size", "1G"}, {"innodb_flush_neighbors", "1"}}), 400000, 1000, 10.0),
  };
  Engines e(EngineProfile::MariaDB1011(), BinaryTableWithIndex(16, "c", 8), options);
  std::mt19937_64 rng(3);
  std::vector<std::pair<Key, Key>> rows;
  for (int row = 0; row < 40000; ++row) {
    // Random keys in a pool a fraction of the table: pages age through the
    // old sublist, so a fix that makes them young and one that does not
    // (OnPageFixOnly) part ways.
    const Key pk{rng(), rng()};
    const Key entry{rng(), pk.hi};
    rows.emplace_back(pk, entry);
    e.Each([&](Engine& x) {
      ASSERT_TRUE(x.InsertRow(pk).ok());
      ASSERT_TRUE(x.InsertSecondary(0, entry).ok());
      ASSERT_TRUE(x.EndRow().ok());
    });
    if (row % 3001 == 0) ASSERT_NO_FATAL_FAILURE(e.ExpectSame("row " + std::to_string(row)));
  }
  e.Each([](Engine& x) { ASSERT_TRUE(x.Checkpoint().ok()); });
  e.ExpectSame("checkpoint");
  std::sort(rows.begin(), rows.end());
  for (size_t i = 0; i < rows.size(); i += 3) {
    e.Each([&](Engine& x) { ASSERT_TRUE(x.DeleteRow(rows[i].first, {&rows[i].second, 1}).ok()); });
  }
  e.Each([](Engine& x) { ASSERT_TRUE(x.EndDeletes().ok()); });
  e.ExpectSame("purge");
  e.Each([](Engine& x) { ASSERT_TRUE(x.Rebuild(90).ok()); });
  e.ExpectSame("rebuild");
  e.Each([](Engine& x) { ASSERT_TRUE(x.EndLoad().ok()); });
  e.ExpectSame("end");
  EXPECT_GT(e.alone[0]->flush_model()->counters().Innodb_buffer_pool_reads, 0u);
  EXPECT_GT(e.alone[0]->dict_stats()->counters().recalcs_persistent, 0u);
  EXPECT_EQ(e.alone[1]->dict_stats()->counters().recalcs_persistent, 0u);
}

TEST(SharedTreeEquivalenceTest, EveryInstanceNeedsItsFlushSettings) {
  EngineOptions with = Options(ServerSettings::Defaults(ServerFlavor::kMySql84), 1000, 10);
  EngineOptions without;
  const std::vector<EngineOptions> options = {with, without};
  Engine e(EngineProfile::MySQL84(), Seed000Table(16), options);
  EXPECT_TRUE(absl::IsInvalidArgument(e.status())) << e.status();
}

// RunMany with and without shared trees: every result's --json the same
// (its wall time aside).
std::vector<std::string> JsonOf(const std::vector<absl::StatusOr<RunResult>>& results) {
  std::vector<std::string> out;
  for (const absl::StatusOr<RunResult>& r : results) {
    if (!r.ok()) {
      out.push_back(std::string(r.status().message()));
      continue;
    }
    nlohmann::ordered_json j = RunToJson(*r);
    j.erase("elapsed_s");
    out.push_back(j.dump());
  }
  return out;
}

RunSpec Spec(const std::string& stream, uint64_t rows, double rows_per_sec,
             const std::vector<std::pair<std::string, std::string>>& set, const std::string& profile = "mysql-8.4") {
  RunSpec s;
  s.stream.name = stream;
  s.stream.seed = 5;
  s.stream.rows_per_ms = 482;
  s.rows = rows;
  s.profile = profile;
  s.rows_per_sec = rows_per_sec;
  for (const auto& [name, value] : set) s.settings.push_back({name, value, "--set"});
  return s;
}

TEST(SharedTreeEquivalenceTest, RunManyGivesTheSameResultsSharedOrNot) {
  std::vector<RunSpec> specs = {
      Spec("uuidv4", 30000, 127290, {{"innodb_doublewrite", "OFF"}}),
      Spec("autoinc", 30000, 300000, {}),
      Spec("uuidv4", 30000, 88000, {{"innodb_doublewrite", "ON"}}),
      Spec("uuidv4", 30000, 20000, {{"innodb_buffer_pool_size", "5M"}}),
      // Another page size: its own tree.
      Spec("uuidv4", 30000, 127290, {{"innodb_page_size", "8k"}}),
      Spec("uuidv7-random", 30000, 50000, {{"innodb_buffer_pool_size", "5M"}}, "mariadb-10.11"),
      Spec("uuidv7-random", 30000, 50000, {{"innodb_buffer_pool_size", "6M"}, {"innodb_old_blocks_time", "0"}},
           "mariadb-10.11"),
  };
  specs[2].trx_rows = 10;
  specs[3].label = "small pool";
  specs[6].end_wait_s = 10;
  // A table with a secondary index at two insert rates: its time column's
  // entries differ, so the engine refuses to share and RunMany runs them
  // one by one.
  RunSpec indexed = Spec("uuidv4", 20000, 100000, {});
  indexed.table = "CREATE TABLE t (id BINARY(16) PRIMARY KEY, created DATETIME(6), KEY (created))";
  RunSpec indexed_later = indexed;
  indexed_later.rows_per_sec = 5000;
  specs.push_back(indexed);
  specs.push_back(indexed_later);
  // uuidv4 ignores the synthetic clock: another rows_per_ms shares the
  // first uuidv4 tree (and reports its own); the indexed table's time
  // column reads that clock (key-time), so there it is refused.
  RunSpec other_clock = Spec("uuidv4", 30000, 127290, {{"innodb_buffer_pool_size", "6M"}});
  other_clock.stream.rows_per_ms = 7;
  specs.push_back(other_clock);
  RunSpec indexed_other_clock = indexed;
  indexed_other_clock.stream.rows_per_ms = 7;
  indexed_other_clock.columns = {*ParseColumnSource("created=key-time")};
  RunSpec indexed_key_time = indexed;
  indexed_key_time.columns = {*ParseColumnSource("created=key-time")};
  specs.push_back(indexed_key_time);
  specs.push_back(indexed_other_clock);
  // Not shareable from the start: an unknown variable's error, as alone.
  specs.push_back(Spec("uuidv4", 30000, 127290, {{"innodb_no_such_variable", "1"}}));

  std::vector<double> ended;
  const std::vector<absl::StatusOr<RunResult>> shared = RunMany(specs, 2, &ended, true);
  const std::vector<absl::StatusOr<RunResult>> alone = RunMany(specs, 2, nullptr, false);
  const std::vector<std::string> a = JsonOf(shared);
  const std::vector<std::string> b = JsonOf(alone);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "spec " << i;
  for (size_t i = 0; i + 1 < specs.size(); ++i) EXPECT_TRUE(shared[i].ok()) << i << ": " << shared[i].status();
  EXPECT_FALSE(shared.back().ok());
  // The uuidv4 runs at 16 KiB shared one load (one wall time, one end), the
  // MariaDB pair another.
  ASSERT_TRUE(shared[0].ok() && shared[2].ok() && shared[3].ok() && shared[5].ok() && shared[6].ok());
  EXPECT_EQ(shared[0]->elapsed_s, shared[2]->elapsed_s);
  EXPECT_EQ(shared[0]->elapsed_s, shared[3]->elapsed_s);
  EXPECT_EQ(ended[0], ended[3]);
  EXPECT_EQ(shared[5]->elapsed_s, shared[6]->elapsed_s);
  EXPECT_NE(shared[0]->elapsed_s, shared[4]->elapsed_s);
  ASSERT_TRUE(shared[9].ok());
  EXPECT_EQ(shared[0]->elapsed_s, shared[9]->elapsed_s) << "another clock, the same uuidv4 keys: one load";
  EXPECT_EQ(shared[9]->spec.stream.rows_per_ms, 7u);
  ASSERT_TRUE(shared[10].ok() && shared[11].ok());
  EXPECT_NE(shared[10]->elapsed_s, shared[11]->elapsed_s) << "key-time reads the clock: two loads";
}

TEST(SharedTreeEquivalenceTest, WhatMayShare) {
  RunSpec a = Spec("uuidv4", 1000, 1000, {{"innodb_buffer_pool_size", "8M"}});
  RunSpec b = Spec("uuidv4", 1000, 5000, {{"innodb_doublewrite", "OFF"}, {"innodb_io_capacity", "500"}});
  RunConfig ca = *ConfigFor(a);
  RunConfig cb = *ConfigFor(b);
  EXPECT_TRUE(MayShareTree(a, ca, b, cb));
  RunSpec c = Spec("uuidv4", 1000, 1000, {{"innodb_segment_reserve_factor", "5"}});
  EXPECT_FALSE(MayShareTree(a, ca, c, *ConfigFor(c)));
  // OPTIMIZE TABLE's fill: the rebuilt tree reads it.
  RunSpec f = Spec("uuidv4", 1000, 1000, {{"innodb_fill_factor", "80"}});
  EXPECT_FALSE(MayShareTree(a, ca, f, *ConfigFor(f)));
  EXPECT_TRUE(absl::StrContains(InnodbSharesTree(ca, *ConfigFor(f)).message(), "innodb_fill_factor"))
      << InnodbSharesTree(ca, *ConfigFor(f));
  RunSpec d = b;
  d.rows = 1001;
  EXPECT_FALSE(MayShareTree(a, ca, d, cb));
  RunSpec e = b;
  e.flush = false;
  EXPECT_FALSE(MayShareTree(a, ca, e, cb));
  RunSpec g = b;
  g.series_every = 100;
  EXPECT_FALSE(MayShareTree(a, ca, g, cb));
  RunSpec m = Spec("uuidv4", 1000, 1000, {}, "mariadb-10.11");
  EXPECT_FALSE(MayShareTree(a, ca, m, *ConfigFor(m)));
  // The synthetic clock: ignored by uuidv4's keys, read by uuidv7's.
  RunSpec h = b;
  h.stream.rows_per_ms = 1;
  h.stream.start_ms += 5;
  EXPECT_TRUE(MayShareTree(a, ca, h, cb));
  RunSpec v7a = Spec("uuidv7-counter", 1000, 1000, {});
  RunSpec v7b = v7a;
  v7b.stream.rows_per_ms = 1;
  EXPECT_FALSE(MayShareTree(v7a, *ConfigFor(v7a), v7b, *ConfigFor(v7b)));
  RunSpec seed = b;
  seed.stream.seed = 6;
  EXPECT_FALSE(MayShareTree(a, ca, seed, cb));
}

}  // namespace
}  // namespace innosim
