// Pages written, page by page (BufferPool::PageWrites) and the page map
// shaded by them (`run --page-map --shade writes`).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "model/engine.h"
#include "nlohmann/json.hpp"
#include "sim/report.h"
#include "sim/runner.h"
#include "tests/innosim_process.h"
#include "tools/page_map.h"

namespace innosim {
namespace {

// Every write the buffer pool counted is one page's: the per-page counts of
// the table's pages, the undo pages and the statistics tables' pages (and
// their transactions' undo pages, model/dict_stats.h) add up to
// Innodb_pages_written, and
// random keys on a small pool write pages
// again and again while ordered keys write each about once.
TEST(PageWritesTest, PerPageWritesAddUpToInnodbPagesWritten) {
  for (const char* stream : {"uuidv4", "autoinc"}) {
    RunSpec spec;
    spec.stream.name = stream;
    spec.rows = 100000;
    spec.settings.push_back({"innodb_buffer_pool_size", "8M", "--set"});
    spec.page_writes = true;
    uint64_t sum = 0, pages = 0, most = 0, undo = 0, stats = 0;
    absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
      const uint64_t n = e.tablespace().size_in_pages();
      for (uint32_t p = 0; p < n; ++p) {
        const uint32_t w = e.flush_model()->buffer_pool().PageWrites(Engine::kPageEventSpace, p);
        sum += w;
        pages += w > 0;
        most = std::max<uint64_t>(most, w);
      }
      for (uint32_t p = 0; p < 1024; ++p) {
        undo += e.flush_model()->buffer_pool().PageWrites(Engine::kUndoPageEventSpace, p);
        stats += e.flush_model()->buffer_pool().PageWrites(DictStats::kStatsPageEventSpace, p);
      }
    });
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_GT(undo, 0u) << stream;
    EXPECT_GT(stats, 0u) << stream << ": the statistics recalculation is ON by default";
    EXPECT_EQ(sum + undo + stats, r->flush.Innodb_pages_written) << stream;
    EXPECT_GT(pages, r->report.primary.n_leaf_pages / 2) << stream;
    if (std::string(stream) == "uuidv4") {
      EXPECT_GT(most, 8u);
    } else {
      EXPECT_LE(static_cast<double>(sum) / static_cast<double>(pages), 2.0) << stream;
    }
  }
}

// The tally is a picture's input: a run that keeps none (the default of a
// RunSpec: only `run --shade writes` asks) has every counter and series
// point of one that keeps it, and PageWrites reads 0.
TEST(PageWritesTest, KeepingNoTallyChangesNoCounter) {
  for (const char* profile : {"mysql-8.4", "mariadb-10.11"}) {
    std::string json[2];
    uint64_t tallied[2] = {0, 0};
    for (const bool keep : {false, true}) {
      RunSpec spec;
      spec.stream.name = "uuidv4";
      spec.rows = 60000;
      spec.profile = profile;
      spec.series_every = 10000;
      spec.settings.push_back({"innodb_buffer_pool_size", "8M", "--set"});
      spec.page_writes = keep;
      absl::StatusOr<RunResult> r = innosim::Run(spec, [&](const Engine& e) {
        for (uint32_t p = 0; p < e.tablespace().size_in_pages(); ++p) {
          tallied[keep] += e.flush_model()->buffer_pool().PageWrites(Engine::kPageEventSpace, p);
        }
      });
      ASSERT_TRUE(r.ok()) << r.status();
      nlohmann::ordered_json j = RunToJson(*r);
      j.erase("elapsed_s");
      json[keep] = j.dump();
      for (const auto& point : r->series) json[keep] += std::to_string(point.sample.pages_written) + ",";
    }
    EXPECT_EQ(json[0], json[1]) << profile;
    EXPECT_EQ(tallied[0], 0u) << profile;
    EXPECT_GT(tallied[1], 60000u / 100) << profile;
  }
}

TEST(PageWritesTest, WriteBands) {
  EXPECT_EQ(PageWriteBand(0), 0);
  EXPECT_EQ(PageWriteBand(1), 0);
  EXPECT_EQ(PageWriteBand(2), 1);
  EXPECT_EQ(PageWriteBand(7), 2);
  EXPECT_EQ(PageWriteBand(8), 3);
  EXPECT_EQ(PageWriteBand(16), 4);
}

TEST(PageWritesCliTest, TheMapNamesEachPagesWritesAndRefusesNoFlush) {
  const std::string path = "/tmp/innosim_page_writes_test.svg";
  const Output ok = RunInnosim({"run", "--stream", "uuidv4", "--rows", "50k", "--set", "innodb_buffer_pool_size=8M",
                                "--page-map", path, "--shade", "writes"},
                               "/tmp/innosim_page_writes_err.txt");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const std::string svg = ReadWholeFile(path);
  EXPECT_NE(svg.find("times each page was written"), std::string::npos);
  EXPECT_NE(svg.find(">&gt;=16</text>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(svg, std::regex("written [0-9]+ times</title>")));
  std::remove(path.c_str());
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run", "--stream", "uuidv4", "--rows", "1k", "--page-map", path, "--shade", "writes", "--no-flush"},
           {"run", "--stream", "uuidv4", "--rows", "1k", "--page-map", path, "--shade", "reads"},
           {"run", "--stream", "uuidv4", "--rows", "1k", "--shade", "writes"}}) {
    const Output bad = RunInnosim(args, "/tmp/innosim_page_writes_err2.txt");
    EXPECT_EQ(bad.exit_code, 2) << args.back();
    EXPECT_NE(bad.err.find("--shade"), std::string::npos) << bad.err;
  }
}

}  // namespace
}  // namespace innosim
