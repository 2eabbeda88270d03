// innosim bench: innosim against absl::btree_set on the same keys.
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "sim/cli/commands.h"
#include "sim/cli/load_options.h"
#include "sim/cli/memory_check.h"
#include "sim/count.h"
#include "sim/stream_registry.h"
#include "tools/bench.h"

namespace innosim::cli {

void AddBench(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("bench", "Time and peak memory of innosim vs absl::btree_set on the same keys");
  struct Opts {
    LoadOptions load;  // --stream, --rows, --seed, --rows-per-ms
    int repetitions = 1;
    bool json = false;
    bool flush = false;
    bool force = false;
  };
  auto o = std::make_shared<Opts>();
  LoadHelp help;
  help.stream = StreamOptionHelp();
  help.rows = "rows (e.g. 10M)";
  help.seed = "random seed";
  help.rows_per_ms = "synthetic clock rate";
  o->load.Register(sub, help);
  sub->add_option("--repetitions", o->repetitions,
                  "runs of each side, taking turns going first; medians are reported")
      ->capture_default_str();
  sub->add_flag("--json", o->json, "print one JSON object instead of the table");
  sub->add_flag("--flush", o->flush,
                "innosim's side runs the full model (buffer pool, redo log, page cleaner), as a default `run` does; "
                "without it, the B-trees alone");
  sub->add_flag("--force", o->force, kForceMemoryHelp);
  reg.Add(sub, [o]() {
    absl::StatusOr<uint64_t> n = ParseCount(o->load.rows);
    if (!n.ok()) return Fail(2, absl::StrCat("--rows: ", n.status().message()));
    absl::StatusOr<uint64_t> r = ParseCount(o->load.rows_per_ms);
    if (!r.ok()) return Fail(2, absl::StrCat("--rows-per-ms: ", r.status().message()));
    RunSpec spec;
    if (absl::Status s = o->load.Apply(&spec, *r); !s.ok()) return Fail(2, std::string(s.message()));
    spec.flush = o->flush;
    WarnSettingsOf(spec);
    // The two sides run in turn, each generating the keys as it goes:
    // btree_set's 16-byte keys (tools/bench.h) are no more than the model's.
    if (absl::Status s = CheckMemoryFor({spec}, 1, o->force); !s.ok()) {
      return Fail(2, std::string(s.message()));
    }
    absl::StatusOr<BenchResult> b = RunBench(spec, o->repetitions);
    if (!b.ok()) return Fail(2, std::string(b.status().message()));
    std::cout << (o->json ? BenchJson(*b) : BenchReport(*b));
    return 0;
  });
}

}  // namespace innosim::cli
