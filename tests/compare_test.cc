// sim/compare.h: the one simulated-vs-reference comparison, and its use by
// `experiment` where a published figure is 0.
#include "sim/compare.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "sim/experiment.h"

namespace innosim {
namespace {

TEST(CompareTest, RelativeErrorOfANonZeroReference) {
  EXPECT_DOUBLE_EQ(RelativeError(110, 100), 0.10);
  EXPECT_DOUBLE_EQ(RelativeError(90, 100), -0.10);
  EXPECT_DOUBLE_EQ(RelativeError(0, 100), -1.0);
  EXPECT_TRUE(WithinTolerance(RelativeError(101, 100), 0.01 + 1e-12));
  EXPECT_FALSE(WithinTolerance(RelativeError(103, 100), 0.02));
  EXPECT_EQ(FormatRelativeError(RelativeError(101, 100)), "+1.00%");
  EXPECT_EQ(FormatRelativeError(RelativeError(95, 100)), "-5.00%");
}

TEST(CompareTest, AReferenceOfZero) {
  // Both 0: the figures agree.
  EXPECT_EQ(RelativeError(0, 0), 0.0);
  EXPECT_TRUE(WithinTolerance(RelativeError(0, 0), 0.01));
  // Only the reference 0: no relative bound holds.
  EXPECT_TRUE(std::isinf(RelativeError(5, 0)));
  EXPECT_FALSE(WithinTolerance(RelativeError(5, 0), 0.99));
  EXPECT_EQ(FormatRelativeError(RelativeError(5, 0)), "n/a");
}

TEST(CompareTest, ANaNReferenceIsWithinNoTolerance) {
  EXPECT_FALSE(WithinTolerance(RelativeError(5, std::nan("")), 0.5));
}

// An experiment publishing 0 for a figure innosim simulates as non-zero
// misses it (it used to count as a relative error of 0, within any bound).
TEST(CompareTest, ExperimentMissesAPublishedZero) {
  absl::StatusOr<Experiment> e = ParseExperiment(
      "name = \"t\"\n[defaults]\nrows = 2000\nflush = false\nstream = \"uuidv4\"\n[[run]]\nlabel = \"a\"\n"
      "[run.published]\nindex_page_splits = 0\nindex_page_reorg_attempts = 0\n"
      "[run.tolerance]\nindex_page_splits = 0.5\nindex_page_reorg_attempts = 0.5\n",
      "t.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, 1, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->rows.size(), 2u);
  auto row = [&](const std::string& metric) {
    for (const ComparisonRow& c : r->rows) {
      if (c.metric == metric) return c;
    }
    ADD_FAILURE() << "no row " << metric;
    return ComparisonRow{};
  };
  const ComparisonRow splits = row("index_page_splits");
  ASSERT_GT(splits.simulated, 0) << ExperimentTable(*r);  // 2000 random UUIDs split pages
  EXPECT_FALSE(splits.ok);
  EXPECT_FALSE(r->all_ok);
  EXPECT_NE(ExperimentTable(*r).find("n/a  MISS"), std::string::npos) << ExperimentTable(*r);
  // A published 0 that innosim also gives is met.
  const ComparisonRow reorgs = row("index_page_reorg_attempts");
  ASSERT_EQ(reorgs.simulated, 0);
  EXPECT_TRUE(reorgs.ok);
}

}  // namespace
}  // namespace innosim
