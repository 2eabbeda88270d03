// The engines innosim simulates, by profile: the one table the runner,
// the report writers and the CLI consult to reach an engine, so that
// sim/ holds no branch on which engine a run uses.
//
// Adding an engine (docs/architecture.md, "How to add an engine"): its
// model in model/<engine>/ behind model/table_engine.h, its driver in
// sim/<engine>_driver.{h,cc} (sim/engine_driver.h), and one row here.
#ifndef INNOSIM_SIM_ENGINES_H_
#define INNOSIM_SIM_ENGINES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "sim/engine_driver.h"
#include "sim/entry_encoder.h"
#include "sim/runner.h"
#include "sim/tree_figures.h"

namespace innosim {

struct ExplainSpec;

// What an engine's preparation hands the runner: the engine's driver, one
// entry encoder per secondary index (in the engine's index order), and the
// table as the engine's own SQL says it (RunResult::table).
struct PreparedEngine {
  std::unique_ptr<EngineDriver> driver;
  std::vector<std::unique_ptr<EntryEncoder>> encoders;
  std::string table_sql;
};

struct EngineKind {
  // The engine's name as the docs and --json's "engine" say it.
  std::string name;
  // Its profiles, as --profile takes them.
  std::vector<std::string> profiles;
  // The run's server settings and profile (ConfigFor): one-line errors
  // saying how to mend the spec.
  absl::StatusOr<RunConfig> (*configure)(const RunSpec& spec) = nullptr;
  // Checks the engine's own limits on a spec (what it does not simulate),
  // before any work: one-line errors.
  absl::Status (*check)(const RunSpec& spec) = nullptr;
  // Fits an autoinc stream to the table's integer primary key (its width),
  // as the engine reads spec.table (BindStreamToTable for InnoDB).
  absl::Status (*bind_stream)(std::string_view table, StreamSpec* stream) = nullptr;
  // The table (spec.table read in the engine's SQL, its primary key
  // `key_width` bytes wide) and the engine for one run; may add warnings to
  // config.
  absl::StatusOr<PreparedEngine> (*prepare)(const RunSpec& spec, RunConfig* config, int key_width) = nullptr;
  // Whether two configurations of one load (same rows, table and profile)
  // may share the engine's trees: OK, or FailedPrecondition naming what a
  // tree reads that differs. nullptr: never.
  absl::Status (*shares_tree)(const RunConfig& a, const RunConfig& b) = nullptr;
  // Several configurations of one load sharing the engine's trees (a speed
  // device, sim/shared_tree.h; each pair passed shares_tree): the table read for specs[0] with
  // (*configs)[0], and one driver whose instance i runs specs[i] with
  // (*configs)[i] (EngineDriver::FinishInstance). FailedPrecondition when
  // their tables differ after all; the runner then runs them one by one.
  absl::StatusOr<PreparedEngine> (*prepare_shared)(const std::vector<RunSpec>& specs, std::vector<RunConfig>* configs,
                                                   int key_width) = nullptr;
  // The table and its column sources checked without building the engine
  // (an experiment file's runs, before any runs).
  absl::Status (*check_table)(const RunSpec& spec, int key_width) = nullptr;
  // The figures an experiment may compare for `spec` (its table's index
  // names among them); nullptr: the numeric fields of `run --json`.
  absl::StatusOr<std::vector<std::string>> (*metric_names)(const RunSpec& spec) = nullptr;
  // Whether figure `metric` of a run of `spec` is, at the run's end, what
  // the record of its last phase holds (the run's end, EndLoad and Finish,
  // changes no such figure), so that an experiment's run whose phases are
  // the first ones of another's takes it from that run's record
  // (result_at_phase). nullptr: no figure.
  bool (*phase_figure)(const RunSpec& spec, std::string_view metric) = nullptr;
  // The result of `longer`'s run stopped after its first `phases` phases (1:
  // its own insert alone), in the figures phase_figure accepts, into *out
  // (spec, label and elapsed_s still `longer`'s); false if `longer` cannot
  // tell (no such phase recorded).
  bool (*result_at_phase)(const RunResult& longer, size_t phases, RunResult* out) = nullptr;
  // `innosim explain` (sim/explain.h's spec: a stream or the learner's
  // keys, the rows to print): the insert path step by step as text, or as
  // JSON lines with `json`; one-line errors. nullptr: explain refuses it.
  absl::StatusOr<std::string> (*explain)(const ExplainSpec& spec, bool json) = nullptr;
  // Whether explain's --html (the browser explainer) and --scenario
  // (learners' scenarios and their checks) take it.
  bool explain_html = false;
  bool explain_scenarios = false;
  // What `run` and `sweep` can draw and record for it: --page-map (the simulated
  // tablespace) and --series (the flush model's counters over the load).
  bool draws_page_map = false;
  bool records_series = false;
  // Whether `sweep --svg` can chart it (leaf fill and DATA_LENGTH).
  bool charts_sweep = false;
  // `innosim compare`: the table in the engine's SQL from the portable SQL
  // compare takes (sim/portable_table.h), and a run's figures side by side.
  absl::StatusOr<std::string> (*from_portable_sql)(std::string_view sql) = nullptr;
  TreeFigures (*tree_figures)(const RunResult& run) = nullptr;
};

// Every engine, in the order help lists them.
const std::vector<EngineKind>& EngineKinds();
// The engine whose profiles include `profile`, or nullptr.
const EngineKind* EngineKindFor(std::string_view profile);
// Every profile of every engine, in that order.
std::vector<std::string> ProfileNames();

}  // namespace innosim

#endif  // INNOSIM_SIM_ENGINES_H_
