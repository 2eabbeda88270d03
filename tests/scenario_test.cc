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
  ASSERT_GE(files.size(), 8u);
  for (const std::string& f : files) {
    absl::StatusOr<Scenario> s = LoadScenario(f);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_FALSE(s->see.empty()) << f;
    const bool checks = !s->alone_on_page.empty() || !s->decisions.empty() || s->frozen_mean_fill_below ||
                        s->frozen_mean_fill_at_least || s->sparse_fill || s->garbage_leaves > 0;
    EXPECT_TRUE(checks) << f << " checks nothing";
    absl::StatusOr<ExplainResult> r = Explain(s->spec);
    ASSERT_TRUE(r.ok()) << f << ": " << r.status();
    const std::vector<std::string> failed = CheckScenario(*s, *r);
    EXPECT_TRUE(failed.empty()) << f << ": " << (failed.empty() ? "" : failed[0]);
  }
}

// The checks can fail: the ascending keys put no key alone on a page, never
// split to the left, freeze their pages full (none sparse), and leave
// garbage on one leaf only.
TEST(ScenarioTest, AFalseClaimIsReported) {
  absl::StatusOr<Scenario> s =
      LoadScenario((fs::path(INNOSIM_SOURCE_DIR) / "experiments" / "scenarios" / "ascending.toml").string());
  ASSERT_TRUE(s.ok()) << s.status();
  s->alone_on_page = {Key::FromU64(100)};
  s->decisions = {"split to the left"};
  s->frozen_mean_fill_below = 0.5;
  s->sparse_fill = 0.2;
  s->sparse_leaves = 2;
  // Only the first leaf keeps garbage: the upper half the root raise's
  // middle split moved away.
  s->garbage_bytes = 1000;
  s->garbage_leaves = 2;
  absl::StatusOr<ExplainResult> r = Explain(s->spec);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<std::string> failed = CheckScenario(*s, *r);
  ASSERT_EQ(failed.size(), 5u);
  EXPECT_EQ(failed[4], "1 leaves end with at least 1000 bytes of PAGE_GARBAGE, fewer than 2");
}

Scenario MustLoad(const std::string& name) {
  absl::StatusOr<Scenario> s =
      LoadScenario((fs::path(INNOSIM_SOURCE_DIR) / "experiments" / "scenarios" / name).string());
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : Scenario{};
}

std::vector<std::string> Failed(const Scenario& s) {
  absl::StatusOr<ExplainResult> r = Explain(s.spec);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? CheckScenario(s, *r) : std::vector<std::string>{"explain failed"};
}

// The two bug scenarios' checks hold because of the pattern: without it the
// same rows show none of the pathology.
TEST(ScenarioTest, TheBugPatternsAreWhatTheChecksSee) {
  // #110412 without the decreasing pairs: the same random keys, no split
  // to the left and no sparse leaf.
  Scenario pair = MustLoad("decreasing-pair.toml");
  ASSERT_GT(pair.spec.keys.size(), 94u);
  EXPECT_TRUE(Failed(pair).empty());
  std::vector<Key> random_only(pair.spec.keys.begin(), pair.spec.keys.begin() + 94);  // appends, then 26 random
  for (size_t i = 94; i < pair.spec.keys.size(); i += 3) random_only.push_back(pair.spec.keys[i]);
  pair.spec.keys = random_only;
  const std::vector<std::string> pair_failed = Failed(pair);
  ASSERT_EQ(pair_failed.size(), 3u) << (pair_failed.empty() ? "" : pair_failed[0]);
  EXPECT_EQ(pair_failed[0], "no insert was 'split to the left'");
  // #113733 without the larger ids first: the copy alone appends, leaving
  // no record alone, no keep-one split and no garbage behind.
  Scenario copy = MustLoad("gh-ost-copy.toml");
  EXPECT_TRUE(Failed(copy).empty());
  std::vector<Key> ascending;
  for (uint64_t k = 1; k <= 42; ++k) ascending.push_back(Key::FromU64(k));
  copy.spec.keys = ascending;
  const std::vector<std::string> copy_failed = Failed(copy);
  ASSERT_EQ(copy_failed.size(), 4u) << (copy_failed.empty() ? "" : copy_failed[0]);
  EXPECT_NE(copy_failed[3].find("PAGE_GARBAGE"), std::string::npos) << copy_failed[3];
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
