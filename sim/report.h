// Report writers for run results: one JSON object per run (field names as
// InnoDB names them, see docs/design in the README), a readable summary, and
// an atomic file writer (temporary file + rename, so nothing is left
// half-written).
#ifndef INNOSIM_SIM_REPORT_H_
#define INNOSIM_SIM_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "sim/runner.h"

namespace innosim {

// {"stream", "rows", "rows_per_ms", "seed", "profile", "page_size",
//  "index_page_splits", "index_page_reorg_attempts", ..., "n_leaf_pages",
//  "size", "data_length", "height", "leaf_fill", "elapsed_s", "levels": [...]}
nlohmann::ordered_json RunToJson(const RunResult& r);
// A readable multi-line summary.
std::string RunSummary(const RunResult& r);
// The settings printout: each variable, its value, where the value came
// from, and "[accepted, no effect in the model]" where that holds.
std::string SettingsTable(const std::vector<ServerSettings::Row>& rows);
// Writes `content` to `path` through a temporary file in the same folder
// and a rename.
absl::Status WriteFileAtomically(const std::string& path, const std::string& content);

}  // namespace innosim

#endif  // INNOSIM_SIM_REPORT_H_
