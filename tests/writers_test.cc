// Several writers with skewed clocks (sim/writers.h): each writer's own
// clock and state, the interleaving orders, and the spec checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/experiment.h"
#include "sim/runner.h"
#include "sim/key_stream.h"
#include "sim/uuid_streams.h"
#include "sim/writers.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

StreamSpec Writers(const std::string& name, uint32_t n, double skew_ms = 0, double drift_ppm = 0,
                   uint64_t rows_per_ms = 482) {
  StreamSpec spec;
  spec.name = name;
  spec.rows_per_ms = rows_per_ms;
  spec.writers = n;
  spec.clock_skew_ms = skew_ms;
  spec.clock_drift_ppm = drift_ppm;
  return spec;
}

std::vector<Key> Take(const StreamSpec& spec, size_t n) {
  absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
  EXPECT_TRUE(s.ok()) << s.status();
  std::vector<Key> keys(n);
  if (!s.ok()) return keys;
  for (Key& k : keys) EXPECT_TRUE((*s)->Next(&k));
  return keys;
}

// Writer w's keys of a round-robin stream of n writers.
std::vector<Key> OfWriter(const std::vector<Key>& keys, uint32_t n, uint32_t w) {
  std::vector<Key> out;
  for (size_t i = w; i < keys.size(); i += n) out.push_back(keys[i]);
  return out;
}

uint64_t V7Ms(const Key& k) { return k.hi >> 16; }

// The time-based streams whose keys ascend for one writer.
const char* const kMonotonic[] = {"uuidv7-counter", "uuidv7-subms", "uuidv1-swap", "uuidv6", "ulid-monotonic",
                                  "snowflake"};

TEST(WritersTest, EachWriterKeepsItsOwnMonotonicOrder) {
  for (const char* name : kMonotonic) {
    SCOPED_TRACE(name);
    const std::vector<Key> keys = Take(Writers(name, 4, 3), 20000);
    for (uint32_t w = 0; w < 4; ++w) {
      const std::vector<Key> mine = OfWriter(keys, 4, w);
      for (size_t i = 1; i < mine.size(); ++i) ASSERT_LT(mine[i - 1], mine[i]) << "writer " << w << " key " << i;
    }
    // And the writers' keys together are not one ascending run (else the
    // writers would not be interleaving anything).
    bool descends = false;
    for (size_t i = 1; i < keys.size() && !descends; ++i) descends = keys[i] < keys[i - 1];
    EXPECT_TRUE(descends);
    // All keys distinct (own node / machine id / random bits per writer).
    EXPECT_EQ(std::set<Key>(keys.begin(), keys.end()).size(), keys.size());
  }
}

TEST(WritersTest, SkewShiftsEachWritersTimestamp) {
  // 4 writers, 30 ms spread: writer w runs 10*w ms ahead of writer 0; at 482
  // rows/ms the first key of each writer is in ms 0 of its own clock.
  const std::vector<Key> keys = Take(Writers("uuidv7-random", 4, 30), 4);
  for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(V7Ms(keys[w]), kStartMs + 10 * w) << "writer " << w;
  // Without skew all four share the ms.
  const std::vector<Key> flat = Take(Writers("uuidv7-random", 4, 0), 4);
  for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(V7Ms(flat[w]), kStartMs);
}

TEST(WritersTest, WriterRateIsTheTotalRateOverN) {
  // 2 writers at 10 rows/ms in all: each makes 5 rows/ms, so writer 0's key
  // k (global row 2k) is in ms floor(2k / 10).
  const std::vector<Key> keys = Take(Writers("uuidv7-random", 2, 0, 0, 10), 200);
  for (size_t g = 0; g < keys.size(); ++g) EXPECT_EQ(V7Ms(keys[g]), kStartMs + g / 10) << "row " << g;
}

TEST(WritersTest, DriftRunsALaterWritersClockFast) {
  // 2 writers, writer 1 at +100000 ppm (10% fast), no offset: after 1000 ms
  // of true time it reads 1100 ms.
  const std::vector<Key> keys = Take(Writers("uuidv7-random", 2, 0, 100000, 2), 4000);
  // Global row 3998 = writer 0's row 1999 at 1999 ms; row 3999 = writer 1's
  // at 1999.5 ms true, 2199.45 ms on its clock.
  EXPECT_EQ(V7Ms(keys[3998]), kStartMs + 1999);
  EXPECT_EQ(V7Ms(keys[3999]), kStartMs + 2199);
}

TEST(WritersTest, VersionAndVariantHoldForEveryWriter) {
  struct Case {
    const char* name;
    uint64_t version;
  } cases[] = {{"uuidv4", 4}, {"uuidv7-random", 7}, {"uuidv7-counter", 7}, {"uuidv7-subms", 7},
               {"uuidv1", 1}, {"uuidv6", 6}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<Key> keys = Take(Writers(c.name, 7, 5, 20), 7000);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ((keys[i].hi >> 12) & 0xF, c.version) << "row " << i;
      ASSERT_EQ(keys[i].lo >> 62, 2u) << "row " << i;
    }
  }
  // uuidv1-swap: the version nibble leads.
  for (const Key& k : Take(Writers("uuidv1-swap", 7, 5), 700)) ASSERT_EQ(k.hi >> 60, 1u);
}

TEST(WritersTest, WriterZeroMakesTheSingleWritersKeys) {
  // Writer 0 keeps the spec's seed and true time: with 3 writers at 3x the
  // rate it makes what one writer makes at the base rate.
  const std::vector<Key> three = Take(Writers("uuidv7-counter", 3, 9, 0, 3 * 482), 3000);
  const std::vector<Key> one = Take(Writers("uuidv7-counter", 1, 0, 0, 482), 1000);
  EXPECT_EQ(OfWriter(three, 3, 0), one);
  // And one writer ignores the clock options.
  EXPECT_EQ(Take(Writers("uuidv7-counter", 1, 50, 30), 1000), one);
}

TEST(WritersTest, SnowflakeWritersHaveDistinctMachineIds) {
  const std::vector<Key> keys = Take(Writers("snowflake", 8), 8);
  std::set<uint64_t> machines;
  for (const Key& k : keys) machines.insert((k.hi >> 12) & 0x3FF);
  EXPECT_EQ(machines.size(), 8u);
}

TEST(WritersTest, TimeInterleaveWithEqualWeightsIsRoundRobin) {
  StreamSpec rr = Writers("uuidv7-subms", 5, 7);
  StreamSpec t = rr;
  t.interleave = Interleave::kTime;
  EXPECT_EQ(Take(rr, 5000), Take(t, 5000));
}

TEST(WritersTest, TimeInterleaveFollowsTheWeights) {
  // Weights 1 and 3: writer 1 makes three rows per row of writer 0. Tell the
  // writers apart by their machine id.
  StreamSpec spec = Writers("snowflake", 2);
  spec.interleave = Interleave::kTime;
  spec.writer_weights = {1, 3};
  const std::vector<Key> keys = Take(spec, 4000);
  const uint64_t m0 = (keys[0].hi >> 12) & 0x3FF;
  std::string order;
  for (size_t i = 0; i < 8; ++i) order += ((keys[i].hi >> 12) & 0x3FF) == m0 ? '0' : '1';
  // Due slots (k*N + w) / weight: writer 0 at 0, 2, 4, ...; writer 1 at
  // 1/3, 1, 5/3, 7/3, 3, 11/3, ...: three rows of writer 1 per row of 0.
  EXPECT_EQ(order, "01110111");
  size_t zeros = 0;
  for (const Key& k : keys) zeros += ((k.hi >> 12) & 0x3FF) == m0;
  EXPECT_EQ(zeros, 1000u);
}

TEST(WritersTest, SameSpecSameKeys) {
  StreamSpec spec = Writers("ulid-monotonic", 6, 4.5, -30);
  spec.seed = 99;
  EXPECT_EQ(Take(spec, 3000), Take(spec, 3000));
  StreamSpec other = spec;
  other.seed = 100;
  EXPECT_NE(Take(spec, 30), Take(other, 30));
}

TEST(WritersTest, AutoincIsAssignedByTheServer) {
  EXPECT_EQ(Take(Writers("autoinc", 4, 10), 100), Take(Writers("autoinc", 1), 100));
}

TEST(WritersTest, ExperimentFileRunsTakeWriterKeys) {
  absl::StatusOr<Experiment> e = ParseExperiment(
      "name = \"w\"\n[defaults]\nrows = 20000\nflush = false\nstream = \"uuidv7-counter\"\nwriters = 4\n"
      "[[run]]\nlabel = \"no skew\"\n"
      "[[run]]\nlabel = \"skew\"\nclock_skew_ms = 5\nclock_drift_ppm = -20.5\n"
      "[[run]]\nlabel = \"weighted\"\ninterleave = \"time\"\nwriter_weights = [1, 1, 1, 3]\n",
      "w.toml");
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->runs.size(), 3u);
  EXPECT_EQ(e->runs[0].spec.stream.writers, 4u);
  EXPECT_EQ(e->runs[1].spec.stream.clock_skew_ms, 5);
  EXPECT_EQ(e->runs[1].spec.stream.clock_drift_ppm, -20.5);
  EXPECT_EQ(e->runs[2].spec.stream.interleave, Interleave::kTime);
  EXPECT_EQ(e->runs[2].spec.stream.writer_weights, (std::vector<uint32_t>{1, 1, 1, 3}));
  absl::StatusOr<ExperimentResult> r = RunExperiment(*e, 1, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<RunResult> a = innosim::Run(e->runs[0].spec), b = innosim::Run(e->runs[1].spec);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->report.primary.counters.index_page_splits, b->report.primary.counters.index_page_splits);
  // A bad value names the file and line.
  absl::StatusOr<Experiment> bad = ParseExperiment(
      "name = \"w\"\n[defaults]\nrows = 10\nstream = \"uuidv7-counter\"\n[[run]]\ninterleave = \"random\"\n",
      "w.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("w.toml:6"), std::string::npos) << bad.status();
}

TEST(WritersTest, BadSpecsSayWhatToChange) {
  auto error = [](StreamSpec spec) {
    absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
    return s.ok() ? std::string("ok") : std::string(s.status().message());
  };
  EXPECT_NE(error(Writers("uuidv7-random", 0)).find("--writers 0 is out of range"), std::string::npos);
  EXPECT_NE(error(Writers("uuidv7-random", 2000)).find("1 to 1024"), std::string::npos);
  EXPECT_NE(error(Writers("uuidv7-random", 2, -1)).find("--clock-skew-ms -1"), std::string::npos);
  EXPECT_NE(error(Writers("uuidv7-random", 2, 0, 2e5)).find("--clock-drift-ppm"), std::string::npos);
  StreamSpec w = Writers("uuidv7-random", 2);
  w.writer_weights = {1, 2};
  EXPECT_NE(error(w).find("needs --interleave time"), std::string::npos);
  w.interleave = Interleave::kTime;
  w.writer_weights = {1, 2, 3};
  EXPECT_NE(error(w).find("3 weights for 2 writers"), std::string::npos);
  EXPECT_NE(error(Writers("file:/nonexistent", 2)).find("drop --writers"), std::string::npos);
  EXPECT_EQ(error(Writers("uuidv7-random", 3, 5, -50)), "ok");
}

}  // namespace
}  // namespace innosim
