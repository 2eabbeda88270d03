#include "sim/shard.h"

#include <cmath>
#include <map>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace innosim {
namespace {

constexpr char kKey[] = "innosim_shard";

std::string Where(const std::string& name, size_t line) { return absl::StrCat(name, ":", line); }

// Where a line was seen twice: "a:1 and b:3", or "a:1, a file given twice".
std::string Twice(const std::string& first, const std::string& again) {
  return first == again ? absl::StrCat(first, ", a file given twice") : absl::StrCat(first, " and ", again);
}

std::optional<uint64_t> Unsigned(const nlohmann::ordered_json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) return std::nullopt;
  return it->get<uint64_t>();
}

nlohmann::ordered_json ShardObject(const std::string& identity, const ShardSpec& shard, uint64_t configurations) {
  nlohmann::ordered_json s;
  s["identity"] = identity;
  s["shard"] = shard.k;
  s["shards"] = shard.n;
  s["configurations"] = configurations;
  return s;
}

}  // namespace

absl::StatusOr<ShardSpec> ParseShard(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, '/');
  uint64_t k = 0, n = 0;
  // SimpleAtoi takes a sign and spaces: a shard is digits only.
  auto digits = [](const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == s.npos; };
  if (parts.size() != 2 || !digits(parts[0]) || !digits(parts[1]) || !absl::SimpleAtoi(parts[0], &k) ||
      !absl::SimpleAtoi(parts[1], &n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shard '", text, "': write K/N, the K-th of N slices, e.g. --shard 3/16"));
  }
  if (n == 0) return absl::InvalidArgumentError(absl::StrCat("--shard ", text, ": N must be at least 1, e.g. 1/1"));
  if (k == 0) return absl::InvalidArgumentError(absl::StrCat("--shard ", text, ": K counts from 1: use 1/", n, " to ", n, "/", n));
  if (k > n) return absl::InvalidArgumentError(absl::StrCat("--shard ", text, ": K is at most N: use 1/", n, " to ", n, "/", n));
  return ShardSpec{k, n};
}

std::string ShardIdentity(const nlohmann::ordered_json& command) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char c : command.dump()) {
    h ^= c;
    h *= 1099511628211ull;  // FNV 64 prime
  }
  return absl::StrFormat("%016x", h);
}

std::string ShardHeaderLine(const std::string& command, const std::string& identity, const ShardSpec& shard,
                            uint64_t configurations, const nlohmann::ordered_json& body) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json s = ShardObject(identity, shard, configurations);
  s["command"] = command;
  j[kKey] = s;
  for (const auto& [k, v] : body.items()) j[k] = v;
  return j.dump();
}

std::string ShardConfigLine(const std::string& identity, const ShardSpec& shard, uint64_t configurations,
                            uint64_t configuration, const nlohmann::ordered_json& body) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json s = ShardObject(identity, shard, configurations);
  s["configuration"] = configuration;
  j[kKey] = s;
  for (const auto& [k, v] : body.items()) j[k] = v;
  return j.dump();
}

absl::StatusOr<MergedShards> MergeShards(const std::vector<ShardInput>& inputs) {
  MergedShards out;
  std::string identity, first_at;
  uint64_t n = 0, m = 0;
  std::map<uint64_t, std::string> headers;  // shard -> where
  std::map<uint64_t, std::string> seen;     // configuration -> where
  std::map<uint64_t, nlohmann::ordered_json> bodies;
  for (const ShardInput& in : inputs) {
    size_t line_no = 0;
    for (absl::string_view line : absl::StrSplit(in.text, '\n')) {
      ++line_no;
      if (line.empty()) continue;
      const std::string at = Where(in.name, line_no);
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(line, nullptr, false);
      const auto bad = [&at](const std::string& why) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ": ", why, ": give the output of innosim sweep or experiment with --shard K/N"));
      };
      if (j.is_discarded() || !j.is_object() || !j.contains(kKey) || !j[kKey].is_object()) {
        return bad("not a line of a shard");
      }
      const nlohmann::ordered_json& s = j[kKey];
      const std::optional<uint64_t> k = Unsigned(s, "shard"), nn = Unsigned(s, "shards"),
                                    mm = Unsigned(s, "configurations");
      if (!s.contains("identity") || !s["identity"].is_string() || !k || !nn || !mm || *k < 1 || *k > *nn) {
        return bad("a shard line without its identity, shard, shards and configurations");
      }
      const std::string id = s["identity"].get<std::string>();
      if (identity.empty()) {
        identity = id;
        first_at = at;
        n = *nn;
        m = *mm;
      } else if (id != identity) {
        return absl::InvalidArgumentError(absl::StrCat(at, ": a shard of another command than ", first_at,
                                                       "'s (identity ", id, ", not ", identity,
                                                       "): merge the shards of one command"));
      } else if (*nn != n) {
        return absl::InvalidArgumentError(absl::StrCat(at, ": shard ", *k, "/", *nn, ", but ", first_at, " is of ", n,
                                                       " shards: merge the shards of one --shard K/N split"));
      } else if (*mm != m) {
        return absl::InvalidArgumentError(absl::StrCat(at, ": ", *mm, " configurations, but ", first_at,
                                                       " has ", m, ": merge the shards of one command"));
      }
      const std::string shard_name = absl::StrCat(*k, "/", n);
      if (s.contains("command")) {
        if (!s["command"].is_string()) return bad("a header whose command is not a string");
        auto [it, fresh] = headers.emplace(*k, at);
        if (!fresh) {
          return absl::InvalidArgumentError(absl::StrCat("shard ", shard_name, " appears twice (", Twice(it->second, at),
                                                         "): give each shard's output once"));
        }
        if (out.command.empty()) {
          out.command = s["command"].get<std::string>();
          out.header = j;
          out.header.erase(kKey);
        }
        continue;
      }
      const std::optional<uint64_t> c = Unsigned(s, "configuration");
      if (!c || *c < 1 || *c > m) return bad(absl::StrCat("a configuration line without a configuration 1 to ", m));
      if (!ShardSpec{*k, n}.Holds(*c)) {
        return absl::InvalidArgumentError(absl::StrCat(at, ": configuration ", *c, " is not one of shard ", shard_name,
                                                       "'s: the line was edited or mixed up; run the shard again"));
      }
      auto [it, fresh] = seen.emplace(*c, at);
      if (!fresh) {
        return absl::InvalidArgumentError(absl::StrCat("configuration ", *c, " of ", m, " appears twice (",
                                                       Twice(it->second, at), "): give each shard's output once"));
      }
      j.erase(kKey);
      bodies[*c] = std::move(j);
    }
  }
  if (identity.empty()) {
    std::vector<std::string> names;
    for (const ShardInput& in : inputs) names.push_back(in.name);
    return absl::InvalidArgumentError(absl::StrCat("no shard lines in ", absl::StrJoin(names, ", "),
                                                   ": give the output of innosim sweep or experiment with --shard K/N"));
  }
  std::vector<std::string> missing;
  for (uint64_t k = 1; k <= n; ++k) {
    if (!headers.count(k)) missing.push_back(absl::StrCat(k, "/", n));
  }
  if (!missing.empty()) {
    const size_t shown = std::min<size_t>(missing.size(), 8);
    std::string list = absl::StrJoin(missing.begin(), missing.begin() + shown, ", ");
    if (shown < missing.size()) absl::StrAppend(&list, " and ", missing.size() - shown, " more");
    return absl::InvalidArgumentError(absl::StrCat(missing.size() == 1 ? "shard " : "shards ", list,
                                                   missing.size() == 1 ? " is" : " are",
                                                   " missing: run the command with --shard ", missing[0],
                                                   " (and any other missing) and merge every shard's output"));
  }
  for (uint64_t c = 1; c <= m; ++c) {
    if (!bodies.count(c)) {
      const uint64_t k = (c - 1) % n + 1;
      return absl::InvalidArgumentError(absl::StrCat("shard ", k, "/", n, " (", headers[k], ") is incomplete: configuration ",
                                                     c, " of ", m, " is missing; was it cut short? Run it again"));
    }
    out.bodies.push_back(std::move(bodies[c]));
  }
  return out;
}

nlohmann::ordered_json DoubleToJson(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

absl::StatusOr<double> DoubleFromJson(const nlohmann::ordered_json& j) {
  if (j.is_number()) return j.get<double>();
  if (j == "nan") return std::nan("");
  if (j == "inf") return HUGE_VAL;
  if (j == "-inf") return -HUGE_VAL;
  return absl::InvalidArgumentError(absl::StrCat("not a number: ", j.dump()));
}

}  // namespace innosim
