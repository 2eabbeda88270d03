// Sharded sweeps and experiments (sim/shard.h): `--shard K/N` of sweep and
// experiment runs one slice of their configurations and prints JSON lines;
// `innosim merge FILE...` joins the lines of every shard into exactly what
// the unsharded command prints and writes (table or JSON, --svg,
// --markdown) and its exit code. The unsharded commands print through the
// same Emit* functions, so the two agree byte for byte (timings aside).
#ifndef INNOSIM_SIM_CLI_SHARD_COMMANDS_H_
#define INNOSIM_SIM_CLI_SHARD_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "sim/cli/commands.h"
#include "sim/experiment.h"
#include "sim/runner.h"
#include "sim/shard.h"
#include "sim/sweep_output.h"

namespace innosim::cli {

// Registers --shard K/N on `sub`.
CLI::Option* AddShardOption(CLI::App* sub, std::string* shard);
// The shard asked for, if --shard was given; exit code 2 in *fail otherwise.
std::optional<ShardSpec> ShardOf(const CLI::Option* option, const std::string& text, int* fail);

// What a sweep prints and writes besides the runs.
struct SweepOutputs {
  bool json = false;
  bool flush = true;
  std::string svg;    // --svg FILE, or empty
  std::string title;  // the chart's
};
// The sweep's output from its outcomes (no run failed); the exit code.
int EmitSweep(const SweepOutputs& out, const std::vector<SweepOutcome>& outcomes);
// `sweep --shard`: runs the slice of `specs` and prints its lines; 2 (and
// the first failure's message) if a run of the slice failed, else 0.
int RunSweepShard(const CLI::App& sub, const ShardSpec& shard, const SweepOutputs& out,
                  const std::vector<RunSpec>& specs, const std::string& defaults_file, int threads, bool quiet);

// What an experiment writes besides its table.
struct ExperimentOutputs {
  std::optional<uint64_t> rows;
  std::string markdown;
  std::string svg;
};
// File i of n's output (its "== path ==" line when n > 1, its table, the
// --markdown and --svg files); -1 to go on, or the exit code to stop with.
int EmitExperiment(size_t i, size_t n, const std::string& path, const ExperimentResult& r,
                   const ExperimentOutputs& out);
// `experiment --shard`: the slice of every file's distinct configurations.
int RunExperimentShard(const CLI::App& sub, const ShardSpec& shard, const std::vector<std::string>& paths,
                       const std::vector<Experiment>& experiments, const ExperimentOutputs& out, int threads,
                       bool quiet);

void AddMerge(CLI::App& app, Registry& reg);

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_SHARD_COMMANDS_H_
