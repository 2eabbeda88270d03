// Phase prefixes in experiments (RunExperiments, PhasePrefixSources): a run
// whose phases are the first ones of another's takes its figures from that
// run's phase record, and those figures equal the ones of the run
// simulated on its own.
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/experiment.h"

namespace innosim {
namespace {

// Seed 002's switch, small: 20,000 UUIDv4 rows, then 5,000 UUIDv7 rows, a
// DELETE of the first phase's rows with its VACUUM, a REINDEX; each step a
// run of its own, as the experiment file has them. `show` the figures of
// the tree and the heap, and with `wal` a WAL figure too.
std::string SwitchExperiment(const std::string& profile, bool wal) {
  std::string show = "show = [\"leaf_pages\", \"avg_leaf_density\", \"internal_pages\", \"relpages\", "
                     "\"heap_relpages\", \"heap_pg_relation_size\", \"rows\", \"deleted_pages\", "
                     "\"tree_level\", \"leaf_splits\", \"t_pkey.leaf_pages\", \"leaf_fragmentation\"";
  show += wal ? ", \"wal_bytes\"]\n" : "]\n";
  const std::string insert = "[[run.phase]]\nstep = \"insert\"\nstream = \"uuidv7-subms\"\nrows = 5000\n";
  const std::string del = "[[run.phase]]\nstep = \"delete\"\nphase = 1\n";
  const std::string optimize = "[[run.phase]]\nstep = \"optimize\"\n";
  const std::string table = "table = \"CREATE TABLE t (id uuid PRIMARY KEY)\"\n";
  return "name = \"switch\"\n[defaults]\nprofile = \"" + profile + "\"\nrows = 20000\nrows_per_ms = 181\nstream = \"uuidv4\"\n" +
         table + show + "[[run]]\nlabel = \"v4\"\n" + "[[run]]\nlabel = \"v4 -> v7\"\n" + insert +
         "[[run]]\nlabel = \"delete\"\n" + insert + del + "[[run]]\nlabel = \"reindex\"\n" + insert + del + optimize +
         // Not a prefix: its second phase differs.
         "[[run]]\nlabel = \"other\"\n" + insert + optimize;
}

// Runs `e` with phase prefixes taken from the longer runs and with every
// run simulated, expects every figure equal, and gives the first way's
// rows (`rows` of them).
void ExpectTheSameFiguresBothWays(const Experiment& e, size_t rows, std::vector<ComparisonRow>* shared_rows) {
  absl::StatusOr<std::vector<ExperimentResult>> shared = RunExperiments({e}, 2, std::nullopt, true);
  absl::StatusOr<std::vector<ExperimentResult>> alone = RunExperiments({e}, 2, std::nullopt, false);
  ASSERT_TRUE(shared.ok()) << shared.status();
  ASSERT_TRUE(alone.ok()) << alone.status();
  const std::vector<ComparisonRow>& a = shared->front().rows;
  const std::vector<ComparisonRow>& b = alone->front().rows;
  ASSERT_EQ(a.size(), rows);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].label, b[i].label);
    EXPECT_EQ(a[i].metric, b[i].metric);
    EXPECT_EQ(a[i].simulated, b[i].simulated) << a[i].label << " " << a[i].metric;
  }
  *shared_rows = a;
}

TEST(PhasePrefixTest, ThePrefixesOfAPostgresqlRunTakeItsRecords) {
  absl::StatusOr<Experiment> e = ParseExperiment(SwitchExperiment("postgresql-18", false), "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  const ExperimentPlan plan = PlanExperiment(*e, std::nullopt);
  ASSERT_EQ(plan.distinct.size(), 5u);
  // The first three from the fourth (the longest), the fourth and the
  // fifth on their own.
  EXPECT_EQ(PhasePrefixSources(plan.distinct, ShownMetrics(plan)), (std::vector<size_t>{3, 3, 3, 3, 4}));
}

TEST(PhasePrefixTest, AFigureTheRunsEndChangesIsSimulated) {
  // The WAL: the run's end writes its last commit record.
  absl::StatusOr<Experiment> pg = ParseExperiment(SwitchExperiment("postgresql-18", true), "t.toml");
  ASSERT_TRUE(pg.ok()) << pg.status();
  const ExperimentPlan plan = PlanExperiment(*pg, std::nullopt);
  EXPECT_EQ(PhasePrefixSources(plan.distinct, ShownMetrics(plan)), (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(PhasePrefixTest, TheFiguresEqualThoseOfTheRunsSimulatedAlone) {
  absl::StatusOr<Experiment> e = ParseExperiment(SwitchExperiment("postgresql-15", false), "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  std::vector<ComparisonRow> a;
  ASSERT_NO_FATAL_FAILURE(ExpectTheSameFiguresBothWays(*e, 5u * 12u, &a));
  // The phases changed the tree between the prefixes: equal figures are not
  // one record read four times.
  auto leaf_pages = [&](const std::string& label) {
    for (const ComparisonRow& r : a) {
      if (r.label == label && r.metric == "leaf_pages") return r.simulated;
    }
    return -1.0;
  };
  EXPECT_LT(leaf_pages("v4"), leaf_pages("v4 -> v7"));
  EXPECT_GT(leaf_pages("v4 -> v7"), leaf_pages("reindex"));
}

// The switch on InnoDB (seed 002's InnoDB file), with the flush model on or
// off.
std::string InnodbSwitch(bool flush) {
  std::string text = SwitchExperiment("mariadb-10.11", false);
  const size_t show = text.find("show = ");
  text.replace(show, text.find('\n', show) - show,
               "show = [\"n_leaf_pages\", \"leaf_fill\", \"size\", \"index_page_splits\", \"data_length\", "
               "\"height\", \"rows\"]" + std::string(flush ? "" : "\nflush = false"));
  const size_t table = text.find("table = ");
  text.replace(table, text.find('\n', table) - table,
               "table = \"CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY) ENGINE=InnoDB\"");
  return text;
}

TEST(PhasePrefixTest, InnodbRunsWithoutTheFlushModelTakeTheRecordsToo) {
  absl::StatusOr<Experiment> e = ParseExperiment(InnodbSwitch(false), "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  const ExperimentPlan plan = PlanExperiment(*e, std::nullopt);
  EXPECT_EQ(PhasePrefixSources(plan.distinct, ShownMetrics(plan)), (std::vector<size_t>{3, 3, 3, 3, 4}));
  std::vector<ComparisonRow> a;
  ASSERT_NO_FATAL_FAILURE(ExpectTheSameFiguresBothWays(*e, 5u * 7u, &a));
}

TEST(PhasePrefixTest, InnodbRunsWithTheFlushModelAreSimulatedAlone) {
  // Their end commits, purges and flushes.
  absl::StatusOr<Experiment> e = ParseExperiment(InnodbSwitch(true), "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  const ExperimentPlan plan = PlanExperiment(*e, std::nullopt);
  EXPECT_EQ(PhasePrefixSources(plan.distinct, ShownMetrics(plan)), (std::vector<size_t>{0, 1, 2, 3, 4}));
}

}  // namespace
}  // namespace innosim
