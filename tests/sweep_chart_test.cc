// The sweep chart (sim/sweep_chart.h; `sweep --svg`, `experiment --svg`):
// one point per run in rate order in both panels, published points where an
// experiment gives them, and the experiment's sweep found among its runs.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "sim/experiment.h"
#include "sim/sweep_chart.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// The x of each simulated point of the first panel, in drawing order.
std::vector<double> PointXs(const std::string& svg) {
  std::vector<double> xs;
  const std::regex circle("<circle cx=\"([0-9.]+)\" cy=\"[0-9.]+\" r=\"3.5\" fill=\"#1e88e5\"><title>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator(); ++it) {
    xs.push_back(std::stod((*it)[1].str()));
  }
  return xs;
}

TEST(SweepChartTest, EveryPointInBothPanelsInRateOrder) {
  const std::vector<SweepPoint> sim = {{50, 0.57, 2.88e9}, {250, 0.59, 2.76e9}, {1000, 0.64, 2.56e9}};
  const std::vector<SweepPoint> pub = {{50, std::nullopt, 2.88e9}, {1000, std::nullopt, 2.56e9}};
  const std::string svg = SweepChartSvg("t", sim, pub);
  const std::vector<double> xs = PointXs(svg);
  ASSERT_EQ(xs.size(), 6u);  // three points, two panels
  EXPECT_LT(xs[0], xs[1]);
  EXPECT_LT(xs[1], xs[2]);
  EXPECT_EQ(Count(svg, "<title>published"), 2);  // data_length only: no published fill
  EXPECT_NE(svg.find(">leaf fill<"), std::string::npos);
  EXPECT_NE(svg.find(">DATA_LENGTH<"), std::string::npos);
  EXPECT_NE(svg.find("2.880 GB"), std::string::npos);
  EXPECT_NE(svg.find("57.000%"), std::string::npos);
  EXPECT_EQ(Count(SweepChartSvg("t", sim, {}), "<title>published"), 0);
}

TEST(SweepChartTest, TheExperimentsSweepIsItsRunsOfOneStreamAtThreeRatesOrMore) {
  absl::StatusOr<Experiment> e = LoadExperiment(INNOSIM_SOURCE_DIR "/experiments/seed000.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, 0, 20000);
  ASSERT_TRUE(r.ok()) << r.status();
  std::string title;
  std::vector<SweepPoint> sim, pub;
  ASSERT_TRUE(ExperimentSweep(*r, &title, &sim, &pub));
  EXPECT_NE(title.find("uuidv7-random"), std::string::npos);
  ASSERT_EQ(sim.size(), 6u);  // 50, 110, 250, 482, 524, 1000 (482 listed twice: one point)
  EXPECT_EQ(sim.front().rows_per_ms, 50);
  EXPECT_EQ(sim.back().rows_per_ms, 1000);
  ASSERT_EQ(pub.size(), 6u);
  EXPECT_DOUBLE_EQ(*pub.front().data_length, 2.88e9);
  // A metric only shown (show = [...]) is NaN among the published figures:
  // no published point.
  ExperimentResult shown = *r;
  for (ExperimentRun& run : shown.experiment.runs) {
    for (auto& [metric, value] : run.published) value = std::nan("");
    run.published.push_back({"leaf_fill", std::nan("")});
  }
  std::vector<SweepPoint> shown_sim, shown_pub;
  ASSERT_TRUE(ExperimentSweep(shown, &title, &shown_sim, &shown_pub));
  EXPECT_EQ(shown_sim.size(), 6u);
  EXPECT_TRUE(shown_pub.empty());
  // Two rates are no sweep.
  ExperimentResult two = *r;
  two.results.resize(2);
  EXPECT_FALSE(ExperimentSweep(two, &title, &sim, &pub));
}

TEST(SweepChartCliTest, SweepWritesTheChartAndRefusesABadPathFirst) {
  const std::string path = "/tmp/innosim_sweep_chart_test.svg";
  std::remove(path.c_str());
  const Output ok = RunInnosim({"sweep", "--stream", "uuidv7-random", "--rows", "20k", "--rows-per-ms", "50,200,800",
                                "--no-flush", "--svg", path},
                               "/tmp/innosim_sweep_chart_err.txt");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(PointXs(ReadWholeFile(path)).size(), 6u);
  std::remove(path.c_str());
  const Output bad = RunInnosim({"sweep", "--stream", "uuidv7-random", "--rows", "20k", "--svg", "/nonexistent/a.svg"},
                                "/tmp/innosim_sweep_chart_err2.txt");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.out.empty());  // refused before any run printed its table
  EXPECT_NE(bad.err.find("--svg"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace innosim
