// innosim: the command line. Subcommands:
//   run         simulate one key stream and print the counters
//   sweep       one run per --rows-per-ms value, in parallel
//   experiment  run an experiment file and compare with its published figures
//   merge       join the output of sweep/experiment --shard K/N
//   keys        write a key stream's keys to stdout or a file
//   bench       innosim against absl::btree_set on the same keys
//   ibd         what every page of a tablespace file holds
//   measure     load the same stream into a real server and compare
//   explain     every insert step by step: leaf, header, split rule, why
// Bad input: one line on stderr and exit code 2.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "sim/cli/commands.h"
#include "sim/nearest_name.h"

int main(int argc, char** argv) {
  CLI::App app{"innosim: what InnoDB does to its B+tree pages for a primary-key order"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  // A flag takes no value: --json=yes is refused (CLI11 would read it as
  // true). Subcommands copy the app's option defaults when created.
  app.option_defaults()->disable_flag_override();
  innosim::cli::Registry reg;
  innosim::cli::AddRun(app, reg);
  innosim::cli::AddSweep(app, reg);
  innosim::cli::AddExperiment(app, reg);
  innosim::cli::AddMerge(app, reg);
  innosim::cli::AddKeys(app, reg);
  innosim::cli::AddBench(app, reg);
  innosim::cli::AddIbd(app, reg);
  innosim::cli::AddMeasure(app, reg);
  innosim::cli::AddPgFile(app, reg);
  innosim::cli::AddExplain(app, reg);
  innosim::cli::AddCompare(app, reg);
  // A mistyped subcommand: CLI11 would only say that one is required.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      return innosim::cli::Fail(2, std::string("unknown subcommand '") + argv[1] + "'" +
                                       innosim::DidYouMean(argv[1], names) + ": use one of " +
                                       innosim::cli::SubcommandNames(app) + " (innosim --help)");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();
    const std::string override_said = " was given a disallowed flag override";
    if (const size_t at = what.find(override_said); at != std::string::npos) {
      const std::string flag = what.substr(0, at);
      return innosim::cli::Fail(2, "--" + flag + " takes no value: write --" + flag + " alone (see innosim --help)");
    }
    return innosim::cli::Fail(2, what + " (see innosim --help)");
  }
  return reg.Dispatch(app);
}
