// The options of a load, shared by every subcommand that makes a key stream
// and inserts it (run, sweep, explain, keys, bench, measure): --stream,
// --rows, --seed, --rows-per-ms, --writers ..., --batch, --table, --set,
// --page-size, --defaults-file, --phase and the run family's --profile,
// --rows-per-sec, --no-flush, --payload-bytes, --column, --json.
//
// One struct holds the values, one Register() adds the options a
// subcommand offers (LoadHelp: its words for each; an empty text leaves the
// option out), one Apply() turns the offered ones into RunSpec fields. An
// option a subcommand does not offer leaves its RunSpec field as it is.
#ifndef INNOSIM_SIM_CLI_LOAD_OPTIONS_H_
#define INNOSIM_SIM_CLI_LOAD_OPTIONS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "model/flush_model.h"
#include "model/server_settings.h"
#include "sim/cli/commands.h"
#include "sim/count.h"
#include "sim/defaults_file.h"
#include "sim/key_stream.h"
#include "sim/nearest_name.h"
#include "sim/output_file.h"
#include "sim/phases.h"
#include "sim/engines.h"
#include "sim/runner.h"
#include "sim/writers.h"

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

// --rows-per-ms: a count from 1 (0 would stop the synthetic clock).
inline absl::StatusOr<uint64_t> ParseRowsPerMs(const std::string& text) {
  if (text == "0") return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  absl::StatusOr<uint64_t> v = ParseCount(text);
  if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows-per-ms: ", v.status().message()));
  return *v;
}

// --writers, --clock-skew-ms, --clock-drift-ppm, --interleave,
// --writer-weights: several app servers with their own clocks (sim/writers.h).
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

// What one subcommand shows for the load options: its help text for each
// option it offers (empty: not offered), in the order Register() adds them.
struct LoadHelp {
  std::string stream;  // required when offered
  std::string rows;    // required when offered
  std::string seed;
  std::string page_size;
  std::string profile;
  std::string json;
  std::string set;
  std::string rows_per_sec;
  std::string batch;
  std::string no_flush;
  std::string table;
  std::string payload_bytes;
  std::string defaults_file;
  std::string column;
  bool writers = false;  // --writers ... (WriterOptions' own words)
  std::string rows_per_ms;
  std::string rows_per_ms_default = "482";  // sweep takes a list
  std::string phase;
  // Where --set, --page-size and --defaults-file go: the simulated server
  // (false: run's settings), or a real one (true: measure reads them itself,
  // and Apply leaves them out of the spec).
  bool server_options_for_real_server = false;
};

struct LoadOptions {
  std::string stream;
  std::string rows;
  std::string seed = "1";
  std::string page_size;  // empty: innodb_page_size from the settings
  std::string profile = "mysql-8.4";
  bool json = false;
  std::vector<std::string> sets;  // --set NAME=VALUE
  std::string rows_per_sec = "100000";
  std::string batch = "1000";
  bool no_flush = false;
  std::string table = "seed000";
  std::string payload_bytes = "100";
  std::string defaults_file;
  std::vector<std::string> columns;  // --column NAME=SOURCE
  WriterOptions writer_options;
  std::string rows_per_ms = "482";
  std::vector<std::string> phases;  // --phase, in order
  // Settings read from --defaults-file (LoadDefaults), applied before --set.
  std::vector<VariableAssignment> file_settings;

  // Adds the options `help` offers, in one order for every subcommand.
  void Register(CLI::App* sub, const LoadHelp& help) {
    help_ = help;
    if (!help.stream.empty()) sub->add_option("--stream", stream, help.stream)->required();
    if (!help.rows.empty()) sub->add_option("--rows", rows, help.rows)->required();
    if (!help.seed.empty()) sub->add_option("--seed", seed, help.seed)->capture_default_str();
    if (!help.page_size.empty()) sub->add_option("--page-size", page_size, help.page_size);
    if (!help.profile.empty()) sub->add_option("--profile", profile, help.profile)->capture_default_str();
    if (!help.json.empty()) sub->add_flag("--json", json, help.json);
    if (!help.set.empty()) sub->add_option("--set", sets, help.set);
    if (!help.rows_per_sec.empty()) {
      sub->add_option("--rows-per-sec", rows_per_sec, help.rows_per_sec)->capture_default_str();
    }
    if (!help.batch.empty()) sub->add_option("--batch", batch, help.batch)->capture_default_str();
    if (!help.no_flush.empty()) sub->add_flag("--no-flush", no_flush, help.no_flush);
    if (!help.table.empty()) sub->add_option("--table", table, help.table)->capture_default_str();
    if (!help.payload_bytes.empty()) {
      payload_option_ = sub->add_option("--payload-bytes", payload_bytes, help.payload_bytes)->capture_default_str();
    }
    if (!help.defaults_file.empty()) sub->add_option("--defaults-file", defaults_file, help.defaults_file);
    if (!help.column.empty()) sub->add_option("--column", columns, help.column);
    if (help.writers) writer_options.Register(sub);
    if (!help.rows_per_ms.empty()) {
      rows_per_ms = help.rows_per_ms_default;
      sub->add_option("--rows-per-ms", rows_per_ms, help.rows_per_ms)->capture_default_str();
    }
    if (!help.phase.empty()) sub->add_option("--phase", phases, help.phase);
  }

  // Reads --defaults-file once (a my.cnf for the simulated server); warnings
  // go to stderr.
  absl::Status LoadDefaults() {
    if (defaults_file.empty() || help_.server_options_for_real_server) return absl::OkStatus();
    const std::optional<ServerFlavor> flavor = ServerFlavorByName(profile);
    if (!flavor && EngineKindFor(profile) != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("--defaults-file: the ", profile,
                                                     " profile takes no server variables yet: drop --defaults-file"));
    }
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
    for (const std::string& w : warnings) Warn(w);
    file_settings = *std::move(entries);
    return absl::OkStatus();
  }

  // The offered options as RunSpec fields, each checked as it is read;
  // errors name the option. The rows per ms are given (parsed by the caller:
  // ParseRowsPerMs, or one value of sweep's list). --phase is left to
  // ApplyPhases, after the caller's checks of the spec.
  absl::Status Apply(RunSpec* spec, uint64_t rows_per_ms_value) const {
    if (!help_.rows.empty()) {
      absl::StatusOr<uint64_t> n = ParseCount(rows);
      if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat("--rows: ", n.status().message()));
      spec->rows = *n;
    }
    const bool simulated_server = !help_.server_options_for_real_server;
    if (simulated_server && !page_size.empty()) {
      // A size as the server reads innodb_page_size: 16k = 16384.
      absl::StatusOr<uint64_t> ps = ParseSize(page_size);
      if (!ps.ok()) return absl::InvalidArgumentError(absl::StrCat("--page-size: ", ps.status().message()));
      if (!IsSupportedPageSize(*ps)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--page-size ", page_size, ": InnoDB pages are ", SupportedPageSizesInK()));
      }
      spec->page_size = static_cast<uint32_t>(*ps);
    }
    if (!help_.seed.empty()) {
      absl::StatusOr<uint64_t> sd = ParseSeed(seed);
      if (!sd.ok()) return sd.status();
      spec->stream.seed = *sd;
    }
    spec->stream.name = stream;
    // A key file is an input before it is opened: outputs are checked first.
    if (const size_t colon = stream.find(':'); absl::StartsWith(stream, "file") && colon != std::string::npos &&
                                               stream.substr(colon + 1) != "-") {
      NoteInputFile(stream.substr(colon + 1));
    }
    spec->stream.rows_per_ms = rows_per_ms_value;
    if (help_.writers) {
      if (absl::Status s = writer_options.Apply(&spec->stream); !s.ok()) return s;
    }
    if (!help_.profile.empty()) spec->profile = profile;
    if (!help_.no_flush.empty()) spec->flush = !no_flush;
    if (!help_.table.empty()) spec->table = table;
    if (!help_.payload_bytes.empty()) {
      absl::StatusOr<uint64_t> pb = ParseCount(payload_bytes);
      if (payload_bytes == "0") pb = 0;
      if (!pb.ok()) return absl::InvalidArgumentError(absl::StrCat("--payload-bytes: ", pb.status().message()));
      spec->payload_bytes = static_cast<uint32_t>(std::min<uint64_t>(*pb, 1u << 30));
      spec->payload_bytes_given = payload_option_ != nullptr && payload_option_->count() > 0;
    }
    if (simulated_server && !help_.set.empty()) {
      spec->settings = file_settings;
      for (const std::string& kv : sets) {
        // NAME alone is a my.cnf line without a value (skip-X, enable-X):
        // the same path, ServerSettings::Set, reads both.
        const size_t eq = kv.find('=');
        if (eq == 0 || kv.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat("--set '", kv, "': write NAME=VALUE, e.g. --set innodb_buffer_pool_size=4G"));
        }
        if (eq == std::string::npos) {
          spec->settings.push_back({kv, "", "--set"});
        } else {
          spec->settings.push_back({kv.substr(0, eq), kv.substr(eq + 1), "--set"});
        }
      }
    }
    if (!help_.rows_per_sec.empty()) {
      double rps = 0;
      if (!absl::SimpleAtod(rows_per_sec, &rps) || !(rps > 0) || !std::isfinite(rps)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--rows-per-sec '", rows_per_sec, "' must be a positive number (e.g. 127290)"));
      }
      if (rps < FlushModel::kMinRowsPerSec) {
        return absl::InvalidArgumentError(absl::StrCat("--rows-per-sec '", rows_per_sec, "' is below the floor of ",
                                                       FlushModel::kMinRowsPerSec,
                                                       " rows/s (docs/limits.md): give at least that"));
      }
      spec->rows_per_sec = rps;
    }
    if (!help_.batch.empty()) {
      absl::StatusOr<uint64_t> b = ParseCount(batch);
      if (!b.ok()) return absl::InvalidArgumentError(absl::StrCat("--batch: ", b.status().message()));
      spec->trx_rows = *b;
    }
    for (const std::string& c : columns) {
      absl::StatusOr<ColumnSource> src = ParseColumnSource(c);
      if (!src.ok()) return src.status();
      spec->columns.push_back(*std::move(src));
    }
    return absl::OkStatus();
  }

  // --phase, parsed into the spec (sim/phases.h); Run() checks them against
  // the flush model (checkpoint needs it) before any row is simulated.
  absl::Status ApplyPhases(RunSpec* spec) const {
    for (const std::string& text : phases) {
      absl::StatusOr<PhaseSpec> phase = ParsePhase(text);
      if (!phase.ok()) return phase.status();
      spec->phases.push_back(*std::move(phase));
    }
    return absl::OkStatus();
  }

 private:
  LoadHelp help_;  // what Register() offered
  CLI::Option* payload_option_ = nullptr;
};

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_LOAD_OPTIONS_H_
