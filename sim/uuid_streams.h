// The generated key streams: UUIDv4, the three UUIDv7 variants, the version 1
// family (uuidv1, uuidv1-swap, uuidv6), ULID (plain and monotonic) and
// Snowflake (8-byte). Each is an infinite KeyStream; MakeKeyStream (key_stream.h)
// validates the spec and calls these factories, which assume a valid spec
// (rows_per_ms >= 1, start_ms < 2^48).
//
// Randomness: one Xoshiro256StarStar (sim/xoshiro256.h) per stream, seeded
// with the spec's seed. Its 64-bit words are placed into key bytes with
// shifts (big-endian), never through a std::*_distribution, so a seed gives
// the same keys on every platform. docs/key-streams.md gives the exact
// word-to-byte mapping of each stream.
//
// Synthetic clock: row i (0-based) happens at start_ms + i / rows_per_ms
// milliseconds (an exact rational; uuidv7-subms reads it to the nanosecond,
// rounded down).
//
// Not thread-safe; one stream per thread. Next() never allocates.
#ifndef INNOSIM_SIM_UUID_STREAMS_H_
#define INNOSIM_SIM_UUID_STREAMS_H_

#include <cstdint>
#include <memory>

#include <string_view>

#include "sim/key_stream.h"
#include "sim/writers.h"

namespace innosim {

// Twitter's Snowflake epoch, 2010-11-04T01:42:54.657Z, in Unix ms.
inline constexpr uint64_t kSnowflakeEpochMs = 1288834974657;
// The last start_ms whose 60-bit UUIDv1 timestamp (100-ns ticks since
// 1582-10-15) fits: (2^60 - 1 - 122192928000000000) / 10000, in year 5236.
inline constexpr uint64_t kUuidV1MaxStartMs = ((uint64_t{1} << 60) - 1 - 122192928000000000ULL) / 10000;

// RFC 9562 version 4: 122 random bits.
std::unique_ptr<KeyStream> NewUuidV4Stream(uint64_t seed);

// Version 7, 48-bit ms from the synthetic clock, the other 74 bits random
// (seed 000's NewV7Naive): keys within one ms are in random order.
std::unique_ptr<KeyStream> NewUuidV7RandomStream(uint64_t seed, uint64_t rows_per_ms,
                                                 uint64_t start_ms);

// Version 7, RFC 9562 method 2 (seed 000's V7Mono.Next): rand_a is a 12-bit
// counter, 0 for the first key of each ms; when it would reach 4096 the key
// moves to the next ms with counter 0, and the ms never goes back.
std::unique_ptr<KeyStream> NewUuidV7CounterStream(uint64_t seed, uint64_t rows_per_ms,
                                                  uint64_t start_ms);

// Version 7, RFC 9562 method 3 as PostgreSQL 18's uuidv7(): rand_a is the
// sub-ms fraction (1/4096 ms units) of a ns timestamp that advances at least
// 245 ns per key (get_real_time_ns_ascending).
std::unique_ptr<KeyStream> NewUuidV7SubmsStream(uint64_t seed, uint64_t rows_per_ms,
                                                uint64_t start_ms);

// RFC 9562 version 1 as MySQL's UUID() makes it, stored with UUID_TO_BIN(x)
// (no swap): time_low (the timestamp's low 32 bits, 100-ns ticks since
// 1582-10-15) leads, so the order restarts every 2^32 ticks (429.4967296 s).
// clock_seq and node are fixed per writer (from the seed). Keys within one
// tick stay unique as MySQL keeps them (UuidV1Clock in the .cc). Needs
// kUuidV1MaxStartMs >= start_ms (validated by MakeKeyStream).
std::unique_ptr<KeyStream> NewUuidV1Stream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);
// The same UUIDs stored with UUID_TO_BIN(x, 1): time_high and time_mid moved
// before time_low, so keys strictly ascend.
std::unique_ptr<KeyStream> NewUuidV1SwapStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);
// RFC 9562 version 6: the same 60-bit timestamp most significant first,
// then the version 6 nibble and the timestamp's low 12 bits; strictly ascends.
std::unique_ptr<KeyStream> NewUuidV6Stream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);
// ULID: 48-bit ms, 80 random bits; keys within one ms in random order.
std::unique_ptr<KeyStream> NewUlidStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);
// ULID's monotonic mode: within a ms, the 80-bit random part of the previous
// key plus 1; strictly ascends.
std::unique_ptr<KeyStream> NewUlidMonotonicStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);
// Twitter Snowflake in a BIGINT (8-byte key): 0, 41-bit ms since
// kSnowflakeEpochMs, 10-bit machine id (from the seed), 12-bit sequence per
// ms; strictly ascends. Needs kSnowflakeEpochMs <= start_ms.
std::unique_ptr<KeyStream> NewSnowflakeStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms);

// Any clock-reading generator by name (uuidv7-*, uuidv1, uuidv1-swap,
// uuidv6, ulid, ulid-monotonic, snowflake) on the single writer's synthetic
// clock; nullptr for another name.
std::unique_ptr<KeyStream> NewClockStream(std::string_view name, uint64_t seed, uint64_t rows_per_ms,
                                          uint64_t start_ms);
// The same generator as writer timing.index of several (sim/writers.h): on
// that writer's clock, and for snowflake with machine id + index.
std::unique_ptr<KeyStream> NewWriterClockStream(std::string_view name, uint64_t seed, const WriterTiming& timing);

}  // namespace innosim

#endif  // INNOSIM_SIM_UUID_STREAMS_H_
