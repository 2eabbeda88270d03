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
