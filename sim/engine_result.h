// EngineResult: the figures of a run of an engine other than InnoDB, under
// that engine's own names. InnoDB's figures are RunResult's own fields
// (report, flush, phases: the names its JSON has always had); another
// engine's driver puts one of these in RunResult::engine_result, and the
// report writers (sim/report.h) and experiments (sim/experiment.h) ask it
// for its JSON, its summary and its figures by name instead of reading
// InnoDB's fields.
//
// Immutable once made; shared by the copies of a RunResult.
#ifndef INNOSIM_SIM_ENGINE_RESULT_H_
#define INNOSIM_SIM_ENGINE_RESULT_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"

namespace innosim {

class EngineResult {
 public:
  virtual ~EngineResult() = default;
  // The engine's name, as --json's "engine" says it.
  virtual std::string engine() const = 0;
  // The engine's figures as `run --json` carries them after the run's
  // common fields (stream, rows, profile, table, ...).
  virtual nlohmann::ordered_json ToJson() const = 0;
  // The readable summary, one figure per line.
  virtual std::string Summary() const = 0;
  // A figure by the name an experiment file gives it ("leaf_pages" for the
  // primary key's index, "c_parent_idx.leaf_pages" for another), or
  // nullopt when the engine has no such figure.
  virtual std::optional<double> Metric(std::string_view name) const = 0;
  // The names Metric answers, for an experiment's unknown-name error.
  virtual std::vector<std::string> MetricNames() const = 0;
  // The few figures a sweep's text table shows, one column each, in order
  // (names Metric answers).
  virtual std::vector<std::string> SweepColumns() const = 0;
  // The result of the same run stopped after its first `phases` phases
  // (1: its own insert alone, no --phase), in the figures its engine's
  // EngineKind::phase_figure accepts; nullptr where this result cannot
  // tell (it recorded no such phase). A speed device for experiments
  // (RunExperiments: a run whose phases are another's first ones).
  virtual std::shared_ptr<const EngineResult> AtPhase(size_t phases) const {
    (void)phases;
    return nullptr;
  }
};

}  // namespace innosim

#endif  // INNOSIM_SIM_ENGINE_RESULT_H_
