#include "sim/experiment.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <toml++/toml.h>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "sim/defaults_file.h"
#include "sim/key_stream.h"
#include "sim/compare.h"
#include "sim/count.h"
#include "sim/engines.h"
#include "sim/metrics.h"
#include "sim/nearest_name.h"
#include "sim/bounded_read.h"
#include "sim/output_file.h"
#include "sim/report.h"
#include "sim/writers.h"

namespace innosim {
namespace {

// The keys of the top level. A key not listed is an error with a
// suggestion: a misspelt key that is silently skipped would run the default.
// [defaults] and [[run]] take kSettingKeys' (below).
const std::vector<std::string>& TopKeys() {
  static const std::vector<std::string> k = {"name", "source", "description", "defaults", "run"};
  return k;
}

// The metrics a run can be compared on: the numeric fields of
// `innosim run --json` (RunToJson, which names the InnoDB counters by
// sim/metrics.h), with the flush model on or off.
std::vector<std::string> MetricNames(bool flush) {
  RunResult r;
  r.spec.flush = flush;
  std::vector<std::string> names;
  const nlohmann::ordered_json j = RunToJson(r);
  for (const auto& [k, v] : j.items()) {
    if (v.is_number()) names.push_back(k);
  }
  return names;
}

int LineOf(const toml::source_region& src) { return static_cast<int>(src.begin.line); }

// "PATH:LINE: message" (the line is left out when toml++ has none).
absl::Status ErrorAt(const std::string& path, const toml::source_region& src, const std::string& message) {
  if (LineOf(src) <= 0) return absl::InvalidArgumentError(absl::StrCat(path, ": ", message));
  return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path, LineOf(src), message));
}

// A value as TOML writes it, for messages (1e+30, true, '10M').
std::string Shown(const toml::node& n) {
  std::ostringstream os;
  n.visit([&os](const auto& v) { os << v; });
  return os.str();
}

// Every key of `t` is one of `known`; else the first that is not is named,
// with the nearest known key, or failing that `hint(key)`.
absl::Status CheckKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& section,
                       const std::string& path, std::string (*hint)(const std::string& key) = nullptr) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string suggestion = DidYouMean(key, known);
    if (suggestion.empty() && hint != nullptr) suggestion = hint(key);
    return ErrorAt(path, k.source(), absl::StrCat("unknown key '", key, "' in ", section, suggestion));
  }
  return absl::OkStatus();
}

// An integer exactly as written: a float (even 1e30 or 2.0), a bool or a
// string is refused, and so is a value outside [lo, hi].
absl::StatusOr<int64_t> IntegerField(const toml::node& n, const std::string& key, int64_t lo, int64_t hi,
                                     const std::string& path) {
  std::optional<int64_t> v = n.value_exact<int64_t>();
  if (!v) {
    return ErrorAt(path, n.source(), absl::StrCat(key, " = ", Shown(n), " must be a whole number"));
  }
  if (*v < lo || *v > hi) {
    const std::string bound = hi == std::numeric_limits<int64_t>::max() ? absl::StrCat("it must be at least ", lo)
                                                                         : absl::StrCat("use ", lo, " to ", hi);
    return ErrorAt(path, n.source(), absl::StrCat(key, " = ", *v, " is out of range: ", bound));
  }
  return *v;
}

// A count given as a whole number or as a string with a suffix ("10M").
absl::StatusOr<uint64_t> CountField(const toml::node& n, const std::string& key, const std::string& path) {
  if (std::optional<std::string> s = n.value_exact<std::string>()) {
    absl::StatusOr<uint64_t> c = ParseCount(*s);
    if (!c.ok()) return ErrorAt(path, n.source(), absl::StrCat(key, ": ", c.status().message()));
    return *c;
  }
  if (!n.is_integer()) {
    return ErrorAt(path, n.source(),
                   absl::StrCat(key, " = ", Shown(n), " must be a whole number or a string like \"10M\""));
  }
  absl::StatusOr<int64_t> v = IntegerField(n, key, 1, std::numeric_limits<int64_t>::max(), path);
  if (!v.ok()) return v.status();
  return static_cast<uint64_t>(*v);
}

// A number (integer or float, not a bool), finite.
std::optional<double> NumberField(const toml::node& n) {
  std::optional<double> d;
  if (std::optional<int64_t> i = n.value_exact<int64_t>()) d = static_cast<double>(*i);
  if (std::optional<double> f = n.value_exact<double>()) d = *f;
  if (d && !std::isfinite(*d)) d.reset();
  return d;
}

absl::StatusOr<std::string> StringField(const toml::node& n, const std::string& key, const std::string& what,
                                        const std::string& path) {
  std::optional<std::string> v = n.value_exact<std::string>();
  if (!v) return ErrorAt(path, n.source(), absl::StrCat(key, " = ", Shown(n), " must be a string: ", what));
  return *v;
}

// A tolerance is a fraction (0.01 = 1%), or a string "1%".
absl::StatusOr<double> ToleranceField(const toml::node& n, const std::string& metric, const std::string& path) {
  std::optional<double> d = NumberField(n);
  if (std::optional<std::string> s = n.value_exact<std::string>()) {
    absl::string_view text = absl::StripAsciiWhitespace(*s);
    double pct = 0;
    if (absl::ConsumeSuffix(&text, "%") && absl::SimpleAtod(text, &pct) && std::isfinite(pct)) d = pct / 100;
  }
  if (!d) {
    return ErrorAt(path, n.source(),
                   absl::StrCat("tolerance ", metric, " = ", Shown(n),
                                " must be a fraction such as 0.01 (1%) or a string such as \"1%\""));
  }
  // 0 asks for the published figure exactly (a figure that follows from the
  // engine's rules alone, such as the leaves of keys arriving in order).
  if (!(*d >= 0 && *d < 1)) {
    std::string how = *d >= 1 ? absl::StrCat(": write ", *d / 100, " for ", *d, "%") : ": it must be 0 (exact) or above";
    return ErrorAt(path, n.source(),
                   absl::StrCat("tolerance ", metric, " = ", Shown(n),
                                " is not a fraction between 0 and 1 (0.01 = 1%)", how));
  }
  return *d;
}

// A metric name for published, tolerance or show.
absl::Status CheckMetric(const std::string& metric, const toml::source_region& src, const RunSpec& spec,
                         const std::string& section, const std::string& path) {
  const bool flush = spec.flush;
  // An engine that names its own figures (sim/engines.h metric_names) is
  // asked; InnoDB's are the numeric fields of its run --json.
  if (const EngineKind* kind = EngineKindFor(spec.profile); kind != nullptr && kind->metric_names != nullptr) {
    absl::StatusOr<std::vector<std::string>> own = kind->metric_names(spec);
    if (!own.ok()) return ErrorAt(path, src, std::string(own.status().message()));
    if (std::find(own->begin(), own->end(), metric) != own->end()) return absl::OkStatus();
    return ErrorAt(path, src, absl::StrCat("unknown metric '", metric, "' in ", section, DidYouMean(metric, *own),
                                           ": use a figure of `innosim run --profile ", spec.profile, " --json`"));
  }
  const std::vector<std::string> names = MetricNames(flush);
  if (std::find(names.begin(), names.end(), metric) != names.end()) return absl::OkStatus();
  const std::vector<std::string> with_flush = MetricNames(true);
  if (!flush && std::find(with_flush.begin(), with_flush.end(), metric) != with_flush.end()) {
    return ErrorAt(path, src, absl::StrCat("metric '", metric, "' in ", section,
                                           " needs the flush model: drop flush = false"));
  }
  return ErrorAt(path, src, absl::StrCat("unknown metric '", metric, "' in ", section, DidYouMean(metric, names),
                                         ": use a numeric field of `innosim run --json`"));
}

// Where each of a spec's settings came from, for messages.
struct SettingOrigin {
  int line = 0;
  std::string section;  // "[defaults.set]" or "[run.set]"
};

// What applying one key's value needs besides the value.
struct KeyTarget {
  const std::string& path;
  bool is_run;  // [[run]] (else [defaults])
  RunSpec* spec;
  std::vector<SettingOrigin>* origins;
};

// [[run.phase]]: the steps after the run's insert (sim/phases.h), each step
// = "insert" (with stream and rows), "delete" (with every = K, phase = N, or
// from = F and to = T, percentages), "optimize" or "checkpoint".
absl::Status ApplyPhases(const toml::node& n, const KeyTarget& to) {
  const std::string& path = to.path;
  const toml::array* steps = n.as_array();
  if (steps == nullptr) {
    return ErrorAt(path, n.source(), "phase must be an array of tables: write [[run.phase]] for each step");
  }
  to.spec->phases.clear();
  for (const toml::node& e : *steps) {
    const toml::table* step = e.as_table();
    if (step == nullptr) return ErrorAt(path, e.source(), "a phase is a table: write [[run.phase]]");
    if (absl::Status s = CheckKeys(*step, {"step", "stream", "rows", "every", "phase", "from", "to"}, "[[run.phase]]", path); !s.ok()) return s;
    const toml::node* kind = step->get("step");
    std::optional<std::string> name = kind != nullptr ? kind->value_exact<std::string>() : std::nullopt;
    std::string text;
    if (name == "delete") {
      // One of: every = K; phase = N; from = F, to = T.
      const toml::node* ev = step->get("every");
      const toml::node* ph = step->get("phase");
      const toml::node* from = step->get("from");
      const toml::node* until = step->get("to");
      const int forms = (ev != nullptr) + (ph != nullptr) + (from != nullptr || until != nullptr);
      if (forms != 1 || (from != nullptr) != (until != nullptr) || step->get("stream") != nullptr ||
          step->get("rows") != nullptr) {
        return ErrorAt(path, e.source(),
                       "step = \"delete\" takes one of every = K (every K-th row in key order), phase = N (the "
                       "rows phase N inserted) or from = F, to = T (percent of the rows in key order)");
      }
      if (ev != nullptr) {
        absl::StatusOr<uint64_t> every = CountField(*ev, "every", path);
        if (!every.ok()) return every.status();
        text = absl::StrCat("delete:every:", *every);
      } else if (ph != nullptr) {
        absl::StatusOr<uint64_t> n = CountField(*ph, "phase", path);
        if (!n.ok()) return n.status();
        text = absl::StrCat("delete:phase:", *n);
      } else {
        absl::StatusOr<int64_t> f = IntegerField(*from, "from", 0, 99, path);
        if (!f.ok()) return f.status();
        absl::StatusOr<int64_t> t = IntegerField(*until, "to", 1, 100, path);
        if (!t.ok()) return t.status();
        text = absl::StrCat("delete:range:", *f, ":", *t);
      }
    } else if (name == "optimize" || name == "checkpoint") {
      if (step->get("stream") != nullptr || step->get("rows") != nullptr || step->get("every") != nullptr ||
          step->get("phase") != nullptr || step->get("from") != nullptr || step->get("to") != nullptr) {
        return ErrorAt(path, e.source(), absl::StrCat("step = \"", *name, "\" takes no stream or rows"));
      }
      text = *name;
    } else if (name == "insert") {
      const toml::node* st = step->get("stream");
      const toml::node* rw = step->get("rows");
      std::optional<std::string> stream = st != nullptr ? st->value_exact<std::string>() : std::nullopt;
      if (!stream || rw == nullptr) {
        return ErrorAt(path, e.source(),
                       "step = \"insert\" needs stream = \"NAME\" and rows = N, e.g. stream = \"uuidv7-counter\", "
                       "rows = 200000");
      }
      absl::StatusOr<uint64_t> rows = CountField(*rw, "rows", path);
      if (!rows.ok()) return rows.status();
      text = absl::StrCat("insert:", *stream, ":", *rows);
    } else {
      return ErrorAt(path, e.source(), "[[run.phase]] needs step = \"insert\", \"delete\", \"optimize\" or \"checkpoint\"");
    }
    absl::StatusOr<PhaseSpec> phase = ParsePhase(text);
    if (!phase.ok()) return ErrorAt(path, e.source(), std::string(phase.status().message()));
    to.spec->phases.push_back(*std::move(phase));
  }
  return absl::OkStatus();
}

// columns = { NAME = "SOURCE", ... }: what each column holds (sim/column_values.h).
absl::Status ApplyColumns(const toml::node& n, const KeyTarget& to) {
  const toml::table* cols = n.as_table();
  if (cols == nullptr) {
    return ErrorAt(to.path, n.source(),
                   "columns must be a table of column = \"SOURCE\", e.g. columns = { created_at = \"time:1000\" }");
  }
  to.spec->columns.clear();
  for (const auto& [k, v] : *cols) {
    std::optional<std::string> text = v.value_exact<std::string>();
    if (!text) {
      return ErrorAt(to.path, v.source(), absl::StrCat(std::string(k.str()), " in columns must be a string, e.g. \"time\""));
    }
    absl::StatusOr<ColumnSource> c = ParseColumnSource(absl::StrCat(std::string(k.str()), "=", *text));
    if (!c.ok()) return ErrorAt(to.path, v.source(), std::string(c.status().message()));
    to.spec->columns.push_back(*std::move(c));
  }
  return absl::OkStatus();
}

// [defaults.set] / [run.set]: server variables, each with the line that set
// it (CheckServerVariables names it).
absl::Status ApplySet(const toml::node& n, const KeyTarget& to) {
  const std::string& path = to.path;
  const std::string set_section = to.is_run ? "[run.set]" : "[defaults.set]";
  const toml::table* set = n.as_table();
  if (set == nullptr) {
    return ErrorAt(path, n.source(), absl::StrCat("set must be a table of server variables, e.g. ", set_section));
  }
  for (const auto& [k, v] : *set) {
    std::string value;
    if (auto b = v.value_exact<bool>()) {
      value = *b ? "ON" : "OFF";
    } else if (auto i = v.value_exact<int64_t>()) {
      value = absl::StrCat(*i);
    } else if (auto d = v.value_exact<double>()) {
      value = absl::StrCat(*d);
    } else if (auto str = v.value_exact<std::string>()) {
      value = *str;
    } else {
      return ErrorAt(path, v.source(),
                     absl::StrCat(std::string(k.str()), " in ", set_section, " must be a string, number or boolean"));
    }
    const int line = LineOf(k.source());
    to.spec->settings.push_back({std::string(k.str()), value, line > 0 ? absl::StrFormat("%s:%d", path, line) : path});
    to.origins->push_back({line, set_section});
  }
  return absl::OkStatus();
}

// clock_skew_ms / clock_drift_ppm: any finite number.
absl::Status ApplyClockNumber(const toml::node& n, const KeyTarget& to, const char* key, double* field) {
  std::optional<double> v = NumberField(n);
  if (!v) return ErrorAt(to.path, n.source(), absl::StrCat(key, " = ", Shown(n), " must be a number"));
  *field = *v;
  return absl::OkStatus();
}

// One key of [defaults] and [[run]]: where it may stand and how its value
// becomes RunSpec fields. Keys are applied in this order (so the first
// error named is the first key's), and offered in it as suggestions.
struct SettingKey {
  const char* name;
  bool in_defaults;
  bool in_run;
  // Sets the spec's fields from the value; nullptr: ParseExperiment reads
  // the key itself, once the run's settings are known (show, published,
  // tolerance).
  absl::Status (*apply)(const toml::node& n, const KeyTarget& to);
  // Said of the key in [defaults] when it is [[run]]'s only.
  const char* defaults_hint = "";
};

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

const SettingKey kSettingKeys[] = {
    {"rows", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<uint64_t> c = CountField(n, "rows", to.path);
       if (!c.ok()) return c.status();
       to.spec->rows = *c;
       return absl::OkStatus();
     }},
    {"rows_per_ms", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<uint64_t> c = CountField(n, "rows_per_ms", to.path);
       if (!c.ok()) return c.status();
       to.spec->stream.rows_per_ms = *c;
       return absl::OkStatus();
     }},
    {"seed", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<int64_t> v = IntegerField(n, "seed", 0, kInt64Max, to.path);
       if (!v.ok()) return v.status();
       to.spec->stream.seed = static_cast<uint64_t>(*v);
       return absl::OkStatus();
     }},
    {"stream", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<std::string> v = StringField(n, "stream", "uuidv4, uuidv7-random, autoinc, ...", to.path);
       if (!v.ok()) return v.status();
       to.spec->stream.name = *v;
       return absl::OkStatus();
     }},
    // Before writers: ahead of them as a suggestion, as it always was.
    {"profile", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<std::string> v = StringField(n, "profile", "mysql-8.4 or mariadb-10.11", to.path);
       if (!v.ok()) return v.status();
       to.spec->profile = *v;
       return absl::OkStatus();
     }},
    // Several writers (sim/writers.h); checked with the stream (ValidateWriters).
    {"writers", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<int64_t> v = IntegerField(n, "writers", 1, kMaxWriters, to.path);
       if (!v.ok()) return v.status();
       to.spec->stream.writers = static_cast<uint32_t>(*v);
       return absl::OkStatus();
     }},
    {"clock_skew_ms", true, true,
     [](const toml::node& n, const KeyTarget& to) {
       return ApplyClockNumber(n, to, "clock_skew_ms", &to.spec->stream.clock_skew_ms);
     }},
    {"clock_drift_ppm", true, true,
     [](const toml::node& n, const KeyTarget& to) {
       return ApplyClockNumber(n, to, "clock_drift_ppm", &to.spec->stream.clock_drift_ppm);
     }},
    {"interleave", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<std::string> v = StringField(n, "interleave", "round-robin or time", to.path);
       if (!v.ok()) return v.status();
       absl::StatusOr<Interleave> il = ParseInterleave(*v);
       if (!il.ok()) return ErrorAt(to.path, n.source(), std::string(il.status().message()));
       to.spec->stream.interleave = *il;
       return absl::OkStatus();
     }},
    {"writer_weights", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       const toml::array* a = n.as_array();
       if (a == nullptr) return ErrorAt(to.path, n.source(), "writer_weights must be an array such as [1, 1, 2]");
       to.spec->stream.writer_weights.clear();
       for (const toml::node& e : *a) {
         absl::StatusOr<int64_t> v = IntegerField(e, "writer_weights", 1, kMaxWriterWeight, to.path);
         if (!v.ok()) return v.status();
         to.spec->stream.writer_weights.push_back(static_cast<uint32_t>(*v));
       }
       return absl::OkStatus();
     }},
    {"page_size", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<int64_t> v = IntegerField(n, "page_size", 0, kInt64Max, to.path);
       if (!v.ok()) return v.status();
       // IsSupportedPageSize also refuses what a uint32_t would truncate.
       if (!IsSupportedPageSize(static_cast<uint64_t>(*v))) {
         return ErrorAt(to.path, n.source(),
                        absl::StrCat("page_size = ", *v, " is not supported: use ", SupportedPageSizesInBytes()));
       }
       to.spec->page_size = static_cast<uint32_t>(*v);
       return absl::OkStatus();
     }},
    {"label", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<std::string> v = StringField(n, "label", "the run's name in the table", to.path);
       if (!v.ok()) return v.status();
       to.spec->label = *v;
       return absl::OkStatus();
     }},
    {"rows_per_sec", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       std::optional<double> v = NumberField(n);
       if (!v || !(*v > 0)) {
         return ErrorAt(to.path, n.source(),
                        absl::StrCat("rows_per_sec = ", Shown(n), " must be a positive number (e.g. 127290)"));
       }
       if (*v < FlushModel::kMinRowsPerSec) {
         return ErrorAt(to.path, n.source(),
                        absl::StrCat("rows_per_sec = ", Shown(n), " is below the floor of ", FlushModel::kMinRowsPerSec,
                                     " rows/s (docs/limits.md): give at least that"));
       }
       to.spec->rows_per_sec = *v;
       return absl::OkStatus();
     }},
    {"batch", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<uint64_t> c = CountField(n, "batch", to.path);
       if (!c.ok()) return c.status();
       to.spec->trx_rows = *c;
       return absl::OkStatus();
     }},
    {"table", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<std::string> v = StringField(n, "table", "seed000, seed004 or CREATE TABLE ...", to.path);
       if (!v.ok()) return v.status();
       to.spec->table = *v;
       return absl::OkStatus();
     }},
    {"flush", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       std::optional<bool> v = n.value_exact<bool>();
       if (!v) return ErrorAt(to.path, n.source(), absl::StrCat("flush = ", Shown(n), " must be true or false"));
       to.spec->flush = *v;
       return absl::OkStatus();
     }},
    {"payload_bytes", true, true,
     [](const toml::node& n, const KeyTarget& to) -> absl::Status {
       absl::StatusOr<int64_t> v = IntegerField(n, "payload_bytes", 0, std::numeric_limits<uint32_t>::max(), to.path);
       if (!v.ok()) return v.status();
       to.spec->payload_bytes = static_cast<uint32_t>(*v);
       to.spec->payload_bytes_given = true;
       return absl::OkStatus();
     }},
    {"phase", false, true, ApplyPhases},
    {"columns", true, true, ApplyColumns},
    {"set", true, true, ApplySet},
    {"show", true, true, nullptr},
    {"published", false, true, nullptr, " (published figures and tolerances belong to each [[run]])"},
    {"tolerance", false, true, nullptr, " (published figures and tolerances belong to each [[run]])"},
};

// The keys allowed in [[run]] (is_run) or [defaults], in kSettingKeys' order.
const std::vector<std::string>& SettingKeyNames(bool is_run) {
  static const auto names = [](bool run) {
    std::vector<std::string> v;
    for (const SettingKey& k : kSettingKeys) {
      if (run ? k.in_run : k.in_defaults) v.push_back(k.name);
    }
    return v;
  };
  static const std::vector<std::string> run = names(true), defaults = names(false);
  return is_run ? run : defaults;
}

// A [[run]]-only key in [defaults]: says where it belongs.
std::string DefaultsHint(const std::string& key) {
  for (const SettingKey& k : kSettingKeys) {
    if (key == k.name) return k.defaults_hint;
  }
  return "";
}

absl::Status ApplySettings(const toml::table& t, bool is_run, const std::string& path, RunSpec* spec,
                           std::vector<SettingOrigin>* origins) {
  const std::string section = is_run ? "[[run]]" : "[defaults]";
  if (absl::Status s = CheckKeys(t, SettingKeyNames(is_run), section, path, is_run ? nullptr : DefaultsHint); !s.ok()) {
    return s;
  }
  const KeyTarget to{path, is_run, spec, origins};
  for (const SettingKey& k : kSettingKeys) {
    const toml::node* n = t.get(k.name);
    if (n == nullptr || k.apply == nullptr) continue;  // (a key of the wrong section: CheckKeys refused it)
    if (absl::Status s = k.apply(*n, to); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Applies a run's server variables, in order, to the defaults of its
// profile's server: an unknown variable or a bad value names the line that
// set it.
absl::Status CheckServerVariables(const RunSpec& spec, const std::vector<SettingOrigin>& origins,
                                  const std::string& path) {
  const std::optional<ServerFlavor> flavor = ServerFlavorByName(spec.profile);
  if (!flavor) return absl::OkStatus();  // ValidateRunSpec names the profile
  ServerSettings scratch = ServerSettings::Defaults(*flavor);
  for (size_t i = 0; i < spec.settings.size(); ++i) {
    const VariableAssignment& a = spec.settings[i];
    const std::string& name = a.name;
    const std::string& value = a.value;
    absl::Status s = ApplyServerVariable(&scratch, name, value, a.origin);
    if (s.ok()) continue;
    const std::string where =
        origins[i].line > 0 ? absl::StrFormat("%s:%d", path, origins[i].line) : path;
    // ApplyServerVariable's message names the variable (and may suggest
    // the nearest one); it is kept whole.
    const std::string message(s.message());
    const bool named = message.find(name) != std::string::npos;
    if (absl::IsNotFound(s)) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": in ", origins[i].section, " (profile ", spec.profile,
                                                     "): ", named ? "" : absl::StrCat("'", name, "': "), message));
    }
    return absl::InvalidArgumentError(absl::StrCat(where, ": in ", origins[i].section, ": ",
                                                   named ? "" : absl::StrCat(name, " = ", value, ": "), message));
  }
  return absl::OkStatus();
}

std::vector<std::string> PhaseTexts(const RunSpec& s) {
  std::vector<std::string> t;
  for (const PhaseSpec& p : s.phases) t.push_back(p.text);
  return t;
}

bool SameConfig(const RunSpec& a, const RunSpec& b) {
  return a.stream == b.stream && a.rows == b.rows && a.profile == b.profile && a.page_size == b.page_size && a.flush == b.flush &&
         a.settings == b.settings && a.rows_per_sec == b.rows_per_sec && a.trx_rows == b.trx_rows &&
         a.series_every == b.series_every && a.table == b.table && a.payload_bytes == b.payload_bytes &&
         a.columns == b.columns && PhaseTexts(a) == PhaseTexts(b);
}

// Whether `a`'s run is the first phases of `b`'s: the same in everything
// else, a.phases a proper prefix of b.phases.
bool PhasePrefix(const RunSpec& a, const RunSpec& b) {
  if (a.phases.size() >= b.phases.size()) return false;
  RunSpec cut = b;
  cut.phases.resize(a.phases.size());
  return SameConfig(a, cut);
}

}  // namespace

std::vector<std::vector<std::string>> ShownMetrics(const ExperimentPlan& plan) {
  std::vector<std::vector<std::string>> shown(plan.distinct.size());
  for (size_t r = 0; r < plan.experiment.runs.size(); ++r) {
    for (const auto& [metric, published] : plan.experiment.runs[r].published) shown[plan.which[r]].push_back(metric);
  }
  return shown;
}

std::vector<size_t> PhasePrefixSources(const std::vector<RunSpec>& all,
                                       const std::vector<std::vector<std::string>>& needs) {
  std::vector<size_t> from(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    from[i] = i;
    const EngineKind* kind = EngineKindFor(all[i].profile);
    if (kind == nullptr || kind->phase_figure == nullptr) continue;
    bool all_kept = kind->result_at_phase != nullptr;
    for (const std::string& m : needs[i]) all_kept = all_kept && kind->phase_figure(all[i], m);
    if (!all_kept) continue;
    for (size_t j = 0; j < all.size(); ++j) {
      if (j != i && PhasePrefix(all[i], all[j]) && all[j].phases.size() > all[from[i]].phases.size()) from[i] = j;
    }
  }
  return from;
}

absl::StatusOr<Experiment> LoadExperiment(const std::string& path) {
  NoteInputFile(path);  // an output naming it is refused (sim/output_file.h)
  absl::StatusOr<std::string> text = ReadFileBounded(path, kMaxConfigFileBytes, path);
  if (!text.ok()) return text.status();
  return ParseExperiment(*text, path);
}

absl::StatusOr<Experiment> ParseExperiment(std::string_view text, const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse(text, path);
  } catch (const toml::parse_error& err) {
    const auto& src = err.source();
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d:%d: %s", path, src.begin.line, src.begin.column,
                                                      std::string(err.description())));
  }
  if (absl::Status s = CheckKeys(doc, TopKeys(), "the top level", path); !s.ok()) return s;
  Experiment e;
  const std::pair<const char*, std::string*> texts[] = {
      {"name", &e.name}, {"source", &e.source}, {"description", &e.description}};
  for (const auto& [key, field] : texts) {
    if (const toml::node* n = doc.get(key)) {
      absl::StatusOr<std::string> v = StringField(*n, key, "text shown with the results", path);
      if (!v.ok()) return v.status();
      *field = *v;
    }
  }
  RunSpec defaults;
  std::vector<SettingOrigin> default_origins;
  const toml::table* defaults_table = nullptr;
  if (const toml::node* d = doc.get("defaults")) {
    defaults_table = d->as_table();
    if (defaults_table == nullptr) {
      return ErrorAt(path, d->source(), "defaults must be a table: write [defaults] and the settings below it");
    }
    if (absl::Status s = ApplySettings(*defaults_table, false, path, &defaults, &default_origins); !s.ok()) return s;
  }
  const toml::node* run_node = doc.get("run");
  const toml::array* runs = run_node != nullptr ? run_node->as_array() : nullptr;
  if (run_node != nullptr && runs == nullptr) {
    return ErrorAt(path, run_node->source(), "run must be an array of tables: write [[run]] for each run");
  }
  if (runs == nullptr || runs->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no [[run]] entries: add at least one run"));
  }
  int i = 0;
  for (const toml::node& node : *runs) {
    ++i;
    const toml::table* t = node.as_table();
    const std::string where =
        LineOf(node.source()) > 0 ? absl::StrFormat("%s:%d: run %d", path, LineOf(node.source()), i)
                                  : absl::StrCat(path, ": run ", i);
    if (t == nullptr) return absl::InvalidArgumentError(where + " is not a table: write [[run]]");
    ExperimentRun run;
    run.spec = defaults;
    std::vector<SettingOrigin> origins = default_origins;
    if (absl::Status s = ApplySettings(*t, true, path, &run.spec, &origins); !s.ok()) return s;
    if (run.spec.label.empty()) run.spec.label = run.spec.stream.name;
    if (run.spec.rows == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, " (", run.spec.label, "): no row count: set rows = \"10M\" in [defaults] or the run"));
    }
    if (absl::Status s = ValidateRunSpec(run.spec); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(where, " (", run.spec.label, "): ", s.message()));
    }
    if (absl::Status s = CheckServerVariables(run.spec, origins, path); !s.ok()) return s;
    if (absl::StatusOr<RunConfig> st = ConfigFor(run.spec); !st.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(where, " (", run.spec.label, "): ", st.status().message()));
    }
    if (!run.spec.columns.empty() && !absl::StartsWith(run.spec.stream.name, "file")) {
      // The table with its column sources (a file stream's width is known
      // only when it is opened: Run checks those).
      const EngineKind* kind = EngineKindFor(run.spec.profile);
      absl::Status table = kind->check_table(run.spec, StreamKeyWidth(run.spec.stream.name));
      if (!table.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(where, " (", run.spec.label, "): ", table.message()));
      }
    }
    const toml::node* show = t->get("show");
    if (show == nullptr && defaults_table != nullptr) show = defaults_table->get("show");
    if (show != nullptr) {
      const toml::array* a = show->as_array();
      if (a == nullptr) {
        return ErrorAt(path, show->source(), "show must be a list of metric names, e.g. show = [\"size\"]");
      }
      for (const toml::node& m : *a) {
        std::optional<std::string> name = m.value_exact<std::string>();
        if (!name) return ErrorAt(path, m.source(), "show must be a list of metric names, e.g. show = [\"size\"]");
        if (absl::Status s = CheckMetric(*name, m.source(), run.spec, "show", path); !s.ok()) return s;
        // Shown without a published figure: NaN marks it (see Verdict).
        run.published.emplace_back(*name, std::nan(""));
      }
    }
    if (const toml::node* pub_node = t->get("published")) {
      const toml::table* pub = pub_node->as_table();
      if (pub == nullptr) return ErrorAt(path, pub_node->source(), "published must be a table: write [run.published]");
      for (const auto& [k, v] : *pub) {
        const std::string metric(k.str());
        if (absl::Status s = CheckMetric(metric, k.source(), run.spec, "[run.published]", path); !s.ok()) {
          return s;
        }
        std::optional<double> d = NumberField(v);
        if (!d) return ErrorAt(path, v.source(), absl::StrCat("published ", metric, " = ", Shown(v), " must be a number"));
        // A figure both shown and published is one row: the published one.
        std::erase_if(run.published, [&](const auto& p) { return p.first == metric && std::isnan(p.second); });
        run.published.emplace_back(metric, *d);
      }
    }
    if (const toml::node* tol_node = t->get("tolerance")) {
      const toml::table* tol = tol_node->as_table();
      if (tol == nullptr) return ErrorAt(path, tol_node->source(), "tolerance must be a table: write [run.tolerance]");
      for (const auto& [k, v] : *tol) {
        const std::string metric(k.str());
        if (absl::Status s = CheckMetric(metric, k.source(), run.spec, "[run.tolerance]", path); !s.ok()) {
          return s;
        }
        const toml::table* pub = t->get("published") != nullptr ? t->get("published")->as_table() : nullptr;
        if (pub == nullptr || pub->get(metric) == nullptr) {
          return ErrorAt(path, k.source(),
                         absl::StrCat("tolerance for '", metric, "' but this run publishes no figure for it: add ",
                                      metric, " = ... to its [run.published]"));
        }
        absl::StatusOr<double> d = ToleranceField(v, metric, path);
        if (!d.ok()) return d.status();
        run.tolerance[metric] = *d;
      }
    }
    e.runs.push_back(std::move(run));
  }
  return e;
}

ExperimentPlan PlanExperiment(const Experiment& e, std::optional<uint64_t> rows_override) {
  ExperimentPlan plan;
  plan.experiment = e;
  if (rows_override) {
    for (ExperimentRun& r : plan.experiment.runs) r.spec.rows = *rows_override;
  }
  for (const ExperimentRun& r : plan.experiment.runs) {
    size_t k = 0;
    while (k < plan.distinct.size() && !SameConfig(plan.distinct[k], r.spec)) ++k;
    if (k == plan.distinct.size()) plan.distinct.push_back(r.spec);
    plan.which.push_back(k);
  }
  return plan;
}

ConfigFigures FiguresOf(const ExperimentPlan& plan, size_t config, const RunResult& r) {
  ConfigFigures f;
  f.engine_result = r.engine_result != nullptr;
  f.page_size = r.spec.page_size;
  f.leaf_fill = r.report.primary.leaf_fill;
  f.data_length = r.report.data_length;
  f.elapsed_s = r.elapsed_s;
  const nlohmann::ordered_json j = RunToJson(r);
  const std::vector<std::vector<std::string>> shown = ShownMetrics(plan);
  for (const std::string& metric : shown[config]) {
    if (r.engine_result != nullptr) {
      if (const std::optional<double> v = r.engine_result->Metric(metric)) f.metrics[metric] = *v;
    } else if (j.contains(metric) && j[metric].is_number()) {
      f.metrics[metric] = j[metric].get<double>();
    }
  }
  return f;
}

RunResult ResultOfFigures(const RunSpec& spec, const ConfigFigures& f) {
  RunResult r;
  r.spec = spec;
  r.spec.page_size = f.page_size;
  r.report.primary.leaf_fill = f.leaf_fill;
  r.report.data_length = f.data_length;
  r.elapsed_s = f.elapsed_s;
  return r;
}

absl::StatusOr<ExperimentResult> RunExperiment(const Experiment& e, int threads,
                                               std::optional<uint64_t> rows_override) {
  absl::StatusOr<std::vector<ExperimentResult>> r = RunExperiments({e}, threads, rows_override);
  if (!r.ok()) return r.status();
  return std::move(r->front());
}

namespace {

// RunMany of `all` (the plans' distinct configurations in order), each
// phase prefix (PhasePrefixSources) taken from its longer run's record
// instead of simulated, when `share_prefixes`; results and end times in
// `all`'s order. The longer run's time is shared equally with its prefixes,
// as a shared tree's is.
std::vector<absl::StatusOr<RunResult>> RunPhasePrefixesOnce(const std::vector<RunSpec>& all,
                                                            const std::vector<ExperimentPlan>& plans, int threads,
                                                            std::vector<double>* ended_s, bool share_prefixes) {
  if (!share_prefixes) return RunMany(all, threads, ended_s);
  std::vector<std::vector<std::string>> needs;  // in `all`'s order
  for (const ExperimentPlan& plan : plans) {
    std::vector<std::vector<std::string>> shown = ShownMetrics(plan);
    needs.insert(needs.end(), std::make_move_iterator(shown.begin()), std::make_move_iterator(shown.end()));
  }
  std::vector<size_t> from = PhasePrefixSources(all, needs);
  std::vector<RunSpec> to_run;
  std::vector<size_t> slot(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    if (from[i] != i) continue;
    slot[i] = to_run.size();
    to_run.push_back(all[i]);
  }
  std::vector<double> ran_ended;
  std::vector<absl::StatusOr<RunResult>> ran = RunMany(to_run, threads, &ran_ended);
  std::vector<size_t> sharing(to_run.size(), 1);  // runs each simulated run's figures serve
  std::vector<absl::StatusOr<RunResult>> results(all.size(), absl::UnknownError("not run"));
  std::vector<RunSpec> alone;  // prefixes the longer run's result could not give after all
  std::vector<size_t> alone_of;
  for (size_t i = 0; i < all.size(); ++i) {
    const absl::StatusOr<RunResult>& src = ran[slot[from[i]]];
    if (from[i] == i) {
      results[i] = src;
      continue;
    }
    // A longer run that failed says nothing of its prefix, which then runs
    // (and fails, or not) on its own.
    RunResult r;
    if (!src.ok() || !EngineKindFor(all[i].profile)->result_at_phase(*src, all[i].phases.size() + 1, &r)) {
      alone.push_back(all[i]);
      alone_of.push_back(i);
      continue;
    }
    r.spec.phases = all[i].phases;  // the spec as run (the page size used), cut to the prefix's phases
    r.spec.label = all[i].label;
    results[i] = std::move(r);
    ++sharing[slot[from[i]]];
  }
  ended_s->assign(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (!results[i].ok()) continue;
    const size_t s = slot[from[i]];
    (*ended_s)[i] = ran_ended[s];
    results[i]->elapsed_s = ran[s]->elapsed_s / static_cast<double>(sharing[s]);
  }
  if (!alone.empty()) {
    std::vector<double> alone_ended;
    std::vector<absl::StatusOr<RunResult>> more = RunMany(alone, threads, &alone_ended);
    const double offset = ran_ended.empty() ? 0 : *std::max_element(ran_ended.begin(), ran_ended.end());
    for (size_t k = 0; k < alone.size(); ++k) {
      results[alone_of[k]] = std::move(more[k]);
      (*ended_s)[alone_of[k]] = offset + alone_ended[k];
    }
  }
  return results;
}

}  // namespace

absl::StatusOr<std::vector<ExperimentResult>> RunExperiments(const std::vector<Experiment>& es, int threads,
                                                             std::optional<uint64_t> rows_override,
                                                             bool share_prefixes) {
  std::vector<ExperimentPlan> plans;
  std::vector<RunSpec> all;
  for (const Experiment& e : es) {
    plans.push_back(PlanExperiment(e, rows_override));
    all.insert(all.end(), plans.back().distinct.begin(), plans.back().distinct.end());
  }
  std::vector<double> ended_s;
  std::vector<absl::StatusOr<RunResult>> results = RunPhasePrefixesOnce(all, plans, threads, &ended_s, share_prefixes);
  std::vector<ExperimentResult> out;
  size_t first = 0;  // the file's first configuration in `all`
  for (const ExperimentPlan& plan : plans) {
    std::vector<RunResult> done;
    std::vector<ConfigFigures> figures;
    double wall_s = 0;
    for (size_t k = 0; k < plan.distinct.size(); ++k) {
      absl::StatusOr<RunResult>& r = results[first + k];
      if (!r.ok()) return r.status();
      figures.push_back(FiguresOf(plan, k, *r));
      // One file: its runs' wall time. Several, run together: the sum of
      // the file's runs' own times, as `innosim merge` gives for shards
      // that ran apart.
      wall_s = es.size() == 1 ? std::max(wall_s, ended_s[first + k]) : wall_s + r->elapsed_s;
      done.push_back(*std::move(r));
    }
    absl::StatusOr<ExperimentResult> assembled = AssembleExperiment(plan, done, figures, wall_s);
    if (!assembled.ok()) return assembled.status();
    out.push_back(*std::move(assembled));
    first += plan.distinct.size();
  }
  return out;
}

absl::StatusOr<ExperimentResult> AssembleExperiment(const ExperimentPlan& plan, const std::vector<RunResult>& results,
                                                    const std::vector<ConfigFigures>& figures, double wall_s) {
  ExperimentResult out;
  out.experiment = plan.experiment;
  out.distinct_runs = plan.distinct.size();
  out.wall_s = wall_s;
  const Experiment& e = plan.experiment;
  for (size_t i = 0; i < out.experiment.runs.size(); ++i) {
    const ExperimentRun& run = out.experiment.runs[i];
    const ConfigFigures& f = figures[plan.which[i]];
    RunResult rr = results[plan.which[i]];
    rr.spec.label = run.spec.label;
    for (const auto& [metric, published] : run.published) {
      ComparisonRow row;
      row.label = run.spec.label;
      row.metric = metric;
      row.published = published;
      auto v = f.metrics.find(metric);
      if (v == f.metrics.end() && f.engine_result) {
        return absl::InvalidArgumentError(absl::StrCat(e.name, ": run '", run.spec.label, "' publishes '", metric,
                                                       "', which innosim does not produce for ", run.spec.profile));
      }
      if (v == f.metrics.end()) {
        return absl::InvalidArgumentError(absl::StrCat(e.name, ": run '", run.spec.label, "' publishes '", metric,
                                                       "', which innosim does not produce: use a field of `innosim run --json`"));
      }
      row.simulated = v->second;
      // Not published (NaN): no error to show or check.
      row.rel_error = std::isnan(published) ? 0 : RelativeError(row.simulated, published);
      if (auto it = run.tolerance.find(metric); it != run.tolerance.end() && !std::isnan(published)) {
        row.tolerance = it->second;
        row.ok = WithinTolerance(row.rel_error, it->second);
        out.all_ok = out.all_ok && row.ok;
      }
      out.rows.push_back(row);
    }
    out.results.push_back(std::move(rr));
  }
  return out;
}

namespace {

std::string FormatValue(const std::string& metric, double v) {
  if (metric == counters::kDataLength.name || metric == counters::kIndexLength.name ||
      metric == "data_length_in_key_order") {
    return absl::StrFormat("%.3f GB", v / 1e9);
  }
  if (metric == "leaf_fill") return absl::StrFormat("%.1f%%", 100 * v);
  // Seed 000 publishes its fill to 0.1 point: two decimals show the difference.
  if (metric == "data_length_fill_seed000") return absl::StrFormat("%.2f%%", 100 * v);
  // pgstatindex's percentages stay fractional when they happen to be whole
  // (71.000, not 71), so a column of them reads alike.
  const bool percentage = metric.ends_with("avg_leaf_density") || metric.ends_with("leaf_fragmentation");
  if (!percentage && v == std::floor(v) && std::fabs(v) < 1e15) {
    return absl::StrFormat("%d", static_cast<int64_t>(v));
  }
  return absl::StrFormat("%.3f", v);
}

std::string Verdict(const ComparisonRow& row) {
  if (std::isnan(row.published)) return "(not published)";
  if (!row.tolerance) return "(info)";
  if (*row.tolerance == 0) return row.ok ? "ok (exact)" : "MISS (exact)";
  return absl::StrFormat("%s (within %.1f%%)", row.ok ? "ok" : "MISS", 100 * *row.tolerance);
}

}  // namespace

std::string ExperimentTable(const ExperimentResult& r) {
  std::string s;
  absl::StrAppendFormat(&s, "experiment %s: %d runs (%d distinct) simulated in %.1f s\n", r.experiment.name,
                        r.experiment.runs.size(), r.distinct_runs, r.wall_s);
  if (!r.experiment.source.empty()) absl::StrAppendFormat(&s, "published figures: %s\n", r.experiment.source);
  absl::StrAppendFormat(&s, "\n%-28s %-28s %14s %14s %9s  %s\n", "run", "metric", "simulated", "published", "error",
                        "verdict");
  for (const ComparisonRow& row : r.rows) {
    if (std::isnan(row.published)) {
      absl::StrAppendFormat(&s, "%-28s %-28s %14s %14s %9s  %s\n", row.label, row.metric,
                            FormatValue(row.metric, row.simulated), "-", "", Verdict(row));
      continue;
    }
    absl::StrAppendFormat(&s, "%-28s %-28s %14s %14s %9s  %s\n", row.label, row.metric,
                          FormatValue(row.metric, row.simulated), FormatValue(row.metric, row.published),
                          FormatRelativeError(row.rel_error), Verdict(row));
  }
  absl::StrAppendFormat(&s, "\n%s\n", r.all_ok ? "every figure with a tolerance is within it"
                                                : "some figures are outside their tolerance (MISS)");
  return s;
}

std::string ExperimentMarkdown(const ExperimentResult& r, const std::string& command) {
  std::string s;
  absl::StrAppendFormat(&s, "### %s\n\n", r.experiment.name);
  if (!r.experiment.description.empty()) absl::StrAppendFormat(&s, "%s\n\n", r.experiment.description);
  if (!r.experiment.source.empty()) absl::StrAppendFormat(&s, "Published figures: %s.\n\n", r.experiment.source);
  absl::StrAppendFormat(&s, "Regenerate with `%s`. %d runs (%d distinct configurations) simulated in %.1f s.\n\n",
                        command, r.experiment.runs.size(), r.distinct_runs, r.wall_s);
  s += "| run | metric | simulated | published | error | verdict |\n|---|---|---:|---:|---:|---|\n";
  for (const ComparisonRow& row : r.rows) {
    if (std::isnan(row.published)) {
      absl::StrAppendFormat(&s, "| %s | `%s` | %s | - | | %s |\n", row.label, row.metric,
                            FormatValue(row.metric, row.simulated), Verdict(row));
      continue;
    }
    absl::StrAppendFormat(&s, "| %s | `%s` | %s | %s | %s | %s |\n", row.label, row.metric,
                          FormatValue(row.metric, row.simulated), FormatValue(row.metric, row.published),
                          FormatRelativeError(row.rel_error), Verdict(row));
  }
  return s;
}

}  // namespace innosim
