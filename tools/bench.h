// Bench: innosim's engine against absl::btree_set<KeyHalf> (16-byte keys) on the same keys, in
// one process, one after the other: wall time and peak resident memory of
// each (VmHWM after /proc/self/clear_refs), and the ratios.
//
// With several repetitions the two sides take turns going first (what the
// first side leaves behind, freed memory or a warmer cache, then favours
// neither), and each side is summed up by its median time and its largest
// peak memory; the ratios are those of the summaries.
//
// The key stream is generated afresh for each side (it costs well under 5%
// of either), so neither side pays for holding the keys elsewhere.
#ifndef INNOSIM_TOOLS_BENCH_H_
#define INNOSIM_TOOLS_BENCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/runner.h"

namespace innosim {

struct BenchSide {
  double seconds = 0;
  uint64_t peak_rss_bytes = 0;  // VmHWM growth during the side's run
};

struct BenchResult {
  RunSpec spec;
  // One entry per repetition, in the order run.
  std::vector<BenchSide> innosim_runs;
  std::vector<BenchSide> btree_set_runs;
  // Median time and largest peak memory of each side's runs.
  BenchSide innosim;
  BenchSide btree_set;
  uint64_t index_page_splits = 0;  // proof that the engine did the work
};

// repetitions >= 1; an error if it is not, or if the spec is invalid.
absl::StatusOr<BenchResult> RunBench(const RunSpec& spec, int repetitions = 1);
std::string BenchReport(const BenchResult& r);
// The same as one JSON object (one line): the spec, each side's summary and
// per-repetition figures, the ratios and index_page_splits.
std::string BenchJson(const BenchResult& r);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_BENCH_H_
