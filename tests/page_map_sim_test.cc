// The page map of a simulated tablespace (innosim run --page-map): the
// census it is drawn from holds every page of the simulated file, its leaf
// cells are the index's leaf pages, key order follows the keys, the legend
// names every fill range, and the command line writes the file atomically
// and refuses a bad path before it runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim/runner.h"
#include <functional>
#include "tests/innosim_process.h"
#include "tools/page_map.h"
#include "tools/simulated_census.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

RunSpec Spec(const std::string& stream, uint64_t rows, const std::string& profile, bool flush = false) {
  RunSpec spec;
  spec.stream.name = stream;
  spec.stream.rows_per_ms = 482;
  spec.rows = rows;
  spec.profile = profile;
  spec.flush = flush;
  return spec;
}

// Runs `spec` as `innosim run` does and hands `check` the run's engine at
// the end of the load (where --page-map draws it); returns the run's result.
RunResult WithRunEngine(const RunSpec& spec, const std::function<void(const Engine&)>& check) {
  bool checked = false;
  absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
    checked = true;
    check(e);
  });
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(checked);
  return r.ok() ? *r : RunResult{};
}

// The page numbers of the cells whose <title> matches `what` (after
// "page N: "), in drawing order.
std::vector<uint32_t> CellPages(const std::string& svg, const std::string& what = "") {
  std::vector<uint32_t> pages;
  const std::regex cell("<title>page ([0-9]+): ([^<]*)</title>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cell); it != std::sregex_iterator(); ++it) {
    if ((*it)[2].str().rfind(what, 0) == 0) pages.push_back(static_cast<uint32_t>(std::stoul((*it)[1].str())));
  }
  return pages;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The map is drawn from the run's own engine, flush model included: its
// live index pages are the pages the run reports in use.
TEST(PageMapSimTest, TheMapShowsTheRunsTree) {
  for (const char* profile : {"mysql-8.4", "mariadb-10.11"}) {
    uint64_t live = 0;
    const RunResult r = WithRunEngine(Spec("uuidv4", 30000, profile, /*flush=*/true),
                                      [&](const Engine& e) { live = SimulatedCensus(e, "sim").live_index_pages; });
    EXPECT_EQ(live, r.report.primary.used_pages) << profile;
    EXPECT_GT(live, 100u) << profile;
  }
}

TEST(PageMapSimTest, OneCellPerPageOfTheSimulatedFile) {
  for (const char* profile : {"mysql-8.4", "mariadb-10.11"}) {
    WithRunEngine(Spec("uuidv4", 30000, profile), [&](const Engine& e) {
      const EngineReport rep = e.Report();
      const IbdCensus c = SimulatedCensus(e, "sim");
      const uint64_t file_pages = rep.file_size / e.tablespace().page_size();
      EXPECT_EQ(c.n_pages, file_pages) << profile;
      EXPECT_EQ(CellPages(PageMapSvg(c)).size(), file_pages) << profile;
      // Pages 0, 1, 2 are FSP_HDR, IBUF_BITMAP, INODE; MySQL's page 3 the SDI root.
      EXPECT_EQ(c.pages[0].state, IbdPageState::kSystem);
      EXPECT_EQ(c.pages[2].fil_type, kFilPageInode);
      const uint32_t root = std::string(profile) == "mysql-8.4" ? 4 : 3;
      EXPECT_EQ(c.indexes[0].root_page, root) << profile;
      EXPECT_EQ(c.pages[root].state, IbdPageState::kIndexLive) << profile;
      // Every page is one of live, system, unused; the live ones are the tree's.
      EXPECT_EQ(c.live_index_pages, rep.primary.used_pages) << profile;
      uint64_t system = 0;
      for (const IbdPage& pg : c.pages) system += pg.state == IbdPageState::kSystem;
      EXPECT_EQ(c.live_index_pages + system + c.unused_pages, c.n_pages) << profile;
    });
  }
}

TEST(PageMapSimTest, LeafCellsAreTheLeafPages) {
  WithRunEngine(Spec("uuidv7-random", 30000, "mariadb-10.11"), [&](const Engine& e) {
    const IbdCensus c = SimulatedCensus(e, "sim");
    PageMapSvgOptions o;
    o.index_names = SimulatedIndexNames(e);
    const uint64_t n_leaf = e.Report().primary.n_leaf_pages;
    ASSERT_GT(n_leaf, 100u);
    EXPECT_EQ(CellPages(PageMapSvg(c, o), "PRIMARY (index 1) level 0,").size(), n_leaf);
    o.order = PageMapOrder::kKey;
    EXPECT_EQ(CellPages(PageMapSvg(c, o), "PRIMARY (index 1) level 0,").size(), n_leaf);
  });
}

// In key order the leaf cells follow the keys: each page's first key is
// above the previous page's last. In file order they do not for random keys.
TEST(PageMapSimTest, KeyOrderFollowsTheKeys) {
  WithRunEngine(Spec("uuidv4", 30000, "mariadb-10.11"), [&](const Engine& e) {
    const IbdCensus c = SimulatedCensus(e, "sim");
    const PageStore& store = e.page_store();
    auto in_key_order = [&](const std::vector<uint32_t>& pages) {
      for (size_t i = 1; i < pages.size(); ++i) {
        const IndexPage& a = store.page(pages[i - 1]);
        const IndexPage& b = store.page(pages[i]);
        if (a.n_recs() == 0 || b.n_recs() == 0 || !(a.key(a.n_recs() - 1) < b.key(0))) return false;
      }
      return true;
    };
    PageMapSvgOptions o;
    o.index_names = SimulatedIndexNames(e);
    o.order = PageMapOrder::kKey;
    const std::vector<uint32_t> by_key = CellPages(PageMapSvg(c, o), "PRIMARY (index 1) level 0,");
    EXPECT_EQ(by_key.size(), e.Report().primary.n_leaf_pages);
    EXPECT_TRUE(in_key_order(by_key));
    // Non-leaf levels follow the leaves, the root last.
    const std::vector<uint32_t> all = CellPages(PageMapSvg(c, o));
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.back(), e.primary().root());
    o.order = PageMapOrder::kFile;
    const std::vector<uint32_t> by_file = CellPages(PageMapSvg(c, o), "PRIMARY (index 1) level 0,");
    EXPECT_FALSE(in_key_order(by_file));
  });
}

// The legend writes each fill range beside its shade, and every title line
// fits the picture's width (0.6 em per monospace character at 11 px).
TEST(PageMapSimTest, LegendLabelsEveryRangeAndTheTitleFits) {
  WithRunEngine(Spec("autoinc", 20000, "mysql-8.4"), [&](const Engine& e) {
    PageMapSvgOptions o;
    o.title =
        "innosim run --stream autoinc --rows 20000 --profile mysql-8.4 --page-map /a/rather/long/path/to/a.svg: "
        "the simulated tablespace of a table whose title is far longer than one line of the map";
    const std::string svg = PageMapSvg(SimulatedCensus(e, "sim"), o);
    for (const char* label : {"&lt;25%", "25-50%", "50-75%", "75-90%", "&gt;=90%"}) {
      EXPECT_NE(svg.find(std::string(">") + label + "</text>"), std::string::npos) << label;
    }
    for (const char* kind : {"non-leaf page", "stale INDEX page", "system page", "unused page"}) {
      EXPECT_NE(svg.find(kind), std::string::npos) << kind;
    }
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, std::regex("<svg [^>]*width=\"([0-9]+)\"")));
    const int width = std::stoi(m[1].str());
    const std::regex title_line("<text x=\"([0-9]+)\" y=\"[0-9]+\" font-size=\"11\">([^<]*)</text>");
    int lines = 0;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), title_line); it != std::sregex_iterator(); ++it) {
      ++lines;
      const double right = std::stoi((*it)[1].str()) + 6.6 * static_cast<double>((*it)[2].str().size());
      EXPECT_LE(right, width) << (*it)[2].str();
    }
    EXPECT_GE(lines, 4);  // the long title wrapped
  });
}

std::string TempDir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

TEST(PageMapSimCliTest, WritesTheMapAtomically) {
  const std::string dir = TempDir("page_map_cli");
  const std::string path = dir + "/map.svg";
  { std::ofstream(path) << "old"; }
  Output o = RunInnosim(
      {"run", "--stream", "uuidv7-random", "--rows", "20k", "--no-flush", "--page-map", path, "--order", "key"},
      dir + "/err");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string svg = ReadAll(path);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>\n"), std::string::npos);
  EXPECT_NE(svg.find("key order"), std::string::npos);
  // No temporary left beside it.
  std::vector<std::string> names;
  for (const auto& f : fs::directory_iterator(dir)) names.push_back(f.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"map.svg"});

  // A run that fails after the path was accepted leaves the old file as it was.
  { std::ofstream(path) << "old"; }
  { std::ofstream(dir + "/keys.txt") << "018f0000-0000-7000-8000-000000000001\n"; }
  o = RunInnosim({"run", "--stream", "file:" + dir + "/keys.txt", "--rows", "10", "--page-map", path}, dir + "/err");
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(ReadAll(path), "old");
}

TEST(PageMapSimCliTest, RefusesABadPathOrOrderBeforeRunning) {
  // The key file holds one key for --rows 50M: a run would stop at row 2
  // with the key file's message, so the option's own message (and no
  // output) shows it was refused before the run began.
  const std::string keys = ::testing::TempDir() + "/page_map_one_key.txt";
  { std::ofstream(keys) << "018f0000-0000-7000-8000-000000000001\n"; }
  struct Case {
    std::vector<std::string> extra;
    std::string names;  // what the one line must name
  };
  for (const Case& c : {Case{{"--page-map", "/nonexistent-folder/map.svg"}, "--page-map"},
                        Case{{"--page-map", "/tmp/x.svg", "--order", "keys"}, "--order"},
                        Case{{"--order", "key"}, "--order"}}) {
    std::vector<std::string> args = {"run", "--stream", "file:" + keys, "--rows", "50M"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    Output o = RunInnosim(args, ::testing::TempDir() + "/page_map_err");
    EXPECT_EQ(o.exit_code, 2) << c.extra[0];
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(c.names), std::string::npos) << o.err;
    EXPECT_EQ(o.err.find(keys), std::string::npos) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
  std::remove(keys.c_str());
}

}  // namespace
}  // namespace innosim
