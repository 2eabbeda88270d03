#include "tools/private_server.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tools/child_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool IsExecutable(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Last `max_lines` lines of a file, joined with " | " (one-line messages).
std::string Tail(const std::string& path, int max_lines) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    lines.push_back(line);
    if (lines.size() > static_cast<size_t>(max_lines)) lines.erase(lines.begin());
  }
  return absl::StrJoin(lines, " | ");
}

// The lines of a log that report errors (for a one-line message), or its
// last lines when none does.
std::string ErrorLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line) && lines.size() < 3) {
    if (line.find("ERROR") != std::string::npos || line.find("rror:") != std::string::npos) lines.push_back(line);
  }
  return lines.empty() ? Tail(path, 3) : absl::StrJoin(lines, " | ");
}

// What every "not found" says, so that a machine without MariaDB is one
// command away from running the server tests.
constexpr char kInstallMariadbServer[] =
    "install mariadb-server (tools/install-deps.sh does; or apt-get install -y --no-install-recommends "
    "mariadb-server mariadb-client)";

}  // namespace

absl::StatusOr<std::string> FindMariadbProgram(const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    for (absl::string_view d : absl::StrSplit(path, ':', absl::SkipEmpty())) dirs.emplace_back(d);
  }
  for (const char* d : {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"}) dirs.emplace_back(d);
  for (const std::string& d : dirs) {
    const std::string p = absl::StrCat(d, "/", name);
    if (IsExecutable(p)) return p;
  }
  return absl::NotFoundError(absl::StrCat(name, " not found in PATH, /usr/sbin, /usr/bin, /usr/local/sbin or /usr/local/bin: ",
                                          kInstallMariadbServer));
}

absl::StatusOr<std::string> FindMariadbd() {
  const char* env = std::getenv(kMariadbdEnv);
  if (env == nullptr || *env == '\0') return FindMariadbProgram("mariadbd");
  if (IsExecutable(env)) return std::string(env);
  return absl::NotFoundError(absl::StrCat("mariadbd not found: ", kMariadbdEnv, "=", env,
                                          " is not an executable file; point it at mariadbd, or unset it and ",
                                          kInstallMariadbServer));
}

bool DirectIoSupported(const std::string& dir, std::string* why) {
  const std::string probe = dir + "/.o_direct_probe";
  const int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_DIRECT, 0600);
  if (fd < 0) {
    if (why != nullptr) {
      *why = absl::StrCat("O_DIRECT not supported in ", dir, " (", std::strerror(errno),
                          "); using the server's default innodb_flush_method");
    }
    ::unlink(probe.c_str());
    return false;
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

absl::StatusOr<std::unique_ptr<PrivateServer>> PrivateServer::Start(
    const PrivateServerOptions& options) {
  absl::StatusOr<std::string> mariadbd = FindMariadbd();
  if (!mariadbd.ok()) return mariadbd.status();
  absl::StatusOr<std::string> install_db = FindMariadbProgram("mariadb-install-db");
  if (!install_db.ok()) return install_db.status();

  std::unique_ptr<PrivateServer> s(new PrivateServer());
  s->options_ = options;
  std::string tmpl = absl::StrCat(options.base_dir, "/innosim-mariadb-XXXXXX");
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return absl::InternalError(
        absl::StrCat("cannot create a directory under ", options.base_dir, ": ", std::strerror(errno)));
  }
  s->dir_ = tmpl;
  s->datadir_ = s->dir_ + "/data";
  s->socket_ = s->dir_ + "/sock";
  s->pid_file_ = s->dir_ + "/mariadbd.pid";
  s->error_log_ = s->dir_ + "/error.log";
  // From here on the destructor cleans up the directory.

  const bool as_root = ::geteuid() == 0;
  {
    std::vector<std::string> argv = {*install_db, "--no-defaults"};
    if (as_root) argv.push_back("--user=root");
    argv.push_back("--datadir=" + s->datadir_);
    argv.push_back("--auth-root-authentication-method=normal");
    argv.push_back("--skip-test-db");
    for (const std::string& a : options.install_args) argv.push_back(a);
    const std::string log = s->dir_ + "/install.log";
    // Two servers bootstrapping at once on a loaded machine (ctest -j2) have
    // seen a transient bootstrap failure: a second attempt on a clean data
    // directory; a persistent failure is reported with the log's errors.
    for (int attempt = 0;; ++attempt) {
      std::error_code ec;
      std::filesystem::remove_all(s->datadir_, ec);
      absl::StatusOr<pid_t> pid = SpawnLogged(argv, log);
      if (!pid.ok()) return pid.status();
      if (WaitForExit(*pid) == 0) break;
      if (attempt == 1) {
        return absl::InternalError(absl::StrCat("mariadb-install-db failed twice (see ", log, "): ",
                                                ErrorLines(log)));
      }
    }
  }

  std::vector<std::string>& argv = s->argv_;
  argv = {*mariadbd, "--no-defaults"};
  if (as_root) argv.push_back("--user=root");
  argv.push_back("--datadir=" + s->datadir_);
  argv.push_back("--socket=" + s->socket_);
  argv.push_back("--pid-file=" + s->pid_file_);
  argv.push_back("--log-error=" + s->error_log_);
  argv.push_back("--skip-networking");
  argv.push_back("--skip-log-bin");
  argv.push_back("--innodb-flush-log-at-trx-commit=2");
  argv.push_back("--innodb-doublewrite=0");
  argv.push_back("--innodb-change-buffering=none");
  argv.push_back("--innodb-autoinc-lock-mode=2");
  argv.push_back("--innodb-buffer-pool-dump-at-shutdown=0");
  argv.push_back("--innodb-buffer-pool-load-at-startup=0");
  argv.push_back("--innodb-monitor-enable=index_page%");
  argv.push_back(absl::StrCat("--innodb-buffer-pool-size=", options.buffer_pool_bytes));
  if (options.o_direct) {
    s->o_direct_ = DirectIoSupported(s->datadir_, &s->o_direct_note_);
    if (s->o_direct_) argv.push_back("--innodb-flush-method=O_DIRECT");
  } else {
    s->o_direct_note_ = "O_DIRECT not requested; using the server's default innodb_flush_method";
  }
  for (const std::string& a : options.install_args) argv.push_back(a);
  for (const std::string& a : options.extra_args) argv.push_back(a);

  absl::StatusOr<pid_t> pid = SpawnLogged(argv, s->dir_ + "/stdout.log");
  if (!pid.ok()) return pid.status();
  s->pid_ = *pid;

  const auto deadline = Clock::now() + std::chrono::seconds(options.start_timeout_s);
  ConnectionOptions co = s->connection_options();
  co.connect_timeout_s = 2;
  absl::Status last;
  while (true) {
    int status = 0;
    if (::waitpid(s->pid_, &status, WNOHANG) == s->pid_) {
      s->pid_ = -1;
      s->stopped_ = true;
      return absl::InternalError(absl::StrCat("mariadbd exited during startup (log ", s->error_log_,
                                              "): ", Tail(s->error_log_, 3)));
    }
    if (::access(s->socket_.c_str(), F_OK) == 0) {
      absl::StatusOr<std::unique_ptr<ServerConnection>> c = ServerConnection::Connect(co);
      if (c.ok()) break;
      last = c.status();
    }
    if (Clock::now() > deadline) {
      (void)s->Stop();
      return absl::DeadlineExceededError(absl::StrCat(
          "mariadbd did not answer on ", s->socket_, " within ", options.start_timeout_s, " s",
          last.ok() ? "" : absl::StrCat(" (last: ", last.message(), ")")));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return s;
}

ConnectionOptions PrivateServer::connection_options() const {
  ConnectionOptions o;
  o.socket = socket_;
  o.user = "root";
  o.password = std::string();
  return o;
}

absl::Status PrivateServer::Stop() {
  absl::Status result;
  if (!stopped_ && pid_ > 0) {
    stopped_ = true;
    ::kill(pid_, SIGTERM);
    const auto deadline = Clock::now() + std::chrono::seconds(options_.stop_timeout_s);
    bool exited = false;
    while (true) {
      int status = 0;
      if (!exited && ::waitpid(pid_, &status, WNOHANG) == pid_) exited = true;
      const bool pid_file_gone = ::access(pid_file_.c_str(), F_OK) != 0;
      if (exited && pid_file_gone) break;
      if (Clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        result = absl::DeadlineExceededError(absl::StrCat(
            "mariadbd (pid ", pid_, ") did not stop within ", options_.stop_timeout_s,
            " s of SIGTERM; killed"));
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    pid_ = -1;
  }
  stopped_ = true;
  if (!dir_.empty() && !options_.keep_dir) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
  return result;
}

PrivateServer::~PrivateServer() { (void)Stop(); }

}  // namespace innosim
