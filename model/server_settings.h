// ServerSettings: one server's variables as the model reads them. The
// defaults are the server's (MySQL 8.4 or MariaDB 10.11); every assignment,
// whether from `--set`, a my.cnf, an experiment file or a real server's
// SHOW VARIABLES, goes through Set(), which takes it as that server takes
// it: the server's names, units, ranges and clamps.
//
//   ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
//   absl::Status st = s.Set("innodb_buffer_pool_size", "4G", "--set");
//   st = s.Set("innodb-doublewrite", "0", "my.cnf:7");  // '-' and '_' alike
//   st = s.Set("innodb_io_capacity", "0");   // OK: clamped to 100, warning
//   st = s.Set("innodb_foo", "1");           // NotFound: unknown variable
//   st = s.Set("loose-innodb_foo", "1");     // OK: ignored with a warning
//
// Names: mysqld's option rules (mysys/my_getopt.cc): '-' = '_', a `loose-`
// prefix turns "unknown" into a warning, and `skip-`/`disable-`/`enable-`
// before a boolean set it OFF/OFF/ON. Values: integers with K/M/G/T/P/E
// suffixes (powers of 1024, my_getopt.cc eval_num_suffix), decimals for the
// percentage variables, ON/OFF/TRUE/FALSE/1/0 for booleans. Out of range:
// the server's clamp (getopt_ull_limit_value: the value is adjusted to the
// nearest bound and a warning is printed), except where the server refuses
// to start (innodb_page_size) or the model cannot run (a buffer pool below
// the server's minimum): InvalidArgument. A variable that exists on the
// server but has no modelled effect is kept, and Describe() says so.
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_SERVER_SETTINGS_H_
#define INNOSIM_MODEL_SERVER_SETTINGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace innosim {

// Which server's flushing and redo rules apply. Maps from the engine
// profile names "mysql-8.4" and "mariadb-10.11".
enum class ServerFlavor : uint8_t { kMySql84, kMariaDb1011 };

std::optional<ServerFlavor> ServerFlavorByName(std::string_view name);
std::string_view ServerFlavorName(ServerFlavor flavor);

// One assignment of a server variable and where it came from ("--set",
// "my.cnf:7", "experiments/seed000.toml:35", "server").
struct VariableAssignment {
  std::string name;
  std::string value;
  std::string origin = "--set";
  bool operator==(const VariableAssignment&) const = default;
};

struct ServerSettings {
  ServerFlavor flavor = ServerFlavor::kMySql84;

  // --- Pages ---------------------------------------------------------------
  // innodb_page_size: 16384 on both ([Doc] innodb_page_size); 4k-64k.
  uint64_t innodb_page_size = 16384;
  // innodb_segment_reserve_factor: MySQL 8.0.26+ only, 12.5 (% of a file
  // segment's extents kept free; FSEG_RESERVE_PCT_DFLT in include/fsp0fsp.h,
  // [Doc] innodb_segment_reserve_factor: 0.03-40). MariaDB keeps the fixed
  // 1/8 of its fsp0fsp.cc and has no such variable.
  double innodb_segment_reserve_factor = 12.5;

  // innodb_fill_factor: 100 on both ([Doc] innodb_fill_factor, 10-100): how
  // full the sorted index build (OPTIMIZE TABLE) fills its pages
  // (model/bulk_load.h, PageBulk::init). Listed by Describe() only when set,
  // so that runs that never set it print what they always printed.
  uint64_t innodb_fill_factor = 100;

  // --- Statistics (model/dict_stats.h) --------------------------------------
  // innodb_stats_persistent: ON on both ([Doc]): statistics kept in
  // mysql.innodb_table_stats / innodb_index_stats; OFF: transient ones.
  bool innodb_stats_persistent = true;
  // innodb_stats_auto_recalc: ON on both ([Doc]): a table whose rows changed
  // by a tenth is recalculated in the background.
  bool innodb_stats_auto_recalc = true;
  // innodb_stats_persistent_sample_pages: 20 on both ([Doc], 1 to 2^64-1):
  // N_SAMPLE_PAGES, the leaf pages a persistent recalculation dives to.
  uint64_t innodb_stats_persistent_sample_pages = 20;

  // --- Buffer pool ---------------------------------------------------------
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
  // 10.5 ([Doc]; docs/innodb-rules.md, 'Redo and page cleaner, MariaDB').
  uint64_t innodb_lru_scan_depth = 1024;
  // innodb_lru_flush_size: MariaDB only, 32 ([Doc]).
  uint64_t innodb_lru_flush_size = 32;

  // --- Page cleaner --------------------------------------------------------
  // innodb_io_capacity: MySQL 8.4 10000 ([Doc] MySQL 8.4 manual, section 17.8.7);
  // MariaDB 200 ([Doc]).
  uint64_t innodb_io_capacity = 10000;
  // innodb_io_capacity_max: 0 = unset, derived by EffectiveIoCapacityMax()
  // as max(2 * io_capacity, 2000) ([O] handler/ha_innodb.cc, 8.0;
  // MariaDB [Doc]).
  uint64_t innodb_io_capacity_max = 0;
  // innodb_max_dirty_pages_pct: 90 on both ([Doc]; docs/innodb-rules.md,
  // 'Flushing defaults, MySQL' and 'Redo and page cleaner, MariaDB').
  double innodb_max_dirty_pages_pct = 90;
  // innodb_max_dirty_pages_pct_lwm: MySQL 10 ([Doc]); MariaDB 0
  // ([Doc]; docs/innodb-rules.md, 'Redo and page cleaner, MariaDB').
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
  // innodb_flush_neighbors: MySQL 0 ([Doc] 8.0+); MariaDB 1 ([Doc]), but
  // only on rotational storage (storage_rotational below). 1 writes the
  // contiguous dirty pages around a flushed page, 2 every dirty page of its
  // area (buf_flush_try_neighbors; docs/flushing.md).
  uint64_t innodb_flush_neighbors = 0;
  // storage_rotational: not a server variable but what MariaDB asks the
  // kernel about the data file's block device (fil_node_t::find_metadata:
  // on_ssd from /sys/block/<dev>/queue/rotational; fil_space_t::
  // is_rotational: some file not on SSD). The model has no disk, so it is
  // an input: ON, the server's answer when the kernel does not report the
  // device as non-rotational (as on this project's VM, vda: 1). MariaDB
  // flushes neighbours only when it is ON; MySQL 8.4 never asks
  // (buf_flush_try_neighbors has no such check), so it has no effect there.
  // `innosim measure` sets it from the server's datadir device.
  bool storage_rotational = true;
  // innodb_doublewrite: ON on both ([Doc]).
  bool innodb_doublewrite = true;

  // --- Redo log ------------------------------------------------------------
  // innodb_redo_log_capacity: 100 MiB, MySQL 8.0.30+ ([Doc]).
  uint64_t innodb_redo_log_capacity = 100ull << 20;
  // innodb_log_file_size: MariaDB 10.11 96 MiB ([Doc], default since 10.5);
  // MySQL 8.4 48 MiB, deprecated: it sizes the redo log (times
  // innodb_log_files_in_group, default 2) only when innodb_redo_log_capacity
  // is not set ([Doc] innodb_redo_log_capacity).
  uint64_t innodb_log_file_size = 96ull << 20;
  uint64_t innodb_log_files_in_group = 2;
  // innodb_thread_concurrency: 0 ([Doc], both); enters the MySQL free-check
  // margin (log0chkp.cc, log_concurrency_margin).
  uint64_t innodb_thread_concurrency = 0;
  // innodb_flush_log_at_trx_commit: 1 ([Doc]). Not used by the model (it
  // changes when the log is fsynced, not how many bytes it holds).
  uint64_t innodb_flush_log_at_trx_commit = 1;

  // Defaults of one server.
  static ServerSettings Defaults(ServerFlavor flavor);

  // Sets one variable as the server takes it (see the file comment).
  // NotFound: not a variable of this server (the message names the
  // server); InvalidArgument: a value that does not
  // parse or that the server refuses. A clamp or an ignored `loose-`
  // variable succeeds and appends to `warnings`.
  absl::Status Set(std::string_view name, std::string_view value, std::string_view origin = "--set");

  // innodb_io_capacity_max as the server derives it when unset.
  uint64_t EffectiveIoCapacityMax() const;
  // innodb_flush_neighbors as the server applies it: MariaDB skips
  // neighbours on non-rotational storage (0 then).
  uint64_t EffectiveFlushNeighbors() const;
  // innodb_buffer_pool_instances as the server derives it when 0.
  uint64_t EffectiveBufferPoolInstances() const;
  // Frames in the buffer pool, as the server's Innodb_buffer_pool_pages_total
  // reports them: innodb_buffer_pool_size as the server rounds it, less the
  // memory its block descriptors (buf_block_t) take where the server carves
  // them out of the pool (MariaDB; MySQL allocates them in addition). See
  // BufferPoolFrames() in server_settings.cc and docs/flushing.md.
  uint64_t BufferPoolPages() const;
  // The redo log's capacity in bytes: innodb_redo_log_capacity, or MySQL's
  // fallback to innodb_log_file_size * innodb_log_files_in_group when only
  // those were set; MariaDB's single file is innodb_log_file_size.
  uint64_t EffectiveRedoLogCapacity() const;

  // One row of the settings printout.
  struct Row {
    std::string name;
    std::string value;
    std::string origin;     // "mysql-8.4 default", "--set", "my.cnf:7", ...
    bool modelled = true;   // false: accepted, no effect in the model
    bool operator==(const Row&) const = default;
  };
  // Every variable of this server the model reads, then the ones that were
  // set without an effect in the model, in the order they were set.
  std::vector<Row> Describe() const;

  // The variable names Set() knows for `flavor` (for suggestions).
  static const std::vector<std::string>& VariableNames(ServerFlavor flavor);

  // Where each variable that was set came from (canonical name -> origin).
  std::map<std::string, std::string> origins;
  // origins[name], or "" when the variable kept its default.
  std::string OriginOf(std::string_view name) const;
  // Variables the model keeps as written (no field): (canonical name,
  // value), in the order they were first set. Most have no effect;
  // character_set_server and collation_server are the default character
  // set and collation of a table that names none (sim/table_parser.h).
  std::vector<std::pair<std::string, std::string>> unmodelled;
  // The value of a variable kept as written, or "" when it was not set.
  std::string TextOf(std::string_view name) const;
  // Clamps and ignored loose- variables, "origin: what happened".
  std::vector<std::string> warnings;
};

// A server size or number as mysqld reads it: a whole number with an
// optional K/M/G/T/P/E suffix (powers of 1024). Fractions, signs and
// values above 2^64-1 are errors.
absl::StatusOr<uint64_t> ParseSize(std::string_view text);

}  // namespace innosim

#endif  // INNOSIM_MODEL_SERVER_SETTINGS_H_
