#include "model/server_settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/engine_profile.h"

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
bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// MariaDB keeps innodb_buffer_pool_size a whole number of MiB, rounding
// down: the sysvar's block size (handler/ha_innodb.cc,
// MYSQL_SYSVAR_ULONGLONG(buffer_pool_size, ..., 1024*1024L));
// buf_pool_t::create() asserts it. 100.5M starts as 100M.
constexpr uint64_t kMariaDbPoolSizeUnit = 1ull << 20;

// How a variable's value is read.
enum class Kind : uint8_t {
  kInteger,      // whole number, K/M/G/T/P/E suffixes (my_getopt.cc)
  kDecimal,      // a double sysvar (the percentages)
  kBool,         // ON/OFF
  kDoublewrite,  // MySQL 8.0.30+: ON/OFF/DETECT_AND_RECOVER/DETECT_ONLY; MariaDB 10.11: ON/OFF
  kPageSize,     // one of 4k..64k; anything else stops the server
  kText,         // kept as written (no modelled effect)
};

// Which servers have the variable, and on which of them the model uses it.
constexpr uint8_t kMy = 1, kMa = 2, kBoth = kMy | kMa;
uint8_t Bit(ServerFlavor f) { return f == ServerFlavor::kMySql84 ? kMy : kMa; }

// Below `min` the model refuses instead of clamping.
enum class Low : uint8_t { kClamp, kRefuse };

struct VariableDef {
  std::string_view name;
  Kind kind;
  uint8_t servers;
  uint8_t modelled;
  // Documented ranges ([Doc] each variable's "Minimum/Maximum Value" in the
  // MySQL 8.4 and MariaDB 10.11 manuals); ignored for kBool/kText.
  double my_min = 0, my_max = 0, ma_min = 0, ma_max = 0;
  Low low = Low::kClamp;
  uint64_t ServerSettings::*u = nullptr;
  double ServerSettings::*d = nullptr;
  bool ServerSettings::*b = nullptr;
};

using S = ServerSettings;
constexpr double kMax = 18446744073709551615.0;  // 2^64-1 as the manuals write it

// Every variable Set() knows. A variable the model does not read is listed
// with kText (no field); the Describe() printout marks it.
const VariableDef kVariables[] = {
    {"innodb_page_size", Kind::kPageSize, kBoth, kBoth, kUnivPageSizeMin, kUnivPageSizeMax, kUnivPageSizeMin,
     kUnivPageSizeMax, Low::kRefuse, &S::innodb_page_size},
    {"innodb_segment_reserve_factor", Kind::kDecimal, kMy, kMy, 0.03, 40, 0, 0, Low::kClamp, nullptr,
     &S::innodb_segment_reserve_factor},
    // Outside 10-100 adjusted into the range with a warning, as the server
    // does.
    {"innodb_fill_factor", Kind::kInteger, kBoth, kBoth, 10, 100, 10, 100, Low::kClamp, &S::innodb_fill_factor},
    {"innodb_stats_persistent", Kind::kBool, kBoth, kBoth, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::innodb_stats_persistent},
    {"innodb_stats_auto_recalc", Kind::kBool, kBoth, kBoth, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::innodb_stats_auto_recalc},
    {"innodb_stats_persistent_sample_pages", Kind::kInteger, kBoth, kBoth, 1, kMax, 1, kMax, Low::kClamp,
     &S::innodb_stats_persistent_sample_pages},
    // Below the server's minimum the model refuses: the server itself would
    // round up to its minimum, but a pool that small is never what a user
    // meant, and the tree needs frames for a whole mini-transaction.
    {"innodb_buffer_pool_size", Kind::kInteger, kBoth, kBoth, 5242880, kMax, 2097152, kMax, Low::kRefuse,
     &S::innodb_buffer_pool_size},
    {"innodb_buffer_pool_instances", Kind::kInteger, kMy, kMy, 1, 64, 0, 0, Low::kClamp,
     &S::innodb_buffer_pool_instances},
    {"innodb_old_blocks_pct", Kind::kInteger, kBoth, kBoth, 5, 95, 5, 95, Low::kClamp, &S::innodb_old_blocks_pct},
    {"innodb_old_blocks_time", Kind::kInteger, kBoth, kBoth, 0, 4294967295.0, 0, 4294967295.0, Low::kClamp,
     &S::innodb_old_blocks_time},
    {"innodb_lru_scan_depth", Kind::kInteger, kBoth, kBoth, 100, kMax, 100, kMax, Low::kClamp,
     &S::innodb_lru_scan_depth},
    {"innodb_lru_flush_size", Kind::kInteger, kMa, kMa, 0, 0, 1, kMax, Low::kClamp, &S::innodb_lru_flush_size},
    {"innodb_io_capacity", Kind::kInteger, kBoth, kBoth, 100, kMax, 100, kMax, Low::kClamp,
     &S::innodb_io_capacity},
    {"innodb_io_capacity_max", Kind::kInteger, kBoth, kBoth, 100, kMax, 100, kMax, Low::kClamp,
     &S::innodb_io_capacity_max},
    {"innodb_max_dirty_pages_pct", Kind::kDecimal, kBoth, kBoth, 0, 99.999, 0, 99.999, Low::kClamp, nullptr,
     &S::innodb_max_dirty_pages_pct},
    {"innodb_max_dirty_pages_pct_lwm", Kind::kDecimal, kBoth, kBoth, 0, 99.999, 0, 99.999, Low::kClamp, nullptr,
     &S::innodb_max_dirty_pages_pct_lwm},
    {"innodb_adaptive_flushing", Kind::kBool, kBoth, kBoth, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::innodb_adaptive_flushing},
    {"innodb_adaptive_flushing_lwm", Kind::kDecimal, kBoth, kBoth, 0, 70, 0, 70, Low::kClamp, nullptr,
     &S::innodb_adaptive_flushing_lwm},
    {"innodb_flushing_avg_loops", Kind::kInteger, kBoth, kBoth, 1, 1000, 1, 1000, Low::kClamp,
     &S::innodb_flushing_avg_loops},
    {"innodb_flush_sync", Kind::kBool, kBoth, kBoth, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::innodb_flush_sync},
    {"innodb_idle_flush_pct", Kind::kInteger, kBoth, kMy, 0, 100, 0, 100, Low::kClamp, &S::innodb_idle_flush_pct},
    {"innodb_flush_neighbors", Kind::kInteger, kBoth, kBoth, 0, 2, 0, 2, Low::kClamp, &S::innodb_flush_neighbors},
    // Not a server variable: the data files' storage as MariaDB sees it
    // (ServerSettings::storage_rotational).
    {"storage_rotational", Kind::kBool, kBoth, kMa, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::storage_rotational},
    {"innodb_doublewrite", Kind::kDoublewrite, kBoth, kBoth, 0, 0, 0, 0, Low::kClamp, nullptr, nullptr,
     &S::innodb_doublewrite},
    {"innodb_redo_log_capacity", Kind::kInteger, kMy, kMy, 8388608, 137438953472.0, 0, 0, Low::kClamp,
     &S::innodb_redo_log_capacity},
    {"innodb_log_file_size", Kind::kInteger, kBoth, kBoth, 4194304, 549755813888.0, 1048576, 549755813888.0,
     Low::kClamp, &S::innodb_log_file_size},
    {"innodb_log_files_in_group", Kind::kInteger, kMy, kMy, 2, 100, 0, 0, Low::kClamp,
     &S::innodb_log_files_in_group},
    {"innodb_thread_concurrency", Kind::kInteger, kBoth, kMy, 0, 1000, 0, 1000, Low::kClamp,
     &S::innodb_thread_concurrency},
    {"innodb_flush_log_at_trx_commit", Kind::kInteger, kBoth, 0, 0, 2, 0, 3, Low::kClamp,
     &S::innodb_flush_log_at_trx_commit},
    // Variables of the seeds' my.cnf and of common configurations that the
    // model does not read.
    {"innodb_flush_method", Kind::kText, kBoth, 0},
    {"skip_log_bin", Kind::kText, kBoth, 0},
    {"log_bin", Kind::kText, kBoth, 0},
    {"disable_log_bin", Kind::kText, kBoth, 0},
    {"innodb_autoinc_lock_mode", Kind::kText, kBoth, 0},
    {"innodb_change_buffering", Kind::kText, kBoth, 0},
    {"innodb_adaptive_hash_index", Kind::kText, kBoth, 0},
    {"innodb_page_cleaners", Kind::kText, kBoth, 0},
    {"innodb_log_buffer_size", Kind::kText, kBoth, 0},
    {"innodb_read_ahead_threshold", Kind::kText, kBoth, 0},
    {"innodb_random_read_ahead", Kind::kText, kBoth, 0},
    {"innodb_file_per_table", Kind::kText, kBoth, 0},
    {"innodb_log_write_ahead_size", Kind::kText, kBoth, 0},
    {"innodb_default_row_format", Kind::kText, kBoth, 0},
    {"innodb_buffer_pool_chunk_size", Kind::kText, kBoth, 0},
    {"innodb_doublewrite_batch_size", Kind::kText, kMy, 0},
    {"innodb_doublewrite_pages", Kind::kText, kMy, 0},
    {"innodb_use_native_aio", Kind::kText, kBoth, 0},
    {"innodb_monitor_enable", Kind::kText, kBoth, 0},
    {"max_connections", Kind::kText, kBoth, 0},
    // Kept as written; the table parser takes them as the default character
    // set and collation of a CREATE TABLE that names none (TextOf).
    {"character_set_server", Kind::kText, kBoth, kBoth},
    {"collation_server", Kind::kText, kBoth, kBoth},
    {"innodb_numa_interleave", Kind::kText, kBoth, 0},
    {"innodb_checksum_algorithm", Kind::kText, kBoth, 0},
    {"sync_binlog", Kind::kText, kBoth, 0},
    {"binlog_format", Kind::kText, kBoth, 0},
    {"server_id", Kind::kText, kBoth, 0},
    {"innodb_log_checkpoint_every", Kind::kText, kMy, 0},
    {"innodb_write_io_threads", Kind::kText, kBoth, 0},
    {"innodb_read_io_threads", Kind::kText, kBoth, 0},
    {"innodb_purge_threads", Kind::kText, kBoth, 0},
};

const VariableDef* FindVariable(std::string_view name) {
  for (const VariableDef& v : kVariables) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// "innodb-io-capacity" -> "innodb_io_capacity" (my_getopt.cc compares
// option names with '-' and '_' alike).
std::string Canonical(std::string_view raw) {
  std::string name = Lower(Strip(raw));
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

absl::StatusOr<bool> ParseBool(std::string_view text) {
  std::string t = Upper(Strip(text));
  if (t.empty() || t == "ON" || t == "TRUE" || t == "1" || t == "YES") return true;
  if (t == "OFF" || t == "FALSE" || t == "0" || t == "NO") return false;
  return absl::InvalidArgumentError(absl::StrCat("'", std::string(text), "' is not a boolean: write ON or OFF"));
}

absl::StatusOr<double> ParseDecimal(std::string_view text) {
  double v = 0;
  if (!absl::SimpleAtod(Strip(text), &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError(absl::StrCat("'", std::string(text), "' is not a number"));
  }
  return v;
}

std::string FormatDecimal(double v) { return absl::StrFormat("%g", v); }

// "100-1000", or "at least 100" for a maximum of 2^64-1.
std::string RangeText(double lo, double hi, bool integer) {
  const std::string l = integer ? absl::StrFormat("%.0f", lo) : FormatDecimal(lo);
  if (hi >= kMax) return absl::StrCat("at least ", l);
  return absl::StrCat(l, "-", integer ? absl::StrFormat("%.0f", hi) : FormatDecimal(hi));
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
    // MariaDB 10.11 defaults ([Doc]; docs/innodb-rules.md, 'Redo and page cleaner, MariaDB').
    s.innodb_lru_scan_depth = 1536;
    s.innodb_io_capacity = 200;
    s.innodb_max_dirty_pages_pct_lwm = 0;
    s.innodb_flush_neighbors = 1;
    s.innodb_log_file_size = 96ull << 20;
  } else {
    // MySQL 8.4: innodb_log_file_size 48 MiB ([Doc], deprecated).
    s.innodb_log_file_size = 48ull << 20;
  }
  return s;
}

absl::StatusOr<uint64_t> ParseSize(std::string_view text) {
  const std::string t = Strip(text);
  if (t.empty()) return absl::InvalidArgumentError("empty value: write a whole number such as 128M");
  size_t digits = 0;
  while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
  const std::string_view rest = std::string_view(t).substr(digits);
  if (digits == 0 || rest.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", std::string(text), "' is not a size: write a whole number, optionally with K, M, G or T (powers of 1024)"));
  }
  uint64_t v = 0;
  if (!absl::SimpleAtoi(t.substr(0, digits), &v)) {
    return absl::InvalidArgumentError(absl::StrCat("'", std::string(text), "' is above the largest value, 2^64-1"));
  }
  int shift = 0;
  if (!rest.empty()) {
    switch (std::toupper(static_cast<unsigned char>(rest[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'P': shift = 50; break;
      case 'E': shift = 60; break;
      default:
        return absl::InvalidArgumentError(
            absl::StrCat("'", std::string(text), "' has an unknown suffix: use K, M, G or T (powers of 1024)"));
    }
  }
  if (shift > 0 && v > (kU64Max >> shift)) {
    return absl::InvalidArgumentError(absl::StrCat("'", std::string(text), "' is above the largest value, 2^64-1"));
  }
  return v << shift;
}

absl::Status ServerSettings::Set(std::string_view raw_name_v, std::string_view raw_value_v,
                                 std::string_view origin_v) {
  const std::string raw_name(raw_name_v), raw_value(raw_value_v), origin(origin_v);
  std::string name = Canonical(raw_name);
  bool loose = false;
  if (StartsWith(name, "loose_")) {
    loose = true;
    name = name.substr(6);
  }
  std::string value = Strip(raw_value);
  const VariableDef* def = FindVariable(name);
  // Boolean option prefixes (my_getopt.cc): --skip-X and --disable-X mean
  // X=OFF, --enable-X means X=ON; they take no value.
  if (def == nullptr && value.empty()) {
    for (const auto& [prefix, v] : {std::pair<std::string_view, std::string_view>{"skip_", "OFF"},
                                    {"disable_", "OFF"},
                                    {"enable_", "ON"}}) {
      if (!StartsWith(name, prefix)) continue;
      const VariableDef* d = FindVariable(name.substr(prefix.size()));
      if (d != nullptr && (d->kind == Kind::kBool || d->kind == Kind::kDoublewrite)) {
        name = name.substr(prefix.size());
        value = std::string(v);
        def = d;
        break;
      }
    }
  }
  const std::string server(ServerFlavorName(flavor));
  if (def == nullptr || (def->servers & Bit(flavor)) == 0) {
    const std::string why =
        def == nullptr ? absl::StrCat("unknown server variable '", raw_name, "'")
                       : absl::StrCat("'", name, "' is not a variable of ", server);
    if (loose) {
      // A loose- option the server does not know is skipped with a warning.
      warnings.push_back(absl::StrCat(origin, ": ", why, " (loose-: ignored, as the server ignores it)"));
      return absl::OkStatus();
    }
    return absl::NotFoundError(why);
  }
  const bool mysql = flavor == ServerFlavor::kMySql84;
  const double lo = mysql ? def->my_min : def->ma_min;
  const double hi = mysql ? def->my_max : def->ma_max;
  auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(name, "=", raw_value, ": ", what));
  };

  switch (def->kind) {
    case Kind::kText:
      break;
    case Kind::kBool: {
      absl::StatusOr<bool> v = ParseBool(value);
      if (!v.ok()) return bad(std::string(v.status().message()));
      this->*(def->b) = *v;
      break;
    }
    case Kind::kDoublewrite: {
      // MySQL 8.0.30+: DETECT_AND_RECOVER writes the doublewrite buffer as
      // ON does; DETECT_ONLY writes only metadata, counted here as OFF.
      const std::string u = Upper(value);
      if (mysql && u == "DETECT_AND_RECOVER") {
        innodb_doublewrite = true;
      } else if (mysql && u == "DETECT_ONLY") {
        innodb_doublewrite = false;
      } else {
        absl::StatusOr<bool> v = ParseBool(value);
        if (!v.ok()) {
          return bad(mysql ? "write ON, OFF, DETECT_AND_RECOVER or DETECT_ONLY" : "write ON or OFF");
        }
        innodb_doublewrite = *v;
      }
      break;
    }
    case Kind::kPageSize: {
      absl::StatusOr<uint64_t> v = ParseSize(value);
      if (!v.ok()) return bad(std::string(v.status().message()));
      if (!IsSupportedPageSize(*v)) {
        return bad(absl::StrCat("InnoDB pages are ", SupportedPageSizesInK(), " (", SupportedPageSizesInBytes(), ")"));
      }
      innodb_page_size = *v;
      break;
    }
    case Kind::kInteger: {
      absl::StatusOr<uint64_t> v = ParseSize(value);
      if (!v.ok()) return bad(std::string(v.status().message()));
      uint64_t x = *v;
      if (static_cast<double>(x) < lo) {
        if (def->low == Low::kRefuse) {
          return bad(absl::StrFormat("below %s's minimum of %.0f: give at least that", server, lo));
        }
        x = static_cast<uint64_t>(lo);
      } else if (static_cast<double>(x) > hi) {
        x = static_cast<uint64_t>(hi);
      }
      if (x != *v) {
        warnings.push_back(absl::StrCat(origin, ": ", name, "=", raw_value, " is outside ", server, "'s range (",
                                        RangeText(lo, hi, true), "): adjusted to ", x, ", as the server does"));
      } else if (!mysql && def->u == &S::innodb_buffer_pool_size && x % kMariaDbPoolSizeUnit != 0) {
        x -= x % kMariaDbPoolSizeUnit;
        warnings.push_back(absl::StrCat(origin, ": ", name, "=", raw_value, " is not a whole number of MiB: ", server,
                                        " rounds it down to ", x));
      }
      this->*(def->u) = x;
      break;
    }
    case Kind::kDecimal: {
      absl::StatusOr<double> v = ParseDecimal(value);
      if (!v.ok()) return bad(std::string(v.status().message()));
      const double x = std::clamp(*v, lo, hi);
      if (x != *v) {
        warnings.push_back(absl::StrCat(origin, ": ", name, "=", raw_value, " is outside ", server, "'s range (",
                                        RangeText(lo, hi, false), "): adjusted to ", FormatDecimal(x),
                                        ", as the server does"));
      }
      this->*(def->d) = x;
      break;
    }
  }
  origins[name] = std::string(origin);
  if (def->kind == Kind::kText) {
    auto it = std::find_if(unmodelled.begin(), unmodelled.end(), [&](const auto& p) { return p.first == name; });
    if (it != unmodelled.end()) {
      it->second = value;
    } else {
      unmodelled.emplace_back(name, value);
    }
  }
  return absl::OkStatus();
}

uint64_t ServerSettings::EffectiveIoCapacityMax() const {
  if (innodb_io_capacity_max != 0) return std::max(innodb_io_capacity_max, innodb_io_capacity);
  // [O] handler/ha_innodb.cc (8.0), innodb_io_capacity_max when unset:
  // max(2 * io_capacity, SRV_MAX_IO_CAPACITY_LIMIT-free default 2000).
  return std::max<uint64_t>(2 * innodb_io_capacity, 2000);
}

uint64_t ServerSettings::EffectiveFlushNeighbors() const {
  // [Ma] buf_do_flush_list_batch / buf_flush_LRU_list_batch: neighbours only
  // `if (neighbors && space->is_rotational())`; MySQL has no such check.
  if (flavor == ServerFlavor::kMariaDb1011 && !storage_rotational) return 0;
  return innodb_flush_neighbors;
}

uint64_t ServerSettings::EffectiveBufferPoolInstances() const {
  if (flavor == ServerFlavor::kMariaDb1011) return 1;  // single buf_pool ([Ma]).
  if (innodb_buffer_pool_instances != 0) return innodb_buffer_pool_instances;
  // [Doc] innodb_buffer_pool_instances: default 8, or 1 if
  // innodb_buffer_pool_size < 1 GiB.
  return innodb_buffer_pool_size < (1ull << 30) ? 1 : 8;
}

namespace {

// MariaDB 10.11.12+ (MDEV-29445; the 10.11.19 this project runs) reserves
// the pool as one address range of innodb_buffer_pool_size_max, used in
// extents of innodb_buffer_pool_extent_size bytes: 8 MiB where size_t is
// 64 bits (include/buf0buf.h, innodb_buffer_pool_extent_size).
constexpr uint64_t kMariaDbPoolExtentSize = 8ull << 20;
// sizeof(buf_block_t) of the MariaDB 10.11.19 x86-64 build (Debian
// 10.11.19-0+deb12u1). A compile-time fact of that build, not a tunable:
// it is in no header, so it is measured, from Innodb_buffer_pool_pages_total at
// several pool and page sizes (docs/flushing.md has the command). 4k pages
// at 128M give 1971 frames per extent, which holds only for a descriptor of
// 158-160 bytes; buf_block_t holds 8-byte members, so its size is a multiple
// of 8: 160. Every page size gives the same frame counts for 158-160.
constexpr uint64_t kMariaDbBufBlockSize = 160;
// MySQL 8.4: innodb_buffer_pool_chunk_size default, 128 MiB ([Doc]
// innodb_buffer_pool_chunk_size; srv/srv0srv.cc srv_buf_pool_chunk_unit).
constexpr uint64_t kMySqlChunkSize = 128ull << 20;

// MariaDB 10.11 (buf/buf0buf.cc, first_page()/pages() and
// buf_pool_t::get_n_blocks()): each extent begins with the descriptors of
// its own frames, rounded up to whole pages; an incomplete last extent keeps
// the same descriptor pages and the rest are frames.
uint64_t MariaDbFrames(uint64_t pool_bytes, uint64_t page_size) {
  const uint64_t extent_pages = kMariaDbPoolExtentSize / page_size;
  const uint64_t descriptor_pages = extent_pages - kMariaDbPoolExtentSize / (page_size + kMariaDbBufBlockSize);
  const uint64_t frames_per_extent = extent_pages - descriptor_pages;
  uint64_t frames = pool_bytes / kMariaDbPoolExtentSize * frames_per_extent;
  const uint64_t tail_pages = pool_bytes % kMariaDbPoolExtentSize / page_size;
  if (tail_pages > descriptor_pages) frames += tail_pages - descriptor_pages;
  return frames;
}

// MySQL 8.4 (buf/buf0buf.cc, buf_chunk_init): a chunk is allocated as
// chunk_size plus whole pages for its descriptors, so each chunk has
// chunk_size / page_size frames. The pool is rounded up to a multiple of
// chunk_size * instances, after the chunk is shrunk to pool / instances when
// it is larger (handler/ha_innodb.cc innodb_init_params,
// buf_pool_size_align; [Doc] "Configuring InnoDB Buffer Pool Size").
// Not measured here (no MySQL on this machine). Left out: buf_chunk_init
// gives up one frame when the allocation is not page-aligned (frame != mem).
uint64_t MySqlFrames(uint64_t pool_bytes, uint64_t page_size, uint64_t instances) {
  if (pool_bytes == 0 || instances == 0) return 0;
  uint64_t chunk = kMySqlChunkSize;
  if (chunk * instances > pool_bytes) chunk = pool_bytes / instances + (pool_bytes % instances != 0 ? 1 : 0);
  const uint64_t unit = chunk * instances;
  // Rounded up without forming the rounded size, which can pass 2^64.
  const uint64_t units = pool_bytes / unit + (pool_bytes % unit != 0 ? 1 : 0);
  return units * instances * (chunk / page_size);
}

}  // namespace

uint64_t ServerSettings::BufferPoolPages() const {
  if (innodb_page_size == 0) return 0;
  if (flavor == ServerFlavor::kMariaDb1011) return MariaDbFrames(innodb_buffer_pool_size, innodb_page_size);
  return MySqlFrames(innodb_buffer_pool_size, innodb_page_size, EffectiveBufferPoolInstances());
}

uint64_t ServerSettings::EffectiveRedoLogCapacity() const {
  if (flavor == ServerFlavor::kMariaDb1011) return innodb_log_file_size;
  // [Doc] innodb_redo_log_capacity (MySQL 8.0.30+): when it is not set and
  // innodb_log_file_size or innodb_log_files_in_group is, the capacity is
  // their product.
  const bool capacity_set = !OriginOf("innodb_redo_log_capacity").empty();
  const bool legacy_set = !OriginOf("innodb_log_file_size").empty() || !OriginOf("innodb_log_files_in_group").empty();
  if (!capacity_set && legacy_set) return innodb_log_file_size * innodb_log_files_in_group;
  return innodb_redo_log_capacity;
}

std::string ServerSettings::TextOf(std::string_view name) const {
  for (const auto& [n, v] : unmodelled) {
    if (n == name) return v;
  }
  return "";
}

std::string ServerSettings::OriginOf(std::string_view name) const {
  auto it = origins.find(std::string(name));
  return it == origins.end() ? std::string() : it->second;
}

const std::vector<std::string>& ServerSettings::VariableNames(ServerFlavor flavor) {
  // Built once per server: suggestions are computed for every unknown name.
  static const auto* names = [] {
    auto* both = new std::vector<std::string>[2];
    for (const VariableDef& v : kVariables) {
      if ((v.servers & kMy) != 0) both[0].emplace_back(v.name);
      if ((v.servers & kMa) != 0) both[1].emplace_back(v.name);
    }
    return both;
  }();
  return names[flavor == ServerFlavor::kMySql84 ? 0 : 1];
}

std::vector<ServerSettings::Row> ServerSettings::Describe() const {
  std::vector<Row> out;
  const std::string default_origin = absl::StrCat(std::string(ServerFlavorName(flavor)), " default");
  auto origin_of = [&](std::string_view n) {
    std::string o = OriginOf(n);
    return o.empty() ? default_origin : o;
  };
  auto add = [&](std::string_view n, std::string v) {
    out.push_back({std::string(n), std::move(v), origin_of(n), true});
  };
  auto u = [&](std::string_view n, uint64_t v) { add(n, absl::StrCat(v)); };
  auto d = [&](std::string_view n, double v) { add(n, FormatDecimal(v)); };
  auto b = [&](std::string_view n, bool v) { add(n, v ? "ON" : "OFF"); };
  const bool mysql = flavor == ServerFlavor::kMySql84;
  out.push_back({"profile", std::string(ServerFlavorName(flavor)), "the engine profile (--profile)", true});
  u("innodb_page_size", innodb_page_size);
  if (mysql) d("innodb_segment_reserve_factor", innodb_segment_reserve_factor);
  u("innodb_buffer_pool_size", innodb_buffer_pool_size);
  u("innodb_buffer_pool_instances", EffectiveBufferPoolInstances());
  // Not a variable but what the model derives from the two above; named as
  // the server's SHOW GLOBAL STATUS names it, so the two can be compared.
  out.push_back({"Innodb_buffer_pool_pages_total", absl::StrCat(BufferPoolPages()),
                 mysql ? "innodb_buffer_pool_size / innodb_page_size, whole chunks (buf0buf.cc buf_chunk_init)"
                       : "innodb_buffer_pool_size less the block descriptors (buf0buf.cc get_n_blocks)",
                 true});
  u("innodb_old_blocks_pct", innodb_old_blocks_pct);
  u("innodb_old_blocks_time", innodb_old_blocks_time);
  u("innodb_lru_scan_depth", innodb_lru_scan_depth);
  if (!mysql) u("innodb_lru_flush_size", innodb_lru_flush_size);
  u("innodb_io_capacity", innodb_io_capacity);
  u("innodb_io_capacity_max", EffectiveIoCapacityMax());
  d("innodb_max_dirty_pages_pct", innodb_max_dirty_pages_pct);
  d("innodb_max_dirty_pages_pct_lwm", innodb_max_dirty_pages_pct_lwm);
  b("innodb_adaptive_flushing", innodb_adaptive_flushing);
  d("innodb_adaptive_flushing_lwm", innodb_adaptive_flushing_lwm);
  u("innodb_flushing_avg_loops", innodb_flushing_avg_loops);
  b("innodb_flush_sync", innodb_flush_sync);
  if (mysql) u("innodb_idle_flush_pct", innodb_idle_flush_pct);
  u("innodb_flush_neighbors", innodb_flush_neighbors);
  if (!mysql) b("storage_rotational", storage_rotational);
  if (mysql && !OriginOf("storage_rotational").empty()) {
    out.push_back({"storage_rotational", storage_rotational ? "ON" : "OFF", origin_of("storage_rotational"), false});
  }
  b("innodb_doublewrite", innodb_doublewrite);
  if (mysql) {
    // The capacity the redo model uses, from whichever variables sized it.
    const uint64_t cap = EffectiveRedoLogCapacity();
    Row r{"innodb_redo_log_capacity", absl::StrCat(cap), origin_of("innodb_redo_log_capacity"), true};
    if (cap != innodb_redo_log_capacity) {
      r.origin = absl::StrCat("innodb_log_file_size x innodb_log_files_in_group (", origin_of("innodb_log_file_size"),
                              ")");
    }
    out.push_back(r);
  } else {
    u("innodb_log_file_size", innodb_log_file_size);
  }
  if (mysql) u("innodb_thread_concurrency", innodb_thread_concurrency);
  if (!OriginOf("innodb_fill_factor").empty()) u("innodb_fill_factor", innodb_fill_factor);
  // The statistics variables, listed when set (as innodb_fill_factor), so
  // that runs that never set them print what they always printed.
  if (!OriginOf("innodb_stats_persistent").empty()) b("innodb_stats_persistent", innodb_stats_persistent);
  if (!OriginOf("innodb_stats_auto_recalc").empty()) b("innodb_stats_auto_recalc", innodb_stats_auto_recalc);
  if (!OriginOf("innodb_stats_persistent_sample_pages").empty()) {
    u("innodb_stats_persistent_sample_pages", innodb_stats_persistent_sample_pages);
  }
  // The server's variables with a field but no modelled effect here, then
  // the ones kept as written.
  for (const VariableDef& v : kVariables) {
    if (v.u == nullptr || (v.servers & Bit(flavor)) == 0 || (v.modelled & Bit(flavor)) != 0) continue;
    out.push_back({std::string(v.name), absl::StrCat(this->*(v.u)), origin_of(v.name), false});
  }
  for (const auto& [n, v] : unmodelled) {
    const VariableDef* def = FindVariable(n);
    out.push_back({n, v, origin_of(n), def != nullptr && (def->modelled & Bit(flavor)) != 0});
  }
  return out;
}

}  // namespace innosim
