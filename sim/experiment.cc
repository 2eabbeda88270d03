#include "sim/experiment.h"

#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sim/count.h"
#include "sim/report.h"

namespace innosim {
namespace {

// Whole numbers are read with value_exact: toml++'s value<int64_t>() also
// converts a float (with a cast that is undefined behaviour out of range, e.g.
// 1e30) and a boolean (true = 1), so `rows = true` would run one row.

// Reads a count given as a whole number or as a string with a suffix ("10M").
absl::StatusOr<uint64_t> CountField(const toml::node& n, const std::string& where) {
  if (auto v = n.value_exact<int64_t>()) {
    if (*v <= 0) return absl::InvalidArgumentError(absl::StrCat(where, " must be positive"));
    return static_cast<uint64_t>(*v);
  }
  if (auto s = n.value<std::string>()) {
    absl::StatusOr<uint64_t> c = ParseCount(*s);
    if (!c.ok()) return absl::InvalidArgumentError(absl::StrCat(where, ": ", c.status().message()));
    return *c;
  }
  return absl::InvalidArgumentError(absl::StrCat(where, " must be a whole number or a string like \"10M\""));
}

absl::Status ApplySettings(const toml::table& t, RunSpec* spec, const std::string& where) {
  if (auto n = t.get("rows")) {
    absl::StatusOr<uint64_t> c = CountField(*n, where + ".rows");
    if (!c.ok()) return c.status();
    spec->rows = *c;
  }
  if (auto n = t.get("rows_per_ms")) {
    absl::StatusOr<uint64_t> c = CountField(*n, where + ".rows_per_ms");
    if (!c.ok()) return c.status();
    spec->stream.rows_per_ms = *c;
  }
  if (auto n = t.get("seed")) {
    std::optional<int64_t> v = n->value_exact<int64_t>();
    if (!v) return absl::InvalidArgumentError(absl::StrCat(where, ".seed must be a whole number"));
    spec->stream.seed = static_cast<uint64_t>(*v);
  }
  if (auto v = t["stream"].value<std::string>()) spec->stream.name = *v;
  if (auto v = t["profile"].value<std::string>()) spec->profile = *v;
  if (auto n = t.get("page_size")) {
    std::optional<int64_t> v = n->value_exact<int64_t>();
    if (!v) return absl::InvalidArgumentError(absl::StrCat(where, ".page_size must be a whole number of bytes"));
    spec->page_size = static_cast<uint32_t>(*v);
  }
  if (auto v = t["label"].value<std::string>()) spec->label = *v;
  if (auto n = t.get("rows_per_sec")) {
    std::optional<double> v = n->value<double>();
    if (!v || !(*v > 0)) return absl::InvalidArgumentError(absl::StrCat(where, ".rows_per_sec must be a positive number"));
    spec->rows_per_sec = *v;
  }
  if (auto n = t.get("batch")) {
    absl::StatusOr<uint64_t> c = CountField(*n, where + ".batch");
    if (!c.ok()) return c.status();
    spec->trx_rows = *c;
  }
  if (auto n = t.get("table")) {
    std::optional<std::string> v = n->value<std::string>();
    if (!v) return absl::InvalidArgumentError(absl::StrCat(where, ".table must be a string: seed000, seed004 or CREATE TABLE ..."));
    spec->table = *v;
  }
  if (auto n = t.get("flush")) {
    std::optional<bool> v = n->value<bool>();
    if (!v) return absl::InvalidArgumentError(absl::StrCat(where, ".flush must be true or false"));
    spec->flush = *v;
  }
  if (auto n = t.get("payload_bytes")) {
    std::optional<int64_t> v = n->value_exact<int64_t>();
    if (!v || *v < 0) return absl::InvalidArgumentError(absl::StrCat(where, ".payload_bytes must be a whole number"));
    spec->payload_bytes = static_cast<uint32_t>(*v);
  }
  if (auto n = t.get("set")) {
    const toml::table* set = n->as_table();
    if (set == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".set must be a table of server variables, e.g. [defaults.set]"));
    }
    for (const auto& [k, v] : *set) {
      std::string value;
      if (auto b = v.value_exact<bool>()) {
        value = *b ? "ON" : "OFF";
      } else if (auto i = v.value_exact<int64_t>()) {
        value = absl::StrCat(*i);
      } else if (auto d = v.value_exact<double>()) {
        value = absl::StrCat(*d);
      } else if (auto str = v.value_exact<std::string>()) {
        value = *str;
      } else {
        return absl::InvalidArgumentError(absl::StrCat(where, ".set.", std::string(k.str()),
                                                       " must be a string, number or boolean"));
      }
      spec->settings.emplace_back(std::string(k.str()), value);
    }
  }
  return absl::OkStatus();
}

bool SameConfig(const RunSpec& a, const RunSpec& b) {
  return a.stream.name == b.stream.name && a.stream.seed == b.stream.seed &&
         a.stream.rows_per_ms == b.stream.rows_per_ms && a.stream.start_ms == b.stream.start_ms &&
         a.rows == b.rows && a.profile == b.profile && a.page_size == b.page_size && a.flush == b.flush &&
         a.settings == b.settings && a.rows_per_sec == b.rows_per_sec && a.trx_rows == b.trx_rows &&
         a.series_every == b.series_every && a.table == b.table && a.payload_bytes == b.payload_bytes;
}

}  // namespace

absl::StatusOr<Experiment> LoadExperiment(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat(path, ": ", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return ParseExperiment(text.str(), path);
}

absl::StatusOr<Experiment> ParseExperiment(std::string_view text, const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse(text, path);
  } catch (const toml::parse_error& err) {
    const auto& src = err.source();
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d:%d: %s", path, src.begin.line, src.begin.column,
                                                      std::string(err.description())));
  }
  Experiment e;
  e.name = doc["name"].value_or(std::string());
  e.source = doc["source"].value_or(std::string());
  e.description = doc["description"].value_or(std::string());
  RunSpec defaults;
  if (const toml::table* d = doc["defaults"].as_table()) {
    if (absl::Status s = ApplySettings(*d, &defaults, path + ": [defaults]"); !s.ok()) return s;
  }
  const toml::array* runs = doc["run"].as_array();
  if (runs == nullptr || runs->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no [[run]] entries: add at least one run"));
  }
  int i = 0;
  for (const toml::node& node : *runs) {
    ++i;
    const toml::table* t = node.as_table();
    const std::string where = absl::StrCat(path, ": run ", i);
    if (t == nullptr) return absl::InvalidArgumentError(where + " is not a table");
    ExperimentRun run;
    run.spec = defaults;
    if (absl::Status s = ApplySettings(*t, &run.spec, where); !s.ok()) return s;
    if (run.spec.label.empty()) run.spec.label = run.spec.stream.name;
    if (absl::Status s = ValidateRunSpec(run.spec); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(where, " (", run.spec.label, "): ", s.message()));
    }
    if (absl::StatusOr<ServerSettings> st = SettingsFor(run.spec, nullptr); !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(where, " (", run.spec.label, "): ", st.status().message()));
    }
    const toml::node* show = t->get("show");
    if (show == nullptr && doc["defaults"].as_table() != nullptr) show = doc["defaults"].as_table()->get("show");
    if (show != nullptr) {
      const toml::array* a = show->as_array();
      if (a == nullptr) return absl::InvalidArgumentError(absl::StrCat(where, ": show must be a list of metric names"));
      for (const toml::node& m : *a) {
        std::optional<std::string> name = m.value<std::string>();
        if (!name) return absl::InvalidArgumentError(absl::StrCat(where, ": show must be a list of metric names"));
        // Shown without a published figure: NaN marks it (see Verdict).
        run.published.emplace_back(*name, std::nan(""));
      }
    }
    if (const toml::table* pub = (*t)["published"].as_table()) {
      for (const auto& [k, v] : *pub) {
        std::optional<double> d = v.value<double>();
        if (!d) return absl::InvalidArgumentError(absl::StrCat(where, ": published.", std::string(k.str()), " must be a number"));
        run.published.emplace_back(std::string(k.str()), *d);
      }
    }
    if (const toml::table* tol = (*t)["tolerance"].as_table()) {
      for (const auto& [k, v] : *tol) {
        std::optional<double> d = v.value<double>();
        if (!d) return absl::InvalidArgumentError(absl::StrCat(where, ": tolerance.", std::string(k.str()), " must be a number"));
        run.tolerance[std::string(k.str())] = *d;
      }
    }
    e.runs.push_back(std::move(run));
  }
  return e;
}

absl::StatusOr<ExperimentResult> RunExperiment(const Experiment& e, int threads,
                                               std::optional<uint64_t> rows_override) {
  ExperimentResult out;
  out.experiment = e;
  if (rows_override) {
    for (ExperimentRun& r : out.experiment.runs) r.spec.rows = *rows_override;
  }
  // Simulate each distinct configuration once.
  std::vector<RunSpec> distinct;
  std::vector<size_t> which;
  for (const ExperimentRun& r : out.experiment.runs) {
    size_t k = 0;
    while (k < distinct.size() && !SameConfig(distinct[k], r.spec)) ++k;
    if (k == distinct.size()) distinct.push_back(r.spec);
    which.push_back(k);
  }
  out.distinct_runs = distinct.size();
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<absl::StatusOr<RunResult>> results = RunMany(distinct, threads);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const absl::StatusOr<RunResult>& r : results) {
    if (!r.ok()) return r.status();
  }
  for (size_t i = 0; i < out.experiment.runs.size(); ++i) {
    const ExperimentRun& run = out.experiment.runs[i];
    RunResult rr = *results[which[i]];
    rr.spec.label = run.spec.label;
    const nlohmann::ordered_json j = RunToJson(rr);
    for (const auto& [metric, published] : run.published) {
      ComparisonRow row;
      row.label = run.spec.label;
      row.metric = metric;
      row.published = published;
      if (!j.contains(metric) || !j[metric].is_number()) {
        return absl::InvalidArgumentError(absl::StrCat(e.name, ": run '", run.spec.label, "' publishes '", metric,
                                                       "', which innosim does not produce: use a field of `innosim run --json`"));
      }
      row.simulated = j[metric].get<double>();
      row.rel_error = published != 0 && !std::isnan(published) ? (row.simulated - published) / published : 0;
      if (auto it = run.tolerance.find(metric); it != run.tolerance.end() && !std::isnan(published)) {
        row.tolerance = it->second;
        row.ok = std::fabs(row.rel_error) <= it->second;
        out.all_ok = out.all_ok && row.ok;
      }
      out.rows.push_back(row);
    }
    out.results.push_back(std::move(rr));
  }
  return out;
}

namespace {

std::string FormatValue(const std::string& metric, double v) {
  if (metric == "data_length" || metric == "index_length") return absl::StrFormat("%.3f GB", v / 1e9);
  if (metric == "leaf_fill") return absl::StrFormat("%.1f%%", 100 * v);
  if (v == std::floor(v) && std::fabs(v) < 1e15) return absl::StrFormat("%d", static_cast<int64_t>(v));
  return absl::StrFormat("%.3f", v);
}

std::string Verdict(const ComparisonRow& row) {
  if (std::isnan(row.published)) return "(not published)";
  if (!row.tolerance) return "(info)";
  return absl::StrFormat("%s (within %.1f%%)", row.ok ? "ok" : "MISS", 100 * *row.tolerance);
}

}  // namespace

std::string ExperimentTable(const ExperimentResult& r) {
  std::string s;
  absl::StrAppendFormat(&s, "experiment %s: %d runs (%d distinct) simulated in %.1f s\n", r.experiment.name,
                        r.experiment.runs.size(), r.distinct_runs, r.wall_s);
  if (!r.experiment.source.empty()) absl::StrAppendFormat(&s, "published figures: %s\n", r.experiment.source);
  absl::StrAppendFormat(&s, "\n%-28s %-28s %14s %14s %9s  %s\n", "run", "metric", "simulated", "published", "error",
                        "verdict");
  for (const ComparisonRow& row : r.rows) {
    if (std::isnan(row.published)) {
      absl::StrAppendFormat(&s, "%-28s %-28s %14s %14s %9s  %s\n", row.label, row.metric,
                            FormatValue(row.metric, row.simulated), "-", "", Verdict(row));
      continue;
    }
    absl::StrAppendFormat(&s, "%-28s %-28s %14s %14s %+8.2f%%  %s\n", row.label, row.metric,
                          FormatValue(row.metric, row.simulated), FormatValue(row.metric, row.published),
                          100 * row.rel_error, Verdict(row));
  }
  absl::StrAppendFormat(&s, "\n%s\n", r.all_ok ? "every figure with a tolerance is within it"
                                                : "some figures are outside their tolerance (MISS)");
  return s;
}

std::string ExperimentMarkdown(const ExperimentResult& r, const std::string& command) {
  std::string s;
  absl::StrAppendFormat(&s, "### %s\n\n", r.experiment.name);
  if (!r.experiment.description.empty()) absl::StrAppendFormat(&s, "%s\n\n", r.experiment.description);
  if (!r.experiment.source.empty()) absl::StrAppendFormat(&s, "Published figures: %s.\n\n", r.experiment.source);
  absl::StrAppendFormat(&s, "Regenerate with `%s`. %d runs (%d distinct configurations) simulated in %.1f s.\n\n",
                        command, r.experiment.runs.size(), r.distinct_runs, r.wall_s);
  s += "| run | metric | simulated | published | error | verdict |\n|---|---|---:|---:|---:|---|\n";
  for (const ComparisonRow& row : r.rows) {
    if (std::isnan(row.published)) {
      absl::StrAppendFormat(&s, "| %s | `%s` | %s | - | | %s |\n", row.label, row.metric,
                            FormatValue(row.metric, row.simulated), Verdict(row));
      continue;
    }
    absl::StrAppendFormat(&s, "| %s | `%s` | %s | %s | %+.2f%% | %s |\n", row.label, row.metric,
                          FormatValue(row.metric, row.simulated), FormatValue(row.metric, row.published),
                          100 * row.rel_error, Verdict(row));
  }
  return s;
}

}  // namespace innosim
