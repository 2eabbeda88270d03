// innosim run / sweep / experiment.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/key.h"
#include "model/server_settings.h"
#include "sim/cli/commands.h"
#include "sim/cli/memory_check.h"
#include "sim/cli/run_options.h"
#include "sim/cli/shard_commands.h"
#include "sim/count.h"
#include "sim/defaults_file.h"
#include "sim/experiment.h"
#include "sim/metrics.h"
#include "sim/nearest_name.h"
#include "sim/progress.h"
#include "sim/report.h"
#include "sim/engines.h"
#include "sim/runner.h"
#include "sim/series_writer.h"
#include "sim/sweep_chart.h"
#include "tools/page_map.h"
#include "tools/simulated_census.h"

namespace innosim::cli {

namespace {

constexpr char kQuietHelp[] =
    "no progress line on the terminal (drawn on stderr after 2 s of work, only when stderr is a terminal)";

// --page-map: the run's simulated tablespace, drawn as `innosim ibd --svg`
// draws a file. The census is taken from the run's own engine at the end of
// the load.
std::string PageMapOf(const Engine& engine, const RunSpec& spec, PageMapOrder order, bool shade_writes) {
  const IbdCensus census = SimulatedCensus(engine, "simulated");
  PageMapSvgOptions options;
  options.order = order;
  // --shade writes: how often the buffer pool wrote each page (the load and
  // the final flush), from the engine's flush model.
  std::vector<uint32_t> writes;
  if (shade_writes && engine.flush_model() != nullptr) {
    writes.resize(census.pages.size(), 0);
    for (size_t p = 0; p < writes.size(); ++p) {
      writes[p] = engine.flush_model()->buffer_pool().PageWrites(engine.table_space(), static_cast<uint32_t>(p));
    }
    options.page_writes = &writes;
  }
  options.index_names = SimulatedIndexNames(engine);
  options.title = absl::StrCat("innosim run --stream ", spec.stream.name, " --rows ", spec.rows, " --rows-per-ms ",
                               spec.stream.rows_per_ms, " --profile ", spec.profile, ": the simulated tablespace",
                               shade_writes ? ", shaded by the times each page was written" : "");
  return PageMapSvg(census, options);
}

}  // namespace

void AddRun(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("run", "Simulate one key stream and print InnoDB's counters");
  auto opts = std::make_shared<CommonRunOptions>();
  opts->Register(sub, RunLoadHelp());
  auto series = std::make_shared<std::string>();
  sub->add_option("--series", *series,
                  "write a CSV time series, one row per 10,000 rows: rows, seconds, LSN, checkpoint age, dirty "
                  "pages, pages written, reads");
  auto page_map = std::make_shared<std::string>();
  auto order = std::make_shared<std::string>("file");
  sub->add_option("--page-map", *page_map,
                  "write the simulated tablespace's page map as SVG (as innosim ibd FILE --svg draws a real file)");
  sub->add_option("--order", *order,
                  "page map layout: file (pages in file order, one row per extent) or key (live pages in key order, "
                  "level by level)")
      ->capture_default_str();
  auto quiet = std::make_shared<bool>(false);
  sub->add_flag("--quiet", *quiet, kQuietHelp);
  auto force = std::make_shared<bool>(false);
  sub->add_flag("--force", *force, kForceMemoryHelp);
  auto shade = std::make_shared<std::string>("fill");
  sub->add_option("--shade", *shade,
                  "page map shading: fill (used bytes) or writes (times the buffer pool wrote the page; needs the "
                  "flush model)")
      ->capture_default_str();
  reg.Add(sub, [opts, series, page_map, order, shade, quiet, force]() {
    absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(opts->rows_per_ms);
    if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
    if (absl::Status s = opts->LoadDefaults(); !s.ok()) return Fail(2, std::string(s.message()));
    absl::StatusOr<RunSpec> spec = opts->Spec(*rpms);
    if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
    const EngineKind* kind = EngineKindFor(spec->profile);  // Spec() checked the profile
    if (!series->empty() && !kind->records_series) {
      return Fail(2, absl::StrCat("--series: the ", spec->profile, " profile records no series yet: drop --series"));
    }
    if (!page_map->empty() && !kind->draws_page_map) {
      return Fail(2, absl::StrCat("--page-map: the ", spec->profile, " profile draws no page map yet: drop --page-map"));
    }
    if (!series->empty()) {
      if (!spec->flush) return Fail(2, "--series needs the flush model: drop --no-flush");
      // Before the run, not after minutes of it.
      if (absl::Status s = CheckOutputPath(*series, "--series"); !s.ok()) return Fail(2, std::string(s.message()));
      spec->series_every = 10000;
    }
    if (*order != "file" && *order != "key") {
      return Fail(2, absl::StrCat("--order '", *order, "': use --order file or --order key"));
    }
    if (page_map->empty() && *order != "file") return Fail(2, "--order needs --page-map FILE.svg to draw");
    if (*shade != "fill" && *shade != "writes") {
      return Fail(2, absl::StrCat("--shade '", *shade, "': use --shade fill or --shade writes"));
    }
    if (page_map->empty() && *shade != "fill") return Fail(2, "--shade needs --page-map FILE.svg to draw");
    if (*shade == "writes" && !spec->flush) return Fail(2, "--shade writes needs the flush model: drop --no-flush");
    if (!page_map->empty()) {
      if (absl::Status s = CheckOutputPath(*page_map, "--page-map"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    spec->page_writes = *shade == "writes";
    std::string map_svg;
    std::function<void(const EngineDriver&)> at_end;
    if (!page_map->empty()) {
      const PageMapOrder o = *order == "key" ? PageMapOrder::kKey : PageMapOrder::kFile;
      const bool writes = *shade == "writes";
      at_end = [&map_svg, &spec, o, writes](const EngineDriver& driver) {
        if (const Engine* engine = driver.innodb()) map_svg = PageMapOf(*engine, *spec, o, writes);
      };
    }
    WarnSettingsOf(*spec);
    if (absl::Status s = CheckMemoryFor({*spec}, 1, *force); !s.ok()) return Fail(2, std::string(s.message()));
    ProgressCounter progress;
    progress.total_rows = RowsToInsert(*spec);
    spec->progress = &progress;
    absl::StatusOr<RunResult> r;
    {
      StderrProgress line(progress, *quiet);
      r = Run(*spec, at_end);
    }
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    if (!series->empty()) {
      if (absl::Status s = WriteSeriesCsv(*series, *r); !s.ok()) return Fail(3, std::string(s.message()));
    }
    if (!page_map->empty()) {
      if (absl::Status s = WriteFileAtomically(*page_map, map_svg); !s.ok()) return Fail(3, std::string(s.message()));
    }
    for (const std::string& w : r->warnings) Warn(w);
    if (opts->json) {
      std::cout << RunToJson(*r).dump() << "\n";
    } else {
      std::cout << RunSummary(*r);
    }
    return 0;
  });
}

void AddSweep(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("sweep", "One run per --rows-per-ms value, in parallel; a table or JSON lines");
  auto opts = std::make_shared<CommonRunOptions>();
  LoadHelp help = RunLoadHelp();
  help.rows_per_ms = "comma-separated values";
  help.rows_per_ms_default = "50,110,250,482,524,1000";
  opts->Register(sub, help);
  auto threads = std::make_shared<int>(0);
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  auto svg = std::make_shared<std::string>();
  sub->add_option("--svg", *svg, "also draw leaf fill and DATA_LENGTH against rows per ms as SVG");
  auto quiet = std::make_shared<bool>(false);
  sub->add_flag("--quiet", *quiet, kQuietHelp);
  auto force = std::make_shared<bool>(false);
  sub->add_flag("--force", *force, kForceMemoryHelp);
  auto shard = std::make_shared<std::string>();
  CLI::Option* shard_opt = AddShardOption(sub, shard.get());
  // With --phase each row is the table after the last phase; --json gives
  // every phase of every run.
  reg.Add(sub, [sub, opts, threads, svg, quiet, force, shard, shard_opt]() {
    int bad_shard = 0;
    const std::optional<ShardSpec> slice = ShardOf(shard_opt, *shard, &bad_shard);
    if (bad_shard) return bad_shard;
    absl::StatusOr<std::vector<uint64_t>> list = ParseCountList(opts->rows_per_ms);
    if (!list.ok()) return Fail(2, absl::StrCat("--rows-per-ms: ", list.status().message()));
    if (absl::Status s = opts->LoadDefaults(); !s.ok()) return Fail(2, std::string(s.message()));
    if (!svg->empty()) {
      if (absl::Status s = CheckOutputPath(*svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    std::vector<RunSpec> specs;
    for (uint64_t v : *list) {
      absl::StatusOr<RunSpec> spec = opts->Spec(v);
      if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
      specs.push_back(*spec);
    }
    for (const RunSpec& s : specs) WarnSettingsOf(s);
    const uint64_t parallel = *threads > 0 ? static_cast<uint64_t>(*threads) : std::thread::hardware_concurrency();
    if (absl::Status s = CheckMemoryFor(specs, parallel, *force); !s.ok()) return Fail(2, std::string(s.message()));
    if (!svg->empty() && !EngineKindFor(specs[0].profile)->charts_sweep) {
      return Fail(2, absl::StrCat("--svg: the ", specs[0].profile, " profile has no sweep chart yet: drop --svg"));
    }
    SweepOutputs out;
    out.json = opts->json;
    out.flush = !opts->no_flush;
    out.svg = *svg;
    out.title = absl::StrCat("innosim sweep --stream ", opts->stream, " --rows ", specs[0].rows, " --profile ",
                             specs[0].profile);
    if (slice) return RunSweepShard(*sub, *slice, out, specs, opts->defaults_file, *threads, *quiet);
    ProgressCounter progress;
    for (RunSpec& s : specs) s.progress = &progress;
    std::vector<absl::StatusOr<RunResult>> results;
    {
      StderrProgress line(progress, *quiet);
      results = RunMany(specs, *threads);
    }
    for (const auto& r : results) {
      if (!r.ok()) return Fail(2, std::string(r.status().message()));
    }
    std::vector<SweepOutcome> outcomes;
    for (const auto& r : results) outcomes.push_back(SweepOutcomeOf(*r));
    return EmitSweep(out, outcomes);
  });
}

void AddExperiment(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("experiment", "Run experiment files and compare with their published figures");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto markdown = std::make_shared<std::string>();
  auto rows = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(0);
  sub->add_option("file", *paths,
                  "experiment files (TOML), run in turn, e.g. experiments/seed000.toml experiments/seed004.toml")
      ->required();
  sub->add_option("--markdown", *markdown, "also write the comparison as Markdown to this file (one experiment file)");
  sub->add_option("--rows", *rows, "override every run's row count (quick checks)");
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  auto svg = std::make_shared<std::string>();
  sub->add_option("--svg", *svg,
                  "also draw the experiment's rows-per-ms sweep (leaf fill, DATA_LENGTH) with its published points "
                  "(one experiment file)");
  auto quiet = std::make_shared<bool>(false);
  sub->add_flag("--quiet", *quiet, kQuietHelp);
  auto force = std::make_shared<bool>(false);
  sub->add_flag("--force", *force, kForceMemoryHelp);
  auto shard = std::make_shared<std::string>();
  CLI::Option* shard_opt = AddShardOption(sub, shard.get());
  reg.Add(sub, [sub, paths, markdown, rows, threads, svg, quiet, force, shard, shard_opt]() {
    int bad_shard = 0;
    const std::optional<ShardSpec> slice = ShardOf(shard_opt, *shard, &bad_shard);
    if (bad_shard) return bad_shard;
    if (paths->size() > 1 && (!markdown->empty() || !svg->empty())) {
      return Fail(2, absl::StrCat(markdown->empty() ? "--svg" : "--markdown",
                                  " writes one experiment's figures: give one experiment file with it"));
    }
    // Every file is read and checked before the first run, so a typo in the
    // last one does not cost the minutes of the first.
    std::vector<Experiment> experiments;
    for (const std::string& path : *paths) {
      absl::StatusOr<Experiment> e = LoadExperiment(path);
      if (!e.ok()) return Fail(2, std::string(e.status().message()));
      experiments.push_back(*std::move(e));
      for (const ExperimentRun& run : experiments.back().runs) WarnSettingsOf(run.spec);
    }
    if (!markdown->empty()) {
      if (absl::Status s = CheckOutputPath(*markdown, "--markdown"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    if (!svg->empty()) {
      if (absl::Status s = CheckOutputPath(*svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    std::optional<uint64_t> override_rows;
    if (!rows->empty()) {
      absl::StatusOr<uint64_t> n = ParseCount(*rows);
      if (!n.ok()) return Fail(2, absl::StrCat("--rows: ", n.status().message()));
      override_rows = *n;
    }
    {
      std::vector<RunSpec> specs;
      for (const Experiment& e : experiments) {
        for (const ExperimentRun& run : e.runs) {
          specs.push_back(run.spec);
          if (override_rows) specs.back().rows = *override_rows;
        }
      }
      const uint64_t parallel = *threads > 0 ? static_cast<uint64_t>(*threads) : std::thread::hardware_concurrency();
      if (absl::Status s = CheckMemoryFor(specs, parallel, *force); !s.ok()) return Fail(2, std::string(s.message()));
    }
    ExperimentOutputs out;
    out.rows = override_rows;
    out.markdown = *markdown;
    out.svg = *svg;
    if (slice) return RunExperimentShard(*sub, *slice, *paths, experiments, out, *threads, *quiet);
    // Every file's runs at once (RunExperiments): nothing is printed before
    // all have run, so an error leaves no file's table half the output.
    ProgressCounter progress;
    for (Experiment& e : experiments) {
      for (ExperimentRun& run : e.runs) run.spec.progress = &progress;
    }
    absl::StatusOr<std::vector<ExperimentResult>> results;
    {
      StderrProgress line(progress, *quiet);
      results = RunExperiments(experiments, *threads, override_rows);
    }
    if (!results.ok()) return Fail(2, std::string(results.status().message()));
    bool all_ok = true;
    for (size_t i = 0; i < results->size(); ++i) {
      const ExperimentResult& r = (*results)[i];
      if (int code = EmitExperiment(i, experiments.size(), (*paths)[i], r, out); code >= 0) return code;
      all_ok = all_ok && r.all_ok;
    }
    // Exit code 1 when a figure with a tolerance is outside it.
    return all_ok ? 0 : 1;
  });
}

}  // namespace innosim::cli
