// EngineCompare: the same keys into several engines, side by side (innosim
// compare). One table in portable SQL (sim/portable_table.h) is read by each
// engine in its own SQL; each profile runs the same stream, rows and seed
// (the B-trees alone: no buffer pool or flushing); the figures are the
// engines' own (sim/tree_figures.h) under their own names.
//
//   absl::StatusOr<std::vector<RunSpec>> specs = CompareSpecs(base, {"mysql-8.4", "postgresql-18"});
//   ... RunMany(*specs) ...; CompareTable(runs), CompareJson(runs), CompareSvg(runs)
//
// Pure functions.
#ifndef INNOSIM_SIM_ENGINE_COMPARE_H_
#define INNOSIM_SIM_ENGINE_COMPARE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "sim/runner.h"
#include "sim/tree_figures.h"

namespace innosim {

struct ComparedRun {
  RunResult result;
  TreeFigures figures;
};

// The portable table when the user gave none (`seed000`): the key alone,
// `id uuid` for 16-byte streams, `id bigint` for 8-byte ones, as seed 002's
// parent tables; anything else unchanged.
std::string CompareTableSql(const std::string& table, int key_width);

// One spec per profile: `base` with the profile, the table in that engine's
// SQL and no flush model; each checked as run checks it (one-line errors
// prefixed with the profile). At least two distinct known profiles.
absl::StatusOr<std::vector<RunSpec>> CompareSpecs(const RunSpec& base, const std::vector<std::string>& profiles);

// The figures of a finished run of `spec.profile`'s engine.
ComparedRun Compared(RunResult result);

// One row per figure, one column per profile.
std::string CompareTable(const std::vector<ComparedRun>& runs);
// {"stream", "rows", "seed", "table", "engines": [{profile, engine, table,
// leaf_pages, ...}, ...]}.
nlohmann::ordered_json CompareJson(const std::vector<ComparedRun>& runs, const std::string& portable_table);
// Bars per profile: leaf pages, leaf fill, bytes on disk; the portable
// table as the subtitle.
std::string CompareSvg(const std::vector<ComparedRun>& runs, const std::string& portable_table);

}  // namespace innosim

#endif  // INNOSIM_SIM_ENGINE_COMPARE_H_
