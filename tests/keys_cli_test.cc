// innosim keys (sim/cli/keys_command.cc): a stream's keys written out read
// back through file:/file8: as the same run; bad input gets exit 2 and one
// line, and leaves no file behind.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "sim/key_stream.h"
#include "sim/uuid.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

Output Innosim(const std::string& args) {
  return RunInnosim(absl::StrSplit(args, ' ', absl::SkipEmpty()),
                    "/tmp/innosim_keys_cli_test_" + std::to_string(getpid()) + ".err");
}

std::string Tmp(const std::string& name) {
  return "/tmp/innosim_keys_cli_" + std::to_string(getpid()) + "_" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<Key> Keys(const std::string& name, size_t n) {
  StreamSpec spec;
  spec.name = name;
  absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
  EXPECT_TRUE(s.ok());
  std::vector<Key> keys(n);
  for (Key& k : keys) (*s)->Next(&k);
  return keys;
}

TEST(KeysCliTest, TextToStdoutIsTheStreamOneKeyPerLine) {
  Output o = Innosim("keys --stream uuidv1 --rows 1000");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::vector<std::string> lines = absl::StrSplit(o.out, '\n', absl::SkipEmpty());
  const std::vector<Key> keys = Keys("uuidv1", 1000);
  ASSERT_EQ(lines.size(), 1000u);
  for (size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(lines[i], FormatUuid(keys[i])) << i;
  // 8-byte keys as decimal; binary as the raw big-endian bytes.
  o = Innosim("keys --stream snowflake --rows 3");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::vector<Key> sf = Keys("snowflake", 3);
  EXPECT_EQ(o.out, std::to_string(sf[0].hi) + "\n" + std::to_string(sf[1].hi) + "\n" + std::to_string(sf[2].hi) + "\n");
  o = Innosim("keys --stream snowflake --rows 3 --format binary");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, KeyBytes(sf[0], 8) + KeyBytes(sf[1], 8) + KeyBytes(sf[2], 8));
}

// The brief's acceptance: run on the keys output equals run on the stream.
TEST(KeysCliTest, KeysFileGivesTheSameRunAsTheStream) {
  struct Case {
    std::string stream, format, prefix;
  };
  for (const Case& c : {Case{"uuidv4", "text", "file:"}, Case{"uuidv1", "binary", "file:"},
                        Case{"uuidv1", "text", "file:"}, Case{"snowflake", "binary", "file8:"}}) {
    const std::string path = Tmp(c.stream + "." + c.format);
    Output o = Innosim("keys --stream " + c.stream + " --rows 30k --format " + c.format + " --output " + path);
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(o.out, "");
    const Output from_stream = Innosim("run --stream " + c.stream + " --rows 30k --json");
    const Output from_file = Innosim("run --stream " + c.prefix + path + " --rows 30k --json");
    ASSERT_EQ(from_stream.exit_code, 0) << from_stream.err;
    ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
    const nlohmann::json a = nlohmann::json::parse(from_stream.out), b = nlohmann::json::parse(from_file.out);
    for (const char* field : {"index_page_splits", "n_leaf_pages", "size", "leaf_fill", "table"}) {
      EXPECT_EQ(a[field], b[field]) << c.stream << " " << c.format << " " << field;
    }
    EXPECT_GT(a["index_page_splits"].get<int64_t>(), 0);
    ::unlink(path.c_str());
  }
}

TEST(KeysCliTest, WritersKeysGiveTheSameRunAsTheWriters) {
  // The interleaved keys of 4 skewed writers, written out and read back, are
  // the run of the same writer options; and the options change the keys.
  const std::string writers = " --writers 4 --clock-skew-ms 5 --clock-drift-ppm 100 --interleave time";
  const std::string path = Tmp("writers.bin");
  Output o = Innosim("keys --stream uuidv7-subms --rows 30k --format binary --output " + path + writers);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const Output from_stream = Innosim("run --stream uuidv7-subms --rows 30k --json" + writers);
  const Output from_file = Innosim("run --stream file16:" + path + " --rows 30k --json");
  const Output one = Innosim("run --stream uuidv7-subms --rows 30k --json");
  ASSERT_EQ(from_stream.exit_code, 0) << from_stream.err;
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  const nlohmann::json a = nlohmann::json::parse(from_stream.out), b = nlohmann::json::parse(from_file.out),
                       c = nlohmann::json::parse(one.out);
  for (const char* field : {"index_page_splits", "n_leaf_pages", "size", "leaf_fill"}) {
    EXPECT_EQ(a[field], b[field]) << field;
  }
  EXPECT_NE(a["leaf_fill"], c["leaf_fill"]);
  ::unlink(path.c_str());
  // Bad writer options: exit 2, one line naming the option.
  for (const std::string& bad : {std::string(" --writers 0"), std::string(" --writers 2 --interleave random"),
                                 std::string(" --writers 2 --clock-skew-ms -3"),
                                 std::string(" --writers 2 --writer-weights 1,2")}) {
    Output e = Innosim("keys --stream uuidv7-subms --rows 10" + bad);
    EXPECT_EQ(e.exit_code, 2) << bad;
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
    EXPECT_EQ(e.out, "") << bad;
  }
}

TEST(KeysCliTest, LargeOutputIsStreamedIntoTheFile) {
  // 500k text UUIDs = 18.5 MB: above the in-memory limit, so written through
  // a temporary file and a rename; the result is the same keys.
  const std::string path = Tmp("large.txt");
  Output o = Innosim("keys --stream ulid-monotonic --rows 500k --output " + path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string text = ReadFile(path);
  ASSERT_EQ(text.size(), 500000u * 37);
  const std::vector<Key> keys = Keys("ulid-monotonic", 500000);
  EXPECT_EQ(text.substr(0, 37), FormatUuid(keys[0]) + "\n");
  EXPECT_EQ(text.substr(text.size() - 37), FormatUuid(keys.back()) + "\n");
  // No temporary is left beside it.
  FILE* p = ::popen(("ls " + path + ".tmp.* 2>/dev/null | wc -l").c_str(), "r");
  char buf[32] = {};
  ASSERT_NE(p, nullptr);
  ASSERT_NE(std::fgets(buf, sizeof buf, p), nullptr);
  ::pclose(p);
  EXPECT_EQ(std::string(buf), "0\n");
  ::unlink(path.c_str());
}

TEST(KeysCliTest, BadInputGetsExitCode2AndOneLineAndNoFile) {
  const std::string out = Tmp("bad.txt");
  const std::string short_file = Tmp("short.txt");
  {
    std::ofstream f(short_file);
    f << "018f0000-0000-7000-8000-000000000001\n018f0000-0000-7000-8000-000000000002\n";
  }
  for (const std::string& args :
       {"keys --stream uuidv2 --rows 10 --output " + out, "keys --stream ulid --rows 0 --output " + out,
        "keys --stream ulid --rows ten --output " + out, "keys --stream ulid --rows 10 --format csv --output " + out,
        "keys --stream ulid --rows 10 --rows-per-ms 0 --output " + out,
        "keys --stream ulid --rows 10 --seed -1 --output " + out,
        std::string("keys --stream ulid --rows 10 --output /nonexistent-folder/k.txt"),
        "keys --stream file:" + short_file + " --rows 3 --output " + out,
        "keys --stream file:/nonexistent-keys --rows 3 --output " + out}) {
    const Output o = Innosim(args);
    EXPECT_EQ(o.exit_code, 2) << args << ": " << o.err;
    EXPECT_EQ(o.err.rfind("innosim: ", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
    EXPECT_EQ(o.out, "") << args;
    EXPECT_FALSE(Exists(out)) << args;
  }
  const Output o = Innosim("keys --stream uuidv1swap --rows 1");
  EXPECT_NE(o.err.find("did you mean 'uuidv1-swap'"), std::string::npos) << o.err;
  ::unlink(short_file.c_str());
}

// run finds the new streams, suggests them, and gives snowflake the BIGINT
// table (its 8-byte width reaches the table check before the run).
TEST(KeysCliTest, RunKnowsTheNewStreamsAndTheirWidths) {
  Output o = Innosim("run --stream uuidv1swap --rows 1");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("did you mean 'uuidv1-swap'"), std::string::npos) << o.err;
  for (const char* name : {"uuidv1", "uuidv1-swap", "uuidv6", "ulid", "ulid-monotonic", "snowflake"}) {
    EXPECT_NE(o.err.find(name), std::string::npos) << o.err;
  }
  o = Innosim("run --stream snowflake --rows 1k --no-flush --json");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(nlohmann::json::parse(o.out)["table"].get<std::string>().find("BIGINT"), std::string::npos);
  const std::vector<std::string> args = {"run", "--stream", "snowflake", "--rows", "10",
                                         "--table", "CREATE TABLE t (id BINARY(16) PRIMARY KEY)"};
  o = RunInnosim(args, Tmp("width.err"));
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("8-byte keys"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace innosim
