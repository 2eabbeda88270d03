// innosim ibd / measure: the subcommands that touch the outside world (a page
// file on disk, a running server). The work is done in tools/ (ibd_reader,
// page_map, measure); this file parses options, joins the measured figures
// with a simulation of the same stream, and prints them side by side.
//
// Exit codes (sim/cli/commands.h): 0 ok, 1 a structural metric outside
// --tolerance or an invalid run (a sanity check failed), 2 bad input
// (options, unreadable or corrupt file, a table innosim does not own), 3 the
// outside world failed (server unreachable, authentication, privilege,
// interrupted load, a file that cannot be written); measure stopped by
// SIGINT/SIGTERM: 128 + the signal (130, 143) once the server's settings are
// back.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "model/page_format.h"
#include "model/server_settings.h"
#include "sim/cli/commands.h"
#include "sim/cli/load_options.h"
#include "sim/cli/pg_measure_command.h"
#include "sim/compare.h"
#include "sim/count.h"
#include "sim/key_stream.h"
#include "sim/metrics.h"
#include "sim/report.h"
#include "sim/runner.h"
#include "sim/series_writer.h"
#include "sim/stream_registry.h"
#include "sim/table_parser.h"
#include "tools/column_literals.h"
#include "tools/measure.h"
#include "tools/private_server.h"
#include "tools/ibd_reader.h"
#include "tools/page_map.h"
#include "tools/server_connection.h"

namespace innosim::cli {
namespace {

// Status codes from tools/ -> exit codes. Input the user can mend (bad
// options, a table innosim does not own, a corrupt file) is 2; everything the
// outside world did (unreachable, refused, privilege, interrupted) is 3.
int ExitCodeFor(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kOutOfRange:
      return 2;
    default:
      return 3;
  }
}

// The same code, the message after `prefix`.
absl::Status Prefix(const absl::Status& s, const std::string& prefix) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

// ---------------------------------------------------------------- ibd

struct IbdOptions {
  std::string path;
  bool json = false;
  std::string svg;
  bool unicode = false;
  bool no_verify_checksums = false;
  bool force = false;
};

// A census that cannot be trusted (a file shorter than its FSP_SIZE, or one
// read while the server still had dirty pages of it) is refused with one
// line: exit 2 for the truncated file (the input), 3 for the unflushed one
// (the server had not written it yet). --force prints the census anyway,
// with the reason as a warning line on stderr and in the report, exit 0.
int RunIbd(const IbdOptions& o) {
  NoteInputFile(o.path);  // --svg must not replace it
  // A bad --svg is found before the file is read, not after.
  if (!o.svg.empty()) {
    if (absl::Status s = CheckOutputPath(o.svg, "--svg"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  IbdReadOptions ro;
  ro.verify_checksums = !o.no_verify_checksums;
  ro.allow_truncated = o.force;
  ro.allow_broken_trees = o.force;
  absl::StatusOr<IbdCensus> census = ReadIbdFile(o.path, ro);
  if (!census.ok()) {
    const absl::Status& st = census.status();
    if (st.code() == absl::StatusCode::kOutOfRange) {
      return Fail(2, absl::StrCat(st.message(), " (--force reads the pages present)"));
    }
    if (st.code() == absl::StatusCode::kUnavailable) return Fail(3, std::string(st.message()));
    return Fail(2, std::string(st.message()));
  }
  if (!census->consistent()) {
    if (!o.force) return Fail(3, absl::StrCat(IbdUnflushedMessage(*census), " (--force prints it anyway)"));
    Warn(IbdUnflushedMessage(*census));
  } else if (census->truncated()) {
    Warn(o.path + ": file shorter than its FSP_SIZE; the census covers the pages present");
  } else if (!census->trees_complete) {
    Warn(o.path + ": a live tree is broken; counted down to the break (see the warnings)");
  }
  if (!o.svg.empty()) {
    if (absl::Status s = WriteFileAtomically(o.svg, PageMapSvg(*census)); !s.ok()) {
      return Fail(3, std::string(s.message()));
    }
  }
  if (o.json) {
    std::cout << IbdCensusJson(*census) << "\n";
  } else {
    PageMapOptions pm;
    pm.unicode = o.unicode;
    std::cout << IbdCensusText(*census) << "\n" << PageMapText(*census, pm);
  }
  return 0;
}

// ---------------------------------------------------------------- measure

struct MeasureCliOptions {
  // --stream, --rows, --seed, --rows-per-ms, --batch, --table (as `run
  // --table` takes it), --writers ... (each writer's keys on a connection
  // of its own, all at once; with --one-connection the interleaved keys on
  // the one connection), --phase (run after the first load, on the server
  // and in the simulation), and for the real server: --defaults-file (the
  // client's option file), --set and --page-size (with --private-server).
  LoadOptions load;
  std::string host;
  unsigned port = 0;
  std::string socket;
  std::string user;
  std::string database = "innosim";
  std::string table_name = "innosim_load";
  // --private-server: start a throwaway mariadbd (tools/private_server.h)
  // with these variables instead of connecting to a running server.
  bool private_server = false;
  double tolerance = 0.02;
  uint64_t flush_io_capacity = 20000;
  std::string datadir;
  bool one_connection = false;
  bool no_ibd = false;
  bool json = false;
  // --series: the server's counters during the load beside the simulated series.
  std::string series;
  // --profile postgresql-15|postgresql-18: measure against PostgreSQL
  // (sim/cli/pg_measure_command.h); empty: MySQL/MariaDB, the profile
  // following the server's version. --dbname is libpq's.
  std::string profile;
  std::string dbname;
};

// The period of --series' server samples (wall time), and of the simulated
// ones (simulated time, which runs at the load's measured rate).
constexpr double kSeriesPeriodS = 1.0;

// Progress bar on stderr (only when stderr is a terminal).
class ProgressBar {
 public:
  explicit ProgressBar(uint64_t total) : total_(total), enabled_(::isatty(STDERR_FILENO) == 1) {}
  void Update(uint64_t done) {
    if (!enabled_ || total_ == 0) return;
    const int width = 40;
    const int filled = static_cast<int>(static_cast<double>(done) / total_ * width);
    if (filled == last_filled_ && done != total_) return;
    last_filled_ = filled;
    std::string bar(filled, '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\rloading [%s] %llu/%llu rows", bar.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_));
    std::fflush(stderr);
  }
  void Finish(const char* what) {
    if (!enabled_) return;
    std::fprintf(stderr, "\r\033[K%s\n", what);
    std::fflush(stderr);
  }

 private:
  uint64_t total_;
  bool enabled_;
  int last_filled_ = -1;
};

// The clustered index of a census: the index with the smallest index_id.
// InnoDB creates the clustered index first (dict_create_index_step for
// PRIMARY before any secondary index), so it gets the lowest id of the
// table, and its root is the first index root of the file (page 3 in a new
// file-per-table tablespace). Indexes added later by ALTER TABLE get higher
// ids, so the rule holds for them too; a rebuilt table gets a new file.
const IbdIndexCensus* ClusteredIndex(const IbdCensus& census) {
  const IbdIndexCensus* best = nullptr;
  for (const IbdIndexCensus& ix : census.indexes) {
    if (best == nullptr || ix.index_id < best->index_id) best = &ix;
  }
  return best;
}

const LevelCensus* SimLevel(const IndexReport& r, uint32_t level) {
  for (const LevelCensus& lc : r.levels) {
    if (lc.level == level) return &lc;
  }
  return nullptr;
}

double SimFill(const LevelCensus& lc) {
  return lc.usable_bytes ? static_cast<double>(lc.data_bytes) / lc.usable_bytes : 0.0;
}

// Whether the .ibd side of the comparison is to be read, and from where.
// --datadir wins; otherwise the server's @@datadir is used when the
// connection is local (Unix socket or localhost) and the file is readable.
std::string IbdPath(const MeasureCliOptions& o, const MeasureResult& r, std::string* note) {
  if (o.no_ibd) return "";
  std::string dir = o.datadir;
  const bool explicit_dir = !dir.empty();
  if (!explicit_dir) {
    const bool local = o.host.empty() || o.host == "localhost";
    if (!local || r.datadir.empty()) return "";
    dir = r.datadir;
  }
  if (!dir.empty() && dir.back() != '/') dir += '/';
  std::string path = absl::StrCat(dir, r.database, "/", r.table, ".ibd");
  if (::access(path.c_str(), R_OK) != 0) {
    if (explicit_dir) {
      *note = absl::StrCat("cannot read ", path, " (check --datadir)");
    }
    return explicit_dir ? path : "";
  }
  return path;
}

// SIGINT/SIGTERM during a measurement. The handler only records the signal
// (async-signal-safe); Measure() polls the flag between batches and during
// the flush wait, puts the server's globals back over its own connection,
// and returns kCancelled. SA_RESTART keeps a statement in flight from being
// cut off, so the connection is still usable for the restore. A second
// signal ends the process at once (the default action), for a server that
// no longer answers.
volatile sig_atomic_t g_measure_signal = 0;

extern "C" void OnMeasureSignal(int signo) {
  if (g_measure_signal != 0) {
    ::signal(signo, SIG_DFL);
    ::raise(signo);
    return;
  }
  g_measure_signal = signo;
}

// Installs the handler for its lifetime; puts the previous dispositions back.
class MeasureSignals {
 public:
  MeasureSignals() {
    g_measure_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = OnMeasureSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~MeasureSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  MeasureSignals(const MeasureSignals&) = delete;
  MeasureSignals& operator=(const MeasureSignals&) = delete;
  static int received() { return g_measure_signal; }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

const char* SignalName(int signo) { return signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "a signal"; }

// What the options of one `measure` ask for, parsed and checked before the
// server is touched.
struct MeasurePlan {
  uint64_t rows = 0;
  uint64_t batch = 0;
  uint64_t rows_per_ms = 0;
  // The simulation of the same stream; the server's profile and variables
  // are added once they are known (SimulateWithServerProfile).
  RunSpec spec;
  std::unique_ptr<KeyStream> stream;
  // Unset: seed 000's table.
  std::optional<MeasureTable> table;
  // With --private-server: how to start it, and the values it was given
  // for MeasureOptions::expected_settings' names.
  PrivateServerOptions server;
  std::map<std::string, std::string> expected_settings;
  // --writers N without --one-connection: each writer's own keys.
  std::optional<WriterSplit> writers;
  // --phase: the steps Measure() runs, and the keys of their inserts.
  std::vector<MeasurePhaseStep> phases;
  std::vector<std::unique_ptr<KeyStream>> phase_streams;
  std::vector<std::unique_ptr<WriterSplit>> phase_writers;
};

// The phases measure runs on a server: insert, delete:every, optimize and
// checkpoint (MeasurePhaseStep). Another kind is refused by name.
bool MeasureRunsPhase(PhaseSpec::Kind kind) {
  switch (kind) {
    case PhaseSpec::Kind::kInsert:
    case PhaseSpec::Kind::kDeleteEvery:
    case PhaseSpec::Kind::kDeleteRange:
    case PhaseSpec::Kind::kDeletePhase:
    case PhaseSpec::Kind::kOptimize:
    case PhaseSpec::Kind::kCheckpoint:
      return true;
    default:
      return false;
  }
}

// --phase: each parsed as run parses it, checked as the simulation checks
// it, and an insert's keys made as sim/runner.cc makes them: the run's
// stream spec (its writers too) with the phase's stream, seed + the
// phase's number (1 for the first --phase), a clock that starts where the
// rows before it ended, autoinc going on from the table's counter.
absl::Status PlanPhases(const MeasureCliOptions& o, MeasurePlan* plan, bool per_writer) {
  if (absl::Status s = o.load.ApplyPhases(&plan->spec); !s.ok()) return s;
  for (const PhaseSpec& phase : plan->spec.phases) {
    if (!MeasureRunsPhase(phase.kind)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--phase ", phase.text, ": measure cannot run this phase on a server yet; it runs insert:STREAM:ROWS, "
          "delete:every:K, delete:range:FROM:TO, delete:phase:N, optimize and checkpoint"));
    }
  }
  const StreamSpec& base = plan->spec.stream;
  const int width = plan->stream->key_width();
  uint64_t done = plan->rows;
  uint64_t autoinc_rows = ServerAssigns(base.name) ? plan->rows : 0;
  // The stream of each insert phase (index 1 = the load, 2 = the first
  // --phase, ...), for delete:phase:N to make its keys again.
  std::vector<StreamSpec> inserted(plan->spec.phases.size() + 2);
  {
    StreamSpec load = base;
    if (absl::Status s = BindStreamToTable(plan->spec.table, &load); !s.ok()) return s;
    inserted[1] = load;
  }
  for (size_t n = 0; n < plan->spec.phases.size(); ++n) {
    const PhaseSpec& phase = plan->spec.phases[n];
    MeasurePhaseStep step;
    step.phase = phase;
    if (phase.kind == PhaseSpec::Kind::kDeletePhase) {
      if (absl::Status s = CheckDeletePhaseTarget(plan->spec.phases, n); !s.ok()) return s;
      absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(inserted[phase.of_phase]);
      if (!ks.ok()) return Prefix(ks.status(), absl::StrCat("--phase ", phase.text, ": "));
      plan->phase_streams.push_back(*std::move(ks));
      step.stream = plan->phase_streams.back().get();
      step.stream_rows = phase.of_phase == 1 ? plan->rows : plan->spec.phases[phase.of_phase - 2].rows;
    }
    if (phase.kind == PhaseSpec::Kind::kInsert) {
      if (!IsKnownStreamName(phase.stream)) {
        return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": unknown stream '", phase.stream,
                                                       "'", DidYouMean(phase.stream, GeneratorStreamNames())));
      }
      StreamSpec ps = PhaseStreamSpec(plan->spec, n, done, autoinc_rows);
      if (ServerAssigns(phase.stream)) autoinc_rows += phase.rows;
      if (absl::Status s = BindStreamToTable(plan->spec.table, &ps); !s.ok()) return s;
      absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(ps);
      if (!ks.ok()) return Prefix(ks.status(), absl::StrCat("--phase ", phase.text, ": "));
      if ((*ks)->key_width() != width) {
        return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": its keys are ", (*ks)->key_width(),
                                                       " bytes wide, the table's ", width,
                                                       ": use a stream of the table's key type"));
      }
      if (per_writer && HasWriters(ps)) {
        absl::StatusOr<WriterSplit> split = SplitByWriter(ps, phase.rows);
        if (!split.ok()) return Prefix(split.status(), absl::StrCat("--phase ", phase.text, ": "));
        plan->phase_writers.push_back(std::make_unique<WriterSplit>(*std::move(split)));
        step.writers = plan->phase_writers.back()->keys();
      }
      inserted[n + 2] = ps;
      plan->phase_streams.push_back(*std::move(ks));
      step.stream = plan->phase_streams.back().get();
      done += phase.rows;
    }
    plan->phases.push_back(std::move(step));
  }
  return absl::OkStatus();
}

// Every option error is the user's to mend (exit 2), found before connecting.
absl::StatusOr<MeasurePlan> CheckMeasureOptions(const MeasureCliOptions& o) {
  const LoadOptions& load = o.load;
  MeasurePlan plan;
  absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(load.rows_per_ms);
  if (!rpms.ok()) return rpms.status();
  // --rows, --seed, --stream, --writers ..., --batch and --table into the
  // simulation's spec; --set and --page-size are the private server's, below.
  if (absl::Status s = load.Apply(&plan.spec, *rpms); !s.ok()) return s;
  plan.rows = plan.spec.rows;
  plan.batch = plan.spec.trx_rows;
  plan.rows_per_ms = *rpms;
  if (!(o.tolerance >= 0)) {
    return absl::InvalidArgumentError("--tolerance must be a fraction >= 0 (e.g. 0.02 for 2%)");
  }
  // Names go into SQL unquoted-identifier rules; check them before connecting.
  if (absl::Status s = CheckIdentifier("--database", o.database); !s.ok()) return s;
  if (absl::Status s = CheckIdentifier("--table-name", o.table_name); !s.ok()) return s;
  // innodb_io_capacity's documented minimum (MySQL 8.4 and MariaDB 10.11).
  if (o.flush_io_capacity < 100) {
    return absl::InvalidArgumentError(
        "--flush-io-capacity must be at least 100 (innodb_io_capacity's minimum), e.g. 20000");
  }
  // Checked before the load, as --svg is, so a bad path costs nothing.
  if (!o.series.empty()) {
    if (absl::Status s = CheckOutputPath(o.series, "--series"); !s.ok()) return s;
  }
  if (absl::Status s = ValidateRunSpec(plan.spec); !s.ok()) return s;
  // A server-assigned key takes the table's key type (an INT
  // AUTO_INCREMENT's 4 bytes), as `run` binds it (BindStreamToTable).
  if (absl::Status s = BindStreamToTable(plan.spec.table, &plan.spec.stream); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(plan.spec.stream);
  if (!stream.ok()) return stream.status();
  plan.stream = *std::move(stream);
  const bool per_writer = HasWriters(plan.spec.stream) && !o.one_connection;
  if (o.one_connection && !HasWriters(plan.spec.stream)) {
    return absl::InvalidArgumentError("--one-connection loads several writers' keys on one connection: add --writers N");
  }
  if (per_writer) {
    absl::StatusOr<WriterSplit> split = SplitByWriter(plan.spec.stream, plan.rows);
    if (!split.ok()) return split.status();
    plan.writers = *std::move(split);
  }
  // The table the simulation runs (ResolveRunTable) is the one loaded.
  const int width = plan.stream->key_width();
  absl::StatusOr<TableSchema> schema = ResolveRunTable(plan.spec, width);
  if (!schema.ok()) return schema.status();
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(load.table));
  if (lower == "seed004") {
    plan.table = MeasureTable{Seed004TableSql(width), *std::move(schema)};
  } else if (!lower.empty() && lower != "seed000") {
    plan.table = MeasureTable{load.table, *std::move(schema)};
    absl::StatusOr<std::string> owned = OwnedTableSql(load.table, o.database, o.table_name);
    if (!owned.ok()) return owned.status();
  }
  if (!plan.spec.columns.empty()) {
    if (!plan.table) {
      return absl::InvalidArgumentError(
          "--column names a column of a --table: seed 000's table has none to set; add --table seed004 or a "
          "CREATE TABLE statement");
    }
    // A source the server side cannot write (stream:S) stops here.
    absl::StatusOr<ColumnLiterals> literals = ColumnLiterals::Make(
        plan.table->schema, plan.spec.columns, plan.spec.stream.start_ms, plan.spec.stream.rows_per_ms);
    if (!literals.ok()) return literals.status();
  }
  if (!load.phases.empty()) {
    if (absl::Status s = PlanPhases(o, &plan, per_writer); !s.ok()) return s;
  }
  if (o.private_server) {
    if (!o.host.empty() || o.port != 0 || !o.socket.empty() || !load.defaults_file.empty()) {
      return absl::InvalidArgumentError(
          "--private-server starts its own server: leave out --host, --port, --socket and --defaults-file");
    }
    // Each --set as MariaDB 10.11 takes it, so that a typo stops here and
    // not in the server's error log.
    ServerSettings check = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
    for (const std::string& kv : load.sets) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("--set '", kv, "': write NAME=VALUE, e.g. --set innodb_buffer_pool_size=128M"));
      }
      const std::string name = absl::StrReplaceAll(absl::AsciiStrToLower(kv.substr(0, eq)), {{"-", "_"}});
      const std::string value = kv.substr(eq + 1);
      if (absl::Status s = check.Set(name, value); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("--set ", kv, ": ", s.message()));
      }
      if (name == "innodb_buffer_pool_size") {
        plan.server.buffer_pool_bytes = check.innodb_buffer_pool_size;
      } else if (name == "innodb_page_size") {
        plan.server.install_args.push_back(absl::StrCat("--innodb-page-size=", value));
        plan.expected_settings["innodb_page_size"] = absl::StrCat(check.innodb_page_size);
      } else {
        plan.server.extra_args.push_back(absl::StrCat("--", name, "=", value));
        // A fixed setting of the sanity checks the user changed is checked
        // against the user's value.
        plan.expected_settings[name] = value;
      }
    }
    if (!load.page_size.empty()) {
      absl::StatusOr<uint64_t> ps = ParseSize(load.page_size);
      if (!ps.ok() || !IsSupportedPageSize(*ps)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--page-size ", load.page_size, ": InnoDB pages are ", SupportedPageSizesInK()));
      }
      plan.server.install_args.push_back(absl::StrCat("--innodb-page-size=", *ps));
      plan.expected_settings["innodb_page_size"] = absl::StrCat(*ps);
    }
  } else if (!load.sets.empty() || !load.page_size.empty()) {
    return absl::InvalidArgumentError(
        "--set and --page-size configure the server --private-server starts: add --private-server, or set the "
        "variables on your server");
  }
  return plan;
}

ConnectionOptions ServerConnectionOptions(const MeasureCliOptions& o) {
  ConnectionOptions co;
  co.host = o.host;
  co.port = o.port;
  co.socket = o.socket;
  co.user = o.user;
  co.defaults_file = o.load.defaults_file;  // password: defaults file, then MYSQL_PWD
  return co;
}

// tools/measure.h's procedure (schema, load, wait for zero dirty pages,
// ANALYZE TABLE, counters, sanity checks, globals put back) with a progress
// bar, and SIGINT/SIGTERM turned into a clean stop; *signo is the signal
// that stopped it, or 0.
absl::StatusOr<MeasureResult> LoadAndMeasureOnServer(ServerConnection& conn, const ConnectionOptions& co,
                                                     const MeasureCliOptions& o, MeasurePlan& plan, int* signo) {
  MeasureOptions mo;
  if (plan.writers) mo.writers = plan.writers->keys();
  mo.connect = [co] { return ServerConnection::Connect(co); };
  mo.phases = plan.phases;
  mo.database = o.database;
  mo.table = o.table_name;
  mo.spec_table = plan.table;
  mo.columns = plan.spec.columns;
  mo.start_ms = plan.spec.stream.start_ms;
  mo.rows_per_ms = plan.spec.stream.rows_per_ms;
  for (const auto& [name, value] : plan.expected_settings) {
    if (mo.expected_settings.count(name) != 0) mo.expected_settings[name] = value;
  }
  mo.rows = plan.rows;
  mo.batch_rows = plan.batch;
  // ULIDs and the swapped version 1 keep no version nibble in the 7th byte
  // (sim/stream_registry.h); key files are checked as the first key says.
  const StreamInfo* stream_info = FindStream(plan.spec.stream.name);
  mo.uuid_version_check = stream_info == nullptr || stream_info->version_nibble;
  mo.final_flush_io_capacity = o.flush_io_capacity;
  if (!o.series.empty()) mo.sample_every_s = kSeriesPeriodS;
  ProgressBar bar(plan.rows);
  mo.progress = [&bar](uint64_t done) { bar.Update(done); };
  mo.interrupted = [] { return MeasureSignals::received() != 0; };
  absl::StatusOr<MeasureResult> measured;
  {
    MeasureSignals signals;
    measured = Measure(conn, *plan.stream, mo);
    *signo = MeasureSignals::received();
  }
  bar.Finish(measured.ok() ? "loaded; dirty pages flushed" : "load stopped");
  return measured;
}

// The exit of a run stopped by a signal: 128 + the signal, once Measure()
// has put the server's settings back (or says which it could not).
int StoppedBySignal(int signo, const absl::StatusOr<MeasureResult>& measured) {
  const std::string why =
      measured.ok() ? std::string("after the measurement") : std::string(measured.status().message());
  const bool restored = measured.ok() || !absl::StrContains(why, "could not put the server's settings back");
  return Fail(128 + signo, absl::StrCat("stopped by ", SignalName(signo), ": ", why,
                                        restored ? "; the server's settings were put back" : ""));
}

// The .ibd side of the comparison: the census, or a note saying why there is none.
struct IbdSide {
  std::string path;
  std::string note;
  std::optional<IbdCensus> census;
};

// Read right after the flush, before anything else can dirty the file.
IbdSide ReadIbdCensusAfterFlush(const MeasureCliOptions& o, const MeasureResult& m) {
  IbdSide ibd;
  ibd.path = IbdPath(o, m, &ibd.note);
  if (ibd.path.empty() || !ibd.note.empty()) return ibd;
  absl::StatusOr<IbdCensus> c = ReadIbdFile(ibd.path);
  if (c.ok() && !c->consistent()) {
    ibd.note = absl::StrCat("not compared: ", IbdUnflushedMessage(*c));
  } else if (c.ok()) {
    ibd.census = *std::move(c);
  } else {
    ibd.note = absl::StrCat("reading ", ibd.path, ": ", c.status().message());
  }
  return ibd;
}

// Simulates the same stream with the server's profile and variables, which
// plan->spec keeps for the report.
absl::StatusOr<RunResult> SimulateWithServerProfile(const MeasureResult& m, MeasurePlan* plan, bool local,
                                                    bool series) {
  RunSpec* spec = &plan->spec;
  spec->profile = absl::StrContains(m.version, "MariaDB") ? "mariadb-10.11" : "mysql-8.4";
  // The server's own variables (page size, buffer pool, redo capacity, io
  // capacity, doublewrite, ...) override the profile's defaults through the
  // same path as --set, with the origin "server"; the simulated clock
  // runs at the rate the server actually loaded, and transactions have the
  // batch size the load used.
  for (const auto& [name, value] : m.variables) {
    spec->settings.push_back({name, value, "server"});
  }
  std::string origin;
  if (const std::optional<bool> rot = local ? DatadirRotational(m.datadir, &origin) : std::nullopt; rot) {
    spec->settings.push_back({"storage_rotational", *rot ? "ON" : "OFF", origin});
  }
  spec->trx_rows = plan->batch;
  if (m.measured.elapsed_s > 0) spec->rows_per_sec = static_cast<double>(plan->rows) / m.measured.elapsed_s;
  // The server's final flush took this long after the load, and its
  // background statistics recalculation went on meanwhile (before the
  // counters were read). With phases that flush lies between the load and
  // the first phase, which the simulation does not wait through.
  if (spec->phases.empty()) spec->end_wait_s = m.measured.flush_wait_s;
  if (series) {
    // One simulated sample per kSeriesPeriodS of simulated time, i.e. per
    // the rows the server loaded in that time (at least one sample).
    const double every = std::round(spec->rows_per_sec * kSeriesPeriodS);
    spec->series_every = std::clamp<uint64_t>(every >= 1 ? static_cast<uint64_t>(every) : 1, 1,
                                              std::max<uint64_t>(plan->rows, 1));
  }
  return Run(*spec);
}

// --series: `source,` + sim/series_writer.h's columns, the server's samples
// (source "server"; lsn and checkpoint_age empty when the server does not
// report them) then the simulated ones (source "simulated").
std::string MeasureSeriesCsv(const MeasureResult& m, const RunResult& sim) {
  std::string s = absl::StrCat("source,", kSeriesCsvHeader, "\n");
  auto opt = [](const std::optional<int64_t>& v) { return v ? absl::StrCat(*v) : std::string(); };
  for (const ServerSample& x : m.samples) {
    absl::StrAppendFormat(&s, "server,%d,%.6f,%s,%s,%d,%d,%d\n", x.rows, x.seconds, opt(x.lsn), opt(x.checkpoint_age),
                          x.dirty_pages, x.pages_written, x.buffer_pool_reads);
  }
  for (const SeriesPoint& p : sim.series) absl::StrAppend(&s, "simulated,", SeriesCsvLine(p), "\n");
  return s;
}

// One row of the comparison table.
struct CounterComparison {
  const char* name;
  uint64_t simulated;
  int64_t measured;
  double error;
  bool structural;
  bool within;
};

// One level of PRIMARY, simulated beside the .ibd's clustered index (either
// may lack the level: nullptr).
struct LevelComparison {
  int64_t level;
  const LevelCensus* simulated;
  const IbdLevelCensus* measured;
};

// One phase of --phase, simulated beside the server: the table's rows,
// n_leaf_pages, size, DATA_LENGTH (after the phase's ANALYZE TABLE), the
// deltas over the phase of index_page_splits and index_page_merge_*, and,
// with the flush model, Innodb_pages_written over the phase (once a phase
// after the load has left no dirty page) and Innodb_buffer_pool_pages_dirty
// at its end.
struct PhaseComparison {
  std::string phase;
  std::vector<CounterComparison> rows;
};

struct MeasureComparison {
  // sim/metrics.h's kInnodbCounters, in its order, that both sides have: the
  // flush counters join as soon as the simulator reports them; the
  // structural ones decide the exit code (--tolerance).
  std::vector<CounterComparison> counters;
  bool within_tolerance = true;
  // Set when the .ibd was read and holds an index.
  const IbdIndexCensus* clustered = nullptr;
  // From the highest level either side has down to the leaves.
  std::vector<LevelComparison> levels;
  double ibd_leaf_fill = 0;
  // --phase: the first load, then each phase.
  std::vector<PhaseComparison> phases;
};

// Each phase of `sim` (its phases[i]) beside the server's (m.phases[i]);
// the structural rows (index_page_splits, n_leaf_pages, size) join the
// verdict.
void ComparePhases(const MeasureResult& m, const RunResult& sim, double tolerance, MeasureComparison* c) {
  const size_t n = std::min(m.phases.size(), sim.phases.size());
  bool in_step = false;
  for (size_t i = 0; i < n; ++i) {
    const PhaseResult& sp = sim.phases[i];
    const PhaseMeasurement& mp = m.phases[i];
    const IndexCounters now = TableIndexCounters(sp.report);
    const IndexCounters before = i == 0 ? IndexCounters() : TableIndexCounters(sim.phases[i - 1].report);
    PhaseComparison pc;
    pc.phase = sp.phase.text;
    auto add = [&](const char* name, uint64_t simulated, std::optional<int64_t> measured, bool structural) {
      if (!measured) return;
      const double error = RelativeError(static_cast<double>(simulated), static_cast<double>(*measured));
      pc.rows.push_back({name, simulated, *measured, error, structural, WithinTolerance(error, tolerance)});
      if (structural && !pc.rows.back().within) c->within_tolerance = false;
    };
    add("rows", sp.report.rows, mp.table_rows, false);
    add(counters::kNLeafPages.name, sp.report.primary.n_leaf_pages, mp.measured.n_leaf_pages,
        counters::kNLeafPages.structural);
    add(counters::kSize.name, sp.report.primary.size, mp.measured.size, counters::kSize.structural);
    add(counters::kDataLength.name, sp.report.data_length, mp.measured.data_length, counters::kDataLength.structural);
    add(counters::kIndexPageSplits.name, now.index_page_splits - before.index_page_splits,
        mp.measured.index_page_splits, counters::kIndexPageSplits.structural);
    add(counters::kIndexPageMergeAttempts.name, now.index_page_merge_attempts - before.index_page_merge_attempts,
        mp.measured.index_page_merge_attempts, counters::kIndexPageMergeAttempts.structural);
    add(counters::kIndexPageMergeSuccessful.name,
        now.index_page_merge_successful - before.index_page_merge_successful, mp.measured.index_page_merge_successful,
        counters::kIndexPageMergeSuccessful.structural);
    if (sim.spec.flush) {
      // The server's first load ends with its final flush; the simulation
      // writes those pages in a later phase. Once a later phase has left
      // the simulation without a dirty page (a checkpoint), both sides start
      // each phase alike and its writes are compared.
      if (in_step) {
        add(counters::kInnodbPagesWritten.name,
            sp.flush.Innodb_pages_written - sim.phases[i - 1].flush.Innodb_pages_written,
            mp.measured.Innodb_pages_written, false);
      }
      if (i > 0 && sp.dirty_pages == 0) in_step = true;
      add("Innodb_buffer_pool_pages_dirty", sp.dirty_pages, mp.dirty_pages, false);
    }
    c->phases.push_back(std::move(pc));
  }
}

nlohmann::ordered_json ComparisonRowJson(const CounterComparison& row);

std::vector<CounterComparison> CompareCounters(const RunResult& sim, const MeasuredCounters& measured,
                                               double tolerance) {
  std::vector<CounterComparison> rows;
  // The server's index_page_* counters are server-wide: they count the
  // secondary indexes' splits and merges too.
  const IndexCounters table = TableIndexCounters(sim.report);
  for (const InnodbCounter& def : kInnodbCounters) {
    std::optional<uint64_t> sv = MetricsCounter(table, def.name);
    if (!sv) sv = SimulatedCounter(sim, def);
    const std::optional<int64_t> mv = MeasuredCounter(measured, def);
    if (!sv || !mv) continue;
    const double error = RelativeError(static_cast<double>(*sv), static_cast<double>(*mv));
    rows.push_back({def.name, *sv, *mv, error, def.structural, WithinTolerance(error, tolerance)});
  }
  return rows;
}

// Levels are matched by level number.
std::vector<LevelComparison> CompareLevels(const IndexReport& primary, const IbdIndexCensus& clustered) {
  uint32_t top_level = 0;
  for (const LevelCensus& lc : primary.levels) top_level = std::max(top_level, lc.level);
  for (const IbdLevelCensus& lv : clustered.levels) top_level = std::max<uint32_t>(top_level, lv.level);
  std::vector<LevelComparison> levels;
  for (int64_t level = top_level; level >= 0; --level) {
    const IbdLevelCensus* f = nullptr;
    for (const IbdLevelCensus& lv : clustered.levels) {
      if (lv.level == level) f = &lv;
    }
    levels.push_back({level, SimLevel(primary, static_cast<uint32_t>(level)), f});
  }
  return levels;
}

MeasureComparison CompareWithSimulation(const MeasureResult& m, const RunResult& sim, const IbdSide& ibd,
                                        double tolerance) {
  MeasureComparison c;
  c.counters = CompareCounters(sim, m.measured, tolerance);
  if (m.measured.stats_n_rows && sim.dict_stats) {
    // The rows the last background recalculation saw: which recalculations
    // ran on each side (0: none since CREATE TABLE). The server's is an
    // estimate from its sample (dict_stats_update_persistent takes the
    // clustered index's n_diff), the model's the rows then (0 before its
    // first).
    const uint64_t simulated = sim.dict_stats->last_saved_n_rows;
    const double error = RelativeError(static_cast<double>(simulated), static_cast<double>(*m.measured.stats_n_rows));
    c.counters.push_back({kTableStatsNRows, simulated, *m.measured.stats_n_rows, error, false,
                          WithinTolerance(error, tolerance)});
  }
  for (const CounterComparison& row : c.counters) {
    if (row.structural && !row.within) c.within_tolerance = false;
  }
  c.clustered = ibd.census ? ClusteredIndex(*ibd.census) : nullptr;
  if (c.clustered) {
    c.levels = CompareLevels(sim.report.primary, *c.clustered);
    if (!c.clustered->levels.empty()) c.ibd_leaf_fill = c.clustered->levels[0].fill();
  }
  return c;
}

nlohmann::ordered_json RelativeErrorJson(double error) {
  return std::isinf(error) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(error);
}

nlohmann::ordered_json IbdJson(const IbdSide& ibd, const MeasureComparison& c, const IndexReport& primary) {
  if (!ibd.census) return nullptr;
  nlohmann::ordered_json j = {
      {"path", ibd.path}, {"page_size", ibd.census->page_size}, {"format", ibd.census->format()}};
  if (!c.clustered) return j;
  j["index_id"] = c.clustered->index_id;
  j["root_page"] = c.clustered->root_page;
  j["height"] = c.clustered->height;
  j["stale_pages"] = c.clustered->stale_pages;
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const LevelComparison& lc : c.levels) {
    const LevelCensus* s = lc.simulated;
    const IbdLevelCensus* f = lc.measured;
    nlohmann::ordered_json l = {{"level", lc.level}};
    l["simulated"] = s ? nlohmann::ordered_json{{"pages", s->pages}, {"records", s->records}, {"fill", SimFill(*s)}}
                       : nlohmann::ordered_json(nullptr);
    l["measured"] = f ? nlohmann::ordered_json{{"pages", f->pages}, {"records", f->records}, {"fill", f->fill()}}
                      : nlohmann::ordered_json(nullptr);
    if (s && f) {
      l["pages_relative_error"] =
          RelativeErrorJson(RelativeError(static_cast<double>(s->pages), static_cast<double>(f->pages)));
    }
    levels.push_back(l);
  }
  j["levels"] = levels;
  j["leaf_fill"] = c.ibd_leaf_fill;
  j["leaf_fill_difference_points"] = 100.0 * (primary.leaf_fill - c.ibd_leaf_fill);
  return j;
}

nlohmann::ordered_json ComparisonRowJson(const CounterComparison& row) {
  return {{"simulated", row.simulated},
          {"measured", row.measured},
          {"relative_error", RelativeErrorJson(row.error)},
          {"structural", row.structural},
          {"within_tolerance", row.within}};
}

// The --json object: MeasureResultToJson's keys (sorted, as nlohmann::json
// keeps them), then the simulation, the comparison and the .ibd census.
nlohmann::ordered_json MeasureJson(const MeasureCliOptions& o, const MeasureResult& m, const RunResult& sim,
                                   const MeasureComparison& c, const IbdSide& ibd) {
  nlohmann::ordered_json out(MeasureResultToJson(m));
  out["simulated"] = RunToJson(sim);
  nlohmann::ordered_json comparison = nlohmann::ordered_json::object();
  for (const CounterComparison& row : c.counters) comparison[row.name] = ComparisonRowJson(row);
  out["comparison"] = comparison;
  if (!c.phases.empty()) {
    // MeasureResultToJson's phases (the server's figures), each with its
    // side-by-side comparison; the first named as the simulation names it.
    nlohmann::ordered_json& phases = out["phases"];
    for (size_t i = 0; i < c.phases.size() && i < phases.size(); ++i) {
      phases[i]["phase"] = c.phases[i].phase;
      nlohmann::ordered_json pc = nlohmann::ordered_json::object();
      for (const CounterComparison& row : c.phases[i].rows) pc[row.name] = ComparisonRowJson(row);
      phases[i]["comparison"] = pc;
    }
  }
  out["tolerance"] = o.tolerance;
  out["within_tolerance"] = c.within_tolerance;
  out["ibd"] = IbdJson(ibd, c, sim.report.primary);
  if (!ibd.note.empty()) out["notes"].push_back(ibd.note);
  return out;
}

// The readable report: the run, the counters side by side, PRIMARY's
// page census beside the .ibd's, the sanity checks and the verdict.
std::string MeasureText(const MeasureCliOptions& o, const MeasurePlan& plan, const std::string& server_target,
                        const MeasureResult& m, const RunResult& sim, const MeasureComparison& c, const IbdSide& ibd) {
  const IndexReport& sp = sim.report.primary;
  std::string s;
  absl::StrAppendFormat(&s, "innosim measure: %s, %d rows, rows_per_ms %d, seed %d, batch %d\n", o.load.stream,
                        plan.rows, plan.rows_per_ms, plan.spec.stream.seed, plan.batch);
  absl::StrAppendFormat(&s, "server: %s at %s; simulated with profile %s, page size %d\n", m.version, server_target,
                        plan.spec.profile, sim.spec.page_size);
  absl::StrAppendFormat(&s, "table: `%s`.`%s`; load %.1f s, final flush %.1f s\n\n", m.database, m.table,
                        m.measured.elapsed_s, m.measured.flush_wait_s);
  absl::StrAppendFormat(&s, "  %-28s %14s %14s %10s\n", "metric", "simulated", "measured", "rel.error");
  for (const CounterComparison& r : c.counters) {
    absl::StrAppendFormat(&s, "  %-28s %14.0f %14.0f %10s%s\n", r.name, static_cast<double>(r.simulated),
                          static_cast<double>(r.measured), FormatRelativeError(r.error),
                          r.structural ? (r.within ? "" : "  outside tolerance") : "");
  }
  absl::StrAppendFormat(&s, "  %-28s %13.1f%% %14s\n", "leaf_fill", 100.0 * sp.leaf_fill,
                        c.clustered ? absl::StrFormat("%.1f%%", 100.0 * c.ibd_leaf_fill) : std::string("-"));
  if (m.measured.Innodb_buffer_pool_read_ahead) {
    // Not simulated (docs/flushing.md, read-ahead): shown so that a load
    // where it matters is seen.
    absl::StrAppendFormat(&s, "  %-28s %14s %14d  (read-ahead pages, not in Innodb_buffer_pool_reads)\n",
                          kReadAheadStatus, "-", *m.measured.Innodb_buffer_pool_read_ahead);
  }
  if (m.measured.stats_n_rows && sim.dict_stats) {
    // When the last recalculation saved, from the load's start: the
    // server's last_update (whole seconds) beside the model's clock.
    const DictStats::Counters& d = *sim.dict_stats;
    absl::StrAppendFormat(&s, "  %-28s %14s %14s  (statistics saved, s from the load's start; %d recalculations simulated)\n",
                          "innodb_table_stats.last_update",
                          d.recalcs_persistent > 0 ? absl::StrFormat("%.1f", d.last_saved_s) : std::string("none"),
                          *m.measured.stats_n_rows > 0 && *m.measured.stats_last_update_s >= 0
                              ? absl::StrFormat("%.0f", *m.measured.stats_last_update_s)
                              : std::string("none"),
                          d.recalcs_persistent);
  }
  if (!m.missing_counters.empty()) {
    s += "  (the server lacks:";
    for (const std::string& name : m.missing_counters) absl::StrAppend(&s, " ", name);
    s += ")\n";
  }
  if (c.clustered) {
    absl::StrAppendFormat(&s, "\n  page census of PRIMARY: simulated vs %s (index %d, root page %d)\n", ibd.path,
                          c.clustered->index_id, c.clustered->root_page);
    absl::StrAppendFormat(&s, "  %5s %10s %10s %9s %12s %12s %7s %7s\n", "level", "sim pages", "ibd pages",
                          "rel.error", "sim records", "ibd records", "sim", "ibd");
    for (const LevelComparison& lc : c.levels) {
      const LevelCensus* sl = lc.simulated;
      const IbdLevelCensus* f = lc.measured;
      absl::StrAppendFormat(
          &s, "  %5d %10s %10s %9s %12s %12s %7s %7s\n", lc.level, sl ? absl::StrCat(sl->pages) : "-",
          f ? absl::StrCat(f->pages) : "-",
          (sl && f) ? FormatRelativeError(RelativeError(static_cast<double>(sl->pages), static_cast<double>(f->pages)))
                    : "-",
          sl ? absl::StrCat(sl->records) : "-", f ? absl::StrCat(f->records) : "-",
          sl ? absl::StrFormat("%.1f%%", 100.0 * SimFill(*sl)) : "-",
          f ? absl::StrFormat("%.1f%%", 100.0 * f->fill()) : "-");
    }
    if (c.clustered->stale_pages > 0) {
      absl::StrAppendFormat(&s, "  (%d stale INDEX pages of this index in the file, not counted)\n",
                            c.clustered->stale_pages);
    }
  } else if (ibd.census) {
    absl::StrAppendFormat(&s, "\n  %s holds no index\n", ibd.path);
  }
  if (!c.phases.empty()) {
    absl::StrAppendFormat(&s, "\n  phases (%s; each phase's sizes after its ANALYZE TABLE, counters over the phase)\n",
                          plan.spec.flush ? "with the flush model" : "structure only");
    absl::StrAppendFormat(&s, "  %-3s %-34s %-30s %12s %12s %10s\n", "#", "phase", "metric", "simulated", "measured",
                          "rel.error");
    for (size_t i = 0; i < c.phases.size(); ++i) {
      const PhaseComparison& pc = c.phases[i];
      for (size_t r = 0; r < pc.rows.size(); ++r) {
        const CounterComparison& row = pc.rows[r];
        absl::StrAppendFormat(&s, "  %-3s %-34s %-30s %12d %12d %10s%s\n", r == 0 ? absl::StrCat(i + 1) : "",
                              r == 0 ? pc.phase : "", row.name, row.simulated, row.measured,
                              FormatRelativeError(row.error),
                              row.structural ? (row.within ? "" : "  outside tolerance") : "");
      }
    }
  }
  s += "\n  sanity checks\n";
  for (const SanityCheck& chk : m.sanity) {
    absl::StrAppendFormat(&s, "    %-34s %s%s\n", chk.name, chk.pass ? "pass" : "FAIL",
                          chk.detail.empty() ? "" : absl::StrCat("  (", chk.detail, ")"));
  }
  absl::StrAppendFormat(&s, "  valid: %s\n", m.valid ? "yes" : "NO (a sanity check failed)");
  for (const std::string& n : m.notes) absl::StrAppendFormat(&s, "  note: %s\n", n);
  if (!ibd.note.empty()) absl::StrAppendFormat(&s, "  note: %s\n", ibd.note);
  absl::StrAppendFormat(&s, "  structural metrics (%s) within %.1f%%: %s\n", StructuralNames(), 100.0 * o.tolerance,
                        c.within_tolerance ? "yes" : "NO");
  return s;
}

int RunMeasure(const MeasureCliOptions& o) {
  absl::StatusOr<MeasurePlan> plan = CheckMeasureOptions(o);
  if (!plan.ok()) return Fail(2, std::string(plan.status().message()));
  // --private-server: started here, stopped (and its directory removed) on
  // every way out, by its destructor.
  std::unique_ptr<PrivateServer> server;
  ConnectionOptions co;
  if (o.private_server) {
    absl::StatusOr<std::unique_ptr<PrivateServer>> started = PrivateServer::Start(plan->server);
    if (!started.ok()) {
      return Fail(3, absl::StrCat("starting the private server: ", started.status().message()));
    }
    server = *std::move(started);
    co = server->connection_options();
  } else {
    co = ServerConnectionOptions(o);
  }
  absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(co);
  if (!conn.ok()) return Fail(ExitCodeFor(conn.status()), std::string(conn.status().message()));
  int signo = 0;
  absl::StatusOr<MeasureResult> measured = LoadAndMeasureOnServer(**conn, co, o, *plan, &signo);
  if (signo != 0) return StoppedBySignal(signo, measured);
  if (!measured.ok()) return Fail(ExitCodeFor(measured.status()), std::string(measured.status().message()));
  const MeasureResult& m = *measured;
  const bool phased = !plan->phases.empty();
  IbdSide ibd;
  if (phased) {
    ibd.note = "with --phase the .ibd file is not read (it holds the last phase's pages, not the load's)";
  } else {
    ibd = ReadIbdCensusAfterFlush(o, m);
  }
  absl::StatusOr<RunResult> sim =
      SimulateWithServerProfile(m, &*plan, o.private_server || o.host.empty() || o.host == "localhost",
                                !o.series.empty());
  if (!sim.ok()) return Fail(2, absl::StrCat("simulating the same stream: ", sim.status().message()));
  if (!o.series.empty()) {
    if (absl::Status s = WriteFileAtomically(o.series, MeasureSeriesCsv(m, *sim)); !s.ok()) {
      return Fail(3, std::string(s.message()));
    }
  }
  // With --phase the table above the phases compares the first load's
  // structure (its flush counters are the phase's, before the final flush
  // the server's include): the first phase of the simulation.
  RunResult first_load;
  const RunResult* shown = &*sim;
  if (phased && !sim->phases.empty()) {
    first_load.spec = sim->spec;
    first_load.spec.flush = false;
    first_load.key_width = sim->key_width;
    first_load.report = sim->phases[0].report;
    shown = &first_load;
  }
  MeasureComparison comparison = CompareWithSimulation(m, *shown, ibd, o.tolerance);
  if (phased) ComparePhases(m, *sim, o.tolerance, &comparison);
  if (o.json) {
    std::cout << MeasureJson(o, m, *sim, comparison, ibd).dump() << "\n";
  } else {
    std::cout << MeasureText(o, *plan, (*conn)->target(), m, *shown, comparison, ibd);
  }
  return (comparison.within_tolerance && m.valid) ? 0 : 1;
}

}  // namespace

void AddIbd(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("ibd", "Census and page map of a file-per-table tablespace (.ibd)");
  auto o = std::make_shared<IbdOptions>();
  sub->add_option("file", o->path, "the .ibd file, e.g. /var/lib/mysql/innosim/innosim_load.ibd")->required();
  sub->add_flag("--json", o->json, "print the census as one JSON object");
  sub->add_option("--svg", o->svg, "also write the page map as SVG to this file");
  sub->add_flag("--unicode", o->unicode, "shade leaf pages with block characters in the text map");
  sub->add_flag("--no-verify-checksums", o->no_verify_checksums, "skip the full_crc32 page checksums");
  sub->add_flag("--force", o->force,
                "print the census even of a file shorter than its FSP_SIZE or with signs of unflushed pages");
  reg.Add(sub, [o]() { return RunIbd(*o); });
}

void AddMeasure(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand(
      "measure", "Load a key stream into a real server, simulate the same stream, print both side by side");
  auto o = std::make_shared<MeasureCliOptions>();
  LoadHelp help;
  help.stream = absl::StrCat(StreamOptionHelp(), "; fileN:PATH loads N-byte keys into the --table's BINARY(N) key");
  help.rows = "rows to load; suffixes k, M (e.g. 1M)";
  help.seed = "random seed of the key stream";
  help.page_size = "with --private-server: innodb_page_size (4k, 8k, 16k, 32k, 64k)";
  help.set =
      "with --private-server: server variable NAME=VALUE (repeatable), e.g. "
      "innodb_buffer_pool_size=128M, innodb_flush_neighbors=0";
  help.batch = "rows per INSERT (one transaction each)";
  help.table =
      "the table to create, load and simulate, as run --table: seed000, seed004 or a CREATE TABLE "
      "statement (its name is replaced by --table-name)";
  help.defaults_file =
      "option file whose [client] section gives password (and user/host/port/socket); "
      "otherwise the password comes from MYSQL_PWD";
  help.writers = true;
  help.rows_per_ms = "rows per millisecond of the synthetic clock (uuidv7-*)";
  help.phase =
      "after the load (repeatable, in order): insert:STREAM:ROWS, delete:every:K or delete:range:FROM:TO "
      "(then purge), optimize or checkpoint, run on the server and simulated; each phase's figures side by "
      "side (docs/phases.md)";
  help.payload_bytes =
      "with --profile postgresql-*: bytes of each text column's value (as run --payload-bytes)";
  help.column =
      "with a --table: what column NAME holds, as run --column (repeatable); time is the server's SYSDATE, "
      "time:R and key-time the simulation's times written as literals, so both sides index the same values";
  help.server_options_for_real_server = true;
  o->load.Register(sub, help);
  sub->add_option("--profile", o->profile,
                  "postgresql-15 or postgresql-18: measure a PostgreSQL server (libpq; docs/cli.md); default: "
                  "MySQL/MariaDB, simulated with the profile of the server's version");
  sub->add_option("--dbname", o->dbname,
                  "with --profile postgresql-*: the database to connect to for CREATE/DROP DATABASE (default: "
                  "libpq's, PGDATABASE or the user's name)");
  sub->add_flag("--one-connection", o->one_connection,
                "with --writers: load the writers' interleaved keys on one connection instead of one connection "
                "and thread per writer");
  sub->add_option("--host", o->host, "server host (TCP); empty or localhost = Unix socket");
  // Ranges checked as the options are read, before any connection.
  sub->add_option("--port", o->port, "server TCP port (0 = 3306; PostgreSQL: libpq's, PGPORT or 5432)")
      ->check(CLI::Range(0, 65535));
  sub->add_option("--socket", o->socket, "server Unix socket (PostgreSQL: the folder holding it, libpq's host)");
  sub->add_option("--user", o->user, "account (default: the defaults file's, else root; PostgreSQL: libpq's, PGUSER or the login name)");
  sub->add_option("--database", o->database, "database innosim owns (created if missing)")->capture_default_str();
  sub->add_option("--table-name", o->table_name, "table name (only a table innosim created is ever dropped)")
      ->capture_default_str();
  sub->add_flag("--private-server", o->private_server,
                "start a throwaway mariadbd (own datadir and socket under /tmp, no network; "
                "tools/private_server.h) for this measurement, and stop it afterwards");
  sub->add_option("--tolerance", o->tolerance,
                  absl::StrCat("relative error allowed on ", StructuralNames(" and "),
                               " (exit 1 beyond it, or when a sanity check fails)"))
      ->capture_default_str();
  sub->add_option("--datadir", o->datadir,
                  "server data directory readable here: read DATADIR/<database>/<table>.ibd after the load "
                  "(default: the server's @@datadir when the connection is local and the file readable)");
  sub->add_option("--flush-io-capacity", o->flush_io_capacity,
                  "innodb_io_capacity(_max) for the final wait for zero dirty pages only (put back afterwards, "
                  "also on error or SIGINT/SIGTERM)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            uint64_t n = 0;
            if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || !absl::SimpleAtoi(v, &n) ||
                n < 100) {
              return "'" + v + "' must be a whole number of at least 100 (innodb_io_capacity's minimum), e.g. 20000";
            }
            return "";
          },
          "WHOLE >= 100"));
  sub->add_flag("--no-ibd", o->no_ibd, "do not read the .ibd file");
  sub->add_flag("--json", o->json, "print one JSON object");
  sub->add_option("--series", o->series,
                  "write a CSV time series: the server's counters once a second during the load (source server) "
                  "and the simulation's at the same rate (source simulated); columns source, then run --series'");
  reg.Add(sub, [o, sub]() {
    if (absl::StartsWith(o->profile, "postgresql")) {
      PgMeasureCliOptions p;
      p.load = &o->load;
      p.profile = o->profile;
      p.host = o->host;
      p.port = o->port;
      p.socket = o->socket;
      p.user = o->user;
      p.dbname = o->dbname;
      p.private_server = o->private_server;
      p.tolerance = o->tolerance;
      p.json = o->json;
      for (const char* name : {"--one-connection", "--database", "--table-name", "--datadir", "--flush-io-capacity",
                               "--no-ibd", "--series", "--defaults-file", "--page-size", "--writers",
                               "--clock-skew-ms", "--clock-drift-ppm", "--interleave", "--writer-weights"}) {
        if (sub->count(name) > 0) p.mariadb_options_given.push_back(name);
      }
      return RunPgMeasure(p);
    }
    if (!o->profile.empty()) {
      return Fail(2, absl::StrCat("--profile ", o->profile,
                                  ": measure takes postgresql-15 or postgresql-18; against MySQL/MariaDB leave "
                                  "--profile out (the server's version picks the profile)"));
    }
    for (const char* name : {"--dbname", "--payload-bytes"}) {
      if (sub->count(name) > 0) {
        return Fail(2, absl::StrCat(name, " is an option of measure --profile postgresql-*: drop it, or add "
                                          "--profile postgresql-15"));
      }
    }
    return RunMeasure(*o);
  });
}

}  // namespace innosim::cli
