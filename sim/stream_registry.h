// StreamRegistry: every generated key stream in one table.
//
// A row of the table says all that the rest of innosim asks of a stream:
// its name and one line of help, the width of its keys, whether it reads
// the synthetic clock, whether the server assigns its keys (autoinc), whether
// its keys carry an RFC 9562 version nibble in their 7th byte (what
// `measure` checks on the stored rows), its cost class (RunMany's order of
// work) and the factory that makes one writer's generator. Help texts, the
// unknown-name errors, the clock checks, `measure`'s loader and the run's
// cost all read it, so adding a stream is its generator plus one entry
// (docs/architecture.md, "How to add a stream").
//
// Key files (file:PATH, fileN:PATH) are not rows of the table: they are
// spellings MakeKeyStream opens (sim/key_stream.h).
//
// The table is built once, before main; RegisterStream adds a row (tests
// register a throwaway stream through it). Not thread-safe against a
// concurrent RegisterStream: register at start-up only.
#ifndef INNOSIM_SIM_STREAM_REGISTRY_H_
#define INNOSIM_SIM_STREAM_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "sim/key_stream.h"
#include "sim/writers.h"

namespace innosim {

struct StreamInfo {
  std::string name;
  // Width of the keys in bytes (16: BINARY(16) / uuid; 8: BIGINT). autoinc
  // takes the table's integer width instead (BindStreamToTable).
  int key_width = 16;
  // Reads the synthetic clock (rows_per_ms, start_ms: CheckClock).
  bool uses_clock = true;
  // The server assigns the keys in arrival order (AUTO_INCREMENT, a
  // sequence): several writers make the same keys as one.
  bool server_assigned = false;
  // Every key carries an RFC 9562 version nibble in the high half of its
  // 7th byte (measure checks the stored rows for it).
  bool version_nibble = true;
  // Keys land anywhere in the tree (a cache miss per insert): RunMany starts
  // such runs first.
  bool scattered = false;
  // One writer's generator: `timing` is null for the single writer on the
  // synthetic clock, else writer timing->index of several (sim/writers.h).
  // Called with a spec MakeKeyStream has checked.
  std::unique_ptr<KeyStream> (*make)(const StreamSpec& spec, uint64_t seed, const WriterTiming* timing) = nullptr;
  // The stream's own limits on the clock beyond the 48-bit ms every clock
  // stream has (the Snowflake epoch, the 60-bit version 1 timestamp), or
  // nullptr: one line saying how to mend the spec.
  absl::Status (*check_clock)(const StreamSpec& spec) = nullptr;
  // One line for --help and docs/key-streams.md.
  std::string help;
};

// Every generated stream, in the order help and messages list them.
const std::vector<StreamInfo>& Streams();
// The row of `name`, or nullptr (a key file's spelling included).
const StreamInfo* FindStream(std::string_view name);
// Adds a row. AlreadyExists for a name the table has, InvalidArgument for
// an empty name or no factory.
absl::Status RegisterStream(StreamInfo info);
// True for a stream whose keys the server assigns (autoinc).
inline bool ServerAssigns(std::string_view name) {
  const StreamInfo* info = FindStream(name);
  return info != nullptr && info->server_assigned;
}
// "uuidv4, uuidv7-random, ..., autoinc, file:PATH (docs/key-streams.md)":
// the --stream option's help.
std::string StreamOptionHelp();

// Writer `w`'s own generator of a spec with several writers, as
// MakeKeyStream interleaves them (measure loads each writer's keys on its
// own connection). nullptr for a stream without a row.
std::unique_ptr<KeyStream> MakeWriterStream(const StreamSpec& spec, uint32_t w);

}  // namespace innosim

#endif  // INNOSIM_SIM_STREAM_REGISTRY_H_
