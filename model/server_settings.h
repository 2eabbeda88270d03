// ServerSettings: the server variables the flushing model reads, with the
// defaults of MySQL 8.4 and MariaDB 10.11, and a name -> value setter that
// accepts what users write in my.cnf or `--set name=value`.
//
//   ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
//   absl::Status st = s.Set("innodb_buffer_pool_size", "4G");
//   st = s.Set("innodb-doublewrite", "0");       // '-' and '_' are the same
//   st = s.Set("loose_innodb_foo", "1");        // NotFound: unknown variable
//
// Names are the servers' own variable names. Values accept K/M/G/T suffixes
// (powers of 1024, as mysqld's option parser does) and ON/OFF/TRUE/FALSE/1/0
// for booleans. Variables the model recognises but does not use (e.g.
// innodb_flush_method) are accepted and kept for the settings printout.
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_SERVER_SETTINGS_H_
#define INNOSIM_MODEL_SERVER_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace innosim {

// Which server's flushing and redo rules apply. Maps from the engine
// profile names "mysql-8.4" and "mariadb-10.11".
enum class ServerFlavor : uint8_t { kMySql84, kMariaDb1011 };

std::optional<ServerFlavor> ServerFlavorByName(std::string_view name);
std::string_view ServerFlavorName(ServerFlavor flavor);

struct ServerSettings {
  ServerFlavor flavor = ServerFlavor::kMySql84;

  // --- Buffer pool ---------------------------------------------------------
  // innodb_page_size: 16384 on both ([Doc] innodb_page_size).
  uint64_t innodb_page_size = 16384;
  // innodb_buffer_pool_size: 128 MiB on both ([Doc] innodb_buffer_pool_size).
  uint64_t innodb_buffer_pool_size = 128ull << 20;
  // innodb_buffer_pool_instances: 0 = server's automatic choice. MySQL 8.4:
  // 8, or 1 when innodb_buffer_pool_size < 1 GiB ([Doc]
  // innodb_buffer_pool_instances). MariaDB 10.11 has a single instance
  // (the variable was removed in 10.6; [Ma] buf_pool_t is a single object).
  uint64_t innodb_buffer_pool_instances = 0;
  // innodb_old_blocks_pct: 37 ([Doc] innodb_old_blocks_pct, both servers).
  uint64_t innodb_old_blocks_pct = 37;
  // innodb_old_blocks_time: 1000 ms ([Doc] innodb_old_blocks_time, both).
  uint64_t innodb_old_blocks_time = 1000;
  // innodb_lru_scan_depth: MySQL 1024 ([Doc]; WL#5580); MariaDB 1536 since
  // 10.5 ([Doc]; innodb-behavior.md §6.4).
  uint64_t innodb_lru_scan_depth = 1024;
  // innodb_lru_flush_size: MariaDB only, 32 ([Doc]).
  uint64_t innodb_lru_flush_size = 32;

  // --- Page cleaner --------------------------------------------------------
  // innodb_io_capacity: MySQL 8.4 10000 ([Doc] MySQL 8.4 manual §17.8.7);
  // MariaDB 200 ([Doc]).
  uint64_t innodb_io_capacity = 10000;
  // innodb_io_capacity_max: 0 = unset, derived by EffectiveIoCapacityMax()
  // as max(2 * io_capacity, 2000) ([O] handler/ha_innodb.cc, 8.0;
  // MariaDB [Doc]).
  uint64_t innodb_io_capacity_max = 0;
  // innodb_max_dirty_pages_pct: 90 on both ([Doc]; innodb-behavior.md §6.3,
  // §6.4).
  double innodb_max_dirty_pages_pct = 90;
  // innodb_max_dirty_pages_pct_lwm: MySQL 10 ([Doc], §6.3); MariaDB 0
  // ([Doc], §6.4).
  double innodb_max_dirty_pages_pct_lwm = 10;
  // innodb_adaptive_flushing: ON ([Doc], both).
  bool innodb_adaptive_flushing = true;
  // innodb_adaptive_flushing_lwm: 10 ([Doc], both).
  double innodb_adaptive_flushing_lwm = 10;
  // innodb_flushing_avg_loops: 30 ([Doc], both).
  uint64_t innodb_flushing_avg_loops = 30;
  // innodb_flush_sync: ON ([Doc], both).
  bool innodb_flush_sync = true;
  // innodb_idle_flush_pct: 100 (MySQL [Doc]; MariaDB ignores it).
  uint64_t innodb_idle_flush_pct = 100;
  // innodb_flush_neighbors: MySQL 0 ([Doc] 8.0+); MariaDB 1 but only on
  // rotational storage ([Mb] buf/buf0flu.cc). The model writes no
  // neighbours (SSD assumed for MariaDB; 0 for MySQL).
  uint64_t innodb_flush_neighbors = 0;
  // innodb_doublewrite: ON on both ([Doc]).
  bool innodb_doublewrite = true;

  // --- Redo log ------------------------------------------------------------
  // innodb_redo_log_capacity: 100 MiB, MySQL 8.0.30+ ([Doc]).
  uint64_t innodb_redo_log_capacity = 100ull << 20;
  // innodb_log_file_size: MariaDB 10.11 96 MiB ([Doc], default since 10.5).
  // MySQL 8.4 deprecates it in favour of innodb_redo_log_capacity.
  uint64_t innodb_log_file_size = 96ull << 20;
  // innodb_thread_concurrency: 0 ([Doc], both); enters the MySQL free-check
  // margin (log0chkp.cc, log_concurrency_margin).
  uint64_t innodb_thread_concurrency = 0;
  // innodb_flush_log_at_trx_commit: 1 ([Doc]). Not used by the model (it
  // changes when the log is fsynced, not how many bytes it holds).
  uint64_t innodb_flush_log_at_trx_commit = 1;

  // Defaults of one server.
  static ServerSettings Defaults(ServerFlavor flavor);

  // Sets one variable. `name` may use '-' or '_' and may carry a "loose-"
  // prefix. An empty `value` means ON for booleans (as `skip_log_bin` is
  // written without a value). Returns NotFound for an unknown variable and
  // InvalidArgument for a value that does not parse.
  absl::Status Set(std::string_view name, std::string_view value);

  // innodb_io_capacity_max as the server derives it when unset.
  uint64_t EffectiveIoCapacityMax() const;
  // innodb_buffer_pool_instances as the server derives it when 0.
  uint64_t EffectiveBufferPoolInstances() const;
  // Frames in the buffer pool: innodb_buffer_pool_size / innodb_page_size.
  uint64_t BufferPoolPages() const;

  // (name, value) of every variable, for the settings printout; the
  // recognised-but-unused ones that were Set() come last.
  std::vector<std::pair<std::string, std::string>> Describe() const;

  // Variables accepted by Set() without a modelled effect, as written.
  std::vector<std::pair<std::string, std::string>> passthrough;
};

// Parses "128M", "4G", "1024", "1.5G" (suffixes K, M, G, T: powers of 1024).
absl::StatusOr<uint64_t> ParseSize(std::string_view text);

}  // namespace innosim

#endif  // INNOSIM_MODEL_SERVER_SETTINGS_H_
