// innosim compare: the same keys into several engines, side by side
// (sim/engine_compare.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "sim/cli/commands.h"
#include "sim/cli/run_options.h"
#include "sim/engine_compare.h"
#include "sim/engines.h"
#include "sim/cli/memory_check.h"
#include "sim/progress.h"
#include "sim/report.h"

namespace innosim::cli {

void AddCompare(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("compare", "The same keys into several engines: their pages side by side");
  auto opts = std::make_shared<CommonRunOptions>();
  LoadHelp help;
  const LoadHelp run = RunLoadHelp();
  help.stream = run.stream;
  help.rows = run.rows;
  help.seed = run.seed;
  help.json = "print one JSON object instead of the table";
  help.table =
      "the table once, in portable SQL: 'CREATE TABLE t (id uuid PRIMARY KEY, ...); CREATE INDEX ON t (...)' "
      "(bigint, integer, smallint, uuid, varchar(n), char(n), timestamp); default: the key alone";
  help.payload_bytes = "bytes stored in each varchar column";
  help.column = run.column;
  help.rows_per_ms = run.rows_per_ms;
  opts->Register(sub, help);
  auto profiles = std::make_shared<std::string>("mysql-8.4,postgresql-18");
  sub->add_option("--profiles", *profiles,
                  absl::StrCat("the engine profiles, comma-separated (", absl::StrJoin(ProfileNames(), ", "), ")"))
      ->capture_default_str();
  auto svg = std::make_shared<std::string>();
  sub->add_option("--svg", *svg, "also draw the figures as a bar chart (SVG)");
  auto quiet = std::make_shared<bool>(false);
  sub->add_flag("--quiet", *quiet,
                "no progress line on the terminal (drawn on stderr after 2 s of work, only when stderr is a terminal)");
  auto force = std::make_shared<bool>(false);
  sub->add_flag("--force", *force, kForceMemoryHelp);
  reg.Add(sub, [opts, profiles, svg, quiet, force]() {
    absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(opts->rows_per_ms);
    if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
    RunSpec base;
    if (absl::Status s = opts->Apply(&base, *rpms); !s.ok()) return Fail(2, std::string(s.message()));
    base.table = CompareTableSql(base.table, StreamKeyWidth(base.stream));
    const std::vector<std::string> names = absl::StrSplit(*profiles, ',', absl::SkipEmpty());
    absl::StatusOr<std::vector<RunSpec>> specs = CompareSpecs(base, names);
    if (!specs.ok()) return Fail(2, std::string(specs.status().message()));
    for (const RunSpec& s : *specs) WarnSettingsOf(s);
    // RunMany runs every profile at once.
    if (absl::Status s = CheckMemoryFor(*specs, specs->size(), *force); !s.ok()) return Fail(2, std::string(s.message()));
    if (!svg->empty()) {
      if (absl::Status s = CheckOutputPath(*svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    ProgressCounter progress;
    for (RunSpec& s : *specs) s.progress = &progress;
    std::vector<absl::StatusOr<RunResult>> results;
    {
      StderrProgress line(progress, *quiet);
      results = RunMany(*specs);
    }
    std::vector<ComparedRun> runs;
    for (size_t i = 0; i < results.size(); ++i) {
      if (!results[i].ok()) {
        return Fail(2, absl::StrCat((*specs)[i].profile, ": ", results[i].status().message()));
      }
      runs.push_back(Compared(*std::move(results[i])));
    }
    if (!svg->empty()) {
      if (absl::Status s = WriteFileAtomically(*svg, CompareSvg(runs, base.table)); !s.ok()) return Fail(3, std::string(s.message()));
    }
    if (opts->json) {
      std::cout << CompareJson(runs, base.table).dump() << "\n";
    } else {
      std::cout << CompareTable(runs);
    }
    return 0;
  });
}

}  // namespace innosim::cli
