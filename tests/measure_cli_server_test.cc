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
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <map>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/private_server.h"
#include "tools/server_connection.h"
#include "tests/innosim_process.h"
#include "tests/private_server_suite.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

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
                                int* exit_code, const std::vector<std::string>& more = {}) {
    std::vector<std::string> args = {"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", stream,
                                     "--rows", rows, "--table-name", table, "--json", "--datadir", server_->datadir()};
    args.insert(args.end(), more.begin(), more.end());
    Output o = RunInnosim(args, server_->dir() + "/measure.err");
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
      EXPECT_LE(std::fabs(RelativeError(sim, meas)), 0.02) << stream << " " << m << ": simulated " << sim << ", measured " << meas;
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
      EXPECT_LE(std::fabs(RelativeError(sim, meas)), 0.02) << stream << " level " << l["level"] << " pages: simulated " << sim
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

// An INT AUTO_INCREMENT key: the autoinc stream takes the table's 4-byte
// key, as `run` does (BindStreamToTable); measure once refused it ("use
// BIGINT for this stream"). The tree agrees with the server's to 2%.
TEST_F(MeasureCliTest, AutoincIntoAnIntKeyAgreesWithMariaDB) {
  int code = -1;
  const nlohmann::json j = Measure(
      "autoinc", "200000", "cli_autoinc_int", &code,
      {"--table", "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, payload CHAR(100) NOT NULL, "
                  "created BIGINT NOT NULL) ENGINE=InnoDB"});
  ASSERT_TRUE(j.is_object()) << "innosim measure printed no JSON object";
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["measured"]["rows"], 200000);
  for (const char* m : {"index_page_splits", "n_leaf_pages", "size"}) {
    const double sim = j["simulated"][m].get<double>();
    const double meas = j["measured"][m].get<double>();
    EXPECT_LE(std::fabs(RelativeError(sim, meas)), 0.02) << m << ": simulated " << sim << ", measured " << meas;
  }
  // 4-byte keys: more rows per leaf than the BIGINT table's, so fewer leaves.
  int bigint_code = -1;
  const nlohmann::json big = Measure("autoinc", "200000", "cli_autoinc_bigint", &bigint_code,
                                     {"--table", "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
                                                 "payload CHAR(100) NOT NULL, created BIGINT NOT NULL) ENGINE=InnoDB"});
  ASSERT_TRUE(big.is_object());
  EXPECT_LT(j["simulated"]["n_leaf_pages"].get<double>(), big["simulated"]["n_leaf_pages"].get<double>());
  EXPECT_LT(j["measured"]["n_leaf_pages"].get<double>(), big["measured"]["n_leaf_pages"].get<double>());
  EXPECT_EQ(code, 0);
}

TEST_F(MeasureCliTest, TextOutputIsOneTable) {
  Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "autoinc",
                         "--rows", "5000", "--table-name", "cli_text"},
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

// ---- Exit codes, names, and the server's settings on every way out.

// A connection of the test itself to the suite's server.
std::unique_ptr<ServerConnection> Admin(const PrivateServer& server) {
  ConnectionOptions co;
  co.socket = server.socket_path();
  co.user = "root";
  absl::StatusOr<std::unique_ptr<ServerConnection>> c = ServerConnection::Connect(co);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *std::move(c) : nullptr;
}

std::string Global(ServerConnection& c, const std::string& name) {
  absl::StatusOr<std::string> v = c.QueryString("SELECT @@GLOBAL." + name);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : "";
}

std::string MonitorEnabled(ServerConnection& c, const std::string& counter) {
  absl::StatusOr<std::string> v =
      c.QueryString("SELECT ENABLED FROM information_schema.INNODB_METRICS WHERE NAME='" + counter + "'");
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : "";
}

// The globals measure may change, as the server reports them.
std::map<std::string, std::string> FlushGlobals(ServerConnection& c) {
  std::map<std::string, std::string> m;
  for (const char* n : {"innodb_io_capacity", "innodb_io_capacity_max", "innodb_max_dirty_pages_pct",
                        "innodb_max_dirty_pages_pct_lwm"}) {
    m[n] = Global(c, n);
  }
  return m;
}

// Polls `ready` every 20 ms; false if it never held within `limit` (a hang
// guard, not a timing assertion).
template <typename F>
bool WaitFor(F ready, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST_F(MeasureCliTest, InvalidRunExitsOne) {
  // innodb_flush_log_at_trx_commit=1 fails the seed-000 setting check: the run is not valid.
  std::unique_ptr<ServerConnection> admin = Admin(*server_);
  ASSERT_NE(admin, nullptr);
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_flush_log_at_trx_commit=1").ok());
  Output text = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "autoinc",
                            "--rows", "2000", "--table-name", "cli_invalid", "--tolerance", "100"},
                           server_->dir() + "/invalid.err");
  Output json = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "autoinc",
                            "--rows", "2000", "--table-name", "cli_invalid", "--tolerance", "100", "--json"},
                           server_->dir() + "/invalid.err");
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_flush_log_at_trx_commit=2").ok());
  EXPECT_NE(text.out.find("valid: NO"), std::string::npos) << text.out << text.err;
  EXPECT_EQ(text.exit_code, 1) << text.err;
  nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << json.out << json.err;
  EXPECT_EQ(j["valid"], false);
  EXPECT_EQ(j["within_tolerance"], true);
  EXPECT_EQ(json.exit_code, 1) << json.err;
}

// SIGINT while measure waits for the final flush: every global it boosted,
// and the counter it turned on, are back to their values before the run.
TEST_F(MeasureCliTest, SigintDuringTheFinalFlushPutsTheSettingsBack) {
  std::unique_ptr<ServerConnection> admin = Admin(*server_);
  ASSERT_NE(admin, nullptr);
  // Values of our own, so "back" cannot be a coincidence with a default.
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity_max=2500").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity=250").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=61").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm=7").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_monitor_disable='index_page_splits'").ok());
  const std::map<std::string, std::string> before = FlushGlobals(*admin);
  const std::string splits_before = MonitorEnabled(*admin, "index_page_splits");
  ASSERT_EQ(splits_before, "0");

  // --flush-io-capacity 100 drains the dirty pages of 200,000 random keys
  // at about 100 pages a second: the wait lasts long enough to be caught.
  const std::string out = server_->dir() + "/sigint.out", err = server_->dir() + "/sigint.err";
  const pid_t pid = SpawnInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream",
                                  "uuidv4", "--rows", "200000", "--table-name", "cli_sigint", "--flush-io-capacity",
                                  "100", "--no-ibd"},
                                 out, err);
  ASSERT_GT(pid, 0);
  // The boost is on (max_dirty_pages_pct = 0) and pages are still dirty: measure is in the wait.
  const bool in_wait = WaitFor([&] {
    absl::StatusOr<std::string> pct = admin->QueryString("SELECT @@GLOBAL.innodb_max_dirty_pages_pct");
    absl::StatusOr<std::map<std::string, std::string>> dirty =
        admin->QueryMap("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    return pct.ok() && std::stod(*pct) == 0 && dirty.ok() && std::stoll((*dirty)["Innodb_buffer_pool_pages_dirty"]) > 0;
  });
  if (!in_wait) ::kill(pid, SIGKILL);
  ASSERT_TRUE(in_wait) << "measure never reached the final flush wait: " << ReadWholeFile(err);
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int code = WaitInnosim(pid);
  const std::string e = ReadWholeFile(err);
  EXPECT_EQ(code, 130) << e;
  EXPECT_NE(e.find("SIGINT"), std::string::npos) << e;
  EXPECT_NE(e.find("final flush"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), e.size() - 1) << e;
  EXPECT_EQ(FlushGlobals(*admin), before);
  EXPECT_EQ(MonitorEnabled(*admin, "index_page_splits"), splits_before);

  // Back to the suite's settings.
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity=200").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity_max=2000").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=90").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm=0").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_monitor_enable='index_page_splits'").ok());
}

// SIGTERM while measure loads: the counter it turned on is off again, exit 143.
TEST_F(MeasureCliTest, SigtermDuringTheLoadPutsTheSettingsBack) {
  std::unique_ptr<ServerConnection> admin = Admin(*server_);
  ASSERT_NE(admin, nullptr);
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_monitor_disable='index_page_merge_attempts'").ok());
  const std::map<std::string, std::string> before = FlushGlobals(*admin);
  const std::string out = server_->dir() + "/sigterm.out", err = server_->dir() + "/sigterm.err";
  const pid_t pid = SpawnInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream",
                                  "autoinc", "--rows", "5M", "--table-name", "cli_sigterm", "--no-ibd"},
                                 out, err);
  ASSERT_GT(pid, 0);
  // Rows arrive: measure is loading (and has turned the counter on).
  const bool loading = WaitFor([&] {
    absl::StatusOr<std::string> n =
        admin->QueryString("SELECT COUNT(*) FROM (SELECT 1 FROM innosim.cli_sigterm LIMIT 1) AS x");
    return n.ok() && *n == "1" && MonitorEnabled(*admin, "index_page_merge_attempts") == "1";
  });
  if (!loading) ::kill(pid, SIGKILL);
  ASSERT_TRUE(loading) << "measure never started loading: " << ReadWholeFile(err);
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  const int code = WaitInnosim(pid);
  const std::string e = ReadWholeFile(err);
  EXPECT_EQ(code, 143) << e;
  EXPECT_NE(e.find("while loading"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), e.size() - 1) << e;
  EXPECT_EQ(MonitorEnabled(*admin, "index_page_merge_attempts"), "0");
  EXPECT_EQ(FlushGlobals(*admin), before);
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_monitor_enable='index_page_merge_attempts'").ok());
}

// ---- innosim ibd on real files: truncated, copied while dirty, flushed.

TEST_F(MeasureCliTest, IbdRefusesACopyShorterThanItsFspSize) {
  int code = -1;
  nlohmann::json m = Measure("autoinc", "20000", "cli_trunc", &code);
  ASSERT_TRUE(m.is_object());
  const std::string file = server_->datadir() + "/innosim/cli_trunc.ibd";
  const std::string copy = server_->dir() + "/trunc.ibd";
  {
    std::ifstream in(file, std::ios::binary);
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    std::vector<char> two_pages(2 * 16384);
    ASSERT_TRUE(in.read(two_pages.data(), two_pages.size())) << file;
    out.write(two_pages.data(), two_pages.size());
  }
  Output o = RunInnosim({"ibd", copy}, server_->dir() + "/trunc.err");
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("truncated: FSP_SIZE on page 0 is"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("the file has 2 pages (32768 bytes)"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  // --force: the census of the two pages there are, flagged.
  o = RunInnosim({"ibd", copy, "--force"}, server_->dir() + "/trunc.err");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("warning: truncated"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("shorter than its FSP_SIZE"), std::string::npos) << o.err;
  // The whole file is fine.
  o = RunInnosim({"ibd", file, "--json"}, server_->dir() + "/trunc.err");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << o.out;
  EXPECT_EQ(j["consistent"], true) << j["unflushed"];
  EXPECT_EQ(j["n_pages"], j["fsp_size"]);
}

// A copy taken while the table's pages are dirty is refused; the same file
// once the dirty pages reached 0 is read without a warning.
TEST_F(MeasureCliTest, IbdRefusesACopyTakenWhilePagesAreDirty) {
  std::unique_ptr<ServerConnection> admin = Admin(*server_);
  ASSERT_NE(admin, nullptr);
  auto dirty = [&]() -> int64_t {
    absl::StatusOr<std::map<std::string, std::string>> d =
        admin->QueryMap("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    return d.ok() ? std::stoll((*d)["Innodb_buffer_pool_pages_dirty"]) : -1;
  };
  // Keep the page cleaner idle: flush only above 90% dirty, at 100 pages/s.
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=90").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm=0").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity=100").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity_max=100").ok());
  ASSERT_TRUE(admin->Execute("CREATE DATABASE IF NOT EXISTS innosim").ok());
  ASSERT_TRUE(admin->Execute("DROP TABLE IF EXISTS innosim.cli_dirty").ok());
  ASSERT_TRUE(admin->Execute("CREATE TABLE innosim.cli_dirty (id BINARY(16) NOT NULL PRIMARY KEY, payload "
                             "CHAR(100) CHARACTER SET ascii NOT NULL, created BIGINT NOT NULL) ENGINE=InnoDB")
                  .ok());
  absl::Status load = admin->Execute(
      "INSERT INTO innosim.cli_dirty SELECT UNHEX(MD5(seq)), REPEAT('x', 100), seq FROM innosim.seq_1_to_30000");
  ASSERT_TRUE(load.ok()) << load;
  const std::string file = server_->datadir() + "/innosim/cli_dirty.ibd";
  const std::string copy = server_->dir() + "/dirty.ibd";
  const int64_t dirty_before = dirty();
  std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing);
  const int64_t dirty_after = dirty();
  ASSERT_GT(dirty_before, 0);
  ASSERT_GT(dirty_after, 0) << "the pages were flushed before the copy ended";

  Output o = RunInnosim({"ibd", copy}, server_->dir() + "/dirty.err");
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("not a consistent image"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("Innodb_buffer_pool_pages_dirty"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("FOR EXPORT"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;

  // Part of the pages written (page 0 among them, it is among the oldest
  // dirty pages): still refused.
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=0").ok());
  ASSERT_TRUE(WaitFor([&] { return dirty() < dirty_before / 2; }));
  std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing);
  const int64_t dirty_partial = dirty();
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=90").ok());
  ASSERT_GT(dirty_partial, 0) << "the pages were flushed before the copy ended";
  {
    std::ifstream in(copy, std::ios::binary);
    std::vector<char> page0(16384);
    ASSERT_TRUE(in.read(page0.data(), page0.size()));
    ASSERT_TRUE(std::any_of(page0.begin(), page0.end(), [](char c) { return c != 0; }))
        << "page 0 not written yet: not the partly flushed file this step is about";
  }
  o = RunInnosim({"ibd", copy}, server_->dir() + "/dirty.err");
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  EXPECT_NE(o.err.find("not a consistent image"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("FOR EXPORT"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  // --force: a census all the same, with the warning.
  o = RunInnosim({"ibd", copy, "--force"}, server_->dir() + "/dirty.err");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("warning: not a consistent image"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("innosim: warning:"), std::string::npos) << o.err;

  // Flush everything, then the file itself is consistent.
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity_max=20000").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity=20000").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=0").ok());
  ASSERT_TRUE(WaitFor([&] { return dirty() == 0; })) << "dirty pages never reached 0";
  o = RunInnosim({"ibd", file, "--json"}, server_->dir() + "/dirty.err");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << o.out;
  EXPECT_EQ(j["consistent"], true) << j["unflushed"];
  EXPECT_EQ(j["indexes"][0]["levels"][0]["records"], 30000);

  ASSERT_TRUE(admin->Execute("DROP TABLE innosim.cli_dirty").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity=200").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_io_capacity_max=2000").ok());
  ASSERT_TRUE(admin->Execute("SET GLOBAL innodb_max_dirty_pages_pct=90").ok());
}

// ---- --series: the server's counters once a second beside the simulated series.

// The CSV's data rows of one source, each as its fields after `source`.
std::vector<std::vector<std::string>> SeriesRows(const std::string& csv, const std::string& source) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream ls(line);
    std::string f;
    while (std::getline(ls, f, ',')) fields.push_back(f);
    if (line.back() == ',') fields.push_back("");
    if (!fields.empty() && fields[0] == source) rows.emplace_back(fields.begin() + 1, fields.end());
  }
  return rows;
}

TEST_F(MeasureCliTest, SeriesPutsTheServersCountersBesideTheSimulation) {
  const std::string csv_path = server_->dir() + "/series.csv";
  // 200,000 rows in INSERTs of 200 take a few seconds here: a few samples.
  Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "uuidv4",
                         "--rows", "200000", "--batch", "200", "--table-name", "cli_series", "--json", "--series",
                         csv_path},
                        server_->dir() + "/series.err");
  ASSERT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
  const std::string csv = ReadWholeFile(csv_path);
  ASSERT_EQ(csv.substr(0, csv.find('\n')),
            "source,rows,seconds,lsn,checkpoint_age,dirty_pages,pages_written,buffer_pool_reads");
  const auto server = SeriesRows(csv, "server");
  const auto simulated = SeriesRows(csv, "simulated");
  ASSERT_GE(server.size(), 2u) << "the load took under a second: " << csv;
  ASSERT_GE(simulated.size(), 1u) << csv;
  // Columns: rows, seconds, lsn, checkpoint_age, dirty_pages, pages_written, buffer_pool_reads.
  EXPECT_EQ(server[0][0], "0") << "the first sample is read before the first INSERT";
  for (size_t i = 0; i < server.size(); ++i) {
    ASSERT_EQ(server[i].size(), 7u) << csv;
    // MariaDB 10.11 reports the LSN and the checkpoint age in SHOW GLOBAL STATUS.
    EXPECT_FALSE(server[i][2].empty()) << "no lsn in row " << i;
    EXPECT_FALSE(server[i][3].empty()) << "no checkpoint_age in row " << i;
    if (i == 0) continue;
    EXPECT_GT(std::stoll(server[i][0]), std::stoll(server[i - 1][0])) << "rows, row " << i;
    EXPECT_GE(std::stod(server[i][1]), 1.0 * i) << "a sample per second at most, row " << i;
    EXPECT_GT(std::stoll(server[i][2]), std::stoll(server[i - 1][2])) << "lsn, row " << i;
    EXPECT_GE(std::stoll(server[i][5]), std::stoll(server[i - 1][5])) << "pages_written, row " << i;
  }
  EXPECT_LE(std::stoll(server.back()[0]), 200000);
  EXPECT_GT(std::stoll(server.back()[4]), 0) << "no dirty pages during a random-key load";
  for (size_t i = 1; i < simulated.size(); ++i) {
    EXPECT_GT(std::stoll(simulated[i][0]), std::stoll(simulated[i - 1][0])) << "simulated rows, row " << i;
  }
  EXPECT_LE(std::stoll(simulated.back()[0]), 200000);
}

TEST_F(MeasureCliTest, BadSeriesPathFailsBeforeLoading) {
  Output o = RunInnosim({"measure", "--socket", server_->socket_path(), "--user", "root", "--stream", "autoinc",
                         "--rows", "5000", "--table-name", "cli_series_bad", "--series",
                         "/tmp/innosim-no-such-dir/series.csv"},
                        server_->dir() + "/series_bad.err");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(o.out.empty()) << o.out;
  EXPECT_NE(o.err.find("--series"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  std::unique_ptr<ServerConnection> admin = Admin(*server_);
  ASSERT_NE(admin, nullptr);
  absl::StatusOr<std::string> n = admin->QueryString(
      "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='innosim' AND TABLE_NAME='cli_series_bad'");
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, "0") << "the table was created although --series could not be written";
}

}  // namespace
}  // namespace innosim

namespace innosim {
namespace {

// A server whose character_set_server is utf8mb4 (as Debian's packaged
// my.cnf sets it): a CHAR(36) key with no CHARACTER SET is utf8mb4 there
// (variable length, a length byte), and measure hands the server's
// character_set_server / collation_server to the simulation, which then
// agrees within 2% (with the profile's latin1 it would be 1.6% short of
// leaves).
TEST(MeasureServerCharsetTest, ACharKeyTakesTheServersDefaultCharacterSet) {
  const std::string err = std::filesystem::temp_directory_path() / "innosim-measure-charset.err";
  Output o = RunInnosim({"measure", "--private-server", "--set", "character_set_server=utf8mb4", "--set",
                         "collation_server=utf8mb4_general_ci", "--stream", "uuidv4", "--rows", "100k", "--table",
                         "CREATE TABLE t (id CHAR(36) NOT NULL PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii "
                         "NOT NULL, created BIGINT NOT NULL)",
                         "--no-ibd", "--json"},
                        err);
  ASSERT_EQ(o.exit_code, 0) << o.out.substr(0, 2000);
  const nlohmann::json j = nlohmann::json::parse(o.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(j.is_object()) << o.out.substr(0, 2000);
  EXPECT_NE(j["simulated"]["table"].get<std::string>().find("CHAR(36) CHARACTER SET utf8mb4"), std::string::npos)
      << j["simulated"]["table"];
  for (const char* name : {"index_page_splits", "n_leaf_pages", "size"}) {
    const double e = j["comparison"][name]["relative_error"].get<double>();
    std::printf("%s: simulated %lld, measured %lld (%+.2f%%)\n", name,
                static_cast<long long>(j["comparison"][name]["simulated"].get<int64_t>()),
                static_cast<long long>(j["comparison"][name]["measured"].get<int64_t>()), 100 * e);
    EXPECT_LE(std::fabs(e), 0.02) << name;
  }
}

}  // namespace
}  // namespace innosim
