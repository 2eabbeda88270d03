// Output files (sim/report.h): WriteFileAtomically's unique temporary file,
// its mode and its cleanup, and CheckOutputPath's one-line refusals.
#include "sim/report.h"

#include "sim/runner.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "tests/innosim_process.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

// A fresh empty folder, removed with everything in it at the end.
class TempFolder {
 public:
  TempFolder() {
    std::string templ = (fs::temp_directory_path() / "innosim_report_XXXXXX").string();
    EXPECT_NE(::mkdtemp(templ.data()), nullptr);
    path_ = templ;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (fs::path(path_) / name).string(); }
  std::set<std::string> Names() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) names.insert(entry.path().filename().string());
    return names;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(WriteFileAtomicallyTest, ReplacesTheTargetAndLeavesNothingElse) {
  TempFolder dir;
  ASSERT_TRUE(WriteFileAtomically(dir / "out.csv", "first\n").ok());
  ASSERT_TRUE(WriteFileAtomically(dir / "out.csv", "second\n").ok());
  EXPECT_EQ(Slurp(dir / "out.csv"), "second\n");
  EXPECT_EQ(dir.Names(), std::set<std::string>{"out.csv"});
}

TEST(WriteFileAtomicallyTest, AnotherWritersTemporaryIsNotClobbered) {
  // The fixed name PATH.tmp was shared by every writer of PATH: a second
  // writer truncated the first one's temporary and renamed it away.
  TempFolder dir;
  Spit(dir / "out.csv.tmp", "another writer, half-way\n");
  ASSERT_TRUE(WriteFileAtomically(dir / "out.csv", "mine\n").ok());
  EXPECT_EQ(Slurp(dir / "out.csv"), "mine\n");
  EXPECT_EQ(Slurp(dir / "out.csv.tmp"), "another writer, half-way\n");
}

TEST(WriteFileAtomicallyTest, TwoWritersToOneTargetBothSucceedWhole) {
  TempFolder dir;
  const std::string target = dir / "out.csv";
  const std::string a(200000, 'a'), b(300000, 'b');
  std::vector<std::string> errors[2];
  auto writer = [&](int w) {
    for (int i = 0; i < 40; ++i) {
      absl::Status s = WriteFileAtomically(target, w == 0 ? a : b);
      if (!s.ok()) errors[w].push_back(std::string(s.message()));
    }
  };
  std::thread t0(writer, 0), t1(writer, 1);
  t0.join();
  t1.join();
  EXPECT_TRUE(errors[0].empty()) << errors[0].front();
  EXPECT_TRUE(errors[1].empty()) << errors[1].front();
  const std::string got = Slurp(target);
  EXPECT_TRUE(got == a || got == b) << got.size();
  EXPECT_EQ(dir.Names(), std::set<std::string>{"out.csv"});
}

TEST(WriteFileAtomicallyTest, AFailingWriteLeavesNoTemporaryAndNoTarget) {
  TempFolder dir;
  // A file size limit makes write(2) fail half-way (EFBIG) as a full disk
  // would; SIGXFSZ, its signal, is ignored for the test.
  struct rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct sigaction ignore = {}, old_action;
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGXFSZ, &ignore, &old_action), 0);
  struct rlimit small = old_limit;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const absl::Status s = WriteFileAtomically(dir / "big.csv", std::string(100000, 'x'));
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::sigaction(SIGXFSZ, &old_action, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(dir / "big.csv"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("free space or name a file on another disk"), std::string::npos) << s.message();
  EXPECT_TRUE(dir.Names().empty());
}

TEST(WriteFileAtomicallyTest, TheFileHasTheModeOfANewFile) {
  // mkstemp creates 0600; a new output file is 0666 less the umask.
  TempFolder dir;
  const mode_t old = ::umask(027);
  const absl::Status s1 = WriteFileAtomically(dir / "a.csv", "a");
  ::umask(0);
  const absl::Status s2 = WriteFileAtomically(dir / "b.csv", "b");
  ::umask(old);
  ASSERT_TRUE(s1.ok()) << s1;
  ASSERT_TRUE(s2.ok()) << s2;
  EXPECT_EQ(fs::status(dir / "a.csv").permissions(), static_cast<fs::perms>(0640));
  EXPECT_EQ(fs::status(dir / "b.csv").permissions(), static_cast<fs::perms>(0666));
}

TEST(WriteFileAtomicallyTest, RefusesWhatIsNotARegularFile) {
  TempFolder dir;
  fs::create_directory(dir / "sub");
  absl::Status s = WriteFileAtomically(dir / "sub", "x");
  EXPECT_NE(s.message().find("is a directory"), std::string::npos) << s;
  // A rename over a FIFO (or a device such as /dev/null) replaced it.
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
  s = WriteFileAtomically(dir / "fifo", "x");
  EXPECT_NE(s.message().find("is not a regular file"), std::string::npos) << s;
  EXPECT_TRUE(fs::is_fifo(dir / "fifo"));
  EXPECT_EQ(dir.Names(), (std::set<std::string>{"fifo", "sub"}));
}

TEST(WriteFileAtomicallyTest, FollowsASymbolicLink) {
  // As a shell's `>` does; the rename replaced the link itself.
  TempFolder dir;
  Spit(dir / "real.csv", "old");
  fs::create_symlink(dir / "real.csv", dir / "link.csv");
  ASSERT_TRUE(WriteFileAtomically(dir / "link.csv", "new").ok());
  EXPECT_TRUE(fs::is_symlink(dir / "link.csv"));
  EXPECT_EQ(Slurp(dir / "real.csv"), "new");
}

TEST(WriteFileAtomicallyTest, AMissingFolderIsNamed) {
  const absl::Status s = WriteFileAtomically("/nonexistent-innosim/x.csv", "x");
  EXPECT_EQ(std::string(s.message()),
            "cannot write /nonexistent-innosim/x.csv: folder /nonexistent-innosim does not exist: create it or name "
            "a file in another folder");
}

TEST(CheckOutputPathTest, AcceptsAWritableFolderAndLeavesItAsItWas) {
  TempFolder dir;
  EXPECT_TRUE(CheckOutputPath(dir / "x.csv").ok());
  Spit(dir / "y.csv", "kept");
  EXPECT_TRUE(CheckOutputPath(dir / "y.csv", "--series").ok());
  EXPECT_EQ(Slurp(dir / "y.csv"), "kept");
  EXPECT_EQ(dir.Names(), std::set<std::string>{"y.csv"});
  // A bare name is in the current folder.
  EXPECT_TRUE(CheckOutputPath("innosim-check-output-path-test.csv").ok());
  EXPECT_FALSE(fs::exists("innosim-check-output-path-test.csv"));
}

TEST(CheckOutputPathTest, RefusesWithOneLine) {
  TempFolder dir;
  EXPECT_EQ(std::string(CheckOutputPath("/nonexistent-innosim/x.csv", "--series").message()),
            "--series /nonexistent-innosim/x.csv: folder /nonexistent-innosim does not exist: create it or name a "
            "file in another folder");
  EXPECT_EQ(std::string(CheckOutputPath(dir.path(), "--svg").message()),
            "--svg " + dir.path() + ": is a directory: name a file, e.g. " + (dir / "out"));
  Spit(dir / "file", "");
  EXPECT_EQ(std::string(CheckOutputPath(dir / "file/x.csv").message()),
            dir / "file/x.csv" + ": " + (dir / "file") + " is not a folder: name a file in an existing folder");
  EXPECT_EQ(std::string(CheckOutputPath("", "--markdown").message()), "--markdown: no file named");
  for (const std::string& bad : {std::string("/nonexistent-innosim/x.csv"), dir.path(), std::string()}) {
    const absl::Status s = CheckOutputPath(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s;
  }
}

TEST(CheckOutputPathTest, IbdChecksItsSvgBeforeReading) {
  // The --svg folder was found missing only after the tablespace was read
  // (exit 3); now first, with exit 2 and one line.
  TempFolder dir;
  const Output o = RunInnosim({"ibd", dir / "missing.ibd", "--svg", "/nonexistent-innosim/map.svg"}, dir / "err");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err,
            "innosim: --svg /nonexistent-innosim/map.svg: folder /nonexistent-innosim does not exist: create it or "
            "name a file in another folder\n");
}

// Seed 000's "fill factor" is a size ratio, printed beside the true leaf
// fill: 15/16 x DATA_LENGTH of the same rows appended in key order /
// DATA_LENGTH, the ordered length from a run of its own (not a constant).
TEST(SeedFillTest, IsFifteenSixteenthsOfTheOrderedLengthOverTheLength) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 200000;
  spec.flush = false;
  const RunResult v4 = MustRun(spec);
  spec.stream.name = "uuidv7-counter";
  const RunResult ordered = MustRun(spec);
  ASSERT_GT(v4.report.data_length, 0u);
  // The reference is the same rows appended: the counter stream's own size.
  EXPECT_EQ(v4.data_length_in_key_order, ordered.report.data_length);
  EXPECT_EQ(ordered.data_length_in_key_order, ordered.report.data_length);
  const double expected =
      15.0 / 16.0 * static_cast<double>(ordered.report.data_length) / static_cast<double>(v4.report.data_length);
  EXPECT_DOUBLE_EQ(DataLengthFillSeed000(v4), expected);
  EXPECT_DOUBLE_EQ(DataLengthFillSeed000(ordered), 15.0 / 16.0);
  // A size ratio, not the leaf fill: at this size (whole extents reserved
  // on both sides) the seed's figure is well below the leaves' fill.
  EXPECT_LT(DataLengthFillSeed000(v4), v4.report.primary.leaf_fill - 0.04);
  const nlohmann::ordered_json j = RunToJson(v4);
  EXPECT_EQ(j["data_length_in_key_order"], ordered.report.data_length);
  EXPECT_DOUBLE_EQ(j["data_length_fill_seed000"].get<double>(), expected);
  EXPECT_DOUBLE_EQ(j["leaf_fill"].get<double>(), v4.report.primary.leaf_fill);
}

// 8-byte keys are measured against AUTO_INCREMENT's order, and the table
// and page size of the run carry over to the reference.
TEST(SeedFillTest, TheReferenceHasTheRunsKeyWidthTableAndPageSize) {
  RunSpec spec;
  spec.stream.name = "snowflake";
  spec.rows = 20000;
  spec.page_size = 8192;
  spec.table = "seed004";
  spec.flush = false;
  const RunResult r = MustRun(spec);
  spec.stream.name = "autoinc";
  const RunResult ordered = MustRun(spec);
  EXPECT_EQ(r.data_length_in_key_order, ordered.report.data_length);
  EXPECT_NE(ordered.report.data_length, MustRun("autoinc", 20000).report.data_length);
}

TEST(SeedFillTest, TheSummaryNamesBothFills) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 20000;
  spec.flush = false;
  const RunResult r = MustRun(spec);
  const std::string s = RunSummary(r);
  EXPECT_NE(s.find(absl::StrFormat("  %-28s %13.1f%%  (used / usable bytes on the leaf pages)", "leaf_fill",
                                   100 * r.report.primary.leaf_fill)),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(absl::StrFormat("  %-28s %13.1f%%  (seed 000's \"fill\": 15/16 x DATA_LENGTH in key order / "
                                   "DATA_LENGTH)",
                                   "data_length_fill_seed000", 100 * DataLengthFillSeed000(r))),
            std::string::npos)
      << s;
  EXPECT_NE(s.find(absl::StrFormat("  %-28s %14d", "DATA_LENGTH in key order", r.data_length_in_key_order)),
            std::string::npos)
      << s;
}

// The key-order reference run has one writer of the table's own key type:
// an INT table gets 4-byte autoinc keys (not a BIGINT or UUID stream it
// could not hold), and several skewed writers are compared against the same
// rows appended in order, not against themselves.
TEST(SeedFillReferenceTest, IntegerTablesAndSeveralWritersGetAnAscendingSingleWriter) {
  RunSpec narrow;
  narrow.stream.name = "autoinc";
  narrow.rows = 50000;
  narrow.flush = false;
  narrow.table = "CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, c CHAR(100) NOT NULL) ENGINE=InnoDB";
  absl::StatusOr<RunResult> n = innosim::Run(narrow);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(n->data_length_in_key_order, n->report.data_length);  // autoinc is its own key order

  RunSpec skewed;
  skewed.stream.name = "uuidv7-counter";
  skewed.stream.writers = 4;
  skewed.stream.clock_skew_ms = 5;
  skewed.rows = 50000;
  skewed.flush = false;
  absl::StatusOr<RunResult> w = innosim::Run(skewed);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_LT(w->data_length_in_key_order, w->report.data_length);
  const nlohmann::ordered_json j = RunToJson(*w);
  EXPECT_EQ(j["writers"], 4);
  EXPECT_EQ(j["clock_skew_ms"], 5.0);
  EXPECT_EQ(j["interleave"], "round-robin");
  EXPECT_NE(RunSummary(*w).find("writers: 4, clock skew 5 ms"), std::string::npos);
  EXPECT_FALSE(RunToJson(*n).contains("writers"));
}

// An ordered run is its own key-order reference (no second run): its
// DATA_LENGTH, with flushing on and whatever the table and page size, is
// the figure a separate structure-only reference run gives, which a run of
// unordered keys of the same table and row count still makes.
TEST(SeedFillReferenceTest, AnOrderedRunIsItsOwnReference) {
  struct Case {
    const char* ordered;
    const char* unordered;
    const char* table;
    uint32_t page_size;
  };
  const Case cases[] = {
      {"uuidv7-counter", "uuidv4", "seed000", 16384},
      {"autoinc", "snowflake", "seed000", 16384},
      {"uuidv7-counter", "uuidv4", "seed000", 4096},
      {"autoinc", "snowflake", "CREATE TABLE t (id BIGINT NOT NULL, a INT NOT NULL, v VARCHAR(200) NOT NULL, "
                               "PRIMARY KEY (id), KEY (a)) ENGINE=InnoDB", 8192},
  };
  for (const Case& c : cases) {
    RunSpec spec;
    spec.rows = 60000;
    spec.table = c.table;
    spec.page_size = c.page_size;
    spec.stream.name = c.ordered;
    const RunResult ordered = MustRun(spec);
    spec.stream.name = c.unordered;
    spec.stream.writers = 3;  // snowflake's three workers interleave: not ascending
    spec.stream.clock_skew_ms = 7;
    const RunResult unordered = MustRun(spec);
    EXPECT_NE(unordered.report.data_length, ordered.report.data_length) << c.table << " " << c.page_size;
    EXPECT_EQ(ordered.data_length_in_key_order, ordered.report.data_length) << c.table << " " << c.page_size;
    EXPECT_EQ(unordered.data_length_in_key_order, ordered.report.data_length) << c.table << " " << c.page_size;
  }
}

}  // namespace
}  // namespace innosim
