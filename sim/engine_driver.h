// EngineDriver: one storage engine as the runner drives it.
//
// The model's side of an engine is its TableEngine (model/table_engine.h):
// rows in. Its driver is the sim/ side: it builds the engine for a run
// (profile, settings, table) and copies the engine's own figures, under the
// engine's own names, into the RunResult at the points the runner names
// (a --series sample, the end of a phase, the end of the load). The runner
// (sim/load.h, sim/phase_runner.h) sees only this interface, so it holds no
// branch on the engine; EngineKindFor (sim/engines.h) picks the driver by
// the run's --profile.
//
// Not thread-safe: one driver per run.
#ifndef INNOSIM_SIM_ENGINE_DRIVER_H_
#define INNOSIM_SIM_ENGINE_DRIVER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "model/table_engine.h"
#include "sim/phases.h"

namespace innosim {

struct RunResult;
class Engine;

class EngineDriver {
 public:
  virtual ~EngineDriver() = default;
  // The engine the rows go to.
  virtual TableEngine& engine() = 0;
  // A --series sample after `rows` rows (nothing where the engine keeps no
  // time series, e.g. without a buffer model).
  virtual void Sample(uint64_t rows, RunResult* result) = 0;
  // Every counter after `phase`, appended to result->phases.
  virtual void RecordPhase(const PhaseSpec& phase, RunResult* result) = 0;
  // After EndLoad: the engine's report and counters into `result`.
  virtual void Finish(RunResult* result) = 0;
  // The same for configuration `i` of a driver built for several
  // (EngineKind::prepare_shared); Finish is configuration 0's, and a driver
  // of one configuration has no other.
  virtual void FinishInstance(size_t i, RunResult* result) {
    if (i == 0) Finish(result);
  }
  // InnoDB's Engine, for the callers that draw InnoDB's own pages (the page
  // map, explain's page bars); nullptr for another engine.
  virtual const Engine* innodb() const { return nullptr; }
};

}  // namespace innosim

#endif  // INNOSIM_SIM_ENGINE_DRIVER_H_
