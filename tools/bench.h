// Bench: innosim's engine against absl::btree_set<Key> on the same keys, in
// one process, one after the other: wall time and peak resident memory of
// each (VmHWM after /proc/self/clear_refs), and the ratios.
//
// The key stream is generated afresh for each side (it costs well under 5%
// of either), so neither side pays for holding the keys elsewhere.
#ifndef INNOSIM_TOOLS_BENCH_H_
#define INNOSIM_TOOLS_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "sim/runner.h"

namespace innosim {

struct BenchSide {
  double seconds = 0;
  uint64_t peak_rss_bytes = 0;  // VmHWM growth during the side's run
};

struct BenchResult {
  RunSpec spec;
  BenchSide innosim;
  BenchSide btree_set;
  uint64_t index_page_splits = 0;  // proof that the engine did the work
};

absl::StatusOr<BenchResult> RunBench(const RunSpec& spec);
std::string BenchReport(const BenchResult& r);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_BENCH_H_
