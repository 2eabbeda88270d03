// Hostile input and hostile conditions at the command line (issue 29):
// rates below the floor, a disk too small, signals at random moments, a
// full stdout, outputs over inputs, control bytes in messages. Runs the
// built binary (tests/innosim_process.h).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

fs::path NewDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("innosim_hostile_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

Output Innosim(const std::vector<std::string>& args) {
  return RunInnosim(args, (fs::temp_directory_path() / ("hostile_err_" + std::to_string(::getpid()))).string());
}

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> Names(const fs::path& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

// Item 1: a rate below the floor is refused with one line, in run, sweep,
// explain and an experiment file (before: a CPU-bound hang).
TEST(HostileCliTest, RateBelowTheFloorIsRefusedEverywhere) {
  const fs::path dir = NewDir("rate");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--stream", "uuidv4", "--rows", "1000", "--rows-per-sec", "1e-300"},
        std::vector<std::string>{"sweep", "--stream", "uuidv4", "--rows", "1000", "--rows-per-ms", "1,2",
                                 "--rows-per-sec", "1e-300"},
        std::vector<std::string>{"explain", "--stream", "uuidv4", "--rows", "100", "--rows-per-sec", "1e-300"}}) {
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << args[0] << ": " << o.err;
    EXPECT_EQ(Lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("floor"), std::string::npos) << o.err;
  }
  const fs::path exp = dir / "slow.toml";
  std::ofstream(exp) << "[[run]]\nlabel = \"slow\"\nstream = \"uuidv4\"\nrows = 1000\nrows_per_sec = 1e-300\n";
  const Output o = Innosim({"experiment", exp.string()});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(Lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("floor"), std::string::npos) << o.err;
  fs::remove_all(dir);
}

// Item 1: at the floor, a load whose rows are 1000 simulated seconds apart
// runs (idle seconds skipped) and gives the same page counts as at any
// rate: the B-tree does not depend on the clock.
TEST(HostileCliTest, RunAtTheFloorFinishes) {
  const Output o = Innosim({"run", "--stream", "uuidv4", "--rows", "20000", "--rows-per-sec", "0.001", "--json"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("\"rows_per_sec\""), std::string::npos);
}

// Item 3: keys --output refuses up front when the folder cannot hold the
// estimate, and writes nothing.
TEST(HostileCliTest, KeysOutputLargerThanTheDiskIsRefusedUpFront) {
  const fs::path dir = NewDir("disk");
  const fs::path out = dir / "k.txt";
  const Output o = Innosim({"keys", "--stream", "uuidv4", "--rows", "1000000G", "--output", out.string()});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(Lines(o.err), 1) << o.err;
  EXPECT_NE(o.err.find("37000000000000000 bytes"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("free"), std::string::npos) << o.err;
  EXPECT_TRUE(Names(dir).empty());
  fs::remove_all(dir);
}

// Item 4: killed at random moments (SIGKILL, SIGTERM, SIGINT), a command
// leaves in the output folder the finished file or nothing.
void KillAtRandom(const std::string& kind, const std::vector<std::string>& args, const std::string& file,
                  int max_delay_us) {
  const fs::path ref_dir = NewDir(kind + "_ref");
  std::vector<std::string> ref_args = args;
  for (std::string& a : ref_args) {
    if (a == "@") a = (ref_dir / file).string();
  }
  const Output ref = Innosim(ref_args);
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  const std::string whole = Read(ref_dir / file);
  ASSERT_FALSE(whole.empty());
  std::mt19937 rng(29);
  const int signals[] = {SIGKILL, SIGTERM, SIGINT};
  int finished = 0, killed = 0;
  for (int i = 0; i < 20; ++i) {
    const fs::path dir = NewDir(kind + "_" + std::to_string(i));
    const fs::path logs = NewDir(kind + "_logs");
    std::vector<std::string> a = args;
    for (std::string& s : a) {
      if (s == "@") s = (dir / file).string();
    }
    const pid_t pid = SpawnInnosim(a, (logs / "out").string(), (logs / "err").string());
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % max_delay_us));
    ::kill(pid, signals[i % 3]);
    const int rc = WaitInnosim(pid);
    (rc == 0 ? finished : killed) += 1;
    const std::vector<std::string> names = Names(dir);
    if (!names.empty()) {
      EXPECT_EQ(names, std::vector<std::string>{file}) << kind << " try " << i << " rc " << rc;
      EXPECT_EQ(Read(dir / file), whole) << kind << " try " << i << ": a partial file";
    }
    fs::remove_all(dir);
    fs::remove_all(logs);
  }
  // The delays must hit the process while it runs, not only after.
  EXPECT_GT(killed, 0) << kind;
  fs::remove_all(ref_dir);
}

TEST(HostileCliTest, KeysOutputLeavesNothingButTheFileAfterASignal) {
  KillAtRandom("keys", {"keys", "--stream", "uuidv4", "--rows", "600k", "--output", "@"}, "k.txt", 150000);
}

TEST(HostileCliTest, SeriesLeavesNothingButTheFileAfterASignal) {
  KillAtRandom("series", {"run", "--stream", "uuidv4", "--rows", "60k", "--series", "@", "--quiet"}, "s.csv",
               150000);
}

TEST(HostileCliTest, PageMapLeavesNothingButTheFileAfterASignal) {
  KillAtRandom("pagemap", {"run", "--stream", "uuidv4", "--rows", "60k", "--page-map", "@", "--quiet"}, "p.svg",
               150000);
}

// Item 5: output lost on a full stdout is exit 3 with one line, in every
// subcommand that prints (a single check at the end of Dispatch).
TEST(HostileCliTest, FullStdoutIsExit3) {
  if (!fs::exists("/dev/full")) GTEST_FAIL() << "/dev/full is missing on this machine";
  for (const std::string& cmd : {std::string("run --stream uuidv4 --rows 1000 --json"),
                                 std::string("run --stream uuidv4 --rows 1000"),
                                 std::string("explain --stream autoinc --rows 10"),
                                 std::string("keys --stream uuidv4 --rows 10")}) {
    const std::string err = (fs::temp_directory_path() / ("full_err_" + std::to_string(::getpid()))).string();
    const std::string line = std::string("'") + INNOSIM_BINARY + "' " + cmd + " >/dev/full 2>'" + err + "'";
    const int status = std::system(line.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << cmd;
    EXPECT_EQ(WEXITSTATUS(status), 3) << cmd;
    const std::string e = Read(err);
    EXPECT_EQ(Lines(e), 1) << cmd << ": " << e;
    fs::remove(err);
  }
}

// Item 6: an output that is one of the inputs is refused and the input
// left whole; a symbolic link as the output is written through.
TEST(HostileCliTest, OutputOverAnInputIsRefused) {
  const fs::path dir = NewDir("overlap");
  const fs::path keys = dir / "k.txt";
  ASSERT_EQ(Innosim({"keys", "--stream", "uuidv4", "--rows", "2000", "--output", keys.string()}).exit_code, 0);
  const std::string before = Read(keys);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--stream", "file:" + keys.string(), "--rows", "2000", "--series", keys.string()},
        std::vector<std::string>{"run", "--stream", "file:" + keys.string(), "--rows", "2000", "--page-map", keys.string()},
        std::vector<std::string>{"run", "--stream", "file:" + keys.string(), "--rows", "2000", "--page-map",
                                 (dir / "." / "k.txt").string()},
        std::vector<std::string>{"ibd", keys.string(), "--svg", keys.string()}}) {
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << args[0] << " " << args.back() << ": " << o.err;
    EXPECT_EQ(Lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("input"), std::string::npos) << o.err;
    EXPECT_EQ(Read(keys), before);
  }
  // Through a symbolic link to the input: the same file, refused.
  fs::create_symlink(keys, dir / "link.txt");
  const Output o = Innosim({"run", "--stream", "file:" + keys.string(), "--rows", "2000", "--series", (dir / "link.txt").string()});
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(Read(keys), before);
  // A link to another file is written through: the link stays a link.
  const fs::path target = dir / "target.csv";
  std::ofstream(target) << "old\n";
  fs::create_symlink(target, dir / "series.csv");
  const Output w = Innosim({"run", "--stream", "uuidv4", "--rows", "20000", "--series", (dir / "series.csv").string()});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_TRUE(fs::is_symlink(dir / "series.csv"));
  EXPECT_NE(Read(target), "old\n");
  fs::remove_all(dir);
}

// Item 7: a setting the model clamps, as the server does, is warned on
// stderr exactly once, naming the setting and the value used, in every
// subcommand and output form; stdout never carries it.
TEST(HostileCliTest, AClampIsWarnedOnceOnStderrEverywhere) {
  const fs::path dir = NewDir("clamp");
  const fs::path exp = dir / "clamp.toml";
  // One setting for two runs: one warning. (The same value on two lines
  // of a file is two settings, each warned with its line.)
  std::ofstream(exp) << "[defaults.set]\ninnodb_io_capacity = 1\n"
                        "[[run]]\nlabel = \"a\"\nstream = \"uuidv4\"\nrows = 2000\nrows_per_ms = 50\n"
                        "[[run]]\nlabel = \"b\"\nstream = \"uuidv4\"\nrows = 2000\nrows_per_ms = 500\n";
  const std::vector<std::string> set = {"--set", "innodb_io_capacity=1"};
  std::vector<std::vector<std::string>> commands = {
      {"run", "--stream", "uuidv4", "--rows", "2000"},
      {"run", "--stream", "uuidv4", "--rows", "2000", "--json"},
      {"sweep", "--stream", "uuidv4", "--rows", "2000", "--rows-per-ms", "50,500,1000"},
      {"sweep", "--stream", "uuidv4", "--rows", "2000", "--rows-per-ms", "50,500", "--json"},
      {"explain", "--keys", "10,20,15"},
      {"explain", "--stream", "uuidv4", "--rows", "50", "--json"},
  };
  for (auto& c : commands) c.insert(c.end(), set.begin(), set.end());
  commands.push_back({"experiment", exp.string()});
  for (const std::vector<std::string>& args : commands) {
    const Output o = Innosim(args);
    std::string shown;
    for (const std::string& a : args) shown += a + " ";
    EXPECT_EQ(o.exit_code, 0) << shown << o.err;
    EXPECT_EQ(o.out.find("innodb_io_capacity=1"), std::string::npos) << shown << o.out;
    EXPECT_EQ(Lines(o.err), 1) << shown << o.err;
    EXPECT_NE(o.err.find("warning: "), std::string::npos) << shown << o.err;
    EXPECT_NE(o.err.find("innodb_io_capacity=1"), std::string::npos) << shown << o.err;
    EXPECT_NE(o.err.find("adjusted to 100"), std::string::npos) << shown << o.err;
  }
  fs::remove_all(dir);
}

// Item 8: lenient parsing is gone: each of these was accepted (or checked
// only after connecting) and is now exit 2 with one line naming the option.
TEST(HostileCliTest, LenientValuesAreRefusedWithOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", "--stream", "uuidv4", "--rows", "0x10"}, "--rows"},
      {{"run", "--stream", "uuidv4", "--rows", " 10"}, "--rows"},
      {{"run", "--stream", "uuidv4", "--rows", "1e3"}, "--rows"},
      {{"sweep", "--stream", "uuidv4", "--rows", "100", "--rows-per-ms", "0x10,20"}, "--rows-per-ms"},
      {{"run", "--stream", "uuidv4", "--rows", "10", "--json=yes"}, "--json takes no value"},
      {{"explain", "--keys", "10,,20"}, "--keys"},
      {{"explain", "--keys", "10,20,"}, "--keys"},
      {{"explain", "--keys", "0,18446744073709551615"}, "above BIGINT's largest value"},
      {{"explain", "--keys", "9223372036854775808"}, "above BIGINT's largest value"},
      {{"run", "--stream", "uuidv4", "--rows", "10", "--page-size", ""}, "--page-size is empty"},
      {{"run", "--stream", "uuidv4", "--rows", "10", "--defaults-file", ""}, "--defaults-file is empty"},
      {{"run", "--stream", "uuidv4", "--rows", "10", "--page-map", ""}, "--page-map is empty"},
      {{"keys", "--stream", "uuidv4", "--rows", "3", "--output", ""}, "--output is empty"},
      {{"measure", "--stream", "uuidv4", "--rows", "10", "--port", "99999"}, "--port"},
      {{"measure", "--stream", "uuidv4", "--rows", "10", "--flush-io-capacity", "-1"}, "--flush-io-capacity"},
  };
  for (const auto& [args, says] : cases) {
    std::string shown;
    for (const std::string& a : args) shown += "'" + a + "' ";
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << shown << o.err;
    EXPECT_EQ(Lines(o.err), 1) << shown << o.err;
    EXPECT_NE(o.err.find(says), std::string::npos) << shown << o.err;
    EXPECT_EQ(o.out, "") << shown;
  }
  // What stays accepted: a decimal with a suffix, and a my.cnf line without
  // a value given to --set, as the README says both go through one path.
  const Output k = Innosim({"run", "--stream", "uuidv4", "--rows", "1.5k", "--no-flush", "--json"});
  EXPECT_EQ(k.exit_code, 0) << k.err;
  for (const char* line : {"skip-innodb-doublewrite", "enable-innodb-doublewrite"}) {
    const Output d = Innosim({"run", "--stream", "uuidv4", "--rows", "100", "--json", "--set", line});
    EXPECT_EQ(d.exit_code, 0) << line << ": " << d.err;
  }
}

// Item 2: a config file is read with a bound: /dev/zero as a my.cnf or an
// experiment file is refused after 1 MiB, not read until memory runs out.
TEST(HostileCliTest, ConfigFilesAreReadWithABound) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--stream", "uuidv4", "--rows", "10", "--defaults-file", "/dev/zero"},
        std::vector<std::string>{"sweep", "--stream", "uuidv4", "--rows", "10", "--defaults-file", "/dev/zero"},
        std::vector<std::string>{"experiment", "/dev/zero"}}) {
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << args[0] << ": " << o.err;
    EXPECT_EQ(Lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("more than 1 MiB"), std::string::npos) << o.err;
  }
}

// Item 2: the model's memory is estimated before the run (at least 16 bytes
// a record; PostgreSQL's index tuple) and a run that cannot fit is refused
// at once, naming --force, in every subcommand that simulates rows.
TEST(HostileCliTest, ARunLargerThanMemoryIsRefusedUpFront) {
  const fs::path dir = NewDir("memory");
  const fs::path toml = dir / "big.toml";
  std::ofstream(toml) << "name = \"big\"\n[[run]]\nstream = \"autoinc\"\nrows = \"1000G\"\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--stream", "autoinc", "--rows", "1000G", "--no-flush"},
        std::vector<std::string>{"sweep", "--stream", "autoinc", "--rows", "1000G", "--no-flush", "--rows-per-ms",
                                 "1,2"},
        std::vector<std::string>{"run", "--profile", "postgresql-15", "--stream", "autoinc", "--rows", "1000G",
                                 "--table", "CREATE TABLE t (id bigint PRIMARY KEY)"},
        std::vector<std::string>{"explain", "--stream", "autoinc", "--rows", "1000G"},
        std::vector<std::string>{"bench", "--stream", "autoinc", "--rows", "1000G"},
        std::vector<std::string>{"compare", "--stream", "autoinc", "--rows", "1000G"},
        std::vector<std::string>{"experiment", toml.string()},
        std::vector<std::string>{"experiment", std::string(INNOSIM_SOURCE_DIR) + "/experiments/seed000.toml", "--rows",
                                 "1000G"}}) {
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << args[0] << ": " << o.err;
    EXPECT_EQ(Lines(o.err), 1) << o.err;
    EXPECT_NE(o.err.find("GB of memory"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("--force"), std::string::npos) << o.err;
    EXPECT_EQ(o.out, "");
  }
  // A run that fits is not refused.
  EXPECT_EQ(Innosim({"run", "--stream", "autoinc", "--rows", "1000", "--no-flush"}).exit_code, 0);
  fs::remove_all(dir);
}

// Item 9: control bytes from the input are printed escaped.
TEST(HostileCliTest, ControlBytesInMessagesAreEscaped) {
  const Output o = Innosim({"run", "--stream", "a\x1b[31mred\rx", "--rows", "10"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.find('\x1b'), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\r'), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("a\\x1b[31mred\\x0dx"), std::string::npos) << o.err;
  EXPECT_EQ(Lines(o.err), 1) << o.err;
  const Output sub = Innosim({"r\x1bun"});
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_EQ(sub.err.find('\x1b'), std::string::npos) << sub.err;
}

}  // namespace
}  // namespace innosim
