// Key: a primary-key value as InnoDB compares it.
//
// BINARY(16) and BIGINT UNSIGNED (and the sign-flipped storage of signed
// BIGINT) compare as unsigned big-endian byte strings in InnoDB
// (cmp_data in rem/rem0cmp.cc). A Key holds up to 16 such bytes as two
// integers, left-aligned: byte 0 of the column is the top byte of `hi`, so a
// comparison is two integer compares instead of a byte loop. An 8-byte key
// lives entirely in `hi` with `lo == 0`. Keys of one index all have the same
// width, so left alignment keeps the order of the original bytes.
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_KEY_H_
#define INNOSIM_MODEL_KEY_H_

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>

namespace innosim {

struct Key {
  uint64_t hi = 0;
  uint64_t lo = 0;

  friend constexpr auto operator<=>(const Key&, const Key&) = default;

  // Reads `width` (1..16) big-endian bytes.
  static Key FromBytes(const uint8_t* bytes, size_t width) {
    Key k;
    for (size_t i = 0; i < width && i < 16; ++i) {
      const uint64_t b = bytes[i];
      if (i < 8) {
        k.hi |= b << (56 - 8 * i);
      } else {
        k.lo |= b << (56 - 8 * (i - 8));
      }
    }
    return k;
  }

  // An 8-byte unsigned integer key (BIGINT UNSIGNED, positive BIGINT).
  static constexpr Key FromU64(uint64_t v) { return Key{v, 0}; }

  // Writes the first `width` bytes big-endian into `out`.
  void ToBytes(uint8_t* out, size_t width) const {
    for (size_t i = 0; i < width && i < 16; ++i) {
      out[i] = static_cast<uint8_t>(i < 8 ? hi >> (56 - 8 * i) : lo >> (56 - 8 * (i - 8)));
    }
  }

  std::array<uint8_t, 16> Bytes() const {
    std::array<uint8_t, 16> b{};
    ToBytes(b.data(), 16);
    return b;
  }
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_KEY_H_
