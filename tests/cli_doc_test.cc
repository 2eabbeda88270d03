// The documentation matches the program and stays a door: every option that
// `innosim --help-all` prints appears in docs/cli.md; README.md stays at most
// 6 KiB and docs/validation.md at most 15 KiB; the README's test command is
// the one .ci/run runs; every relative link in README.md and docs/*.md
// resolves; and no file of the repository points outside it (to the folder of seeds and notes it was built from).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

std::string ReadSource(const std::string& relative) {
  std::ifstream in(fs::path(INNOSIM_SOURCE_DIR) / relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The options of each subcommand in CLI11's --help-all text: a subcommand
// starts at an unindented lowercase word alone on its line, its options are
// the indented lines whose first column starts with '-'.
std::map<std::string, std::vector<std::string>> OptionsBySubcommand(const std::string& help) {
  std::map<std::string, std::vector<std::string>> out;
  const std::regex header(R"(^[a-z][a-z0-9-]*$)");
  const std::regex option_line(R"(^\s+(-[^ ]*( [A-Z][^ ]*)*))");
  const std::regex long_name(R"(--[a-z][a-z0-9-]*)");
  std::istringstream in(help);
  std::string line, sub;
  while (std::getline(in, line)) {
    if (std::regex_match(line, header)) {
      sub = line;
      continue;
    }
    std::smatch m;
    if (sub.empty() || !std::regex_search(line, m, option_line)) continue;
    const std::string first = m[1].str();
    for (auto it = std::sregex_iterator(first.begin(), first.end(), long_name); it != std::sregex_iterator(); ++it) {
      out[sub].push_back(it->str());
    }
  }
  return out;
}

TEST(CliDocTest, EveryOptionOfEverySubcommandIsInCliMd) {
  const Output o = RunInnosim({"--help-all"}, "/tmp/innosim_cli_doc_test_" + std::to_string(getpid()) + ".err");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::map<std::string, std::vector<std::string>> subs = OptionsBySubcommand(o.out);
  // The parse found the subcommands and their options (a change of CLI11's
  // layout must fail here, not pass with nothing checked).
  for (const char* s : {"run", "sweep", "experiment", "keys", "bench", "measure", "explain", "ibd"}) {
    ASSERT_TRUE(subs.count(s)) << "no subcommand '" << s << "' found in innosim --help-all:\n" << o.out;
    EXPECT_FALSE(subs.at(s).empty()) << s;
  }
  const std::string doc = ReadSource("docs/cli.md");
  ASSERT_FALSE(doc.empty()) << "docs/cli.md not found";
  std::string missing;
  for (const auto& [sub, options] : subs) {
    for (const std::string& opt : options) {
      if (opt == "--help") continue;
      const std::regex literal("`" + opt + "[` =]");
      if (!std::regex_search(doc, literal)) missing += "  innosim " + sub + " " + opt + "\n";
    }
  }
  EXPECT_TRUE(missing.empty()) << "options missing from docs/cli.md (write each as `--name`):\n" << missing;
}

TEST(CliDocTest, ReadmeAndValidationStayShort) {
  const std::string readme = ReadSource("README.md");
  const std::string validation = ReadSource("docs/validation.md");
  ASSERT_FALSE(readme.empty());
  ASSERT_FALSE(validation.empty());
  EXPECT_LE(readme.size(), 6144u) << "README.md is a door: move detail to docs/";
  EXPECT_LE(validation.size(), 15360u) << "docs/validation.md: current tables and their commands only";
}

TEST(CliDocTest, ReadmeTestCommandIsTheCiCommand) {
  const std::string ci = ReadSource(".ci/run");
  const std::string readme = ReadSource("README.md");
  std::string command;
  std::istringstream in(ci);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("tools/install-deps.sh", 0) == 0) command = line;
  }
  ASSERT_FALSE(command.empty()) << ".ci/run runs no tools/install-deps.sh command line";
  EXPECT_NE(readme.find("```sh\n" + command + "\n```"), std::string::npos)
      << "README.md must show .ci/run's command verbatim:\n"
      << command;
}

TEST(CliDocTest, RelativeLinksInTheDocsResolve) {
  const fs::path root(INNOSIM_SOURCE_DIR);
  std::vector<fs::path> pages = {root / "README.md", root / "model/fast/README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs")) {
    if (e.path().extension() == ".md") pages.push_back(e.path());
  }
  const std::regex link(R"(\]\(([^)\s]+)\))");
  std::string broken;
  for (const fs::path& page : pages) {
    std::ifstream in(page);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
      std::string target = (*it)[1].str();
      if (target.rfind("http", 0) == 0 || target[0] == '#') continue;
      target = target.substr(0, target.find('#'));
      if (!fs::exists(page.parent_path() / target)) {
        broken += "  " + fs::relative(page, root).string() + ": " + target + "\n";
      }
    }
  }
  EXPECT_TRUE(broken.empty()) << "links to files that do not exist:\n" << broken;
}

TEST(CliDocTest, NothingPointsOutsideTheRepository) {
  // Built from pieces so that this file does not match itself.
  const std::regex outside(std::string("shared") + "/(docs|seeds)|\\.\\./" + "shared");
  const fs::path root(INNOSIM_SOURCE_DIR);
  std::string hits;
  for (const char* dir : {"model", "sim", "tools", "tests", "docs", "experiments"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file()) continue;
      const std::string ext = e.path().extension().string();
      if (ext != ".h" && ext != ".cc" && ext != ".md" && ext != ".toml" && ext != ".sh" && ext != ".txt") continue;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        if (std::regex_search(line, outside)) {
          hits += "  " + fs::relative(e.path(), root).string() + ":" + std::to_string(n) + "\n";
        }
      }
    }
  }
  std::ifstream readme(root / "README.md");
  std::string line;
  for (int n = 1; std::getline(readme, line); ++n) {
    if (std::regex_search(line, outside)) hits += "  README.md:" + std::to_string(n) + "\n";
  }
  EXPECT_TRUE(hits.empty()) << "the repository must not depend on files outside it:\n" << hits;
}

}  // namespace
}  // namespace innosim
