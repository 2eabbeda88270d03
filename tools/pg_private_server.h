// PgPrivateServer: a throwaway PostgreSQL 15 for tests and local measurements.
//
// Start() makes a temporary folder (innosim-pg-XXXXXX under base_dir), runs
//   initdb -D <folder>/data -U postgres -A trust -E UTF8 --locale=C --no-sync
// and then
//   pg_ctl -D <folder>/data -l <folder>/server.log -w -t <start_timeout_s>
//          -o "-c listen_addresses='' -c unix_socket_directories=<folder>
//              -c port=<port> -c shared_buffers=... -c max_wal_size=...
//              -c checkpoint_timeout=... -c autovacuum=off -c fsync=off ..." start
// so the server has its unix socket in that folder and no TCP listener, and
// waits until a connection answers. PostgreSQL refuses to run as root: when
// this process is root, the folder is given to the `postgres` system user
// (which Debian's postgresql-common creates) and initdb and pg_ctl run as that
// user (setgid/setuid in the forked child, before exec).
//
// Stop() (also run by the destructor, so a failing test still cleans up)
// runs `pg_ctl stop -m fast`, SIGKILLs the postmaster if that fails, and
// removes the folder unless keep_dir is set.
//
// fsync=off (default) skips the flushes to disk only: page contents, page
// counts, relation sizes and the pgstat* / pageinspect figures the tests
// read are the same; what changes is durability across an OS crash and the
// pg_stat_wal sync counters (wal_sync, wal_sync_time), which no test reads.
// autovacuum=off (default) keeps a background VACUUM from touching the
// tables between a load and its read-back.
//
// Example:
//   absl::StatusOr<std::unique_ptr<PgPrivateServer>> s = PgPrivateServer::Start({});
//   if (!s.ok()) ...;  // e.g. "initdb not found in /usr/lib/postgresql/15/bin: install postgresql-15 ..."
//   auto conn = PgConnection::Connect((*s)->connection_options("postgres"));
//
// Thread-safety: not thread-safe; one owner.
#ifndef INNOSIM_TOOLS_PG_PRIVATE_SERVER_H_
#define INNOSIM_TOOLS_PG_PRIVATE_SERVER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/pg_connection.h"

namespace innosim {

struct PgPrivateServerOptions {
  // Parent of the temporary folder holding data/, the socket and the logs.
  // When running as root, the `postgres` user must be able to reach it.
  std::string base_dir = "/tmp";
  // Names the socket file (.s.PGSQL.<port>); no TCP port is opened.
  unsigned port = 5432;
  // GUCs passed as -c options (PostgreSQL's units).
  std::string shared_buffers = "128MB";
  std::string max_wal_size = "1GB";
  std::string checkpoint_timeout = "5min";
  bool autovacuum = false;
  bool fsync = false;
  // Further -c name=value settings, appended in order (a later one wins).
  std::vector<std::pair<std::string, std::string>> settings;
  int start_timeout_s = 60;
  int stop_timeout_s = 60;
  // Leave the folder in place after Stop() (for inspecting the files).
  bool keep_dir = false;
};

class PgPrivateServer {
 public:
  static absl::StatusOr<std::unique_ptr<PgPrivateServer>> Start(const PgPrivateServerOptions& options);

  ~PgPrivateServer();  // Stop(), errors ignored.
  PgPrivateServer(const PgPrivateServer&) = delete;
  PgPrivateServer& operator=(const PgPrivateServer&) = delete;

  // pg_ctl stop -m fast (SIGKILL of the postmaster after stop_timeout_s),
  // then removes the folder. Idempotent.
  absl::Status Stop();

  // The superuser `postgres` over the private socket (trust: no password).
  PgConnectionOptions connection_options(const std::string& dbname = "postgres") const;

  const std::string& dir() const { return dir_; }
  const std::string& datadir() const { return datadir_; }
  // The folder the socket is in (dir()) and the socket file itself.
  const std::string& socket_dir() const { return dir_; }
  std::string socket_path() const;
  const std::string& log_path() const { return log_; }
  unsigned port() const { return options_.port; }
  // The -c settings passed to postgres, in order, as "name=value".
  const std::vector<std::string>& settings() const { return settings_; }

 private:
  PgPrivateServer() = default;

  PgPrivateServerOptions options_;
  std::string dir_;
  std::string datadir_;
  std::string log_;
  std::string pg_ctl_;
  std::vector<std::string> settings_;
  bool removed_ = false;
};

// Names the folder holding initdb, pg_ctl and postgres (default
// /usr/lib/postgresql/15/bin, Debian's postgresql-15).
inline constexpr char kPgBindirEnv[] = "INNOSIM_PG_BINDIR";
inline constexpr char kPgDefaultBindir[] = "/usr/lib/postgresql/15/bin";

// Absolute path of a PostgreSQL program (initdb, pg_ctl, postgres) in
// $INNOSIM_PG_BINDIR when set and not empty, else kPgDefaultBindir.
// NotFound, in one line naming the folder and saying to install
// postgresql-15 (tools/install-deps.sh).
absl::StatusOr<std::string> FindPgProgram(const std::string& name);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PG_PRIVATE_SERVER_H_
