// PrivateServer: a throwaway mariadbd for tests and local measurements.
//
// Start() makes a fresh data directory under a temporary directory
// (mariadb-install-db --no-defaults --user=root
//  --auth-root-authentication-method=normal), starts mariadbd with
// --no-defaults as its first argument, its own socket, no networking, no
// binary log, and the InnoDB settings of seed 000:
//   innodb_flush_log_at_trx_commit=2, innodb_doublewrite=0,
//   innodb_change_buffering=none, innodb_autoinc_lock_mode=2,
//   innodb_flush_method=O_DIRECT (only when the file system accepts O_DIRECT;
//   otherwise the server default, reported by o_direct_note()),
//   innodb_buffer_pool_dump_at_shutdown=0, innodb_buffer_pool_load_at_startup=0,
//   innodb_monitor_enable=index_page%, and a configurable buffer pool size.
// It waits until the socket answers a query (up to start_timeout_s).
//
// The object owns the server process and the directory: Stop() (or the
// destructor) sends SIGTERM, waits for the pid file to go and the process to
// exit, then removes the directory unless keep_dir is set.
//
// Example:
//   PrivateServerOptions o;
//   o.buffer_pool_bytes = 64 << 20;
//   absl::StatusOr<std::unique_ptr<PrivateServer>> s = PrivateServer::Start(o);
//   if (!s.ok()) ...;  // e.g. "mariadbd not found in PATH, ...: install mariadb-server ..."
//   auto conn = ServerConnection::Connect((*s)->connection_options());
//
// Thread-safety: not thread-safe; one owner.
#ifndef INNOSIM_TOOLS_PRIVATE_SERVER_H_
#define INNOSIM_TOOLS_PRIVATE_SERVER_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/server_connection.h"

namespace innosim {

struct PrivateServerOptions {
  // Parent of the temporary directory (innosim-mariadb-XXXXXX) holding the
  // datadir, socket, pid file and logs. Must be a real file system for
  // O_DIRECT (ext4, xfs; not tmpfs).
  std::string base_dir = "/tmp";
  uint64_t buffer_pool_bytes = 128ull << 20;
  // Try O_DIRECT; falls back to the server default when unsupported.
  bool o_direct = true;
  // Extra server options appended as given (e.g. "--innodb-log-file-size=48M").
  std::vector<std::string> extra_args;
  // Options that must also reach mariadb-install-db because the data files
  // are created with them (e.g. "--innodb-page-size=4k"); passed to both.
  std::vector<std::string> install_args;
  int start_timeout_s = 60;
  int stop_timeout_s = 60;
  // Leave the directory in place after Stop() (for inspecting .ibd files).
  bool keep_dir = false;
};

class PrivateServer {
 public:
  static absl::StatusOr<std::unique_ptr<PrivateServer>> Start(const PrivateServerOptions& options);

  ~PrivateServer();  // Stop(), errors ignored.
  PrivateServer(const PrivateServer&) = delete;
  PrivateServer& operator=(const PrivateServer&) = delete;

  // SIGTERM, wait for the pid file to disappear and the process to exit
  // (SIGKILL after stop_timeout_s), remove the directory. Idempotent.
  absl::Status Stop();

  // Root over the private socket, no password.
  ConnectionOptions connection_options() const;

  const std::string& dir() const { return dir_; }
  const std::string& datadir() const { return datadir_; }
  const std::string& socket_path() const { return socket_; }
  const std::string& error_log_path() const { return error_log_; }
  pid_t pid() const { return pid_; }
  // Whether --innodb-flush-method=O_DIRECT was passed, and why not if not.
  bool o_direct() const { return o_direct_; }
  const std::string& o_direct_note() const { return o_direct_note_; }
  // The full mariadbd command line used (for reports).
  const std::vector<std::string>& argv() const { return argv_; }

 private:
  PrivateServer() = default;

  PrivateServerOptions options_;
  std::string dir_;
  std::string datadir_;
  std::string socket_;
  std::string pid_file_;
  std::string error_log_;
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  bool o_direct_ = false;
  std::string o_direct_note_;
  bool stopped_ = false;
};

// Absolute path of a MariaDB program (mariadbd, mariadb-install-db): PATH,
// then /usr/sbin, /usr/bin, /usr/local/sbin, /usr/local/bin. NotFound with a
// message saying to install mariadb-server.
absl::StatusOr<std::string> FindMariadbProgram(const std::string& name);

// Names the mariadbd that Start() runs, for a server built or unpacked
// elsewhere (mariadb-install-db is still looked up by FindMariadbProgram),
// and lets a test run check what a machine without mariadbd is told.
inline constexpr char kMariadbdEnv[] = "INNOSIM_MARIADBD";

// The mariadbd Start() runs: $INNOSIM_MARIADBD when set and not empty
// (NotFound when it is not an executable file, saying so and what to
// install), else FindMariadbProgram("mariadbd").
absl::StatusOr<std::string> FindMariadbd();

// Whether files in `dir` can be opened with O_DIRECT; on false `why` says so.
bool DirectIoSupported(const std::string& dir, std::string* why);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PRIVATE_SERVER_H_
