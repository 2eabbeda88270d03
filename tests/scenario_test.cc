// Learners' scenarios (experiments/scenarios/*.toml, sim/scenario.h): each
// file's checks hold on what innosim shows, and a check that does not hold
// is reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/explain.h"
#include "sim/scenario.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ScenarioFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(INNOSIM_SOURCE_DIR) / "experiments" / "scenarios")) {
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ScenarioTest, EveryScenarioShowsWhatItSays) {
  const std::vector<std::string> files = ScenarioFiles();
  ASSERT_GE(files.size(), 6u);
  for (const std::string& f : files) {
    absl::StatusOr<Scenario> s = LoadScenario(f);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_FALSE(s->see.empty()) << f;
    const bool checks = !s->alone_on_page.empty() || !s->decisions.empty() || s->frozen_mean_fill_below ||
                        s->frozen_mean_fill_at_least || s->sparse_fill;
    EXPECT_TRUE(checks) << f << " checks nothing";
    absl::StatusOr<ExplainResult> r = Explain(s->spec);
    ASSERT_TRUE(r.ok()) << f << ": " << r.status();
    const std::vector<std::string> failed = CheckScenario(*s, *r);
    EXPECT_TRUE(failed.empty()) << f << ": " << (failed.empty() ? "" : failed[0]);
  }
}

// The checks can fail: the ascending keys put no key alone on a page, never
// split to the left, and freeze their pages full.
TEST(ScenarioTest, AFalseClaimIsReported) {
  absl::StatusOr<Scenario> s =
      LoadScenario((fs::path(INNOSIM_SOURCE_DIR) / "experiments" / "scenarios" / "ascending.toml").string());
  ASSERT_TRUE(s.ok()) << s.status();
  s->alone_on_page = {Key::FromU64(100)};
  s->decisions = {"split to the left"};
  s->frozen_mean_fill_below = 0.5;
  absl::StatusOr<ExplainResult> r = Explain(s->spec);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(CheckScenario(*s, *r).size(), 3u);
}

TEST(ScenarioTest, ErrorsNameTheFileAndLine) {
  const std::string path = (fs::temp_directory_path() / "innosim_bad_scenario.toml").string();
  std::ofstream(path) << "title = \"x\"\nsee = \"y\"\nkeys = \"1,2\"\n[expect]\nfroze_mean_fill_below = 0.5\n";
  absl::StatusOr<Scenario> s = LoadScenario(path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find(path + ":5:"), std::string::npos) << s.status();
  EXPECT_NE(s.status().message().find("frozen_mean_fill_below"), std::string::npos) << s.status();  // did you mean
  std::remove(path.c_str());
}

TEST(ScenarioCliTest, ExitCodeOneWhenACheckFails) {
  const Output ok = RunInnosim(
      {"explain", "--scenario", std::string(INNOSIM_SOURCE_DIR) + "/experiments/scenarios/large-rows-gap.toml"},
      "/tmp/innosim_scenario_err.txt");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("check: innosim shows what the scenario says"), std::string::npos);
  const std::string path = (fs::temp_directory_path() / "innosim_false_scenario.toml").string();
  std::ofstream(path)
      << "title = \"x\"\nsee = \"y\"\nkeys = \"1,2,3\"\n[expect]\ndecisions = [\"split to the left\"]\n";
  const Output bad = RunInnosim({"explain", "--scenario", path}, "/tmp/innosim_scenario_err2.txt");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("check FAILED: no insert was 'split to the left'"), std::string::npos) << bad.out;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace innosim
