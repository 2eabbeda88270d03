// Scenario: a learner's scenario (experiments/scenarios/*.toml) for
// `innosim explain --scenario FILE`: keys or a stream, the table and page
// size, what the learner should see, and checks that innosim shows it.
//
//   title = "Large rows into a gap: one record per page"
//   source = "MySQL bug #119043"
//   see = "..."                       # what to look for, in words
//   keys = "1,2,3,4,5,20,6,7,8,9,10"  # or stream = "uuidv7-random", rows = 400
//   table = "CREATE TABLE t (...)"    # optional: seed000 by default
//   payload_bytes = 2600              # optional
//   page_size = 8192                  # optional: 16384 by default
//   profile = "mysql-8.4"             # optional
//   [expect]
//   alone_on_page = [6, 7, 8, 9, 10]  # each key ends as the only record of its leaf
//   decisions = ["split to the right"]  # each occurs at least once
//   frozen_mean_fill_below = 0.5      # the frozen leaves' mean fill
//   frozen_mean_fill_at_least = 0.85
//   leaves_at_most_fill = [0.2, 5]    # at least 5 leaves end at most 20% full
//   leaves_with_garbage = [3000, 5]   # at least 5 leaves end with >= 3000 bytes of PAGE_GARBAGE
//
// Errors name the file and line. Pure functions; thread-safe.
#ifndef INNOSIM_SIM_SCENARIO_H_
#define INNOSIM_SIM_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/explain.h"

namespace innosim {

struct Scenario {
  std::string path;
  std::string title;
  std::string source;  // the report or reference the scenario comes from
  std::string see;     // what the learner should see
  ExplainSpec spec;    // run.settings etc. as `explain` builds them
  // What innosim must show.
  std::vector<Key> alone_on_page;
  std::vector<std::string> decisions;
  std::optional<double> frozen_mean_fill_below;
  std::optional<double> frozen_mean_fill_at_least;
  std::optional<double> sparse_fill;  // with sparse_leaves: leaves at most this full
  uint64_t sparse_leaves = 0;
  uint32_t garbage_bytes = 0;  // with garbage_leaves: leaves with at least this PAGE_GARBAGE
  uint64_t garbage_leaves = 0;
};

absl::StatusOr<Scenario> LoadScenario(const std::string& path);

// The checks of `s` that `r` does not meet, one line each; empty when
// innosim shows what the scenario says.
std::vector<std::string> CheckScenario(const Scenario& s, const ExplainResult& r);

}  // namespace innosim

#endif  // INNOSIM_SIM_SCENARIO_H_
