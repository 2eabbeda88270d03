// The generated UUID key streams: UUIDv4 and the three UUIDv7 variants. Each is an infinite KeyStream; MakeKeyStream (key_stream.h)
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

#include "sim/key_stream.h"

namespace innosim {

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

}  // namespace innosim

#endif  // INNOSIM_SIM_UUID_STREAMS_H_
