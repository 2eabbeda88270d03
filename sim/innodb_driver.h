// InnodbDriver: InnoDB's Engine (model/engine.h) as the runner drives it
// (sim/engine_driver.h): built from the run's profile, server settings and
// table; its EngineReport, flush counters, phases and --series samples
// copied into the RunResult under InnoDB's names.
#ifndef INNOSIM_SIM_INNODB_DRIVER_H_
#define INNOSIM_SIM_INNODB_DRIVER_H_

#include <memory>
#include <vector>

#include "model/engine.h"
#include "sim/engine_driver.h"
#include "sim/engines.h"
#include "sim/runner.h"

namespace innosim {

// The EngineKind functions of InnoDB (sim/engines.h): the page size and
// payload InnoDB's model takes; the server settings of the profile, --set,
// --defaults-file and --page-size (ConfigFor); the table read as MySQL's
// CREATE TABLE with its secondary entry encoders, and the driver.
absl::Status InnodbCheck(const RunSpec& spec);
absl::StatusOr<RunConfig> InnodbConfigure(const RunSpec& spec);
absl::StatusOr<PreparedEngine> InnodbPrepare(const RunSpec& spec, RunConfig* config, int key_width);
// Several configurations sharing one tree (EngineKind::prepare_shared),
// each pair already passed by InnodbSharesTree (sim/shared_tree.h: the same
// profile, every variable a tree reads alike): refused unless every
// configuration reads the same table and, where the table has secondary
// indexes (whose time columns take the insert rate or the stream's synthetic
// clock), the same rows_per_sec, rows_per_ms and start_ms.
absl::StatusOr<PreparedEngine> InnodbPrepareShared(const std::vector<RunSpec>& specs, std::vector<RunConfig>* configs,
                                                   int key_width);
absl::Status InnodbCheckTable(const RunSpec& spec, int key_width);
// The clustered index and the sizes, for `innosim compare`.
TreeFigures InnodbTreeFigures(const RunResult& run);
// EngineKind::phase_figure: the clustered index's figures (its split,
// reorganization and merge counters, n_leaf_pages, size, height, leaf_fill)
// and the table's sizes and rows, for a run without the flush model, whose
// end then changes nothing; none with it (its end commits, purges and
// flushes).
bool InnodbPhaseFigure(const RunSpec& spec, std::string_view metric);
// EngineKind::result_at_phase: the report of the phase's record (and the
// records up to it).
bool InnodbResultAtPhase(const RunResult& longer, size_t phases, RunResult* out);

class InnodbDriver final : public EngineDriver {
 public:
  // The engine of `spec` with `config`'s profile and settings (the flush
  // model unless spec.flush is false) for `table`.
  InnodbDriver(const RunSpec& spec, const RunConfig& config, const TableDef& table);
  // One engine for several configurations (Engine's several-configuration
  // constructor): instance i is specs[i] with configs[i].
  InnodbDriver(const std::vector<RunSpec>& specs, const std::vector<RunConfig>& configs, const TableDef& table);

  TableEngine& engine() override { return engine_; }
  void Sample(uint64_t rows, RunResult* result) override;
  void RecordPhase(const PhaseSpec& phase, RunResult* result) override;
  void Finish(RunResult* result) override { FinishInstance(0, result); }
  void FinishInstance(size_t i, RunResult* result) override;
  const Engine* innodb() const override { return &engine_; }
  Engine& innodb_engine() { return engine_; }

 private:
  Engine engine_;
  // Each configuration's settings, for RunResult::settings_used.
  std::vector<std::vector<ServerSettings::Row>> settings_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_INNODB_DRIVER_H_
