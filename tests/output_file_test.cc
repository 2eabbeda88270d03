// sim/output_file.h: unnamed temporaries (and the named fallback), outputs
// over inputs, the room check; sim/printable.h.
#include "sim/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/printable.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

struct Folder {
  fs::path path;
  explicit Folder(const std::string& name)
      : path(fs::temp_directory_path() / ("innosim_output_file_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
  std::vector<std::string> Names() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(path)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
};

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class AtomicFileWriterTest : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override { UseNamedTemporariesForTest(GetParam()); }
  void TearDown() override { UseNamedTemporariesForTest(false); }
};

TEST_P(AtomicFileWriterTest, NothingIsVisibleBeforeCommitAndOnlyTheFileAfter) {
  Folder dir("commit");
  const fs::path target = dir.path / "out.csv";
  AtomicFileWriter w;
  ASSERT_TRUE(w.Open(target.string()).ok());
  EXPECT_EQ(w.unnamed(), !GetParam());
  ASSERT_TRUE(w.Append("a,b\n").ok());
  // An unnamed temporary has no name in the folder; the fallback has one.
  EXPECT_EQ(dir.Names().size(), GetParam() ? 1u : 0u);
  ASSERT_TRUE(w.Commit().ok());
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out.csv"});
  EXPECT_EQ(Slurp(target), "a,b\n");
  // The mode a new file gets from open(2).
  struct stat st;
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  const mode_t mask = ::umask(022);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_P(AtomicFileWriterTest, AnExistingFileIsReplacedWhole) {
  Folder dir("replace");
  const fs::path target = dir.path / "out.csv";
  std::ofstream(target) << "old\n";
  ASSERT_TRUE(WriteFileAtomically(target.string(), "new\n").ok());
  EXPECT_EQ(Slurp(target), "new\n");
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out.csv"});
}

TEST_P(AtomicFileWriterTest, AbandonedWriterLeavesTheOldFileAndNothingElse) {
  Folder dir("abandon");
  const fs::path target = dir.path / "out.csv";
  std::ofstream(target) << "old\n";
  {
    AtomicFileWriter w;
    ASSERT_TRUE(w.Open(target.string()).ok());
    ASSERT_TRUE(w.Append("half").ok());
  }
  EXPECT_EQ(Slurp(target), "old\n");
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out.csv"});
}

TEST_P(AtomicFileWriterTest, ASymlinkIsWrittenThrough) {
  Folder dir("link");
  const fs::path target = dir.path / "real.csv";
  std::ofstream(target) << "old\n";
  fs::create_symlink(target, dir.path / "link.csv");
  ASSERT_TRUE(WriteFileAtomically((dir.path / "link.csv").string(), "new\n").ok());
  EXPECT_TRUE(fs::is_symlink(dir.path / "link.csv"));
  EXPECT_EQ(Slurp(target), "new\n");
}

INSTANTIATE_TEST_SUITE_P(UnnamedAndNamed, AtomicFileWriterTest, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& i) { return i.param ? "Named" : "Unnamed"; });

TEST(OutputFileTest, AnInputIsRefusedAsAnOutput) {
  Folder dir("inputs");
  const fs::path in = dir.path / "keys.txt";
  std::ofstream(in) << "1\n";
  NoteInputFile(in.string());
  EXPECT_FALSE(CheckOutputPath(in.string(), "--series").ok());
  EXPECT_FALSE(CheckOutputPath((dir.path / "." / "keys.txt").string(), "--series").ok());
  EXPECT_FALSE(WriteFileAtomically(in.string(), "x").ok());
  EXPECT_EQ(Slurp(in), "1\n");
  // A hard link is the same file.
  fs::create_hard_link(in, dir.path / "hard.txt");
  EXPECT_FALSE(CheckOutputPath((dir.path / "hard.txt").string(), "--svg").ok());
  // An input not yet there: the same real path.
  NoteInputFile((dir.path / "later.txt").string());
  EXPECT_FALSE(CheckOutputPath((dir.path / "sub" / ".." / "later.txt").string(), "--svg").ok());
  EXPECT_FALSE(CheckNotAnInput((dir.path / "later.txt").string(), "--svg").ok());
  EXPECT_TRUE(CheckOutputPath((dir.path / "other.txt").string(), "--svg").ok());
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"hard.txt", "keys.txt"}));
}

TEST(OutputFileTest, RoomCheckGivesTheEstimateAndTheFreeSpace) {
  Folder dir("room");
  EXPECT_TRUE(CheckRoomFor((dir.path / "k.txt").string(), 1000, "--output").ok());
  const absl::Status s = CheckRoomFor((dir.path / "k.txt").string(), UINT64_MAX, "--output");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("18446744073709551615 bytes"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("free"), std::string::npos) << s.message();
}

TEST(PrintableTest, ControlBytesAreEscapedAndTextKept) {
  EXPECT_EQ(Printable("plain text, 1-2_3"), "plain text, 1-2_3");
  EXPECT_EQ(Printable("a\x1b[31mred"), "a\\x1b[31mred");
  EXPECT_EQ(Printable(std::string("n\0l\n\t\r\x7f", 7)), "n\\x00l\\x0a\\x09\\x0d\\x7f");
  EXPECT_EQ(Printable("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // UTF-8 kept
  EXPECT_EQ(Printable("\xc2\x9b"), "\\xc2\\x9b");                              // C1 CSI escaped
  EXPECT_EQ(Printable("\xff\xc3"), "\\xff\\xc3");                              // not UTF-8
  EXPECT_EQ(Printable("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");                     // overlong
}

}  // namespace
}  // namespace innosim
