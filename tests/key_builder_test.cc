// KeyBuilder (sim/entry_encoder.h) against what it stands for: the same
// fields written into a byte buffer left to right (PutBigEndian, memcpy,
// zero padding) and read by Key::FromBytes, which keeps the first 32 bytes.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "model/key.h"
#include "sim/entry_encoder.h"

namespace innosim {
namespace {

Key RandomKey(std::mt19937_64& rng) {
  Key k;
  k.hi = rng();
  k.lo = rng();
  k.tail_hi = rng();
  k.tail_lo = rng();
  return k;
}

// One random sequence of fields through both paths.
void CheckSequence(std::mt19937_64& rng) {
  KeyBuilder b;
  std::vector<uint8_t> buf(256, 0);
  uint32_t n = 0;
  const int fields = static_cast<int>(rng() % 9);
  for (int f = 0; f < fields; ++f) {
    switch (rng() % 4) {
      case 0: {  // an integer of 0-8 bytes (its higher bits ignored)
        const uint64_t v = rng();
        const uint32_t width = static_cast<uint32_t>(rng() % 9);
        b.Put(v, width);
        PutBigEndian(v, width, buf.data() + n);
        n += width;
        break;
      }
      case 1: {  // bytes as they lie in memory
        const uint32_t width = static_cast<uint32_t>(rng() % 40);
        uint8_t bytes[40];
        for (uint32_t i = 0; i < width; ++i) bytes[i] = static_cast<uint8_t>(rng());
        b.PutBytes(bytes, width);
        std::memcpy(buf.data() + n, bytes, width);
        n += width;
        break;
      }
      case 2: {  // the leading bytes of a key
        const Key k = RandomKey(rng);
        const uint32_t width = static_cast<uint32_t>(rng() % (Key::kMaxBytes + 1));
        b.PutKey(k, width);
        k.ToBytes(buf.data() + n, width);
        n += width;
        break;
      }
      default: {  // zero padding
        const uint32_t to = n + static_cast<uint32_t>(rng() % 12);
        b.PadTo(to);
        n = to;
        break;
      }
    }
    ASSERT_EQ(b.size(), n);
  }
  const Key want = Key::FromBytes(buf.data(), n < Key::kMaxBytes ? n : Key::kMaxBytes);
  const Key got = b.Build();
  EXPECT_EQ(got.hi, want.hi);
  EXPECT_EQ(got.lo, want.lo);
  EXPECT_EQ(got.tail_hi, want.tail_hi);
  EXPECT_EQ(got.tail_lo, want.tail_lo);
}

TEST(KeyBuilderTest, EqualsTheByteBufferReadByFromBytes) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    CheckSequence(rng);
    if (HasFatalFailure() || HasNonfatalFailure()) {
      ADD_FAILURE() << "sequence " << i;
      return;
    }
  }
}

TEST(KeyBuilderTest, SeedFourEntryShape) {
  // DATETIME(3) (5 + 2 bytes) then a BINARY(16) primary key: 23 bytes.
  const Key pk = Key::FromBytes(reinterpret_cast<const uint8_t*>("0123456789abcdef"), 16);
  KeyBuilder b;
  b.Put(0x99B0A6F3C2ull, 5);
  b.Put(0x1234, 2);
  b.PutKey(pk, 16);
  uint8_t bytes[32] = {0x99, 0xB0, 0xA6, 0xF3, 0xC2, 0x12, 0x34};
  std::memcpy(bytes + 7, "0123456789abcdef", 16);
  EXPECT_EQ(b.size(), 23u);
  EXPECT_TRUE(b.Build() == Key::FromBytes(bytes, 23));
}

TEST(KeyBuilderTest, DropsBytesPastThirtyTwo) {
  KeyBuilder b;
  for (int i = 0; i < 5; ++i) b.Put(0x0101010101010101ull * static_cast<uint64_t>(i + 1), 8);
  EXPECT_EQ(b.size(), 40u);
  const Key k = b.Build();
  EXPECT_EQ(k.hi, 0x0101010101010101ull);
  EXPECT_EQ(k.tail_lo, 0x0404040404040404ull);
}

}  // namespace
}  // namespace innosim
