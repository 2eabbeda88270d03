#include "model/server_settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace innosim {
namespace {

// Abseil's string helpers take absl::string_view, which is not
// std::string_view in every Abseil build: local helpers on std::string.
std::string Strip(std::string_view v) {
  size_t b = 0, e = v.size();
  while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
  return std::string(v.substr(b, e - b));
}
std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::optional<ServerFlavor> ServerFlavorByName(std::string_view name) {
  if (name == "mysql-8.4") return ServerFlavor::kMySql84;
  if (name == "mariadb-10.11") return ServerFlavor::kMariaDb1011;
  return std::nullopt;
}

std::string_view ServerFlavorName(ServerFlavor flavor) {
  return flavor == ServerFlavor::kMySql84 ? "mysql-8.4" : "mariadb-10.11";
}

ServerSettings ServerSettings::Defaults(ServerFlavor flavor) {
  ServerSettings s;
  s.flavor = flavor;
  if (flavor == ServerFlavor::kMariaDb1011) {
    // MariaDB 10.11 defaults ([Doc]; innodb-behavior.md §6.4 table).
    s.innodb_lru_scan_depth = 1536;
    s.innodb_io_capacity = 200;
    s.innodb_max_dirty_pages_pct_lwm = 0;
    s.innodb_flush_neighbors = 1;
    s.innodb_log_file_size = 96ull << 20;
  }
  return s;
}

absl::StatusOr<uint64_t> ParseSize(std::string_view text) {
  std::string t = Strip(text);
  if (t.empty()) return absl::InvalidArgumentError("empty value");
  double mult = 1;
  const char last = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  if (last == 'K' || last == 'M' || last == 'G' || last == 'T') {
    mult = last == 'K' ? 1024.0 : last == 'M' ? 1048576.0 : last == 'G' ? 1073741824.0
                                                                          : 1099511627776.0;
    t.pop_back();
  }
  double v = 0;
  if (!absl::SimpleAtod(t, &v) || v < 0 || !std::isfinite(v)) {
    return absl::InvalidArgumentError("not a number: '" + std::string(text) + "'");
  }
  return static_cast<uint64_t>(std::llround(v * mult));
}

namespace {

absl::StatusOr<bool> ParseBool(std::string_view text) {
  std::string t = Upper(Strip(text));
  if (t.empty() || t == "ON" || t == "TRUE" || t == "1" || t == "YES") return true;
  if (t == "OFF" || t == "FALSE" || t == "0" || t == "NO") return false;
  return absl::InvalidArgumentError("not a boolean: '" + std::string(text) + "'");
}

absl::StatusOr<double> ParseDouble(std::string_view text) {
  double v = 0;
  if (!absl::SimpleAtod(Strip(text), &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError("not a number: '" + std::string(text) + "'");
  }
  return v;
}

// Server variables accepted without a modelled effect (they appear in the
// seeds' my.cnf). Normalised with '_'.
constexpr std::string_view kPassthrough[] = {
    "innodb_flush_method",       "skip_log_bin",
    "log_bin",                   "disable_log_bin",
    "innodb_autoinc_lock_mode",  "innodb_change_buffering",
    "innodb_adaptive_hash_index", "innodb_page_cleaners",
    "innodb_log_buffer_size",    "innodb_read_ahead_threshold",
    "innodb_random_read_ahead",  "innodb_file_per_table",
    "innodb_log_write_ahead_size", "innodb_fill_factor",
    "innodb_segment_reserve_factor", "innodb_default_row_format",
    "innodb_buffer_pool_chunk_size", "innodb_log_files_in_group",
    "innodb_doublewrite_batch_size", "innodb_doublewrite_pages",
    "innodb_use_native_aio",     "innodb_stats_persistent",
    "max_connections",           "character_set_server",
    "collation_server",          "innodb_numa_interleave",
    "innodb_checksum_algorithm", "sync_binlog",
    "binlog_format",             "server_id",
    "innodb_log_checkpoint_every", "innodb_write_io_threads",
    "innodb_read_io_threads",    "innodb_purge_threads",
};

}  // namespace

absl::Status ServerSettings::Set(std::string_view raw_name, std::string_view value) {
  std::string name = Lower(Strip(raw_name));
  std::replace(name.begin(), name.end(), '-', '_');
  if (name.rfind("loose_", 0) == 0) name = name.substr(6);

  auto size = [&](uint64_t& field) -> absl::Status {
    auto v = ParseSize(value);
    if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", v.status().message()));
    field = *v;
    return absl::OkStatus();
  };
  auto boolean = [&](bool& field) -> absl::Status {
    auto v = ParseBool(value);
    if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", v.status().message()));
    field = *v;
    return absl::OkStatus();
  };
  auto real = [&](double& field) -> absl::Status {
    auto v = ParseDouble(value);
    if (!v.ok()) return absl::InvalidArgumentError(absl::StrCat(name, ": ", v.status().message()));
    field = *v;
    return absl::OkStatus();
  };

  if (name == "innodb_page_size") return size(innodb_page_size);
  if (name == "innodb_buffer_pool_size") return size(innodb_buffer_pool_size);
  if (name == "innodb_buffer_pool_instances") return size(innodb_buffer_pool_instances);
  if (name == "innodb_old_blocks_pct") return size(innodb_old_blocks_pct);
  if (name == "innodb_old_blocks_time") return size(innodb_old_blocks_time);
  if (name == "innodb_lru_scan_depth") return size(innodb_lru_scan_depth);
  if (name == "innodb_lru_flush_size") return size(innodb_lru_flush_size);
  if (name == "innodb_io_capacity") return size(innodb_io_capacity);
  if (name == "innodb_io_capacity_max") return size(innodb_io_capacity_max);
  if (name == "innodb_max_dirty_pages_pct") return real(innodb_max_dirty_pages_pct);
  if (name == "innodb_max_dirty_pages_pct_lwm") return real(innodb_max_dirty_pages_pct_lwm);
  if (name == "innodb_adaptive_flushing") return boolean(innodb_adaptive_flushing);
  if (name == "innodb_adaptive_flushing_lwm") return real(innodb_adaptive_flushing_lwm);
  if (name == "innodb_flushing_avg_loops") return size(innodb_flushing_avg_loops);
  if (name == "innodb_flush_sync") return boolean(innodb_flush_sync);
  if (name == "innodb_idle_flush_pct") return size(innodb_idle_flush_pct);
  if (name == "innodb_flush_neighbors") return size(innodb_flush_neighbors);
  if (name == "innodb_doublewrite") {
    // MySQL 8.0.30+ also accepts DETECT_AND_RECOVER / DETECT_ONLY ([Doc]);
    // both write the doublewrite buffer for data pages (DETECT_ONLY writes
    // only metadata, counted here as OFF).
    std::string v = Upper(Strip(value));
    if (v == "DETECT_AND_RECOVER") { innodb_doublewrite = true; return absl::OkStatus(); }
    if (v == "DETECT_ONLY") { innodb_doublewrite = false; return absl::OkStatus(); }
    return boolean(innodb_doublewrite);
  }
  if (name == "innodb_redo_log_capacity") return size(innodb_redo_log_capacity);
  if (name == "innodb_log_file_size") return size(innodb_log_file_size);
  if (name == "innodb_thread_concurrency") return size(innodb_thread_concurrency);
  if (name == "innodb_flush_log_at_trx_commit") return size(innodb_flush_log_at_trx_commit);
  for (std::string_view p : kPassthrough) {
    if (name == p) {
      for (auto& [n, v] : passthrough) {
        if (n == name) { v = std::string(value); return absl::OkStatus(); }
      }
      passthrough.emplace_back(name, std::string(value));
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError("unknown server variable '" + std::string(raw_name) + "'");
}

uint64_t ServerSettings::EffectiveIoCapacityMax() const {
  if (innodb_io_capacity_max != 0) return std::max(innodb_io_capacity_max, innodb_io_capacity);
  // [O] handler/ha_innodb.cc (8.0), innodb_io_capacity_max when unset:
  // max(2 * io_capacity, SRV_MAX_IO_CAPACITY_LIMIT-free default 2000).
  return std::max<uint64_t>(2 * innodb_io_capacity, 2000);
}

uint64_t ServerSettings::EffectiveBufferPoolInstances() const {
  if (flavor == ServerFlavor::kMariaDb1011) return 1;  // single buf_pool ([Ma]).
  if (innodb_buffer_pool_instances != 0) return innodb_buffer_pool_instances;
  // [Doc] innodb_buffer_pool_instances: default 8, or 1 if
  // innodb_buffer_pool_size < 1 GiB.
  return innodb_buffer_pool_size < (1ull << 30) ? 1 : 8;
}

uint64_t ServerSettings::BufferPoolPages() const {
  return innodb_page_size == 0 ? 0 : innodb_buffer_pool_size / innodb_page_size;
}

std::vector<std::pair<std::string, std::string>> ServerSettings::Describe() const {
  std::vector<std::pair<std::string, std::string>> out;
  auto u = [&](const char* n, uint64_t v) { out.emplace_back(n, absl::StrCat(v)); };
  auto d = [&](const char* n, double v) { out.emplace_back(n, absl::StrFormat("%g", v)); };
  auto b = [&](const char* n, bool v) { out.emplace_back(n, v ? "ON" : "OFF"); };
  out.emplace_back("profile", std::string(ServerFlavorName(flavor)));
  u("innodb_page_size", innodb_page_size);
  u("innodb_buffer_pool_size", innodb_buffer_pool_size);
  u("innodb_buffer_pool_instances", EffectiveBufferPoolInstances());
  u("innodb_old_blocks_pct", innodb_old_blocks_pct);
  u("innodb_old_blocks_time", innodb_old_blocks_time);
  u("innodb_lru_scan_depth", innodb_lru_scan_depth);
  if (flavor == ServerFlavor::kMariaDb1011) u("innodb_lru_flush_size", innodb_lru_flush_size);
  u("innodb_io_capacity", innodb_io_capacity);
  u("innodb_io_capacity_max", EffectiveIoCapacityMax());
  d("innodb_max_dirty_pages_pct", innodb_max_dirty_pages_pct);
  d("innodb_max_dirty_pages_pct_lwm", innodb_max_dirty_pages_pct_lwm);
  b("innodb_adaptive_flushing", innodb_adaptive_flushing);
  d("innodb_adaptive_flushing_lwm", innodb_adaptive_flushing_lwm);
  u("innodb_flushing_avg_loops", innodb_flushing_avg_loops);
  b("innodb_flush_sync", innodb_flush_sync);
  if (flavor == ServerFlavor::kMySql84) u("innodb_idle_flush_pct", innodb_idle_flush_pct);
  u("innodb_flush_neighbors", innodb_flush_neighbors);
  b("innodb_doublewrite", innodb_doublewrite);
  if (flavor == ServerFlavor::kMySql84) {
    u("innodb_redo_log_capacity", innodb_redo_log_capacity);
  } else {
    u("innodb_log_file_size", innodb_log_file_size);
  }
  u("innodb_thread_concurrency", innodb_thread_concurrency);
  u("innodb_flush_log_at_trx_commit", innodb_flush_log_at_trx_commit);
  for (const auto& p : passthrough) out.push_back(p);
  return out;
}

}  // namespace innosim
