// EntryEncoder: the key of one secondary index's entry for a row, as the
// engine's index orders it, made from the row's number and primary key
// (the other columns' values come from their sources, sim/column_values.h).
// InnoDB's entries end with the primary key (sim/secondary_keys.h);
// PostgreSQL's are the key columns alone, equal keys ordered by heap TID
// (sim/pg_entry_encoder.h). Each engine's preparation (sim/engines.h)
// makes one per secondary index; Load and PhaseRunner only call Encode.
//
// Encode allocates nothing. Not thread-safe (one per run).
#ifndef INNOSIM_SIM_ENTRY_ENCODER_H_
#define INNOSIM_SIM_ENTRY_ENCODER_H_

#include <cstdint>
#include <cstring>

#include "model/key.h"

namespace innosim {

// Writes the low `width` (0..8) bytes of v big-endian: how both engines
// store integers and dates in their index entries.
inline void PutBigEndian(uint64_t v, uint32_t width, uint8_t* out) {
  if (width == 0) return;
  const uint64_t be = Key::BigEndianWord(v << (64 - 8 * width));
  std::memcpy(out, &be, width);
}

// A Key assembled field by field: the words a byte buffer filled left to
// right and read by Key::FromBytes would give, kept in four registers
// instead (writing bytes and reading them back as words stalls on every
// row: a load cannot take its bytes from several narrower stores in
// flight). Each field is shifted in at the right end; Build left-aligns.
// Bytes past Key::kMaxBytes are dropped, as FromBytes drops them.
class KeyBuilder {
 public:
  // Bytes appended so far (dropped ones included).
  uint32_t size() const { return bytes_; }
  // The low `width` (0..8) bytes of v, most significant first.
  void Put(uint64_t v, uint32_t width) {
    const uint32_t room = bytes_ < Key::kMaxBytes ? Key::kMaxBytes - bytes_ : 0;
    bytes_ += width;
    const uint32_t take = width < room ? width : room;
    if (take == 0) return;
    v >>= 8 * (width - take);  // the leading `take` bytes
    ShiftIn(take == 8 ? v : v & ((1ull << (8 * take)) - 1), 8 * take);
  }
  // `n` bytes as they lie in memory.
  void PutBytes(const uint8_t* bytes, uint32_t n) {
    for (uint32_t i = 0; i < n; i += 8) {
      const uint32_t take = n - i < 8 ? n - i : 8;
      uint64_t v = 0;
      for (uint32_t j = 0; j < take; ++j) v = v << 8 | bytes[i + j];
      Put(v, take);
    }
  }
  // The first `n` (up to Key::kMaxBytes) bytes of `k`.
  void PutKey(const Key& k, uint32_t n) {
    for (uint32_t i = 0; i * 8 < n; ++i) {
      const uint32_t take = n - i * 8 < 8 ? n - i * 8 : 8;
      Put(k.word(i) >> (64 - 8 * take), take);
    }
  }
  // Zero bytes up to a size of `n` (nothing if already there).
  void PadTo(uint32_t n) {
    while (bytes_ < n) Put(0, n - bytes_ < 8 ? n - bytes_ : 8);
  }
  Key Build() const {
    KeyBuilder b = *this;
    for (uint32_t kept = bytes_ < Key::kMaxBytes ? bytes_ : Key::kMaxBytes; kept < Key::kMaxBytes; kept += 8) {
      const uint32_t bits = Key::kMaxBytes - kept < 8 ? 8 * (Key::kMaxBytes - kept) : 64;
      b.ShiftIn(0, bits);
    }
    Key k;
    k.hi = b.w0_;
    k.lo = b.w1_;
    k.tail_hi = b.w2_;
    k.tail_lo = b.w3_;
    return k;
  }

 private:
  // The 256 bits shifted left by `bits` (8..64), v entering at the right.
  void ShiftIn(uint64_t v, uint32_t bits) {
    if (bits == 64) {
      w0_ = w1_;
      w1_ = w2_;
      w2_ = w3_;
      w3_ = v;
      return;
    }
    w0_ = w0_ << bits | w1_ >> (64 - bits);
    w1_ = w1_ << bits | w2_ >> (64 - bits);
    w2_ = w2_ << bits | w3_ >> (64 - bits);
    w3_ = w3_ << bits | v;
  }

  uint64_t w0_ = 0, w1_ = 0, w2_ = 0, w3_ = 0;
  uint32_t bytes_ = 0;
};

class EntryEncoder {
 public:
  virtual ~EntryEncoder() = default;
  // The entry key of row `row` (0-based) whose primary key is `pk`.
  virtual Key Encode(uint64_t row, const Key& pk) const = 0;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_ENTRY_ENCODER_H_
