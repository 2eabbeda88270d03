// The options run, sweep and explain share (--stream, --rows, --seed,
// --page-size, --profile, --set, --defaults-file, --table, ...), and how
// they become a RunSpec: every check the run would make, made before it.
#ifndef INNOSIM_SIM_CLI_RUN_OPTIONS_H_
#define INNOSIM_SIM_CLI_RUN_OPTIONS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "model/server_settings.h"
#include "sim/count.h"
#include "sim/defaults_file.h"
#include "sim/key_stream.h"
#include "sim/nearest_name.h"
#include "sim/phases.h"
#include "sim/runner.h"
#include "sim/table_parser.h"
#include "sim/writers.h"
#include "sim/stream_registry.h"

namespace innosim::cli {

// --seed: a whole number from 0 to 2^64-1 (a sign would wrap around).
inline absl::StatusOr<uint64_t> ParseSeed(const std::string& text) {
  uint64_t v = 0;
  if (text.empty() || text[0] == '-' || text[0] == '+' || !absl::SimpleAtoi(text, &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed '", text, "' must be a whole number from 0 to 18446744073709551615 (e.g. --seed 7)"));
  }
  return v;
}

// --writers, --clock-skew-ms, --clock-drift-ppm, --interleave,
// --writer-weights: several app servers with their own clocks (sim/writers.h).
// Shared by run, sweep, explain, keys and measure.
struct WriterOptions {
  std::string writers = "1";
  std::string clock_skew_ms = "0";
  std::string clock_drift_ppm = "0";
  std::string interleave = "round-robin";
  std::string writer_weights;

  void Register(CLI::App* sub) {
    sub->add_option("--writers", writers,
                    "app servers making keys, each with its own clock and counter (time-based streams); their "
                    "rows reach the server interleaved")
        ->capture_default_str();
    sub->add_option("--clock-skew-ms", clock_skew_ms,
                    "writer i's clock runs MS*i/(N-1) ms ahead of writer 0's (the clocks span MS)")
        ->capture_default_str();
    sub->add_option("--clock-drift-ppm", clock_drift_ppm,
                    "writer i's clock runs PPM*i/(N-1) parts per million fast (negative: slow)")
        ->capture_default_str();
    sub->add_option("--interleave", interleave,
                    "round-robin (writer 0, 1, ..., N-1 in turn) or time (by each row's time, at --writer-weights)")
        ->capture_default_str();
    sub->add_option("--writer-weights", writer_weights,
                    "with --interleave time: each writer's relative rate, e.g. 1,1,2 (default: equal)");
  }

  // Sets the spec's writer fields; errors name the option.
  absl::Status Apply(StreamSpec* spec) const {
    absl::StatusOr<uint64_t> n = ParseCount(writers);
    if (!n.ok() || *n == 0 || *n > kMaxWriters) {
      return absl::InvalidArgumentError(
          absl::StrCat("--writers '", writers, "' must be a whole number from 1 to ", kMaxWriters, " (e.g. --writers 4)"));
    }
    spec->writers = static_cast<uint32_t>(*n);
    double v = 0;
    if (!absl::SimpleAtod(clock_skew_ms, &v) || !std::isfinite(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--clock-skew-ms '", clock_skew_ms, "' must be a number of ms (e.g. --clock-skew-ms 5)"));
    }
    spec->clock_skew_ms = v;
    if (!absl::SimpleAtod(clock_drift_ppm, &v) || !std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat("--clock-drift-ppm '", clock_drift_ppm,
                                                     "' must be a number of parts per million (e.g. --clock-drift-ppm 50)"));
    }
    spec->clock_drift_ppm = v;
    absl::StatusOr<Interleave> il = ParseInterleave(interleave);
    if (!il.ok()) return il.status();
    spec->interleave = *il;
    spec->writer_weights.clear();
    if (!writer_weights.empty()) {
      for (absl::string_view part : absl::StrSplit(writer_weights, ',')) {
        uint32_t w = 0;
        if (!absl::SimpleAtoi(part, &w) || w == 0 || w > kMaxWriterWeight) {
          return absl::InvalidArgumentError(absl::StrCat("--writer-weights '", writer_weights,
                                                         "': give whole numbers from 1 to ", kMaxWriterWeight,
                                                         " separated by commas, one per writer (e.g. 1,1,2)"));
        }
        spec->writer_weights.push_back(w);
      }
    }
    return ValidateWriters(*spec);
  }
};

// --phase (repeatable): the steps after the --stream/--rows insert
// (sim/phases.h, docs/phases.md). Shared by run and sweep.
struct PhaseOptions {
  std::vector<std::string> phases;

  void Register(CLI::App* sub) {
    sub->add_option("--phase", phases,
                    "a step after the --stream/--rows insert (repeatable, in order): insert:STREAM:ROWS, "
                    "delete:every:K, delete:phase:N (the rows phase N inserted, 1 = --stream's), "
                    "delete:range:FROM:TO (percent of the rows in key order), optimize (OPTIMIZE TABLE) or "
                    "checkpoint (every dirty page written; needs the flush model); every counter is "
                    "reported after each (docs/phases.md)");
  }

  // Parses each phase into the spec; Run() checks them against the flush
  // model (checkpoint needs it) before
  // any row is simulated.
  absl::Status Apply(RunSpec* spec) const {
    for (const std::string& text : phases) {
      absl::StatusOr<PhaseSpec> phase = ParsePhase(text);
      if (!phase.ok()) return phase.status();
      spec->phases.push_back(*std::move(phase));
    }
    return absl::OkStatus();
  }
};

// Options shared by run and sweep.
struct CommonRunOptions {
  WriterOptions writer_options;
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
  std::vector<std::string> columns;  // --column NAME=SOURCE
  // Settings read from --defaults-file (LoadDefaults), applied before --set.
  std::vector<VariableAssignment> file_settings;

  void Register(CLI::App* sub) {
    sub->add_option("--stream", stream,
                    StreamOptionHelp())
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
    sub->add_option(
           "--table", table,
           "seed000, seed004, or 'CREATE TABLE t (...)' (PK: BINARY(16) for 16-byte streams, BIGINT for autoinc and "
           "snowflake, INT/MEDIUMINT/SMALLINT for autoinc or fileN: of that width)")
        ->capture_default_str();
    payload_option =
        sub->add_option("--payload-bytes", payload_bytes, "bytes stored in each VARCHAR column")->capture_default_str();
    sub->add_option("--defaults-file", defaults_file,
                    "my.cnf whose [mysqld] (and [server], ...) variables apply before --set");
    sub->add_option("--column", columns,
                    "what a column holds, NAME=SOURCE (repeatable): time, time:ROWS_PER_SEC, key-time, rownum, "
                    "const, random, pk, stream:NAME[@SEED] (docs/column-values.md)");
    writer_options.Register(sub);
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
        return absl::InvalidArgumentError(
            absl::StrCat("--page-size ", page_size, ": InnoDB pages are ", SupportedPageSizesInK()));
      }
      spec.page_size = static_cast<uint32_t>(*ps);
    }
    absl::StatusOr<uint64_t> sd = ParseSeed(seed);
    if (!sd.ok()) return sd.status();
    spec.stream.name = stream;
    spec.stream.seed = *sd;
    spec.stream.rows_per_ms = rpms;
    if (absl::Status s = writer_options.Apply(&spec.stream); !s.ok()) return s;
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
    for (const std::string& c : columns) {
      absl::StatusOr<ColumnSource> src = ParseColumnSource(c);
      if (!src.ok()) return src.status();
      spec.columns.push_back(*std::move(src));
    }
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
    absl::StatusOr<RunConfig> config = ConfigFor(spec);
    if (!config.ok()) return config.status();
    // The table, checked against the stream's key width before running.
    if (absl::Status s = CheckRunTable(spec); !s.ok()) return s;
    return spec;
  }
};

inline absl::StatusOr<uint64_t> ParseRowsPerMs(const std::string& text) {
  if (text == "0") return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  absl::StatusOr<uint64_t> v = ParseCount(text);
  if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows-per-ms: ", v.status().message()));
  return *v;
}

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_RUN_OPTIONS_H_
