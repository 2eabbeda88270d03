// Integration tests of `innosim measure` and `innosim ibd` as a user runs
// them: the built binary (INNOSIM_BINARY) as a subprocess against a private
// mariadbd (tools/private_server.h) started once for the suite with seed
// 000's InnoDB settings and a 128 MiB buffer pool. No mocks.
//
// For each of uuidv4, uuidv7-random, uuidv7-counter and autoinc at 200,000
// rows: every sanity check passes, and the simulation with the
// mariadb-10.11 profile agrees with the server within 2% on
// index_page_splits, n_leaf_pages and size, and with the .ibd file's census
// of PRIMARY on the page count of every level.
//
// If mariadbd is not installed every test FAILS saying to install
// mariadb-server; nothing is skipped.
#include <stdio.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/private_server.h"
#include "tests/innosim_process.h"
#include "tests/private_server_suite.h"

namespace innosim {
namespace {

double RelErr(double simulated, double measured) {
  if (measured == 0) return simulated == 0 ? 0 : INFINITY;
  return std::fabs(simulated - measured) / measured;
}

class MeasureCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = StartSuiteServer(128ull << 20, start_error_);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr) << NoServerMessage(*start_error_);
  }

  // innosim measure ... --json into table `table`; the parsed JSON.
  static nlohmann::json Measure(const std::string& stream, const std::string& rows, const std::string& table,
                                int* exit_code) {
    Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", stream,
                           "--rows", rows, "--table", table, "--json", "--datadir", server_->datadir()},
                          server_->dir() + "/measure.err");
    *exit_code = o.exit_code;
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1)
        << "innosim measure failed (" << o.exit_code << "): " << o.err;
    if (o.out.empty()) return nlohmann::json();
    return nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
  }

  static void ExpectAgreement(const std::string& stream) {
    int code = -1;
    std::string table = "cli_" + stream;
    for (char& c : table) c = (c == '-') ? '_' : c;
    const nlohmann::json j = Measure(stream, "200000", table, &code);
    ASSERT_TRUE(j.is_object()) << "innosim measure printed no JSON object";

    // Sanity checks (seed 000, 5.5).
    ASSERT_TRUE(j.contains("sanity"));
    for (const auto& [name, verdict] : j["sanity"].items()) {
      EXPECT_EQ(verdict, "pass") << stream << ": sanity check " << name;
    }
    EXPECT_EQ(j["valid"], true) << stream;
    EXPECT_EQ(j["missing_counters"].size(), 0u) << stream;
    EXPECT_NE(j["server"]["version"].get<std::string>().find("MariaDB"), std::string::npos);
    EXPECT_EQ(j["simulated"]["profile"], "mariadb-10.11");
    EXPECT_EQ(j["simulated"]["stream"], stream);
    EXPECT_EQ(j["simulated"]["rows"], 200000);
    EXPECT_EQ(j["measured"]["rows"], 200000);

    // Structural metrics within 2%.
    for (const char* m : {"index_page_splits", "n_leaf_pages", "size"}) {
      const double sim = j["simulated"][m].get<double>();
      const double meas = j["measured"][m].get<double>();
      EXPECT_LE(RelErr(sim, meas), 0.02) << stream << " " << m << ": simulated " << sim << ", measured " << meas;
    }
    EXPECT_EQ(code, 0) << stream << ": exit code 1 means a structural metric is outside --tolerance";

    // The .ibd census of PRIMARY, level by level, within 2% of the simulation.
    ASSERT_TRUE(j["ibd"].is_object()) << stream << ": the .ibd file was not read: " << j["notes"];
    EXPECT_EQ(j["ibd"]["page_size"], 16384);
    EXPECT_EQ(j["ibd"]["height"], j["simulated"]["height"]) << stream;
    ASSERT_GE(j["ibd"]["levels"].size(), 2u);
    for (const auto& l : j["ibd"]["levels"]) {
      ASSERT_TRUE(l["simulated"].is_object() && l["measured"].is_object())
          << stream << ": level " << l["level"] << " exists on one side only";
      const double sim = l["simulated"]["pages"].get<double>();
      const double meas = l["measured"]["pages"].get<double>();
      EXPECT_LE(RelErr(sim, meas), 0.02) << stream << " level " << l["level"] << " pages: simulated " << sim
                                         << ", .ibd " << meas;
    }
    // Mean leaf fill within 2 percentage points.
    EXPECT_LE(std::fabs(j["ibd"]["leaf_fill_difference_points"].get<double>()), 2.0) << stream;
  }

  static PrivateServer* server_;
  static std::string* start_error_;
};

PrivateServer* MeasureCliTest::server_ = nullptr;
std::string* MeasureCliTest::start_error_ = new std::string;

TEST_F(MeasureCliTest, Uuidv4AgreesWithMariaDB) { ExpectAgreement("uuidv4"); }
TEST_F(MeasureCliTest, Uuidv7RandomAgreesWithMariaDB) { ExpectAgreement("uuidv7-random"); }
TEST_F(MeasureCliTest, Uuidv7CounterAgreesWithMariaDB) { ExpectAgreement("uuidv7-counter"); }
TEST_F(MeasureCliTest, AutoincAgreesWithMariaDB) { ExpectAgreement("autoinc"); }

TEST_F(MeasureCliTest, TextOutputIsOneTable) {
  Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "autoinc",
                         "--rows", "5000", "--table", "cli_text"},
                        server_->dir() + "/text.err");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("index_page_splits"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("rel.error"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("valid: yes"), std::string::npos) << o.out;
  // The server's @@datadir is local: the .ibd census is read without --datadir.
  EXPECT_NE(o.out.find("page census of PRIMARY"), std::string::npos) << o.out;
  // stderr is not a terminal here: no progress bar.
  EXPECT_EQ(o.err.find("loading ["), std::string::npos) << o.err;
}

TEST_F(MeasureCliTest, IbdPrintsTheCensusAsJson) {
  int code = -1;
  nlohmann::json m = Measure("autoinc", "20000", "cli_ibd", &code);
  ASSERT_TRUE(m.is_object());
  const std::string file = server_->datadir() + "/innosim/cli_ibd.ibd";
  const std::string svg = server_->dir() + "/map.svg";
  Output o = RunInnosim({"ibd", file, "--json", "--svg", svg}, server_->dir() + "/ibd.err");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << o.out;
  EXPECT_EQ(j["page_size"], 16384);
  ASSERT_EQ(j["indexes"].size(), 1u);
  const auto& levels = j["indexes"][0]["levels"];
  ASSERT_GE(levels.size(), 1u);
  EXPECT_EQ(levels[0]["level"], 0);
  EXPECT_EQ(levels[0]["records"], 20000);
  EXPECT_EQ(levels[0]["pages"], m["measured"]["n_leaf_pages"]);
  FILE* f = std::fopen(svg.c_str(), "r");
  ASSERT_NE(f, nullptr) << "--svg wrote nothing";
  char head[6] = {};
  EXPECT_EQ(std::fread(head, 1, 5, f), 5u);
  std::fclose(f);
  EXPECT_TRUE(std::string(head) == "<svg " || std::string(head) == "<?xml") << head;

  // The text form: census and page map.
  o = RunInnosim({"ibd", file}, server_->dir() + "/ibd.err");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("page map"), std::string::npos) << o.out;
}

TEST_F(MeasureCliTest, BadFileIsOneLineAndExit2) {
  Output o = RunInnosim({"ibd", server_->dir() + "/no-such.ibd"}, server_->dir() + "/bad.err");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(o.out.empty());
  ASSERT_FALSE(o.err.empty());
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
}

TEST_F(MeasureCliTest, UnreachableServerIsOneLineAndExit3) {
  Output o = RunInnosim({"measure", "--socket", "/tmp/innosim-no-such-dir/sock", "--user", "root", "--stream",
                         "autoinc", "--rows", "10"},
                        server_->dir() + "/unreach.err");
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_NE(o.err.find("server unreachable"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
}

TEST_F(MeasureCliTest, NoPasswordOptionOnTheCommandLine) {
  Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--password", "x", "--stream", "autoinc",
                         "--rows", "10"},
                        server_->dir() + "/pw.err");
  EXPECT_EQ(o.exit_code, 2) << o.err;
}

}  // namespace
}  // namespace innosim
