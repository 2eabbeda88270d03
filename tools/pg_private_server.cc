#include "tools/pg_private_server.h"

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/child_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr char kInstallPostgresql[] =
    "install postgresql-15 (tools/install-deps.sh does; or apt-get install -y --no-install-recommends "
    "postgresql-15 postgresql-client-15), or point INNOSIM_PG_BINDIR at the folder holding initdb, pg_ctl "
    "and postgres";

bool IsExecutable(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// The lines of a log that say what went wrong (FATAL/ERROR/PANIC, or
// initdb's and pg_ctl's "<program>: error:"), at most 3, joined with " | ";
// else its last 3 lines.
std::string LogReason(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> errors;
  std::vector<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (errors.size() < 3 && (absl::StrContains(line, "FATAL") || absl::StrContains(line, "ERROR") ||
                              absl::StrContains(line, "PANIC") || absl::StrContains(line, "error:"))) {
      errors.push_back(line);
    }
    last.push_back(line);
    if (last.size() > 3) last.erase(last.begin());
  }
  return absl::StrJoin(errors.empty() ? last : errors, " | ");
}

// Who runs initdb and pg_ctl: this process's user, or (when that is root,
// which PostgreSQL refuses) the `postgres` system user.
struct RunAs {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

// Runs argv (as `as`, in `cwd`) with stdout/stderr appended to `log` and
// waits for it; returns its exit status (128 + signal when killed).
absl::StatusOr<int> Run(const std::vector<std::string>& argv, const std::string& log, const RunAs& as,
                        const std::string& cwd) {
  const char* dir = cwd.c_str();  // taken before fork: the child may not allocate
  absl::StatusOr<pid_t> pid = SpawnLogged(argv, log, [&as, dir] {
    if (as.drop && (::setgroups(0, nullptr) != 0 || ::setgid(as.gid) != 0 || ::setuid(as.uid) != 0)) {
      const char msg[] = "error: cannot switch to the postgres user\n";
      (void)!::write(2, msg, sizeof msg - 1);
      return false;
    }
    // A folder the user can read: PostgreSQL's programs look up their own
    // path from it.
    return ::chdir(dir) == 0;
  });
  if (!pid.ok()) return pid.status();
  return WaitForExit(*pid);
}

// "'value'" for pg_ctl's -o string, which pg_ctl hands to /bin/sh.
absl::StatusOr<std::string> ShellQuoted(const std::string& name, const std::string& value) {
  const std::string nv = absl::StrCat(name, "=", value);
  if (absl::StrContains(nv, "'")) {
    return absl::InvalidArgumentError(
        absl::StrCat("setting ", name, " contains a single quote; give it without one"));
  }
  return absl::StrCat("'", nv, "'");
}

}  // namespace

absl::StatusOr<std::string> FindPgProgram(const std::string& name) {
  const char* env = std::getenv(kPgBindirEnv);
  const bool from_env = env != nullptr && *env != '\0';
  const std::string dir = from_env ? env : kPgDefaultBindir;
  const std::string path = absl::StrCat(dir, "/", name);
  if (IsExecutable(path)) return path;
  return absl::NotFoundError(absl::StrCat(name, " not found in ", dir,
                                          from_env ? absl::StrCat(" (", kPgBindirEnv, ")") : std::string(), ": ",
                                          kInstallPostgresql));
}

absl::StatusOr<std::unique_ptr<PgPrivateServer>> PgPrivateServer::Start(const PgPrivateServerOptions& options) {
  absl::StatusOr<std::string> initdb = FindPgProgram("initdb");
  if (!initdb.ok()) return initdb.status();
  absl::StatusOr<std::string> pg_ctl = FindPgProgram("pg_ctl");
  if (!pg_ctl.ok()) return pg_ctl.status();
  absl::StatusOr<std::string> postgres = FindPgProgram("postgres");
  if (!postgres.ok()) return postgres.status();

  RunAs as;
  if (::geteuid() == 0) {
    const struct passwd* pw = ::getpwnam("postgres");
    if (pw == nullptr) {
      return absl::FailedPreconditionError(
          "running as root and there is no postgres user to run PostgreSQL as (it refuses to run as root): "
          "install postgresql-15, whose postgresql-common creates that user (tools/install-deps.sh does), or "
          "run as a user other than root");
    }
    as = RunAs{true, pw->pw_uid, pw->pw_gid};
  }

  std::unique_ptr<PgPrivateServer> s(new PgPrivateServer());
  s->options_ = options;
  s->pg_ctl_ = *pg_ctl;
  std::string tmpl = absl::StrCat(options.base_dir, "/innosim-pg-XXXXXX");
  if (::mkdtemp(tmpl.data()) == nullptr) {
    s->removed_ = true;
    return absl::InternalError(
        absl::StrCat("cannot create a folder under ", options.base_dir, ": ", std::strerror(errno)));
  }
  // From here on the destructor stops what runs and removes the folder.
  s->dir_ = tmpl;
  s->datadir_ = s->dir_ + "/data";
  s->log_ = s->dir_ + "/server.log";
  if (as.drop && ::chown(s->dir_.c_str(), as.uid, as.gid) != 0) {
    return absl::InternalError(absl::StrCat("cannot give ", s->dir_, " to the postgres user: ", std::strerror(errno)));
  }

  {
    const std::string log = s->dir_ + "/initdb.log";
    const std::vector<std::string> argv = {*initdb, "-D", s->datadir_, "-U", "postgres", "-A", "trust",
                                           "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"};
    absl::StatusOr<int> rc = Run(argv, log, as, s->dir_);
    if (!rc.ok()) return rc.status();
    if (*rc != 0) {
      return absl::InternalError(absl::StrCat("initdb failed with exit code ", *rc, " (log ", log, "): ", LogReason(log)));
    }
  }

  std::vector<std::pair<std::string, std::string>> settings = {
      {"listen_addresses", ""},
      {"unix_socket_directories", s->dir_},
      {"port", absl::StrCat(options.port)},
      {"shared_buffers", options.shared_buffers},
      {"max_wal_size", options.max_wal_size},
      {"checkpoint_timeout", options.checkpoint_timeout},
      {"autovacuum", options.autovacuum ? "on" : "off"},
      {"fsync", options.fsync ? "on" : "off"},
  };
  for (const auto& kv : options.settings) settings.push_back(kv);
  std::string opts;
  for (const auto& [name, value] : settings) {
    absl::StatusOr<std::string> q = ShellQuoted(name, value);
    if (!q.ok()) return q.status();
    absl::StrAppend(&opts, opts.empty() ? "" : " ", "-c ", *q);
    s->settings_.push_back(absl::StrCat(name, "=", value));
  }

  const std::string ctl_log = s->dir_ + "/pg_ctl.log";
  const std::vector<std::string> argv = {*pg_ctl, "-D", s->datadir_, "-l", s->log_, "-w", "-t",
                                         absl::StrCat(options.start_timeout_s), "-o", opts, "start"};
  absl::StatusOr<int> rc = Run(argv, ctl_log, as, s->dir_);
  if (!rc.ok()) return rc.status();
  if (*rc != 0) {
    const std::string why = LogReason(s->log_);
    return absl::InternalError(absl::StrCat("pg_ctl start failed with exit code ", *rc, " (log ", s->log_, "): ",
                                            why.empty() ? LogReason(ctl_log) : why));
  }

  // pg_ctl -w has seen the postmaster ready; a query proves the socket.
  const auto deadline = Clock::now() + std::chrono::seconds(options.start_timeout_s);
  PgConnectionOptions co = s->connection_options();
  co.connect_timeout_s = 2;
  while (true) {
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(co);
    if (c.ok()) break;
    if (Clock::now() > deadline) {
      return absl::DeadlineExceededError(absl::StrCat("PostgreSQL did not answer on ", s->socket_path(), " within ",
                                                      options.start_timeout_s, " s: ", c.status().message()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return s;
}

std::string PgPrivateServer::socket_path() const { return absl::StrCat(dir_, "/.s.PGSQL.", options_.port); }

PgConnectionOptions PgPrivateServer::connection_options(const std::string& dbname) const {
  PgConnectionOptions o;
  o.host = dir_;
  o.port = options_.port;
  o.user = "postgres";
  o.dbname = dbname;
  o.password = std::string();
  return o;
}

absl::Status PgPrivateServer::Stop() {
  if (removed_) return absl::OkStatus();
  absl::Status result;
  const std::string pid_file = datadir_ + "/postmaster.pid";
  if (::access(pid_file.c_str(), F_OK) == 0) {
    RunAs as;
    if (::geteuid() == 0) {
      if (const struct passwd* pw = ::getpwnam("postgres")) as = RunAs{true, pw->pw_uid, pw->pw_gid};
    }
    const std::vector<std::string> argv = {pg_ctl_, "-D", datadir_, "-m", "fast", "-w", "-t",
                                           absl::StrCat(options_.stop_timeout_s), "stop"};
    absl::StatusOr<int> rc = Run(argv, dir_ + "/pg_ctl.log", as, dir_);
    if (!rc.ok() || *rc != 0) {
      // The first line of postmaster.pid is the postmaster's pid.
      std::ifstream in(pid_file);
      std::string line;
      pid_t pid = 0;
      if (std::getline(in, line) && absl::SimpleAtoi(line, &pid) && pid > 0) {
        ::kill(pid, SIGKILL);
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        while (::kill(pid, 0) == 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      result = absl::DeadlineExceededError(absl::StrCat("pg_ctl stop -m fast failed (log ", dir_,
                                                        "/pg_ctl.log); the postmaster was killed: ",
                                                        LogReason(dir_ + "/pg_ctl.log")));
    }
  }
  if (!options_.keep_dir) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  removed_ = true;
  return result;
}

PgPrivateServer::~PgPrivateServer() { (void)Stop(); }

}  // namespace innosim
