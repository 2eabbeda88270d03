// sim/progress.h: the progress line's text for given counts and times, when
// it is drawn (an injected clock), and the runs' counting into a shared
// counter (RunMany on threads) without changing any result.
#include "sim/progress.h"

#include <stdlib.h>

#include <vector>

#include "gtest/gtest.h"
#include "sim/runner.h"

namespace innosim {
namespace {

TEST(ProgressTest, TextOfARun) {
  EXPECT_EQ(ProgressText(1250000, 0, {.rows = 3000000}, 3.0),
            "innosim: 1.25M/3.00M rows, 416.7k rows/s, 0:03 elapsed, ETA 0:04");
  EXPECT_EQ(ProgressText(500, 0, {.rows = 9000}, 0.5), "innosim: 500/9000 rows, 1000 rows/s, 0:01 elapsed, ETA 0:09");
  // Hours, and nothing done yet: no rate, no ETA.
  EXPECT_EQ(ProgressText(2000000000, 0, {.rows = 4000000000}, 3723),
            "innosim: 2.00G/4.00G rows, 537.2k rows/s, 1:02:03 elapsed, ETA 1:02:03");
  EXPECT_EQ(ProgressText(0, 0, {.rows = 100}, 0), "innosim: 0/100 rows, 0 rows/s, 0:00 elapsed, ETA ?");
}

TEST(ProgressTest, TextOfASweep) {
  EXPECT_EQ(ProgressText(4100000, 2, {.rows = 18000000, .configurations = 6}, 4.0),
            "innosim: configurations 2/6, 4.10M/18.00M rows, 1.02M rows/s, 0:04 elapsed, ETA 0:14");
}

// Nothing before start_after_s, then at most one line per kRedrawSeconds;
// Clear erases a drawn line and only a drawn one.
TEST(ProgressTest, DrawnLateAndAtMostFourTimesASecond) {
  ProgressCounter counter;
  counter.total_rows = 1000000;
  double now = 100.0;
  ProgressLine line(counter, 2.0, [&now]() { return now; });
  now = 101.9;
  EXPECT_EQ(line.Tick(), "");
  EXPECT_EQ(line.Clear(), "");
  counter.AddRows(ProgressCounter::kBatch * 100);
  now = 102.0;
  EXPECT_EQ(line.Tick(), "\rinnosim: 409.6k/1.00M rows, 204.8k rows/s, 0:02 elapsed, ETA 0:03\x1b[K");
  now = 102.2;
  EXPECT_EQ(line.Tick(), "");
  now = 102.25;
  EXPECT_NE(line.Tick(), "");
  // A sweep's counter: its configurations join the line.
  counter.total_configurations = 4;
  counter.configurations = 1;
  now = 103.0;
  EXPECT_EQ(line.Tick(), "\rinnosim: configurations 1/4, 409.6k/1.00M rows, 136.5k rows/s, 0:03 elapsed, ETA 0:04\x1b[K");
  EXPECT_EQ(line.Clear(), "\r\x1b[K");
  EXPECT_EQ(line.Clear(), "");
}

TEST(ProgressTest, StartAfterSecondsFromTheEnvironment) {
  ::setenv("INNOSIM_PROGRESS_AFTER_S", "0.5", 1);
  EXPECT_EQ(ProgressStartAfterSeconds(), 0.5);
  ::setenv("INNOSIM_PROGRESS_AFTER_S", "soon", 1);
  EXPECT_EQ(ProgressStartAfterSeconds(), ProgressLine::kStartAfterSeconds);
  ::unsetenv("INNOSIM_PROGRESS_AFTER_S");
  EXPECT_EQ(ProgressStartAfterSeconds(), ProgressLine::kStartAfterSeconds);
}

// Runs on several threads add every row (the batches and the remainders)
// and every configuration to one counter, and give the results they give
// without it.
TEST(ProgressTest, RunManyCountsIntoOneCounterWithoutChangingResults) {
  std::vector<RunSpec> specs;
  for (uint64_t rows : {10000, 5000, 4096, 123}) {
    RunSpec s;
    s.stream.name = "uuidv4";
    s.rows = rows;
    s.flush = false;
    specs.push_back(s);
  }
  specs[1].phases.push_back(*ParsePhase("insert:uuidv7-random:3000"));
  const std::vector<absl::StatusOr<RunResult>> plain = RunMany(specs, 3);
  ProgressCounter counter;
  for (RunSpec& s : specs) s.progress = &counter;
  const std::vector<absl::StatusOr<RunResult>> counted = RunMany(specs, 3);
  EXPECT_EQ(counter.rows.load(), 10000u + 5000 + 3000 + 4096 + 123);
  EXPECT_EQ(counter.total_rows.load(), counter.rows.load());
  EXPECT_EQ(counter.configurations.load(), specs.size());
  EXPECT_EQ(counter.total_configurations.load(), specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    ASSERT_TRUE(plain[i].ok() && counted[i].ok()) << i;
    EXPECT_EQ(plain[i]->report.data_length, counted[i]->report.data_length) << i;
    EXPECT_EQ(plain[i]->report.primary.counters.index_page_splits,
              counted[i]->report.primary.counters.index_page_splits)
        << i;
    EXPECT_EQ(plain[i]->report.primary.n_leaf_pages, counted[i]->report.primary.n_leaf_pages) << i;
  }
}

}  // namespace
}  // namespace innosim
