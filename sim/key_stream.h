// KeyStream: the primary keys of one workload, in insertion order.
//
// A stream is deterministic: the same spec (name, seed, rows_per_ms,
// start_ms, path) yields the same keys, byte for byte. Streams are created by
// MakeKeyStream from a StreamSpec; bad specs come back as an absl::Status with
// a one-line message saying what was wrong and how to mend it.
//
// Streams (see docs/key-streams.md):
//   uuidv4          RFC 9562 version 4, 122 random bits.
//   uuidv7-random   48-bit ms from the synthetic clock, the other 74 bits random.
//   uuidv7-counter  RFC 9562 method 2: 12-bit rand_a counter reset each ms,
//                   carrying into the next ms at 4096.
//   uuidv7-subms    RFC 9562 method 3: rand_a holds the sub-ms fraction,
//                   monotonic (as PostgreSQL 18 makes it).
//   uuidv1          RFC 9562 version 1 as MySQL's UUID() with UUID_TO_BIN(x):
//                   time_low first (the order restarts every 429.5 s).
//   uuidv1-swap     the same with UUID_TO_BIN(x, 1): time_high first, ascending.
//   uuidv6          RFC 9562 version 6: the v1 timestamp most significant first.
//   ulid            48-bit ms + 80 random bits.
//   ulid-monotonic  ULID's monotonic mode: +1 on the random part within a ms.
//   snowflake       Twitter's BIGINT: 41-bit ms, 10-bit machine, 12-bit
//                   sequence (8-byte key).
//   autoinc         BIGINT 1, 2, 3, ... (8-byte key); INT, MEDIUMINT,
//                   SMALLINT or TINYINT [UNSIGNED] with such a table (4-, 3-,
//                   2-, 1-byte keys: StreamSpec::autoinc_bytes).
//   file:PATH       keys read from a file: one textual UUID per line if the
//                   file starts with printable text, else binary 16-byte
//                   big-endian records (sim/file_key_stream.h).
//   file16:PATH     binary 16-byte big-endian records (BINARY(16)).
//   file8:PATH      binary 8-byte big-endian records (BIGINT UNSIGNED).
//   fileN:PATH      binary N-byte big-endian records, N = 1..32; PATH "-"
//                   (file:-, fileN:-) reads standard input.
// With spec.writers > 1 the generators run once per writer, each on its own
// skewed clock, and their keys are interleaved (sim/writers.h).
// Synthetic clock: ms(i) = start_ms + i / rows_per_ms (every generator but
// uuidv4 and autoinc reads it).
//
// Text and raw forms of a key (FormatUuid, ParseUuid, KeyBytes): sim/uuid.h.
//
// Not thread-safe; one stream per thread. Next() does not allocate.
#ifndef INNOSIM_SIM_KEY_STREAM_H_
#define INNOSIM_SIM_KEY_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "model/key.h"

namespace innosim {

// How the rows of several writers reach the server (sim/writers.h).
enum class Interleave : uint8_t {
  kRoundRobin,  // writer 0, 1, ..., N-1, 0, 1, ...
  kTime,        // by each row's true time, writers at their weights' rates
};

struct StreamSpec {
  std::string name;                 // "uuidv4", ..., or "file:PATH"
  uint64_t seed = 1;                // PRNG seed (random bits)
  uint64_t rows_per_ms = 482;       // synthetic clock rate (uuidv7-*), all writers together
  uint64_t start_ms = 1767225600000;  // 2026-01-01T00:00:00Z
  // Several writers (sim/writers.h): N generators, each with its own clock
  // and state, interleaved. 1 = the single writer's stream.
  uint32_t writers = 1;
  double clock_skew_ms = 0;    // writer w's clock runs skew * w / (N-1) ms ahead
  double clock_drift_ppm = 0;  // and drift * w / (N-1) ppm fast
  Interleave interleave = Interleave::kRoundRobin;
  std::vector<uint32_t> writer_weights;  // kTime: relative rates, one per writer (empty: equal)
  // autoinc's column, set from the table by BindStreamToTable
  // (sim/table_parser.h): 8 = BIGINT, the key being the value itself (as
  // ever: the order is the same as the stored form's for positive values);
  // 4, 3, 2, 1 = INT, MEDIUMINT, SMALLINT, TINYINT, the key being the bytes
  // InnoDB stores (big-endian, the sign bit flipped unless UNSIGNED:
  // row_mysql_store_col_in_innobase_format), so keys compare as the
  // integers do. A value above the type's maximum ends the stream with an
  // error naming the type.
  uint8_t autoinc_bytes = 8;
  bool autoinc_unsigned = false;
  // autoinc's counter before the first row: the first key is autoinc_start
  // + 1 (a later phase of a run continues where the table's AUTO_INCREMENT
  // counter stands, as the server does).
  uint64_t autoinc_start = 0;

  friend bool operator==(const StreamSpec&, const StreamSpec&) = default;
};

class KeyStream {
 public:
  virtual ~KeyStream() = default;
  // Writes the next key; returns false when a finite stream (file) is exhausted.
  // A file stream that hits a malformed record stops and reports it in status().
  virtual bool Next(Key* out) = 0;
  // Width of the key column in bytes: 16 (BINARY(16)) or 8 (BIGINT).
  virtual int key_width() const = 0;
  // OK unless the stream stopped on bad input.
  virtual absl::Status status() const { return absl::OkStatus(); }
};

absl::StatusOr<std::unique_ptr<KeyStream>> MakeKeyStream(const StreamSpec& spec);
// The auto-increment stream: start + 1, start + 2, ... in `bytes` (1..8)
// bytes, as the integer type stores them (IntegerKey); a narrow type's
// stream ends with an error past its maximum.
std::unique_ptr<KeyStream> NewAutoIncStream(int bytes, bool is_unsigned, uint64_t start);

// True if `name` is a known generator name or a "file:" spec.
bool IsKnownStreamName(const std::string& name);

// The generator names (not the file: spellings), for help and suggestions:
// the names of sim/stream_registry.h's table, in its order.
std::vector<std::string> GeneratorStreamNames();
// "uuidv4, uuidv7-random, ..., autoinc, file:PATH, file16:PATH, file8:PATH".
std::string ValidStreamNames();

// The key width a stream of this name has, without opening anything: 8 for
// autoinc, snowflake and file8:, N for fileN:, else 16 (what key_width()
// will say).
int StreamKeyWidth(const std::string& name);
// The same for a spec: autoinc's width is spec.autoinc_bytes.
int StreamKeyWidth(const StreamSpec& spec);

// "INT", "SMALLINT UNSIGNED", ...: the integer type of `bytes` (1..8).
std::string IntegerTypeName(int bytes, bool is_unsigned);
// The largest value of that type.
uint64_t IntegerTypeMax(int bytes, bool is_unsigned);
// The key of integer v in a column of `bytes` (1..4) bytes: the bytes
// InnoDB stores, left-aligned (two's complement big-endian, the sign bit
// flipped for a signed type), so keys compare as the integers do, negative
// ones included; an unsigned column reads v's low bits. For 8 bytes: the
// value itself, Key::FromU64(v) (BIGINT keys as they have always been, see
// autoinc_bytes).
Key IntegerKey(int64_t v, int bytes, bool is_unsigned);

}  // namespace innosim

#endif  // INNOSIM_SIM_KEY_STREAM_H_
