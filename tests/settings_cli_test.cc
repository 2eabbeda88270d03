// Every setting a user gives takes effect or is refused, as the user meets
// it on the command line: every setting that is accepted takes effect. Each test drives the built innosim binary.
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

std::string ErrFile() { return "/tmp/innosim_settings_cli_test_" + std::to_string(getpid()) + ".err"; }

Output Innosim(const std::vector<std::string>& args) { return RunInnosim(args, ErrFile()); }
Output Innosim(const std::string& args) { return Innosim(std::vector<std::string>(absl::StrSplit(args, ' ', absl::SkipEmpty()))); }

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// The run's JSON; fails the test when the run did not succeed.
nlohmann::json Json(const std::string& args) {
  const Output o = Innosim(args + " --json");
  EXPECT_EQ(o.exit_code, 0) << args << ": " << o.err;
  if (o.exit_code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(o.out);
}

void ExpectOneLineError(const Output& o, const std::string& what, const std::string& needle) {
  EXPECT_EQ(o.exit_code, 2) << what << ": " << o.err;
  EXPECT_EQ(Lines(o.err), 1) << what << ": " << o.err;
  EXPECT_EQ(o.err.rfind("innosim: ", 0), 0u) << what << ": " << o.err;
  EXPECT_NE(o.err.find(needle), std::string::npos) << what << ": " << o.err;
  EXPECT_TRUE(o.out.empty()) << what << " printed a result: " << o.out;
}

constexpr const char* kSmall = "run --stream uuidv4 --rows 20k --seed 3";

TEST(SettingsCliTest, InnodbPageSizeFromSetAndDefaultsFileTakesEffect) {
  const nlohmann::json base = Json(kSmall);
  const nlohmann::json set = Json(std::string(kSmall) + " --set innodb_page_size=8192");
  EXPECT_EQ(set["page_size"], 8192);
  EXPECT_EQ(set["settings"]["innodb_page_size"], "8192");
  EXPECT_EQ(set["settings_origin"]["innodb_page_size"], "--set");
  // Half-size pages hold about half the rows: many more leaves.
  EXPECT_GT(set["n_leaf_pages"].get<int>(), base["n_leaf_pages"].get<int>() * 3 / 2);

  const std::string cnf = "/tmp/innosim_settings_cli_test_" + std::to_string(getpid()) + ".cnf";
  std::ofstream(cnf) << "[mysqld]\n# page size\ninnodb_page_size = 8k\n";
  const nlohmann::json file = Json(std::string(kSmall) + " --defaults-file " + cnf);
  EXPECT_EQ(file["page_size"], 8192);
  EXPECT_EQ(file["n_leaf_pages"], set["n_leaf_pages"]);
  EXPECT_EQ(file["settings_origin"]["innodb_page_size"], cnf + ":3");
  // The command line's --page-size overrides the file, as mysqld's does.
  EXPECT_EQ(Json(std::string(kSmall) + " --defaults-file " + cnf + " --page-size 4k")["page_size"], 4096);
  std::remove(cnf.c_str());
}

TEST(SettingsCliTest, PageSizeIsAServerSizeAndConflictsAreErrors) {
  EXPECT_EQ(Json(std::string(kSmall) + " --page-size 4k")["page_size"], 4096);
  EXPECT_EQ(Json(std::string(kSmall) + " --page-size 16K")["page_size"], 16384);
  EXPECT_EQ(Json(std::string(kSmall) + " --page-size 65536")["page_size"], 65536);
  ExpectOneLineError(Innosim(std::string(kSmall) + " --page-size 4000"), "--page-size 4000", "4k, 8k, 16k");
  ExpectOneLineError(Innosim(std::string(kSmall) + " --page-size 4k --set innodb_page_size=8192"), "conflict",
                     "disagree");
  ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_page_size=5000"), "--set innodb_page_size=5000",
                     "4k, 8k, 16k");
  // The same value twice is no conflict.
  EXPECT_EQ(Json(std::string(kSmall) + " --page-size 8k --set innodb_page_size=8192")["page_size"], 8192);
}

TEST(SettingsCliTest, SegmentReserveFactorReachesTheAllocator) {
  const std::string args = "run --stream uuidv4 --rows 200k --no-flush";
  const nlohmann::json base = Json(args);
  const nlohmann::json reserve40 = Json(args + " --set innodb_segment_reserve_factor=40");
  EXPECT_EQ(reserve40["settings"]["innodb_segment_reserve_factor"], "40");
  // The same tree, more extents kept free for the segment: a larger size.
  EXPECT_EQ(reserve40["n_leaf_pages"], base["n_leaf_pages"]);
  EXPECT_GT(reserve40["size"].get<int>(), base["size"].get<int>());
  // MariaDB has no such variable.
  ExpectOneLineError(Innosim(args + " --profile mariadb-10.11 --set innodb_segment_reserve_factor=40"),
                     "mariadb reserve factor", "not a variable of mariadb-10.11");
}

TEST(SettingsCliTest, VariablesWithoutAModelledEffectAreListedAsSuch) {
  const nlohmann::json j =
      Json(std::string(kSmall) + " --set innodb_flush_log_at_trx_commit=2 --set innodb_flush_method=O_DIRECT");
  std::vector<std::string> no_effect = j["settings_no_effect"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(no_effect.begin(), no_effect.end(), "innodb_flush_log_at_trx_commit"), no_effect.end());
  EXPECT_NE(std::find(no_effect.begin(), no_effect.end(), "innodb_flush_method"), no_effect.end());
  EXPECT_EQ(std::find(no_effect.begin(), no_effect.end(), "innodb_buffer_pool_size"), no_effect.end());
  EXPECT_EQ(j["settings"]["innodb_flush_log_at_trx_commit"], "2");
  const Output text = Innosim(std::string(kSmall) + " --set innodb_flush_log_at_trx_commit=2");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const size_t at = text.out.find("innodb_flush_log_at_trx_commit");
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::string line = text.out.substr(at, text.out.find('\n', at) - at);
  EXPECT_NE(line.find("--set"), std::string::npos) << line;
  EXPECT_NE(line.find("accepted, no effect in the model"), std::string::npos) << line;
}

TEST(SettingsCliTest, TheSettingsPrintoutSaysWhereEachValueCameFrom) {
  const nlohmann::json j = Json(std::string(kSmall) + " --set innodb_io_capacity=300");
  EXPECT_EQ(j["settings_origin"]["innodb_io_capacity"], "--set");
  EXPECT_EQ(j["settings_origin"]["innodb_lru_scan_depth"], "mysql-8.4 default");
  EXPECT_EQ(j["settings"]["innodb_io_capacity"], "300");
  // Settings are reported for structure-only runs too: the page size and
  // the segment reserve shape the tree.
  const nlohmann::json nf = Json(std::string(kSmall) + " --no-flush");
  EXPECT_EQ(nf["settings"]["innodb_page_size"], "16384");
}

TEST(SettingsCliTest, BufferPoolBelowTheServersMinimumOrAboveMemoryIsRefused) {
  for (const char* v : {"0", "1", "16k", "32k", "48k", "4M"}) {
    ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_buffer_pool_size=" + v), v, "minimum of 5242880");
  }
  // MariaDB 10.11's documented minimum is 2 MiB.
  ExpectOneLineError(Innosim(std::string(kSmall) + " --profile mariadb-10.11 --set innodb_buffer_pool_size=1M"),
                     "mariadb 1M", "minimum of 2097152");
  EXPECT_EQ(Json(std::string(kSmall) + " --profile mariadb-10.11 --set innodb_buffer_pool_size=2M")["settings"]
                ["innodb_buffer_pool_size"],
            "2097152");
  EXPECT_EQ(Json(std::string(kSmall) + " --set innodb_buffer_pool_size=5M")["settings"]["innodb_buffer_pool_size"],
            "5242880");
  for (const char* v : {"1e19", "1e30", "1.5G", "-1", "16E"}) {
    ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_buffer_pool_size=" + v), v, "innodb_buffer_pool_size");
  }
  ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_buffer_pool_size=1E"), "1E", "machine's memory");
}

TEST(SettingsCliTest, OutOfRangeValuesAreClampedAsTheServerDoesWithAWarning) {
  struct Case {
    const char* set;
    const char* name;
    const char* clamped;
  } cases[] = {
      {"innodb_io_capacity=0", "innodb_io_capacity", "100"},
      {"innodb_max_dirty_pages_pct=200", "innodb_max_dirty_pages_pct", "99.999"},
      {"innodb_redo_log_capacity=1", "innodb_redo_log_capacity", "8388608"},
      {"innodb_flushing_avg_loops=0", "innodb_flushing_avg_loops", "1"},
  };
  for (const Case& c : cases) {
    const Output o = Innosim(std::string(kSmall) + " --json --set " + c.set);
    ASSERT_EQ(o.exit_code, 0) << c.set << ": " << o.err;
    EXPECT_EQ(nlohmann::json::parse(o.out)["settings"][c.name], c.clamped) << c.set;
    EXPECT_NE(o.err.find("warning"), std::string::npos) << c.set << ": " << o.err;
    EXPECT_NE(o.err.find(std::string("adjusted to ") + c.clamped), std::string::npos) << c.set << ": " << o.err;
  }
}

TEST(SettingsCliTest, BadArgumentsAreRefusedWithOneLine) {
  ExpectOneLineError(Innosim(std::string(kSmall) + " --defaults-file /tmp"), "--defaults-file /tmp", "is a folder");
  ExpectOneLineError(Innosim({"run", "--stream", "uuidv4", "--rows", "10", "--table", ""}), "--table ''",
                     "--table is empty");
  ExpectOneLineError(Innosim("sweep --stream uuidv4 --rows 10 --threads -1"), "--threads -1", "--threads");
  ExpectOneLineError(Innosim("run --stream uuidv4 --rows 10 --seed -1"), "--seed -1", "--seed");
  ExpectOneLineError(Innosim("run --stream uuidv4 --rows 10 --table seed004 --payload-bytes 300"),
                     "--payload-bytes 300", "VARCHAR(200)");
  // The default payload of 100 bytes is cut to a shorter column, as before.
  EXPECT_EQ(Innosim({"run", "--stream", "uuidv4", "--rows", "10", "--no-flush", "--table",
                 "CREATE TABLE t (id BINARY(16) NOT NULL, v VARCHAR(20) NOT NULL, PRIMARY KEY (id))"})
                .exit_code,
            0);
}

TEST(SettingsCliTest, OutputFilesAreCheckedBeforeTheRun) {
  ExpectOneLineError(Innosim("run --stream uuidv4 --rows 2M --series /nonexistent/x.csv"), "--series",
                     "folder /nonexistent does not exist");
  ExpectOneLineError(Innosim(std::string("experiment ") + INNOSIM_SOURCE_DIR + "/experiments/seed004.toml --markdown /tmp"),
                     "--markdown", "is a directory");
}

TEST(SettingsCliTest, UnknownNamesAreErrorsWithTheNearestKnownName) {
  ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_bufer_pool_size=1G"), "typo",
                     "did you mean 'innodb_buffer_pool_size'?");
  ExpectOneLineError(Innosim(std::string(kSmall) + " --set innodb_no_such_variable=1"), "unknown",
                     "unknown server variable");
  ExpectOneLineError(Innosim("rn --stream uuidv4 --rows 10"), "rn", "did you mean 'run'?");
  ExpectOneLineError(Innosim("swep --stream uuidv4 --rows 10"), "swep", "did you mean 'sweep'?");
  ExpectOneLineError(Innosim(std::string(kSmall) + " --profile mariadb-10.6"), "profile", "did you mean 'mariadb-10.11'?");
  // A loose- prefix makes an unknown variable a warning, as in mysqld.
  const Output loose = Innosim(std::string(kSmall) + " --json --set loose-innodb_no_such_variable=1");
  EXPECT_EQ(loose.exit_code, 0) << loose.err;
  EXPECT_NE(loose.err.find("innodb_no_such_variable"), std::string::npos) << loose.err;
}

}  // namespace
}  // namespace innosim
