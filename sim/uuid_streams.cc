#include "sim/uuid_streams.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>

#include "sim/writers.h"
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

template <class Clock>
class UuidV7RandomStream final : public KeyStream {
 public:
  UuidV7RandomStream(uint64_t seed, Clock clock)
      : rng_(seed), clock_(clock) {}
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
  Clock clock_;
};

// seed 000's V7Mono.Next, with one deliberate difference: the first key
// always takes its clock ms with seq 0 (Go's zero-valued lastMs would give
// seq 1 to the first key only if start_ms were 0).
template <class Clock>
class UuidV7CounterStream final : public KeyStream {
 public:
  UuidV7CounterStream(uint64_t seed, Clock clock)
      : rng_(seed), clock_(clock) {}
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
  Clock clock_;
  bool started_ = false;
  uint64_t last_ms_ = 0;
  uint64_t seq_ = 0;
};

// PostgreSQL 18 uuidv7(): generate_uuidv7(get_real_time_ns_ascending()) in
// src/backend/utils/adt/uuid.c, with the real clock replaced by the synthetic
// one. PostgreSQL keeps one int64 ns count; here the same instant is the pair
// (ms, ns within ms), which is the same arithmetic without the int64 ns
// overflow in year 2262.
template <class Clock>
class UuidV7SubmsStream final : public KeyStream {
 public:
  // SUBMS_MINIMAL_STEP_NS on Linux (SUBMS_MINIMAL_STEP_BITS 12):
  // NS_PER_MS / (1 << 12) + 1 = 244 + 1.
  static constexpr uint64_t kMinStepNs = kNsPerMs / 4096 + 1;

  UuidV7SubmsStream(uint64_t seed, Clock clock)
      : rng_(seed), clock_(clock) {}
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
  Clock clock_;
  // PostgreSQL's `static int64 previous_ns = 0`.
  uint64_t prev_ms_ = 0;
  uint64_t prev_ns_ = 0;
};


// ---- The RFC 9562 version 1 family (uuidv1, uuidv1-swap, uuidv6) --------

// 100-ns intervals between 1582-10-15 00:00:00 (the Gregorian reform, the
// UUID epoch) and 1970-01-01 00:00:00: 141427 days.
constexpr uint64_t kUuidEpochOffsetTicks = uint64_t{141427} * 24 * 60 * 60 * 10'000'000;
constexpr uint64_t kTicksPerMs = 10'000;
constexpr uint64_t kNsPerTick = 100;
constexpr uint64_t kTs60 = (uint64_t{1} << 60) - 1;

// The 60-bit timestamp of one writer, strictly increasing per key, as
// MySQL's UUID() makes it (the generator MySQL has carried since 5.x, read
// in MariaDB's mysys/my_uuid.c and in MySQL Shell's copy of MySQL's
// generate_uuid; MySQL 8.4's own file was not at hand): the clock is
// read in 100-ns ticks; when a key falls on the tick of the previous one,
// the generator "borrows" one tick (a counter, nanoseq, that is added to
// every later reading) so the timestamp still moves forward, and it gives
// the borrowed ticks back - without falling to or below the previous
// timestamp - as soon as the clock has moved on by more than one tick. So
// up to 10,000 rows/ms every key carries its own row's tick; above that the
// stamped time runs ahead of the clock by the rows that did not fit.
// MySQL's last resort - a new random clock sequence when the timestamp
// cannot go forward (the clock set back, or nanoseq wrapping at 2^32) - is
// kept for the wrap; the synthetic clock never goes back.
template <class Clock>
class UuidV1Clock {
 public:
  explicit UuidV1Clock(Clock clock) : clock_(clock) {}

  // The timestamp of the next row; sets *new_clock_seq when MySQL would
  // draw a new clock sequence.
  uint64_t Next(bool* new_clock_seq) {
    *new_clock_seq = false;
    const uint64_t now =
        clock_.ms() * kTicksPerMs + clock_.ns_in_ms() / kNsPerTick + kUuidEpochOffsetTicks;
    clock_.Tick();
    uint64_t tv = now + nanoseq_;
    if (tv > last_) {
      if (nanoseq_ != 0) {  // give borrowed ticks back, staying above last_
        const uint64_t delta = std::min<uint64_t>(nanoseq_, tv - last_ - 1);
        tv -= delta;
        nanoseq_ -= static_cast<uint32_t>(delta);
      }
    } else {
      if (tv == last_ && ++nanoseq_ != 0) ++tv;  // borrow one tick
      if (tv <= last_) {                         // nanoseq wrapped: new numberspace
        *new_clock_seq = true;
        tv = now;
        nanoseq_ = 0;
      }
    }
    last_ = tv;
    return tv & kTs60;
  }

 private:
  Clock clock_;
  uint64_t last_ = 0;     // MySQL's uuid_time
  uint32_t nanoseq_ = 0;  // MySQL's nanoseq (a 32-bit uint)
};

enum class V1Layout {
  kV1,      // UUID() / UUID_TO_BIN(x): time_low, time_mid, version|time_high
  kV1Swap,  // UUID_TO_BIN(x, 1): version|time_high, time_mid, time_low
  kV6,      // RFC 9562 section 5.6: the 60 bits most significant first
};

// Bytes 8..15 of one writer: clock_seq (14 bits) behind the variant, then
// the 48-bit node. The node is random, with the multicast bit set as RFC
// 9562 section 6.10 asks of a node that is not a MAC address; MySQL uses the
// host's MAC address when it finds one. Either way it is fixed per writer.
template <class Clock>
class UuidV1FamilyStream final : public KeyStream {
 public:
  UuidV1FamilyStream(V1Layout layout, uint64_t seed, Clock clock)
      : layout_(layout), rng_(seed), clock_(clock) {
    node_ = (rng_() >> 16) | (uint64_t{1} << 40);  // multicast bit: byte 10's lowest bit
    NewClockSeq();
  }
  bool Next(Key* out) override {
    bool new_seq = false;
    const uint64_t ts = clock_.Next(&new_seq);
    if (new_seq) NewClockSeq();
    const uint64_t time_low = ts & 0xFFFF'FFFF;
    const uint64_t time_mid = (ts >> 32) & 0xFFFF;
    const uint64_t time_high = ts >> 48;  // 12 bits
    switch (layout_) {
      case V1Layout::kV1:
        out->hi = (time_low << 32) | (time_mid << 16) | 0x1000 | time_high;
        break;
      case V1Layout::kV1Swap:
        out->hi = ((0x1000 | time_high) << 48) | (time_mid << 32) | time_low;
        break;
      case V1Layout::kV6:
        out->hi = ((ts >> 12) << 16) | 0x6000 | (ts & 0x0FFF);
        break;
    }
    out->lo = suffix_;
    return true;
  }
  int key_width() const override { return 16; }

 private:
  void NewClockSeq() {
    const uint64_t clock_seq = rng_() >> 50;  // 14 bits
    suffix_ = ((0x8000 | clock_seq) << 48) | node_;
  }

  V1Layout layout_;
  Xoshiro256StarStar rng_;
  UuidV1Clock<Clock> clock_;
  uint64_t node_ = 0;
  uint64_t suffix_ = 0;
};

// ---- ULID ------------------------------------------------------------------

// Bytes 0..5 = ms, bytes 6..15 = 80 random bits: the 16 low bits of hi and
// all of lo (the ULID spec's binary layout, big-endian).
template <class Clock>
class UlidStream final : public KeyStream {
 public:
  UlidStream(uint64_t seed, Clock clock)
      : rng_(seed), clock_(clock) {}
  bool Next(Key* out) override {
    const uint64_t w1 = rng_();  // its top 16 bits: bytes 6..7
    const uint64_t w2 = rng_();  // bytes 8..15
    out->hi = ((clock_.ms() & kMs48) << 16) | (w1 >> 48);
    out->lo = w2;
    clock_.Tick();
    return true;
  }
  int key_width() const override { return 16; }

 private:
  Xoshiro256StarStar rng_;
  Clock clock_;
};

// The ULID spec's monotonic mode: the first key of a ms takes fresh random
// bits; each later key of the same ms takes the previous random part plus 1
// (an 80-bit increment). The spec lets generation fail when the 80 bits
// overflow within a ms (from a random start, about 2^-71 likely per ms at
// 482 rows/ms); here the key moves on to the next ms with fresh bits
// instead, as uuidv7-counter does, so the timestamp never goes back.
template <class Clock>
class UlidMonotonicStream final : public KeyStream {
 public:
  UlidMonotonicStream(uint64_t seed, Clock clock)
      : rng_(seed), clock_(clock) {}
  bool Next(Key* out) override {
    uint64_t ms = clock_.ms();
    clock_.Tick();
    if (started_ && ms <= last_ms_) {
      ms = last_ms_;
      if (++rand_lo_ == 0 && ++rand_hi_ > 0xFFFF) {  // 80 bits overflow
        ++ms;
        Draw();
      }
    } else {
      Draw();
    }
    started_ = true;
    last_ms_ = ms;
    out->hi = ((ms & kMs48) << 16) | rand_hi_;
    out->lo = rand_lo_;
    return true;
  }
  int key_width() const override { return 16; }

 private:
  void Draw() {
    rand_hi_ = rng_() >> 48;
    rand_lo_ = rng_();
  }

  Xoshiro256StarStar rng_;
  Clock clock_;
  bool started_ = false;
  uint64_t last_ms_ = 0;
  uint64_t rand_hi_ = 0;  // 16 bits
  uint64_t rand_lo_ = 0;  // 64 bits
};

// ---- Snowflake -------------------------------------------------------------

// Twitter's layout in a BIGINT: bit 63 = 0, 41 bits of ms since the epoch,
// 10 bits of machine id, 12 bits of sequence. The sequence restarts at 0
// in each new ms; when 4096 ids have been given out in one ms, Twitter's
// generator waits for the next ms (tilNextMillis), so the id takes the next
// ms with sequence 0 and the following rows stay in it until the synthetic
// clock catches up (the same carry as uuidv7-counter).
template <class Clock>
class SnowflakeStream final : public KeyStream {
 public:
  // machine_offset: writer w of several adds w, so writers never share a
  // machine id (deployments assign them distinct ids).
  SnowflakeStream(uint64_t seed, Clock clock, uint32_t machine_offset = 0)
      : rng_(seed), clock_(clock) {
    machine_ = ((rng_() >> 54) + machine_offset) & 0x3FF;  // 10 bits, fixed per writer
  }
  bool Next(Key* out) override {
    uint64_t ms = clock_.ms();
    clock_.Tick();
    if (started_ && ms <= last_ms_) {
      ms = last_ms_;
      if (++seq_ > 0x0FFF) {  // the ms is full: wait for the next one
        ++ms;
        seq_ = 0;
      }
    } else {
      seq_ = 0;
    }
    started_ = true;
    last_ms_ = ms;
    const uint64_t since_epoch = (ms - kSnowflakeEpochMs) & ((uint64_t{1} << 41) - 1);
    *out = Key::FromU64((since_epoch << 22) | (machine_ << 12) | seq_);
    return true;
  }
  int key_width() const override { return 8; }

 private:
  Xoshiro256StarStar rng_;
  Clock clock_;
  uint64_t machine_ = 0;
  bool started_ = false;
  uint64_t last_ms_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace

std::unique_ptr<KeyStream> NewUuidV4Stream(uint64_t seed) {
  return std::make_unique<UuidV4Stream>(seed);
}

namespace {

// The generator `name` on `clock`; nullptr for a name without a clock.
template <class Clock>
std::unique_ptr<KeyStream> MakeOnClock(std::string_view name, uint64_t seed, const Clock& clock,
                                       uint32_t writer) {
  if (name == "uuidv7-random") return std::make_unique<UuidV7RandomStream<Clock>>(seed, clock);
  if (name == "uuidv7-counter") return std::make_unique<UuidV7CounterStream<Clock>>(seed, clock);
  if (name == "uuidv7-subms") return std::make_unique<UuidV7SubmsStream<Clock>>(seed, clock);
  if (name == "uuidv1") return std::make_unique<UuidV1FamilyStream<Clock>>(V1Layout::kV1, seed, clock);
  if (name == "uuidv1-swap") return std::make_unique<UuidV1FamilyStream<Clock>>(V1Layout::kV1Swap, seed, clock);
  if (name == "uuidv6") return std::make_unique<UuidV1FamilyStream<Clock>>(V1Layout::kV6, seed, clock);
  if (name == "ulid") return std::make_unique<UlidStream<Clock>>(seed, clock);
  if (name == "ulid-monotonic") return std::make_unique<UlidMonotonicStream<Clock>>(seed, clock);
  if (name == "snowflake") return std::make_unique<SnowflakeStream<Clock>>(seed, clock, writer);
  return nullptr;
}

}  // namespace

std::unique_ptr<KeyStream> NewClockStream(std::string_view name, uint64_t seed, uint64_t rows_per_ms,
                                          uint64_t start_ms) {
  return MakeOnClock(name, seed, SyntheticClock(start_ms, rows_per_ms), 0);
}

std::unique_ptr<KeyStream> NewWriterClockStream(std::string_view name, uint64_t seed, const WriterTiming& timing) {
  return MakeOnClock(name, seed, WriterClock(timing), timing.index);
}

std::unique_ptr<KeyStream> NewUuidV7RandomStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv7-random", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUuidV7CounterStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv7-counter", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUuidV7SubmsStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv7-subms", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUuidV1Stream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv1", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUuidV1SwapStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv1-swap", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUuidV6Stream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("uuidv6", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUlidStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("ulid", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewUlidMonotonicStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("ulid-monotonic", seed, rows_per_ms, start_ms);
}
std::unique_ptr<KeyStream> NewSnowflakeStream(uint64_t seed, uint64_t rows_per_ms, uint64_t start_ms) {
  return NewClockStream("snowflake", seed, rows_per_ms, start_ms);
}

}  // namespace innosim
