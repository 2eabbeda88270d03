// Experiment: a declarative file (TOML) listing the runs of a published
// experiment and the figures it published, run in parallel and compared.
//
//   name = "seed000"
//   source = "seed 000 (MySQL 8.4.11, 10M rows per key stream), sections 6.1 and 6.3"
//   [defaults]  rows = "10M"  profile = "mysql-8.4"  seed = 1  rows_per_ms = 482
//   [[run]]     label = "UUIDv4"  stream = "uuidv4"
//     [run.published]  index_page_splits = 133401  size = 152506
//     [run.tolerance]  index_page_splits = 0.01    size = 0.01
//
// [defaults] and [[run]] also take rows_per_sec, batch, table, flush,
// payload_bytes, a [defaults.set] / [run.set] table of server variables, and
// show = ["metric", ...] for metrics shown without a published figure.
// Runs with identical settings are simulated once. Metrics are JSON field
// names of `innosim run --json`; a tolerance is a relative error bound
// written as a fraction strictly between 0 and 1 (0.01 = 1%; the string
// "1%" also works), and a metric without one is shown for information.
// The error is sim/compare.h's RelativeError: a published 0 is met only by
// a simulated 0 (any other value is "n/a", outside every tolerance).
//
// Strict, so that nothing written is silently ignored: a key not listed
// above (in any table), a metric innosim does not produce, a server
// variable the run's profile does not know, a value of the wrong type
// (rows = true, seed = 2.5, rows = 1e30) or outside its field's range
// (page_size = 4294983680) is an InvalidArgument "FILE:LINE: ..." with the
// nearest known name where one is close. Integers are read exactly (a float
// is never truncated); counts (rows, rows_per_ms, batch) may also be strings
// with decimal suffixes ("10M", sim/count.h).
#ifndef INNOSIM_SIM_EXPERIMENT_H_
#define INNOSIM_SIM_EXPERIMENT_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/runner.h"

namespace innosim {

struct ExperimentRun {
  RunSpec spec;
  std::vector<std::pair<std::string, double>> published;  // file order
  std::map<std::string, double> tolerance;
};

struct Experiment {
  std::string name;
  std::string source;
  std::string description;
  std::vector<ExperimentRun> runs;
};

absl::StatusOr<Experiment> LoadExperiment(const std::string& path);
// The same from the file's text; `path` names it in messages.
absl::StatusOr<Experiment> ParseExperiment(std::string_view text, const std::string& path);

struct ComparisonRow {
  std::string label;
  std::string metric;
  double simulated = 0;
  double published = 0;
  double rel_error = 0;              // RelativeError(simulated, published), sim/compare.h
  std::optional<double> tolerance;   // bound, if the experiment sets one
  bool ok = true;                    // within tolerance (true if none)
};

struct ExperimentResult {
  Experiment experiment;
  std::vector<RunResult> results;  // one per experiment run
  std::vector<ComparisonRow> rows;
  double wall_s = 0;
  size_t distinct_runs = 0;
  bool all_ok = true;
};

// Runs every distinct configuration, `threads` at a time (0 = all cores).
// `rows_override` replaces every run's row count (for quick checks).
// It is PlanExperiment, RunMany of plan.distinct, FiguresOf each result and
// AssembleExperiment; `innosim experiment --shard` runs a slice of
// plan.distinct and `innosim merge` assembles the figures of every slice.
absl::StatusOr<ExperimentResult> RunExperiment(const Experiment& e, int threads,
                                               std::optional<uint64_t> rows_override);
// Several experiments at once: every file's distinct configurations in one
// RunMany, longest first, so that one file's last long run overlaps the
// next file's runs instead of leaving cores idle. Results in file order.
// A result's wall_s is, for one file, the wall time of its runs; for
// several, whose runs overlap, the sum of the file's runs' own times (as
// `innosim merge` reports shards). The first error in file order is
// returned, and no result with it.
// For each of `all`'s configurations, the one whose run gives its figures:
// itself, or a longer run of which its run is the first phases (of those,
// the one with the most phases, which no other extends), when its engine
// keeps every figure needs[i] names at a phase's end as the run's end
// gives it (EngineKind::phase_figure). A speed device: the shorter run is
// not simulated (tests/phase_prefix_test.cc holds the figures equal).
std::vector<size_t> PhasePrefixSources(const std::vector<RunSpec>& all,
                                       const std::vector<std::vector<std::string>>& needs);

// A configuration whose run is the first phases of another's, in figures
// its engine keeps at a phase's end (EngineKind::phase_figure), takes them
// from that run's record instead of being simulated (seed 002's switch:
// one run of four phases gives the figures of all four); `share_prefixes`
// false simulates every configuration. The figures are the same either
// way.
absl::StatusOr<std::vector<ExperimentResult>> RunExperiments(const std::vector<Experiment>& es, int threads,
                                                             std::optional<uint64_t> rows_override,
                                                             bool share_prefixes = true);

// The configurations an experiment simulates: runs with identical settings
// are simulated once (distinct, in the order of their first run); which[i]
// is run i's.
struct ExperimentPlan {
  Experiment experiment;  // with rows_override applied
  std::vector<RunSpec> distinct;
  std::vector<size_t> which;
};
ExperimentPlan PlanExperiment(const Experiment& e, std::optional<uint64_t> rows_override);

// For each of plan.distinct's configurations, the figures its runs publish
// or show (with repeats).
std::vector<std::vector<std::string>> ShownMetrics(const ExperimentPlan& plan);

// All an experiment reads of one configuration's result: the figures its
// runs publish or show (a metric the result lacks is absent), whether they
// came from another engine's EngineResult (for the message), and what
// ExperimentSweep draws.
struct ConfigFigures {
  std::map<std::string, double> metrics;
  bool engine_result = false;
  uint32_t page_size = 0;  // the page size used (RunResult::spec.page_size)
  double leaf_fill = 0;
  uint64_t data_length = 0;
  double elapsed_s = 0;
};
ConfigFigures FiguresOf(const ExperimentPlan& plan, size_t config, const RunResult& r);
// The result of the configuration's spec that the figures stand for: its
// spec (page size as used), leaf fill and DATA_LENGTH; nothing else.
RunResult ResultOfFigures(const RunSpec& spec, const ConfigFigures& f);

// The comparison from one result and its figures per distinct
// configuration; wall_s is shown as the simulation time.
absl::StatusOr<ExperimentResult> AssembleExperiment(const ExperimentPlan& plan, const std::vector<RunResult>& results,
                                                    const std::vector<ConfigFigures>& figures, double wall_s);

std::string ExperimentTable(const ExperimentResult& r);
std::string ExperimentMarkdown(const ExperimentResult& r, const std::string& command);

}  // namespace innosim

#endif  // INNOSIM_SIM_EXPERIMENT_H_
