#include "sim/writers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

constexpr uint64_t kNsPerMs = 1'000'000;
constexpr int64_t kPpbPerUnit = 1'000'000'000;  // drift in ppb: local = t + t * ppb / 10^9

// floor(a / b) for b > 0 (C++ division truncates toward zero).
__int128 FloorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}

class WritersStream final : public KeyStream {
 public:
  WritersStream(const StreamSpec& spec, std::vector<std::unique_ptr<KeyStream>> writers)
      : writers_(std::move(writers)), time_order_(spec.interleave == Interleave::kTime) {
    const uint32_t n = static_cast<uint32_t>(writers_.size());
    if (time_order_) {
      heap_.reserve(n);
      for (uint32_t w = 0; w < n; ++w) {
        const uint64_t weight = spec.writer_weights.empty() ? 1 : spec.writer_weights[w];
        heap_.push_back(Due{w, w, weight});
        std::push_heap(heap_.begin(), heap_.end(), Later);
      }
    }
  }

  bool Next(Key* out) override {
    uint32_t w = 0;
    if (time_order_) {
      // The writer whose next row is due first. Its row after that is due
      // at (k+1)*N + w over the same weight (see writers.h).
      std::pop_heap(heap_.begin(), heap_.end(), Later);
      Due& d = heap_.back();
      w = d.writer;
      d.slot += writers_.size();
      std::push_heap(heap_.begin(), heap_.end(), Later);
    } else {
      w = turn_;
      turn_ = turn_ + 1 == writers_.size() ? 0 : turn_ + 1;
    }
    return writers_[w]->Next(out);
  }

  int key_width() const override { return writers_.front()->key_width(); }

  absl::Status status() const override {
    for (const auto& s : writers_) {
      if (!s->status().ok()) return s->status();
    }
    return absl::OkStatus();
  }

 private:
  // Writer `writer`'s next row is due at slot / weight (in units of
  // S / (N * rows_per_ms) ms, the same for every writer): k*N + w.
  struct Due {
    uint32_t writer;
    uint64_t slot;
    uint64_t weight;
  };
  // Heap order: true when a is due after b (std::*_heap keeps the "largest",
  // so the earliest is on top); ties go to the lower writer.
  static bool Later(const Due& a, const Due& b) {
    const unsigned __int128 ta = static_cast<unsigned __int128>(a.slot) * b.weight;
    const unsigned __int128 tb = static_cast<unsigned __int128>(b.slot) * a.weight;
    if (ta != tb) return ta > tb;
    return a.writer > b.writer;
  }

  std::vector<std::unique_ptr<KeyStream>> writers_;
  bool time_order_;
  size_t turn_ = 0;
  std::vector<Due> heap_;
};

}  // namespace

WriterClock::WriterClock(const WriterTiming& t) : t_(t) {
  num_step_ = static_cast<unsigned __int128>(t.writers) * t.weight_sum * kNsPerMs;
  num_base_ = static_cast<unsigned __int128>(t.index) * t.weight_sum * kNsPerMs;
  den_ = static_cast<unsigned __int128>(t.writers) * t.rows_per_ms * t.weight;
  Compute();
}

void WriterClock::Compute() {
  // True time of this writer's row k, in ns after start (floor).
  const __int128 t = static_cast<__int128>((row_ * num_step_ + num_base_) / den_);
  const __int128 local = static_cast<__int128>(t_.start_ms) * kNsPerMs + t_.skew_ns + t +
                         FloorDiv(t * t_.drift_ppb, kPpbPerUnit);
  // ValidateWriters keeps local >= 0: skew >= 0 and drift > -100%.
  ms_ = static_cast<uint64_t>(local / kNsPerMs);
  ns_in_ms_ = static_cast<uint64_t>(local % kNsPerMs);
}

WriterTiming TimingOf(const StreamSpec& spec, uint32_t index) {
  WriterTiming t;
  t.writers = std::max<uint32_t>(spec.writers, 1);
  t.index = index;
  t.rows_per_ms = spec.rows_per_ms;
  t.start_ms = spec.start_ms;
  if (spec.interleave == Interleave::kTime && !spec.writer_weights.empty()) {
    t.weight = spec.writer_weights[index];
    t.weight_sum = 0;
    for (uint32_t w : spec.writer_weights) t.weight_sum += w;
  } else {
    t.weight = 1;
    t.weight_sum = t.writers;
  }
  if (t.writers > 1) {
    // Spread evenly from writer 0 (true time) to writer N-1 (the whole
    // skew / drift), rounded toward zero.
    const int64_t skew_ns = std::llround(spec.clock_skew_ms * 1e6);
    const int64_t drift_ppb = std::llround(spec.clock_drift_ppm * 1e3);
    t.skew_ns = skew_ns * static_cast<int64_t>(index) / static_cast<int64_t>(t.writers - 1);
    t.drift_ppb = drift_ppb * static_cast<int64_t>(index) / static_cast<int64_t>(t.writers - 1);
  }
  return t;
}

uint64_t WriterSeed(uint64_t seed, uint32_t index) { return seed ^ (0x9e3779b97f4a7c15ULL * index); }

bool HasWriters(const StreamSpec& spec) { return spec.writers > 1; }

absl::Status ValidateWriters(const StreamSpec& spec) {
  if (spec.writers < 1 || spec.writers > kMaxWriters) {
    return absl::InvalidArgumentError(
        absl::StrCat("--writers ", spec.writers, " is out of range: give 1 to ", kMaxWriters, " writers"));
  }
  if (!(spec.clock_skew_ms >= 0 && spec.clock_skew_ms <= kMaxClockSkewMs)) {
    return absl::InvalidArgumentError(absl::StrCat("--clock-skew-ms ", spec.clock_skew_ms,
                                                   " is out of range: give 0 to ", kMaxClockSkewMs,
                                                   " ms (the spread between the first and the last writer's clock)"));
  }
  if (!(std::fabs(spec.clock_drift_ppm) <= kMaxClockDriftPpm)) {
    return absl::InvalidArgumentError(absl::StrCat("--clock-drift-ppm ", spec.clock_drift_ppm,
                                                   " is out of range: give -", kMaxClockDriftPpm, " to ",
                                                   kMaxClockDriftPpm, " parts per million"));
  }
  if (!spec.writer_weights.empty()) {
    if (spec.interleave != Interleave::kTime) {
      return absl::InvalidArgumentError("--writer-weights needs --interleave time (round-robin takes one row per writer in turn)");
    }
    if (spec.writer_weights.size() != spec.writers) {
      return absl::InvalidArgumentError(absl::StrCat("--writer-weights has ", spec.writer_weights.size(),
                                                     " weights for ", spec.writers,
                                                     " writers: give one weight per writer, e.g. 1,1,2"));
    }
    for (uint32_t w : spec.writer_weights) {
      if (w < 1 || w > kMaxWriterWeight) {
        return absl::InvalidArgumentError(absl::StrCat("--writer-weights: weight ", w, " is out of range: give 1 to ",
                                                       kMaxWriterWeight));
      }
    }
  }
  return absl::OkStatus();
}

const char* InterleaveName(Interleave i) { return i == Interleave::kTime ? "time" : "round-robin"; }

absl::StatusOr<Interleave> ParseInterleave(const std::string& text) {
  if (text == "round-robin") return Interleave::kRoundRobin;
  if (text == "time") return Interleave::kTime;
  return absl::InvalidArgumentError(
      absl::StrCat("--interleave '", text, "': use round-robin (one row per writer in turn) or time (by each "
                   "writer's row times)"));
}

std::unique_ptr<KeyStream> NewWritersStream(const StreamSpec& spec, std::vector<std::unique_ptr<KeyStream>> writers) {
  return std::make_unique<WritersStream>(spec, std::move(writers));
}

}  // namespace innosim
