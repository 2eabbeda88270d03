// ParseExperiment: whole-number fields take TOML integers only. toml++'s
// value<int64_t>() converted floats (undefined behaviour out of range, found
// by tests/fuzz/experiment_fuzzer) and booleans (`rows = true` ran 1 row).
#include "sim/experiment.h"

#include <string>

#include "gtest/gtest.h"

namespace innosim {
namespace {

// A one-run experiment with `line` in its [[run]] table.
absl::StatusOr<Experiment> ParseWithRunLine(const std::string& line) {
  return ParseExperiment("name = \"x\"\n[[run]]\nstream = \"uuidv4\"\nrows = 1000\n" + line + "\n",
                         "t.toml");
}

std::string ErrorOf(const std::string& line) {
  absl::StatusOr<Experiment> e = ParseWithRunLine(line);
  return e.ok() ? std::string("(accepted)") : std::string(e.status().message());
}

TEST(ExperimentParseTest, IntegersAreAccepted) {
  absl::StatusOr<Experiment> e = ParseWithRunLine("seed = 7\npage_size = 4096\npayload_bytes = 50\nbatch = 10");
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->runs.size(), 1u);
  EXPECT_EQ(e->runs[0].spec.rows, 1000u);
  EXPECT_EQ(e->runs[0].spec.stream.seed, 7u);
  EXPECT_EQ(e->runs[0].spec.page_size, 4096u);
  EXPECT_EQ(e->runs[0].spec.payload_bytes, 50u);
  EXPECT_EQ(e->runs[0].spec.trx_rows, 10u);
}

TEST(ExperimentParseTest, CountsMustBeWholeNumbers) {
  // In [defaults], which every run inherits.
  auto error = [](const std::string& kv) {
    absl::StatusOr<Experiment> e =
        ParseExperiment("name = \"x\"\n[defaults]\n" + kv + "\n[[run]]\nstream = \"uuidv4\"\n", "t.toml");
    return e.ok() ? std::string("(accepted)") : std::string(e.status().message());
  };
  EXPECT_NE(error("rows = true").find("rows must be a whole number"), std::string::npos) << error("rows = true");
  EXPECT_NE(error("rows = 1e30").find("rows must be a whole number"), std::string::npos) << error("rows = 1e30");
  EXPECT_NE(error("rows = 2.5").find("rows must be a whole number"), std::string::npos);
  EXPECT_NE(error("rows_per_ms = 1e300").find("rows_per_ms must be a whole number"), std::string::npos);
  EXPECT_NE(error("batch = false").find("batch must be a whole number"), std::string::npos);
  EXPECT_EQ(error("rows = \"10M\"\nrows_per_ms = 482"), "(accepted)");
}

TEST(ExperimentParseTest, SeedPageSizeAndPayloadMustBeWholeNumbers) {
  EXPECT_NE(ErrorOf("seed = 1.5").find("seed must be a whole number"), std::string::npos) << ErrorOf("seed = 1.5");
  EXPECT_NE(ErrorOf("seed = 1e30").find("seed must be a whole number"), std::string::npos);
  EXPECT_NE(ErrorOf("page_size = 4096.0").find("page_size must be a whole number"), std::string::npos)
      << ErrorOf("page_size = 4096.0");
  EXPECT_NE(ErrorOf("payload_bytes = true").find("payload_bytes must be a whole number"), std::string::npos)
      << ErrorOf("payload_bytes = true");
  EXPECT_NE(ErrorOf("payload_bytes = 1e30").find("payload_bytes must be a whole number"), std::string::npos);
}

TEST(ExperimentParseTest, ThePublishedExperimentsStillLoad) {
  for (const char* name : {"seed000", "seed004"}) {
    absl::StatusOr<Experiment> e =
        LoadExperiment(std::string(INNOSIM_SOURCE_DIR) + "/experiments/" + name + ".toml");
    ASSERT_TRUE(e.ok()) << name << ": " << e.status();
    EXPECT_FALSE(e->runs.empty()) << name;
  }
}

}  // namespace
}  // namespace innosim
