#include "sim/sweep_output.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sim/metrics.h"
#include "sim/report.h"
#include "sim/shard.h"

namespace innosim {

SweepOutcome SweepOutcomeOf(const RunResult& r) {
  SweepOutcome o;
  o.run = RunToJson(r);
  o.warnings = r.warnings;
  o.rows_per_ms = r.spec.stream.rows_per_ms;
  if (r.engine_result != nullptr) {
    // Another engine's figures under its own names (no chart: its kind
    // refuses --svg).
    const std::string table = EngineSweepTable({r});
    const size_t eol = table.find('\n');
    o.header = table.substr(0, eol + 1);
    o.row = table.substr(eol + 1);
    return o;
  }
  const IndexReport& p = r.report.primary;
  o.row = absl::StrFormat("%12lu %18lu %12lu %12lu %11.3f GB %9.1f%% %10lu",
                          static_cast<unsigned long>(r.spec.stream.rows_per_ms),
                          static_cast<unsigned long>(p.counters.index_page_splits),
                          static_cast<unsigned long>(p.n_leaf_pages), static_cast<unsigned long>(p.size),
                          r.report.data_length / 1e9, 100 * p.leaf_fill,
                          static_cast<unsigned long>(p.counters.index_page_reorg_attempts));
  // The flush model's columns, as SweepTableHeader(flush) heads them.
  if (r.spec.flush) {
    absl::StrAppendFormat(&o.row, " %14lu %10.2f %12lu", static_cast<unsigned long>(r.flush.Innodb_pages_written),
                          p.size ? static_cast<double>(r.flush.Innodb_pages_written) / p.size : 0.0,
                          static_cast<unsigned long>(r.flush.Innodb_buffer_pool_reads));
  }
  o.row += "\n";
  o.warnings = r.warnings;
  o.rows_per_ms = r.spec.stream.rows_per_ms;
  o.leaf_fill = p.leaf_fill;
  o.data_length = r.report.data_length;
  return o;
}

std::string SweepTableHeader(bool flush) {
  std::string s = absl::StrFormat("%12s %18s %12s %12s %14s %10s %10s", "rows_per_ms", counters::kIndexPageSplits.name,
                                  counters::kNLeafPages.name, counters::kSize.name,
                                  counters::kDataLength.server_name, "leaf_fill", "reorgs");
  if (flush) absl::StrAppendFormat(&s, " %14s %10s %12s", "pages_written", "per_page", "bp_reads");
  return s + "\n";
}

std::string SweepText(bool flush, const std::vector<SweepOutcome>& outcomes) {
  std::string s = !outcomes.empty() && !outcomes[0].header.empty() ? outcomes[0].header : SweepTableHeader(flush);
  for (const SweepOutcome& o : outcomes) s += o.row;
  return s;
}

std::string SweepJsonLines(const std::vector<SweepOutcome>& outcomes) {
  std::string s;
  for (const SweepOutcome& o : outcomes) absl::StrAppend(&s, o.run.dump(), "\n");
  return s;
}

std::vector<RunResult> SweepChartRuns(const std::vector<SweepOutcome>& outcomes) {
  std::vector<RunResult> runs;
  for (const SweepOutcome& o : outcomes) {
    RunResult r;
    r.spec.stream.rows_per_ms = o.rows_per_ms;
    r.report.primary.leaf_fill = o.leaf_fill;
    r.report.data_length = o.data_length;
    runs.push_back(std::move(r));
  }
  return runs;
}

nlohmann::ordered_json SweepOutcomeToJson(const SweepOutcome& o) {
  nlohmann::ordered_json j;
  j["run"] = o.run;
  j["row"] = o.row;
  j["header"] = o.header;
  j["warnings"] = o.warnings;
  j["rows_per_ms"] = o.rows_per_ms;
  j["leaf_fill"] = DoubleToJson(o.leaf_fill);
  j["data_length"] = o.data_length;
  return j;
}

absl::StatusOr<SweepOutcome> SweepOutcomeFromJson(const nlohmann::ordered_json& j) {
  SweepOutcome o;
  auto missing = [](const char* field) {
    return absl::InvalidArgumentError(absl::StrCat("a sweep shard line without its '", field, "'"));
  };
  if (!j.contains("run") || !j["run"].is_object()) return missing("run");
  o.run = j["run"];
  if (!j.contains("row") || !j["row"].is_string()) return missing("row");
  o.row = j["row"].get<std::string>();
  if (!j.contains("header") || !j["header"].is_string()) return missing("header");
  o.header = j["header"].get<std::string>();
  if (!j.contains("warnings") || !j["warnings"].is_array()) return missing("warnings");
  for (const auto& w : j["warnings"]) {
    if (!w.is_string()) return missing("warnings");
    o.warnings.push_back(w.get<std::string>());
  }
  if (!j.contains("rows_per_ms") || !j["rows_per_ms"].is_number_unsigned()) return missing("rows_per_ms");
  o.rows_per_ms = j["rows_per_ms"].get<uint64_t>();
  if (!j.contains("leaf_fill")) return missing("leaf_fill");
  absl::StatusOr<double> fill = DoubleFromJson(j["leaf_fill"]);
  if (!fill.ok()) return missing("leaf_fill");
  o.leaf_fill = *fill;
  if (!j.contains("data_length") || !j["data_length"].is_number_unsigned()) return missing("data_length");
  o.data_length = j["data_length"].get<uint64_t>();
  return o;
}

}  // namespace innosim
