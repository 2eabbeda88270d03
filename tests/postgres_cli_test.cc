// The command line with a PostgreSQL profile: run and sweep report
// pgstatindex's figures; what the PostgreSQL engine cannot draw or record
// (--page-map, --series, sweep --svg) is refused in one line before any
// work, not written empty.
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

Output Innosim(const std::string& args) {
  return RunInnosim(absl::StrSplit(args, ' ', absl::SkipEmpty()),
                    "/tmp/innosim_pg_cli_test_" + std::to_string(getpid()) + ".err");
}

TEST(PostgresCliTest, RunJsonCarriesTheIndexUnderItsName) {
  const Output o = Innosim("run --profile postgresql-15 --stream uuidv4 --rows 20k --table seed000 --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["engine"], "postgresql");
  EXPECT_EQ(j["profile"], "postgresql-15");
  ASSERT_EQ(j["indexes"].size(), 1u);
  EXPECT_GT(j["indexes"][0]["leaf_pages"].get<int>(), 0);
  EXPECT_GT(j["heap"]["relpages"].get<int>(), 0);
}

TEST(PostgresCliTest, SweepShowsTheEnginesFigures) {
  const Output o =
      Innosim("sweep --profile postgresql-15 --stream uuidv7-subms --rows 20k --rows-per-ms 1,1000 --table seed000 --quiet");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::vector<std::string> lines = absl::StrSplit(o.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u) << o.out;
  EXPECT_NE(lines[0].find("leaf_pages"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("avg_leaf_density"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("index_page_splits"), std::string::npos) << lines[0];
  // Not a row of zeros: the leaves of 20,000 keys.
  const std::vector<std::string> cells = absl::StrSplit(lines[1], ' ', absl::SkipEmpty());
  ASSERT_GE(cells.size(), 2u);
  EXPECT_EQ(cells[0], "1");
  EXPECT_GT(std::stoi(cells[1]), 10);
}

TEST(PostgresCliTest, WhatItCannotDrawIsRefusedBeforeTheRun) {
  const std::string dir = "/tmp/innosim_pg_cli_" + std::to_string(getpid());
  const char* cases[] = {"--page-map", "--series"};
  for (const char* option : cases) {
    const std::string path = dir + "-out";
    const Output o = Innosim("run --profile postgresql-18 --stream uuidv4 --rows 1000 --table seed000 " +
                             std::string(option) + " " + path);
    EXPECT_EQ(o.exit_code, 2) << option;
    EXPECT_NE(o.err.find(option), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << option << " wrote " << path;
  }
  const Output o = Innosim("sweep --profile postgresql-18 --stream uuidv4 --rows 1000 --rows-per-ms 1,2 --table "
                           "seed000 --svg " + dir + ".svg");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--svg"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace innosim
