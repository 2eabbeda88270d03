// Sharded sweeps and experiments (sim/shard.h, sim/cli/shard_commands.h):
// the slices partition the configurations; merge refuses missing,
// duplicate and mismatched shards with one line; and a sweep and
// experiment files run through Debian's GNU parallel in shards and merged
// give the unsharded command's output, files and exit code byte for byte,
// timings aside. GNU parallel is a test dependency (tools/install-deps.sh):
// without it the parallel tests fail, saying so.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "sim/shard.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

TEST(ShardTest, ParseShardTakesKOfNAndRefusesTheRestWithOneLine) {
  absl::StatusOr<ShardSpec> s = ParseShard("3/16");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->k, 3u);
  EXPECT_EQ(s->n, 16u);
  for (const char* bad : {"0/4", "5/4", "1/0", "", "3", "a/4", "-1/4", " 1/4", "1/4/2", "1/", "/4", "+1/4"}) {
    absl::StatusOr<ShardSpec> b = ParseShard(bad);
    ASSERT_FALSE(b.ok()) << bad;
    const std::string m(b.status().message());
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_NE(m.find("--shard"), std::string::npos) << m;
  }
  EXPECT_NE(std::string(ParseShard("0/4").status().message()).find("use 1/4 to 4/4"), std::string::npos);
}

TEST(ShardTest, TheSlicesPartitionTheConfigurations) {
  for (uint64_t n : {1, 2, 3, 4, 7, 16}) {
    for (uint64_t m : {1, 5, 16, 33}) {
      for (uint64_t c = 1; c <= m; ++c) {
        int holders = 0;
        for (uint64_t k = 1; k <= n; ++k) holders += ShardSpec{k, n}.Holds(c);
        EXPECT_EQ(holders, 1) << "configuration " << c << " of " << m << ", " << n << " shards";
      }
    }
  }
  // Round robin: shard 2 of 4 holds 2, 6, 10.
  EXPECT_TRUE((ShardSpec{2, 4}.Holds(6)));
  EXPECT_FALSE((ShardSpec{2, 4}.Holds(7)));
}

// The lines of a command of `m` configurations split in `n` shards.
std::vector<std::string> Lines(const std::string& identity, uint64_t n, uint64_t m) {
  std::vector<std::string> lines;
  for (uint64_t k = 1; k <= n; ++k) {
    const ShardSpec s{k, n};
    lines.push_back(ShardHeaderLine("sweep", identity, s, m, {{"output", "x"}}));
    for (uint64_t c = 1; c <= m; ++c) {
      if (s.Holds(c)) lines.push_back(ShardConfigLine(identity, s, m, c, {{"value", c * 10}}));
    }
  }
  return lines;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

TEST(ShardTest, MergeOrdersTheConfigurationsFromShardsInAnyOrder) {
  std::vector<std::string> lines = Lines("aaaa", 3, 7);
  std::reverse(lines.begin(), lines.end());
  absl::StatusOr<MergedShards> m = MergeShards({{"a", Join(lines)}});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->command, "sweep");
  EXPECT_EQ(m->header["output"], "x");
  ASSERT_EQ(m->bodies.size(), 7u);
  for (uint64_t c = 1; c <= 7; ++c) EXPECT_EQ(m->bodies[c - 1]["value"], c * 10);
}

// The one-line error of merging `text`.
std::string MergeError(const std::string& text) {
  absl::StatusOr<MergedShards> m = MergeShards({{"f", text}});
  if (m.ok()) return "(merged)";
  const std::string e(m.status().message());
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  return e;
}

TEST(ShardTest, MergeRefusesMissingDuplicateAndMismatchedShards) {
  const std::vector<std::string> all = Lines("aaaa", 4, 10);
  // A shard left out (its header and lines).
  std::vector<std::string> no_third;
  for (const std::string& l : all) {
    if (l.find("\"shard\":3,") == std::string::npos) no_third.push_back(l);
  }
  EXPECT_NE(MergeError(Join(no_third)).find("shard 3/4 is missing"), std::string::npos) << MergeError(Join(no_third));
  // A shard cut short: its last configuration's line is gone.
  std::vector<std::string> cut = all;
  cut.erase(std::find_if(cut.begin(), cut.end(), [](const std::string& l) {
    return l.find("\"configuration\":7}") != std::string::npos;
  }));
  EXPECT_NE(MergeError(Join(cut)).find("configuration 7 of 10 is missing"), std::string::npos) << MergeError(Join(cut));
  // A shard given twice.
  EXPECT_NE(MergeError(Join(all) + all[0] + "\n").find("shard 1/4 appears twice"), std::string::npos);
  // Another command's shard, another split, a configuration in the wrong shard.
  EXPECT_NE(MergeError(Join(all) + Lines("bbbb", 4, 10)[0] + "\n").find("another command"), std::string::npos);
  std::vector<std::string> mixed = Lines("aaaa", 2, 10);
  EXPECT_NE(MergeError(Join(all) + mixed[0] + "\n").find("one --shard K/N split"), std::string::npos);
  const std::string wrong = ShardConfigLine("aaaa", ShardSpec{1, 4}, 10, 2, {{"value", 20}});
  EXPECT_NE(MergeError(Join(all) + wrong + "\n").find("is not one of shard 1/4's"), std::string::npos);
  EXPECT_NE(MergeError("{\"rows\": 5}\n").find("f:1: not a line of a shard"), std::string::npos);
  EXPECT_NE(MergeError("").find("no shard lines"), std::string::npos);
  EXPECT_EQ(MergeError(Join(all)), "(merged)");
}

TEST(ShardTest, DoublesThatJsonCannotHoldRoundTrip) {
  for (double v : {0.0, -0.0, 0.1, 1.0 / 3, 6.02214076e23, 5e-324}) {
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(DoubleToJson(v).dump());
    EXPECT_EQ(*DoubleFromJson(j), v);
  }
  EXPECT_TRUE(std::isnan(*DoubleFromJson(DoubleToJson(std::nan("")))));
  EXPECT_EQ(*DoubleFromJson(DoubleToJson(HUGE_VAL)), HUGE_VAL);
  EXPECT_FALSE(DoubleFromJson("x").ok());
}

// ---- the command line, through GNU parallel ----

class ShardCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("innosim_shard_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `command` in the test's folder through sh; its exit code, stdout in
  // dir_/out, stderr in dir_/err.
  int Shell(const std::string& command) {
    const std::string full = "cd '" + dir_.string() + "' && ( " + command + " ) > out 2> err";
    const int status = std::system(full.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string Read(const std::string& name) { return ReadWholeFile((dir_ / name).string()); }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

  // Runs `args` unsharded, then in `shards` shards through GNU parallel
  // (one job per shard, their output concatenated as parallel prints it)
  // and merges; expects the same stdout, exit code and `files` (written
  // under the names given, with "@" standing for "u" in the unsharded run
  // and "m" in the sharded one), after `mask` blanks the timings.
  void ExpectShardedSameAsUnsharded(const std::string& args, int shards, const std::vector<std::string>& files,
                                    const std::regex& mask, int expected_code = 0,
                                    const std::string& parallel_options = "") {
    ASSERT_EQ(std::system("command -v parallel > /dev/null 2>&1"), 0)
        << "GNU parallel is not installed: apt-get install parallel (tools/install-deps.sh installs it)";
    const std::string bin = std::string("'") + INNOSIM_BINARY + "'";
    auto with = [&](const std::string& tag) { return std::regex_replace(args, std::regex("@"), tag); };
    const int unsharded_code = Shell(bin + " " + with("u") + " --quiet");
    const std::string unsharded = Read("out");
    ASSERT_FALSE(unsharded.empty()) << Read("err");
    ASSERT_EQ(unsharded_code, expected_code) << Read("err");
    std::string seq;
    for (int k = 1; k <= shards; ++k) absl::StrAppend(&seq, " ", k);
    const int parallel_code =
        Shell("parallel " + parallel_options + " " + bin + " " + with("m") + " --quiet --shard {}/" + std::to_string(shards) + " :::" + seq);
    ASSERT_EQ(parallel_code, 0) << Read("err");
    fs::rename(dir_ / "out", dir_ / "shards.jsonl");
    // Every shard wrote its header; each configuration came once.
    const std::string lines = Read("shards.jsonl");
    for (int k = 1; k <= shards; ++k) {
      EXPECT_NE(lines.find("\"shard\":" + std::to_string(k) + ",\"shards\":" + std::to_string(shards) +
                           ",\"configurations\""),
                std::string::npos);
    }
    const int merged_code = Shell(bin + " merge shards.jsonl");
    const std::string merged = Read("out");
    EXPECT_EQ(merged_code, unsharded_code) << Read("err");
    EXPECT_EQ(std::regex_replace(merged, mask, "T"), std::regex_replace(unsharded, mask, "T"));
    for (const std::string& f : files) {
      const std::string u = Read(std::regex_replace(f, std::regex("@"), "u"));
      const std::string m = Read(std::regex_replace(f, std::regex("@"), "m"));
      ASSERT_FALSE(u.empty()) << f;
      EXPECT_EQ(std::regex_replace(m, mask, "T"), std::regex_replace(u, mask, "T")) << f;
    }
  }

  fs::path dir_;
};

const std::regex kElapsed(R"("elapsed_s":[-0-9.eE+]+)");
const std::regex kSimulatedIn(R"(simulated in [0-9.]+ s)");

TEST_F(ShardCliTest, SweepInFourShardsThroughGnuParallelIsTheUnshardedSweep) {
  const std::string sweep =
      "sweep --stream uuidv7-random --rows 20k --rows-per-ms 25,50,110,250,482,524,1000,2000,4000";
  // JSON lines and the chart; then the readable table.
  ExpectShardedSameAsUnsharded(sweep + " --json --svg @.svg", 4, {"@.svg"}, kElapsed);
  ExpectShardedSameAsUnsharded(sweep, 4, {}, kElapsed);
  // PostgreSQL runs (an EngineResult's JSON); parallel -q passes the quoted
  // CREATE TABLE as one word.
  ExpectShardedSameAsUnsharded("sweep --profile postgresql-15 --stream uuidv7-random --table 'CREATE TABLE t (id "
                               "uuid PRIMARY KEY)' --rows 20k --rows-per-ms 50,100,200,400,800 --json",
                               4, {}, kElapsed, 0, "-q");
  // More shards than configurations: the empty ones still merge.
  ExpectShardedSameAsUnsharded("sweep --stream autoinc --rows 5k --rows-per-ms 10,20 --no-flush --json", 3, {},
                               kElapsed);
}

TEST_F(ShardCliTest, ExperimentFilesInShardsThroughGnuParallelAreTheUnshardedExperiment) {
  // PostgreSQL runs (their figures from an EngineResult), a configuration
  // listed twice, a published figure within its tolerance.
  Write("pg.toml", R"toml(name = "pgshard"
[defaults]
rows = "20k"
seed = 3
rows_per_ms = 181
show = ["leaf_pages", "avg_leaf_density", "relpages"]
[[run]]
label = "v4 pg15"
profile = "postgresql-15"
stream = "uuidv4"
table = "CREATE TABLE t (id uuid PRIMARY KEY)"
[run.published]
leaf_pages = 100
[run.tolerance]
leaf_pages = 0.5
[[run]]
label = "v7 pg18"
profile = "postgresql-18"
stream = "uuidv7-subms"
table = "CREATE TABLE t (id uuid PRIMARY KEY)"
[[run]]
label = "v7 pg18 again"
profile = "postgresql-18"
stream = "uuidv7-subms"
table = "CREATE TABLE t (id uuid PRIMARY KEY)"
)toml");
  const std::string src = INNOSIM_SOURCE_DIR;
  // Three files: the PostgreSQL one and two InnoDB ones whose figures at
  // 20k rows miss their published 10M-row ones (exit code 1).
  ExpectShardedSameAsUnsharded("experiment pg.toml " + src + "/experiments/seed000.toml " + src +
                                   "/experiments/seed004.toml --rows 20000",
                               4, {}, kSimulatedIn, 1);
  // One file with its Markdown and chart.
  ExpectShardedSameAsUnsharded(
      "experiment " + src + "/experiments/seed000.toml --rows 20000 --markdown @.md --svg @.svg", 4,
      {"@.md", "@.svg"}, kSimulatedIn, 1);
}

TEST_F(ShardCliTest, MergeRefusesShardsOfDifferentCommandsAndMissingOnesWithOneLine) {
  const std::string bin = std::string("'") + INNOSIM_BINARY + "'";
  const std::string sweep = bin + " sweep --stream autoinc --rows 2k --rows-per-ms 10,20,30 --no-flush --quiet";
  // --threads changes how a shard runs, not what it prints: b merges with a.
  ASSERT_EQ(Shell(sweep + " --shard 1/2 > a && " + sweep + " --threads 1 --shard 2/2 > b && " + sweep +
                  " --seed 7 --shard 2/2 > c"),
            0)
      << Read("err");
  EXPECT_EQ(Shell(bin + " merge a b"), 0) << Read("err");
  struct Case {
    std::string files;
    std::string says;
  };
  for (const Case& c : {Case{"a", "shard 2/2 is missing"}, Case{"a c", "another command"},
                        Case{"a b b", "appears twice"}, Case{"nonexistent", "No such file"}}) {
    EXPECT_EQ(Shell(bin + " merge " + c.files), 2) << c.files;
    const std::string err = Read("err");
    EXPECT_NE(err.find(c.says), std::string::npos) << c.files << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_TRUE(Read("out").empty()) << c.files;
  }
  // A run that fails: its shard exits 2 and carries the error; merge fails
  // with the unsharded command's line.
  Write("bad.keys", "abc\n");
  const std::string failing = bin + " sweep --stream file:bad.keys --rows 10 --rows-per-ms 5,6 --quiet";
  EXPECT_EQ(Shell(failing), 2);
  const std::string unsharded_err = Read("err");
  EXPECT_NE(unsharded_err.find("malformed UUID"), std::string::npos) << unsharded_err;
  EXPECT_EQ(Shell(failing + " --shard 1/2 > f1"), 2);
  EXPECT_EQ(Shell(failing + " --shard 2/2 > f2"), 2);
  EXPECT_EQ(Shell(bin + " merge f1 f2"), 2);
  EXPECT_EQ(Read("err"), unsharded_err);
  // A bad --shard: one line, exit code 2, before any run.
  EXPECT_EQ(Shell(sweep + " --shard 3/2"), 2);
  EXPECT_NE(Read("err").find("--shard 3/2: K is at most N: use 1/2 to 2/2"), std::string::npos) << Read("err");
}

}  // namespace
}  // namespace innosim
