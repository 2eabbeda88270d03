// Runner: one simulation from a key stream to an EngineReport, and many of
// them in parallel.
//
// A RunSpec names everything a run depends on (stream, seed, rows, clock
// rate, profile, page size); the same spec gives byte-identical results.
// RunMany spreads independent specs over threads (each run is
// single-threaded and owns its engine), returning results in spec order.
#ifndef INNOSIM_SIM_RUNNER_H_
#define INNOSIM_SIM_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "model/engine.h"
#include "sim/key_stream.h"

namespace innosim {

struct RunSpec {
  StreamSpec stream;
  uint64_t rows = 0;
  std::string profile = "mysql-8.4";
  uint32_t page_size = 16384;
  std::string label;  // for tables; defaults to the stream name
};

struct RunResult {
  RunSpec spec;
  int key_width = 16;
  std::string table;     // the table definition used, as SQL
  EngineReport report;
  double elapsed_s = 0;  // wall time of the insert loop
};

// Checks a spec without running it: one-line errors saying how to mend it.
absl::Status ValidateRunSpec(const RunSpec& spec);
absl::StatusOr<RunResult> Run(const RunSpec& spec);
// Runs every spec, `threads` at a time (0 = all cores).
std::vector<absl::StatusOr<RunResult>> RunMany(const std::vector<RunSpec>& specs, int threads = 0);

// CREATE TABLE text of a TableDef.
std::string TableSql(const TableDef& t);

}  // namespace innosim

#endif  // INNOSIM_SIM_RUNNER_H_
