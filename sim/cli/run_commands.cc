// innosim run / sweep / experiment.
#include <cstdio>
#include <iostream>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "sim/cli/commands.h"
#include "sim/count.h"
#include "sim/experiment.h"
#include "sim/report.h"
#include "sim/runner.h"

namespace innosim::cli {

int Registry::Dispatch(CLI::App& app) {
  for (auto& [sub, handler] : handlers_) {
    if (sub->parsed()) return handler();
  }
  return Fail(2, "no subcommand given: use run, sweep, experiment, bench, measure or ibd");
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "innosim: %s\n", message.c_str());
  return code;
}

namespace {

// Options shared by run and sweep.
struct CommonRunOptions {
  std::string stream;
  std::string rows = "";
  std::string rows_per_ms = "482";
  uint64_t seed = 1;
  std::string page_size = "16384";
  std::string profile = "mysql-8.4";
  bool json = false;
  std::vector<std::string> sets;
  std::string rows_per_sec = "100000";
  bool no_flush = false;
  std::string batch = "1000";

  void Register(CLI::App* sub) {
    sub->add_option("--stream", stream, "uuidv4, uuidv7-random, uuidv7-counter, uuidv7-subms, autoinc, file:PATH")
        ->required();
    sub->add_option("--rows", rows, "rows to insert; suffixes k, M, G (e.g. 10M)")->required();
    sub->add_option("--seed", seed, "random seed of the key stream")->capture_default_str();
    sub->add_option("--page-size", page_size, "innodb_page_size: 4096, 8192, 16384, 32768 or 65536")
        ->capture_default_str();
    sub->add_option("--profile", profile, "engine profile: mysql-8.4 or mariadb-10.11")->capture_default_str();
    sub->add_flag("--json", json, "print JSON instead of a readable summary");
    sub->add_option("--set", sets, "server variable NAME=VALUE (repeatable), e.g. innodb_buffer_pool_size=4G");
    sub->add_option("--rows-per-sec", rows_per_sec, "simulated insert rate that clocks the page cleaner")
        ->capture_default_str();
    sub->add_option("--batch", batch, "rows per transaction (multi-row INSERT)")->capture_default_str();
    sub->add_flag("--no-flush", no_flush, "structure only: no buffer pool, redo log or page cleaner");
  }

  // Builds the spec (rows_per_ms given separately for sweeps).
  absl::StatusOr<RunSpec> Spec(uint64_t rpms) const {
    RunSpec spec;
    absl::StatusOr<uint64_t> n = ParseCount(rows);
    if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows: ", n.status().message()));
    spec.rows = *n;
    absl::StatusOr<uint64_t> ps = ParseCount(page_size);
    if (!ps.ok()) return absl::InvalidArgumentError(absl::StrCat("--page-size: ", ps.status().message()));
    spec.page_size = static_cast<uint32_t>(*ps);
    if (*ps != spec.page_size) spec.page_size = 0;
    spec.stream.name = stream;
    spec.stream.seed = seed;
    spec.stream.rows_per_ms = rpms;
    spec.profile = profile;
    spec.flush = !no_flush;
    for (const std::string& kv : sets) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("--set '", kv, "': write NAME=VALUE, e.g. --set innodb_buffer_pool_size=4G"));
      }
      spec.settings.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    double rps = 0;
    if (!absl::SimpleAtod(rows_per_sec, &rps) || !(rps > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--rows-per-sec '", rows_per_sec, "' must be a positive number (e.g. 127290)"));
    }
    spec.rows_per_sec = rps;
    absl::StatusOr<uint64_t> b = ParseCount(batch);
    if (!b.ok()) return absl::InvalidArgumentError(absl::StrCat("--batch: ", b.status().message()));
    spec.trx_rows = *b;
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
    absl::StatusOr<ServerSettings> settings = SettingsFor(spec, nullptr);
    if (!settings.ok()) return settings.status();
    return spec;
  }
};

absl::StatusOr<uint64_t> ParseRowsPerMs(const std::string& text) {
  if (text == "0") return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  absl::StatusOr<uint64_t> v = ParseCount(text);
  if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows-per-ms: ", v.status().message()));
  return *v;
}

}  // namespace

void AddRun(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("run", "Simulate one key stream and print InnoDB's counters");
  auto opts = std::make_shared<CommonRunOptions>();
  opts->Register(sub);
  sub->add_option("--rows-per-ms", opts->rows_per_ms, "rows per millisecond of the synthetic clock (uuidv7-*)")
      ->capture_default_str();
  reg.Add(sub, [opts]() {
    absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(opts->rows_per_ms);
    if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
    absl::StatusOr<RunSpec> spec = opts->Spec(*rpms);
    if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
    absl::StatusOr<RunResult> r = Run(*spec);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
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
  opts->Register(sub);
  auto values = std::make_shared<std::string>("50,110,250,482,524,1000");
  auto threads = std::make_shared<int>(0);
  sub->add_option("--rows-per-ms", *values, "comma-separated values")->capture_default_str();
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")->capture_default_str();
  reg.Add(sub, [opts, values, threads]() {
    absl::StatusOr<std::vector<uint64_t>> list = ParseCountList(*values);
    if (!list.ok()) return Fail(2, absl::StrCat("--rows-per-ms: ", list.status().message()));
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
    std::printf("%12s %18s %12s %12s %14s %10s %10s\n", "rows_per_ms", "index_page_splits", "n_leaf_pages", "size",
                "DATA_LENGTH", "leaf_fill", "reorgs");
    for (const auto& r : results) {
      const IndexReport& p = r->report.primary;
      std::printf("%12lu %18lu %12lu %12lu %11.3f GB %9.1f%% %10lu\n",
                  static_cast<unsigned long>(r->spec.stream.rows_per_ms),
                  static_cast<unsigned long>(p.counters.index_page_splits),
                  static_cast<unsigned long>(p.n_leaf_pages), static_cast<unsigned long>(p.size),
                  r->report.data_length / 1e9, 100 * p.leaf_fill,
                  static_cast<unsigned long>(p.counters.index_page_reorg_attempts));
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
  sub->add_option("--threads", *threads, "parallel runs (0 = all cores)")->capture_default_str();
  reg.Add(sub, [path, markdown, rows, threads]() {
    absl::StatusOr<Experiment> e = LoadExperiment(*path);
    if (!e.ok()) return Fail(2, std::string(e.status().message()));
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
    return 0;
  });
}

}  // namespace innosim::cli
