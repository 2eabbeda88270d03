// The innosim subcommands. Each Add* registers its options on the app and a
// handler in the registry; Dispatch runs the handler of the chosen
// subcommand and returns the process exit code (0 ok, 1 a result outside
// its tolerance, 2 bad input, 3 a failure of the outside world).
#ifndef INNOSIM_SIM_CLI_COMMANDS_H_
#define INNOSIM_SIM_CLI_COMMANDS_H_

#include <functional>
#include <map>
#include <string>

#include "CLI/CLI.hpp"

namespace innosim {
struct RunSpec;
}

namespace innosim::cli {

class Registry {
 public:
  void Add(CLI::App* sub, std::function<int()> handler) { handlers_[sub] = std::move(handler); }
  int Dispatch(CLI::App& app);

 private:
  std::map<CLI::App*, std::function<int()>> handlers_;
};

void AddRun(CLI::App& app, Registry& reg);
void AddSweep(CLI::App& app, Registry& reg);
void AddExperiment(CLI::App& app, Registry& reg);
void AddKeys(CLI::App& app, Registry& reg);
void AddBench(CLI::App& app, Registry& reg);
void AddIbd(CLI::App& app, Registry& reg);
void AddPgFile(CLI::App& app, Registry& reg);
void AddMeasure(CLI::App& app, Registry& reg);
void AddExplain(CLI::App& app, Registry& reg);
void AddCompare(CLI::App& app, Registry& reg);
void AddMerge(CLI::App& app, Registry& reg);

// The app's registered subcommands, "run, sweep, ..." in the order they were
// added: the one list the messages that name them use.
inline std::string SubcommandNames(const CLI::App& app) {
  std::string list;
  for (const CLI::App* sub : app.get_subcommands({})) list += (list.empty() ? "" : ", ") + sub->get_name();
  return list;
}

// One-line error to stderr, returns the exit code. User input quoted in
// `message` is printed escaped (sim/printable.h), as by Warn.
int Fail(int code, const std::string& message);
// One warning line to stderr ("innosim: warning: ..."), each distinct
// message once per process: a clamp met by every run of a sweep or an
// experiment is said once, whichever path (run results, shard lines,
// settings checked up front) reaches it first. Thread-safe.
void Warn(const std::string& message);
// Warns what the spec's settings make the model substitute (clamps and
// roundings as the server makes them, ignored loose- variables:
// ConfigFor(spec).server.warnings), before the work, so that every
// subcommand says it, on stderr. A spec ConfigFor refuses warns nothing:
// the run's own error follows.
void WarnSettingsOf(const RunSpec& spec);

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_COMMANDS_H_
