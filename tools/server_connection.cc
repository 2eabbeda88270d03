#include "tools/server_connection.h"

#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>

#include <cstdlib>
#include <fstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"

namespace innosim {
namespace {

// Server messages are one line already; make sure of it.
std::string OneLine(absl::string_view s) {
  std::string out = absl::StrReplaceAll(s, {{"\r\n", " "}, {"\n", " "}, {"\r", " "}});
  return std::string(absl::StripAsciiWhitespace(out));
}

std::string NormalizeKey(absl::string_view key) {
  std::string k = absl::AsciiStrToLower(absl::StripAsciiWhitespace(key));
  for (char& c : k) {
    if (c == '-') c = '_';
  }
  return k;
}

// Unquotes an option-file value: '...' or "..." with backslash escapes;
// unquoted values lose a trailing comment ("# ...").
std::string ParseOptionValue(absl::string_view raw) {
  absl::string_view v = absl::StripAsciiWhitespace(raw);
  if (!v.empty() && (v.front() == '\'' || v.front() == '"')) {
    const char q = v.front();
    std::string out;
    for (size_t i = 1; i < v.size(); ++i) {
      const char c = v[i];
      if (c == q) break;
      if (c == '\\' && i + 1 < v.size()) {
        const char n = v[++i];
        switch (n) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 's': out += ' '; break;
          default: out += n; break;
        }
        continue;
      }
      out += c;
    }
    return out;
  }
  const size_t hash = v.find(" #");
  if (hash != absl::string_view::npos) v = v.substr(0, hash);
  return std::string(absl::StripAsciiWhitespace(v));
}

std::string DescribeTarget(const std::string& host, unsigned port, const std::string& socket) {
  const bool local = host.empty() || host == "localhost";
  if (local && !socket.empty()) return absl::StrCat("socket ", socket);
  if (local) return "localhost (connector's default socket)";
  return absl::StrCat("host ", host, ":", port == 0 ? 3306u : port);
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> ReadClientOptionGroup(
    const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read defaults file ", path));
  }
  std::map<std::string, std::string> out;
  std::string line;
  bool in_client = false;
  while (std::getline(in, line)) {
    absl::string_view l = absl::StripAsciiWhitespace(line);
    if (l.empty() || l.front() == '#' || l.front() == ';' || l.front() == '!') continue;
    if (l.front() == '[') {
      const size_t close = l.find(']');
      const std::string group =
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(l.substr(1, close == l.npos ? l.npos : close - 1)));
      in_client = group == "client";
      continue;
    }
    if (!in_client) continue;
    const size_t eq = l.find('=');
    if (eq == absl::string_view::npos) {
      out[NormalizeKey(l)] = "";
    } else {
      out[NormalizeKey(l.substr(0, eq))] = ParseOptionValue(l.substr(eq + 1));
    }
  }
  return out;
}

absl::Status ServerErrorStatus(unsigned error_number, absl::string_view sqlstate,
                               absl::string_view server_message, absl::string_view target,
                               absl::string_view context) {
  const std::string msg = OneLine(server_message);
  const std::string tail = absl::StrCat(" [error ", error_number,
                                        sqlstate.empty() ? "" : absl::StrCat(" (", sqlstate, ")"),
                                        "]", context.empty() ? "" : absl::StrCat(" while ", context));
  switch (error_number) {
    case CR_CONNECTION_ERROR:   // 2002
    case CR_CONN_HOST_ERROR:    // 2003
    case CR_UNKNOWN_HOST:       // 2005
    case CR_SERVER_GONE_ERROR:  // 2006
    case CR_SERVER_LOST:        // 2013
    case CR_SERVER_LOST_EXTENDED:
      return absl::UnavailableError(
          absl::StrCat("server unreachable at ", target, ": ", msg, tail));
    case ER_ACCESS_DENIED_ERROR:               // 1045
    case ER_ACCESS_DENIED_NO_PASSWORD_ERROR:   // 1698
      return absl::UnauthenticatedError(
          absl::StrCat("authentication refused by server at ", target, ": ", msg,
                       " (check the user and the password from the defaults file or MYSQL_PWD)",
                       tail));
    case ER_DBACCESS_DENIED_ERROR:         // 1044
    case ER_TABLEACCESS_DENIED_ERROR:      // 1142
    case ER_COLUMNACCESS_DENIED_ERROR:     // 1143
    case ER_SPECIFIC_ACCESS_DENIED_ERROR:  // 1227
    case ER_PROCACCESS_DENIED_ERROR:       // 1370
    case ER_KILL_DENIED_ERROR:             // 1095
    case 1211:                             // ER_PASSWORD_NOT_ALLOWED
    case 3879:                             // MySQL: ER_ACCESS_DENIED_... (dynamic privileges)
      return absl::PermissionDeniedError(absl::StrCat("missing privilege: ", msg, tail));
    case ER_UNKNOWN_STORAGE_ENGINE:  // 1286
      return absl::FailedPreconditionError(
          absl::StrCat("server has no such storage engine: ", msg, tail));
    case ER_OPTION_PREVENTS_STATEMENT:  // 1290 (read_only and friends)
      return absl::FailedPreconditionError(absl::StrCat("server refuses: ", msg, tail));
    case ER_LOCK_DEADLOCK:         // 1213
    case ER_LOCK_WAIT_TIMEOUT:     // 1205
    case ER_QUERY_INTERRUPTED:     // 1317
      return absl::AbortedError(absl::StrCat("statement aborted: ", msg, tail));
    default:
      return absl::InternalError(absl::StrCat("server error: ", msg, tail));
  }
}

absl::StatusOr<std::unique_ptr<ServerConnection>> ServerConnection::Connect(
    const ConnectionOptions& options) {
  std::map<std::string, std::string> file;
  if (!options.defaults_file.empty()) {
    absl::StatusOr<std::map<std::string, std::string>> f =
        ReadClientOptionGroup(options.defaults_file);
    if (!f.ok()) return f.status();
    file = *std::move(f);
  }
  auto from_file = [&file](const char* key) -> std::optional<std::string> {
    auto it = file.find(key);
    if (it == file.end()) return std::nullopt;
    return it->second;
  };

  std::string host = options.host;
  std::string socket = options.socket;
  unsigned port = options.port;
  std::string user = options.user;
  if (host.empty() && socket.empty() && port == 0) {
    host = from_file("host").value_or("");
    socket = from_file("socket").value_or("");
    if (auto p = from_file("port")) {
      if (!absl::SimpleAtoi(*p, &port)) {
        return absl::InvalidArgumentError(
            absl::StrCat("defaults file ", options.defaults_file, ": port is not a number"));
      }
    }
  }
  if (user.empty()) user = from_file("user").value_or("root");

  std::optional<std::string> password = options.password;
  if (!password) password = from_file("password");
  if (!password) {
    if (const char* env = std::getenv("MYSQL_PWD")) password = std::string(env);
  }

  std::unique_ptr<ServerConnection> conn(new ServerConnection());
  conn->target_ = DescribeTarget(host, port, socket);
  conn->user_ = user;
  conn->mysql_ = mysql_init(nullptr);
  if (conn->mysql_ == nullptr) {
    return absl::ResourceExhaustedError("mysql_init failed (out of memory)");
  }
  unsigned timeout = options.connect_timeout_s;
  mysql_options(conn->mysql_, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_options(conn->mysql_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  const bool local = host.empty() || host == "localhost";
  if (local && !socket.empty()) {
    unsigned proto = MYSQL_PROTOCOL_SOCKET;
    mysql_options(conn->mysql_, MYSQL_OPT_PROTOCOL, &proto);
  }

  // The database may not exist yet: connect without it, then USE it.
  if (mysql_real_connect(conn->mysql_, local ? nullptr : host.c_str(), user.c_str(),
                         password ? password->c_str() : nullptr, nullptr, port,
                         socket.empty() ? nullptr : socket.c_str(), 0) == nullptr) {
    return conn->LastError(absl::StrCat("connecting as '", user, "'"));
  }
  absl::StatusOr<std::string> version = conn->QueryString("SELECT VERSION()");
  if (!version.ok()) return version.status();
  conn->version_ = *version;
  conn->is_mariadb_ = absl::StrContains(absl::AsciiStrToLower(conn->version_), "mariadb");
  if (!options.database.empty()) {
    if (mysql_select_db(conn->mysql_, options.database.c_str()) != 0) {
      return conn->LastError(absl::StrCat("selecting database ", options.database));
    }
  }
  return conn;
}

ServerConnection::~ServerConnection() {
  if (mysql_ != nullptr) mysql_close(mysql_);
}

absl::Status ServerConnection::LastError(absl::string_view context) {
  return ServerErrorStatus(mysql_errno(mysql_), mysql_sqlstate(mysql_), mysql_error(mysql_),
                           target_, context);
}

namespace {
std::string ContextOf(absl::string_view sql) {
  std::string s = OneLine(sql);
  if (s.size() > 120) s = absl::StrCat(s.substr(0, 117), "...");
  return absl::StrCat("running: ", s);
}
}  // namespace

absl::Status ServerConnection::Execute(absl::string_view sql) {
  if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) return LastError(ContextOf(sql));
  // Drain every result (ANALYZE TABLE returns one, for instance).
  do {
    MYSQL_RES* res = mysql_store_result(mysql_);
    if (res != nullptr) {
      mysql_free_result(res);
    } else if (mysql_field_count(mysql_) != 0) {
      return LastError(ContextOf(sql));
    }
  } while (mysql_next_result(mysql_) == 0);
  if (mysql_errno(mysql_) != 0) return LastError(ContextOf(sql));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ServerConnection::Row>> ServerConnection::Query(absl::string_view sql) {
  if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) return LastError(ContextOf(sql));
  MYSQL_RES* res = mysql_store_result(mysql_);
  if (res == nullptr) {
    if (mysql_field_count(mysql_) != 0) return LastError(ContextOf(sql));
    return std::vector<Row>{};
  }
  std::vector<Row> rows;
  const unsigned n = mysql_num_fields(res);
  while (MYSQL_ROW r = mysql_fetch_row(res)) {
    unsigned long* lengths = mysql_fetch_lengths(res);
    Row row(n);
    for (unsigned i = 0; i < n; ++i) {
      if (r[i] != nullptr) row[i] = std::string(r[i], lengths[i]);
    }
    rows.push_back(std::move(row));
  }
  mysql_free_result(res);
  while (mysql_next_result(mysql_) == 0) {
    if (MYSQL_RES* extra = mysql_store_result(mysql_)) mysql_free_result(extra);
  }
  return rows;
}

absl::StatusOr<std::string> ServerConnection::QueryString(absl::string_view sql) {
  absl::StatusOr<std::vector<Row>> rows = Query(sql);
  if (!rows.ok()) return rows.status();
  if (rows->empty() || rows->front().empty()) {
    return absl::NotFoundError(absl::StrCat("no row returned by: ", OneLine(sql)));
  }
  return rows->front()[0].value_or("");
}

absl::StatusOr<int64_t> ServerConnection::QueryInt(absl::string_view sql) {
  absl::StatusOr<std::string> s = QueryString(sql);
  if (!s.ok()) return s.status();
  int64_t v = 0;
  if (!absl::SimpleAtoi(*s, &v)) {
    return absl::InternalError(absl::StrCat("not an integer ('", *s, "') from: ", OneLine(sql)));
  }
  return v;
}

absl::StatusOr<std::map<std::string, std::string>> ServerConnection::QueryMap(
    absl::string_view sql) {
  absl::StatusOr<std::vector<Row>> rows = Query(sql);
  if (!rows.ok()) return rows.status();
  std::map<std::string, std::string> out;
  for (const Row& r : *rows) {
    if (r.size() < 2 || !r[0]) continue;
    out[*r[0]] = r[1].value_or("");
  }
  return out;
}

std::string ServerConnection::QuoteString(absl::string_view text) {
  std::string out(text.size() * 2 + 3, '\0');
  out[0] = '\'';
  const unsigned long n =
      mysql_real_escape_string(mysql_, out.data() + 1, text.data(), text.size());
  out.resize(n + 1);
  out += '\'';
  return out;
}

}  // namespace innosim
