#include "tools/measure.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string_view>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "sim/metrics.h"
#include "sim/uuid.h"
#include "tools/column_literals.h"
#include "sim/uuid_streams.h"
#include "sim/writers.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

using Clock = std::chrono::steady_clock;

// Rows written by the server, for the "no other writer" check, in order of
// preference: MySQL's InnoDB counter; MariaDB (10.6+ has no
// Innodb_rows_inserted) counts handler writes to all non-temporary tables.
constexpr const char* kRowsInsertedNames[] = {"Innodb_rows_inserted", "Handler_write"};

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// MySQL's unquoted identifier: 1-64 of [0-9A-Za-z$_], not all digits (a
// name of digits only would read as a number).
bool ValidIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  bool all_digits = true;
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (!(absl::ascii_isalnum(u) || c == '_' || c == '$')) return false;
    all_digits = all_digits && absl::ascii_isdigit(u);
  }
  return !all_digits;
}

std::string Qualified(const std::string& db, const std::string& table) {
  return absl::StrCat("`", db, "`.`", table, "`");
}

// "name IN ('a','b')" list for names we control (no quoting needed).
std::string InList(const char* const* names, size_t n) {
  std::string out = "(";
  for (size_t i = 0; i < n; ++i) absl::StrAppend(&out, i ? "," : "", "'", names[i], "'");
  out += ")";
  return out;
}

template <size_t N>
std::string InList(const char* const (&names)[N]) {
  return InList(names, N);
}

std::string InList(const std::vector<const char*>& names) { return InList(names.data(), names.size()); }

absl::Status Prefix(const absl::Status& s, absl::string_view prefix) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

bool ToInt(const std::string& s, int64_t* out) { return absl::SimpleAtoi(s, out); }

// Case-insensitive comparison with ON/1/TRUE and OFF/0/FALSE equal.
std::string NormalizeSetting(const std::string& v) {
  std::string s = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(v));
  if (s == "1" || s == "TRUE" || s == "YES") return "ON";
  if (s == "0" || s == "FALSE" || s == "NO") return "OFF";
  return s;
}

// The server globals Measure() changed, with what puts each back, undone
// in reverse order. Restore(mark) undoes down to a mark (the final-flush
// boost is undone right after its wait); what could not be put back is kept
// and reported, as statements to run by hand, by every later Restore().
class ServerStateGuard {
 public:
  explicit ServerStateGuard(ServerConnection& conn) : conn_(conn) {}
  ServerStateGuard(const ServerStateGuard&) = delete;
  ServerStateGuard& operator=(const ServerStateGuard&) = delete;
  ~ServerStateGuard() { (void)Restore(0); }

  // SET GLOBAL name=value, remembering the value before.
  absl::Status Set(const std::string& name, const std::string& value) {
    absl::StatusOr<std::string> old = conn_.QueryString(absl::StrCat("SELECT @@GLOBAL.", name));
    if (!old.ok()) return old.status();
    absl::Status s = conn_.Execute(absl::StrCat("SET GLOBAL ", name, "=", value));
    if (!s.ok()) return s;
    undo_.push_back(absl::StrCat("SET GLOBAL ", name, "=", *old));
    return absl::OkStatus();
  }

  // Turns an INNODB_METRICS counter on; it is turned off again at the end.
  absl::Status EnableMonitor(const std::string& counter) {
    absl::Status s = conn_.Execute(absl::StrCat("SET GLOBAL innodb_monitor_enable='", counter, "'"));
    if (!s.ok()) return s;
    undo_.push_back(absl::StrCat("SET GLOBAL innodb_monitor_disable='", counter, "'"));
    return absl::OkStatus();
  }

  size_t mark() const { return undo_.size(); }

  // Undoes the changes made after `mark`. Not OK when anything (now or in an
  // earlier call) could not be put back; the message lists those statements.
  absl::Status Restore(size_t mark) {
    while (undo_.size() > mark) {
      std::string sql = std::move(undo_.back());
      undo_.pop_back();
      absl::Status s = conn_.Execute(sql);
      if (!s.ok()) {
        if (first_error_.ok()) first_error_ = s;
        failed_.push_back(std::move(sql));
      }
    }
    if (failed_.empty()) return absl::OkStatus();
    return absl::Status(first_error_.code(),
                        absl::StrCat("could not put the server's settings back (", first_error_.message(),
                                     "); run by hand: ", absl::StrJoin(failed_, "; ")));
  }

 private:
  ServerConnection& conn_;
  std::vector<std::string> undo_;    // statements that undo, oldest first
  std::vector<std::string> failed_;  // undo statements that failed
  absl::Status first_error_;
};

struct Snapshot {
  std::map<std::string, int64_t> metrics;  // present counters only
  std::map<std::string, int64_t> status;
};

// Which INNODB_METRICS column says whether a counter is on: MySQL STATUS
// ('enabled'/'disabled'), MariaDB ENABLED (1/0).
absl::StatusOr<std::string> MetricsEnabledColumn(ServerConnection& conn) {
  absl::StatusOr<std::vector<ServerConnection::Row>> rows = conn.Query(
      "SELECT UPPER(COLUMN_NAME) FROM information_schema.COLUMNS WHERE "
      "TABLE_SCHEMA='information_schema' AND TABLE_NAME='INNODB_METRICS' AND "
      "UPPER(COLUMN_NAME) IN ('STATUS','ENABLED')");
  if (!rows.ok()) return rows.status();
  for (const auto& r : *rows) {
    if (r[0]) return *r[0];
  }
  return absl::FailedPreconditionError(
      "information_schema.INNODB_METRICS has neither STATUS nor ENABLED column");
}

// What turns an INNODB_METRICS counter on: its own name, or for a counter of
// a group module its module's (srv0mon.cc MONITOR_GROUP_MODULE: the
// buffer_page_io counters, buffer_page_read_* and buffer_page_written_*,
// refuse innodb_monitor_enable one by one).
std::string MonitorSwitch(const std::string& counter) {
  return absl::StartsWith(counter, "buffer_page_") ? "module_buffer_page" : counter;
}

// Reads the counters; turns on (through `enable`, when given) those that are off.
absl::Status ReadMetrics(ServerConnection& conn, const std::string& enabled_col, ServerStateGuard* enable,
                         std::map<std::string, int64_t>* out, std::vector<std::string>* missing) {
  const std::string sql =
      absl::StrCat("SELECT NAME, COUNT, ", enabled_col,
                   " FROM information_schema.INNODB_METRICS WHERE NAME IN ",
                   InList(ServerNames(CounterSource::kInnodbMetrics)));
  absl::StatusOr<std::vector<ServerConnection::Row>> rows = conn.Query(sql);
  if (!rows.ok()) return rows.status();
  std::vector<std::string> to_enable;
  out->clear();
  for (const auto& r : *rows) {
    if (r.size() < 3 || !r[0] || !r[1]) continue;
    int64_t v = 0;
    if (!ToInt(*r[1], &v)) continue;
    (*out)[*r[0]] = v;
    const std::string on = absl::AsciiStrToLower(r[2].value_or(""));
    if (on != "enabled" && on != "1") {
      const std::string sw = MonitorSwitch(*r[0]);
      if (std::find(to_enable.begin(), to_enable.end(), sw) == to_enable.end()) to_enable.push_back(sw);
    }
  }
  if (missing != nullptr) {
    missing->clear();
    for (const char* name : ServerNames(CounterSource::kInnodbMetrics)) {
      if (!out->count(name)) missing->push_back(name);
    }
  }
  if (enable != nullptr && !to_enable.empty()) {
    for (const std::string& name : to_enable) {
      if (absl::Status s = enable->EnableMonitor(name); !s.ok()) return s;
    }
    return ReadMetrics(conn, enabled_col, /*enable=*/nullptr, out, nullptr);
  }
  return absl::OkStatus();
}

// Reads the kGlobalStatus counters of kInnodbCounters and the first of
// kRowsInsertedNames the server has (stored under "rows_inserted"; its name
// in *rows_inserted_name).
absl::Status ReadStatus(ServerConnection& conn, std::map<std::string, int64_t>* out,
                        std::string* rows_inserted_name) {
  absl::StatusOr<std::map<std::string, std::string>> m = conn.QueryMap(
      absl::StrCat("SHOW GLOBAL STATUS WHERE Variable_name IN ", InList(ServerNames(CounterSource::kGlobalStatus)),
                   " OR Variable_name IN ", InList(kRowsInsertedNames), " OR Variable_name = '",
                   kReadAheadStatus, "'"));
  if (!m.ok()) return m.status();
  out->clear();
  rows_inserted_name->clear();
  for (const char* name : kRowsInsertedNames) {
    auto it = m->find(name);
    int64_t v = 0;
    if (it != m->end() && ToInt(it->second, &v)) {
      (*out)["rows_inserted"] = v;
      *rows_inserted_name = name;
      break;
    }
  }
  if (rows_inserted_name->empty()) {
    return absl::FailedPreconditionError(
        "server reports neither Innodb_rows_inserted nor Handler_write");
  }
  for (const char* name : ServerNames(CounterSource::kGlobalStatus)) {
    auto it = m->find(name);
    int64_t v = 0;
    if (it == m->end() || !ToInt(it->second, &v)) {
      return absl::FailedPreconditionError(
          absl::StrCat("server does not report global status ", name));
    }
    (*out)[name] = v;
  }
  // Optional: pages read by read-ahead (not in Innodb_buffer_pool_reads).
  if (auto it = m->find(kReadAheadStatus); it != m->end()) {
    int64_t v = 0;
    if (ToInt(it->second, &v)) (*out)[kReadAheadStatus] = v;
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> DirtyPages(ServerConnection& conn) {
  absl::StatusOr<std::map<std::string, std::string>> m =
      conn.QueryMap("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
  if (!m.ok()) return m.status();
  auto it = m->find("Innodb_buffer_pool_pages_dirty");
  int64_t v = 0;
  if (it == m->end() || !ToInt(it->second, &v)) {
    return absl::FailedPreconditionError(
        "server does not report Innodb_buffer_pool_pages_dirty");
  }
  return v;
}

}  // namespace

std::string CreateTableSql(const std::string& database, const std::string& table, TableKind kind, int key_width) {
  const std::string binary_n = absl::StrCat("id BINARY(", key_width, ") NOT NULL PRIMARY KEY");
  const char* id = kind == TableKind::kBinaryN       ? binary_n.c_str()
                   : kind == TableKind::kUuidBinary16 ? "id BINARY(16) NOT NULL PRIMARY KEY"
                   : kind == TableKind::kAutoincInt  ? "id INT NOT NULL AUTO_INCREMENT PRIMARY KEY"
                   : kind == TableKind::kUuidChar36
                       ? "id CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY"
                   : kind == TableKind::kUuidVarchar36
                       ? "id VARCHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY"
                       : "id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY";
  return absl::StrCat("CREATE TABLE ", Qualified(database, table), " (", id,
                      ", payload CHAR(100) CHARACTER SET ascii NOT NULL"
                      ", created BIGINT NOT NULL) ENGINE=InnoDB COMMENT='",
                      kOwnedTableComment, "'");
}

absl::StatusOr<std::string> OwnedTableSql(const std::string& sql, const std::string& database,
                                          const std::string& table) {
  // Skips blanks, then one word (case-insensitive) and the blanks after it.
  size_t at = 0;
  auto skip_blanks = [&] {
    while (at < sql.size() && absl::ascii_isspace(static_cast<unsigned char>(sql[at]))) ++at;
  };
  auto word = [&](std::string_view w) {
    skip_blanks();
    if (sql.size() - at < w.size() || !absl::EqualsIgnoreCase(absl::string_view(sql).substr(at, w.size()), absl::string_view(w.data(), w.size()))) {
      return false;
    }
    at += w.size();
    return true;
  };
  if (!word("CREATE") || !word("TABLE")) {
    return absl::InvalidArgumentError("--table: the statement does not start with CREATE TABLE");
  }
  const size_t before_if = at;
  if (!(word("IF") && word("NOT") && word("EXISTS"))) at = before_if;
  skip_blanks();
  // The name: [`db`.]`t` or db.t, up to the column list's '('.
  const size_t name_start = at;
  while (at < sql.size() && sql[at] != '(') {
    if (sql[at] == '`') {
      const size_t close = sql.find('`', at + 1);
      if (close == std::string::npos) break;
      at = close + 1;
    } else {
      ++at;
    }
  }
  if (at >= sql.size() || at == name_start) {
    return absl::InvalidArgumentError("--table: CREATE TABLE needs a table name and a column list");
  }
  std::string rest = sql.substr(at);
  while (!rest.empty() && (rest.back() == ';' || absl::ascii_isspace(static_cast<unsigned char>(rest.back())))) {
    rest.pop_back();
  }
  return absl::StrCat("CREATE TABLE ", Qualified(database, table), " ", rest, " COMMENT='", kOwnedTableComment,
                      "'");
}

absl::Status CheckIdentifier(const std::string& what, const std::string& name) {
  if (ValidIdentifier(name)) return absl::OkStatus();
  std::string printable;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    printable += (u >= 0x20 && u < 0x7f) ? std::string(1, c) : absl::StrFormat("\\x%02x", u);
  }
  if (printable.size() > 80) printable = printable.substr(0, 77) + "...";
  return absl::InvalidArgumentError(absl::StrCat(
      what, " '", printable, "' is not a name innosim accepts: use 1-64 characters of [0-9A-Za-z$_], not all "
      "digits (e.g. innosim_load)"));
}

std::optional<bool> DatadirRotational(const std::string& datadir, std::string* origin) {
  struct stat st {};
  if (datadir.empty() || ::stat(datadir.c_str(), &st) != 0) return std::nullopt;
  const std::string dev = absl::StrCat("/sys/dev/block/", major(st.st_dev), ":", minor(st.st_dev));
  for (const std::string& path : {dev + "/queue/rotational", dev + "/../queue/rotational"}) {
    std::ifstream in(path);
    std::string v;
    if (in && std::getline(in, v)) {
      *origin = absl::StrCat("server datadir device (", path, ")");
      return absl::StripAsciiWhitespace(v) != "0";
    }
  }
  *origin = absl::StrCat("server datadir device (", dev, " reports no queue/rotational: rotational, as MariaDB takes it)");
  return true;
}

WriterKeys WriterSplit::keys() const {
  WriterKeys k;
  for (const auto& s : streams) k.streams.push_back(s.get());
  k.rows = rows;
  return k;
}

absl::StatusOr<WriterSplit> SplitByWriter(const StreamSpec& spec, uint64_t rows) {
  if (!HasWriters(spec)) return absl::InvalidArgumentError("one writer: nothing to split");
  if (ServerAssigns(spec.name)) {
    return absl::InvalidArgumentError(
        "autoinc: the server's AUTO_INCREMENT counter gives the same keys whoever inserts the rows; several "
        "writers' connections apply to generated UUID-like streams: drop --writers or add --one-connection");
  }
  // The interleaved stream checks the spec as a run does.
  absl::StatusOr<std::unique_ptr<KeyStream>> interleaved = MakeKeyStream(spec);
  if (!interleaved.ok()) return interleaved.status();
  // Writer w's own generator, as MakeKeyStream makes it.
  auto writer_stream = [&spec](uint32_t w) { return MakeWriterStream(spec, w); };
  const uint32_t n = spec.writers;
  WriterSplit split;
  split.rows.assign(n, 0);
  std::vector<std::unique_ptr<KeyStream>> probes;
  std::vector<Key> next(n);
  std::vector<bool> has(n);
  for (uint32_t w = 0; w < n; ++w) {
    probes.push_back(writer_stream(w));
    if (probes.back() == nullptr) return absl::InvalidArgumentError(absl::StrCat("no generator for ", spec.name));
    has[w] = probes[w]->Next(&next[w]);
  }
  // Each interleaved key is the next key of exactly one writer: that
  // writer made it.
  for (uint64_t g = 0; g < rows; ++g) {
    Key k;
    if (!(*interleaved)->Next(&k)) {
      return absl::InvalidArgumentError(absl::StrCat("the stream ended after ", g, " of ", rows, " rows"));
    }
    uint32_t w = 0;
    while (w < n && !(has[w] && next[w] == k)) ++w;
    if (w == n) return absl::InternalError(absl::StrCat("key ", g, " of the interleaved stream is no writer's next key"));
    ++split.rows[w];
    has[w] = probes[w]->Next(&next[w]);
  }
  for (uint32_t w = 0; w < n; ++w) split.streams.push_back(writer_stream(w));
  return split;
}

absl::Status ReadServerInfo(ServerConnection& conn, MeasureResult* result) {
  result->version = conn.server_version();
  absl::StatusOr<std::map<std::string, std::string>> vars = conn.QueryMap(
      absl::StrCat("SHOW GLOBAL VARIABLES WHERE Variable_name IN ", InList(kSimulationVariables)));
  if (!vars.ok()) return vars.status();
  result->variables = *std::move(vars);
  absl::StatusOr<std::string> datadir = conn.QueryString("SELECT @@datadir");
  if (!datadir.ok()) return datadir.status();
  result->datadir = *datadir;
  return absl::OkStatus();
}

namespace {

// What the steps of one measurement share. `left` ends every message of a
// failure after the load has started: the table stays for inspection.
struct MeasureRun {
  MeasureRun(ServerConnection& conn, KeyStream& stream, const MeasureOptions& options, ServerStateGuard& guard)
      : conn(conn), stream(stream), options(options), guard(guard) {}

  ServerConnection& conn;
  KeyStream& stream;
  const MeasureOptions& options;
  ServerStateGuard& guard;
  TableKind kind = TableKind::kUuidBinary16;
  std::string qualified;
  std::string left;
  std::string enabled_col;  // INNODB_METRICS' on/off column
  Snapshot before;
  Snapshot after;
  std::string rows_inserted_name;
  // The UUID version every stored key must carry (options, else the first key's).
  std::optional<int> expected_version;
  // Every row's payload CHAR(100), as seed 000's table has it.
  const std::string payload = std::string(100, 'x');
  // options.spec_table, or nullptr for seed 000's table.
  const MeasureTable* spec = nullptr;
  // With spec: each column's literal (options.columns).
  std::optional<ColumnLiterals> literals;
  // The PK column's name (the UUID version check reads it).
  std::string pk_column = "id";
  // The server's UNIX_TIMESTAMP(NOW(6)) as the load started: when the
  // statistics' last_update fell, from the load's start.
  double load_start_unix = 0;
  MeasureResult result;

  // The options' interrupted() has fired; checked at every step boundary.
  bool Interrupted() const { return options.interrupted && options.interrupted(); }
};

absl::Status Cancelled(absl::string_view when) { return absl::CancelledError(absl::StrCat("interrupted ", when)); }

// The table kind from the options or the stream's key width; rejects what
// no table of seed 000 could hold before anything touches the server.
absl::StatusOr<TableKind> CheckArguments(const KeyStream& stream, const MeasureOptions& options) {
  if (absl::Status s = CheckIdentifier("database", options.database); !s.ok()) return s;
  if (absl::Status s = CheckIdentifier("table", options.table); !s.ok()) return s;
  if (options.rows == 0) return absl::InvalidArgumentError("rows must be at least 1");
  if (options.batch_rows == 0) return absl::InvalidArgumentError("batch size must be at least 1");
  const int width = stream.key_width();
  if (options.spec_table) {
    const TableSchema& t = options.spec_table->schema;
    if (t.pk_text && width == 16) return TableKind::kUuidChar36;  // the key's UUID text (AppendKey)
    if (static_cast<int>(t.pk_width) != width) {
      return absl::InvalidArgumentError(absl::StrCat("stream has ", width, "-byte keys but the table's primary key is ",
                                                     t.pk_width, " bytes"));
    }
    if (width == 16) return TableKind::kUuidBinary16;
    // A BINARY(N) key takes the key's bytes; an integer key its value.
    const ColumnDef& pk = t.def.columns[t.def.primary.columns[0]];
    if (absl::StartsWithIgnoreCase(pk.type, "BINARY")) return TableKind::kBinaryN;
    // An integer narrower than BIGINT (INT, SMALLINT, ...): the stream's
    // keys are its stored form (BindStreamToTable, IntegerKey).
    return width < 8 ? TableKind::kAutoincInt : TableKind::kAutoincBigint;
  }
  TableKind kind;
  if (options.kind) {
    kind = *options.kind;
  } else if (width == 16) {
    kind = TableKind::kUuidBinary16;
  } else if (width == 8) {
    kind = TableKind::kAutoincBigint;
  } else if (width == 4) {
    kind = TableKind::kAutoincInt;
  } else if (width >= 1 && width <= static_cast<int>(Key::kMaxBytes)) {
    return TableKind::kBinaryN;  // a fileN: stream: id BINARY(N)
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported key width ", width, " (the table takes 1- to ", Key::kMaxBytes, "-byte keys)"));
  }
  const bool uuid_kind = kind == TableKind::kUuidBinary16 || kind == TableKind::kUuidChar36 ||
                         kind == TableKind::kUuidVarchar36;
  const int kind_width = uuid_kind ? 16 : kind == TableKind::kAutoincInt ? 4 : 8;
  if (kind_width != width) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stream has ", width, "-byte keys but the table kind needs ",
        kind_width == 16 ? "16-byte (BINARY(16))" : kind_width == 4 ? "4-byte (INT)" : "8-byte (BIGINT)", " keys"));
  }
  return kind;
}

absl::Status CheckInnodbIsUsable(ServerConnection& conn) {
  absl::StatusOr<std::vector<ServerConnection::Row>> eng =
      conn.Query("SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE='InnoDB'");
  if (!eng.ok()) return eng.status();
  const std::string support = eng->empty() ? "" : absl::AsciiStrToUpper(eng->front()[0].value_or(""));
  if (support != "YES" && support != "DEFAULT") {
    return absl::FailedPreconditionError(
        absl::StrCat("server at ", conn.target(), " has no usable InnoDB (information_schema.ENGINES: ",
                     eng->empty() ? "no InnoDB row" : absl::StrCat("SUPPORT=", support), ")"));
  }
  return absl::OkStatus();
}

// A multi-row INSERT above max_allowed_packet would fail mid-load; refuse it
// before the table is created.
absl::Status CheckBatchFitsMaxAllowedPacket(ServerConnection& conn, uint64_t batch_rows, const MeasureTable* spec) {
  absl::StatusOr<int64_t> max_packet = conn.QueryInt("SELECT @@max_allowed_packet");
  if (!max_packet.ok()) return max_packet.status();
  // Bytes of one row's SQL text: seed 000's 160, or the spec table's columns
  // as AppendRow writes them (hex doubles a BINARY, REPEAT() keeps strings
  // short, a few bytes of punctuation each).
  int64_t row_bytes = 160;
  if (spec != nullptr) {
    row_bytes = 4;
    for (const ColumnDef& c : spec->schema.def.columns) row_bytes += 2 * static_cast<int64_t>(c.stored_bytes) + 24;
  }
  const int64_t est = static_cast<int64_t>(batch_rows) * row_bytes + 256;
  if (est > *max_packet) {
    return absl::InvalidArgumentError(absl::StrCat("a batch of ", batch_rows, " rows needs about ", est,
                                                   " bytes, above the server's max_allowed_packet (", *max_packet,
                                                   "); use a smaller batch size"));
  }
  return absl::OkStatus();
}

absl::Status CheckServer(MeasureRun& run) {
  if (absl::Status s = CheckInnodbIsUsable(run.conn); !s.ok()) return s;
  if (absl::Status s = ReadServerInfo(run.conn, &run.result); !s.ok()) return s;
  return CheckBatchFitsMaxAllowedPacket(run.conn, run.options.batch_rows, run.spec);
}

// Step 1's marker protection: a table of that name is dropped only when
// innosim created it (kOwnedTableComment); anyone else's is left untouched.
absl::Status DropOwnedTableOrRefuse(MeasureRun& run) {
  absl::StatusOr<std::vector<ServerConnection::Row>> existing = run.conn.Query(
      absl::StrCat("SELECT TABLE_TYPE, TABLE_COMMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA='",
                   run.options.database, "' AND TABLE_NAME='", run.options.table, "'"));
  if (!existing.ok()) return existing.status();
  if (existing->empty()) return absl::OkStatus();
  const auto& row = existing->front();
  const std::string type = row[0].value_or("");
  const std::string comment = row[1].value_or("");
  if (type != "BASE TABLE" || comment != kOwnedTableComment) {
    return absl::FailedPreconditionError(
        absl::StrCat(run.qualified, " already exists and was not created by innosim (no COMMENT='", kOwnedTableComment,
                     "'); it was left untouched: choose another table or database name"));
  }
  return run.conn.Execute(absl::StrCat("DROP TABLE ", run.qualified));
}

// Step 1: the database, a fresh owned table, and one transaction per INSERT.
absl::Status PrepareSchema(MeasureRun& run) {
  if (absl::Status s = run.conn.Execute(absl::StrCat("CREATE DATABASE IF NOT EXISTS `", run.options.database, "`"));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = DropOwnedTableOrRefuse(run); !s.ok()) return s;
  std::string create = CreateTableSql(run.options.database, run.options.table, run.kind, run.stream.key_width());
  if (run.spec != nullptr) {
    absl::StatusOr<std::string> owned = OwnedTableSql(run.spec->sql, run.options.database, run.options.table);
    if (!owned.ok()) return owned.status();
    create = *std::move(owned);
  }
  if (absl::Status s = run.conn.Execute(create); !s.ok()) return s;
  return run.conn.Execute("SET SESSION autocommit=1");
}

// Step 2: counters before the load. The INNODB_METRICS counters that are off
// are turned on here (a global the guard turns off again at the end).
absl::Status ReadCountersBefore(MeasureRun& run) {
  absl::StatusOr<std::string> enabled_col = MetricsEnabledColumn(run.conn);
  if (!enabled_col.ok()) return enabled_col.status();
  run.enabled_col = *enabled_col;
  if (absl::Status s =
          ReadMetrics(run.conn, run.enabled_col, &run.guard, &run.before.metrics, &run.result.missing_counters);
      !s.ok()) {
    return s;
  }
  return ReadStatus(run.conn, &run.before.status, &run.rows_inserted_name);
}

// The PK value of a row as an SQL literal: X'hex' for a BINARY(16) key,
// the UUID text for a CHAR(36)/VARCHAR(36) one, the id for an integer key
// (an INT key's stored form, big-endian with the sign bit flipped, turned
// back into its value). `version` takes the first UUID key's version nibble
// when unset (each loading thread has its own).
absl::Status AppendKey(const MeasureRun& run, const Key& key, uint64_t done, std::optional<int>* version,
                       std::string* sql) {
  if (run.kind == TableKind::kUuidChar36 || run.kind == TableKind::kUuidVarchar36) {
    const std::string text = FormatUuid(key);  // lowercase 8-4-4-4-12
    if (!*version) *version = text[14] - '0';
    absl::StrAppend(sql, "'", text, "'");
    return absl::OkStatus();
  }
  if (run.kind == TableKind::kUuidBinary16) {
    uint8_t bytes[16];
    key.ToBytes(bytes, 16);
    if (!*version) *version = bytes[6] >> 4;
    sql->append("X'");
    AppendHex(sql, bytes, 16);
    sql->append("'");
    return absl::OkStatus();
  }
  if (run.kind == TableKind::kBinaryN) {
    uint8_t bytes[Key::kMaxBytes];
    const size_t n = static_cast<size_t>(run.stream.key_width());
    key.ToBytes(bytes, n);
    sql->append("X'");
    AppendHex(sql, bytes, n);
    sql->append("'");
    return absl::OkStatus();
  }
  if (run.kind == TableKind::kAutoincInt) {
    // IntegerKey's stored form back into the value: the key's first w
    // bytes, the sign bit flipped back for a signed type, sign-extended.
    const int w = run.stream.key_width();  // 1..4
    const bool is_unsigned = run.spec != nullptr && run.spec->schema.values[run.spec->schema.def.primary.columns[0]].is_unsigned;
    const uint64_t stored = key.hi >> (64 - 8 * w);
    const uint64_t sign = uint64_t{1} << (8 * w - 1);
    const uint64_t bits = is_unsigned ? stored : stored ^ sign;
    const int64_t id = !is_unsigned && (bits & sign) != 0 ? static_cast<int64_t>(bits) - static_cast<int64_t>(sign << 1)
                                                          : static_cast<int64_t>(bits);
    if (id <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("load interrupted after ", done, " rows: key ", id,
                                                     " is not a positive INT", run.left));
    }
    absl::StrAppend(sql, id);
    return absl::OkStatus();
  }
  if (key.hi == 0 || key.hi > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return absl::InvalidArgumentError(
        absl::StrCat("load interrupted after ", done, " rows: key ", key.hi, " does not fit a positive BIGINT", run.left));
  }
  absl::StrAppend(sql, key.hi);
  return absl::OkStatus();
}

// One row of a spec table: the key, then each other column's literal
// (MeasureOptions::columns, tools/column_literals.h).
absl::Status AppendSpecRow(const MeasureRun& run, const Key& key, uint64_t done, uint64_t row_index,
                           std::optional<int>* version, std::string* sql) {
  const TableSchema& t = run.spec->schema;
  const uint32_t pk = t.def.primary.columns[0];
  std::string pk_literal;
  if (absl::Status s = AppendKey(run, key, done, version, &pk_literal); !s.ok()) return s;
  sql->push_back('(');
  for (uint32_t c = 0; c < t.def.columns.size(); ++c) {
    if (c) sql->push_back(',');
    if (c == pk) {
      sql->append(pk_literal);
    } else {
      run.literals->Append(c, row_index, pk_literal, sql);
    }
  }
  sql->push_back(')');
  return absl::OkStatus();
}

// One row of the multi-row INSERT: (X'hex' | 'text' | id,) 'payload', created.
absl::Status AppendRow(const MeasureRun& run, const Key& key, uint64_t done, uint64_t row_index,
                       std::optional<int>* version, std::string* sql) {
  if (run.spec != nullptr) return AppendSpecRow(run, key, done, row_index, version, sql);
  sql->push_back('(');
  // An integer key goes in only with explicit ids (else the server assigns it).
  const bool given = run.kind == TableKind::kUuidBinary16 || run.kind == TableKind::kUuidChar36 ||
                     run.kind == TableKind::kUuidVarchar36 || run.kind == TableKind::kBinaryN;
  if (given || run.options.autoinc_explicit_ids) {
    if (absl::Status s = AppendKey(run, key, done, version, sql); !s.ok()) return s;
    sql->push_back(',');
  }
  absl::StrAppend(sql, "'", run.payload, "',", row_index, ")");
  return absl::OkStatus();
}

// The global status values of one ServerSample, as the server reports them
// (absolute, not yet relative to the load's start).
constexpr const char* kSampleStatusNames[] = {"Innodb_lsn_current", "Innodb_checkpoint_age",
                                              "Innodb_buffer_pool_pages_dirty", "Innodb_pages_written",
                                              "Innodb_buffer_pool_reads"};

absl::StatusOr<ServerSample> ReadSample(ServerConnection& conn) {
  absl::StatusOr<std::map<std::string, std::string>> m =
      conn.QueryMap(absl::StrCat("SHOW GLOBAL STATUS WHERE Variable_name IN ", InList(kSampleStatusNames)));
  if (!m.ok()) return m.status();
  auto value = [&m](const char* name) -> std::optional<int64_t> {
    auto it = m->find(name);
    int64_t v = 0;
    if (it == m->end() || !ToInt(it->second, &v)) return std::nullopt;
    return v;
  };
  ServerSample x;
  x.lsn = value("Innodb_lsn_current");
  x.checkpoint_age = value("Innodb_checkpoint_age");
  for (auto [name, field] : {std::pair{"Innodb_buffer_pool_pages_dirty", &x.dirty_pages},
                             std::pair{"Innodb_pages_written", &x.pages_written},
                             std::pair{"Innodb_buffer_pool_reads", &x.buffer_pool_reads}}) {
    const std::optional<int64_t> v = value(name);
    if (!v) return absl::FailedPreconditionError(absl::StrCat("server does not report global status ", name));
    *field = *v;
  }
  return x;
}

// Appends a sample taken after `rows` rows, `seconds` into the load, with
// the cumulative counters relative to `base` (read before the first INSERT).
absl::Status AppendSample(MeasureRun& run, const ServerSample& base, uint64_t rows, double seconds) {
  absl::StatusOr<ServerSample> x = ReadSample(run.conn);
  if (!x.ok()) {
    return Prefix(x.status(), absl::StrCat("reading the time series after ", rows, " rows", run.left, ": "));
  }
  x->rows = rows;
  x->seconds = seconds;
  if (x->lsn && base.lsn) *x->lsn -= *base.lsn;
  x->pages_written -= base.pages_written;
  x->buffer_pool_reads -= base.buffer_pool_reads;
  run.result.samples.push_back(*x);
  return absl::OkStatus();
}

// The INSERT statement's head: INSERT INTO t (columns) VALUES.
std::string InsertHead(const MeasureRun& run) {
  if (run.spec != nullptr) {
    std::vector<std::string> names;
    for (const ColumnDef& c : run.spec->schema.def.columns) names.push_back(absl::StrCat("`", c.name, "`"));
    return absl::StrCat("INSERT INTO ", run.qualified, " (", absl::StrJoin(names, ","), ") VALUES ");
  }
  return absl::StrCat("INSERT INTO ", run.qualified,
                      (run.kind == TableKind::kAutoincBigint || run.kind == TableKind::kAutoincInt) &&
                              !run.options.autoinc_explicit_ids
                          ? " (payload, created) VALUES "
                          : " (id, payload, created) VALUES ");
}

// `rows` keys of `stream` into the table over `conn` in multi-row INSERTs of
// batch_rows rows, each its own transaction (autocommit); the first row is
// the table's row `base` (its row index, sim/secondary_keys.h). stop() is
// asked before each INSERT (true: kCancelled), after_batch(done) told after
// each committed one. Reads `run` only, so that one thread per writer can
// run it over a connection of its own.
absl::Status InsertKeys(const MeasureRun& run, ServerConnection& conn, KeyStream& stream, uint64_t rows,
                        uint64_t base, std::optional<int>* version, const std::function<bool()>& stop,
                        const std::function<absl::Status(uint64_t done)>& after_batch) {
  const std::string insert_head = InsertHead(run);
  const uint64_t batch_rows = run.options.batch_rows;
  std::string sql;
  sql.reserve(insert_head.size() + batch_rows * 200);
  uint64_t done = 0;
  while (done < rows) {
    if (stop()) return Cancelled(absl::StrCat("while loading, after ", done, " of ", rows, " rows", run.left));
    const uint64_t n = std::min<uint64_t>(batch_rows, rows - done);
    sql.assign(insert_head);
    for (uint64_t i = 0; i < n; ++i) {
      Key key;
      if (!stream.Next(&key)) {
        absl::Status st = stream.status();
        return absl::FailedPreconditionError(
            absl::StrCat("load interrupted after ", done, " of ", rows, " rows: the key stream ended after ",
                         done + i, " keys", st.ok() ? "" : absl::StrCat(" (", st.message(), ")"), run.left));
      }
      if (i) sql.push_back(',');
      if (absl::Status s = AppendRow(run, key, done, base + done + i, version, &sql); !s.ok()) return s;
    }
    absl::Status s = conn.Execute(sql);
    if (!s.ok()) return Prefix(s, absl::StrCat("load interrupted after ", done, " of ", rows, " rows", run.left, ": "));
    done += n;
    if (absl::Status s = after_batch(done); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// The time series of step 3: the base read before the first INSERT, then a
// sample between INSERTs each time a period has passed (a period missed
// while an INSERT ran is skipped, not read twice).
class LoadSampler {
 public:
  explicit LoadSampler(MeasureRun& run)
      : run_(run),
        on_(run.options.sample_every_s > 0),
        // At least one clock tick, so that the catch-up loop below always ends.
        period_(std::max(Clock::duration(1), std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(run.options.sample_every_s)))) {}

  absl::Status Start() {
    start_ = Clock::now();
    next_ = start_ + period_;
    if (!on_) return absl::OkStatus();
    absl::StatusOr<ServerSample> b = ReadSample(run_.conn);
    if (!b.ok()) return Prefix(b.status(), "reading the time series before the load: ");
    base_ = *b;
    start_ = Clock::now();
    next_ = start_ + period_;
    ServerSample first = base_;  // rows 0: the cumulative counters start at 0
    if (first.lsn) first.lsn = 0;
    first.pages_written = 0;
    first.buffer_pool_reads = 0;
    run_.result.samples.push_back(first);
    return absl::OkStatus();
  }

  // Between INSERTs, `done` rows committed (none after the last).
  absl::Status Between(uint64_t done) {
    if (!on_ || done >= run_.options.rows) return absl::OkStatus();
    const auto now = Clock::now();
    if (now < next_) return absl::OkStatus();
    if (absl::Status s = AppendSample(run_, base_, done, Seconds(now - start_)); !s.ok()) return s;
    while (next_ <= now) next_ += period_;
    return absl::OkStatus();
  }

  double elapsed_s() const { return Seconds(Clock::now() - start_); }

 private:
  MeasureRun& run_;
  const bool on_;
  const Clock::duration period_;
  ServerSample base_;
  Clock::time_point start_;
  Clock::time_point next_;
};

// Several writers at once: writer w's writers.rows[w] keys over a
// connection of its own (options.connect), one thread each, its rows the
// table's rows from base + the rows of the writers before it. The calling
// thread keeps the measuring connection: it reports progress, takes the
// time series' samples and watches for an interrupt, which stops every
// writer before its next INSERT. The first error (of the writer that
// failed, not of those it stopped) is returned.
absl::Status LoadByWriters(MeasureRun& run, const WriterKeys& writers, uint64_t rows, uint64_t base,
                           LoadSampler* sampler) {
  const size_t n = writers.streams.size();
  if (writers.rows.size() != n || !run.options.connect) {
    return absl::InvalidArgumentError("several writers need one row count each and a way to connect");
  }
  std::vector<std::unique_ptr<ServerConnection>> conns;
  for (size_t w = 0; w < n; ++w) {
    absl::StatusOr<std::unique_ptr<ServerConnection>> c = run.options.connect();
    if (!c.ok()) return Prefix(c.status(), absl::StrCat("connecting writer ", w, ": "));
    if (absl::Status s = (*c)->Execute("SET SESSION autocommit=1"); !s.ok()) return s;
    conns.push_back(*std::move(c));
  }
  std::atomic<uint64_t> done_total{0};
  std::atomic<bool> stop{false};
  std::atomic<size_t> finished{0};
  std::vector<absl::Status> status(n);
  std::vector<std::optional<int>> versions(n, run.expected_version);
  std::vector<std::thread> threads;
  uint64_t first_row = base;
  for (size_t w = 0; w < n; ++w) {
    threads.emplace_back([&, w, first_row] {
      uint64_t last = 0;
      status[w] = InsertKeys(
          run, *conns[w], *writers.streams[w], writers.rows[w], first_row, &versions[w],
          [&stop] { return stop.load(); },
          [&done_total, &last](uint64_t done) {
            done_total += done - last;
            last = done;
            return absl::OkStatus();
          });
      if (!status[w].ok()) stop = true;
      ++finished;
    });
    first_row += writers.rows[w];
  }
  absl::Status watch;
  while (finished.load() < n) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const uint64_t done = done_total.load();
    if (run.options.progress) run.options.progress(done);
    if (watch.ok() && sampler != nullptr) watch = sampler->Between(done);
    if (!watch.ok() || run.Interrupted()) stop = true;
  }
  for (std::thread& t : threads) t.join();
  if (!run.expected_version) run.expected_version = versions[0];
  for (const absl::Status& s : status) {
    if (!s.ok() && s.code() != absl::StatusCode::kCancelled) return s;
  }
  if (!watch.ok()) return watch;
  if (run.Interrupted()) {
    return Cancelled(absl::StrCat("while loading, after ", done_total.load(), " of ", rows, " rows", run.left));
  }
  for (const absl::Status& s : status) {
    if (!s.ok()) return s;
  }
  if (run.options.progress) run.options.progress(done_total.load());
  run.result.connections = static_cast<int>(n);
  return absl::OkStatus();
}

// Step 3: options.rows rows in multi-row INSERTs of options.batch_rows rows,
// each its own transaction (autocommit), as seed 000 loaded them; with
// options.writers, one connection per writer, all at once.
absl::Status LoadRowsInMultiRowInserts(MeasureRun& run) {
  const MeasureOptions& options = run.options;
  run.expected_version = options.uuid_version;
  LoadSampler sampler(run);
  if (absl::Status s = sampler.Start(); !s.ok()) return s;
  if (!options.writers.streams.empty()) {
    if (absl::Status s = LoadByWriters(run, options.writers, options.rows, 0, &sampler); !s.ok()) return s;
  } else {
    absl::Status s = InsertKeys(
        run, run.conn, run.stream, options.rows, 0, &run.expected_version, [&run] { return run.Interrupted(); },
        [&](uint64_t done) {
          if (options.progress) options.progress(done);
          return sampler.Between(done);
        });
    if (!s.ok()) return s;
  }
  run.result.measured.elapsed_s = sampler.elapsed_s();
  run.result.measured.rows = static_cast<int64_t>(options.rows);
  return absl::OkStatus();
}

// Step 4's boost: raises innodb_io_capacity(_max) and sets
// innodb_max_dirty_pages_pct(_lwm) to 0 through the guard, so the wait takes
// seconds, not minutes; it changes when pages are written, not which. A
// server that refuses is measured unboosted (a note says so).
// `note`: say so in the result's notes (once: the final flush's).
void BoostFinalFlush(MeasureRun& run, size_t before_boost, bool note = true) {
  const std::string cap = absl::StrCat(run.options.final_flush_io_capacity);
  // innodb_io_capacity may not exceed innodb_io_capacity_max: raise the
  // maximum first, or lower the capacity first.
  absl::StatusOr<int64_t> io_now = run.conn.QueryInt("SELECT @@GLOBAL.innodb_io_capacity");
  const bool lowering = io_now.ok() && *io_now > static_cast<int64_t>(run.options.final_flush_io_capacity);
  absl::Status s = io_now.status();
  if (s.ok()) s = run.guard.Set(lowering ? "innodb_io_capacity" : "innodb_io_capacity_max", cap);
  if (s.ok()) s = run.guard.Set(lowering ? "innodb_io_capacity_max" : "innodb_io_capacity", cap);
  if (s.ok()) s = run.guard.Set("innodb_max_dirty_pages_pct_lwm", "0");
  if (s.ok()) s = run.guard.Set("innodb_max_dirty_pages_pct", "0");
  if (!s.ok()) {
    (void)run.guard.Restore(before_boost);
    run.result.notes.push_back(absl::StrCat(note ? "final flush" : "checkpoint", " not boosted: ", s.message()));
  } else if (note) {
    run.result.notes.push_back(absl::StrCat("final flush boosted: innodb_io_capacity(_max)=", cap,
                                            ", innodb_max_dirty_pages_pct(_lwm)=0 until dirty pages reached 0, "
                                            "then restored"));
  }
}

// Polls Innodb_buffer_pool_pages_dirty every 100 ms until it is 0.
absl::Status PollUntilNoDirtyPages(MeasureRun& run, Clock::time_point flush_start) {
  const auto deadline = flush_start + std::chrono::seconds(run.options.flush_timeout_s);
  while (true) {
    absl::StatusOr<int64_t> dirty = DirtyPages(run.conn);
    if (!dirty.ok()) return Prefix(dirty.status(), absl::StrCat("waiting for the flush", run.left, ": "));
    if (*dirty == 0) return absl::OkStatus();
    if (run.Interrupted()) {
      return Cancelled(absl::StrCat("while waiting for the final flush (", *dirty, " dirty pages left)", run.left));
    }
    if (Clock::now() > deadline) {
      return absl::DeadlineExceededError(absl::StrCat("dirty pages did not reach 0 within ",
                                                      run.options.flush_timeout_s, " s (", *dirty,
                                                      " left; raise innodb_io_capacity or the timeout)", run.left));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// Step 4: every page the load dirtied is on disk before the counters (and
// the .ibd file) are read; the boost is put back right after.
absl::Status WaitForZeroDirtyPages(MeasureRun& run) {
  const auto flush_start = Clock::now();
  const size_t before_boost = run.guard.mark();
  if (run.options.boost_final_flush) BoostFinalFlush(run, before_boost);
  if (absl::Status s = PollUntilNoDirtyPages(run, flush_start); !s.ok()) return s;
  // A failure to put a value back is reported by Measure() at the end.
  (void)run.guard.Restore(before_boost);
  if (run.Interrupted()) return Cancelled(absl::StrCat("after the final flush", run.left));
  run.result.measured.flush_wait_s = Seconds(Clock::now() - flush_start);
  return absl::OkStatus();
}

// The counters' deltas from `before` to `after` (step 5, and each phase).
void CounterDeltas(const Snapshot& before, const Snapshot& after, MeasuredCounters* out) {
  MeasuredCounters& m = *out;
  auto metric_delta = [&](const InnodbCounter& counter) -> std::optional<int64_t> {
    auto b = before.metrics.find(counter.server_name);
    auto a = after.metrics.find(counter.server_name);
    if (b == before.metrics.end() || a == after.metrics.end()) return std::nullopt;
    return a->second - b->second;
  };
  auto status_delta = [&](const std::string& name) -> int64_t {
    auto b = before.status.find(name);
    auto a = after.status.find(name);
    return (a == after.status.end() ? 0 : a->second) - (b == before.status.end() ? 0 : b->second);
  };
  m.index_page_splits = metric_delta(counters::kIndexPageSplits);
  m.index_page_reorg_attempts = metric_delta(counters::kIndexPageReorgAttempts);
  m.index_page_reorg_successful = metric_delta(counters::kIndexPageReorgSuccessful);
  m.index_page_merge_attempts = metric_delta(counters::kIndexPageMergeAttempts);
  m.index_page_merge_successful = metric_delta(counters::kIndexPageMergeSuccessful);
  m.Innodb_pages_written = status_delta(counters::kInnodbPagesWritten.server_name);
  m.Innodb_buffer_pool_reads = status_delta(counters::kInnodbBufferPoolReads.server_name);
  m.Innodb_dblwr_pages_written = status_delta(counters::kInnodbDblwrPagesWritten.server_name);
  m.buffer_page_read_system_page = metric_delta(counters::kBufferPageReadSystemPage);
  m.buffer_page_read_undo_log = metric_delta(counters::kBufferPageReadUndoLog);
  m.buffer_page_written_system_page = metric_delta(counters::kBufferPageWrittenSystemPage);
  m.buffer_page_written_undo_log = metric_delta(counters::kBufferPageWrittenUndoLog);
  if (before.status.count(kReadAheadStatus) != 0 && after.status.count(kReadAheadStatus) != 0) {
    m.Innodb_buffer_pool_read_ahead = status_delta(kReadAheadStatus);
  }
  m.rows_inserted = status_delta("rows_inserted");
}

// Every counter of a Snapshot, now.
absl::Status ReadSnapshot(MeasureRun& run, Snapshot* out) {
  if (absl::Status s = ReadMetrics(run.conn, run.enabled_col, /*enable=*/nullptr, &out->metrics, nullptr); !s.ok()) {
    return s;
  }
  return ReadStatus(run.conn, &out->status, &run.rows_inserted_name);
}

// Step 5: counters after the flush, as deltas over the run.
absl::Status ReadCountersAfter(MeasureRun& run) {
  if (absl::Status s = ReadSnapshot(run, &run.after); !s.ok()) return s;
  run.result.measured.rows_inserted_counter = run.rows_inserted_name;
  CounterDeltas(run.before, run.after, &run.result.measured);
  return absl::OkStatus();
}

// Step 3's start on the server's clock (MeasureRun::load_start_unix).
absl::Status ReadLoadStart(MeasureRun& run) {
  absl::StatusOr<std::vector<ServerConnection::Row>> t = run.conn.Query("SELECT UNIX_TIMESTAMP(NOW(6))");
  if (!t.ok()) return t.status();
  if (t->empty() || !t->front()[0] || !absl::SimpleAtod(*t->front()[0], &run.load_start_unix)) {
    return absl::InternalError("SELECT UNIX_TIMESTAMP(NOW(6)) returned no number");
  }
  return absl::OkStatus();
}

// Step 5, before ANALYZE TABLE rewrites it: mysql.innodb_table_stats' row
// of the table as the background recalculation (dict_stats_save) left it.
// No row (innodb_stats_persistent off, or STATS_PERSISTENT=0) leaves both
// figures unset.
absl::Status ReadTableStats(MeasureRun& run, MeasuredCounters& m) {
  absl::StatusOr<std::vector<ServerConnection::Row>> t = run.conn.Query(
      absl::StrCat("SELECT n_rows, UNIX_TIMESTAMP(last_update) FROM mysql.innodb_table_stats WHERE database_name='",
                   run.options.database, "' AND table_name='", run.options.table, "'"));
  if (!t.ok()) return t.status();
  if (t->empty()) return absl::OkStatus();
  int64_t n_rows = 0;
  double last_update = 0;
  if (!ToInt(t->front()[0].value_or(""), &n_rows) || !absl::SimpleAtod(t->front()[1].value_or(""), &last_update)) {
    return absl::InternalError(absl::StrCat("mysql.innodb_table_stats' row of ", run.qualified,
                                            " has no n_rows or last_update"));
  }
  m.stats_n_rows = n_rows;
  // last_update is a TIMESTAMP in whole seconds: counted from the second
  // the load started in, so that a save in that second is 0, not negative.
  m.stats_last_update_s = last_update - std::floor(run.load_start_unix);
  return absl::OkStatus();
}

// Step 5: ANALYZE TABLE recomputes mysql.innodb_index_stats and
// information_schema.TABLES from the index as it now is.
absl::Status AnalyzeTable(MeasureRun& run) {
  absl::StatusOr<std::vector<ServerConnection::Row>> an = run.conn.Query(absl::StrCat("ANALYZE TABLE ", run.qualified));
  if (!an.ok()) return an.status();
  for (const auto& r : *an) {
    if (r.size() >= 4 && absl::AsciiStrToLower(r[2].value_or("")) == "error") {
      return absl::InternalError(absl::StrCat("ANALYZE TABLE ", run.qualified, " failed: ", r[3].value_or("")));
    }
  }
  return absl::OkStatus();
}

// Step 5: DATA_LENGTH/INDEX_LENGTH from information_schema.TABLES.
absl::Status ReadTableSizes(MeasureRun& run, MeasuredCounters& m) {
  if (!run.conn.is_mariadb()) {
    // MySQL 8 caches information_schema.TABLES statistics for a day by default.
    if (absl::Status s = run.conn.Execute("SET SESSION information_schema_stats_expiry=0"); !s.ok()) {
      run.result.notes.push_back(absl::StrCat("information_schema_stats_expiry not set: ", s.message()));
    }
  }
  absl::StatusOr<std::vector<ServerConnection::Row>> t = run.conn.Query(
      absl::StrCat("SELECT ", counters::kDataLength.server_name, ", ", counters::kIndexLength.server_name,
                   " FROM information_schema.TABLES WHERE TABLE_SCHEMA='", run.options.database, "' AND TABLE_NAME='",
                   run.options.table, "'"));
  if (!t.ok()) return t.status();
  if (t->empty() || !ToInt(t->front()[0].value_or(""), &m.data_length) ||
      !ToInt(t->front()[1].value_or(""), &m.index_length)) {
    return absl::InternalError(absl::StrCat("no sizes for ", run.qualified, " in information_schema.TABLES"));
  }
  return absl::OkStatus();
}

// Step 5: size and n_leaf_pages of PRIMARY from mysql.innodb_index_stats.
absl::Status ReadIndexStats(MeasureRun& run, MeasuredCounters& m) {
  absl::StatusOr<std::map<std::string, std::string>> st = run.conn.QueryMap(
      absl::StrCat("SELECT stat_name, stat_value FROM mysql.innodb_index_stats WHERE database_name='",
                   run.options.database, "' AND table_name='", run.options.table,
                   "' AND index_name='PRIMARY' AND stat_name IN ", InList(ServerNames(CounterSource::kIndexStats))));
  if (!st.ok()) return st.status();
  if (!ToInt((*st)[counters::kSize.server_name], &m.size) ||
      !ToInt((*st)[counters::kNLeafPages.server_name], &m.n_leaf_pages)) {
    return absl::InternalError(absl::StrCat("mysql.innodb_index_stats has no size/n_leaf_pages for PRIMARY of ",
                                            run.qualified, " (is innodb_stats_persistent off?)"));
  }
  return absl::OkStatus();
}

void AddCheck(MeasureResult& result, std::string name, bool pass, std::string detail) {
  result.sanity.push_back({std::move(name), pass, std::move(detail)});
}

// Sanity: seed 000's fixed settings (and the buffer pool, when asked) as the
// server reports them now, so that a run on a misconfigured server is
// marked invalid instead of compared.
absl::Status CheckSettingsReadBack(MeasureRun& run) {
  const MeasureOptions& options = run.options;
  std::string in = "(";
  for (const auto& [name, value] : options.expected_settings) {
    if (!ValidIdentifier(name)) return absl::InvalidArgumentError(absl::StrCat("bad setting name '", name, "'"));
    absl::StrAppend(&in, in.size() > 1 ? "," : "", "'", name, "'");
  }
  absl::StrAppend(&in, in.size() > 1 ? "," : "", "'innodb_buffer_pool_size')");
  absl::StatusOr<std::map<std::string, std::string>> vars =
      run.conn.QueryMap(absl::StrCat("SHOW GLOBAL VARIABLES WHERE Variable_name IN ", in));
  if (!vars.ok()) return vars.status();
  for (const auto& [name, want] : options.expected_settings) {
    auto it = vars->find(name);
    if (it == vars->end()) {
      AddCheck(run.result, "setting:" + name, false,
               absl::StrCat("server has no variable ", name, " (expected ", want, ")"));
    } else {
      const bool ok = NormalizeSetting(it->second) == NormalizeSetting(want);
      AddCheck(run.result, "setting:" + name, ok,
               ok ? it->second : absl::StrCat(name, "=", it->second, ", expected ", want));
    }
  }
  if (options.expected_buffer_pool_bytes) {
    const std::string got = (*vars)["innodb_buffer_pool_size"];
    const std::string want = absl::StrCat(*options.expected_buffer_pool_bytes);
    AddCheck(run.result, "setting:innodb_buffer_pool_size", got == want,
             got == want ? got : absl::StrCat("innodb_buffer_pool_size=", got, ", expected ", want));
  }
  return absl::OkStatus();
}

// Sanity: every stored key carries the stream's UUID version nibble (a
// server that rewrote or mangled the keys stored another stream).
absl::Status CheckUuidVersion(MeasureRun& run) {
  const bool text = run.kind == TableKind::kUuidChar36 || run.kind == TableKind::kUuidVarchar36;
  if (run.kind != TableKind::kUuidBinary16 && !text) return absl::OkStatus();
  if (!run.options.uuid_version_check) {
    run.result.notes.push_back(
        "uuid_version not checked: the stream's keys carry no RFC 9562 version nibble in their 7th byte");
    return absl::OkStatus();
  }
  const int v = run.expected_version.value_or(4);
  absl::StatusOr<int64_t> bad = run.conn.QueryInt(
      text ? absl::StrCat("SELECT COUNT(*) FROM ", run.qualified, " WHERE SUBSTR(`", run.pk_column, "`,15,1) <> '", v,
                          "'")
           : absl::StrCat("SELECT COUNT(*) FROM ", run.qualified, " WHERE (ASCII(SUBSTR(`", run.pk_column,
                          "`,7,1)) >> 4) <> ", v));
  if (!bad.ok()) return bad.status();
  AddCheck(run.result, "uuid_version", *bad == 0,
           *bad == 0 ? absl::StrCat("all rows version ", v) : absl::StrCat(*bad, " rows without version nibble ", v));
  return absl::OkStatus();
}

absl::Status CheckRowCount(MeasureRun& run) {
  absl::StatusOr<int64_t> count = run.conn.QueryInt(absl::StrCat("SELECT COUNT(*) FROM ", run.qualified));
  if (!count.ok()) return count.status();
  const int64_t loaded = run.result.measured.rows;
  AddCheck(run.result, "row_count", *count == loaded, absl::StrCat("COUNT(*)=", *count, ", loaded ", loaded));
  return absl::OkStatus();
}

// Sanity: a table that fits the buffer pool is loaded without reads (a few
// system pages of a cold pool aside); more means something else evicted it.
void CheckBufferPoolReads(MeasureRun& run) {
  MeasureResult& result = run.result;
  const MeasuredCounters& m = result.measured;
  int64_t pool = 0;
  ToInt(result.variables["innodb_buffer_pool_size"], &pool);
  const int64_t table_bytes = m.data_length + m.index_length;
  if (table_bytes <= pool) {
    const int64_t max_reads = run.options.max_buffer_pool_reads;
    const bool ok = m.Innodb_buffer_pool_reads <= max_reads;
    AddCheck(result, "buffer_pool_reads", ok,
             absl::StrCat("Innodb_buffer_pool_reads moved by ", m.Innodb_buffer_pool_reads,
                          ok ? "" : absl::StrCat(", more than ", max_reads), " (table ", table_bytes,
                          " bytes fits the ", pool, "-byte buffer pool)"));
  } else {
    AddCheck(result, "buffer_pool_reads", true,
             absl::StrCat("not applicable: table ", table_bytes, " bytes exceeds the ", pool, "-byte buffer pool (",
                          m.Innodb_buffer_pool_reads, " reads)"));
  }
}

void CheckNoDoublewritePages(MeasureResult& result) {
  const MeasuredCounters& m = result.measured;
  const std::string dw = NormalizeSetting(result.variables["innodb_doublewrite"]);
  if (dw == "OFF") {
    AddCheck(result, "doublewrite_pages", m.Innodb_dblwr_pages_written == 0,
             absl::StrCat("Innodb_dblwr_pages_written moved by ", m.Innodb_dblwr_pages_written,
                          " with innodb_doublewrite=OFF"));
  } else {
    AddCheck(result, "doublewrite_pages", true,
             absl::StrCat("not applicable: innodb_doublewrite=", result.variables["innodb_doublewrite"]));
  }
}

// Sanity: the server wrote exactly the rows of this load, so the counters
// (global, not per table) are this load's alone.
void CheckNoOtherWriter(MeasureResult& result) {
  const MeasuredCounters& m = result.measured;
  AddCheck(result, "no_other_writer", m.rows_inserted == m.rows,
           absl::StrCat(m.rows_inserted_counter, " moved by ", m.rows_inserted, ", loaded ", m.rows));
}

// Step 6: the sanity checks; `valid` when all pass.
absl::Status RunSanityChecks(MeasureRun& run) {
  if (absl::Status s = CheckSettingsReadBack(run); !s.ok()) return s;
  if (absl::Status s = CheckUuidVersion(run); !s.ok()) return s;
  if (absl::Status s = CheckRowCount(run); !s.ok()) return s;
  CheckBufferPoolReads(run);
  CheckNoDoublewritePages(run.result);
  CheckNoOtherWriter(run.result);
  run.result.valid = true;
  for (const SanityCheck& c : run.result.sanity) run.result.valid = run.result.valid && c.pass;
  return absl::OkStatus();
}

absl::Status DeleteDoomedAndPurge(MeasureRun& run, const std::string& pk, const std::string& doomed);

// The session's temporary MEMORY table `doomed` of PK values, created by
// `select` (a SELECT of the PK column). A MEMORY table holds at most
// max_heap_table_size bytes (16 MiB by default): room is made for
// `doomed_rows` keys (at most 64 bytes a row).
absl::Status CreateDoomedTable(MeasureRun& run, const std::string& pk, const std::string& doomed, uint64_t doomed_rows,
                               const std::string& select) {
  const uint64_t heap = std::max<uint64_t>(16ull << 20, (doomed_rows + 1) * 256 + (16ull << 20));
  for (const std::string& sql :
       {absl::StrCat("SET SESSION max_heap_table_size=", heap), absl::StrCat("DROP TEMPORARY TABLE IF EXISTS ", doomed),
        absl::StrCat("CREATE TEMPORARY TABLE ", doomed, " (PRIMARY KEY (", pk, ")) ENGINE=MEMORY AS ", select)}) {
    if (absl::Status s = run.conn.Execute(sql); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A phase's DELETE of the rows whose rank in key order (innosim_rn, from 1)
// satisfies `rank_condition`, chosen by a scan of PRIMARY (ROW_NUMBER() OVER
// (ORDER BY pk)) into a temporary MEMORY table, which touches no InnoDB
// page, then deleted by one statement in key order (one transaction, as the
// simulation's: sim/runner.cc), then purged: SET GLOBAL
// innodb_max_purge_lag_wait=0 returns once the history list is empty
// (MariaDB 10.5+, ha_innodb.cc innodb_max_purge_lag_wait_update), and is
// put back right after. `doomed_rows`: how many rows at most.
absl::Status DeleteByRank(MeasureRun& run, const std::string& rank_condition, uint64_t doomed_rows) {
  const std::string pk = absl::StrCat("`", run.pk_column, "`");
  const std::string doomed = Qualified(run.options.database, "innosim_doomed");
  if (absl::Status s = CreateDoomedTable(run, pk, doomed, doomed_rows,
                                         absl::StrCat("SELECT ", pk, " FROM (SELECT ", pk, ", ROW_NUMBER() OVER (ORDER BY ",
                                                      pk, ") AS innosim_rn FROM ", run.qualified, ") x WHERE ",
                                                      rank_condition));
      !s.ok()) {
    return s;
  }
  return DeleteDoomedAndPurge(run, pk, doomed);
}

// The DELETE of the rows whose keys are in `doomed`, in key order (one
// transaction), the temporary table dropped, then the wait for purge.
absl::Status DeleteDoomedAndPurge(MeasureRun& run, const std::string& pk, const std::string& doomed) {
  for (const std::string& sql :
       {absl::StrCat("DELETE FROM ", run.qualified, " WHERE ", pk, " IN (SELECT ", pk, " FROM ", doomed, ") ORDER BY ",
                     pk),
        absl::StrCat("DROP TEMPORARY TABLE ", doomed)}) {
    if (absl::Status s = run.conn.Execute(sql); !s.ok()) return s;
  }
  const size_t mark = run.guard.mark();
  if (absl::Status s = run.guard.Set("innodb_max_purge_lag_wait", "0"); !s.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("waiting for purge after the DELETE: the server refused SET GLOBAL innodb_max_purge_lag_wait=0 (",
                     s.message(), "); measure --phase delete needs MariaDB 10.5 or later", run.left));
  }
  return run.guard.Restore(mark);
}

// delete:phase:N: the rows phase N inserted (`keys`, made again from its
// stream): a DELETE ... WHERE id IN (those keys), scanning PRIMARY in key
// order, then purged. The keys go into a temporary MEMORY table with the
// table's own PK column type (CREATE ... AS SELECT ... LIMIT 0), 1000 a
// statement; rows an earlier delete took are simply not found.
absl::Status DeletePhaseKeys(MeasureRun& run, KeyStream& keys, uint64_t rows) {
  const std::string pk = absl::StrCat("`", run.pk_column, "`");
  const std::string doomed = Qualified(run.options.database, "innosim_doomed");
  if (absl::Status s =
          CreateDoomedTable(run, pk, doomed, rows, absl::StrCat("SELECT ", pk, " FROM ", run.qualified, " LIMIT 0"));
      !s.ok()) {
    return s;
  }
  std::optional<int> version;
  std::string sql;
  for (uint64_t done = 0; done < rows;) {
    const uint64_t n = std::min<uint64_t>(1000, rows - done);
    sql = absl::StrCat("INSERT IGNORE INTO ", doomed, " (", pk, ") VALUES ");
    for (uint64_t i = 0; i < n; ++i) {
      Key k;
      if (!keys.Next(&k)) {
        return absl::InternalError(absl::StrCat("the stream of phase keys ended after ", done + i, " of ", rows,
                                                " keys", run.left));
      }
      sql.append(i ? ",(" : "(");
      if (absl::Status s = AppendKey(run, k, done + i, &version, &sql); !s.ok()) return s;
      sql.push_back(')');
    }
    if (absl::Status s = run.conn.Execute(sql); !s.ok()) return s;
    done += n;
  }
  return DeleteDoomedAndPurge(run, pk, doomed);
}

// delete:every:K: the K-th, 2K-th, ... row in key order.
absl::Status DeleteEveryKth(MeasureRun& run, uint64_t every, uint64_t table_rows) {
  return DeleteByRank(run, absl::StrCat("innosim_rn % ", every, " = 0"), table_rows / every);
}

// delete:range:FROM:TO: the rows ranked [first, last) from 0 in key order,
// as the simulation ranks them (DeleteRangeRanks over the table's rows):
// a DELETE ... WHERE id >= A AND id < B.
absl::Status DeleteRange(MeasureRun& run, const PhaseSpec& phase, uint64_t table_rows) {
  uint64_t first = 0;
  uint64_t last = 0;
  DeleteRangeRanks(phase, table_rows, &first, &last);
  return DeleteByRank(run, absl::StrCat("innosim_rn > ", first, " AND innosim_rn <= ", last), last - first);
}

// A phase's OPTIMIZE TABLE (InnoDB: "Table does not support optimize, doing
// recreate + analyze instead", i.e. ALTER TABLE ... FORCE).
absl::Status OptimizeTable(MeasureRun& run) {
  absl::StatusOr<std::vector<ServerConnection::Row>> r = run.conn.Query(absl::StrCat("OPTIMIZE TABLE ", run.qualified));
  if (!r.ok()) return r.status();
  for (const auto& row : *r) {
    if (row.size() >= 4 && absl::AsciiStrToLower(row[2].value_or("")) == "error") {
      return absl::InternalError(absl::StrCat("OPTIMIZE TABLE ", run.qualified, " failed: ", row[3].value_or(""),
                                              run.left));
    }
  }
  return absl::OkStatus();
}

// A phase's checkpoint: every dirty page written, as step 4 does (the same
// boost, put back as soon as Innodb_buffer_pool_pages_dirty is 0).
absl::Status Checkpoint(MeasureRun& run) {
  const auto start = Clock::now();
  const size_t mark = run.guard.mark();
  BoostFinalFlush(run, mark, /*note=*/false);
  if (absl::Status s = PollUntilNoDirtyPages(run, start); !s.ok()) return s;
  return run.guard.Restore(mark);
}

// The phases after the first load (MeasureOptions::phases): each run as the
// server runs it, then its counters, ANALYZE TABLE and the sizes.
// `load_dirty_pages`: Innodb_buffer_pool_pages_dirty after the first load.
absl::Status RunPhases(MeasureRun& run, int64_t load_dirty_pages) {
  PhaseMeasurement first;
  first.phase = "load";
  first.measured = run.result.measured;
  first.table_rows = run.result.measured.rows;
  first.dirty_pages = load_dirty_pages;
  run.result.phases.push_back(std::move(first));
  uint64_t inserted = run.options.rows;  // rows inserted so far: the next row's index
  for (const MeasurePhaseStep& step : run.options.phases) {
    if (run.Interrupted()) return Cancelled(absl::StrCat("before phase ", step.phase.text, run.left));
    PhaseMeasurement pm;
    pm.phase = step.phase.text;
    Snapshot before;
    Snapshot after;
    if (absl::Status s = ReadSnapshot(run, &before); !s.ok()) return s;
    const auto start = Clock::now();
    absl::Status s;
    switch (step.phase.kind) {
      case PhaseSpec::Kind::kInsert:
        if (!step.writers.streams.empty()) {
          s = LoadByWriters(run, step.writers, step.phase.rows, inserted, nullptr);
        } else if (step.stream == nullptr) {
          s = absl::InvalidArgumentError(absl::StrCat("phase ", step.phase.text, " has no keys"));
        } else {
          s = InsertKeys(
              run, run.conn, *step.stream, step.phase.rows, inserted, &run.expected_version,
              [&run] { return run.Interrupted(); }, [](uint64_t) { return absl::OkStatus(); });
        }
        inserted += step.phase.rows;
        pm.measured.rows = static_cast<int64_t>(step.phase.rows);
        break;
      case PhaseSpec::Kind::kDeleteEvery:
        s = DeleteEveryKth(run, step.phase.every, inserted);
        break;
      case PhaseSpec::Kind::kDeletePhase:
        s = step.stream == nullptr ? absl::InvalidArgumentError(absl::StrCat("phase ", step.phase.text, " has no keys"))
                                   : DeletePhaseKeys(run, *step.stream, step.stream_rows);
        break;
      case PhaseSpec::Kind::kDeleteRange:
        // The table's rows now: the last phase's COUNT(*) (the load's at first).
        s = DeleteRange(run, step.phase, static_cast<uint64_t>(run.result.phases.back().table_rows));
        break;
      case PhaseSpec::Kind::kOptimize:
        s = OptimizeTable(run);
        break;
      case PhaseSpec::Kind::kCheckpoint:
        s = Checkpoint(run);
        break;
      default:
        s = absl::InvalidArgumentError(absl::StrCat("measure cannot run phase ", step.phase.text, " yet"));
    }
    if (!s.ok()) return Prefix(s, absl::StrCat("phase ", step.phase.text, ": "));
    pm.measured.elapsed_s = Seconds(Clock::now() - start);
    absl::StatusOr<int64_t> dirty = DirtyPages(run.conn);
    if (!dirty.ok()) return dirty.status();
    pm.dirty_pages = *dirty;
    if (absl::Status s = ReadSnapshot(run, &after); !s.ok()) return s;
    CounterDeltas(before, after, &pm.measured);
    pm.measured.rows_inserted_counter = run.rows_inserted_name;
    if (absl::Status s = AnalyzeTable(run); !s.ok()) return s;
    if (absl::Status s = ReadTableSizes(run, pm.measured); !s.ok()) return s;
    if (absl::Status s = ReadIndexStats(run, pm.measured); !s.ok()) return s;
    absl::StatusOr<int64_t> count = run.conn.QueryInt(absl::StrCat("SELECT COUNT(*) FROM ", run.qualified));
    if (!count.ok()) return count.status();
    pm.table_rows = *count;
    run.result.phases.push_back(std::move(pm));
  }
  return absl::OkStatus();
}

// The procedure of Measure(), step by step (tools/measure.h); the globals it
// changes are recorded in `guard`, which the caller restores.
absl::StatusOr<MeasureResult> MeasureSteps(ServerConnection& conn, KeyStream& stream, const MeasureOptions& options,
                                           ServerStateGuard& guard) {
  MeasureRun run(conn, stream, options, guard);
  run.result.database = options.database;
  run.result.table = options.table;
  run.qualified = Qualified(options.database, options.table);
  run.left = absl::StrCat("; table ", run.qualified, " left in place");

  absl::StatusOr<TableKind> kind = CheckArguments(stream, options);
  if (!kind.ok()) return kind.status();
  run.kind = *kind;
  if (options.spec_table) {
    run.spec = &*options.spec_table;
    const TableDef& def = run.spec->schema.def;
    run.pk_column = def.columns[def.primary.columns[0]].name;
    absl::StatusOr<ColumnLiterals> literals =
        ColumnLiterals::Make(run.spec->schema, options.columns, options.start_ms, options.rows_per_ms);
    if (!literals.ok()) return literals.status();
    run.literals = *std::move(literals);
  }
  if (absl::Status s = CheckServer(run); !s.ok()) return s;
  if (absl::Status s = PrepareSchema(run); !s.ok()) return s;
  if (absl::Status s = ReadCountersBefore(run); !s.ok()) return s;
  if (absl::Status s = ReadLoadStart(run); !s.ok()) return s;
  if (absl::Status s = LoadRowsInMultiRowInserts(run); !s.ok()) return s;
  int64_t load_dirty_pages = 0;
  if (!options.phases.empty()) {
    absl::StatusOr<int64_t> dirty = DirtyPages(run.conn);
    if (!dirty.ok()) return dirty.status();
    load_dirty_pages = *dirty;
  }
  if (absl::Status s = WaitForZeroDirtyPages(run); !s.ok()) return s;
  if (absl::Status s = ReadCountersAfter(run); !s.ok()) return s;
  if (absl::Status s = ReadTableStats(run, run.result.measured); !s.ok()) return s;
  if (absl::Status s = AnalyzeTable(run); !s.ok()) return s;
  if (absl::Status s = ReadTableSizes(run, run.result.measured); !s.ok()) return s;
  if (absl::Status s = ReadIndexStats(run, run.result.measured); !s.ok()) return s;
  if (run.Interrupted()) return Cancelled(absl::StrCat("after reading the counters", run.left));
  if (absl::Status s = RunSanityChecks(run); !s.ok()) return s;
  if (!options.phases.empty()) {
    if (absl::Status s = RunPhases(run, load_dirty_pages); !s.ok()) return s;
  }
  return std::move(run.result);
}

// Every global the run changed goes back to its value before the run; a
// value that could not be put back is added to the run's own error.
absl::StatusOr<MeasureResult> RestoreServerGlobals(ServerStateGuard& guard, absl::StatusOr<MeasureResult> result) {
  absl::Status restored = guard.Restore(0);
  if (restored.ok()) return result;
  if (result.ok()) return restored;
  return absl::Status(result.status().code(), absl::StrCat(result.status().message(), "; ", restored.message()));
}

}  // namespace

absl::StatusOr<MeasureResult> Measure(ServerConnection& conn, KeyStream& stream, const MeasureOptions& options) {
  ServerStateGuard guard(conn);
  return RestoreServerGlobals(guard, MeasureSteps(conn, stream, options, guard));
}

namespace {

// MeasuredCounters as MeasureResultToJson's "measured" lists them.
nlohmann::json MeasuredJson(const MeasuredCounters& c) {
  nlohmann::json m;
  auto opt = [&m](const char* name, const std::optional<int64_t>& v) {
    if (v) m[name] = *v;
  };
  opt(counters::kIndexPageSplits.name, c.index_page_splits);
  opt(counters::kIndexPageReorgAttempts.name, c.index_page_reorg_attempts);
  opt(counters::kIndexPageReorgSuccessful.name, c.index_page_reorg_successful);
  opt(counters::kIndexPageMergeAttempts.name, c.index_page_merge_attempts);
  opt(counters::kIndexPageMergeSuccessful.name, c.index_page_merge_successful);
  m[counters::kNLeafPages.name] = c.n_leaf_pages;
  m[counters::kSize.name] = c.size;
  m[counters::kDataLength.name] = c.data_length;
  m[counters::kIndexLength.name] = c.index_length;
  m[counters::kInnodbPagesWritten.name] = c.Innodb_pages_written;
  m[counters::kInnodbBufferPoolReads.name] = c.Innodb_buffer_pool_reads;
  m[counters::kInnodbDblwrPagesWritten.name] = c.Innodb_dblwr_pages_written;
  opt(counters::kBufferPageReadSystemPage.name, c.buffer_page_read_system_page);
  opt(counters::kBufferPageReadUndoLog.name, c.buffer_page_read_undo_log);
  opt(counters::kBufferPageWrittenSystemPage.name, c.buffer_page_written_system_page);
  opt(counters::kBufferPageWrittenUndoLog.name, c.buffer_page_written_undo_log);
  if (c.Innodb_buffer_pool_read_ahead) m[kReadAheadStatus] = *c.Innodb_buffer_pool_read_ahead;
  m[c.rows_inserted_counter.empty() ? "rows_inserted" : c.rows_inserted_counter] =
      c.rows_inserted;
  m["rows"] = c.rows;
  m["elapsed_s"] = c.elapsed_s;
  m["flush_wait_s"] = c.flush_wait_s;
  if (c.stats_n_rows) m[kTableStatsNRows] = *c.stats_n_rows;
  if (c.stats_last_update_s) m[kTableStatsLastUpdate] = *c.stats_last_update_s;
  return m;
}

}  // namespace

nlohmann::json MeasureResultToJson(const MeasureResult& r) {
  nlohmann::json j;
  j["server"]["version"] = r.version;
  j["server"]["variables"] = r.variables;
  j["server"]["datadir"] = r.datadir;
  j["server"]["database"] = r.database;
  j["server"]["table"] = r.table;
  j["measured"] = MeasuredJson(r.measured);
  if (r.connections != 1) j["connections"] = r.connections;
  if (!r.phases.empty()) {
    nlohmann::json phases = nlohmann::json::array();
    for (const PhaseMeasurement& p : r.phases) {
      phases.push_back({{"phase", p.phase},
                        {"measured", MeasuredJson(p.measured)},
                        {"table_rows", p.table_rows},
                        {"Innodb_buffer_pool_pages_dirty", p.dirty_pages}});
    }
    j["phases"] = phases;
  }
  j["missing_counters"] = r.missing_counters;
  nlohmann::json& s = j["sanity"];
  s = nlohmann::json::object();
  for (const SanityCheck& chk : r.sanity) {
    s[chk.name] = chk.pass ? std::string("pass") : "fail: " + chk.detail;
  }
  j["valid"] = r.valid;
  j["notes"] = r.notes;
  return j;
}

std::optional<int64_t> MeasuredCounter(const MeasuredCounters& m, const InnodbCounter& counter) {
  const std::string_view name = counter.name;
  if (name == counters::kIndexPageSplits.name) return m.index_page_splits;
  if (name == counters::kIndexPageReorgAttempts.name) return m.index_page_reorg_attempts;
  if (name == counters::kIndexPageReorgSuccessful.name) return m.index_page_reorg_successful;
  if (name == counters::kIndexPageMergeAttempts.name) return m.index_page_merge_attempts;
  if (name == counters::kIndexPageMergeSuccessful.name) return m.index_page_merge_successful;
  if (name == counters::kNLeafPages.name) return m.n_leaf_pages;
  if (name == counters::kSize.name) return m.size;
  if (name == counters::kDataLength.name) return m.data_length;
  if (name == counters::kIndexLength.name) return m.index_length;
  if (name == counters::kInnodbPagesWritten.name) return m.Innodb_pages_written;
  if (name == counters::kInnodbBufferPoolReads.name) return m.Innodb_buffer_pool_reads;
  if (name == counters::kInnodbDblwrPagesWritten.name) return m.Innodb_dblwr_pages_written;
  if (name == counters::kBufferPageReadSystemPage.name) return m.buffer_page_read_system_page;
  if (name == counters::kBufferPageReadUndoLog.name) return m.buffer_page_read_undo_log;
  if (name == counters::kBufferPageWrittenSystemPage.name) return m.buffer_page_written_system_page;
  if (name == counters::kBufferPageWrittenUndoLog.name) return m.buffer_page_written_undo_log;
  return std::nullopt;
}

}  // namespace innosim
