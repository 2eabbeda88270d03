// The folder boundaries of docs/architecture.md, checked on the sources
// themselves: model/ is pure computation (its rule files make no OS calls,
// print nothing, abort nothing, and include no sim/ or tools/ header); the
// OS calls of the speed devices stay in model/fast/; sim/'s library
// includes no tools/ header (only the command line in sim/cli/ joins them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace innosim {
namespace {

namespace fs = std::filesystem;

struct Source {
  std::string path;  // relative to the source tree
  std::string text;
};

// The .h and .cc files under `dir` (relative to the source tree); with
// `recurse` false, only those directly in it.
std::vector<Source> SourcesIn(const std::string& dir, bool recurse) {
  std::vector<Source> out;
  const fs::path root = fs::path(INNOSIM_SOURCE_DIR);
  auto take = [&](const fs::path& p) {
    const std::string ext = p.extension().string();
    if (ext != ".h" && ext != ".cc") return;
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({fs::relative(p, root).string(), ss.str()});
  };
  if (recurse) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) take(e.path());
  } else {
    for (const auto& e : fs::directory_iterator(root / dir)) take(e.path());
  }
  return out;
}

// Lines of `s` matching `re`, as "path:line: text".
std::vector<std::string> Matches(const Source& s, const std::regex& re) {
  std::vector<std::string> hits;
  std::istringstream in(s.text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (std::regex_search(line, re)) hits.push_back(s.path + ":" + std::to_string(n) + ": " + line);
  }
  return hits;
}

TEST(LayoutTest, ModelRuleFilesMakeNoOsCallsAndNeitherPrintNorAbort) {
  const std::regex forbidden(
      R"(\b(mmap|mremap|munmap|madvise|sysconf|fopen|std::abort|abort|exit|printf|fprintf|puts)\s*\(|std::(cout|cerr|clog)\b|\bstderr\b|\bstdout\b|#include\s*<(cassert|assert\.h|iostream|cstdio|stdio\.h|fstream|sys/mman\.h|unistd\.h)>|\bassert\s*\()");
  const std::vector<Source> files = SourcesIn("model", false);
  ASSERT_GT(files.size(), 20u);
  std::vector<std::string> hits;
  for (const Source& s : files) {
    for (std::string& h : Matches(s, forbidden)) hits.push_back(std::move(h));
  }
  EXPECT_TRUE(hits.empty()) << "model/'s rule files must stay pure computation (OS calls belong in model/fast/, "
                               "errors in a Status or Verify):\n"
                            << [&] {
                                 std::string all;
                                 for (const std::string& h : hits) all += h + "\n";
                                 return all;
                               }();
}

TEST(LayoutTest, ModelIncludesNoSimOrToolsHeader) {
  const std::regex outward(R"(#include\s*"(sim|tools|tests)/)");
  std::vector<std::string> hits;
  for (const Source& s : SourcesIn("model", true)) {
    for (std::string& h : Matches(s, outward)) hits.push_back(std::move(h));
  }
  EXPECT_TRUE(hits.empty()) << hits.size()
                            << " include(s) of sim/ or tools/ in model/, first: " << (hits.empty() ? "" : hits[0]);
}

TEST(LayoutTest, SimLibraryIncludesNoToolsHeader) {
  const std::regex tools(R"(#include\s*"tools/)");
  std::vector<std::string> hits;
  for (const Source& s : SourcesIn("sim", false)) {
    for (std::string& h : Matches(s, tools)) hits.push_back(std::move(h));
  }
  EXPECT_TRUE(hits.empty()) << hits.size() << " include(s) of tools/ in sim/ (only sim/cli/ may), first: "
                            << (hits.empty() ? "" : hits[0]);
}

TEST(LayoutTest, ToolsIncludeNoCommandLineHeader) {
  const std::regex cli(R"(#include\s*"sim/cli/)");
  std::vector<std::string> hits;
  for (const Source& s : SourcesIn("tools", false)) {
    for (std::string& h : Matches(s, cli)) hits.push_back(std::move(h));
  }
  EXPECT_TRUE(hits.empty()) << "tools/ includes sim/cli/: " << (hits.empty() ? "" : hits[0]);
}

// The checks can fail: the forbidden patterns do match what they forbid.
TEST(LayoutTest, ThePatternsCatchWhatTheyForbid) {
  const Source bad{"model/x.cc", "#include <cstdio>\n  std::fprintf(stderr, \"x\");\n  std::abort();\n"};
  const std::regex forbidden(R"(\b(std::abort|abort|fprintf)\s*\(|\bstderr\b|#include\s*<cstdio>)");
  EXPECT_EQ(Matches(bad, forbidden).size(), 3u);
}

}  // namespace
}  // namespace innosim
