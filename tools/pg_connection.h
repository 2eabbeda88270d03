// PgConnection: one client connection to a PostgreSQL server, through libpq.
//
// Contract:
//   - Connect() returns a live connection or a Status whose message is one
//     line naming where it tried to go (socket folder or host, port, user,
//     database) and the server's or libpq's reason.
//   - Every field of PgConnectionOptions left empty (0 for the port) is left
//     to libpq, which then reads the PG* environment (PGHOST, PGPORT, PGUSER,
//     PGDATABASE, PGPASSWORD, ...) and ~/.pgpass as it always does; nothing
//     else is read. The password is never printed or put in a Status.
//   - Statement errors carry the SQLSTATE and map to absl codes (see
//     PgErrorStatus) so callers can branch on the code.
//
// Example:
//   PgConnectionOptions o;
//   o.host = "/tmp/innosim-pg-abc123";  // a socket folder: starts with '/'
//   o.user = "postgres";
//   o.dbname = "postgres";
//   absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(o);
//   absl::StatusOr<std::string> v = (*c)->QueryString("SHOW server_version");
//
// Thread-safety: a connection is used by one thread at a time.
#ifndef INNOSIM_TOOLS_PG_CONNECTION_H_
#define INNOSIM_TOOLS_PG_CONNECTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct pg_conn;  // PGconn from <libpq-fe.h>; kept out of this header.

namespace innosim {

struct PgConnectionOptions {
  // A host name, or the folder holding the server's unix socket (a path
  // starting with '/', as libpq's `host` takes it). Empty: libpq's default.
  std::string host;
  unsigned port = 0;  // 0: libpq's default (PGPORT, else 5432)
  std::string user;
  std::string dbname;
  std::optional<std::string> password;  // unset: PGPASSWORD / ~/.pgpass
  unsigned connect_timeout_s = 10;
};

// A server error as a Status with a one-line message ending in
// "[SQLSTATE xxxxx] while <context>": class 08 -> kUnavailable, 28 ->
// kUnauthenticated, 42501 -> kPermissionDenied, 3D000 / 42P01 / 42704 ->
// kNotFound, class 40 and 57014 -> kAborted, others -> kInternal.
absl::Status PgErrorStatus(absl::string_view sqlstate, absl::string_view message,
                           absl::string_view context);

class PgConnection {
 public:
  // A result row; NULL columns are std::nullopt.
  using Row = std::vector<std::optional<std::string>>;

  static absl::StatusOr<std::unique_ptr<PgConnection>> Connect(const PgConnectionOptions& options);

  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one or more statements (simple query protocol); results discarded.
  absl::Status Exec(absl::string_view sql);
  // Runs a statement and returns all rows of its result, as text.
  absl::StatusOr<std::vector<Row>> Query(absl::string_view sql);
  // First column of the first row; error if there is no row; NULL -> "".
  absl::StatusOr<std::string> QueryString(absl::string_view sql);
  // Same, parsed as a signed integer.
  absl::StatusOr<int64_t> QueryInt(absl::string_view sql);

  // COPY ... FROM STDIN: sends `data` (rows in COPY's text format) with
  // PQputCopyData, ends the copy and returns the server's verdict. The COPY
  // is one statement, so outside a transaction block it is one transaction.
  absl::Status CopyIn(absl::string_view copy_sql, absl::string_view data);

  // 'text' as an SQL string literal / a double-quoted identifier (libpq's
  // PQescapeLiteral / PQescapeIdentifier).
  std::string QuoteLiteral(absl::string_view text);
  std::string QuoteIdentifier(absl::string_view name);

  // "socket /x port 5432 user postgres database d" or "host h port ...".
  const std::string& target() const { return target_; }
  // server_version_num (e.g. 150018), read at connect time.
  int server_version() const { return server_version_; }

 private:
  PgConnection() = default;
  // The connection's last error (libpq's message, one line) in `context`.
  absl::Status ConnectionError(absl::string_view context);

  pg_conn* conn_ = nullptr;
  std::string target_;
  int server_version_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PG_CONNECTION_H_
