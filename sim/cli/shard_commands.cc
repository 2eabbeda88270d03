// innosim sweep/experiment --shard K/N and innosim merge (shard_commands.h).
#include "sim/cli/shard_commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "sim/bounded_read.h"
#include "sim/progress.h"
#include "sim/report.h"
#include "sim/sweep_chart.h"

namespace innosim::cli {
namespace {

// Options that change how a command runs but not what it prints: left out
// of its identity, so that shards run with different --threads merge.
bool LeftOutOfIdentity(const std::string& name) {
  return name == "--shard" || name == "--threads" || name == "--quiet" || name == "--force" || name == "--help";
}

// The options given, in the order the subcommand registers them (not the
// order typed), each with its values: the command's canonical form.
nlohmann::ordered_json CommandArgs(const CLI::App& sub) {
  nlohmann::ordered_json args = nlohmann::ordered_json::array();
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->count() == 0 || LeftOutOfIdentity(opt->get_name())) continue;
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const std::string& v : opt->results()) values.push_back(v);
    args.push_back({opt->get_name(), values});
  }
  return args;
}

absl::StatusOr<std::string> ReadAll(const std::string& path) {
  if (path == "-") return ReadBounded(std::cin, kMaxShardFileBytes, "stdin");
  NoteInputFile(path);  // an output naming it is refused (sim/output_file.h)
  return ReadFileBounded(path, kMaxShardFileBytes, path);
}

void PrintLine(const std::string& line) { std::cout << line << "\n"; }

// The figures of one experiment configuration as a shard line carries them.
nlohmann::ordered_json FiguresToJson(const ConfigFigures& f) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
  for (const auto& [k, v] : f.metrics) metrics[k] = DoubleToJson(v);
  j["metrics"] = metrics;
  j["engine_result"] = f.engine_result;
  j["page_size"] = f.page_size;
  j["leaf_fill"] = DoubleToJson(f.leaf_fill);
  j["data_length"] = f.data_length;
  j["elapsed_s"] = f.elapsed_s;
  return j;
}

absl::StatusOr<ConfigFigures> FiguresFromJson(const nlohmann::ordered_json& j) {
  const auto bad = [](const char* field) {
    return absl::InvalidArgumentError(absl::StrCat("an experiment shard line without its '", field, "'"));
  };
  ConfigFigures f;
  if (!j.contains("metrics") || !j["metrics"].is_object()) return bad("metrics");
  for (const auto& [k, v] : j["metrics"].items()) {
    absl::StatusOr<double> d = DoubleFromJson(v);
    if (!d.ok()) return bad("metrics");
    f.metrics[k] = *d;
  }
  if (!j.contains("engine_result") || !j["engine_result"].is_boolean()) return bad("engine_result");
  f.engine_result = j["engine_result"].get<bool>();
  if (!j.contains("page_size") || !j["page_size"].is_number_unsigned()) return bad("page_size");
  f.page_size = j["page_size"].get<uint32_t>();
  absl::StatusOr<double> fill = j.contains("leaf_fill") ? DoubleFromJson(j["leaf_fill"]) : bad("leaf_fill");
  if (!fill.ok()) return bad("leaf_fill");
  f.leaf_fill = *fill;
  if (!j.contains("data_length") || !j["data_length"].is_number_unsigned()) return bad("data_length");
  f.data_length = j["data_length"].get<uint64_t>();
  if (!j.contains("elapsed_s") || !j["elapsed_s"].is_number()) return bad("elapsed_s");
  f.elapsed_s = j["elapsed_s"].get<double>();
  return f;
}

nlohmann::ordered_json ErrorBody(const absl::Status& s) {
  nlohmann::ordered_json j;
  j["error"] = std::string(s.message());
  return j;
}

// The first failed configuration's message among `bodies` [from, to).
std::optional<std::string> FirstError(const std::vector<nlohmann::ordered_json>& bodies, size_t from, size_t to) {
  for (size_t c = from; c < to; ++c) {
    if (bodies[c].contains("error") && bodies[c]["error"].is_string()) return bodies[c]["error"].get<std::string>();
  }
  return std::nullopt;
}

int MergeSweep(const MergedShards& m) {
  const nlohmann::ordered_json& o = m.header.value("output", nlohmann::ordered_json());
  if (!o.is_object() || !o.contains("json") || !o["json"].is_boolean() || !o.contains("flush") ||
      !o["flush"].is_boolean() || !o.contains("svg") || !o["svg"].is_string() || !o.contains("title") ||
      !o["title"].is_string()) {
    return Fail(2, "the sweep shards' header has no 'output': run the shards with this innosim");
  }
  SweepOutputs out;
  out.json = o["json"].get<bool>();
  out.flush = o["flush"].get<bool>();
  out.svg = o["svg"].get<std::string>();
  out.title = o["title"].get<std::string>();
  // The shards' --svg is checked before anything is printed, as the
  // unsharded sweep checks it before its runs.
  if (!out.svg.empty()) {
    if (absl::Status s = CheckOutputPath(out.svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  if (std::optional<std::string> e = FirstError(m.bodies, 0, m.bodies.size())) return Fail(2, *e);
  std::vector<SweepOutcome> outcomes;
  for (size_t c = 0; c < m.bodies.size(); ++c) {
    absl::StatusOr<SweepOutcome> one = SweepOutcomeFromJson(m.bodies[c]);
    if (!one.ok()) return Fail(2, absl::StrCat("configuration ", c + 1, ": ", one.status().message()));
    outcomes.push_back(*std::move(one));
  }
  return EmitSweep(out, outcomes);
}

int MergeExperiment(const MergedShards& m) {
  const nlohmann::ordered_json& h = m.header;
  if (!h.contains("files") || !h["files"].is_array() || !h.contains("rows") || !h.contains("markdown") ||
      !h["markdown"].is_string() || !h.contains("svg") || !h["svg"].is_string()) {
    return Fail(2, "the experiment shards' header has no 'files': run the shards with this innosim");
  }
  ExperimentOutputs out;
  if (h["rows"].is_number_unsigned()) out.rows = h["rows"].get<uint64_t>();
  out.markdown = h["markdown"].get<std::string>();
  out.svg = h["svg"].get<std::string>();
  if (!out.markdown.empty()) {
    if (absl::Status s = CheckOutputPath(out.markdown, "--markdown"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  if (!out.svg.empty()) {
    if (absl::Status s = CheckOutputPath(out.svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  // The files as the shards read them, parsed and planned as they did.
  std::vector<std::string> paths;
  std::vector<ExperimentPlan> plans;
  size_t total = 0;
  for (const auto& f : h["files"]) {
    if (!f.is_object() || !f.contains("path") || !f["path"].is_string() || !f.contains("text") ||
        !f["text"].is_string()) {
      return Fail(2, "the experiment shards' header lists a file without its path and text");
    }
    paths.push_back(f["path"].get<std::string>());
    absl::StatusOr<Experiment> e = ParseExperiment(f["text"].get<std::string>(), paths.back());
    if (!e.ok()) return Fail(2, std::string(e.status().message()));
    plans.push_back(PlanExperiment(*e, out.rows));
    total += plans.back().distinct.size();
    for (const RunSpec& s : plans.back().distinct) WarnSettingsOf(s);
  }
  if (total != m.bodies.size()) {
    return Fail(2, absl::StrCat("the shards' experiment files have ", total, " configurations here, the shards ",
                                m.bodies.size(), ": merge with the innosim that ran the shards"));
  }
  bool all_ok = true;
  size_t first = 0;
  for (size_t i = 0; i < plans.size(); ++i) {
    const ExperimentPlan& plan = plans[i];
    const size_t end = first + plan.distinct.size();
    if (std::optional<std::string> e = FirstError(m.bodies, first, end)) return Fail(2, *e);
    std::vector<RunResult> results;
    std::vector<ConfigFigures> figures;
    double wall_s = 0;  // the sum of the runs' times: the shards ran apart
    for (size_t c = first; c < end; ++c) {
      const nlohmann::ordered_json& b = m.bodies[c];
      absl::StatusOr<ConfigFigures> f =
          b.contains("figures") ? FiguresFromJson(b["figures"]) : absl::InvalidArgumentError("no 'figures'");
      if (!f.ok()) return Fail(2, absl::StrCat("configuration ", c + 1, ": ", f.status().message()));
      results.push_back(ResultOfFigures(plan.distinct[c - first], *f));
      wall_s += f->elapsed_s;
      figures.push_back(*std::move(f));
    }
    absl::StatusOr<ExperimentResult> r = AssembleExperiment(plan, results, figures, wall_s);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    if (int code = EmitExperiment(i, plans.size(), paths[i], *r, out); code >= 0) return code;
    all_ok = all_ok && r->all_ok;
    first = end;
  }
  return all_ok ? 0 : 1;
}

}  // namespace

CLI::Option* AddShardOption(CLI::App* sub, std::string* shard) {
  return sub->add_option("--shard", *shard,
                         "run only the K-th of N slices of the configurations (K/N, 1 <= K <= N) and print JSON "
                         "lines for innosim merge");
}

std::optional<ShardSpec> ShardOf(const CLI::Option* option, const std::string& text, int* fail) {
  *fail = 0;
  if (option->count() == 0) return std::nullopt;
  absl::StatusOr<ShardSpec> s = ParseShard(text);
  if (!s.ok()) {
    *fail = Fail(2, std::string(s.status().message()));
    return std::nullopt;
  }
  return *s;
}

int EmitSweep(const SweepOutputs& out, const std::vector<SweepOutcome>& outcomes) {
  if (!out.svg.empty()) {
    if (absl::Status s = WriteFileAtomically(out.svg, SweepChartSvg(out.title, SweepPointsOf(SweepChartRuns(outcomes)), {}));
        !s.ok()) {
      return Fail(3, std::string(s.message()));
    }
  }
  for (const SweepOutcome& o : outcomes) {
    for (const std::string& w : o.warnings) Warn(w);
  }
  std::cout << (out.json ? SweepJsonLines(outcomes) : SweepText(out.flush, outcomes)) << std::flush;
  return 0;
}

int RunSweepShard(const CLI::App& sub, const ShardSpec& shard, const SweepOutputs& out,
                  const std::vector<RunSpec>& specs, const std::string& defaults_file, int threads, bool quiet) {
  nlohmann::ordered_json body;
  body["args"] = CommandArgs(sub);
  if (!defaults_file.empty()) {
    // The file's text, not only its name, is part of the command.
    absl::StatusOr<std::string> text = ReadAll(defaults_file);
    if (!text.ok()) return Fail(2, std::string(text.status().message()));
    body["defaults_file_digest"] = ShardIdentity(*text);
  }
  nlohmann::ordered_json o;
  o["json"] = out.json;
  o["flush"] = out.flush;
  o["svg"] = out.svg;
  o["title"] = out.title;
  body["output"] = o;
  const std::string identity = ShardIdentity({{"command", "sweep"}, {"body", body}});
  std::vector<RunSpec> slice;
  std::vector<uint64_t> numbers;
  for (uint64_t c = 1; c <= specs.size(); ++c) {
    if (!shard.Holds(c)) continue;
    slice.push_back(specs[c - 1]);
    numbers.push_back(c);
  }
  ProgressCounter progress;
  for (RunSpec& s : slice) s.progress = &progress;
  std::vector<absl::StatusOr<RunResult>> results;
  {
    StderrProgress line(progress, quiet);
    results = RunMany(slice, threads);
  }
  PrintLine(ShardHeaderLine("sweep", identity, shard, specs.size(), body));
  std::optional<std::string> failed;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].ok() && !failed) failed = std::string(results[i].status().message());
    PrintLine(ShardConfigLine(identity, shard, specs.size(), numbers[i],
                              results[i].ok() ? SweepOutcomeToJson(SweepOutcomeOf(*results[i]))
                                              : ErrorBody(results[i].status())));
  }
  std::cout << std::flush;
  return failed ? Fail(2, *failed) : 0;
}

int EmitExperiment(size_t i, size_t n, const std::string& path, const ExperimentResult& r,
                   const ExperimentOutputs& out) {
  if (n > 1) std::cout << (i ? "\n" : "") << "== " << path << " ==\n";
  std::cout << ExperimentTable(r) << std::flush;
  if (!out.markdown.empty()) {
    std::string cmd = absl::StrCat("innosim experiment ", path);
    if (absl::Status s = WriteFileAtomically(out.markdown, ExperimentMarkdown(r, cmd)); !s.ok()) {
      return Fail(3, std::string(s.message()));
    }
  }
  if (!out.svg.empty()) {
    std::string title;
    std::vector<SweepPoint> simulated, published;
    if (!ExperimentSweep(r, &title, &simulated, &published)) {
      return Fail(2, absl::StrCat("--svg: ", path, " has no sweep (three or more rows_per_ms values of one stream)"));
    }
    if (out.rows) {
      // The published figures are for the file's row counts.
      published.clear();
      absl::StrAppend(&title, " (--rows: published points left out)");
    }
    if (absl::Status s = WriteFileAtomically(out.svg, SweepChartSvg(title, simulated, published)); !s.ok()) {
      return Fail(3, std::string(s.message()));
    }
  }
  return -1;
}

int RunExperimentShard(const CLI::App& sub, const ShardSpec& shard, const std::vector<std::string>& paths,
                       const std::vector<Experiment>& experiments, const ExperimentOutputs& out, int threads,
                       bool quiet) {
  nlohmann::ordered_json body;
  body["args"] = CommandArgs(sub);
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadAll(path);
    if (!text.ok()) return Fail(2, std::string(text.status().message()));
    files.push_back({{"path", path}, {"text", *text}});
  }
  body["files"] = files;
  body["rows"] = out.rows ? nlohmann::ordered_json(*out.rows) : nlohmann::ordered_json();
  body["markdown"] = out.markdown;
  body["svg"] = out.svg;
  const std::string identity = ShardIdentity({{"command", "experiment"}, {"body", body}});
  std::vector<ExperimentPlan> plans;
  uint64_t total = 0;
  for (const Experiment& e : experiments) {
    plans.push_back(PlanExperiment(e, out.rows));
    total += plans.back().distinct.size();
  }
  PrintLine(ShardHeaderLine("experiment", identity, shard, total, body));
  // The slice of every file's configurations in one RunMany (as
  // RunExperiments runs them unsharded), printed in file order.
  std::vector<RunSpec> slice;
  struct Held {
    size_t file;
    size_t k;          // in the file's plan.distinct
    uint64_t number;   // the configuration's number, 1..total
  };
  std::vector<Held> held;
  uint64_t first = 1;  // configuration number of the file's first
  for (size_t i = 0; i < plans.size(); ++i) {
    for (size_t k = 0; k < plans[i].distinct.size(); ++k) {
      if (!shard.Holds(first + k)) continue;
      slice.push_back(plans[i].distinct[k]);
      held.push_back({i, k, first + k});
    }
    first += plans[i].distinct.size();
  }
  ProgressCounter progress;
  for (RunSpec& s : slice) s.progress = &progress;
  std::vector<absl::StatusOr<RunResult>> results;
  {
    StderrProgress line(progress, quiet);
    results = RunMany(slice, threads);
  }
  std::optional<std::string> failed;
  for (size_t j = 0; j < results.size(); ++j) {
    nlohmann::ordered_json b;
    if (results[j].ok()) {
      b["file"] = held[j].file + 1;
      b["figures"] = FiguresToJson(FiguresOf(plans[held[j].file], held[j].k, *results[j]));
    } else {
      if (!failed) failed = std::string(results[j].status().message());
      b = ErrorBody(results[j].status());
    }
    PrintLine(ShardConfigLine(identity, shard, total, held[j].number, b));
  }
  std::cout << std::flush;
  return failed ? Fail(2, *failed) : 0;
}

void AddMerge(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand(
      "merge", "Join the JSON lines of sweep or experiment --shard K/N into the unsharded command's output");
  auto files = std::make_shared<std::vector<std::string>>();
  sub->add_option("file", *files, "the shards' output, in any order and split over any files (- for stdin)")
      ->required();
  reg.Add(sub, [files]() {
    std::vector<ShardInput> inputs;
    for (const std::string& path : *files) {
      absl::StatusOr<std::string> text = ReadAll(path);
      if (!text.ok()) return Fail(2, absl::StrCat(text.status().message(), ": give the files the shards wrote"));
      inputs.push_back({path == "-" ? "stdin" : path, *std::move(text)});
    }
    absl::StatusOr<MergedShards> m = MergeShards(inputs);
    if (!m.ok()) return Fail(2, std::string(m.status().message()));
    if (m->command == "sweep") return MergeSweep(*m);
    if (m->command == "experiment") return MergeExperiment(*m);
    return Fail(2, absl::StrCat("shards of '", m->command, "', which innosim merge does not know: use sweep or experiment"));
  });
}

}  // namespace innosim::cli
