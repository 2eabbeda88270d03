// Shard: the K-th of N deterministic slices of a command's configurations
// (`innosim sweep|experiment ... --shard K/N`), the JSON lines a shard
// writes, and their checks when `innosim merge` joins them.
//
// Slicing: the command's M configurations are numbered 1..M in the order
// the unsharded command lists them; configuration c belongs to shard
// ((c - 1) mod N) + 1 (round robin, so that neighbouring configurations,
// often of similar cost, go to different shards). A shard with no
// configuration (K > M) still writes its header line.
//
// Lines (one JSON object each; the shards' outputs may be concatenated in
// any order, as `parallel ... > FILE` does):
//   {"innosim_shard":{"identity":ID,"command":"sweep","shard":K,"shards":N,"configurations":M},
//    "args":[...],"output":{...}}                                  the header
//   {"innosim_shard":{"identity":ID,"shard":K,"shards":N,"configurations":M,"configuration":c}, ...}
// ID is a digest of the command (subcommand, options that change its
// output, and the text of the files it reads): shards of different
// commands carry different IDs and are refused together.
#ifndef INNOSIM_SIM_SHARD_H_
#define INNOSIM_SIM_SHARD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace innosim {

struct ShardSpec {
  uint64_t k = 1;  // 1-based
  uint64_t n = 1;
  bool Holds(uint64_t configuration) const { return (configuration - 1) % n == k - 1; }
};

// "K/N" with 1 <= K <= N; InvalidArgument with one line saying how to mend
// it otherwise ("--shard 0/4: K counts from 1: use 1/4 to 4/4").
absl::StatusOr<ShardSpec> ParseShard(const std::string& text);

// The identity of a command: FNV-1a 64 of its canonical description, as 16
// hex digits. Not a security digest: it tells shards of different commands
// apart.
std::string ShardIdentity(const nlohmann::ordered_json& command);

// The header line and a configuration line (without the trailing newline).
// `body` holds the command's own fields ("args", "output", ...) or the
// configuration's ("run", "error", ...).
std::string ShardHeaderLine(const std::string& command, const std::string& identity, const ShardSpec& shard,
                            uint64_t configurations, const nlohmann::ordered_json& body);
std::string ShardConfigLine(const std::string& identity, const ShardSpec& shard, uint64_t configurations,
                            uint64_t configuration, const nlohmann::ordered_json& body);

// The lines of one file: its name for messages and its text.
struct ShardInput {
  std::string name;
  std::string text;
};

// The shards joined: the command (from a header), its header body, and the
// body of every configuration 1..M in order.
struct MergedShards {
  std::string command;
  nlohmann::ordered_json header;               // the header's body
  std::vector<nlohmann::ordered_json> bodies;  // [c - 1] = configuration c
};

// Reads and checks the lines: every line a shard line, one identity, one N,
// each shard 1..N's header exactly once, each configuration exactly once
// and in the shard it belongs to. InvalidArgument with one line naming the
// file and line (or the missing shards) otherwise.
absl::StatusOr<MergedShards> MergeShards(const std::vector<ShardInput>& inputs);

// A double as JSON: a number, or "nan", "inf", "-inf" (JSON has none of
// them); and back.
nlohmann::ordered_json DoubleToJson(double v);
absl::StatusOr<double> DoubleFromJson(const nlohmann::ordered_json& j);

}  // namespace innosim

#endif  // INNOSIM_SIM_SHARD_H_
