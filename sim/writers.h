// Several writers: N application servers, each with its own clock and its
// own generator state (counter, monotonic random part, node, machine id),
// whose rows reach the one server interleaved (docs/key-streams.md,
// "Several writers").
//
//   StreamSpec spec{.name = "uuidv7-counter", .rows_per_ms = 482};
//   spec.writers = 4;
//   spec.clock_skew_ms = 2;      // writer i's clock runs i*2/3 ms ahead
//   auto s = MakeKeyStream(spec); // a WritersStream (sim/key_stream.h)
//
// The schedule. rows_per_ms is the rate at which rows reach the server, all
// writers together. Writer w (0-based) of N has relative rate weight_w (all 1
// unless --writer-weights), S = the sum of the weights, so it makes rows at
// rows_per_ms * weight_w / S per ms, its k-th row (0-based) at the true time
//   t_w(k) = (k*N + w) * S / (N * rows_per_ms * weight_w)  ms
// (writer w starts w/N of its own period late). With equal weights this is
// (k*N + w) / rows_per_ms: global row g = k*N + w at g / rows_per_ms, the
// single writer's clock. Interleave round-robin hands the server writer
// 0, 1, ..., N-1, 0, 1, ...; interleave time hands it the row with the
// smallest t_w(k) (ties: the lower writer), an exact rational comparison.
// With equal weights the two orders are the same.
//
// The writer's clock. Writer w reads
//   local_w(t) = start_ms + skew_w + t * (1 + drift_w)
// with skew_w = clock_skew_ms * w / (N-1) and drift_w = clock_drift_ppm *
// w / (N-1) parts per million: writer 0 keeps true time, and the clocks of
// any two writers differ by at most clock_skew_ms (plus the drift's growth).
// local_w is computed in integer ns (floor) for every row; the generator
// reads ms = floor(local/10^6) and the ns within it, exactly as it reads the
// single writer's synthetic clock (sim/uuid_streams.h).
//
// Per-writer identity: writer 0 takes the spec's seed (so writer 0 makes the
// single writer's keys when its clock is not moved), writer w the seed
// xor w * 0x9e3779b97f4a7c15; snowflake's machine id is writer 0's plus w
// (mod 1024), so writers never share one (Snowflake deployments assign them).
//
// Not thread-safe; Next() does not allocate.
#ifndef INNOSIM_SIM_WRITERS_H_
#define INNOSIM_SIM_WRITERS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "sim/key_stream.h"

namespace innosim {

// Limits of the writer options (checked by ValidateWriters).
inline constexpr uint32_t kMaxWriters = 1024;
inline constexpr double kMaxClockSkewMs = 86'400'000;  // one day
inline constexpr double kMaxClockDriftPpm = 100'000;   // 10%
inline constexpr uint32_t kMaxWriterWeight = 1'000'000;

// One writer's place in the schedule and its clock (see the header comment).
struct WriterTiming {
  uint32_t writers = 1;       // N
  uint32_t index = 0;         // w
  uint64_t rows_per_ms = 1;   // all writers together
  uint64_t weight = 1;        // weight_w
  uint64_t weight_sum = 1;    // S
  uint64_t start_ms = 0;
  int64_t skew_ns = 0;        // skew_w in ns
  int64_t drift_ppb = 0;      // drift_w in parts per billion
};

// Writer w's synthetic clock: the interface of the single writer's clock
// (ms(), ns_in_ms(), Tick()), so every generator runs on either.
class WriterClock {
 public:
  explicit WriterClock(const WriterTiming& t);
  uint64_t ms() const { return ms_; }
  uint64_t ns_in_ms() const { return ns_in_ms_; }
  void Tick() {
    ++row_;
    Compute();
  }

 private:
  void Compute();
  WriterTiming t_;
  unsigned __int128 num_step_;  // N * S * 10^6: t_w(k) in ns = (k*N*S + w*S) * 10^6 / den_
  unsigned __int128 num_base_;  // w * S * 10^6
  unsigned __int128 den_;       // N * rows_per_ms * weight_w
  uint64_t row_ = 0;            // k
  uint64_t ms_ = 0;
  uint64_t ns_in_ms_ = 0;
};

// The timing of writer `index` for a spec (skew and drift spread over the
// writers as above).
WriterTiming TimingOf(const StreamSpec& spec, uint32_t index);

// The seed of writer `index`: the spec's for writer 0.
uint64_t WriterSeed(uint64_t seed, uint32_t index);

// True when the spec asks for more than the single writer's stream (N > 1).
bool HasWriters(const StreamSpec& spec);

// Checks the writer fields of a spec: one line naming the option and how to
// mend it.
absl::Status ValidateWriters(const StreamSpec& spec);

// "round-robin" / "time", and back.
const char* InterleaveName(Interleave i);
absl::StatusOr<Interleave> ParseInterleave(const std::string& text);

// The interleaved stream of N writers' streams (each made for its own
// writer by the caller, MakeKeyStream). Takes ownership.
std::unique_ptr<KeyStream> NewWritersStream(const StreamSpec& spec, std::vector<std::unique_ptr<KeyStream>> writers);

}  // namespace innosim

#endif  // INNOSIM_SIM_WRITERS_H_
