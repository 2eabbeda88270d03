// Key: an index key (a primary key, or a secondary entry: its columns, then
// the primary key) as InnoDB compares it.
//
// BINARY(n), the integer types (stored big-endian, signed ones with the sign
// bit flipped) and the temporal types compare as unsigned big-endian byte
// strings in InnoDB (cmp_data in rem/rem0cmp.cc). A Key holds up to 32 such
// bytes as four integers, left-aligned: byte 0 is the top byte of `hi`, so a
// comparison is integer compares instead of a byte loop. An 8-byte key
// lives entirely in `hi`. Keys of one index all have the same width, so left
// alignment keeps the order of the original bytes.
//
// The first 16 bytes are the key's head, the rest its tail (KeyHalf each).
// Primary keys fit in the head; a secondary entry such as seed 004's
// DATETIME(3) + BINARY(16) (23 bytes) needs the tail. Index pages store
// heads and tails apart (model/index_page.h), so an index whose keys fit in
// 16 bytes keeps 16 bytes a record.
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_KEY_H_
#define INNOSIM_MODEL_KEY_H_

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace innosim {

// 16 bytes of a key, big-endian in two integers.
struct KeyHalf {
  uint64_t hi = 0;
  uint64_t lo = 0;

  friend constexpr auto operator<=>(const KeyHalf&, const KeyHalf&) = default;
};

struct Key {
  uint64_t hi = 0;
  uint64_t lo = 0;
  uint64_t tail_hi = 0;
  uint64_t tail_lo = 0;

  friend constexpr auto operator<=>(const Key&, const Key&) = default;

  // Bytes a Key holds; a head holds the first 16. A bound of the simulator,
  // not InnoDB's (whose index keys may reach 3072 bytes: the "Maximum and
  // minimum" limits of the InnoDB Limits documentation, DYNAMIC rows):
  // 32 covers a BINARY(16) PK behind a secondary column of up to 16 bytes.
  static constexpr size_t kMaxBytes = 32;
  static constexpr size_t kHeadBytes = 16;

  static constexpr Key Join(const KeyHalf& head, const KeyHalf& tail = {}) {
    return Key{head.hi, head.lo, tail.hi, tail.lo};
  }
  constexpr KeyHalf head() const { return KeyHalf{hi, lo}; }
  constexpr KeyHalf tail() const { return KeyHalf{tail_hi, tail_lo}; }

  // Reads `width` (1..kMaxBytes) big-endian bytes.
  // Whole words load as one big-endian integer each, the last one padded
  // with zero bytes (a secondary entry is encoded for every row).
  static Key FromBytes(const uint8_t* bytes, size_t width) {
    if (width > kMaxBytes) width = kMaxBytes;
    Key k;
    for (size_t w = 0; w * 8 < width; ++w) {
      uint8_t buf[8] = {};
      const size_t n = width - w * 8 < 8 ? width - w * 8 : 8;
      std::memcpy(buf, bytes + w * 8, n);
      uint64_t v;
      std::memcpy(&v, buf, 8);
      k.word(w) = BigEndianWord(v);
    }
    return k;
  }

  // An 8-byte unsigned integer key (BIGINT UNSIGNED, positive BIGINT).
  static constexpr Key FromU64(uint64_t v) { return Key{v, 0}; }

  // Writes the first `width` bytes big-endian into `out`.
  void ToBytes(uint8_t* out, size_t width) const {
    if (width > kMaxBytes) width = kMaxBytes;
    for (size_t w = 0; w * 8 < width; ++w) {
      const uint64_t v = BigEndianWord(word(w));
      const size_t n = width - w * 8 < 8 ? width - w * 8 : 8;
      std::memcpy(out + w * 8, &v, n);
    }
  }

  std::array<uint8_t, kMaxBytes> Bytes() const {
    std::array<uint8_t, kMaxBytes> b{};
    ToBytes(b.data(), kMaxBytes);
    return b;
  }

  // Eight bytes in memory order <-> the integer they spell big-endian.
  static uint64_t BigEndianWord(uint64_t v) {
    if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(v);
    return v;
  }

  // Word w (0..3) of the big-endian bytes: hi, lo, tail_hi, tail_lo.
  uint64_t word(size_t w) const { return w == 0 ? hi : w == 1 ? lo : w == 2 ? tail_hi : tail_lo; }
  uint64_t& word(size_t w) { return w == 0 ? hi : w == 1 ? lo : w == 2 ? tail_hi : tail_lo; }
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_KEY_H_
