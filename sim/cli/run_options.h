// The options run, sweep and explain share (--stream, --rows, --seed,
// --page-size, --profile, --set, --defaults-file, --table, ...; the load
// options of sim/cli/load_options.h, in run's words), and how they become a
// RunSpec: every check the run would make, made before it.
#ifndef INNOSIM_SIM_CLI_RUN_OPTIONS_H_
#define INNOSIM_SIM_CLI_RUN_OPTIONS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "model/server_settings.h"
#include "sim/cli/load_options.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/stream_registry.h"
#include "sim/table_parser.h"

namespace innosim::cli {

// The help run shows for the load options (sim/cli/load_options.h); sweep
// and explain start from it.
inline LoadHelp RunLoadHelp() {
  LoadHelp h;
  h.stream = StreamOptionHelp();
  h.rows = "rows to insert; suffixes k, M, G (e.g. 10M)";
  h.seed = "random seed of the key stream (0 to 2^64-1)";
  h.page_size = absl::StrCat("innodb_page_size, as --set innodb_page_size: ", SupportedPageSizesInK(),
                             " (default: the settings', 16384)");
  h.profile = "engine profile: mysql-8.4, mariadb-10.11, postgresql-15 or postgresql-18 (docs/postgresql.md)";
  h.json = "print JSON instead of a readable summary";
  h.set = "server variable NAME=VALUE (repeatable), e.g. innodb_buffer_pool_size=4G";
  h.rows_per_sec = "simulated insert rate that clocks the page cleaner";
  h.batch = "rows per transaction (multi-row INSERT)";
  h.no_flush = "structure only: no buffer pool, redo log or page cleaner";
  h.table =
      "seed000, seed004, or 'CREATE TABLE t (...)' (PK: BINARY(16) for 16-byte streams, BIGINT for autoinc and "
      "snowflake, INT/MEDIUMINT/SMALLINT for autoinc or fileN: of that width)";
  h.payload_bytes = "bytes stored in each VARCHAR column";
  h.defaults_file = "my.cnf whose [mysqld] (and [server], ...) variables apply before --set";
  h.column =
      "what a column holds, NAME=SOURCE (repeatable): time, time:ROWS_PER_SEC, key-time, rownum, "
      "const, random, pk, stream:NAME[@SEED] (docs/column-values.md)";
  h.writers = true;
  h.rows_per_ms = "rows per millisecond of the synthetic clock (every stream but uuidv4 and autoinc)";
  h.phase =
      "a step after the --stream/--rows insert (repeatable, in order): insert:STREAM:ROWS, "
      "delete:every:K, delete:phase:N (the rows phase N inserted, 1 = --stream's), "
      "delete:range:FROM:TO (percent of the rows in key order), optimize (OPTIMIZE TABLE) or "
      "checkpoint (every dirty page written; needs the flush model); every counter is "
      "reported after each (docs/phases.md)";
  return h;
}

// The load options of run, sweep and explain, and how they become a RunSpec:
// every check the run would make, made before it.
struct CommonRunOptions : LoadOptions {
  // Builds the spec (rows_per_ms given separately for sweeps), --phase last.
  absl::StatusOr<RunSpec> Spec(uint64_t rpms) const {
    RunSpec spec;
    if (absl::Status s = Apply(&spec, rpms); !s.ok()) return s;
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
    absl::StatusOr<RunConfig> config = ConfigFor(spec);
    if (!config.ok()) return config.status();
    // The table, checked against the stream's key width before running.
    if (absl::Status s = CheckRunTable(spec); !s.ok()) return s;
    if (absl::Status s = ApplyPhases(&spec); !s.ok()) return s;
    return spec;
  }
};

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_RUN_OPTIONS_H_
