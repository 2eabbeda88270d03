#include "sim/scenario.h"

#include <toml++/toml.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sim/nearest_name.h"
#include "sim/uuid.h"

namespace innosim {
namespace {

absl::Status ErrorAt(const std::string& path, const toml::source_region& src, const std::string& message) {
  if (src.begin.line <= 0) return absl::InvalidArgumentError(absl::StrCat(path, ": ", message));
  return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path, static_cast<int>(src.begin.line), message));
}

absl::Status CheckKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& where,
                       const std::string& path) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    return ErrorAt(path, k.source(), absl::StrCat("unknown key '", key, "' in ", where, DidYouMean(key, known)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Text(const toml::table& t, const char* key, const std::string& path, bool required) {
  const toml::node* n = t.get(key);
  if (n == nullptr) {
    if (required) return absl::InvalidArgumentError(absl::StrCat(path, ": '", key, "' is missing"));
    return std::string();
  }
  std::optional<std::string> v = n->value_exact<std::string>();
  if (!v) return ErrorAt(path, n->source(), absl::StrCat(key, " must be a string"));
  return *v;
}

absl::StatusOr<std::optional<int64_t>> Whole(const toml::table& t, const char* key, int64_t lo, int64_t hi,
                                             const std::string& path) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::optional<int64_t>();
  std::optional<int64_t> v = n->value_exact<int64_t>();
  if (!v || *v < lo || *v > hi) {
    return ErrorAt(path, n->source(), absl::StrCat(key, " must be a whole number from ", lo, " to ", hi));
  }
  return v;
}

absl::StatusOr<std::optional<double>> Fraction(const toml::table& t, const char* key, const std::string& path) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return std::optional<double>();
  std::optional<double> v = n->value_exact<double>();
  if (!v || !(*v >= 0 && *v <= 1)) {
    return ErrorAt(path, n->source(), absl::StrCat(key, " must be a fraction from 0 to 1 (write 0.5 for 50%)"));
  }
  return v;
}

bool HoldsAlone(const ExplainResult& r, const Key& k) {
  for (const LeafAtEnd& l : r.leaves) {
    if (l.n_recs == 1 && l.first_key == k) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<Scenario> LoadScenario(const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    return ErrorAt(path, e.source(), std::string(e.description()));
  }
  if (absl::Status s = CheckKeys(doc,
                                 {"title", "source", "see", "keys", "stream", "rows", "rows_per_ms", "seed", "table",
                                  "payload_bytes", "page_size", "profile", "expect"},
                                 "the scenario", path);
      !s.ok()) {
    return s;
  }
  Scenario sc;
  sc.path = path;
  absl::StatusOr<std::string> title = Text(doc, "title", path, true);
  if (!title.ok()) return title.status();
  sc.title = *title;
  absl::StatusOr<std::string> source = Text(doc, "source", path, false);
  if (!source.ok()) return source.status();
  sc.source = *source;
  absl::StatusOr<std::string> see = Text(doc, "see", path, true);
  if (!see.ok()) return see.status();
  sc.see = *see;
  absl::StatusOr<std::string> keys = Text(doc, "keys", path, false);
  if (!keys.ok()) return keys.status();
  absl::StatusOr<std::string> stream = Text(doc, "stream", path, false);
  if (!stream.ok()) return stream.status();
  RunSpec& run = sc.spec.run;
  if (keys->empty() == stream->empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": give either keys = \"10,20,15\" or stream = \"...\""));
  }
  if (!keys->empty()) {
    if (absl::Status s = ParseKeyList(*keys, &sc.spec.keys, &sc.spec.key_width); !s.ok()) {
      return ErrorAt(path, doc.get("keys")->source(), std::string(s.message()));
    }
  } else {
    run.stream.name = *stream;
    absl::StatusOr<std::optional<int64_t>> rows = Whole(doc, "rows", 1, 5000, path);
    if (!rows.ok()) return rows.status();
    if (!*rows) return absl::InvalidArgumentError(absl::StrCat(path, ": a stream needs rows = N (at most 5000)"));
    run.rows = static_cast<uint64_t>(**rows);
  }
  absl::StatusOr<std::optional<int64_t>> rpms = Whole(doc, "rows_per_ms", 1, 1000000, path);
  if (!rpms.ok()) return rpms.status();
  run.stream.rows_per_ms = rpms->value_or(482);
  absl::StatusOr<std::optional<int64_t>> seed = Whole(doc, "seed", 0, INT64_MAX, path);
  if (!seed.ok()) return seed.status();
  run.stream.seed = static_cast<uint64_t>(seed->value_or(1));
  absl::StatusOr<std::string> table = Text(doc, "table", path, false);
  if (!table.ok()) return table.status();
  if (!table->empty()) run.table = *table;
  absl::StatusOr<std::optional<int64_t>> payload = Whole(doc, "payload_bytes", 0, UINT32_MAX, path);
  if (!payload.ok()) return payload.status();
  if (*payload) {
    run.payload_bytes = static_cast<uint32_t>(**payload);
    run.payload_bytes_given = true;
  }
  absl::StatusOr<std::optional<int64_t>> page_size = Whole(doc, "page_size", 4096, 65536, path);
  if (!page_size.ok()) return page_size.status();
  if (*page_size) run.page_size = static_cast<uint32_t>(**page_size);
  absl::StatusOr<std::string> profile = Text(doc, "profile", path, false);
  if (!profile.ok()) return profile.status();
  if (!profile->empty()) run.profile = *profile;

  if (const toml::table* e = doc["expect"].as_table(); e != nullptr) {
    if (absl::Status s = CheckKeys(*e,
                                   {"alone_on_page", "decisions", "frozen_mean_fill_below", "frozen_mean_fill_at_least",
                                    "leaves_at_most_fill", "leaves_with_garbage"},
                                   "[expect]", path);
        !s.ok()) {
      return s;
    }
    if (const toml::array* a = (*e)["alone_on_page"].as_array(); a != nullptr) {
      for (const toml::node& n : *a) {
        std::optional<int64_t> v = n.value_exact<int64_t>();
        if (!v || *v < 0) return ErrorAt(path, n.source(), "alone_on_page lists whole-number keys");
        sc.alone_on_page.push_back(Key::FromU64(static_cast<uint64_t>(*v)));
      }
    }
    if (const toml::array* a = (*e)["decisions"].as_array(); a != nullptr) {
      for (const toml::node& n : *a) {
        std::optional<std::string> v = n.value_exact<std::string>();
        if (!v) return ErrorAt(path, n.source(), "decisions lists strings, e.g. \"split to the left\"");
        sc.decisions.push_back(*v);
      }
    }
    absl::StatusOr<std::optional<double>> below = Fraction(*e, "frozen_mean_fill_below", path);
    if (!below.ok()) return below.status();
    sc.frozen_mean_fill_below = *below;
    absl::StatusOr<std::optional<double>> above = Fraction(*e, "frozen_mean_fill_at_least", path);
    if (!above.ok()) return above.status();
    sc.frozen_mean_fill_at_least = *above;
    if (const toml::array* a = (*e)["leaves_at_most_fill"].as_array(); a != nullptr) {
      std::optional<double> fill = a->size() == 2 ? (*a)[0].value_exact<double>() : std::nullopt;
      std::optional<int64_t> count = a->size() == 2 ? (*a)[1].value_exact<int64_t>() : std::nullopt;
      if (!fill || !count || *count < 1) {
        return ErrorAt(path, a->source(), "leaves_at_most_fill = [FILL, COUNT], e.g. [0.2, 5]");
      }
      sc.sparse_fill = *fill;
      sc.sparse_leaves = static_cast<uint64_t>(*count);
    }
    if (const toml::array* a = (*e)["leaves_with_garbage"].as_array(); a != nullptr) {
      std::optional<int64_t> bytes = a->size() == 2 ? (*a)[0].value_exact<int64_t>() : std::nullopt;
      std::optional<int64_t> count = a->size() == 2 ? (*a)[1].value_exact<int64_t>() : std::nullopt;
      if (!bytes || !count || *bytes < 1 || *count < 1) {
        return ErrorAt(path, a->source(), "leaves_with_garbage = [BYTES, COUNT], e.g. [3000, 5]");
      }
      sc.garbage_bytes = static_cast<uint32_t>(std::min<int64_t>(*bytes, UINT32_MAX));
      sc.garbage_leaves = static_cast<uint64_t>(*count);
    }
  }
  return sc;
}

std::vector<std::string> CheckScenario(const Scenario& s, const ExplainResult& r) {
  std::vector<std::string> failed;
  for (const Key& k : s.alone_on_page) {
    if (!HoldsAlone(r, k)) failed.push_back(absl::StrCat("key ", FormatKey(k, r.key_width), " is not alone on a leaf"));
  }
  for (const std::string& d : s.decisions) {
    const bool seen = std::any_of(r.inserts.begin(), r.inserts.end(),
                                  [&](const ExplainedInsert& x) { return x.decision.find(d) != std::string::npos; });
    if (!seen) failed.push_back(absl::StrCat("no insert was '", d, "'"));
  }
  if (s.frozen_mean_fill_below && !(r.summary.frozen > 0 && r.summary.frozen_mean_fill < *s.frozen_mean_fill_below)) {
    failed.push_back(absl::StrFormat("frozen leaves' mean fill %.1f%% (%u leaves) is not below %.1f%%",
                                     100 * r.summary.frozen_mean_fill, r.summary.frozen,
                                     100 * *s.frozen_mean_fill_below));
  }
  if (s.frozen_mean_fill_at_least &&
      !(r.summary.frozen > 0 && r.summary.frozen_mean_fill >= *s.frozen_mean_fill_at_least)) {
    failed.push_back(absl::StrFormat("frozen leaves' mean fill %.1f%% (%u leaves) is below %.1f%%",
                                     100 * r.summary.frozen_mean_fill, r.summary.frozen,
                                     100 * *s.frozen_mean_fill_at_least));
  }
  if (s.sparse_fill) {
    const auto n = static_cast<uint64_t>(
        std::count_if(r.leaves.begin(), r.leaves.end(), [&](const LeafAtEnd& l) { return l.fill <= *s.sparse_fill; }));
    if (n < s.sparse_leaves) {
      failed.push_back(absl::StrFormat("%u leaves end at most %.0f%% full, fewer than %u", n, 100 * *s.sparse_fill,
                                       s.sparse_leaves));
    }
  }
  if (s.garbage_leaves > 0) {
    const auto n = static_cast<uint64_t>(std::count_if(
        r.leaves.begin(), r.leaves.end(), [&](const LeafAtEnd& l) { return l.garbage >= s.garbage_bytes; }));
    if (n < s.garbage_leaves) {
      failed.push_back(absl::StrFormat("%u leaves end with at least %u bytes of PAGE_GARBAGE, fewer than %u", n,
                                       s.garbage_bytes, s.garbage_leaves));
    }
  }
  return failed;
}

}  // namespace innosim
