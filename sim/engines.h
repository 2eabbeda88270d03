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
#include "model/record_format.h"
#include "sim/engine_driver.h"
#include "sim/runner.h"

namespace innosim {

struct EngineKind {
  // The engine's name as the docs and --json's "engine" say it.
  std::string name;
  // Its profiles, as --profile takes them.
  std::vector<std::string> profiles;
  // The driver of one run (the spec checked, the config built, the table
  // resolved).
  absl::StatusOr<std::unique_ptr<EngineDriver>> (*make)(const RunSpec& spec, const RunConfig& config,
                                                        const TableDef& table) = nullptr;
};

// Every engine, in the order help lists them.
const std::vector<EngineKind>& EngineKinds();
// The engine whose profiles include `profile`, or nullptr.
const EngineKind* EngineKindFor(std::string_view profile);
// The driver of `spec`'s profile; InvalidArgument for an unknown profile.
absl::StatusOr<std::unique_ptr<EngineDriver>> MakeEngineDriver(const RunSpec& spec, const RunConfig& config,
                                                               const TableDef& table);

}  // namespace innosim

#endif  // INNOSIM_SIM_ENGINES_H_
