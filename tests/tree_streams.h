// Test helpers for whole-tree tests: key streams of distinct shapes, a
// snapshot of an engine's PRIMARY tree, a page-event hash, and a pair of
// engines for checking that a speed device (model/fast/) changes nothing.
#ifndef INNOSIM_TESTS_TREE_STREAMS_H_
#define INNOSIM_TESTS_TREE_STREAMS_H_

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/fast/fast_path.h"
#include "model/page_events.h"
#include "model/record_format.h"

namespace innosim {

enum class Stream { kUniform, kUuidV7Windows, kDescending, kInterleavedRuns };

inline std::string StreamName(Stream s) {
  switch (s) {
    case Stream::kUniform:
      return "Uniform";
    case Stream::kUuidV7Windows:
      return "UuidV7Windows";
    case Stream::kDescending:
      return "Descending";
    case Stream::kInterleavedRuns:
      return "InterleavedRuns";
  }
  return "?";
}

// Generates the keys of one stream (may repeat a key only by chance for
// kUniform, which the test then expects to be refused).
class Generator {
 public:
  Generator(Stream s, uint64_t seed) : stream_(s), rng_(seed) {
    for (auto& r : runs_) r = 0;
  }
  Key Next() {
    ++i_;
    switch (stream_) {
      case Stream::kUniform:
        return Key{rng_(), rng_()};
      case Stream::kUuidV7Windows:
        // A 48-bit "millisecond" that advances every 32 rows; random bits
        // below it, so rows within one window come in random order.
        return Key{((i_ / 32) << 16) | (rng_() & 0xFFFF), rng_()};
      case Stream::kDescending:
        return Key{~uint64_t{0} - i_ * 1000, 0};
      case Stream::kInterleavedRuns: {
        // 5 ascending sequences in disjoint key ranges, a random one each
        // row: each run appends at the end of a page that usually has a
        // right sibling, which exercises the right-sibling shortcut.
        const size_t r = rng_() % runs_.size();
        return Key{(uint64_t{r} << 40) | ++runs_[r], 0};
      }
    }
    return Key{};
  }

 private:
  Stream stream_;
  std::mt19937_64 rng_;
  uint64_t i_ = 0;
  std::array<uint64_t, 5> runs_;
};

struct Snapshot {
  std::vector<uint64_t> counters;
  std::vector<std::tuple<uint64_t, uint64_t, uint64_t>> levels;  // pages, records, bytes
  std::vector<Key> keys;
  uint64_t size = 0;
  uint64_t rows = 0;
  bool operator==(const Snapshot&) const = default;
};

inline Snapshot Take(const Engine& e) {
  Snapshot s;
  const IndexCounters& c = e.primary().counters();
  s.counters = {c.index_page_splits,
                c.index_page_reorg_attempts,
                c.index_page_reorg_successful,
                c.index_page_merge_attempts,
                c.index_page_merge_successful,
                c.splits_to_right,
                c.splits_to_left,
                c.splits_middle,
                c.splits_sure,
                c.right_sibling_inserts,
                c.root_raises,
                c.pages_allocated,
                c.pages_freed};
  for (const LevelCensus& l : e.primary().Census()) s.levels.emplace_back(l.pages, l.records, l.data_bytes);
  e.primary().ForEachKey([&](const Key& k) { s.keys.push_back(k); });
  s.size = e.primary().size();
  s.rows = e.rows();
  return s;
}

using Param = std::tuple<Stream, uint32_t, bool>;  // stream, page size, MariaDB

// Every stream on small and default pages, with both engine profiles.
inline auto AllParams() {
  return ::testing::Combine(
      ::testing::Values(Stream::kUniform, Stream::kUuidV7Windows, Stream::kDescending, Stream::kInterleavedRuns),
      ::testing::Values(4096u, 16384u), ::testing::Bool());
}

inline std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  return StreamName(std::get<0>(info.param)) + "_" + std::to_string(std::get<1>(info.param)) +
         (std::get<2>(info.param) ? "_MariaDB" : "_MySQL");
}

inline EngineProfile ProfileFor(bool mariadb, uint32_t page_size) {
  EngineProfile profile = mariadb ? EngineProfile::MariaDB1011() : EngineProfile::MySQL84();
  profile.page_size = page_size;
  return profile;
}

// Folds every page event, in order, into one hash: two runs that fix,
// create and change the same pages in the same order with the same redo
// give the same value.
class EventHash : public PageEventSink {
 public:
  void OnPageAccess(uint32_t space_id, uint32_t page_no) override { Mix(1, space_id, page_no); }
  void OnPageCreate(uint32_t space_id, uint32_t page_no) override { Mix(2, space_id, page_no); }
  void OnPageModify(uint32_t space_id, uint32_t page_no) override { Mix(3, space_id, page_no); }
  void OnMtrCommit(uint64_t redo_bytes) override { Mix(4, redo_bytes, 0); }
  uint64_t hash() const { return h_; }
  uint64_t events() const { return n_; }

 private:
  void Mix(uint64_t kind, uint64_t a, uint64_t b) {
    for (uint64_t v : {kind, a, b}) h_ = (h_ ^ v) * 0x100000001B3ULL;
    ++n_;
  }
  uint64_t h_ = 0xCBF29CE484222325ULL;
  uint64_t n_ = 0;
};

// Two engines of the same profile, each showing its page events to its own
// hash, for checking that a speed device changes nothing: `with` uses the
// device, `without` does not.
struct EnginePair {
  explicit EnginePair(const EngineProfile& profile)
      : with(profile, Seed000Table(16), &with_events), without(profile, Seed000Table(16), &without_events) {}

  // Row i: both take the key (or both refuse it), and both commit every
  // 500 rows.
  void InsertIntoBoth(const Key& k, int i) {
    const absl::Status sa = with.InsertRow(k);
    const absl::Status sb = without.InsertRow(k);
    ASSERT_EQ(sa.code(), sb.code()) << "row " << i;
    if (i % 500 == 499) {
      with.CommitTrx();
      without.CommitTrx();
    }
  }

  // Both built the same tree with the same counters, and showed the buffer
  // pool the same page events in the same order.
  void ExpectSameRuns() const {
    EXPECT_EQ(with.Verify(), "");
    EXPECT_TRUE(Take(with) == Take(without));
    EXPECT_EQ(with_events.events(), without_events.events());
    EXPECT_EQ(with_events.hash(), without_events.hash());
  }

  EventHash with_events, without_events;
  Engine with, without;
};

// Inserts `rows` keys of the parameter's stream into an engine with every
// speed device on and into one with the devices `without`, and expects the
// same tree, counters and page events. Returns the first engine's leaf splits
// so that callers can check the stream did split pages.
inline uint64_t ExpectSameRunsWithout(const FastPath::Devices& without, const Param& param, int rows, uint64_t seed) {
  const auto [stream, page_size, mariadb] = param;
  EnginePair e(ProfileFor(mariadb, page_size));
  e.without.set_fast_path(without);
  Generator a(stream, seed);
  for (int i = 0; i < rows; ++i) {
    e.InsertIntoBoth(a.Next(), i);
    if (::testing::Test::HasFatalFailure()) return 0;
  }
  e.ExpectSameRuns();
  return e.with.primary().counters().index_page_splits;
}

}  // namespace innosim

#endif  // INNOSIM_TESTS_TREE_STREAMS_H_
