// innosim measure --profile postgresql-15|postgresql-18: the same keys
// loaded into a real PostgreSQL (tools/pg_measure.h) and into the
// PostgreSQL model run with the server's settings, each phase's figures side
// by side under the server's names, with their relative errors.
//
// Exit codes as MariaDB's measure (sim/cli/server_commands.cc): 0 ok, 1 a
// compared figure outside --tolerance or a failed sanity check, 2 bad input,
// 3 the outside world failed, 128 + the signal when SIGINT/SIGTERM stopped
// it (its database dropped first).
#ifndef INNOSIM_SIM_CLI_PG_MEASURE_COMMAND_H_
#define INNOSIM_SIM_CLI_PG_MEASURE_COMMAND_H_

#include <string>
#include <vector>

#include "sim/cli/load_options.h"

namespace innosim::cli {

struct PgMeasureCliOptions {
  const LoadOptions* load = nullptr;  // --stream, --rows, --seed, --batch, --table, --payload-bytes, --phase, --set
  std::string profile;                // postgresql-15 or postgresql-18
  // libpq's: an empty one (0 for the port) is left to libpq (PG* variables,
  // ~/.pgpass, its defaults).
  std::string host;
  unsigned port = 0;
  std::string socket;  // the folder holding the server's socket (libpq's host)
  std::string user;
  std::string dbname;  // connected to for CREATE DATABASE / DROP DATABASE
  bool private_server = false;
  double tolerance = 0.02;
  bool json = false;
  // MariaDB's measure options the user gave (measure refuses them here).
  std::vector<std::string> mariadb_options_given;
};

int RunPgMeasure(const PgMeasureCliOptions& o);

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_PG_MEASURE_COMMAND_H_
