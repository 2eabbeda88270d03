#include "sim/uuid_streams.h"

#include <cstdint>
#include <memory>

#include "sim/xoshiro256.h"

namespace innosim {
namespace {

// Key::hi holds bytes 0..7, Key::lo bytes 8..15 (big-endian).
// Version: high nibble of byte 6 = bits 15..12 of hi.
constexpr uint64_t kVersionMask = 0xF000;
// Variant: top two bits of byte 8 = bits 63..62 of lo, set to 10.
constexpr uint64_t kVariantKeep = 0x3FFF'FFFF'FFFF'FFFFULL;
constexpr uint64_t kVariantBits = 0x8000'0000'0000'0000ULL;
constexpr uint64_t kMs48 = (uint64_t{1} << 48) - 1;
constexpr uint64_t kNsPerMs = 1'000'000;

inline uint64_t WithVariant(uint64_t lo) { return (lo & kVariantKeep) | kVariantBits; }

// bytes 0..5 = ms (48 bits), byte 6 = 0x70 | rand_a >> 8, byte 7 = rand_a.
inline uint64_t V7Hi(uint64_t ms, uint64_t rand_a12) {
  return ((ms & kMs48) << 16) | 0x7000 | (rand_a12 & 0x0FFF);
}

// ms(i) = start_ms + i / rows_per_ms, advanced one row at a time without a
// division; also gives the ns offset inside the ms, floor(r * 1e6 / rows_per_ms)
// where r = i % rows_per_ms, kept incrementally as quotient + remainder.
class SyntheticClock {
 public:
  SyntheticClock(uint64_t start_ms, uint64_t rows_per_ms)
      : ms_(start_ms),
        rows_per_ms_(rows_per_ms),
        step_ns_(kNsPerMs / rows_per_ms),
        step_rem_(kNsPerMs % rows_per_ms) {}

  // Time of the current row.
  uint64_t ms() const { return ms_; }
  uint64_t ns_in_ms() const { return ns_in_ms_; }

  // Moves to the next row.
  void Tick() {
    if (++row_in_ms_ == rows_per_ms_) {
      row_in_ms_ = 0;
      ns_in_ms_ = 0;
      rem_ = 0;
      ++ms_;
      return;
    }
    // rem_ += step_rem_, carrying at rows_per_ms_ (step_rem_ < rows_per_ms_),
    // without a branch: whether it carries is a coin toss for the predictor
    // at most rates. Unsigned arithmetic wraps, so the sum may overflow
    // before the subtraction brings it back below rows_per_ms_.
    const uint64_t carry = rem_ >= rows_per_ms_ - step_rem_;
    ns_in_ms_ += step_ns_ + carry;
    rem_ = rem_ + step_rem_ - (rows_per_ms_ & (uint64_t{0} - carry));
  }

 private:
  uint64_t ms_;
  uint64_t rows_per_ms_;
  uint64_t step_ns_;
  uint64_t step_rem_;
  uint64_t row_in_ms_ = 0;
  uint64_t ns_in_ms_ = 0;  // floor(row_in_ms_ * 1e6 / rows_per_ms_)
  uint64_t rem_ = 0;       // (row_in_ms_ * 1e6) % rows_per_ms_
};

class UuidV4Stream final : public KeyStream {
 public:
  explicit UuidV4Stream(uint64_t seed) : rng_(seed) {}
  bool Next(Key* out) override {
    const uint64_t w1 = rng_();
    const uint64_t w2 = rng_();
    out->hi = (w1 & ~kVersionMask) | 0x4000;
    out->lo = WithVariant(w2);
    return true;
  }
  int key_width() const override { return 16; }

 private:
  Xoshiro256StarStar rng_;
};

class UuidV7RandomStream final : public KeyStream {
 public:
  UuidV7RandomStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms)
      : rng_(seed), clock_(start_ms, rows_per_ms) {}
  bool Next(Key* out) override {
    const uint64_t w1 = rng_();  // rand_a: its top 12 bits
    const uint64_t w2 = rng_();  // rand_b: bytes 8..15
    out->hi = V7Hi(clock_.ms(), w1 >> 52);
    out->lo = WithVariant(w2);
    clock_.Tick();
    return true;
  }
  int key_width() const override { return 16; }

 private:
  Xoshiro256StarStar rng_;
  SyntheticClock clock_;
};

// seed 000's V7Mono.Next, with one deliberate difference: the first key
// always takes its clock ms with seq 0 (Go's zero-valued lastMs would give
// seq 1 to the first key only if start_ms were 0).
class UuidV7CounterStream final : public KeyStream {
 public:
  UuidV7CounterStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms)
      : rng_(seed), clock_(start_ms, rows_per_ms) {}
  bool Next(Key* out) override {
    uint64_t ms = clock_.ms();
    clock_.Tick();
    if (started_ && ms <= last_ms_) {
      // Same ms, or an ms we already carried into: never go back.
      ms = last_ms_;
      if (++seq_ >= 4096) {  // rand_a is 12 bits: carry into the next ms
        ms = last_ms_ + 1;
        seq_ = 0;
      }
    } else {
      seq_ = 0;
    }
    started_ = true;
    last_ms_ = ms;
    out->hi = V7Hi(ms, seq_);
    out->lo = WithVariant(rng_());
    return true;
  }
  int key_width() const override { return 16; }

 private:
  Xoshiro256StarStar rng_;
  SyntheticClock clock_;
  bool started_ = false;
  uint64_t last_ms_ = 0;
  uint64_t seq_ = 0;
};

// PostgreSQL 18 uuidv7(): generate_uuidv7(get_real_time_ns_ascending()) in
// src/backend/utils/adt/uuid.c, with the real clock replaced by the synthetic
// one. PostgreSQL keeps one int64 ns count; here the same instant is the pair
// (ms, ns within ms), which is the same arithmetic without the int64 ns
// overflow in year 2262.
class UuidV7SubmsStream final : public KeyStream {
 public:
  // SUBMS_MINIMAL_STEP_NS on Linux (SUBMS_MINIMAL_STEP_BITS 12):
  // NS_PER_MS / (1 << 12) + 1 = 244 + 1.
  static constexpr uint64_t kMinStepNs = kNsPerMs / 4096 + 1;

  UuidV7SubmsStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms)
      : rng_(seed), clock_(start_ms, rows_per_ms) {}
  bool Next(Key* out) override {
    uint64_t ms = clock_.ms();
    uint64_t ns = clock_.ns_in_ms();
    clock_.Tick();
    // previous_ns + SUBMS_MINIMAL_STEP_NS, carried into the ms.
    uint64_t min_ms = prev_ms_;
    uint64_t min_ns = prev_ns_ + kMinStepNs;
    if (min_ns >= kNsPerMs) {
      min_ns -= kNsPerMs;
      ++min_ms;
    }
    // if (previous_ns + SUBMS_MINIMAL_STEP_NS >= ns)
    //   ns = previous_ns + SUBMS_MINIMAL_STEP_NS;
    if (ms < min_ms || (ms == min_ms && ns <= min_ns)) {
      ms = min_ms;
      ns = min_ns;
    }
    prev_ms_ = ms;
    prev_ns_ = ns;
    // increased_clock_precision = ((ns % NS_PER_MS) * (1 << SUBMS_BITS)) / NS_PER_MS
    const uint64_t subms = ns * 4096 / kNsPerMs;
    out->hi = V7Hi(ms, subms);
    out->lo = WithVariant(rng_());  // bytes 8..15 random, then the variant
    return true;
  }
  int key_width() const override { return 16; }

 private:
  Xoshiro256StarStar rng_;
  SyntheticClock clock_;
  // PostgreSQL's `static int64 previous_ns = 0`.
  uint64_t prev_ms_ = 0;
  uint64_t prev_ns_ = 0;
};

}  // namespace

std::unique_ptr<KeyStream> NewUuidV4Stream(uint64_t seed) {
  return std::make_unique<UuidV4Stream>(seed);
}

std::unique_ptr<KeyStream> NewUuidV7RandomStream(uint64_t seed, uint64_t rows_per_ms,
                                                 uint64_t start_ms) {
  return std::make_unique<UuidV7RandomStream>(seed, rows_per_ms, start_ms);
}

std::unique_ptr<KeyStream> NewUuidV7CounterStream(uint64_t seed, uint64_t rows_per_ms,
                                                  uint64_t start_ms) {
  return std::make_unique<UuidV7CounterStream>(seed, rows_per_ms, start_ms);
}

std::unique_ptr<KeyStream> NewUuidV7SubmsStream(uint64_t seed, uint64_t rows_per_ms,
                                                uint64_t start_ms) {
  return std::make_unique<UuidV7SubmsStream>(seed, rows_per_ms, start_ms);
}

}  // namespace innosim
