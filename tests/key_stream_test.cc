// Specification of the key streams (sim/key_stream.h, docs/key-streams.md).
#include "sim/key_stream.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tests/test_util.h"
#include "sim/uuid.h"
#include "sim/xoshiro256.h"

namespace innosim {
namespace {


std::unique_ptr<KeyStream> Make(const std::string& name, uint64_t seed = 1, uint64_t rows_per_ms = 482,
                                uint64_t start_ms = kStartMs) {
  return MakeStream(name, seed, rows_per_ms, start_ms);
}

std::vector<Key> Take(KeyStream& s, size_t n) {
  std::vector<Key> keys(n);
  for (size_t i = 0; i < n; ++i) {
    if (!s.Next(&keys[i])) {
      keys.resize(i);
      break;
    }
  }
  return keys;
}

std::vector<Key> TakeAll(KeyStream& s) {
  std::vector<Key> keys;
  Key k;
  while (s.Next(&k)) keys.push_back(k);
  return keys;
}

int Version(const Key& k) { return static_cast<int>((k.hi >> 12) & 0xF); }
int VariantBits(const Key& k) { return static_cast<int>(k.lo >> 62); }
uint64_t Ms(const Key& k) { return k.hi >> 16; }
uint64_t RandA(const Key& k) { return k.hi & 0x0FFF; }

// ---- Version and variant bits --------------------------------------------

class UuidStreamTest : public ::testing::TestWithParam<std::pair<std::string, int>> {};

TEST_P(UuidStreamTest, EveryKeyHasVersionAndVariant) {
  const auto& [name, version] = GetParam();
  for (uint64_t rows_per_ms : {uint64_t{482}, uint64_t{5000}}) {
    auto s = Make(name, 7, rows_per_ms);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->key_width(), 16);
    Key k;
    for (int i = 0; i < 100000; ++i) {
      ASSERT_TRUE(s->Next(&k));
      ASSERT_EQ(Version(k), version) << name << " key " << i << " " << FormatUuid(k);
      ASSERT_EQ(VariantBits(k), 2) << name << " key " << i << " " << FormatUuid(k);
      // The same bits seen through the byte layout.
      const auto b = k.Bytes();
      ASSERT_EQ(b[6] >> 4, version);
      ASSERT_EQ(b[8] & 0xC0, 0x80);
    }
    EXPECT_TRUE(s->status().ok());
  }
}

INSTANTIATE_TEST_SUITE_P(AllUuidStreams, UuidStreamTest,
                         ::testing::Values(std::pair<std::string, int>{"uuidv4", 4},
                                           std::pair<std::string, int>{"uuidv7-random", 7},
                                           std::pair<std::string, int>{"uuidv7-counter", 7},
                                           std::pair<std::string, int>{"uuidv7-subms", 7}),
                         [](const auto& info) {
                           std::string n = info.param.first;
                           for (char& c : n) {
                             if (c == '-') c = '_';
                           }
                           return n;
                         });

TEST(UuidV4StreamTest, RandomBitsAreNotConstant) {
  auto s = Make("uuidv4");
  uint64_t or_hi = 0, and_hi = ~uint64_t{0}, or_lo = 0, and_lo = ~uint64_t{0};
  for (const Key& k : Take(*s, 1000)) {
    or_hi |= k.hi;
    and_hi &= k.hi;
    or_lo |= k.lo;
    and_lo &= k.lo;
  }
  // Every one of the 122 random bits took both values; only the 6 fixed
  // bits are constant.
  EXPECT_EQ(or_hi ^ and_hi, ~uint64_t{0xF000});
  EXPECT_EQ(or_lo ^ and_lo, uint64_t{0x3FFFFFFFFFFFFFFF});
}

// ---- uuidv7-random ---------------------------------------------------------

TEST(UuidV7RandomStreamTest, MsFieldIsTheSyntheticClock) {
  for (uint64_t rows_per_ms : {uint64_t{1}, uint64_t{7}, uint64_t{482}, uint64_t{5000}}) {
    auto s = Make("uuidv7-random", 3, rows_per_ms);
    Key k;
    for (uint64_t i = 0; i < 100000; ++i) {
      ASSERT_TRUE(s->Next(&k));
      ASSERT_EQ(Ms(k), kStartMs + i / rows_per_ms) << "row " << i << " rows_per_ms " << rows_per_ms;
    }
  }
}

TEST(UuidV7RandomStreamTest, OrderWithinOneMsIsRandom) {
  auto s = Make("uuidv7-random", 3, 482);
  const std::vector<Key> keys = Take(*s, 482);
  int descents = 0;
  for (size_t i = 1; i < keys.size(); ++i) descents += keys[i] < keys[i - 1];
  EXPECT_GT(descents, 150);  // about half of 481 for random order
  EXPECT_LT(descents, 330);
}

// ---- uuidv7-counter --------------------------------------------------------

TEST(UuidV7CounterStreamTest, CounterCountsRowsWithinEachMs) {
  auto s = Make("uuidv7-counter", 5, 482);
  Key k, prev;
  for (uint64_t i = 0; i < 100000; ++i) {
    ASSERT_TRUE(s->Next(&k));
    ASSERT_EQ(Ms(k), kStartMs + i / 482) << "row " << i;
    ASSERT_EQ(RandA(k), i % 482) << "row " << i;  // 0 at each new ms
    if (i > 0) {
      ASSERT_LT(prev, k) << "row " << i;
    }
    prev = k;
  }
}

TEST(UuidV7CounterStreamTest, CarriesIntoTheNextMsAt4096) {
  auto s = Make("uuidv7-counter", 5, 5000);
  const std::vector<Key> keys = Take(*s, 100000);
  ASSERT_EQ(keys.size(), 100000u);
  // Rows 0..4095 fill ms 0 with counters 0..4095.
  EXPECT_EQ(Ms(keys[0]), kStartMs);
  EXPECT_EQ(RandA(keys[0]), 0u);
  EXPECT_EQ(Ms(keys[4095]), kStartMs);
  EXPECT_EQ(RandA(keys[4095]), 4095u);
  // Row 4096 would need counter 4096: it carries into ms 1, counter 0.
  EXPECT_EQ(Ms(keys[4096]), kStartMs + 1);
  EXPECT_EQ(RandA(keys[4096]), 0u);
  // Rows 4097..4999 still have clock ms 0, which is behind: they stay in ms 1.
  EXPECT_EQ(Ms(keys[4999]), kStartMs + 1);
  EXPECT_EQ(RandA(keys[4999]), 903u);
  // Row 5000 has clock ms 1 = the ms in use: the counter goes on.
  EXPECT_EQ(Ms(keys[5000]), kStartMs + 1);
  EXPECT_EQ(RandA(keys[5000]), 904u);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(Version(keys[i]), 7) << "row " << i;
    ASSERT_GE(Ms(keys[i]), kStartMs + i / 5000) << "row " << i;  // never behind the clock
    if (i > 0) {
      ASSERT_LT(keys[i - 1], keys[i]) << "row " << i;
      ASSERT_LE(Ms(keys[i]) - Ms(keys[i - 1]), 1u) << "row " << i;
    }
  }
}

TEST(UuidV7CounterStreamTest, CounterRestartsWhenTheClockOvertakes) {
  // With 4097 rows per ms, each ms carries exactly one row into the next
  // ms; the clock catches up at once, so counters restart at 0 every ms.
  auto s = Make("uuidv7-counter", 5, 4097);
  const std::vector<Key> keys = Take(*s, 3 * 4097);
  EXPECT_EQ(Ms(keys[4096]), kStartMs + 1);
  EXPECT_EQ(RandA(keys[4096]), 0u);
  EXPECT_EQ(Ms(keys[4097]), kStartMs + 1);
  EXPECT_EQ(RandA(keys[4097]), 1u);
  for (size_t i = 1; i < keys.size(); ++i) ASSERT_LT(keys[i - 1], keys[i]) << "row " << i;
}

// ---- uuidv7-subms ----------------------------------------------------------

// The synthetic clock in ns, split as (ms, ns within ms), computed directly.
std::pair<uint64_t, uint64_t> ClockNs(uint64_t i, uint64_t rows_per_ms) {
  return {kStartMs + i / rows_per_ms, (i % rows_per_ms) * 1000000 / rows_per_ms};
}

TEST(UuidV7SubmsStreamTest, TimeFieldIsTheClockToOneFourThousandNinetySixthMs) {
  // 482 rows/ms = one row every 2074.7 ns, far above the 245 ns minimum
  // step, so every key carries the clock's own time.
  auto s = Make("uuidv7-subms", 9, 482);
  Key k, prev;
  for (uint64_t i = 0; i < 100000; ++i) {
    ASSERT_TRUE(s->Next(&k));
    const auto [ms, ns] = ClockNs(i, 482);
    ASSERT_EQ(Ms(k), ms) << "row " << i;
    ASSERT_EQ(RandA(k), ns * 4096 / 1000000) << "row " << i;
    if (i > 0) {
      ASSERT_LT(prev, k) << "row " << i;
    }
    prev = k;
  }
}

TEST(UuidV7SubmsStreamTest, MinimumStepKeepsKeysIncreasingAboveFourThousandRowsPerMs) {
  // 5000 rows/ms = 200 ns apart, below PostgreSQL's 245 ns minimum step:
  // the timestamp runs ahead of the clock by 245 ns per key.
  auto s = Make("uuidv7-subms", 9, 5000);
  const std::vector<Key> keys = Take(*s, 100000);
  for (size_t i = 1; i < keys.size(); ++i) {
    ASSERT_LT(keys[i - 1], keys[i]) << "row " << i;
    // Time in 1/4096 ms: it advances 1 or 2 units per 245 ns step.
    const uint64_t t0 = Ms(keys[i - 1]) * 4096 + RandA(keys[i - 1]);
    const uint64_t t1 = Ms(keys[i]) * 4096 + RandA(keys[i]);
    ASSERT_GE(t1 - t0, 1u) << "row " << i;
    ASSERT_LE(t1 - t0, 2u) << "row " << i;
    ASSERT_GE(Ms(keys[i]), ClockNs(i, 5000).first) << "row " << i;
  }
  // Row i is at first + 245 * i ns exactly.
  const uint64_t ns_last = 245 * (keys.size() - 1);
  EXPECT_EQ(Ms(keys.back()), kStartMs + ns_last / 1000000);
  EXPECT_EQ(RandA(keys.back()), (ns_last % 1000000) * 4096 / 1000000);
}

TEST(UuidV7SubmsStreamTest, ManyRowsPerMsStillIncreasing) {
  auto s = Make("uuidv7-subms", 9, 1000000);
  const std::vector<Key> keys = Take(*s, 100000);
  for (size_t i = 1; i < keys.size(); ++i) ASSERT_LT(keys[i - 1], keys[i]) << "row " << i;
}

// ---- Determinism -----------------------------------------------------------

TEST(KeyStreamDeterminismTest, SameSeedSameKeysDifferentSeedDifferentKeys) {
  for (const char* name : {"uuidv4", "uuidv7-random", "uuidv7-counter", "uuidv7-subms"}) {
    auto a = Make(name, 42);
    auto b = Make(name, 42);
    auto c = Make(name, 43);
    auto d = Make(name, uint64_t{42} | (uint64_t{1} << 63));  // every seed bit counts
    const std::vector<Key> ka = Take(*a, 10000), kb = Take(*b, 10000), kc = Take(*c, 10000),
                           kd = Take(*d, 10000);
    EXPECT_EQ(ka, kb) << name;
    int same_c = 0, same_d = 0;
    for (size_t i = 0; i < ka.size(); ++i) {
      same_c += ka[i].lo == kc[i].lo;
      same_d += ka[i].lo == kd[i].lo;
    }
    EXPECT_EQ(same_c, 0) << name;
    EXPECT_EQ(same_d, 0) << name;
  }
}

TEST(KeyStreamDeterminismTest, RandomSourceMatchesReferenceImplementations) {
  // SplitMix64 from seed 1477776061723855037: the first outputs of Vigna's
  // splitmix64.c, as published in rand_xoshiro's test `reference`
  // (rust-random/rngs, rand_xoshiro/src/splitmix64.rs).
  SplitMix64 sm(1477776061723855037ULL);
  for (uint64_t expected : {1985237415132408290ULL, 2979275885539914483ULL,
                            13511426838097143398ULL, 8488337342461049707ULL,
                            15141737807933549159ULL}) {
    EXPECT_EQ(sm(), expected);
  }
  // xoshiro256** from state {1, 2, 3, 4}: the reference xoshiro256starstar.c
  // outputs published in rand_xoshiro's xoshiro256starstar.rs.
  Xoshiro256StarStar x(1, 2, 3, 4);
  for (uint64_t expected :
       {11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL, 1216172134540287360ULL,
        607988272756665600ULL, 16172922978634559625ULL, 8476171486693032832ULL,
        10595114339597558777ULL, 2904607092377533576ULL}) {
    EXPECT_EQ(x(), expected);
  }
}

TEST(KeyStreamDeterminismTest, DocumentedWordToByteMapping) {
  // docs/key-streams.md: uuidv4 takes word 1 for bytes 0..7 and word 2 for
  // bytes 8..15, big-endian, then sets the version and variant bits.
  const uint64_t seed = 0x0123456789abcdefULL;
  Xoshiro256StarStar rng(seed);
  auto s = Make("uuidv4", seed);
  for (int i = 0; i < 100; ++i) {
    const uint64_t w1 = rng(), w2 = rng();
    Key k;
    ASSERT_TRUE(s->Next(&k));
    ASSERT_EQ(k.hi, (w1 & ~uint64_t{0xF000}) | 0x4000);
    ASSERT_EQ(k.lo, (w2 & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL);
  }
  // uuidv7-random: rand_a = top 12 bits of word 1, bytes 8..15 = word 2.
  Xoshiro256StarStar rng7(seed);
  auto s7 = Make("uuidv7-random", seed);
  for (int i = 0; i < 100; ++i) {
    const uint64_t w1 = rng7(), w2 = rng7();
    Key k;
    ASSERT_TRUE(s7->Next(&k));
    ASSERT_EQ(RandA(k), w1 >> 52);
    ASSERT_EQ(k.lo, (w2 & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL);
  }
}

TEST(KeyStreamDeterminismTest, GoldenKeys) {
  // Pinned outputs: these must not change across platforms or releases
  // (a change would silently change every published result).
  EXPECT_EQ(FormatUuid(Take(*Make("uuidv4", 1), 1)[0]), "b3f2af6d-0fc7-40c5-853b-559647364cea");
  EXPECT_EQ(FormatUuid(Take(*Make("uuidv7-random", 1), 1)[0]),
            "019b76da-a800-7b3f-853b-559647364cea");
  EXPECT_EQ(FormatUuid(Take(*Make("uuidv7-counter", 1), 2)[1]),
            "019b76da-a800-7001-853b-559647364cea");
  EXPECT_EQ(FormatUuid(Take(*Make("uuidv7-subms", 1), 2)[1]),
            "019b76da-a800-7008-853b-559647364cea");
}

// ---- autoinc ---------------------------------------------------------------

TEST(AutoIncStreamTest, OneTwoThree) {
  auto s = Make("autoinc");
  EXPECT_EQ(s->key_width(), 8);
  const std::vector<Key> keys = Take(*s, 100000);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(keys[i], Key::FromU64(i + 1));
    ASSERT_EQ(keys[i].lo, 0u);
  }
  EXPECT_EQ(FormatKey(keys[41], 8), "42");
  EXPECT_EQ(KeyBytes(keys[0], 8), std::string("\0\0\0\0\0\0\0\1", 8));
}

// ---- Spec errors -----------------------------------------------------------

TEST(MakeKeyStreamTest, UnknownNameListsValidNames) {
  StreamSpec spec;
  spec.name = "uuidv9";
  auto s = MakeKeyStream(spec);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(s.status().message());
  EXPECT_NE(msg.find("'uuidv9'"), std::string::npos) << msg;
  for (const char* n : {"uuidv4", "uuidv7-random", "uuidv7-counter", "uuidv7-subms", "autoinc",
                        "file:PATH", "file8:PATH", "file16:PATH"}) {
    EXPECT_NE(msg.find(n), std::string::npos) << msg;
  }
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

TEST(MakeKeyStreamTest, ZeroRowsPerMsIsRejectedForUuidV7) {
  for (const char* name : {"uuidv7-random", "uuidv7-counter", "uuidv7-subms"}) {
    StreamSpec spec;
    spec.name = name;
    spec.rows_per_ms = 0;
    auto s = MakeKeyStream(spec);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.status().message().find("rows_per_ms"), absl::string_view::npos);
  }
  // Streams without a clock do not care.
  for (const char* name : {"uuidv4", "autoinc"}) {
    StreamSpec spec;
    spec.name = name;
    spec.rows_per_ms = 0;
    EXPECT_TRUE(MakeKeyStream(spec).ok()) << name;
  }
}

TEST(MakeKeyStreamTest, StartMsMustFit48Bits) {
  StreamSpec spec;
  spec.name = "uuidv7-counter";
  spec.start_ms = uint64_t{1} << 48;
  EXPECT_EQ(MakeKeyStream(spec).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MakeKeyStreamTest, KnownNames) {
  for (const char* n : {"uuidv4", "uuidv7-random", "uuidv7-counter", "uuidv7-subms", "autoinc",
                        "file:/x", "file16:/x", "file8:/x", "file4:/x", "file1:-", "file:-"}) {
    EXPECT_TRUE(IsKnownStreamName(n)) << n;
  }
  // fileN: with N out of 1..32 is a file stream whose width MakeKeyStream
  // refuses by name (KeyFileStreamTest.WidthOutOfRange), not an unknown one.
  EXPECT_TRUE(IsKnownStreamName("file33:/x"));
  for (const char* n : {"", "uuid", "UUIDV4", "file", "files:/x", "file1234:/x", "file4/x"}) {
    EXPECT_FALSE(IsKnownStreamName(n)) << n;
  }
}

// ---- Text form -------------------------------------------------------------

TEST(UuidTextTest, FormatAndParse) {
  Key k{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  EXPECT_EQ(FormatUuid(k), "01234567-89ab-cdef-fedc-ba9876543210");
  Key p;
  ASSERT_TRUE(ParseUuid("01234567-89AB-cdef-FEDC-ba9876543210", &p));
  EXPECT_EQ(p, k);
  ASSERT_TRUE(ParseUuid("0123456789abcdeffedcba9876543210", &p));
  EXPECT_EQ(p, k);
  for (const char* bad : {"", "01234567-89ab-cdef-fedc-ba987654321",
                          "01234567-89ab-cdef-fedc-ba98765432100", "0123456789ab-cdef-fedc-ba9876543210-",
                          "01234567-89ab-cdef-fedc-ba987654321g", "{01234567-89ab-cdef-fedc-ba98765432}",
                          "0123456789abcdeffedcba987654321", " 0123456789abcdeffedcba987654321"}) {
    EXPECT_FALSE(ParseUuid(bad, &p)) << bad;
  }
  const std::string raw = KeyBytes(k, 16);
  ASSERT_EQ(raw.size(), 16u);
  EXPECT_EQ(static_cast<uint8_t>(raw[0]), 0x01);
  EXPECT_EQ(static_cast<uint8_t>(raw[15]), 0x10);
  EXPECT_EQ(Key::FromBytes(reinterpret_cast<const uint8_t*>(raw.data()), 16), k);
}

// ---- File streams ----------------------------------------------------------

class KeyFileStreamTest : public ::testing::Test {
 protected:
  std::string PathFor(const std::string& name) {
    const std::string dir = ::testing::TempDir();
    std::string p = dir + (dir.empty() || dir.back() == '/' ? "" : "/") + "innosim_ks_" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
    paths_.push_back(p);
    return p;
  }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string p = PathFor(name);
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  absl::StatusOr<std::unique_ptr<KeyStream>> Open(const std::string& spec_name) {
    StreamSpec spec;
    spec.name = spec_name;
    return MakeKeyStream(spec);
  }
  void TearDown() override {
    for (const std::string& p : paths_) std::remove(p.c_str());
  }
  std::vector<std::string> paths_;
};

TEST_F(KeyFileStreamTest, TextRoundTrip) {
  const std::vector<Key> keys = Take(*Make("uuidv4", 11), 1000);
  std::string text = "\xEF\xBB\xBF";  // a UTF-8 BOM is skipped
  for (size_t i = 0; i < keys.size(); ++i) {
    std::string u = FormatUuid(keys[i]);
    if (i % 3 == 1) {
      for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (i % 5 == 2) u.erase(std::remove(u.begin(), u.end(), '-'), u.end());  // 32-hex form
    if (i % 7 == 3) u = "  " + u + "\t";
    text += u + (i % 2 ? "\r\n" : "\n");
    if (i % 11 == 0) text += "\n  \r\n";  // blank lines
  }
  text.resize(text.size() - 1);  // last line without its "\n"
  const std::string path = Write("keys.txt", text);
  auto s = Open("file:" + path);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->key_width(), 16);
  EXPECT_EQ(TakeAll(**s), keys);
  EXPECT_TRUE((*s)->status().ok()) << (*s)->status();
}

TEST_F(KeyFileStreamTest, LargeTextFileIsReadAcrossChunks) {
  const std::vector<Key> keys = Take(*Make("uuidv7-counter", 11), 100000);  // 3.7 MB
  std::string text;
  for (const Key& k : keys) text += FormatUuid(k) + "\n";
  const std::string path = Write("big.txt", text);
  auto s = Open("file:" + path);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(TakeAll(**s), keys);
  EXPECT_TRUE((*s)->status().ok());
}

TEST_F(KeyFileStreamTest, MalformedLineStopsTheStreamAndNamesTheLine) {
  const std::string path = Write("bad.txt",
                                 "01234567-89ab-cdef-fedc-ba9876543210\n"
                                 "\n"
                                 "11234567-89ab-cdef-fedc-ba9876543210\r\n"
                                 "21234567-89ab-cdef-fedc-ba98765432zz\n"
                                 "31234567-89ab-cdef-fedc-ba9876543210\n");
  auto s = Open("file:" + path);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(TakeAll(**s).size(), 2u);
  const absl::Status st = (*s)->status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(st.message()),
            path + ":4: malformed UUID '21234567-89ab-cdef-fedc-ba98765432zz': expected "
                   "8-4-4-4-12 hex digits");
  Key k;
  EXPECT_FALSE((*s)->Next(&k));  // stays stopped
}

TEST_F(KeyFileStreamTest, MalformedLongLineIsQuotedShort) {
  const std::string path =
      Write("long.txt", "01234567-89ab-cdef-fedc-ba9876543210\n" + std::string(5000, 'a') + "\n");
  auto s = Open("file:" + path);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(TakeAll(**s).size(), 1u);
  const std::string msg((*s)->status().message());
  EXPECT_NE(msg.find(path + ":2: malformed UUID 'aaaa"), std::string::npos) << msg;
  EXPECT_LT(msg.size(), path.size() + 150) << msg;
}

TEST_F(KeyFileStreamTest, TextWithOnlyBlankLinesReportsNoUuids) {
  const std::string path = Write("blank.txt", "\n\r\n  \n");
  auto s = Open("file:" + path);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(TakeAll(**s).empty());
  EXPECT_EQ((*s)->status().code(), absl::StatusCode::kInvalidArgument);
}

std::string BinaryOf(const std::vector<Key>& keys, int width) {
  std::string bytes;
  for (const Key& k : keys) bytes += KeyBytes(k, width);
  return bytes;
}

TEST_F(KeyFileStreamTest, Binary16RoundTripAcrossChunks) {
  const std::vector<Key> keys = Take(*Make("uuidv4", 12), 100000);  // 1.6 MB
  const std::string path = Write("keys.bin", BinaryOf(keys, 16));
  for (const std::string prefix : {"file:", "file16:"}) {
    auto s = Open(prefix + path);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)->key_width(), 16);
    EXPECT_EQ(TakeAll(**s), keys) << prefix;
    EXPECT_TRUE((*s)->status().ok()) << (*s)->status();
  }
}

TEST_F(KeyFileStreamTest, Binary8RoundTrip) {
  std::vector<Key> keys = Take(*Make("autoinc"), 200000);  // 1.6 MB
  keys[7] = Key::FromU64(0xFFFFFFFFFFFFFFFFULL);
  const std::string path = Write("keys8.bin", BinaryOf(keys, 8));
  auto s = Open("file8:" + path);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->key_width(), 8);
  EXPECT_EQ(TakeAll(**s), keys);
  EXPECT_TRUE((*s)->status().ok());
}

TEST_F(KeyFileStreamTest, PrintableBinaryNeedsAnExplicitWidth) {
  // 16 bytes that happen to be printable look like text to file:, which
  // then rejects them as a malformed line; file16: reads them as a key.
  const std::string path = Write("printable.bin", "0123456789abcdef");
  auto a = Open("file:" + path);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(TakeAll(**a).empty());
  EXPECT_NE((*a)->status().message().find(":1: malformed UUID"), absl::string_view::npos);
  auto b = Open("file16:" + path);
  ASSERT_TRUE(b.ok());
  const std::vector<Key> keys = TakeAll(**b);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].hi, 0x3031323334353637ULL);
}

TEST_F(KeyFileStreamTest, BadSizesSayHowToMendThem) {
  const std::string b20 = Write("b20.bin", std::string(20, '\0'));
  const std::string b24 = Write("b24.bin", std::string(24, '\0'));
  const std::string b12 = Write("b12.bin", std::string(12, '\0'));
  const std::string empty = Write("empty.bin", "");
  struct Case {
    std::string spec;
    std::string must_contain;
  };
  for (const Case& c : std::vector<Case>{
           {"file:" + b20, "not a multiple of 16"},
           {"file16:" + b20, "not a multiple of 16"},
           {"file:" + b24, "use file8:" + b24},
           {"file16:" + b24, "use file8:" + b24},
           {"file8:" + b12, "not a multiple of 8"},
           {"file:" + empty, "is empty"},
           {"file8:" + empty, "is empty"},
       }) {
    auto s = Open(c.spec);
    ASSERT_FALSE(s.ok()) << c.spec;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << c.spec;
    const std::string msg(s.status().message());
    EXPECT_NE(msg.find(c.must_contain), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  auto ok = Open("file8:" + b24);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(TakeAll(**ok).size(), 3u);
}

TEST_F(KeyFileStreamTest, AnyWidthFromOneToThirtyTwo) {
  // N-byte records, left-aligned in the key: their order is the bytes'.
  // Past 16 bytes the records fill the key's tail (model/key.h).
  std::mt19937_64 rng(11);
  for (int width : {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 20, 32}) {
    SCOPED_TRACE(width);
    std::vector<Key> keys = Take(*Make("uuidv4", 40 + width), 3000);
    std::string bytes;
    for (Key& k : keys) {
      k.tail_hi = rng();
      k.tail_lo = rng();
      bytes += KeyBytes(k, width);
      k = Key::FromBytes(reinterpret_cast<const uint8_t*>(bytes.data() + bytes.size() - width), width);
    }
    const std::string path = Write(absl::StrCat("w", width, ".bin"), bytes);
    auto s = Open(absl::StrCat("file", width, ":", path));
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)->key_width(), width);
    EXPECT_EQ(StreamKeyWidth(absl::StrCat("file", width, ":", path)), width);
    const std::vector<Key> got = TakeAll(**s);
    EXPECT_EQ(got, keys);
    EXPECT_TRUE((*s)->status().ok()) << (*s)->status();
    for (size_t i = 1; i < got.size(); ++i) {
      ASSERT_EQ(got[i - 1] < got[i], bytes.compare((i - 1) * width, width, bytes, i * width, width) < 0);
    }
  }
}

TEST_F(KeyFileStreamTest, WidthOutOfRangeAndShortLastRecord) {
  const std::string b10 = Write("b10.bin", std::string(10, '\1'));
  for (const char* w : {"file0:", "file33:", "file99:"}) {
    auto s = Open(w + b10);
    ASSERT_FALSE(s.ok()) << w;
    EXPECT_NE(s.status().message().find("is out of range; use file1: to file32:"), absl::string_view::npos)
        << s.status();
  }
  auto s = Open("file4:" + b10);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("10 bytes, not a multiple of 4 (file4: reads 4-byte"), absl::string_view::npos)
      << s.status();
  auto ok = Open("file5:" + b10);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(TakeAll(**ok).size(), 2u);
}

// Reads `spec` (a "-" stream) with standard input taken from `path`.
absl::StatusOr<std::vector<Key>> ReadFromStdin(const std::string& spec_name, const std::string& path,
                                               absl::Status* end_status) {
  const int saved = dup(STDIN_FILENO);
  const int fd = open(path.c_str(), O_RDONLY);
  dup2(fd, STDIN_FILENO);
  close(fd);
  StreamSpec spec;
  spec.name = spec_name;
  absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
  std::vector<Key> keys;
  if (s.ok()) {
    keys = TakeAll(**s);
    *end_status = (*s)->status();
  }
  dup2(saved, STDIN_FILENO);
  close(saved);
  if (!s.ok()) return s.status();
  return keys;
}

TEST_F(KeyFileStreamTest, StandardInput) {
  const std::vector<Key> uuids = Take(*Make("uuidv7-counter", 3), 70000);  // > 1 MiB binary
  std::string text;
  for (const Key& k : uuids) text += FormatUuid(k) + "\n";
  absl::Status end;
  absl::StatusOr<std::vector<Key>> got = ReadFromStdin("file:-", Write("t.txt", text), &end);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, uuids);
  EXPECT_TRUE(end.ok()) << end;
  got = ReadFromStdin("file:-", Write("b.bin", BinaryOf(uuids, 16)), &end);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, uuids);
  std::string ints;
  for (uint32_t v = 1; v <= 5; ++v) ints += std::string{0, 0, 0, static_cast<char>(v)};
  got = ReadFromStdin("file4:-", Write("i.bin", ints), &end);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 5u);
  EXPECT_EQ((*got)[4].hi, uint64_t{5} << 32);
  // A short last record is found at the end of the input.
  got = ReadFromStdin("file4:-", Write("short.bin", ints + "\1\2"), &end);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), 5u);
  EXPECT_NE(end.message().find("standard input: the last record is 2 bytes, not 4 (file4: reads 4-byte"),
            absl::string_view::npos)
      << end;
  got = ReadFromStdin("file8:-", Write("empty.bin", ""), &end);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("standard input is empty"), absl::string_view::npos) << got.status();
}

TEST_F(KeyFileStreamTest, MissingFileAndDirectory) {
  const std::string missing = PathFor("does_not_exist");
  auto s = Open("file:" + missing);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find(missing), absl::string_view::npos) << s.status();
  auto d = Open("file:" + ::testing::TempDir());
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("directory"), absl::string_view::npos) << d.status();
  auto e = Open("file:");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("no path"), absl::string_view::npos) << e.status();
}

}  // namespace
}  // namespace innosim
