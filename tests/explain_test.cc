// innosim explain (sim/explain.h, model/insert_trace.h): every insert's
// steps, its decision with the rule and why, the pages after, and the
// frozen-leaf summary; and the trace changes nothing in the tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "sim/explain.h"
#include "tests/innosim_process.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

ExplainSpec StreamSpecFor(const std::string& stream, uint64_t rows, uint32_t page_size) {
  ExplainSpec e;
  e.run.stream.name = stream;
  e.run.stream.rows_per_ms = 482;
  e.run.rows = rows;
  e.run.page_size = page_size;
  return e;
}

ExplainResult MustExplain(const ExplainSpec& e) {
  absl::StatusOr<ExplainResult> r = Explain(e);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ExplainResult{};
}

// The acceptance example of the teaching issue: UUIDv7 with random bits
// below the millisecond on 4 KiB pages splits both to the right and at the
// middle, and each split's why names PAGE_LAST_INSERT.
TEST(ExplainTest, UuidV7RandomSplitsToTheRightAndAtTheMiddleNamingPageLastInsert) {
  const ExplainResult r = MustExplain(StreamSpecFor("uuidv7-random", 400, 4096));
  ASSERT_EQ(r.inserts.size(), 400u);
  std::set<std::string> decisions;
  for (const ExplainedInsert& x : r.inserts) {
    ASSERT_FALSE(x.steps.empty());
    EXPECT_EQ(x.steps.front().step, TraceStep::kLeafReached);
    decisions.insert(x.decision);
    if (x.split) {
      EXPECT_NE(x.why.find("PAGE_LAST_INSERT"), std::string::npos) << x.row << ": " << x.why;
    }
  }
  bool right = false, middle = false;
  for (const std::string& d : decisions) {
    right |= d.find("split to the right") != std::string::npos;
    middle |= d.find("split at the middle") != std::string::npos;
  }
  EXPECT_TRUE(right);
  EXPECT_TRUE(middle);
}

// The trace only watches: the same spec gives the same tree as `run`.
TEST(ExplainTest, TheTraceChangesNoCounter) {
  for (const std::string stream : {"uuidv4", "uuidv7-random", "autoinc"}) {
    const ExplainResult e = MustExplain(StreamSpecFor(stream, 5000, 4096));
    RunSpec spec = StreamSpecFor(stream, 5000, 4096).run;
    spec.flush = false;
    const RunResult r = MustRun(spec);
    EXPECT_EQ(e.report.primary.counters.index_page_splits, r.report.primary.counters.index_page_splits) << stream;
    EXPECT_EQ(e.report.primary.counters.splits_middle, r.report.primary.counters.splits_middle) << stream;
    EXPECT_EQ(e.report.primary.n_leaf_pages, r.report.primary.n_leaf_pages) << stream;
    EXPECT_EQ(e.report.primary.size, r.report.primary.size) << stream;
    // Every split of the run, at any level, is one kSplit step.
    uint64_t splits = 0;
    for (const ExplainedInsert& x : e.inserts) {
      for (const TraceEvent& s : x.steps) splits += s.step == TraceStep::kSplit;
    }
    const IndexCounters& c = r.report.primary.counters;
    EXPECT_EQ(splits, c.splits_to_right + c.splits_to_left + c.splits_middle + c.splits_sure) << stream;
  }
}

// Ascending keys of a learner: after the root's first split every leaf split
// goes to the right, and every leaf but the last freezes almost full (the
// 1/16 reserve is what stays free).
TEST(ExplainTest, AscendingKeysSplitToTheRightAndFreezeFull) {
  ExplainSpec e;
  for (uint64_t k = 1; k <= 300; ++k) e.keys.push_back(Key::FromU64(k * 10));
  e.key_width = 8;
  e.run.page_size = 4096;
  const ExplainResult r = MustExplain(e);
  int right = 0, other = 0;
  for (const ExplainedInsert& x : r.inserts) {
    if (!x.split) continue;
    (x.decision.find("split to the right") != std::string::npos ? right : other)++;
  }
  EXPECT_GE(right, 8);
  EXPECT_LE(other, 1);  // the first root raise's middle split
  EXPECT_EQ(r.summary.frozen + 1, r.summary.leaves);
  EXPECT_GT(r.summary.frozen_mean_fill, 0.85);
}

// Descending keys split to the left (btr_page_get_split_rec_to_left).
TEST(ExplainTest, DescendingKeysSplitToTheLeft) {
  ExplainSpec e;
  for (uint64_t k = 300; k >= 1; --k) e.keys.push_back(Key::FromU64(k * 10));
  e.key_width = 8;
  e.run.page_size = 4096;
  const ExplainResult r = MustExplain(e);
  int left = 0;
  for (const ExplainedInsert& x : r.inserts) {
    if (x.split && x.rule == "btr_page_get_split_rec_to_left") ++left;
  }
  EXPECT_GE(left, 8);
}

TEST(ExplainTest, FiltersSelectRowsSplitsAndOnePage) {
  ExplainSpec e = StreamSpecFor("uuidv4", 2000, 4096);
  e.from = 100;
  e.to = 1500;
  e.only_splits = true;
  const ExplainResult r = MustExplain(e);
  ASSERT_FALSE(r.inserts.empty());
  for (const ExplainedInsert& x : r.inserts) {
    EXPECT_TRUE(x.split);
    EXPECT_GE(x.row, 100u);
    EXPECT_LE(x.row, 1500u);
  }
  ExplainSpec one = StreamSpecFor("uuidv4", 2000, 4096);
  one.page = 5;
  const ExplainResult p = MustExplain(one);
  ASSERT_FALSE(p.inserts.empty());
  EXPECT_LT(p.inserts.size(), 2000u);
  for (const ExplainedInsert& x : p.inserts) {
    bool touches = false;
    for (const TraceEvent& s : x.steps) {
      touches |= s.page.page_no == 5 || s.new_page == 5 || s.lower == 5 || s.upper == 5 || s.child == 5;
    }
    EXPECT_TRUE(touches) << x.row;
  }
}

// With the flush model (the default, as for `run`), every insert records the
// buffer pool and redo log as its row left them. A small pool with a low
// dirty-page limit makes the page cleaner write during the run.
TEST(ExplainFlushTest, EachInsertRecordsTheFlushModelAsItsRowLeftIt) {
  ExplainSpec e = StreamSpecFor("uuidv4", 3000, 4096);
  e.run.rows_per_sec = 200;
  e.run.settings = {{"innodb_buffer_pool_size", "5M", "test"},
                    {"innodb_max_dirty_pages_pct", "1", "test"},
                    {"innodb_max_dirty_pages_pct_lwm", "0.5", "test"}};
  const ExplainResult r = MustExplain(e);
  ASSERT_TRUE(r.flush);
  ASSERT_EQ(r.inserts.size(), 3000u);
  ASSERT_GT(r.buffer_pool_frames, 0u);
  uint64_t written = 0, lsn = 0, max_dirty = 0;
  bool written_midway = false;
  for (const ExplainedInsert& x : r.inserts) {
    ASSERT_TRUE(x.has_flush) << x.row;
    const FlushAfter& f = x.flush;
    EXPECT_GE(f.pages_written, written) << x.row;  // Innodb_pages_written never goes back
    EXPECT_GE(f.lsn, lsn) << x.row;
    EXPECT_GT(f.lsn, 0u);
    written_midway |= f.pages_written > written && x.row < 3000;
    written = f.pages_written;
    lsn = f.lsn;
    EXPECT_LE(f.dirty_pages, r.buffer_pool_frames) << x.row;
    // oldest_modification is the flush list tail's: 0 exactly when no page is dirty.
    EXPECT_EQ(f.dirty_pages == 0, f.oldest_modification == 0) << x.row;
    max_dirty = std::max(max_dirty, f.dirty_pages);
    EXPECT_EQ(f.checkpoint_age, f.lsn - f.checkpoint_lsn) << x.row;
    // No checkpoint passes a change still dirty.
    if (f.dirty_pages > 0) {
      EXPECT_LE(f.checkpoint_lsn, f.oldest_modification) << x.row;
    }
    EXPECT_LE(f.oldest_modification, f.lsn) << x.row;
    EXPECT_DOUBLE_EQ(f.seconds, static_cast<double>(x.row) / 200) << x.row;
  }
  EXPECT_TRUE(written_midway) << "the page cleaner wrote nothing before the load ended";
  EXPECT_LE(max_dirty, r.flush_counters.peak_dirty_pages);
  // The last row's count plus the final flush is the run's Innodb_pages_written.
  EXPECT_EQ(r.inserts.back().flush.pages_written + r.flush_counters.final_flush_pages,
            r.flush_counters.Innodb_pages_written);
  const RunResult run = MustRun(e.run);
  EXPECT_EQ(r.flush_counters.Innodb_pages_written, run.flush.Innodb_pages_written);
  EXPECT_EQ(r.flush_counters.peak_dirty_pages, run.flush.peak_dirty_pages);
}

// Without a page size the header names the default the run used, not 0.
TEST(ExplainTest, HeaderNamesThePageSizeUsed) {
  ExplainSpec e = StreamSpecFor("uuidv4", 3, 0);
  e.run.flush = false;
  const ExplainResult r = MustExplain(e);
  EXPECT_EQ(r.page_size, 16384u);
  EXPECT_NE(ExplainText(r).find(", 16384-byte pages, "), std::string::npos) << ExplainText(r).substr(0, 200);
}

TEST(ExplainFlushTest, NoFlushRecordsNothing) {
  ExplainSpec e = StreamSpecFor("uuidv7-random", 400, 4096);
  e.run.flush = false;
  const ExplainResult r = MustExplain(e);
  EXPECT_FALSE(r.flush);
  for (const ExplainedInsert& x : r.inserts) EXPECT_FALSE(x.has_flush) << x.row;
  EXPECT_EQ(ExplainJsonLines(r).find("\"flush\""), std::string::npos);
  EXPECT_EQ(ExplainText(r).find("Innodb_pages_written"), std::string::npos);
}

TEST(ExplainCliTest, JsonIsOneObjectPerInsertThenTheSummary) {
  const Output o =
      RunInnosim({"explain", "--stream", "uuidv7-random", "--rows", "400", "--page-size", "4096", "--json"},
                 "/tmp/innosim_explain_json_err.txt");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  std::istringstream in(o.out);
  std::string line;
  int inserts = 0;
  bool summary = false;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.contains("summary")) {
      summary = true;
      EXPECT_EQ(j["rows"], 400);
      continue;
    }
    ++inserts;
    EXPECT_EQ(j["row"], inserts);
    for (const char* field : {"key", "leaf", "path", "before", "decision", "rule", "why", "steps", "pages_after"}) {
      EXPECT_TRUE(j.contains(field)) << field;
    }
    EXPECT_TRUE(j["before"].contains("PAGE_LAST_INSERT"));
    EXPECT_TRUE(j["before"].contains("PAGE_N_RECS"));
    // The flush model runs by default, as for `run`.
    ASSERT_TRUE(j.contains("flush"));
    for (const char* field : {"dirty_pages", "oldest_modification", "lsn", "checkpoint_lsn", "checkpoint_age",
                              "Innodb_pages_written", "seconds"}) {
      EXPECT_TRUE(j["flush"].contains(field)) << field;
    }
  }
  EXPECT_EQ(inserts, 400);
  EXPECT_TRUE(summary);
}

TEST(ExplainCliTest, BadInputIsOneLineAndExitCodeTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"explain", "--keys", "10,x,30"},
                                             {"explain", "--keys", "10,20", "--stream", "uuidv4"},
                                             {"explain", "--keys", "10,0190a6b2-7c4e-7d21-9f00-0123456789ab"},
                                             {"explain", "--stream", "uuidv4"},
                                             {"explain", "--stream", "uuidv4", "--rows", "10", "--only", "merges"},
                                             {"explain", "--stream", "uuidv4", "--rows", "10", "--from", "0"}}) {
    const Output o = RunInnosim(args, "/tmp/innosim_explain_bad_err.txt");
    EXPECT_EQ(o.exit_code, 2) << args.back();
    EXPECT_TRUE(o.out.empty());
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

}  // namespace
}  // namespace innosim
