// Specification of the time-based generators: uuidv1, uuidv1-swap, uuidv6, ulid,
// ulid-monotonic and snowflake (sim/uuid_streams.h, docs/key-streams.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tests/test_util.h"
#include "sim/key_stream.h"
#include "sim/uuid_streams.h"

namespace innosim {
namespace {

// 100-ns ticks from 1582-10-15 to 1970-01-01.
constexpr uint64_t kUuidOffset = 122192928000000000ULL;

std::unique_ptr<KeyStream> Make(const std::string& name, uint64_t seed = 1, uint64_t rows_per_ms = 482,
                                uint64_t start_ms = kStartMs) {
  return MakeStream(name, seed, rows_per_ms, start_ms);
}

std::vector<Key> Take(const std::string& name, size_t n, uint64_t seed = 1, uint64_t rows_per_ms = 482,
                      uint64_t start_ms = kStartMs) {
  std::unique_ptr<KeyStream> s = Make(name, seed, rows_per_ms, start_ms);
  std::vector<Key> keys(n);
  for (Key& k : keys) EXPECT_TRUE(s->Next(&k));
  return keys;
}

int VariantBits(const Key& k) { return static_cast<int>(k.lo >> 62); }

// The 60-bit timestamp of each layout, read back from its fields.
uint64_t V1Timestamp(const Key& k) {
  const uint64_t time_low = k.hi >> 32, time_mid = (k.hi >> 16) & 0xFFFF, time_high = k.hi & 0x0FFF;
  return (time_high << 48) | (time_mid << 32) | time_low;
}
uint64_t V1SwapTimestamp(const Key& k) {
  const uint64_t time_high = (k.hi >> 48) & 0x0FFF, time_mid = (k.hi >> 32) & 0xFFFF, time_low = k.hi & 0xFFFF'FFFF;
  return (time_high << 48) | (time_mid << 32) | time_low;
}
uint64_t V6Timestamp(const Key& k) { return ((k.hi >> 16) << 12) | (k.hi & 0x0FFF); }

// Ticks of row i at a rate that gives every row its own 100-ns tick.
uint64_t TicksAt(uint64_t ms, uint64_t ns_in_ms) { return ms * 10000 + ns_in_ms / 100 + kUuidOffset; }

bool StrictlyAscending(const std::vector<Key>& keys, size_t* where = nullptr) {
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!(keys[i - 1] < keys[i])) {
      if (where) *where = i;
      return false;
    }
  }
  return true;
}

// ---- Version and variant bits ---------------------------------------------

TEST(UuidV1FamilyTest, VersionAndVariantBits) {
  for (const Key& k : Take("uuidv1", 10000)) {
    ASSERT_EQ((k.hi >> 12) & 0xF, 1u);  // byte 6's high nibble
    ASSERT_EQ(VariantBits(k), 2);
  }
  for (const Key& k : Take("uuidv1-swap", 10000)) {
    ASSERT_EQ(k.hi >> 60, 1u);  // the version moved with time_high to byte 0
    ASSERT_EQ(VariantBits(k), 2);
  }
  for (const Key& k : Take("uuidv6", 10000)) {
    ASSERT_EQ((k.hi >> 12) & 0xF, 6u);
    ASSERT_EQ(VariantBits(k), 2);
  }
}

TEST(UuidV1FamilyTest, TimestampIsTicksSince1582AndTheSameInEveryLayout) {
  const std::vector<Key> v1 = Take("uuidv1", 2000, 7);
  const std::vector<Key> swap = Take("uuidv1-swap", 2000, 7);
  const std::vector<Key> v6 = Take("uuidv6", 2000, 7);
  for (size_t i = 0; i < v1.size(); ++i) {
    // 482 rows/ms: row i is at floor(i * 10^6 / 482) ns after start_ms.
    const uint64_t ns = i * 1'000'000 / 482;
    const uint64_t expect = TicksAt(kStartMs + ns / 1'000'000, ns % 1'000'000);
    ASSERT_EQ(V1Timestamp(v1[i]), expect) << i;
    ASSERT_EQ(V1SwapTimestamp(swap[i]), expect) << i;
    ASSERT_EQ(V6Timestamp(v6[i]), expect) << i;
    // clock_seq and node are the writer's: the same in every key.
    ASSERT_EQ(v1[i].lo, v1[0].lo);
    ASSERT_EQ(swap[i].lo, v1[0].lo);
    ASSERT_EQ(v6[i].lo, v1[0].lo);
  }
  // The node is not a MAC address: its multicast bit (byte 10's lowest) is set.
  EXPECT_EQ((v1[0].lo >> 40) & 1, 1u);
}

TEST(UuidV1FamilyTest, V1TimeLowComesFirst) {
  // One row per ms: keys 1 ms apart differ by 10,000 ticks in bytes 0..3.
  const std::vector<Key> v1 = Take("uuidv1", 3, 1, 1);
  for (int i = 1; i < 3; ++i) {
    const uint32_t a = static_cast<uint32_t>(v1[i - 1].hi >> 32), b = static_cast<uint32_t>(v1[i].hi >> 32);
    EXPECT_NE(a, b);
    EXPECT_EQ(static_cast<uint32_t>(b - a), 10000u);
  }
  // The swap keeps time_low last: the first 4 bytes are time_high and
  // time_mid, which 1 ms does not change here.
  const std::vector<Key> swap = Take("uuidv1-swap", 2, 1, 1);
  if ((V1SwapTimestamp(swap[0]) >> 32) == (V1SwapTimestamp(swap[1]) >> 32)) {
    EXPECT_EQ(swap[0].hi >> 32, swap[1].hi >> 32);
  }
}

TEST(UuidV1FamilyTest, TimeLowWrapsEvery2To32TicksAndOnlyPlainV1Falls) {
  // 1 row/ms for 1M rows = 1000 s, so time_low (429.4967296 s) wraps twice
  // or three times.
  const size_t n = 1'000'000;
  const std::vector<Key> v1 = Take("uuidv1", n, 3, 1);
  const std::vector<Key> swap = Take("uuidv1-swap", n, 3, 1);
  const std::vector<Key> v6 = Take("uuidv6", n, 3, 1);
  const uint64_t wraps = (V1Timestamp(v1.back()) >> 32) - (V1Timestamp(v1.front()) >> 32);
  ASSERT_GE(wraps, 2u);
  uint64_t falls = 0;
  for (size_t i = 1; i < n; ++i) falls += v1[i] < v1[i - 1];
  EXPECT_EQ(falls, wraps);
  size_t where = 0;
  EXPECT_TRUE(StrictlyAscending(swap, &where)) << where;
  EXPECT_TRUE(StrictlyAscending(v6, &where)) << where;
}

TEST(UuidV1FamilyTest, RowsOnTheSameTickBorrowATickAsMySqlDoes) {
  // 20,000 rows/ms = two rows per 100-ns tick: each row's timestamp is one
  // tick above the previous one (MySQL's nanoseq), so the stamped time runs
  // ahead of the clock instead of repeating a UUID.
  const std::vector<Key> v1 = Take("uuidv1", 100000, 1, 20000);
  for (size_t i = 0; i < v1.size(); ++i) {
    ASSERT_EQ(V1Timestamp(v1[i]), TicksAt(kStartMs, 0) + i) << i;
  }
  // At exactly one row per tick, every row has its own tick and borrows none.
  const std::vector<Key> exact = Take("uuidv1-swap", 30000, 1, 10000);
  for (size_t i = 0; i < exact.size(); ++i) ASSERT_EQ(V1SwapTimestamp(exact[i]), TicksAt(kStartMs, 0) + i);
  // At 15,000 rows/ms the readings repeat every third row and the borrowed
  // tick cannot be given back while the rate holds.
  const std::vector<Key> v6 = Take("uuidv6", 30000, 1, 15000);
  size_t where = 0;
  EXPECT_TRUE(StrictlyAscending(v6, &where)) << where;
}

// ---- ULID -------------------------------------------------------------------

TEST(UlidTest, MsThenEightyRandomBits) {
  const std::vector<Key> keys = Take("ulid", 5000);
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(keys[i].hi >> 16, kStartMs + i / 482) << i;
  // The 80 random bits are not constant (no version or variant field).
  std::set<uint64_t> top;
  for (const Key& k : keys) top.insert(k.hi & 0xFFFF);
  EXPECT_GT(top.size(), 4000u);
}

TEST(UlidTest, PlainUlidIsNotMonotonicWithinAMs) {
  const std::vector<Key> keys = Take("ulid", 482 * 10);
  int falls = 0;
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] < keys[i - 1]) {
      ++falls;
      EXPECT_EQ(keys[i].hi >> 16, keys[i - 1].hi >> 16);  // only within a ms
    }
  }
  EXPECT_GT(falls, 482 * 10 / 4);
}

TEST(UlidTest, MonotonicUlidAddsOneWithinAMs) {
  const std::vector<Key> keys = Take("ulid-monotonic", 482 * 100);
  size_t where = 0;
  ASSERT_TRUE(StrictlyAscending(keys, &where)) << where;
  int fresh = 0;
  for (size_t i = 1; i < keys.size(); ++i) {
    const uint64_t ms = keys[i].hi >> 16;
    ASSERT_EQ(ms, kStartMs + i / 482);
    // The 80-bit random part as (16 high, 64 low) bits.
    const uint64_t hi16 = keys[i].hi & 0xFFFF, prev_hi16 = keys[i - 1].hi & 0xFFFF;
    if (ms == keys[i - 1].hi >> 16) {
      const bool carry = keys[i - 1].lo == ~uint64_t{0};
      ASSERT_EQ(keys[i].lo, keys[i - 1].lo + 1) << i;
      ASSERT_EQ(hi16, prev_hi16 + (carry ? 1 : 0)) << i;
    } else {
      fresh += keys[i].lo != keys[i - 1].lo + 1;  // a new ms draws new bits
    }
  }
  EXPECT_EQ(fresh, 99);
}

// ---- Snowflake ----------------------------------------------------------------

TEST(SnowflakeTest, TwitterLayoutInABigint) {
  std::unique_ptr<KeyStream> s = Make("snowflake", 5);
  EXPECT_EQ(s->key_width(), 8);
  std::vector<Key> keys = Take("snowflake", 5000, 5);
  const uint64_t machine = (keys[0].hi >> 12) & 0x3FF;
  for (size_t i = 0; i < keys.size(); ++i) {
    const uint64_t id = keys[i].hi;
    ASSERT_EQ(keys[i].lo, 0u);
    ASSERT_EQ(id >> 63, 0u);                                // sign bit
    ASSERT_EQ(id >> 22, kStartMs + i / 482 - 1288834974657);  // ms since Twitter's epoch
    ASSERT_EQ((id >> 12) & 0x3FF, machine);                 // fixed per writer
    ASSERT_EQ(id & 0xFFF, i % 482);                         // sequence restarts each ms
  }
  // The machine id comes from the seed.
  std::set<uint64_t> machines;
  for (uint64_t seed = 1; seed <= 20; ++seed) machines.insert((Take("snowflake", 1, seed)[0].hi >> 12) & 0x3FF);
  EXPECT_GT(machines.size(), 10u);
}

TEST(SnowflakeTest, FullMsWaitsForTheNextOne) {
  // 5000 rows/ms: rows 0..4095 fill ms 0; row 4096 takes ms 1 with sequence
  // 0, and the rest of ms 0's rows continue there.
  const std::vector<Key> keys = Take("snowflake", 20000, 1, 5000);
  size_t where = 0;
  ASSERT_TRUE(StrictlyAscending(keys, &where)) << where;
  const uint64_t ms0 = keys[0].hi >> 22;
  EXPECT_EQ(keys[4095].hi >> 22, ms0);
  EXPECT_EQ(keys[4095].hi & 0xFFF, 4095u);
  EXPECT_EQ(keys[4096].hi >> 22, ms0 + 1);
  EXPECT_EQ(keys[4096].hi & 0xFFF, 0u);
  EXPECT_EQ(keys[5000].hi >> 22, ms0 + 1);  // clock ms 1, already in use
  EXPECT_EQ(keys[5000].hi & 0xFFF, 904u);
}

// ---- Every new stream ------------------------------------------------------------

const char* const kNewStreams[] = {"uuidv1", "uuidv1-swap", "uuidv6", "ulid", "ulid-monotonic", "snowflake"};

TEST(NewStreamsTest, DeterministicFromTheSeed) {
  for (const char* name : kNewStreams) {
    const std::vector<Key> a = Take(name, 1000, 11), b = Take(name, 1000, 11), c = Take(name, 1000, 12);
    EXPECT_EQ(a, b) << name;
    EXPECT_NE(a, c) << name;
  }
}

TEST(NewStreamsTest, UniqueOverAMillionKeys) {
  // 20,000 rows/ms puts two rows on each 100-ns tick and 20,000 in a ms.
  for (uint64_t rate : {482, 20000}) {
    for (const char* name : kNewStreams) {
      std::vector<Key> keys = Take(name, 1'000'000, 1, rate);
      std::sort(keys.begin(), keys.end());
      EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end()) << name << " " << rate;
    }
  }
}

TEST(NewStreamsTest, OrderedOnesAscendForOneWriter) {
  for (const char* name : {"uuidv1-swap", "uuidv6", "ulid-monotonic", "snowflake"}) {
    for (uint64_t rate : {1, 482, 5000}) {
      size_t where = 0;
      EXPECT_TRUE(StrictlyAscending(Take(name, 200000, 1, rate), &where)) << name << " " << rate << " " << where;
    }
  }
}

TEST(NewStreamsTest, NamesWidthsAndSpecErrors) {
  for (const char* name : kNewStreams) {
    EXPECT_TRUE(IsKnownStreamName(name)) << name;
    EXPECT_NE(ValidStreamNames().find(name), std::string::npos) << name;
    StreamSpec spec;
    spec.name = name;
    spec.rows_per_ms = 0;
    absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_NE(s.status().message().find("rows_per_ms"), std::string::npos);
    const int width = std::string(name) == "snowflake" ? 8 : 16;
    EXPECT_EQ(StreamKeyWidth(name), width) << name;
    EXPECT_EQ(Make(name)->key_width(), width) << name;
  }
  EXPECT_EQ(StreamKeyWidth("autoinc"), 8);
  EXPECT_EQ(StreamKeyWidth("file8:/x"), 8);
  EXPECT_EQ(StreamKeyWidth("file:/x"), 16);
  StreamSpec early;
  early.name = "snowflake";
  early.start_ms = 1288834974656;  // 1 ms before Twitter's epoch
  absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(early);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("epoch"), std::string::npos);
  StreamSpec late;
  late.name = "uuidv1";
  late.start_ms = kUuidV1MaxStartMs + 1;
  EXPECT_EQ(MakeKeyStream(late).status().code(), absl::StatusCode::kInvalidArgument);
  late.start_ms = kUuidV1MaxStartMs;
  EXPECT_TRUE(MakeKeyStream(late).ok());
}

}  // namespace
}  // namespace innosim
