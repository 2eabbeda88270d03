// SweepChart: a sweep drawn as an SVG chart: leaf fill and DATA_LENGTH
// against rows per millisecond (log scale), the simulated points joined by
// a line, published points (an experiment file's) as hollow squares.
//
//   std::vector<SweepPoint> sim = SweepPointsOf(results);
//   std::string svg = SweepChartSvg("uuidv7-random, 10M rows", sim, published);
//
// Pure functions; thread-safe.
#ifndef INNOSIM_SIM_SWEEP_CHART_H_
#define INNOSIM_SIM_SWEEP_CHART_H_

#include <optional>
#include <string>
#include <vector>

#include "sim/experiment.h"
#include "sim/runner.h"

namespace innosim {

struct SweepPoint {
  double rows_per_ms = 0;
  std::optional<double> leaf_fill;    // 0..1
  std::optional<double> data_length;  // bytes
};

// One point per run, in rows-per-ms order.
std::vector<SweepPoint> SweepPointsOf(const std::vector<RunResult>& results);

// The runs of an experiment that form its sweep: the largest group of runs
// with the same stream, profile, page size and table and at least three
// different rows-per-ms values. `simulated` gets their results, `published`
// their published data_length (and leaf_fill) where given. False if the
// experiment has no sweep.
bool ExperimentSweep(const ExperimentResult& r, std::string* title, std::vector<SweepPoint>* simulated,
                     std::vector<SweepPoint>* published);

// The chart as a complete SVG document.
std::string SweepChartSvg(const std::string& title, const std::vector<SweepPoint>& simulated,
                          const std::vector<SweepPoint>& published);

}  // namespace innosim

#endif  // INNOSIM_SIM_SWEEP_CHART_H_
