// ServerConnection: one client connection to a MySQL 8.x / MariaDB 10.6+
// server, through libmariadb (MariaDB Connector/C).
//
// Contract:
//   - Connect() either returns a live connection or a Status whose message is
//     one line and says what to mend: the server could not be reached (it
//     names the socket or host:port that was tried), the account was refused,
//     a privilege is missing (the server's message names it), and so on.
//   - The password is taken, in this order, from ConnectionOptions::password,
//     the [client] section of ConnectionOptions::defaults_file, or the
//     MYSQL_PWD environment variable. It is never printed, logged or put in a
//     Status message.
//   - Nothing else is read from the machine's option files (my.cnf): the
//     connector is not asked to read default groups.
//   - Query errors map MySQL/MariaDB error numbers to absl status codes
//     (see ServerErrorStatus) so callers can branch on the code and show the
//     message as is.
//
// Example:
//   ConnectionOptions opts;
//   opts.socket = "/tmp/x/sock";
//   opts.user = "root";
//   absl::StatusOr<std::unique_ptr<ServerConnection>> conn =
//       ServerConnection::Connect(opts);
//   if (!conn.ok()) { std::cerr << conn.status().message() << "\n"; ... }
//   absl::StatusOr<std::string> v = (*conn)->QueryString("SELECT VERSION()");
//
// Thread-safety: a connection is used by one thread at a time.
#ifndef INNOSIM_TOOLS_SERVER_CONNECTION_H_
#define INNOSIM_TOOLS_SERVER_CONNECTION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct st_mysql;  // MYSQL from <mysql.h>; kept out of this header.

namespace innosim {

struct ConnectionOptions {
  // Where the server listens. With `socket` set and `host` empty (or
  // "localhost") the Unix socket is used; with `host` set to anything else,
  // TCP on `port` (0 = 3306). All empty: the connector's default socket.
  std::string host;
  unsigned port = 0;
  std::string socket;
  // Account; empty = taken from the defaults file, else "root".
  std::string user;
  // Optional password (never printed). Unset = defaults file, then MYSQL_PWD.
  std::optional<std::string> password;
  // Optional option file; its [client] section supplies password, and also
  // user/host/port/socket when those are not given above.
  std::string defaults_file;
  // Optional default database for the session (may not exist yet).
  std::string database;
  unsigned connect_timeout_s = 10;
};

// The [client] section of an option file (MySQL syntax: "key = value",
// optional quotes, '#'/';' comments, '-' and '_' equivalent in keys).
// Returns key -> value with keys normalized to '_'. A missing file is an
// error; a file without [client] yields an empty map.
absl::StatusOr<std::map<std::string, std::string>> ReadClientOptionGroup(
    const std::string& path);

// Maps a server/client error number to a Status with a one-line message:
//   2002/2003/2005/2006/2013 ...  -> kUnavailable      "server unreachable at <target>: ..."
//   1045, 1698                   -> kUnauthenticated  "authentication refused: ..."
//   1044/1142/1143/1227/1370/... -> kPermissionDenied "missing privilege: <server message>"
//   1286 (unknown engine)        -> kFailedPrecondition
//   others                       -> kInternal / kAborted (deadlock, lock wait)
// `context` says what was being done ("creating table `innosim`.`t`").
absl::Status ServerErrorStatus(unsigned error_number, absl::string_view sqlstate,
                               absl::string_view server_message, absl::string_view target,
                               absl::string_view context);

class ServerConnection {
 public:
  // A result row; NULL columns are std::nullopt.
  using Row = std::vector<std::optional<std::string>>;

  static absl::StatusOr<std::unique_ptr<ServerConnection>> Connect(
      const ConnectionOptions& options);

  ~ServerConnection();
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  // Runs a statement; any result set is read and discarded.
  absl::Status Execute(absl::string_view sql);
  // Runs a statement and returns all rows of its result set.
  absl::StatusOr<std::vector<Row>> Query(absl::string_view sql);
  // First column of the first row; error if there is no row; NULL -> "".
  absl::StatusOr<std::string> QueryString(absl::string_view sql);
  // Same, parsed as a signed integer.
  absl::StatusOr<int64_t> QueryInt(absl::string_view sql);
  // Rows of two columns (e.g. SHOW GLOBAL STATUS ...) as name -> value.
  absl::StatusOr<std::map<std::string, std::string>> QueryMap(absl::string_view sql);

  // 'text' as a quoted SQL string literal (mysql_real_escape_string).
  std::string QuoteString(absl::string_view text);

  // Where this connection goes, for messages: "socket /x/sock" or "host h:p".
  const std::string& target() const { return target_; }
  const std::string& user() const { return user_; }
  // SELECT VERSION(), read at connect time.
  const std::string& server_version() const { return version_; }
  // True when VERSION() says MariaDB.
  bool is_mariadb() const { return is_mariadb_; }

 private:
  ServerConnection() = default;
  absl::Status LastError(absl::string_view context);

  st_mysql* mysql_ = nullptr;
  std::string target_;
  std::string user_;
  std::string version_;
  bool is_mariadb_ = false;
};

}  // namespace innosim

#endif  // INNOSIM_TOOLS_SERVER_CONNECTION_H_
