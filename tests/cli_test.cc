// The command line as a user meets it: bad input gets one line on stderr and
// exit code 2; the same command gives byte-identical results.
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

// Runs innosim with whitespace-separated `args`; `capture_stderr` returns
// stderr instead of stdout as the text.
struct Result {
  int exit_code = -1;
  std::string text;
};

Result Innosim(const std::string& args, bool capture_stderr) {
  const Output o = RunInnosim(absl::StrSplit(args, ' ', absl::SkipEmpty()),
                              "/tmp/innosim_cli_test_" + std::to_string(getpid()) + ".err");
  return {o.exit_code, capture_stderr ? o.err : o.out};
}

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(CliTest, BadValuesGetOneLineAndExitCode2) {
  const char* cases[] = {
      "run --stream uuidv4 --rows 0",
      "run --stream nonsense --rows 10",
      "run --stream uuidv4 --rows 10 --page-size 12345",
      "run --stream uuidv7-random --rows 10 --rows-per-ms 0",
      "run --stream uuidv4 --rows ten",
      "run --stream uuidv4 --rows 10 --set innodb_buffer_pool_size",
      "run --stream uuidv4 --rows 10 --profile mysql-5.7",
      "run --stream file:/nonexistent/keys.txt --rows 10",
      "sweep --stream uuidv7-random --rows 10 --rows-per-ms 50,0",
      "sweep --stream uuidv4 --rows 10 --no-flush --phase checkpoint",
      "sweep --stream uuidv4 --rows 10 --no-flush --phase nonsense",
      "experiment /nonexistent/experiment.toml",
      "experiment " INNOSIM_SOURCE_DIR "/experiments/seed003.toml " INNOSIM_SOURCE_DIR
      "/experiments/seed002-innodb.toml --markdown /tmp/innosim-cli-two.md",
      "experiment " INNOSIM_SOURCE_DIR "/experiments/seed003.toml /nonexistent/experiment.toml",
      "run --rows 10",
      "bench --stream uuidv4 --rows 10 --repetitions 0",
      "bench --stream nonsense --rows 10",
  };
  for (const char* args : cases) {
    const Result r = Innosim(args, /*capture_stderr=*/true);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.text;
    EXPECT_EQ(Lines(r.text), 1) << args << ": " << r.text;
    EXPECT_EQ(r.text.rfind("innosim: ", 0), 0u) << args << ": " << r.text;
  }
}

// --seed is read by one parser (sim/cli/load_options.h) wherever it is
// offered: a sign or a word is refused with the same line, exit 2 (measure
// before connecting); bench and measure once took -1 as 2^64-1.
TEST(CliTest, EverySubcommandReadsSeedTheSameWay) {
  const char* subcommands[] = {"run --stream uuidv4 --rows 10", "sweep --stream uuidv4 --rows 10",
                               "explain --stream uuidv4 --rows 10", "keys --stream uuidv4 --rows 10",
                               "bench --stream uuidv4 --rows 10",
                               "measure --socket /tmp/innosim-no-such-dir/sock --stream uuidv4 --rows 10"};
  for (const char* sub : subcommands) {
    for (const std::string seed : {"-1", "+1", "seven"}) {
      const Result r = Innosim(std::string(sub) + " --seed " + seed, /*capture_stderr=*/true);
      EXPECT_EQ(r.exit_code, 2) << sub << " --seed " << seed << ": " << r.text;
      EXPECT_EQ(r.text, "innosim: --seed '" + seed +
                            "' must be a whole number from 0 to 18446744073709551615 (e.g. --seed 7)\n")
          << sub;
    }
  }
}

// The message for a wrong subcommand names every subcommand the app has
// registered (the list `innosim --help` prints), not a hand-typed copy.
TEST(CliTest, UnknownSubcommandMessageNamesEverySubcommand) {
  const Result help = Innosim("--help", /*capture_stderr=*/false);
  ASSERT_EQ(help.exit_code, 0);
  const size_t at = help.text.find("Subcommands:");
  ASSERT_NE(at, std::string::npos) << help.text;
  std::vector<std::string> names;
  for (absl::string_view line : absl::StrSplit(absl::string_view(help.text).substr(at), '\n')) {
    if (line.size() > 2 && line.substr(0, 2) == "  " && line[2] != ' ') {
      names.emplace_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  ASSERT_GE(names.size(), 8u) << help.text;
  EXPECT_NE(std::find(names.begin(), names.end(), "explain"), names.end()) << help.text;
  const Result r = Innosim("nonsense", /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.text), 1) << r.text;
  for (const std::string& n : names) {
    EXPECT_NE(r.text.find(" " + n + (n == names.back() ? " " : ",")), std::string::npos) << n << ": " << r.text;
  }
}

// Keys are read a few rows ahead of the inserts; a key file that ends early,
// or has a bad line, is still reported at the row where it runs out, and a
// file holding exactly --rows keys is enough.
TEST(CliTest, KeyFileShorterThanRowsIsReportedAtItsEnd) {
  const std::string path = "/tmp/innosim_cli_keys_" + std::to_string(getpid()) + ".txt";
  auto write = [&](const std::string& text) {
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fputs(text.c_str(), f);
    fclose(f);
  };
  const std::string three =
      "018f0000-0000-7000-8000-000000000001\n018f0000-0000-7000-8000-000000000002\n"
      "018f0000-0000-7000-8000-000000000003\n";
  write(three);
  Result r = Innosim("run --stream file:" + path + " --rows 5", /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2) << r.text;
  EXPECT_NE(r.text.find("the stream ended after 3 of 5 rows"), std::string::npos) << r.text;
  r = Innosim("run --stream file:" + path + " --rows 3 --json", /*capture_stderr=*/false);
  EXPECT_EQ(r.exit_code, 0) << r.text;
  // A malformed line after the rows asked for does not fail the run.
  write(three + "not-a-uuid\n");
  r = Innosim("run --stream file:" + path + " --rows 3 --json", /*capture_stderr=*/false);
  EXPECT_EQ(r.exit_code, 0) << r.text;
  r = Innosim("run --stream file:" + path + " --rows 4", /*capture_stderr=*/true);
  EXPECT_EQ(r.exit_code, 2) << r.text;
  EXPECT_NE(r.text.find(path + ":4: malformed UUID"), std::string::npos) << r.text;
  unlink(path.c_str());
}

TEST(CliTest, SameCommandSameResult) {
  const std::string args = "run --stream uuidv7-random --rows 30k --rows-per-ms 50 --seed 7 --json";
  Result a = Innosim(args, false);
  Result b = Innosim(args, false);
  ASSERT_EQ(a.exit_code, 0);
  ASSERT_EQ(b.exit_code, 0);
  nlohmann::json ja = nlohmann::json::parse(a.text);
  nlohmann::json jb = nlohmann::json::parse(b.text);
  ja.erase("elapsed_s");  // timings aside
  jb.erase("elapsed_s");
  EXPECT_EQ(ja.dump(), jb.dump());
  EXPECT_GT(ja["index_page_splits"].get<int>(), 0);
  // A different seed gives different keys, hence a different tree.
  Result c = Innosim("run --stream uuidv7-random --rows 30k --rows-per-ms 50 --seed 8 --json", false);
  nlohmann::json jc = nlohmann::json::parse(c.text);
  jc.erase("elapsed_s");
  EXPECT_NE(ja.dump(), jc.dump());
}

TEST(CliTest, SweepPrintsOneJsonLinePerValue) {
  const Result r = Innosim("sweep --stream uuidv7-random --rows 20k --rows-per-ms 50,482,1000 --json --no-flush", false);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_EQ(Lines(r.text), 3);
  size_t start = 0;
  const int expected[] = {50, 482, 1000};
  for (int i = 0; i < 3; ++i) {
    const size_t end = r.text.find('\n', start);
    const nlohmann::json j = nlohmann::json::parse(r.text.substr(start, end - start));
    EXPECT_EQ(j["rows_per_ms"].get<int>(), expected[i]);
    start = end + 1;
  }
}

// sweep --phase: every run of the sweep takes the phases, and its JSON line
// is the one run prints for the same rows per ms (phases included).
TEST(CliTest, SweepRunsThePhasesOfEachValue) {
  const Result r = Innosim(
      "sweep --stream uuidv7-random --rows 20k --rows-per-ms 50,1000 --json --no-flush --phase insert:uuidv4:5k "
      "--phase optimize",
      false);
  ASSERT_EQ(r.exit_code, 0) << r.text;
  ASSERT_EQ(Lines(r.text), 2);
  const nlohmann::json first = nlohmann::json::parse(r.text.substr(0, r.text.find('\n')));
  ASSERT_EQ(first["phases"].size(), 3u);
  EXPECT_EQ(first["phases"][2]["phase"].get<std::string>(), "optimize");
  const Result one = Innosim(
      "run --stream uuidv7-random --rows 20k --rows-per-ms 50 --json --no-flush --phase insert:uuidv4:5k "
      "--phase optimize",
      false);
  ASSERT_EQ(one.exit_code, 0) << one.text;
  nlohmann::json a = first, b = nlohmann::json::parse(one.text);
  a.erase("elapsed_s");
  b.erase("elapsed_s");
  EXPECT_EQ(a.dump(), b.dump());
}

// Several experiment files run in turn, each under its own header, the exit
// code the worst of them.
TEST(CliTest, ExperimentRunsSeveralFilesInTurn) {
  const Result r = Innosim("experiment " INNOSIM_SOURCE_DIR "/experiments/seed003.toml " INNOSIM_SOURCE_DIR
                           "/experiments/seed002-innodb.toml --rows 2k",
                           false);
  ASSERT_EQ(r.exit_code, 0) << r.text;
  const size_t a = r.text.find("== " INNOSIM_SOURCE_DIR "/experiments/seed003.toml ==\n");
  const size_t b = r.text.find("== " INNOSIM_SOURCE_DIR "/experiments/seed002-innodb.toml ==\n");
  ASSERT_NE(a, std::string::npos) << r.text;
  ASSERT_NE(b, std::string::npos) << r.text;
  EXPECT_LT(a, b);
  EXPECT_NE(r.text.find("experiment seed003:", a), std::string::npos);
  EXPECT_NE(r.text.find("experiment seed002-innodb:", b), std::string::npos);
}

TEST(CliTest, BenchRepeatsBothSidesOnTheSameWorkAsRun) {
  // Timings are not checked (that is the bench's job, not a test's); what is
  // checked: one line per repetition, both summaries, and that the engine
  // side did exactly the work `run` does for the same stream.
  const Result b = Innosim("bench --stream uuidv7-random --rows 20k --seed 3 --repetitions 3", false);
  ASSERT_EQ(b.exit_code, 0) << b.text;
  std::vector<std::string> lines = absl::StrSplit(b.text, '\n');
  int reps = 0;
  for (const std::string& l : lines) {
    for (int i = 1; i <= 3; ++i) reps += l.rfind(std::to_string(i) + "   ", 0) == 0;
  }
  EXPECT_EQ(reps, 3) << b.text;
  EXPECT_NE(b.text.find("\ninnosim "), std::string::npos) << b.text;
  EXPECT_NE(b.text.find("\nabsl::btree_set<KeyHalf> "), std::string::npos) << b.text;
  const Result r = Innosim("run --stream uuidv7-random --rows 20k --seed 3 --no-flush --json", false);
  ASSERT_EQ(r.exit_code, 0);
  const int splits = nlohmann::json::parse(r.text)["index_page_splits"].get<int>();
  EXPECT_GT(splits, 0);
  EXPECT_NE(b.text.find("(innosim index_page_splits: " + std::to_string(splits) + ")"), std::string::npos)
      << b.text;
}

TEST(CliTest, BenchJsonSumsUpEachSideByMedianTimeAndLargestPeak) {
  const Result b = Innosim("bench --stream uuidv4 --rows 20k --repetitions 4 --json", false);
  ASSERT_EQ(b.exit_code, 0) << b.text;
  ASSERT_EQ(Lines(b.text), 1) << b.text;
  const nlohmann::json j = nlohmann::json::parse(b.text);
  EXPECT_EQ(j["stream"], "uuidv4");
  EXPECT_EQ(j["rows"].get<int>(), 20000);
  EXPECT_EQ(j["repetitions"].get<int>(), 4);
  for (const char* side : {"innosim", "btree_set"}) {
    const nlohmann::json& s = j[side];
    ASSERT_EQ(s["runs"].size(), 4u) << side;
    std::vector<double> times;
    uint64_t peak = 0;
    for (const nlohmann::json& r : s["runs"]) {
      times.push_back(r["seconds"].get<double>());
      peak = std::max(peak, r["peak_rss_bytes"].get<uint64_t>());
    }
    std::sort(times.begin(), times.end());
    EXPECT_EQ(s["seconds"].get<double>(), times[1]) << side;  // the lower middle of four
    EXPECT_EQ(s["peak_rss_bytes"].get<uint64_t>(), peak) << side;
  }
  EXPECT_DOUBLE_EQ(j["time_ratio"].get<double>(),
                   j["innosim"]["seconds"].get<double>() / j["btree_set"]["seconds"].get<double>());
  const Result r = Innosim("run --stream uuidv4 --rows 20k --no-flush --json", false);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(j["index_page_splits"].get<int>(), nlohmann::json::parse(r.text)["index_page_splits"].get<int>());
}

// Names are checked before connecting: no server needed (the socket does not exist).
TEST(MeasureCliNames, BadDatabaseOrTableNameIsExit2BeforeConnecting) {
  const std::string long_name(65, 'a');
  for (const auto& [option, name] : std::vector<std::pair<std::string, std::string>>{
           {"--table-name", ""}, {"--table-name", "123"}, {"--table-name", "a-b"}, {"--table-name", long_name},
           {"--database", "x;drop"}, {"--database", ""}, {"--table-name", "t`"}}) {
    Output o = RunInnosim({"measure", "--socket", "/tmp/innosim-no-such-dir/sock", "--user", "root", "--stream",
                           "autoinc", "--rows", "10", option, name},
                          "/tmp/innosim-names-" + std::to_string(::getpid()) + ".err");
    EXPECT_EQ(o.exit_code, 2) << option << " '" << name << "': " << o.err;
    EXPECT_NE(o.err.find(option), std::string::npos) << o.err;
    // An empty value is refused for every option alike (issue 29 item 8).
    EXPECT_NE(o.err.find(name.empty() ? "is empty" : "[0-9A-Za-z$_]"), std::string::npos) << o.err;
    EXPECT_EQ(o.err.find("unreachable"), std::string::npos) << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  }
  // Digits with a letter, '$' and 64 characters are fine: the run gets as far as connecting.
  Output ok = RunInnosim({"measure", "--socket", "/tmp/innosim-no-such-dir/sock", "--user", "root", "--stream",
                          "autoinc", "--rows", "10", "--table-name", "1$a_" + std::string(60, 'b')},
                         "/tmp/innosim-names-ok.err");
  EXPECT_EQ(ok.exit_code, 3) << ok.err;
}

// --table takes what `run --table` takes, and is checked before connecting;
// so are the private server's options.
TEST(MeasureCliTable, TableSpecAndPrivateServerOptionsAreCheckedBeforeConnecting) {
  const std::vector<std::string> base = {"measure", "--socket", "/tmp/innosim-no-such-dir/sock", "--user", "root",
                                         "--stream", "uuidv4", "--rows", "10"};
  struct Case {
    std::vector<std::string> extra;
    std::string want;
  };
  for (const Case& c : std::vector<Case>{
           {{"--table", "seed005"}, "use seed000, seed004 or a CREATE TABLE"},
           {{"--table", "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)"}, "BINARY(16)"},
           {{"--set", "innodb_buffer_pool_size=128M"}, "--private-server"},
           {{"--page-size", "4k"}, "--private-server"},
           {{"--column", "created=rownum"}, "seed 000's table has none to set"},
           {{"--table", "CREATE TABLE t (id BINARY(16) NOT NULL PRIMARY KEY, p BINARY(16) NOT NULL, KEY (p))", "--column",
             "p=stream:uuidv4"},
            "measure cannot load a stream's keys"},
           {{"--table", "seed004", "--column", "nosuch=rownum"}, "nosuch"}}) {
    std::vector<std::string> args = base;
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    Output o = RunInnosim(args, "/tmp/innosim-table-" + std::to_string(::getpid()) + ".err");
    EXPECT_EQ(o.exit_code, 2) << c.extra[0] << ": " << o.err;
    EXPECT_NE(o.err.find(c.want), std::string::npos) << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  }
  const std::vector<std::string> priv = {"measure", "--private-server", "--stream", "uuidv4", "--rows", "10"};
  for (const Case& c : std::vector<Case>{
           {{"--socket", "/tmp/x.sock"}, "leave out --host"},
           {{"--set", "innodb_no_such_variable=1"}, "innodb_no_such_variable"},
           {{"--set", "innodb_buffer_pool_size"}, "NAME=VALUE"},
           {{"--page-size", "3k"}, "--page-size 3k"}}) {
    std::vector<std::string> args = priv;
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    Output o = RunInnosim(args, "/tmp/innosim-priv-" + std::to_string(::getpid()) + ".err");
    EXPECT_EQ(o.exit_code, 2) << c.extra[0] << ": " << o.err;
    EXPECT_NE(o.err.find(c.want), std::string::npos) << o.err;
  }
  // seed004 with a 16-byte stream passes the checks: the run gets as far as connecting.
  std::vector<std::string> ok = base;
  ok.insert(ok.end(), {"--table", "seed004"});
  EXPECT_EQ(RunInnosim(ok, "/tmp/innosim-table-ok.err").exit_code, 3);
  // So do the sources measure writes as literals.
  ok.insert(ok.end(), {"--column", "created_at=time:1000"});
  EXPECT_EQ(RunInnosim(ok, "/tmp/innosim-table-ok.err").exit_code, 3);
}

}  // namespace
}  // namespace innosim
