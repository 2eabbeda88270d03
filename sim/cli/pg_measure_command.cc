// innosim measure --profile postgresql-*: options checked before the server
// is touched, the load on the server (tools/pg_measure.h), the model run
// with the server's settings, and both sides printed phase by phase.
#include "sim/cli/pg_measure_command.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/profile.h"
#include "nlohmann/json.hpp"
#include "sim/cli/commands.h"
#include "sim/compare.h"
#include "sim/key_stream.h"
#include "sim/pg_table_parser.h"
#include "sim/postgres_driver.h"
#include "sim/runner.h"
#include "sim/stream_registry.h"
#include "tools/pg_measure.h"
#include "tools/pg_private_server.h"

namespace innosim::cli {
namespace {

// The settings read from the server (SHOW) and offered to the model under
// their GUC names (RunSpec settings, origin "server"): those of the buffer
// manager, the checkpointer, the background writer and the WAL, and the
// page format.
const std::vector<std::string>& PgSettingNames() {
  static const std::vector<std::string> names = {
      "shared_buffers",  "max_wal_size",          "checkpoint_timeout",       "checkpoint_completion_target",
      "bgwriter_delay",  "bgwriter_lru_maxpages", "bgwriter_lru_multiplier",  "full_page_writes",
      "wal_compression", "data_checksums",        "block_size"};
  return names;
}

int ExitCodeFor(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kOutOfRange:
      return 2;
    default:
      return 3;
  }
}

// SIGINT/SIGTERM: the handler records the signal; PgMeasure asks between
// INSERT batches (interrupted()), drops its database and returns kCancelled.
// A second signal ends the process at once.
volatile sig_atomic_t g_pg_measure_signal = 0;

extern "C" void OnPgMeasureSignal(int signo) {
  if (g_pg_measure_signal != 0) {
    ::signal(signo, SIG_DFL);
    ::raise(signo);
    return;
  }
  g_pg_measure_signal = signo;
}

class PgMeasureSignals {
 public:
  PgMeasureSignals() {
    g_pg_measure_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = OnPgMeasureSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~PgMeasureSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  PgMeasureSignals(const PgMeasureSignals&) = delete;
  PgMeasureSignals& operator=(const PgMeasureSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

// Everything checked before the server is touched.
struct PgPlan {
  RunSpec spec;  // the model's run (settings added once the server's are read)
  PgMeasureOptions server;
  std::vector<std::unique_ptr<KeyStream>> streams;
  PgPrivateServerOptions private_server;
  uint64_t load_rows = 0;
};

// A column's value as text, the same on every row. Only a value's length
// reaches the pages (heap_form_tuple), so a text column gets the model's
// value_bytes letters ('x', as the model's repeat('x', B)) and a
// fixed-width one any value of its type.
std::string ColumnText(const postgres::PgColumn& col, const PgColumnValue& v) {
  switch (col.type) {
    case postgres::PgType::kBool: return "f";
    case postgres::PgType::kInt2:
    case postgres::PgType::kInt4:
    case postgres::PgType::kInt8:
    case postgres::PgType::kFloat4:
    case postgres::PgType::kFloat8: return "0";
    case postgres::PgType::kDate: return "2000-01-01";
    case postgres::PgType::kTimestamp: return "2000-01-01 00:00:00";
    case postgres::PgType::kTimestamptz: return "2000-01-01 00:00:00+00";
    case postgres::PgType::kUuid: return "00000000-0000-0000-0000-000000000000";
    case postgres::PgType::kText:
    case postgres::PgType::kVarchar:
    case postgres::PgType::kBytea: return std::string(v.value_bytes, 'x');
  }
  return "";
}

std::string UniqueDatabaseName() {
  std::random_device rd;
  return absl::StrFormat("innosim_measure_%d_%08x", static_cast<int>(::getpid()), rd());
}

absl::StatusOr<PgPlan> CheckPgMeasureOptions(const PgMeasureCliOptions& o) {
  const LoadOptions& load = *o.load;
  if (!o.mariadb_options_given.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(o.mariadb_options_given.front(), " is an option of measure against ",
                                                   "MySQL/MariaDB; --profile ", o.profile, " does not take it: drop it"));
  }
  PgPlan plan;
  plan.spec.profile = o.profile;
  absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(load.rows_per_ms);
  if (!rpms.ok()) return rpms.status();
  if (absl::Status s = load.Apply(&plan.spec, *rpms); !s.ok()) return s;
  plan.spec.profile = o.profile;
  if (plan.spec.stream.writers > 1) {
    return absl::InvalidArgumentError("--writers: measure --profile postgresql-* loads one connection's keys: drop it");
  }
  if (!plan.spec.columns.empty()) {
    return absl::InvalidArgumentError(
        "--column: measure --profile postgresql-* fills the other columns with constants of their length: drop it");
  }
  if (!(o.tolerance >= 0)) return absl::InvalidArgumentError("--tolerance must be a fraction >= 0 (e.g. 0.02 for 2%)");
  if (plan.spec.rows == 0) return absl::InvalidArgumentError("--rows must be at least 1");
  if (absl::Status s = load.ApplyPhases(&plan.spec); !s.ok()) return s;
  // What the model refuses (a DELETE or REINDEX phase...), it refuses here
  // in its own words.
  if (absl::Status s = PostgresCheck(plan.spec); !s.ok()) return s;
  if (absl::Status s = ValidateRunSpec(plan.spec); !s.ok()) return s;
  if (absl::Status s = PostgresBindStream(plan.spec.table, &plan.spec.stream); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(plan.spec.stream);
  if (!stream.ok()) return stream.status();
  const int width = (*stream)->key_width();
  if (width != 8 && width != 16) {
    return absl::InvalidArgumentError(absl::StrCat("--stream ", plan.spec.stream.name, ": its keys are ", width,
                                                   " bytes; measure --profile postgresql-* loads bigint (8) or uuid "
                                                   "(16) keys"));
  }
  PgTableOptions topts;
  topts.payload_bytes = plan.spec.payload_bytes;
  topts.payload_given = plan.spec.payload_bytes_given;
  absl::StatusOr<PgSchema> schema = ResolvePgTable(plan.spec.table, width, topts);
  if (!schema.ok()) return schema.status();
  if (!schema->spec.secondary.empty()) {
    return absl::InvalidArgumentError(
        "--table: measure --profile postgresql-* loads tables with a primary key and no other index yet (the "
        "secondary keys' values are the model's own): drop the CREATE INDEX / UNIQUE");
  }
  for (const PgColumnValue& v : schema->values) {
    if (!v.references.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("--table: REFERENCES ", v.references,
                                                     ": measure creates one table only; drop the foreign key"));
    }
  }
  // Run() checks the table as the model reads it (TOAST, widths...).
  if (absl::Status s = CheckRunTable(plan.spec); !s.ok()) return s;
  PgMeasureOptions& so = plan.server;
  const std::string lower = absl::AsciiStrToLower(plan.spec.table);
  so.create_sql = (lower.empty() || lower == "seed000") ? PgSeed000TableSql(width) : plan.spec.table;
  so.table = schema->spec.name;
  so.key_width = width;
  so.batch_rows = plan.spec.trx_rows;
  if (so.batch_rows == 0) return absl::InvalidArgumentError("--batch must be at least 1 row");
  for (size_t c = 0; c < schema->spec.columns.size(); ++c) {
    PgMeasureColumn col;
    col.name = schema->spec.columns[c].name;
    col.key = c == schema->spec.primary_key.front();
    // A sequence key is left to the server when the stream is the
    // sequence's own (autoinc: 1, 2, 3, ... as the model assigns them).
    col.by_default = schema->values[c].sequence && (!col.key || ServerAssigns(plan.spec.stream.name));
    if (!col.key) col.text = ColumnText(schema->spec.columns[c], schema->values[c]);
    so.columns.push_back(col);
  }
  // The steps: the load, then each --phase (an insert's keys as Run()
  // makes them: PhaseStreamSpec).
  plan.load_rows = plan.spec.rows;
  PgMeasureStep first;
  first.text = absl::StrCat("insert:", plan.spec.stream.name, ":", plan.spec.rows);
  first.stream = stream->get();
  first.rows = plan.spec.rows;
  plan.streams.push_back(*std::move(stream));
  so.steps.push_back(first);
  uint64_t done = plan.spec.rows;
  uint64_t autoinc_rows = ServerAssigns(plan.spec.stream.name) ? plan.spec.rows : 0;
  // Each phase's stream by phase number (1: the run's own insert), so that
  // delete:phase:N deletes the keys phase N inserted, made again.
  std::vector<std::optional<std::pair<StreamSpec, uint64_t>>> inserted = {
      std::make_pair(plan.spec.stream, plan.spec.rows)};
  for (size_t n = 0; n < plan.spec.phases.size(); ++n) {
    const PhaseSpec& phase = plan.spec.phases[n];
    PgMeasureStep st;
    st.text = phase.text;
    if (phase.kind != PhaseSpec::Kind::kInsert) inserted.push_back(std::nullopt);
    if (phase.kind == PhaseSpec::Kind::kCheckpoint) {
      st.kind = PgMeasureStep::Kind::kCheckpoint;
    } else if (phase.kind == PhaseSpec::Kind::kOptimize) {
      st.kind = PgMeasureStep::Kind::kReindex;
    } else if (IsDeletePhase(phase.kind)) {
      st.kind = PgMeasureStep::Kind::kDelete;
      st.every = phase.kind == PhaseSpec::Kind::kDeleteEvery ? phase.every : 0;
      if (phase.kind == PhaseSpec::Kind::kDeleteRange) {
        st.from_pct = phase.from_pct;
        st.to_pct = phase.to_pct;
      }
      if (phase.kind == PhaseSpec::Kind::kDeletePhase) {
        if (phase.of_phase == 0 || phase.of_phase > inserted.size() || !inserted[phase.of_phase - 1].has_value()) {
          return absl::InvalidArgumentError(
              absl::StrCat("--phase ", phase.text, ": phase ", phase.of_phase, " is not an insert before it"));
        }
        const auto& [spec, rows] = *inserted[phase.of_phase - 1];
        absl::StatusOr<std::unique_ptr<KeyStream>> again = MakeKeyStream(spec);
        if (!again.ok()) return again.status();
        Key k;
        while (st.keys.size() < rows && (*again)->Next(&k)) st.keys.push_back(k);
      }
    } else {
      StreamSpec ps = PhaseStreamSpec(plan.spec, n, done, autoinc_rows);
      if (ServerAssigns(phase.stream)) autoinc_rows += phase.rows;
      if (absl::Status s = PostgresBindStream(plan.spec.table, &ps); !s.ok()) return s;
      absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(ps);
      if (!ks.ok()) return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": ", ks.status().message()));
      if ((*ks)->key_width() != width) {
        return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": its keys are ", (*ks)->key_width(),
                                                       " bytes wide, the table's ", width,
                                                       ": use a stream of the table's key type"));
      }
      st.stream = ks->get();
      st.rows = phase.rows;
      inserted.push_back(std::make_pair(ps, phase.rows));
      plan.streams.push_back(*std::move(ks));
      done += phase.rows;
    }
    so.steps.push_back(st);
  }
  so.setting_names = PgSettingNames();
  so.database = UniqueDatabaseName();
  if (o.private_server) {
    if (!o.host.empty() || o.port != 0 || !o.socket.empty() || !o.user.empty() || !o.dbname.empty()) {
      return absl::InvalidArgumentError(
          "--private-server starts its own server: leave out --host, --port, --socket, --user and --dbname");
    }
    // Each --set NAME=VALUE becomes -c NAME=VALUE; the server itself
    // judges the value (a bad one stops it at start, in one line).
    for (const std::string& kv : load.sets) {
      const size_t eq = kv.find('=');
      const std::string name = eq == std::string::npos ? kv : kv.substr(0, eq);
      const bool name_ok = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") ==
                                                std::string::npos;
      if (eq == std::string::npos || !name_ok || eq + 1 == kv.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--set '", kv, "': write NAME=VALUE with a GUC's name, e.g. --set shared_buffers=32MB"));
      }
      plan.private_server.settings.push_back({name, kv.substr(eq + 1)});
      so.command_line_settings.push_back(name);
    }
  } else {
    if (!load.sets.empty()) {
      return absl::InvalidArgumentError(
          "--set configures the server --private-server starts: add --private-server, or set the GUCs on your server");
    }
    if (!o.host.empty() && !o.socket.empty()) {
      return absl::InvalidArgumentError("--host and --socket both name the server: give one");
    }
    so.connection.host = o.socket.empty() ? o.host : o.socket;
    so.connection.port = o.port;
    so.connection.user = o.user;
    so.connection.dbname = o.dbname;
  }
  return plan;
}

// One figure on both sides.
struct PgComparisonRow {
  std::string metric;
  std::optional<double> simulated;  // unset: the model has no such figure
  double measured = 0;
  double error = 0;
  bool in_verdict = false;
  bool within = true;
  bool fraction = false;  // avg_leaf_density, leaf_fragmentation: two decimals
};

struct PgStepComparison {
  std::string phase;
  std::vector<PgComparisonRow> rows;
};

struct PgComparison {
  std::vector<PgStepComparison> steps;
  std::vector<PgComparisonRow> counters;
  bool within_tolerance = true;
  std::vector<std::pair<std::string, std::string>> settings_simulated;  // name -> "simulated" / "not simulated"
};

void AddRow(PgStepComparison* sc, PgComparison* c, double tolerance, const std::string& metric,
            std::optional<double> simulated, double measured, bool in_verdict, bool fraction = false) {
  PgComparisonRow row;
  row.metric = metric;
  row.simulated = simulated;
  row.measured = measured;
  row.fraction = fraction;
  row.in_verdict = in_verdict && simulated.has_value();
  if (simulated) {
    row.error = RelativeError(*simulated, measured);
    row.within = WithinTolerance(row.error, tolerance);
    if (row.in_verdict && !row.within) c->within_tolerance = false;
  }
  sc->rows.push_back(row);
}

double Two(double v) { return std::round(v * 100.0) / 100.0; }

// Each step beside the model's phase of the same number: the table's
// figures at its end and its WAL, under the server's names.
PgComparison Compare(const PgMeasureResult& m, const PgRunResult& sim, double tolerance) {
  PgComparison c;
  for (size_t i = 0; i < m.steps.size(); ++i) {
    const PgMeasuredStep& ms = m.steps[i];
    const postgres::PgTableReport* rep = nullptr;
    postgres::WalCounters wal;
    if (sim.phases().empty()) {
      rep = &sim.report();
      wal = sim.report().wal;
    } else if (i < sim.phases().size()) {
      rep = &sim.phases()[i].report;
      wal = sim.phases()[i].wal;
    }
    PgStepComparison sc;
    sc.phase = ms.text;
    if (rep == nullptr) {
      c.steps.push_back(sc);
      continue;
    }
    // A CHECKPOINT's own WAL is the checkpointer's few records (the
    // checkpoint record, standby snapshots), where a record more or less of
    // another process is a large relative error: shown, not in the verdict.
    const bool insert = absl::StartsWith(ms.text, "insert");
    // The model's DELETE, VACUUM and REINDEX write no WAL and touch no
    // buffer (postgresql.md, "Not modelled"): their WAL and dirty blocks
    // are shown, not judged.
    const bool buffers_modelled = insert || absl::StartsWith(ms.text, "checkpoint");
    AddRow(&sc, &c, tolerance, "rows", static_cast<double>(rep->rows), static_cast<double>(ms.rows), true);
    for (const PgRelationFigures& f : ms.relations) {
      if (!f.index) {
        AddRow(&sc, &c, tolerance, f.name + ".relpages", static_cast<double>(rep->heap_relpages),
               static_cast<double>(f.relpages), true);
        AddRow(&sc, &c, tolerance, f.name + ".pg_relation_size", static_cast<double>(rep->heap_pg_relation_size),
               static_cast<double>(f.pg_relation_size), true);
        AddRow(&sc, &c, tolerance, f.name + ".dirty_blocks", static_cast<double>(rep->heap_dirty_blocks),
               static_cast<double>(f.dirty_blocks), buffers_modelled);
        continue;
      }
      const postgres::PgIndexReport* ix = nullptr;
      for (const postgres::PgIndexReport& r : rep->indexes) {
        if (r.name == f.name) ix = &r;
      }
      auto sim_of = [&](auto get) -> std::optional<double> {
        if (ix == nullptr) return std::nullopt;
        return static_cast<double>(get(*ix));
      };
      const std::string p = f.name + ".";
      AddRow(&sc, &c, tolerance, p + "tree_level", sim_of([](const auto& x) { return x.stat.tree_level; }),
             f.stat.tree_level, true);
      AddRow(&sc, &c, tolerance, p + "index_size", sim_of([](const auto& x) { return x.stat.index_size; }),
             static_cast<double>(f.stat.index_size), true);
      AddRow(&sc, &c, tolerance, p + "internal_pages", sim_of([](const auto& x) { return x.stat.internal_pages; }),
             static_cast<double>(f.stat.internal_pages), true);
      AddRow(&sc, &c, tolerance, p + "leaf_pages", sim_of([](const auto& x) { return x.stat.leaf_pages; }),
             static_cast<double>(f.stat.leaf_pages), true);
      AddRow(&sc, &c, tolerance, p + "avg_leaf_density",
             sim_of([](const auto& x) { return Two(x.stat.avg_leaf_density); }), f.stat.avg_leaf_density, true, true);
      AddRow(&sc, &c, tolerance, p + "leaf_fragmentation",
             sim_of([](const auto& x) { return Two(x.stat.leaf_fragmentation); }), f.stat.leaf_fragmentation, true,
             true);
      AddRow(&sc, &c, tolerance, p + "dirty_blocks", sim_of([](const auto& x) { return x.dirty_blocks; }),
             static_cast<double>(f.dirty_blocks), buffers_modelled);
    }
    AddRow(&sc, &c, tolerance, "wal_records", static_cast<double>(wal.wal_records), static_cast<double>(ms.wal_records),
           insert);
    AddRow(&sc, &c, tolerance, "wal_fpi", static_cast<double>(wal.wal_fpi), static_cast<double>(ms.wal_fpi), insert);
    AddRow(&sc, &c, tolerance, "wal_bytes", static_cast<double>(wal.wal_bytes), static_cast<double>(ms.wal_bytes),
           insert);
    AddRow(&sc, &c, tolerance, "wal_lsn_diff", static_cast<double>(wal.wal_lsn_bytes),
           static_cast<double>(ms.wal_lsn_diff), insert);
    c.steps.push_back(std::move(sc));
  }
  // The block counters over the whole run; the model's under the same name
  // where it has the figure (EngineResult::Metric), else "-". Not in the
  // verdict: reads and writes come from the buffer manager's timing.
  PgStepComparison counters;
  for (const auto& [name, v] : m.counters) {
    AddRow(&counters, &c, tolerance, name, sim.Metric(name), static_cast<double>(v), false);
  }
  c.counters = std::move(counters.rows);
  return c;
}

std::string FormatValue(double v, bool fraction) {
  if (fraction) return absl::StrFormat("%.2f", v);
  return absl::StrFormat("%.0f", v);
}

std::string RowText(const PgComparisonRow& r, const std::string& num, const std::string& phase) {
  return absl::StrFormat("  %-3s %-26s %-34s %14s %14s %10s%s\n", num, phase, r.metric,
                         r.simulated ? FormatValue(*r.simulated, r.fraction) : "-", FormatValue(r.measured, r.fraction),
                         r.simulated ? FormatRelativeError(r.error) : "-",
                         r.in_verdict ? (r.within ? "" : "  outside tolerance") : (r.simulated ? "  (not in verdict)" : ""));
}

std::string PgMeasureText(const PgMeasureCliOptions& o, const PgPlan& plan, const PgMeasureResult& m,
                          const PgComparison& c, double rows_per_sec) {
  std::string s;
  absl::StrAppendFormat(&s, "innosim measure: %s, stream %s, %d rows, seed %d, batch %d, table %s\n", o.profile,
                        plan.spec.stream.name, plan.load_rows, plan.spec.stream.seed, plan.server.batch_rows,
                        plan.server.table);
  absl::StrAppendFormat(&s, "server: PostgreSQL %s at %s; database %s (%s)\n", m.version, m.target, m.database,
                        m.dropped ? "created and dropped" : "created, NOT dropped");
  absl::StrAppendFormat(&s, "load %.1f s (%.0f rows/s, the model's clock)\n", m.load_elapsed_s, rows_per_sec);
  s += "settings (SHOW; the model runs with those it simulates):\n";
  for (size_t i = 0; i < m.settings.size(); ++i) {
    absl::StrAppendFormat(&s, "  %-30s %-10s %s\n", m.settings[i].first, m.settings[i].second,
                          i < c.settings_simulated.size() ? c.settings_simulated[i].second : "");
  }
  absl::StrAppendFormat(&s, "\n  %-3s %-26s %-34s %14s %14s %10s\n", "#", "phase", "metric", "simulated", "measured",
                        "rel.error");
  for (size_t i = 0; i < c.steps.size(); ++i) {
    for (size_t r = 0; r < c.steps[i].rows.size(); ++r) {
      s += RowText(c.steps[i].rows[r], r == 0 ? absl::StrCat(i + 1) : "", r == 0 ? c.steps[i].phase : "");
    }
  }
  s += "\n  block counters over the phases (the server's; '-' where the model has no such figure)\n";
  for (const PgComparisonRow& r : c.counters) s += RowText(r, "", "");
  s += "\n  sanity checks\n";
  for (const PgSanityCheck& chk : m.sanity) {
    absl::StrAppendFormat(&s, "    %-34s %s%s\n", chk.name, chk.pass ? "pass" : "FAIL",
                          chk.detail.empty() ? "" : absl::StrCat("  (", chk.detail, ")"));
  }
  absl::StrAppendFormat(&s, "  valid: %s\n", m.valid ? "yes" : "NO (a sanity check failed)");
  for (const std::string& n : m.notes) absl::StrAppendFormat(&s, "  note: %s\n", n);
  absl::StrAppendFormat(&s, "  compared figures within %.1f%%: %s\n", 100.0 * o.tolerance,
                        c.within_tolerance ? "yes" : "NO");
  return s;
}

nlohmann::ordered_json RowJson(const PgComparisonRow& r) {
  nlohmann::ordered_json j;
  j["simulated"] = r.simulated ? nlohmann::ordered_json(*r.simulated) : nlohmann::ordered_json(nullptr);
  j["measured"] = r.measured;
  j["relative_error"] = (r.simulated && std::isfinite(r.error)) ? nlohmann::ordered_json(r.error)
                                                                 : nlohmann::ordered_json(nullptr);
  j["in_verdict"] = r.in_verdict;
  j["within_tolerance"] = r.within;
  return j;
}

// The server's figures of a step, in the shape of the model's phase JSON
// (sim/postgres_driver.cc): wal_*, dirty_blocks by relation, the heap, and
// pgstatindex per index.
nlohmann::ordered_json StepJson(const PgMeasuredStep& st) {
  nlohmann::ordered_json j;
  j["phase"] = st.text;
  j["rows"] = st.rows;
  j["wal_records"] = st.wal_records;
  j["wal_fpi"] = st.wal_fpi;
  j["wal_bytes"] = st.wal_bytes;
  j["wal_lsn_diff"] = st.wal_lsn_diff;
  nlohmann::ordered_json dirty = nlohmann::ordered_json::object();
  nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
  for (const PgRelationFigures& f : st.relations) {
    dirty[f.name] = f.dirty_blocks;
    if (!f.index) {
      j["heap"] = {{"name", f.name}, {"relpages", f.relpages}, {"pg_relation_size", f.pg_relation_size},
                   {"dirty_blocks", f.dirty_blocks}};
      continue;
    }
    indexes.push_back({{"name", f.name},
                       {"version", f.stat.version},
                       {"tree_level", f.stat.tree_level},
                       {"index_size", f.stat.index_size},
                       {"root_block_no", f.stat.root_block_no},
                       {"internal_pages", f.stat.internal_pages},
                       {"leaf_pages", f.stat.leaf_pages},
                       {"empty_pages", f.stat.empty_pages},
                       {"deleted_pages", f.stat.deleted_pages},
                       {"avg_leaf_density", f.stat.avg_leaf_density},
                       {"leaf_fragmentation", f.stat.leaf_fragmentation},
                       {"relpages", f.relpages},
                       {"dirty_blocks", f.dirty_blocks}});
  }
  j["dirty_blocks"] = dirty;
  j["indexes"] = indexes;
  nlohmann::ordered_json counters = nlohmann::ordered_json::object();
  for (const auto& [name, v] : st.counters) counters[name] = v;
  j["counters"] = counters;
  j["elapsed_s"] = st.elapsed_s;
  return j;
}

nlohmann::ordered_json PgMeasureJson(const PgMeasureCliOptions& o, const PgPlan& plan, const PgMeasureResult& m,
                                     const RunResult& sim, const PgComparison& c) {
  nlohmann::ordered_json j;
  j["engine"] = "postgresql";
  j["profile"] = o.profile;
  j["stream"] = plan.spec.stream.name;
  j["rows"] = plan.load_rows;
  j["seed"] = plan.spec.stream.seed;
  j["batch"] = plan.server.batch_rows;
  j["table"] = plan.server.table;
  j["server_version"] = m.version;
  j["server_version_num"] = m.version_num;
  j["target"] = m.target;
  j["database"] = m.database;
  j["database_dropped"] = m.dropped;
  nlohmann::ordered_json settings = nlohmann::ordered_json::object();
  for (size_t i = 0; i < m.settings.size(); ++i) {
    settings[m.settings[i].first] = {
        {"value", m.settings[i].second},
        {"simulated", i < c.settings_simulated.size() && c.settings_simulated[i].second == "simulated"}};
  }
  j["settings"] = settings;
  j["load_elapsed_s"] = m.load_elapsed_s;
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  const auto* pg = dynamic_cast<const PgRunResult*>(sim.engine_result.get());
  const nlohmann::ordered_json simulated = pg ? pg->ToJson() : nlohmann::ordered_json();
  for (size_t i = 0; i < m.steps.size(); ++i) {
    nlohmann::ordered_json ph;
    ph["phase"] = m.steps[i].text;
    ph["server"] = StepJson(m.steps[i]);
    if (simulated.contains("phases") && i < simulated["phases"].size()) {
      ph["simulated"] = simulated["phases"][i];
    } else if (i == 0) {
      ph["simulated"] = simulated;
    }
    nlohmann::ordered_json cmp = nlohmann::ordered_json::object();
    if (i < c.steps.size()) {
      for (const PgComparisonRow& r : c.steps[i].rows) cmp[r.metric] = RowJson(r);
    }
    ph["comparison"] = cmp;
    phases.push_back(ph);
  }
  j["phases"] = phases;
  nlohmann::ordered_json counters = nlohmann::ordered_json::object();
  for (const PgComparisonRow& r : c.counters) counters[r.metric] = RowJson(r);
  j["counters"] = counters;
  nlohmann::ordered_json sanity = nlohmann::ordered_json::array();
  for (const PgSanityCheck& chk : m.sanity) sanity.push_back({{"name", chk.name}, {"pass", chk.pass}, {"detail", chk.detail}});
  j["sanity"] = sanity;
  j["valid"] = m.valid;
  j["notes"] = m.notes;
  j["tolerance"] = o.tolerance;
  j["within_tolerance"] = c.within_tolerance;
  return j;
}

}  // namespace

int RunPgMeasure(const PgMeasureCliOptions& o) {
  absl::StatusOr<PgPlan> plan = CheckPgMeasureOptions(o);
  if (!plan.ok()) return Fail(2, std::string(plan.status().message()));
  std::unique_ptr<PgPrivateServer> server;
  if (o.private_server) {
    absl::StatusOr<std::unique_ptr<PgPrivateServer>> started = PgPrivateServer::Start(plan->private_server);
    if (!started.ok()) return Fail(3, absl::StrCat("starting the private PostgreSQL: ", started.status().message()));
    server = *std::move(started);
    plan->server.connection = server->connection_options("postgres");
  }
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  const uint64_t total = [&] {
    uint64_t t = 0;
    for (const PgMeasureStep& st : plan->server.steps) t += st.rows;
    return t;
  }();
  plan->server.progress = [tty, total](uint64_t done) {
    if (tty) std::fprintf(stderr, "\rloading %llu/%llu rows", static_cast<unsigned long long>(done),
                          static_cast<unsigned long long>(total));
  };
  plan->server.interrupted = [] { return g_pg_measure_signal != 0; };
  absl::StatusOr<PgMeasureResult> measured;
  int signo = 0;
  {
    PgMeasureSignals signals;
    measured = PgMeasure(plan->server);
    signo = g_pg_measure_signal;
  }
  if (tty) std::fprintf(stderr, "\r\033[K");
  if (signo != 0) {
    return Fail(128 + signo, absl::StrCat("stopped by ", signo == SIGINT ? "SIGINT" : "SIGTERM", ": ",
                                          measured.ok() ? "after the measurement" : measured.status().message(),
                                          "; database ", plan->server.database, " dropped"));
  }
  if (!measured.ok()) return Fail(ExitCodeFor(measured.status()), std::string(measured.status().message()));
  PgMeasureResult& m = *measured;
  // The profile's server: its major version.
  const std::optional<postgres::PgProfile> profile = postgres::FindPgProfile(o.profile);
  const int major = m.version_num / 10000;
  m.sanity.push_back({"server version matches the profile", profile && profile->major == major,
                      absl::StrCat("server_version_num ", m.version_num, ", profile ", o.profile)});
  // The model's pages are BLCKSZ 8192 (model/postgres/page_layout.h).
  for (const auto& [name, value] : m.settings) {
    if (name == "block_size") {
      m.sanity.push_back({"block_size is the model's", value == absl::StrCat(postgres::kBlckSz),
                          absl::StrCat("block_size ", value, ", the model's BLCKSZ ", postgres::kBlckSz)});
    }
  }
  m.valid = true;
  for (const PgSanityCheck& chk : m.sanity) m.valid = m.valid && chk.pass;

  // The model with each setting it accepts (PostgresCheck, one at a time);
  // one it refuses is "not simulated".
  RunSpec& spec = plan->spec;
  std::vector<std::pair<std::string, std::string>> simulated_settings;
  for (const auto& [name, value] : m.settings) {
    RunSpec probe = spec;
    probe.phases.clear();
    probe.settings = {{name, value, "server"}};
    const bool accepted = PostgresCheck(probe).ok();
    if (accepted) spec.settings.push_back({name, value, "server"});
    simulated_settings.push_back({name, accepted ? "simulated" : "not simulated"});
  }
  const double rows_per_sec =
      m.load_elapsed_s > 0 ? static_cast<double>(plan->load_rows) / m.load_elapsed_s : spec.rows_per_sec;
  spec.rows_per_sec = rows_per_sec;
  absl::StatusOr<RunResult> sim = Run(spec);
  if (!sim.ok()) return Fail(2, absl::StrCat("simulating the same keys: ", sim.status().message()));
  const auto* pg = dynamic_cast<const PgRunResult*>(sim->engine_result.get());
  if (pg == nullptr) return Fail(2, absl::StrCat("simulating the same keys: ", o.profile, " gave no PostgreSQL figures"));
  PgComparison c = Compare(m, *pg, o.tolerance);
  c.settings_simulated = simulated_settings;
  if (o.json) {
    std::cout << PgMeasureJson(o, *plan, m, *sim, c).dump() << "\n";
  } else {
    std::cout << PgMeasureText(o, *plan, m, c, rows_per_sec);
  }
  return (c.within_tolerance && m.valid) ? 0 : 1;
}

}  // namespace innosim::cli
