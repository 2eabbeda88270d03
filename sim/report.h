// Report writers for run results: one JSON object per run (field names as
// InnoDB names them; docs/cli.md lists them), a readable summary, and
// an atomic file writer (unique temporary file + rename, so nothing is left
// half-written) and its check before a run.
#ifndef INNOSIM_SIM_REPORT_H_
#define INNOSIM_SIM_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "sim/metrics.h"
#include "sim/output_file.h"
#include "sim/runner.h"

namespace innosim {

// {"stream", "rows", "rows_per_ms", "seed", "profile", "page_size",
//  "index_page_splits", "index_page_reorg_attempts", ..., "n_leaf_pages",
//  "size", "data_length", "height", "leaf_fill", "data_length_in_key_order",
//  "data_length_fill_seed000", "elapsed_s", "levels": [...]}
nlohmann::ordered_json RunToJson(const RunResult& r);
// Seed 000's "fill factor" (seed 000, MySQL 8.4.11, 10M rows per key
// stream, sections 6.1-6.3),
// computed as the seed computes it: 15/16 x DATA_LENGTH of the same rows
// appended in key order (RunResult::data_length_in_key_order) / DATA_LENGTH.
// It assumes that appended pages are 15/16 full and scales that by size, so
// it counts reserved pages and non-leaf pages against the rows; it is not
// the leaf pages' fill (leaf_fill: used bytes / usable bytes on the leaves).
// 0 when either length is 0.
double DataLengthFillSeed000(const RunResult& r);
// The value RunToJson reports under counter.name; unset where it reports
// none (the flush counters of a run without the flush model).
std::optional<uint64_t> SimulatedCounter(const RunResult& r, const InnodbCounter& counter);
// One of an index's INNODB_METRICS index_page_* counters by its name, or
// unset for another name.
std::optional<uint64_t> MetricsCounter(const IndexCounters& c, std::string_view name);
// The INNODB_METRICS index_page_* counters of the whole table: PRIMARY's
// plus every secondary index's, as a server counts them (server-wide, every
// index), for holding against a server's deltas over a load.
IndexCounters TableIndexCounters(const EngineReport& report);
// RunToJson's "phases" (a run with --phase): one object per phase with
// every counter after it (sim/phases.h).
nlohmann::ordered_json PhasesToJson(const RunResult& r);
// The summary's phase table ("" for a plain run).
std::string PhasesSummary(const RunResult& r);
// A readable multi-line summary.
std::string RunSummary(const RunResult& r);
// A sweep's text table for runs of an engine with its own figures
// (RunResult::engine_result): rows_per_ms, then the engine's SweepColumns
// ("-" where a run has no such figure).
std::string EngineSweepTable(const std::vector<RunResult>& runs);
// The settings printout: each variable, its value, where the value came
// from, and "[accepted, no effect in the model]" where that holds.
std::string SettingsTable(const std::vector<ServerSettings::Row>& rows);
// WriteFileAtomically, AtomicFileWriter, CheckOutputPath: sim/output_file.h.

}  // namespace innosim

#endif  // INNOSIM_SIM_REPORT_H_
