#include "tools/pg_connection.h"

#include <libpq-fe.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace innosim {
namespace {

// libpq's messages end in a newline and may span lines (DETAIL, HINT): one line.
std::string OneLine(absl::string_view s) {
  std::string out = absl::StrReplaceAll(s, {{"\r\n", " "}, {"\n", " "}, {"\r", " "}, {"\t", " "}});
  return std::string(absl::StripAsciiWhitespace(out));
}

std::string DescribeTarget(const PgConnectionOptions& o) {
  std::string t = o.host.empty() ? std::string("libpq's default host")
                                 : absl::StrCat(o.host.front() == '/' ? "socket " : "host ", o.host);
  if (o.port != 0) absl::StrAppend(&t, " port ", o.port);
  if (!o.user.empty()) absl::StrAppend(&t, " user ", o.user);
  if (!o.dbname.empty()) absl::StrAppend(&t, " database ", o.dbname);
  return t;
}

// Frees a PGresult on every path.
struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// The Status of a finished statement's result (OK for COMMAND_OK,
// TUPLES_OK, COPY_IN), naming `sql`'s first words as the context.
absl::Status ResultStatus(PGconn* conn, const PGresult* r, absl::string_view sql) {
  const ExecStatusType st = r == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(r);
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || st == PGRES_COPY_IN || st == PGRES_EMPTY_QUERY) {
    return absl::OkStatus();
  }
  const std::string context = OneLine(sql.substr(0, 80));
  if (r == nullptr) return PgErrorStatus("", PQerrorMessage(conn), context);
  const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  const char* primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  return PgErrorStatus(state ? state : "", primary ? primary : PQresultErrorMessage(r), context);
}

}  // namespace

absl::Status PgErrorStatus(absl::string_view sqlstate, absl::string_view message, absl::string_view context) {
  const std::string msg = OneLine(message);
  const std::string tail = absl::StrCat(sqlstate.empty() ? "" : absl::StrCat(" [SQLSTATE ", sqlstate, "]"),
                                        context.empty() ? "" : absl::StrCat(" while ", context));
  if (absl::StartsWith(sqlstate, "08")) return absl::UnavailableError(absl::StrCat("server unreachable: ", msg, tail));
  if (absl::StartsWith(sqlstate, "28")) return absl::UnauthenticatedError(absl::StrCat("authentication refused: ", msg, tail));
  if (sqlstate == "42501") return absl::PermissionDeniedError(absl::StrCat("missing privilege: ", msg, tail));
  if (sqlstate == "3D000" || sqlstate == "42P01" || sqlstate == "42704" || sqlstate == "58P01") {
    return absl::NotFoundError(absl::StrCat(msg, tail));
  }
  if (absl::StartsWith(sqlstate, "40") || sqlstate == "57014") {
    return absl::AbortedError(absl::StrCat("statement aborted: ", msg, tail));
  }
  return absl::InternalError(absl::StrCat("server error: ", msg, tail));
}

absl::StatusOr<std::unique_ptr<PgConnection>> PgConnection::Connect(const PgConnectionOptions& options) {
  // Only the fields given go to libpq, so the rest come from PG* / ~/.pgpass.
  std::vector<std::pair<std::string, std::string>> params;
  if (!options.host.empty()) params.emplace_back("host", options.host);
  if (options.port != 0) params.emplace_back("port", absl::StrCat(options.port));
  if (!options.user.empty()) params.emplace_back("user", options.user);
  if (!options.dbname.empty()) params.emplace_back("dbname", options.dbname);
  if (options.password) params.emplace_back("password", *options.password);
  params.emplace_back("connect_timeout", absl::StrCat(std::max(2u, options.connect_timeout_s)));
  params.emplace_back("application_name", "innosim");
  params.emplace_back("client_encoding", "UTF8");
  std::vector<const char*> keys;
  std::vector<const char*> values;
  for (const auto& [k, v] : params) {
    keys.push_back(k.c_str());
    values.push_back(v.c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);

  std::unique_ptr<PgConnection> c(new PgConnection());
  c->target_ = DescribeTarget(options);
  c->conn_ = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/0);
  if (c->conn_ == nullptr) return absl::ResourceExhaustedError("PQconnectdbParams failed (out of memory)");
  if (PQstatus(c->conn_) != CONNECTION_OK) {
    const std::string msg = OneLine(PQerrorMessage(c->conn_));
    if (PQconnectionNeedsPassword(c->conn_) || absl::StrContains(msg, "authentication failed")) {
      return absl::UnauthenticatedError(absl::StrCat("authentication refused at ", c->target_, ": ", msg,
                                                     " (give a password, PGPASSWORD or ~/.pgpass)"));
    }
    if (absl::StrContains(msg, "database \"") && absl::StrContains(msg, "does not exist")) {
      return absl::NotFoundError(absl::StrCat("at ", c->target_, ": ", msg));
    }
    return absl::UnavailableError(absl::StrCat("cannot connect to PostgreSQL at ", c->target_, ": ", msg));
  }
  c->server_version_ = PQserverVersion(c->conn_);
  // Server notices (e.g. "table does not exist, skipping") would go to
  // stderr by default; a tool's output stays its own.
  PQsetNoticeProcessor(c->conn_, [](void*, const char*) {}, nullptr);
  return c;
}

PgConnection::~PgConnection() {
  if (conn_ != nullptr) PQfinish(conn_);
}

absl::Status PgConnection::ConnectionError(absl::string_view context) {
  return PgErrorStatus(PQstatus(conn_) == CONNECTION_BAD ? "08006" : "", PQerrorMessage(conn_), context);
}

absl::Status PgConnection::Exec(absl::string_view sql) {
  const std::string s(sql);
  // PQexec with several statements returns the last result; an error stops
  // the rest and is that result.
  Result r(PQexec(conn_, s.c_str()));
  return ResultStatus(conn_, r.get(), sql);
}

absl::StatusOr<std::vector<PgConnection::Row>> PgConnection::Query(absl::string_view sql) {
  const std::string s(sql);
  Result r(PQexec(conn_, s.c_str()));
  if (absl::Status st = ResultStatus(conn_, r.get(), sql); !st.ok()) return st;
  std::vector<Row> rows;
  const int n = PQntuples(r.get());
  const int cols = PQnfields(r.get());
  rows.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    Row row;
    row.reserve(static_cast<size_t>(cols));
    for (int j = 0; j < cols; ++j) {
      if (PQgetisnull(r.get(), i, j)) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(PQgetvalue(r.get(), i, j), static_cast<size_t>(PQgetlength(r.get(), i, j))));
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

absl::StatusOr<std::string> PgConnection::QueryString(absl::string_view sql) {
  absl::StatusOr<std::vector<Row>> rows = Query(sql);
  if (!rows.ok()) return rows.status();
  if (rows->empty() || rows->front().empty()) {
    return absl::NotFoundError(absl::StrCat("no row from ", OneLine(sql.substr(0, 80))));
  }
  return rows->front().front().value_or("");
}

absl::StatusOr<int64_t> PgConnection::QueryInt(absl::string_view sql) {
  absl::StatusOr<std::string> s = QueryString(sql);
  if (!s.ok()) return s.status();
  int64_t v = 0;
  if (!absl::SimpleAtoi(*s, &v)) {
    return absl::InternalError(absl::StrCat("not an integer: '", *s, "' from ", OneLine(sql.substr(0, 80))));
  }
  return v;
}

absl::Status PgConnection::CopyIn(absl::string_view copy_sql, absl::string_view data) {
  const std::string s(copy_sql);
  Result start(PQexec(conn_, s.c_str()));
  if (absl::Status st = ResultStatus(conn_, start.get(), copy_sql); !st.ok()) return st;
  if (PQresultStatus(start.get()) != PGRES_COPY_IN) {
    return absl::InvalidArgumentError(absl::StrCat("not a COPY ... FROM STDIN: ", OneLine(copy_sql.substr(0, 80))));
  }
  // Blocking connection: PQputCopyData returns 1 once queued, -1 on error.
  constexpr size_t kChunk = 1 << 16;
  for (size_t at = 0; at < data.size(); at += kChunk) {
    const size_t n = std::min(kChunk, data.size() - at);
    if (PQputCopyData(conn_, data.data() + at, static_cast<int>(n)) != 1) {
      return ConnectionError(absl::StrCat("sending COPY data for ", OneLine(copy_sql.substr(0, 80))));
    }
  }
  if (PQputCopyEnd(conn_, nullptr) != 1) {
    return ConnectionError(absl::StrCat("ending COPY for ", OneLine(copy_sql.substr(0, 80))));
  }
  absl::Status result;
  while (PGresult* raw = PQgetResult(conn_)) {
    Result r(raw);
    if (absl::Status st = ResultStatus(conn_, r.get(), copy_sql); !st.ok() && result.ok()) result = st;
  }
  return result;
}

std::string PgConnection::QuoteLiteral(absl::string_view text) {
  char* q = PQescapeLiteral(conn_, text.data(), text.size());
  if (q == nullptr) return "''";
  std::string out(q);
  PQfreemem(q);
  return out;
}

std::string PgConnection::QuoteIdentifier(absl::string_view name) {
  char* q = PQescapeIdentifier(conn_, name.data(), name.size());
  if (q == nullptr) return "\"\"";
  std::string out(q);
  PQfreemem(q);
  return out;
}

}  // namespace innosim
