#include "model/postgres/pg_settings.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/postgres/page_layout.h"

namespace innosim::postgres {
namespace {

// The text without leading and trailing white space (absl's string_view
// is not std's in this build).
std::string Trim(std::string_view t) {
  size_t a = 0, b = t.size();
  while (a < b && std::isspace(static_cast<unsigned char>(t[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(t[b - 1]))) --b;
  return std::string(t.substr(a, b - a));
}

// guc.h GUC_UNIT_*: the unit a GUC's integer is kept in.
enum class Unit { kNone, kBlocks, kMB, kS, kMs };

// guc.c memory_unit_conversion_table / time_unit_conversion_table, as
// multiples of a byte and of a millisecond.
struct UnitFactor {
  const char* name;
  double factor;
};
constexpr UnitFactor kMemoryUnits[] = {{"TB", 1099511627776.0}, {"GB", 1073741824.0}, {"MB", 1048576.0},
                                       {"kB", 1024.0},          {"B", 1.0}};
constexpr UnitFactor kTimeUnits[] = {{"d", 86400000.0}, {"h", 3600000.0}, {"min", 60000.0},
                                     {"s", 1000.0},     {"ms", 1.0},      {"us", 0.001}};

double BaseFactor(Unit u) {
  switch (u) {
    case Unit::kBlocks: return kBlckSz;  // bytes per base unit
    case Unit::kMB: return 1048576.0;
    case Unit::kS: return 1000.0;  // ms per base unit
    case Unit::kMs: return 1.0;
    case Unit::kNone: return 1.0;
  }
  return 1.0;
}
bool IsMemory(Unit u) { return u == Unit::kBlocks || u == Unit::kMB; }

// guc.c parse_int (with parse_real's number syntax, as REL_12+ accepts
// "1.5GB"): a number, optional spaces, an optional unit of the GUC's kind;
// the result in the base unit, rounded (convert_to_base_unit: rint).
absl::Status ParseInt(std::string_view text, Unit unit, int64_t lo, int64_t hi, const std::string& what,
                      int64_t* out) {
  const std::string t = Trim(text);
  size_t i = 0;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.' || t[i] == '-' ||
                          t[i] == '+' || t[i] == 'e' || t[i] == 'E')) {
    // An 'e' is an exponent only when digits follow; "5min" must keep its unit.
    if ((t[i] == 'e' || t[i] == 'E') && (i + 1 >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i + 1])))) {
      break;
    }
    ++i;
  }
  double v = 0;
  if (i == 0 || !absl::SimpleAtod(t.substr(0, i), &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": invalid value for an integer setting (e.g. ", IsMemory(unit) ? "\"16MB\"" : "\"30s\"",
                     ")"));
  }
  const std::string u = Trim(std::string_view(t).substr(i));
  if (!u.empty()) {
    if (unit == Unit::kNone) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": this setting takes a plain number, no unit"));
    }
    bool found = false;
    if (IsMemory(unit)) {
      for (const UnitFactor& f : kMemoryUnits) {
        if (u == f.name) {
          v = v * f.factor / BaseFactor(unit);
          found = true;
        }
      }
      if (!found) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, ": valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\""));
      }
    } else {
      for (const UnitFactor& f : kTimeUnits) {
        if (u == f.name) {
          v = v * f.factor / BaseFactor(unit);
          found = true;
        }
      }
      if (!found) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\""));
      }
    }
  }
  v = std::rint(v);
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", static_cast<int64_t>(v), " is outside the valid range (",
                                                   lo, " .. ", hi, ")"));
  }
  *out = static_cast<int64_t>(v);
  return absl::OkStatus();
}

absl::Status ParseReal(std::string_view text, double lo, double hi, const std::string& what, double* out) {
  double v = 0;
  if (!absl::SimpleAtod(Trim(text), &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": invalid value for a numeric setting (e.g. 0.9)"));
  }
  if (v < lo || v > hi) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", v, " is outside the valid range (", lo, " .. ", hi, ")"));
  }
  *out = v;
  return absl::OkStatus();
}

// guc.c parse_bool: on/off, true/false, yes/no, 1/0, and any unique prefix
// of them ("of" is off; "o" alone is ambiguous).
absl::Status ParseBool(std::string_view text, const std::string& what, bool* out) {
  const std::string v = absl::AsciiStrToLower(Trim(text));
  auto prefix_of = [&](std::string_view word, size_t min_len) {
    return v.size() >= min_len && v.size() <= word.size() && word.substr(0, v.size()) == v;
  };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || prefix_of("on", 2) || v == "1") {
    *out = true;
  } else if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || v == "0") {
    *out = false;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(what, ": requires a Boolean value (on or off)"));
  }
  return absl::OkStatus();
}

// guc.c _ShowOption / convert_int_from_base_unit: the largest unit that
// represents the value exactly.
std::string ShowInt(int64_t v, Unit unit) {
  if (unit == Unit::kNone || v == 0) return absl::StrCat(v, unit == Unit::kNone ? "" : (IsMemory(unit) ? "kB" : "ms"));
  const double base = static_cast<double>(v) * BaseFactor(unit);
  if (IsMemory(unit)) {
    for (const UnitFactor& f : kMemoryUnits) {
      if (f.factor < 1024.0) continue;  // SHOW never prints bytes for these
      const double q = base / f.factor;
      if (q == std::floor(q)) return absl::StrCat(static_cast<int64_t>(q), f.name);
    }
    return absl::StrCat(static_cast<int64_t>(base), "B");
  }
  for (const UnitFactor& f : kTimeUnits) {
    if (f.factor < 1.0) continue;
    if (unit == Unit::kS && f.factor < 1000.0) continue;
    const double q = base / f.factor;
    if (q == std::floor(q)) return absl::StrCat(static_cast<int64_t>(q), f.name);
  }
  return absl::StrCat(v);
}

std::string ShowBool(bool b) { return b ? "on" : "off"; }

constexpr int64_t kIntMaxHalf = 1073741823;  // INT_MAX / 2
constexpr int64_t kMaxKilobytes = 2147483647;  // MAX_KILOBYTES on a 64-bit build (INT_MAX)

}  // namespace

PgSettings PgSettings::Defaults(const PgProfile&) {
  // The GUC defaults are the same in REL_15 and REL_18 for every setting
  // here (postgresql.conf.sample of both).
  return PgSettings{};
}

const std::vector<std::string>& PgSettings::Names() {
  static const std::vector<std::string>* names = new std::vector<std::string>{
      "shared_buffers",   "checkpoint_timeout",    "max_wal_size",          "min_wal_size",
      "checkpoint_completion_target", "bgwriter_delay", "bgwriter_lru_maxpages", "bgwriter_lru_multiplier",
      "full_page_writes", "wal_compression",       "data_checksums",        "wal_log_hints",
      "block_size"};
  return *names;
}

absl::Status PgSettings::Set(std::string_view name_in, std::string_view value, std::string_view origin) {
  std::string name = absl::AsciiStrToLower(Trim(name_in));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  const std::string what = absl::StrCat(std::string(origin), " ", name, "=", std::string(value));
  absl::Status s;
  if (name == "shared_buffers") {
    s = ParseInt(value, Unit::kBlocks, 16, kIntMaxHalf, what, &shared_buffers);
  } else if (name == "checkpoint_timeout") {
    s = ParseInt(value, Unit::kS, 30, 86400, what, &checkpoint_timeout);
  } else if (name == "max_wal_size" || name == "min_wal_size") {
    int64_t mb = 0;
    s = ParseInt(value, Unit::kMB, 2, kMaxKilobytes, what, &mb);
    // xlog.c ReadControlFile: "min_wal_size/max_wal_size must be at least
    // twice wal_segment_size" (16 MB segments: 32 MB).
    if (s.ok() && mb < 32) {
      s = absl::InvalidArgumentError(
          absl::StrCat(what, ": must be at least twice wal_segment_size (32MB with 16MB segments)"));
    }
    if (s.ok()) (name == "max_wal_size" ? max_wal_size : min_wal_size) = mb;
  } else if (name == "checkpoint_completion_target") {
    s = ParseReal(value, 0.0, 1.0, what, &checkpoint_completion_target);
  } else if (name == "bgwriter_delay") {
    s = ParseInt(value, Unit::kMs, 10, 10000, what, &bgwriter_delay);
  } else if (name == "bgwriter_lru_maxpages") {
    s = ParseInt(value, Unit::kNone, 0, kIntMaxHalf, what, &bgwriter_lru_maxpages);
  } else if (name == "bgwriter_lru_multiplier") {
    s = ParseReal(value, 0.0, 10.0, what, &bgwriter_lru_multiplier);
  } else if (name == "full_page_writes") {
    s = ParseBool(value, what, &full_page_writes);
  } else if (name == "wal_compression") {
    // guc_tables.c wal_compression_options: pglz, lz4, zstd, on (= pglz),
    // off and the hidden boolean spellings.
    bool on = true;
    if (!ParseBool(value, what, &on).ok()) {
      const std::string v = absl::AsciiStrToLower(Trim(value));
      if (v != "pglz" && v != "lz4" && v != "zstd") {
        s = absl::InvalidArgumentError(absl::StrCat(what, ": not one of off, pglz, lz4, zstd, on"));
      } else {
        s = absl::InvalidArgumentError(absl::StrCat(
            what, ": compressed full-page images are not modelled (only wal_compression=off): drop it"));
      }
    } else if (on) {
      s = absl::InvalidArgumentError(
          absl::StrCat(what, ": compressed full-page images are not modelled (only wal_compression=off): drop it"));
    } else {
      wal_compression = "off";
    }
  } else if (name == "data_checksums" || name == "wal_log_hints") {
    bool on = false;
    s = ParseBool(value, what, &on);
    if (s.ok() && on) {
      s = absl::InvalidArgumentError(absl::StrCat(
          what, ": hint-bit full-page images (XLogSaveBufferForHint) are not modelled, so only off is accepted"));
    }
    if (s.ok()) (name == "data_checksums" ? data_checksums : wal_log_hints) = on;
  } else if (name == "block_size") {
    int64_t b = 0;
    s = ParseInt(value, Unit::kNone, 1024, 32768, what, &b);
    if (s.ok() && b != kBlckSz) {
      s = absl::InvalidArgumentError(
          absl::StrCat(what, ": the model lays out 8192-byte blocks only (BLCKSZ is fixed when the server is built)"));
    }
    if (s.ok()) block_size = b;
  } else {
    return absl::NotFoundError(absl::StrCat(std::string(origin), " ", std::string(name_in), ": not a PostgreSQL setting the model reads (",
                                            absl::StrJoin(Names(), ", "), ")"));
  }
  if (!s.ok()) return s;
  for (auto& [n, o] : origins) {
    if (n == name) {
      o = std::string(origin);
      return s;
    }
  }
  origins.emplace_back(name, std::string(origin));
  return s;
}

std::vector<PgSettings::Row> PgSettings::Describe() const {
  auto origin = [&](std::string_view name) {
    for (const auto& [n, o] : origins) {
      if (n == name) return o;
    }
    return std::string("default");
  };
  std::vector<Row> rows = {
      {"shared_buffers", ShowInt(shared_buffers, Unit::kBlocks), ""},
      {"checkpoint_timeout", ShowInt(checkpoint_timeout, Unit::kS), ""},
      {"max_wal_size", ShowInt(max_wal_size, Unit::kMB), ""},
      {"min_wal_size", ShowInt(min_wal_size, Unit::kMB), ""},
      {"checkpoint_completion_target", absl::StrFormat("%g", checkpoint_completion_target), ""},
      {"bgwriter_delay", ShowInt(bgwriter_delay, Unit::kMs), ""},
      {"bgwriter_lru_maxpages", absl::StrCat(bgwriter_lru_maxpages), ""},
      {"bgwriter_lru_multiplier", absl::StrFormat("%g", bgwriter_lru_multiplier), ""},
      {"full_page_writes", ShowBool(full_page_writes), ""},
      {"wal_compression", wal_compression, ""},
      {"data_checksums", ShowBool(data_checksums), ""},
      {"wal_log_hints", ShowBool(wal_log_hints), ""},
      {"block_size", absl::StrCat(block_size), ""},
  };
  for (Row& r : rows) r.origin = origin(r.name);
  return rows;
}

}  // namespace innosim::postgres
