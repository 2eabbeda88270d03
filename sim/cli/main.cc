// innosim: the command line. Subcommands:
//   run         simulate one key stream and print the counters
//   sweep       one run per --rows-per-ms value, in parallel
//   experiment  run an experiment file and compare with its published figures
//   bench       innosim against absl::btree_set on the same keys
// Bad input: one line on stderr and exit code 2.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "sim/cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"innosim: what InnoDB does to its B+tree pages for a primary-key order"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  innosim::cli::Registry reg;
  innosim::cli::AddRun(app, reg);
  innosim::cli::AddSweep(app, reg);
  innosim::cli::AddExperiment(app, reg);
  innosim::cli::AddBench(app, reg);
  innosim::cli::AddIbd(app, reg);
  innosim::cli::AddMeasure(app, reg);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "innosim: %s (see innosim --help)\n", e.what());
    return 2;
  }
  return reg.Dispatch(app);
}
