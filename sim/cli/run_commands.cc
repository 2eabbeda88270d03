// innosim run / sweep / experiment.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "sim/cli/commands.h"
#include "sim/count.h"
#include "sim/defaults_file.h"
#include "sim/experiment.h"
#include "sim/metrics.h"
#include "sim/nearest_name.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/series_writer.h"
#include "sim/simulated_tree.h"
#include "tools/page_map.h"
#include "tools/simulated_census.h"

namespace innosim::cli {

int Registry::Dispatch(CLI::App&) {
  for (auto& [sub, handler] : handlers_) {
    if (sub->parsed()) return handler();
  }
  return Fail(2, "no subcommand given: use run, sweep, experiment, keys, bench, measure or ibd");
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "innosim: %s\n", message.c_str());
  return code;
}

namespace {

// --seed: a whole number from 0 to 2^64-1 (a sign would wrap around).
absl::StatusOr<uint64_t> ParseSeed(const std::string& text) {
  uint64_t v = 0;
  if (text.empty() || text[0] == '-' || text[0] == '+' || !absl::SimpleAtoi(text, &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed '", text, "' must be a whole number from 0 to 18446744073709551615 (e.g. --seed 7)"));
  }
  return v;
}

// Options shared by run and sweep.
struct CommonRunOptions {
  std::string stream;
  std::string rows = "";
  std::string rows_per_ms = "482";
  std::string seed = "1";
  std::string page_size;  // empty: innodb_page_size from the settings
  std::string profile = "mysql-8.4";
  bool json = false;
  std::vector<std::string> sets;
  std::string rows_per_sec = "100000";
  bool no_flush = false;
  std::string batch = "1000";
  std::string table = "seed000";
  std::string payload_bytes = "100";
  CLI::Option* payload_option = nullptr;
  std::string defaults_file;
  // Settings read from --defaults-file (LoadDefaults), applied before --set.
  std::vector<VariableAssignment> file_settings;

  void Register(CLI::App* sub) {
    sub->add_option("--stream", stream,
                    "uuidv4, uuidv7-random, uuidv7-counter, uuidv7-subms, uuidv1, uuidv1-swap, uuidv6, ulid, "
                    "ulid-monotonic, snowflake, autoinc, file:PATH (docs/key-streams.md)")
        ->required();
    sub->add_option("--rows", rows, "rows to insert; suffixes k, M, G (e.g. 10M)")->required();
    sub->add_option("--seed", seed, "random seed of the key stream (0 to 2^64-1)")->capture_default_str();
    sub->add_option("--page-size", page_size,
                    absl::StrCat("innodb_page_size, as --set innodb_page_size: ", SupportedPageSizesInK(),
                                 " (default: the settings', 16384)"));
    sub->add_option("--profile", profile, "engine profile: mysql-8.4 or mariadb-10.11")->capture_default_str();
    sub->add_flag("--json", json, "print JSON instead of a readable summary");
    sub->add_option("--set", sets, "server variable NAME=VALUE (repeatable), e.g. innodb_buffer_pool_size=4G");
    sub->add_option("--rows-per-sec", rows_per_sec, "simulated insert rate that clocks the page cleaner")
        ->capture_default_str();
    sub->add_option("--batch", batch, "rows per transaction (multi-row INSERT)")->capture_default_str();
    sub->add_flag("--no-flush", no_flush, "structure only: no buffer pool, redo log or page cleaner");
    sub->add_option("--table", table,
                    "seed000, seed004, or 'CREATE TABLE t (...)' (PK: BINARY(16) for 16-byte streams, BIGINT for autoinc and "
                    "snowflake)")
        ->capture_default_str();
    payload_option =
        sub->add_option("--payload-bytes", payload_bytes, "bytes stored in each VARCHAR column")->capture_default_str();
    sub->add_option("--defaults-file", defaults_file,
                    "my.cnf whose [mysqld] (and [server], ...) variables apply before --set");
  }

  // Reads --defaults-file once; warnings go to stderr.
  absl::Status LoadDefaults() {
    if (defaults_file.empty()) return absl::OkStatus();
    const std::optional<ServerFlavor> flavor = ServerFlavorByName(profile);
    if (!flavor) {
      return absl::InvalidArgumentError(absl::StrCat("unknown profile '", profile, "': use mysql-8.4 or mariadb-10.11",
                                                     DidYouMean(profile, EngineProfile::Names())));
    }
    absl::StatusOr<DefaultsFile> f = ReadDefaultsFile(defaults_file, *flavor);
    if (!f.ok()) return f.status();
    std::vector<std::string> warnings = f->warnings;
    absl::StatusOr<std::vector<VariableAssignment>> entries =
        CheckDefaultsEntries(*f, defaults_file, *flavor, &warnings);
    if (!entries.ok()) return entries.status();
    for (const std::string& w : warnings) std::fprintf(stderr, "innosim: warning: %s\n", w.c_str());
    file_settings = *std::move(entries);
    return absl::OkStatus();
  }

  // Builds the spec (rows_per_ms given separately for sweeps).
  absl::StatusOr<RunSpec> Spec(uint64_t rpms) const {
    RunSpec spec;
    absl::StatusOr<uint64_t> n = ParseCount(rows);
    if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows: ", n.status().message()));
    spec.rows = *n;
    if (!page_size.empty()) {
      // A size as the server reads innodb_page_size: 16k = 16384.
      absl::StatusOr<uint64_t> ps = ParseSize(page_size);
      if (!ps.ok()) return absl::InvalidArgumentError(absl::StrCat("--page-size: ", ps.status().message()));
      if (!IsSupportedPageSize(*ps)) {
        return absl::InvalidArgumentError(absl::StrCat("--page-size ", page_size,
                                                       ": InnoDB pages are ", SupportedPageSizesInK()));
      }
      spec.page_size = static_cast<uint32_t>(*ps);
    }
    absl::StatusOr<uint64_t> sd = ParseSeed(seed);
    if (!sd.ok()) return sd.status();
    spec.stream.name = stream;
    spec.stream.seed = *sd;
    spec.stream.rows_per_ms = rpms;
    spec.profile = profile;
    spec.flush = !no_flush;
    spec.table = table;
    absl::StatusOr<uint64_t> pb = ParseCount(payload_bytes);
    if (payload_bytes == "0") pb = 0;
    if (!pb.ok()) return absl::InvalidArgumentError(absl::StrCat("--payload-bytes: ", pb.status().message()));
    spec.payload_bytes = static_cast<uint32_t>(std::min<uint64_t>(*pb, 1u << 30));
    spec.payload_bytes_given = payload_option != nullptr && payload_option->count() > 0;
    spec.settings = file_settings;
    for (const std::string& kv : sets) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("--set '", kv, "': write NAME=VALUE, e.g. --set innodb_buffer_pool_size=4G"));
      }
      spec.settings.push_back({kv.substr(0, eq), kv.substr(eq + 1), "--set"});
    }
    double rps = 0;
    if (!absl::SimpleAtod(rows_per_sec, &rps) || !(rps > 0) || !std::isfinite(rps)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rows-per-sec '", rows_per_sec, "' must be a positive number (e.g. 127290)"));
    }
    spec.rows_per_sec = rps;
    absl::StatusOr<uint64_t> b = ParseCount(batch);
    if (!b.ok()) return absl::InvalidArgumentError(absl::StrCat("--batch: ", b.status().message()));
    spec.trx_rows = *b;
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
    absl::StatusOr<RunConfig> config = ConfigFor(spec);
    if (!config.ok()) return config.status();
    // The table, checked against the stream's key width before running.
    const int width = StreamKeyWidth(stream);
    if (!absl::StartsWith(stream, "file:")) {
      TableOptions to;
      to.payload_bytes = spec.payload_bytes;
      to.payload_given = spec.payload_bytes_given;
      absl::StatusOr<TableSchema> t = ResolveTable(spec.table, width, to);
      if (!t.ok()) return t.status();
    }
    return spec;
  }
};

absl::StatusOr<uint64_t> ParseRowsPerMs(const std::string& text) {
  if (text == "0") return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  absl::StatusOr<uint64_t> v = ParseCount(text);
  if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows-per-ms: ", v.status().message()));
  return *v;
}

// --page-map: the simulated tablespace drawn as `innosim ibd --svg` draws a
// file. Run() keeps its engine, so the tree is built again without the
// flush model (sim/simulated_tree.h); that it is the run's tree is checked
// on the figures both report.
absl::Status WritePageMap(const RunSpec& spec, const RunResult& r, const std::string& path, PageMapOrder order) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = SimulateTree(spec);
  if (!engine.ok()) return engine.status();
  const EngineReport tree = (*engine)->Report();
  if (tree.primary.n_leaf_pages != r.report.primary.n_leaf_pages || tree.primary.size != r.report.primary.size ||
      tree.file_size != r.report.file_size) {
    return absl::InternalError(absl::StrCat("--page-map: the tree built for the map (n_leaf_pages ",
                                            tree.primary.n_leaf_pages, ", size ", tree.primary.size,
                                            ") differs from the run's (", r.report.primary.n_leaf_pages, ", ",
                                            r.report.primary.size, "): a bug in innosim, please report it"));
  }
  const IbdCensus census = SimulatedCensus(**engine, "simulated");
  PageMapSvgOptions options;
  options.order = order;
  options.index_names = SimulatedIndexNames(**engine);
  options.title = absl::StrCat("innosim run --stream ", spec.stream.name, " --rows ", spec.rows, " --profile ",
                               spec.profile, ": the simulated tablespace");
  return WriteFileAtomically(path, PageMapSvg(census, options));
}

}  // namespace

void AddRun(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("run", "Simulate one key stream and print InnoDB's counters");
  auto opts = std::make_shared<CommonRunOptions>();
  opts->Register(sub);
  sub->add_option("--rows-per-ms", opts->rows_per_ms, "rows per millisecond of the synthetic clock (every stream but uuidv4 and autoinc)")
      ->capture_default_str();
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
  reg.Add(sub, [opts, series, page_map, order]() {
    absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(opts->rows_per_ms);
    if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
    if (absl::Status s = opts->LoadDefaults(); !s.ok()) return Fail(2, std::string(s.message()));
    absl::StatusOr<RunSpec> spec = opts->Spec(*rpms);
    if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
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
    if (!page_map->empty()) {
      if (absl::Status s = CheckOutputPath(*page_map, "--page-map"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    absl::StatusOr<RunResult> r = Run(*spec);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    if (!series->empty()) {
      if (absl::Status s = WriteSeriesCsv(*series, *r); !s.ok()) return Fail(3, std::string(s.message()));
    }
    if (!page_map->empty()) {
      const PageMapOrder o = *order == "key" ? PageMapOrder::kKey : PageMapOrder::kFile;
      if (absl::Status s = WritePageMap(*spec, *r, *page_map, o); !s.ok()) return Fail(3, std::string(s.message()));
    }
    if (opts->json) {
      for (const std::string& w : r->warnings) std::fprintf(stderr, "innosim: warning: %s\n", w.c_str());
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
  opts->Register(sub);
  auto values = std::make_shared<std::string>("50,110,250,482,524,1000");
  auto threads = std::make_shared<int>(0);
  sub->add_option("--rows-per-ms", *values, "comma-separated values")->capture_default_str();
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  reg.Add(sub, [opts, values, threads]() {
    absl::StatusOr<std::vector<uint64_t>> list = ParseCountList(*values);
    if (!list.ok()) return Fail(2, absl::StrCat("--rows-per-ms: ", list.status().message()));
    if (absl::Status s = opts->LoadDefaults(); !s.ok()) return Fail(2, std::string(s.message()));
    std::vector<RunSpec> specs;
    for (uint64_t v : *list) {
      absl::StatusOr<RunSpec> spec = opts->Spec(v);
      if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
      specs.push_back(*spec);
    }
    std::vector<absl::StatusOr<RunResult>> results = RunMany(specs, *threads);
    for (const auto& r : results) {
      if (!r.ok()) return Fail(2, std::string(r.status().message()));
    }
    if (opts->json) {
      for (const auto& r : results) std::cout << RunToJson(*r).dump() << "\n";
      return 0;
    }
    const bool flush = !opts->no_flush;
    std::printf("%12s %18s %12s %12s %14s %10s %10s", "rows_per_ms", counters::kIndexPageSplits.name,
                counters::kNLeafPages.name, counters::kSize.name, counters::kDataLength.server_name, "leaf_fill",
                "reorgs");
    if (flush) std::printf(" %14s %10s %12s", "pages_written", "per_page", "bp_reads");
    std::printf("\n");
    for (const auto& r : results) {
      const IndexReport& p = r->report.primary;
      std::printf("%12lu %18lu %12lu %12lu %11.3f GB %9.1f%% %10lu",
                  static_cast<unsigned long>(r->spec.stream.rows_per_ms),
                  static_cast<unsigned long>(p.counters.index_page_splits),
                  static_cast<unsigned long>(p.n_leaf_pages), static_cast<unsigned long>(p.size),
                  r->report.data_length / 1e9, 100 * p.leaf_fill,
                  static_cast<unsigned long>(p.counters.index_page_reorg_attempts));
      if (flush) {
        std::printf(" %14lu %10.2f %12lu", static_cast<unsigned long>(r->flush.Innodb_pages_written),
                    p.size ? static_cast<double>(r->flush.Innodb_pages_written) / p.size : 0.0,
                    static_cast<unsigned long>(r->flush.Innodb_buffer_pool_reads));
      }
      std::printf("\n");
    }
    for (const auto& r : results) {
      for (const std::string& w : r->warnings) std::fprintf(stderr, "innosim: warning: %s\n", w.c_str());
    }
    return 0;
  });
}

void AddExperiment(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("experiment", "Run an experiment file and compare with its published figures");
  auto path = std::make_shared<std::string>();
  auto markdown = std::make_shared<std::string>();
  auto rows = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(0);
  sub->add_option("file", *path, "experiment file (TOML), e.g. experiments/seed000.toml")->required();
  sub->add_option("--markdown", *markdown, "also write the comparison as Markdown to this file");
  sub->add_option("--rows", *rows, "override every run's row count (quick checks)");
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  reg.Add(sub, [path, markdown, rows, threads]() {
    absl::StatusOr<Experiment> e = LoadExperiment(*path);
    if (!e.ok()) return Fail(2, std::string(e.status().message()));
    if (!markdown->empty()) {
      if (absl::Status s = CheckOutputPath(*markdown, "--markdown"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    std::optional<uint64_t> override_rows;
    if (!rows->empty()) {
      absl::StatusOr<uint64_t> n = ParseCount(*rows);
      if (!n.ok()) return Fail(2, absl::StrCat("--rows: ", n.status().message()));
      override_rows = *n;
    }
    absl::StatusOr<ExperimentResult> r = RunExperiment(*e, *threads, override_rows);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    std::cout << ExperimentTable(*r);
    if (!markdown->empty()) {
      std::string cmd = absl::StrCat("innosim experiment ", *path);
      if (absl::Status s = WriteFileAtomically(*markdown, ExperimentMarkdown(*r, cmd)); !s.ok()) {
        return Fail(3, std::string(s.message()));
      }
    }
    // Exit code 1 when a figure with a tolerance is outside it.
    return r->all_ok ? 0 : 1;
  });
}

}  // namespace innosim::cli
