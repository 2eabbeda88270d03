// Workloads in phases (sim/phases.h) and OPTIMIZE TABLE's sorted index build
// (model/bulk_load.h, BTree::BulkLoad, Engine::Rebuild).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/bulk_load.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/record_format.h"
#include "sim/experiment.h"
#include "sim/phases.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

constexpr uint32_t kPage = 16384;

// `rows` keys of `stream` into a structure-only engine of seed 000's table.
std::unique_ptr<Engine> Load(const EngineProfile& profile, const std::string& stream, uint64_t rows) {
  auto e = std::make_unique<Engine>(profile, Seed000Table(16), EngineOptions{});
  std::unique_ptr<KeyStream> ks = MakeStream(stream);
  Key k;
  for (uint64_t i = 0; i < rows && ks->Next(&k); ++i) EXPECT_TRUE(e->InsertRow(k).ok());
  return e;
}

// The records on each page of `level`, left to right.
std::vector<int> RecordsOnLevel(const Engine& e, uint32_t level) {
  const PageStore& s = e.page_store();
  uint32_t pn = e.primary().root();
  while (s.page(pn).level() > level) pn = s.page(pn).child(0);
  std::vector<int> n;
  for (; pn != kFilNull; pn = s.page(pn).next()) n.push_back(s.page(pn).n_recs());
  return n;
}

TEST(BulkLoadRule, ReserveIsASixteenthOnClusteredPagesAtFillFactor100) {
  // PageBulk::init: dict_index_get_space_reserve() for a clustered index at
  // innodb_fill_factor 100, else page size x (100 - fill factor) / 100.
  EXPECT_EQ(BulkReservedSpace(kPage, 100, true), 1024u);
  EXPECT_EQ(BulkReservedSpace(kPage, 100, false), 0u);
  EXPECT_EQ(BulkReservedSpace(kPage, 90, true), 1638u);
  EXPECT_EQ(BulkReservedSpace(kPage, 90, false), 1638u);
  // A page stops at the last record that leaves the reserve free.
  const uint32_t rec = ClusteredRecordSizes(Seed000Table(16)).leaf;
  const uint32_t n = BulkRecordsPerPage(rec, kPage, 1024);
  auto left = [&](uint32_t k) {
    return static_cast<int64_t>(FreeSpaceOfEmpty(kPage)) - int64_t{k} * rec - DirReservedSpace(k);
  };
  EXPECT_GE(left(n), 1024);
  EXPECT_LT(left(n + 1), 1024);
  // Without a reserve the page fills up to the last record that fits.
  const uint32_t full = BulkRecordsPerPage(rec, kPage, 0);
  EXPECT_GE(left(full), 0);
  EXPECT_LT(left(full + 1), 0);
  // At least 2 records whatever the reserve ("to avoid B-tree level growing too high").
  EXPECT_EQ(BulkRecordsPerPage(6000, kPage, 8000), 2u);
}

TEST(Optimize, EveryPageButEachLevelsLastHoldsWhatTheRuleAllows) {
  for (const EngineProfile& profile : {EngineProfile::MySQL84(), EngineProfile::MariaDB1011()}) {
    std::unique_ptr<Engine> e = Load(profile, "uuidv4", 300000);
    const uint64_t splits = e->primary().counters().index_page_splits;
    ASSERT_TRUE(e->Rebuild(kDefaultFillFactor).ok());
    EXPECT_EQ(e->Verify(), "");
    EXPECT_EQ(e->rows(), 300000u);
    const BTree& t = e->primary();
    EXPECT_EQ(t.counters().index_page_splits, splits) << "the counters carry over; a bulk build splits nothing";
    ASSERT_GE(t.height(), 3u);
    const RecordSizes sizes = t.record_sizes();
    const uint32_t leaf_n = BulkRecordsPerPage(sizes.leaf, kPage, kPage / 16);
    const uint32_t node_n = BulkRecordsPerPage(sizes.node_ptr, kPage, kPage / 16);
    for (uint32_t level = 0; level + 1 < t.height(); ++level) {
      const std::vector<int> n = RecordsOnLevel(*e, level);
      ASSERT_GT(n.size(), 1u);
      uint64_t total = 0;
      for (size_t i = 0; i + 1 < n.size(); ++i) {
        ASSERT_EQ(n[i], static_cast<int>(level == 0 ? leaf_n : node_n)) << "level " << level << " page " << i;
        total += n[i];
      }
      total += n.back();
      EXPECT_LE(n.back(), static_cast<int>(level == 0 ? leaf_n : node_n));
      // Each level's records are the pages below it (or the rows).
      EXPECT_EQ(total, level == 0 ? 300000u : RecordsOnLevel(*e, level - 1).size());
    }
    // n_leaf_pages is the rows over the records per page, rounded up.
    EXPECT_EQ(t.n_leaf_pages(), (300000 + leaf_n - 1) / leaf_n);
  }
}

TEST(Optimize, AnOptimizedRandomTableIsFilledAsTheSameRowsAppendedInOrder) {
  const EngineProfile profile = EngineProfile::MariaDB1011();
  std::unique_ptr<Engine> random = Load(profile, "uuidv4", 200000);
  std::unique_ptr<Engine> ordered = Load(profile, "uuidv7-counter", 200000);
  const double before = random->Report().primary.leaf_fill;
  ASSERT_TRUE(random->Rebuild(kDefaultFillFactor).ok());
  const EngineReport r = random->Report();
  const EngineReport o = ordered->Report();
  EXPECT_LT(before, 0.8);
  EXPECT_NEAR(r.primary.leaf_fill, o.primary.leaf_fill, 0.01);
  EXPECT_NEAR(static_cast<double>(r.primary.n_leaf_pages), static_cast<double>(o.primary.n_leaf_pages),
              0.01 * o.primary.n_leaf_pages);
}

TEST(Optimize, AnEmptyTableAndASmallOneStayValidAndTakeMoreRows) {
  for (uint64_t rows : {0, 1, 5, 200, 100000}) {
    std::unique_ptr<Engine> e = Load(EngineProfile::MariaDB1011(), "uuidv4", rows);
    ASSERT_TRUE(e->Rebuild(kDefaultFillFactor).ok()) << rows;
    EXPECT_EQ(e->Verify(), "") << rows;
    std::unique_ptr<KeyStream> more = MakeStream("uuidv4", 99);
    Key k;
    for (int i = 0; i < 20000 && more->Next(&k); ++i) ASSERT_TRUE(e->InsertRow(k).ok());
    EXPECT_EQ(e->Verify(), "") << rows;
    uint64_t n = 0;
    e->primary().ForEachKey([&](const Key&) { ++n; });
    EXPECT_EQ(n, rows + 20000);
  }
}

// The speed devices (model/fast/) change no result after a rebuild either:
// a rebuilt uuidv4 table taking more random rows gives the same tree with
// every device off.
TEST(Optimize, TheSpeedDevicesChangeNothingAfterARebuild) {
  std::unique_ptr<Engine> with = Load(EngineProfile::MariaDB1011(), "uuidv4", 100000);
  std::unique_ptr<Engine> without = Load(EngineProfile::MariaDB1011(), "uuidv4", 100000);
  without->set_fast_path(FastPath::Devices{false, false, false, false, false});
  ASSERT_TRUE(with->Rebuild(kDefaultFillFactor).ok());
  ASSERT_TRUE(without->Rebuild(kDefaultFillFactor).ok());
  EXPECT_FALSE(without->primary().fast_path().devices().route_cache) << "the devices survive the rebuild";
  std::unique_ptr<KeyStream> a = MakeStream("uuidv4", 7);
  std::unique_ptr<KeyStream> b = MakeStream("uuidv4", 7);
  Key k;
  for (int i = 0; i < 50000; ++i) {
    ASSERT_TRUE(a->Next(&k));
    with->PrefetchRow(k);
    ASSERT_TRUE(with->InsertRow(k).ok());
    ASSERT_TRUE(b->Next(&k));
    ASSERT_TRUE(without->InsertRow(k).ok());
  }
  EXPECT_EQ(with->Verify(), "");
  EXPECT_EQ(without->Verify(), "");
  const EngineReport x = with->Report();
  const EngineReport y = without->Report();
  EXPECT_EQ(x.primary.counters.index_page_splits, y.primary.counters.index_page_splits);
  EXPECT_EQ(x.primary.counters.index_page_merge_successful, y.primary.counters.index_page_merge_successful);
  EXPECT_EQ(x.primary.n_leaf_pages, y.primary.n_leaf_pages);
  EXPECT_EQ(x.primary.size, y.primary.size);
  ASSERT_EQ(x.primary.levels.size(), y.primary.levels.size());
  for (size_t i = 0; i < x.primary.levels.size(); ++i) {
    EXPECT_EQ(x.primary.levels[i].pages, y.primary.levels[i].pages);
    EXPECT_EQ(x.primary.levels[i].records_histogram, y.primary.levels[i].records_histogram);
  }
}

// Purge (BTree::Purge): every second row of a full, ordered table deleted
// in key order leaves pages under MERGE_THRESHOLD that merge pairwise; the
// tree stays valid, takes more rows, and the speed devices change nothing.
TEST(Purge, EverySecondRowMergesHalfFullPagesAndTheTreeStaysValid) {
  std::unique_ptr<Engine> e = Load(EngineProfile::MariaDB1011(), "uuidv7-counter", 100000);
  std::unique_ptr<Engine> slow = Load(EngineProfile::MariaDB1011(), "uuidv7-counter", 100000);
  slow->set_fast_path(FastPath::Devices{false, false, false, false, false});
  const uint64_t leaves = e->primary().n_leaf_pages();
  for (Engine* x : {e.get(), slow.get()}) {
    std::vector<Key> doomed;
    uint64_t n = 0;
    x->primary().ForEachKey([&](const Key& k) {
      if (++n % 2 == 0) doomed.push_back(k);
    });
    for (const Key& k : doomed) ASSERT_TRUE(x->DeleteRow(k).ok());
    ASSERT_TRUE(x->EndDeletes().ok());
    EXPECT_EQ(x->DeleteRow(doomed[0]).code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(x->Verify(), "");
    EXPECT_EQ(x->rows(), 50000u);
  }
  const IndexCounters& c = e->primary().counters();
  EXPECT_GT(c.index_page_merge_successful, leaves / 3);
  EXPECT_GE(c.index_page_merge_attempts, c.index_page_merge_successful);
  EXPECT_LT(e->primary().n_leaf_pages(), leaves * 6 / 10);
  EXPECT_EQ(c.pages_freed, slow->primary().counters().pages_freed);
  std::unique_ptr<KeyStream> a = MakeStream("uuidv4", 3);
  std::unique_ptr<KeyStream> b = MakeStream("uuidv4", 3);
  Key k;
  for (int i = 0; i < 30000; ++i) {
    ASSERT_TRUE(a->Next(&k));
    ASSERT_TRUE(e->InsertRow(k).ok());
    ASSERT_TRUE(b->Next(&k));
    ASSERT_TRUE(slow->InsertRow(k).ok());
  }
  EXPECT_EQ(e->Verify(), "");
  EXPECT_EQ(e->primary().n_leaf_pages(), slow->primary().n_leaf_pages());
  EXPECT_EQ(e->primary().counters().index_page_splits, slow->primary().counters().index_page_splits);
}

TEST(Purge, DeletingEveryRowLeavesAnEmptyValidRoot) {
  std::unique_ptr<Engine> e = Load(EngineProfile::MySQL84(), "uuidv4", 20000);
  std::vector<Key> all;
  e->primary().ForEachKey([&](const Key& k) { all.push_back(k); });
  for (const Key& k : all) ASSERT_TRUE(e->DeleteRow(k).ok());
  EXPECT_EQ(e->rows(), 0u) << "a deleted row leaves the table at once";
  ASSERT_TRUE(e->EndDeletes().ok());
  EXPECT_EQ(e->Verify(), "");
  uint64_t n = 0;
  e->primary().ForEachKey([&](const Key&) { ++n; });
  EXPECT_EQ(n, 0u);
}

TEST(Phases, ParsesInsertAndOptimizeAndNamesTheMend) {
  absl::StatusOr<PhaseSpec> p = ParsePhase("insert:uuidv7-counter:200k");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, PhaseSpec::Kind::kInsert);
  EXPECT_EQ(p->stream, "uuidv7-counter");
  EXPECT_EQ(p->rows, 200000u);
  p = ParsePhase("insert:file:/tmp/keys.bin:10");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->stream, "file:/tmp/keys.bin");
  EXPECT_EQ(ParsePhase("optimize")->kind, PhaseSpec::Kind::kOptimize);
  for (const char* bad : {"optimise", "insert:uuidv4", "insert:uuidv4:0", "insert::5", "insert:uuidv4:x"}) {
    absl::StatusOr<PhaseSpec> b = ParsePhase(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.status().message().find(bad), std::string::npos) << b.status();
  }
}

RunSpec PhasedSpec() {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 60000;
  spec.profile = "mariadb-10.11";
  spec.flush = false;
  spec.phases = {*ParsePhase("insert:uuidv7-counter:20k"), *ParsePhase("optimize")};
  return spec;
}

TEST(Phases, EveryCounterIsReportedAfterEachPhase) {
  std::string verify = "not run";
  absl::StatusOr<RunResult> r = innosim::Run(PhasedSpec(), [&](const Engine& e) { verify = e.Verify(); });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  ASSERT_EQ(r->phases.size(), 3u);
  EXPECT_EQ(r->phases[0].phase.text, "insert:uuidv4:60000");
  EXPECT_EQ(r->phases[0].report.rows, 60000u);
  EXPECT_EQ(r->phases[1].report.rows, 80000u);
  EXPECT_EQ(r->phases[2].report.rows, 80000u);
  const IndexReport& a = r->phases[0].report.primary;
  const IndexReport& b = r->phases[1].report.primary;
  const IndexReport& c = r->phases[2].report.primary;
  EXPECT_GT(b.counters.index_page_splits, a.counters.index_page_splits);
  EXPECT_EQ(c.counters.index_page_splits, b.counters.index_page_splits);
  EXPECT_LT(c.n_leaf_pages, b.n_leaf_pages);
  EXPECT_GT(c.leaf_fill, 0.9);
  // The top level is the final state.
  EXPECT_EQ(r->report.primary.n_leaf_pages, c.n_leaf_pages);
  const nlohmann::ordered_json j = RunToJson(*r);
  ASSERT_TRUE(j.contains("phases"));
  ASSERT_EQ(j["phases"].size(), 3u);
  EXPECT_EQ(j["phases"][1]["n_leaf_pages"], b.n_leaf_pages);
  EXPECT_EQ(j["n_leaf_pages"], c.n_leaf_pages);
  EXPECT_NE(RunSummary(*r).find("phases ("), std::string::npos);
}

TEST(Phases, APlainRunReportsNoPhases) {
  RunSpec spec = PhasedSpec();
  spec.phases.clear();
  const RunResult r = MustRun(spec);
  EXPECT_TRUE(r.phases.empty());
  EXPECT_FALSE(RunToJson(r).contains("phases"));
  EXPECT_EQ(RunSummary(r).find("phases ("), std::string::npos);
}

TEST(Phases, AStreamOfAnotherKeyWidthIsRefused) {
  RunSpec spec = PhasedSpec();
  spec.phases = {*ParsePhase("insert:autoinc:10")};  // 8-byte keys into a BINARY(16) table
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("insert:autoinc:10"), std::string::npos) << r.status();
}

TEST(Phases, SecondaryIndexesAreRebuiltToo) {
  RunSpec spec = PhasedSpec();
  spec.table = "CREATE TABLE t (id BINARY(16) NOT NULL, a BIGINT NOT NULL, PRIMARY KEY (id), KEY ka (a))";
  spec.columns = {*ParseColumnSource("a=random")};
  std::string verify = "not run";
  absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) { verify = e.Verify(); });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  ASSERT_EQ(r->phases.size(), 3u);
  ASSERT_EQ(r->phases[2].report.secondary.size(), 1u);
  const IndexReport& before = r->phases[1].report.secondary[0];
  const IndexReport& after = r->phases[2].report.secondary[0];
  EXPECT_LT(after.n_leaf_pages, before.n_leaf_pages);
  // innodb_fill_factor 100 keeps no reserve on a secondary index.
  EXPECT_GT(after.leaf_fill, 0.97);
}

TEST(Phases, AnExperimentRunTakesRunPhaseTables) {
  const std::string text =
      "name = \"t\"\n[defaults]\nrows = 30000\nflush = false\nstream = \"uuidv4\"\nprofile = \"mariadb-10.11\"\n"
      "[[run]]\nlabel = \"switch\"\n"
      "[[run.phase]]\nstep = \"insert\"\nstream = \"uuidv7-counter\"\nrows = 10000\n"
      "[[run.phase]]\nstep = \"delete\"\nevery = 4\n"
      "[[run.phase]]\nstep = \"optimize\"\n"
      "[[run.phase]]\nstep = \"delete\"\nphase = 2\n"
      "[[run.phase]]\nstep = \"delete\"\nfrom = 0\nto = 50\n";
  absl::StatusOr<Experiment> e = ParseExperiment(text, "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->runs.size(), 1u);
  ASSERT_EQ(e->runs[0].spec.phases.size(), 5u);
  EXPECT_EQ(e->runs[0].spec.phases[0].text, "insert:uuidv7-counter:10000");
  EXPECT_EQ(e->runs[0].spec.phases[1].text, "delete:every:4");
  EXPECT_EQ(e->runs[0].spec.phases[2].kind, PhaseSpec::Kind::kOptimize);
  EXPECT_EQ(e->runs[0].spec.phases[3].text, "delete:phase:2");
  EXPECT_EQ(e->runs[0].spec.phases[4].text, "delete:range:0:50");
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, 1, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->results.size(), 1u);
  EXPECT_EQ(r->results[0].phases.size(), 6u);
  // 40,000 rows, every fourth gone (30,000), the v7 rows among them gone,
  // then half of what is left.
  EXPECT_EQ(r->results[0].phases[3].report.rows, 30000u);
  EXPECT_LT(r->results[0].phases[4].report.rows, 30000u);
  EXPECT_EQ(r->results[0].report.rows, r->results[0].phases[4].report.rows - r->results[0].phases[4].report.rows / 2);
  // A step that is neither, an insert without its rows and an optimize
  // with rows say what to write.
  for (const char* bad : {"[[run.phase]]\nstep = \"vacuum\"\n", "[[run.phase]]\nstep = \"insert\"\nstream = \"uuidv4\"\n",
                          "[[run.phase]]\nstep = \"optimize\"\nrows = 5\n", "[[run.phase]]\nstep = \"delete\"\n",
                          "[[run.phase]]\nstep = \"delete\"\nevery = 2\nphase = 1\n",
                          "[[run.phase]]\nstep = \"delete\"\nfrom = 10\n",
                          "[[run.phase]]\nstep = \"optimize\"\nphase = 1\n"}) {
    absl::StatusOr<Experiment> b = ParseExperiment(
        "name = \"t\"\n[defaults]\nrows = 10\nflush = false\nstream = \"uuidv4\"\n[[run]]\nlabel = \"x\"\n" +
            std::string(bad),
        "t.toml");
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.status().message().find("t.toml:"), std::string::npos) << b.status();
    EXPECT_NE(b.status().message().find("step"), std::string::npos) << b.status();
  }
}

TEST(Phases, DeleteEveryKthRowIsReportedWithSecondaryIndexesToo) {
  RunSpec spec = PhasedSpec();
  spec.phases = {*ParsePhase("delete:every:3")};
  std::string verify = "not run";
  absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) { verify = e.Verify(); });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  ASSERT_EQ(r->phases.size(), 2u);
  EXPECT_EQ(r->phases[1].report.rows, 40000u);
  EXPECT_EQ(ParsePhase("delete:every:3")->every, 3u);
  EXPECT_FALSE(ParsePhase("delete:every:0").ok());
  // With a secondary index, purge removes each row's entry there too
  // (row_purge_remove_sec_if_poss before the clustered record): both trees
  // stay valid and hold the rows left, and the secondary pages merge.
  spec.table = "CREATE TABLE t (id BINARY(16) NOT NULL, a BIGINT NOT NULL, PRIMARY KEY (id), KEY ka (a))";
  uint64_t secondary_records = 0;
  verify = "not run";
  r = innosim::Run(spec, [&](const Engine& e) {
    verify = e.Verify();
    e.secondary(0).ForEachKey([&](const Key&) { ++secondary_records; });
  });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  EXPECT_EQ(r->phases[1].report.rows, 40000u);
  EXPECT_EQ(secondary_records, 40000u);
  ASSERT_EQ(r->phases[1].report.secondary.size(), 1u);
  EXPECT_GT(r->phases[1].report.secondary[0].counters.index_page_merge_successful, 0u);
}

// innodb_fill_factor (--set, my.cnf, an experiment's [run.set]) reaches
// OPTIMIZE's sorted build: every leaf but the last holds what the rule
// allows at that fill factor; a value outside 10-100 is refused.
TEST(Optimize, TheFillFactorSettingTakesEffect) {
  RunSpec spec = PhasedSpec();
  spec.phases = {*ParsePhase("optimize")};
  const RunResult at100 = MustRun(spec);
  spec.settings = {VariableAssignment{"innodb_fill_factor", "80", "--set"}};
  uint64_t leaf_n = 0;
  std::vector<int> leaves;
  absl::StatusOr<RunResult> at80 = innosim::Run(spec, [&](const Engine& e) {
    leaves = RecordsOnLevel(e, 0);
    leaf_n = BulkRecordsPerPage(e.primary().record_sizes().leaf, kPage, BulkReservedSpace(kPage, 80, true));
  });
  ASSERT_TRUE(at80.ok()) << at80.status();
  ASSERT_GT(leaves.size(), 2u);
  for (size_t i = 0; i + 1 < leaves.size(); ++i) ASSERT_EQ(leaves[i], static_cast<int>(leaf_n)) << i;
  EXPECT_EQ(at80->report.primary.n_leaf_pages, (60000 + leaf_n - 1) / leaf_n);
  EXPECT_GT(at80->report.primary.n_leaf_pages, at100.report.primary.n_leaf_pages);
  EXPECT_LT(at80->report.primary.leaf_fill, 0.81);
  EXPECT_GT(at80->report.primary.leaf_fill, 0.75);
  // Shown among the settings, as one the model reads.
  bool listed = false;
  for (const ServerSettings::Row& row : at80->settings_used) {
    if (row.name == "innodb_fill_factor") listed = row.value == "80" && row.modelled;
  }
  EXPECT_TRUE(listed);
  // Outside 10..100 the value is adjusted into the range, as the server
  // does (my_getopt), with a warning naming the variable.
  for (const auto& [bad, adjusted] : {std::pair{"9", "10"}, std::pair{"101", "100"}, std::pair{"0", "10"}}) {
    spec.settings = {VariableAssignment{"innodb_fill_factor", bad, "--set"}};
    absl::StatusOr<RunResult> r = innosim::Run(spec);
    ASSERT_TRUE(r.ok()) << bad << ": " << r.status();
    bool warned = false;
    for (const std::string& w : r->warnings) warned = warned || w.find("innodb_fill_factor") != std::string::npos;
    EXPECT_TRUE(warned) << bad;
    std::string used;
    for (const ServerSettings::Row& row : r->settings_used) {
      if (row.name == "innodb_fill_factor") used = row.value;
    }
    EXPECT_EQ(used, adjusted) << bad;
  }
}

TEST(Phases, ParsesDeleteOfAPhaseAndOfARange) {
  absl::StatusOr<PhaseSpec> p = ParsePhase("delete:phase:1");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->kind, PhaseSpec::Kind::kDeletePhase);
  EXPECT_EQ(p->of_phase, 1u);
  p = ParsePhase("delete:range:0:50");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->kind, PhaseSpec::Kind::kDeleteRange);
  EXPECT_EQ(p->from_pct, 0u);
  EXPECT_EQ(p->to_pct, 50u);
  EXPECT_TRUE(IsDeletePhase(p->kind));
  EXPECT_FALSE(IsDeletePhase(PhaseSpec::Kind::kOptimize));
  for (const char* bad : {"delete:phase:0", "delete:phase:x", "delete:phase:", "delete:range:50:50",
                          "delete:range:60:40", "delete:range:0:101", "delete:range:0", "delete:range:-1:5",
                          "delete:range:a:5", "delete:range:0:5:7"}) {
    absl::StatusOr<PhaseSpec> b = ParsePhase(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_NE(b.status().message().find(bad), std::string::npos) << b.status();
  }
  // floor(rows * pct / 100), also where rows * pct would overflow.
  uint64_t first = 0;
  uint64_t last = 0;
  DeleteRangeRanks(*ParsePhase("delete:range:1:99"), 1999, &first, &last);
  EXPECT_EQ(first, 19u);
  EXPECT_EQ(last, 1979u);
  DeleteRangeRanks(*ParsePhase("delete:range:0:100"), UINT64_MAX, &first, &last);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, UINT64_MAX);
}

// Seed 002's switch: UUIDv4 rows, then UUIDv7 rows, then DELETE of the v4
// rows. What is left is exactly the second phase's rows.
TEST(Phases, DeleteOfAPhaseLeavesTheOtherPhasesRows) {
  RunSpec spec = PhasedSpec();
  spec.rows = 30000;
  spec.phases = {*ParsePhase("insert:uuidv7-counter:10k"), *ParsePhase("delete:phase:1")};
  std::string verify = "not run";
  uint64_t v4 = 0;
  uint64_t v7 = 0;
  absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
    verify = e.Verify();
    e.primary().ForEachKey([&](const Key& k) {
      // The version nibble: the high four bits of byte 6 (of hi's eight).
      const uint64_t version = (k.hi >> 12) & 0xF;
      v4 += version == 4;
      v7 += version == 7;
    });
  });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  EXPECT_EQ(v4, 0u);
  EXPECT_EQ(v7, 10000u);
  ASSERT_EQ(r->phases.size(), 3u);
  EXPECT_EQ(r->phases[2].phase.text, "delete:phase:1");
  EXPECT_EQ(r->phases[2].report.rows, 10000u);
  EXPECT_GT(r->phases[2].report.primary.counters.index_page_merge_successful, 0u);
  EXPECT_LT(r->phases[2].report.primary.n_leaf_pages, r->phases[1].report.primary.n_leaf_pages / 3);
  // Deleting the second phase instead leaves the first phase's 30,000 rows;
  // deleting phase 1 twice deletes nothing the second time.
  spec.phases = {*ParsePhase("insert:uuidv7-counter:10k"), *ParsePhase("delete:phase:2")};
  EXPECT_EQ(MustRun(spec).report.rows, 30000u);
  spec.phases = {*ParsePhase("insert:uuidv7-counter:10k"), *ParsePhase("delete:phase:1"),
                 *ParsePhase("delete:phase:1")};
  const RunResult twice = MustRun(spec);
  EXPECT_EQ(twice.report.rows, 10000u);
  EXPECT_EQ(twice.phases[3].report.primary.n_leaf_pages, twice.phases[2].report.primary.n_leaf_pages);
  // A phase that is not an insert before it is refused, naming the phase.
  for (const std::vector<const char*>& bad :
       {std::vector<const char*>{"delete:phase:2"}, {"optimize", "delete:phase:2"}, {"delete:phase:3"},
        {"insert:uuidv7-counter:10", "delete:phase:3"}}) {
    spec.phases.clear();
    for (const char* t : bad) spec.phases.push_back(*ParsePhase(t));
    absl::StatusOr<RunResult> b = innosim::Run(spec);
    ASSERT_FALSE(b.ok()) << bad.back();
    EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(b.status().message().find(bad.back()), std::string::npos) << b.status();
  }
}

// delete:range:F:T deletes the rows ranked [F%, T%) in key order: the keys
// left are those below the first and from the last rank on.
TEST(Phases, DeleteOfARangeTakesThoseRanksInKeyOrder) {
  RunSpec spec = PhasedSpec();
  spec.rows = 20000;
  spec.phases.clear();
  std::vector<Key> before;
  ASSERT_TRUE(innosim::Run(spec, [&](const Engine& e) { e.primary().ForEachKey([&](const Key& k) { before.push_back(k); }); }).ok());
  ASSERT_EQ(before.size(), 20000u);
  spec.phases = {*ParsePhase("delete:range:25:60")};
  std::vector<Key> after;
  std::string verify = "not run";
  absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
    verify = e.Verify();
    e.primary().ForEachKey([&](const Key& k) { after.push_back(k); });
  });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(verify, "");
  std::vector<Key> expected(before.begin(), before.begin() + 5000);
  expected.insert(expected.end(), before.begin() + 12000, before.end());
  EXPECT_EQ(after, expected);
  EXPECT_EQ(r->report.rows, 13000u);
}

// btr_lift_page_up: purging all but the last rows of a three-level tree
// leaves levels with a single page, which btr_compress lifts into their
// father (counted as merges) and btr_discard_page lifts into a root left
// with one node pointer: the tree loses its levels as it empties.
TEST(Purge, TheOnlyPageOfALevelIsLiftedUp) {
  std::unique_ptr<Engine> e = Load(EngineProfile::MariaDB1011(), "uuidv4", 200000);
  ASSERT_EQ(e->primary().height(), 3u);
  std::vector<Key> all;
  e->primary().ForEachKey([&](const Key& k) { all.push_back(k); });
  // Down to 1%: a two-level tree (the leaf level no longer fills a
  // node-pointer level of more than one page).
  const size_t keep = all.size() / 100;
  for (size_t i = 0; i + keep < all.size(); ++i) ASSERT_TRUE(e->DeleteRow(all[i]).ok());
  ASSERT_TRUE(e->EndDeletes().ok());
  EXPECT_EQ(e->Verify(), "");
  EXPECT_EQ(e->primary().height(), 2u);
  EXPECT_EQ(e->rows(), keep);
  // Down to one row: a lone root leaf, the leaf segment empty.
  for (size_t i = all.size() - keep; i + 1 < all.size(); ++i) ASSERT_TRUE(e->DeleteRow(all[i]).ok());
  ASSERT_TRUE(e->EndDeletes().ok());
  EXPECT_EQ(e->Verify(), "");
  EXPECT_EQ(e->primary().height(), 1u);
  EXPECT_EQ(e->page_store().page(e->primary().root()).n_recs(), 1);
  EXPECT_EQ(e->primary().leaf_segment().used, 0u);
  const IndexCounters& c = e->primary().counters();
  EXPECT_EQ(e->primary().top_segment().used, 1u) << c.pages_allocated << " " << c.pages_freed;  // the root alone
  // The last row goes; the tree takes rows again.
  ASSERT_TRUE(e->DeleteRow(all.back()).ok());
  ASSERT_TRUE(e->EndDeletes().ok());
  std::unique_ptr<KeyStream> ks = MakeStream("uuidv4", 9);
  Key k;
  for (int i = 0; i < 20000 && ks->Next(&k); ++i) ASSERT_TRUE(e->InsertRow(k).ok());
  EXPECT_EQ(e->Verify(), "");
  EXPECT_EQ(e->primary().height(), 2u);
}

// CHECKPOINT, then rows: the dirty pages after the next phase are the
// pages those rows dirtied (seed 002's measure). Random keys touch a leaf
// per row; ordered keys the few pages at the right edge.
TEST(Phases, CheckpointWritesEveryDirtyPageAndTheNextRowsDirtyTheirOwn) {
  auto after = [](const std::string& stream) {
    RunSpec spec;
    spec.stream.name = stream;
    spec.rows = 200000;
    spec.phases = {*ParsePhase("checkpoint"), *ParsePhase(absl::StrCat("insert:", stream, ":5000"))};
    absl::StatusOr<RunResult> r = innosim::Run(spec);
    EXPECT_TRUE(r.ok()) << r.status();
    return *r;
  };
  const RunResult v4 = after("uuidv4");
  const RunResult v7 = after("uuidv7-counter");
  const RunResult inc = after("autoinc");  // its second phase goes on from 200,001
  for (const RunResult* r : {&v4, &v7, &inc}) {
    ASSERT_EQ(r->phases.size(), 3u);
    EXPECT_EQ(r->phases[1].dirty_pages, 0u);
    EXPECT_EQ(r->phases[1].flush.Innodb_pages_written,
              r->phases[0].flush.Innodb_pages_written + r->phases[0].dirty_pages);
    EXPECT_LE(r->phases[2].table_dirty_pages, r->phases[2].dirty_pages);
    EXPECT_EQ(r->phases[2].report.rows, 205000u);
  }
  EXPECT_GT(v4.phases[2].table_dirty_pages, 10 * v7.phases[2].table_dirty_pages);
  EXPECT_GT(v4.phases[2].table_dirty_pages, 10 * inc.phases[2].table_dirty_pages);
  const nlohmann::ordered_json j = RunToJson(v4);
  EXPECT_EQ(j["phases"][2]["Innodb_buffer_pool_pages_dirty"], v4.phases[2].dirty_pages);

  RunSpec structure;
  structure.stream.name = "uuidv4";
  structure.rows = 1000;
  structure.flush = false;
  structure.phases = {*ParsePhase("checkpoint")};
  absl::StatusOr<RunResult> refused = innosim::Run(structure);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--no-flush"), std::string::npos);
}

}  // namespace
}  // namespace innosim
