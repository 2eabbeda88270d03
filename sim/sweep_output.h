// SweepOutput: what `innosim sweep` prints of each run, one SweepOutcome
// per configuration, and the whole output made from them. The unsharded
// sweep and `innosim merge` of its shards both print through here, so the
// two are the same bytes (the runs' elapsed_s aside).
//
//   std::vector<SweepOutcome> o;  for (r : results) o.push_back(SweepOutcomeOf(r));
//   std::cout << SweepText(flush, o);  // or SweepJsonLines(o)
//
// Pure functions.
#ifndef INNOSIM_SIM_SWEEP_OUTPUT_H_
#define INNOSIM_SIM_SWEEP_OUTPUT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "sim/runner.h"

namespace innosim {

struct SweepOutcome {
  nlohmann::ordered_json run;         // RunToJson: the --json line
  std::string row;                    // the table's line, with its newline
  // The header of an engine's own table (EngineSweepTable's columns, with
  // its newline); empty for InnoDB's, SweepTableHeader.
  std::string header;
  std::vector<std::string> warnings;  // printed after the table
  // What the --svg chart reads (sim/sweep_chart.h SweepPointsOf).
  uint64_t rows_per_ms = 0;
  double leaf_fill = 0;
  uint64_t data_length = 0;
};

SweepOutcome SweepOutcomeOf(const RunResult& r);

// The table's header line (with the flush model's columns when `flush`).
std::string SweepTableHeader(bool flush);
// The readable table: header and rows.
std::string SweepText(bool flush, const std::vector<SweepOutcome>& outcomes);
// One JSON object per line.
std::string SweepJsonLines(const std::vector<SweepOutcome>& outcomes);
// The runs the chart's points are made of (spec's rate, leaf fill, DATA_LENGTH).
std::vector<RunResult> SweepChartRuns(const std::vector<SweepOutcome>& outcomes);

// As a shard line's body, and back (InvalidArgument naming the field).
nlohmann::ordered_json SweepOutcomeToJson(const SweepOutcome& o);
absl::StatusOr<SweepOutcome> SweepOutcomeFromJson(const nlohmann::ordered_json& j);

}  // namespace innosim

#endif  // INNOSIM_SIM_SWEEP_OUTPUT_H_
