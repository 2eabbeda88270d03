// SplitByWriter (tools/measure.h): the keys each writer of `measure
// --writers N` inserts on its own connection are exactly its share of the
// interleaved stream the simulation inserts. No server.
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "sim/key_stream.h"
#include "sim/writers.h"
#include "tools/measure.h"

namespace innosim {
namespace {

StreamSpec Writers(const char* name, uint32_t n, double skew_ms) {
  StreamSpec s;
  s.name = name;
  s.writers = n;
  s.clock_skew_ms = skew_ms;
  return s;
}

// Re-interleaves the writers' keys as the spec's interleaved stream orders
// them: each interleaved key must be the next key of one writer, and every
// writer's keys are used up at the end.
void ExpectSplitIsTheInterleavedStream(const StreamSpec& spec, uint64_t rows) {
  absl::StatusOr<WriterSplit> split = SplitByWriter(spec, rows);
  ASSERT_TRUE(split.ok()) << split.status();
  ASSERT_EQ(split->streams.size(), spec.writers);
  ASSERT_EQ(split->rows.size(), spec.writers);
  EXPECT_EQ(std::accumulate(split->rows.begin(), split->rows.end(), uint64_t{0}), rows);
  const WriterKeys keys = split->keys();
  ASSERT_EQ(keys.streams.size(), spec.writers);
  std::vector<std::vector<Key>> own(spec.writers);
  for (uint32_t w = 0; w < spec.writers; ++w) {
    own[w].resize(split->rows[w]);
    for (Key& k : own[w]) ASSERT_TRUE(keys.streams[w]->Next(&k));
  }
  absl::StatusOr<std::unique_ptr<KeyStream>> interleaved = MakeKeyStream(spec);
  ASSERT_TRUE(interleaved.ok()) << interleaved.status();
  std::vector<size_t> at(spec.writers, 0);
  for (uint64_t g = 0; g < rows; ++g) {
    Key k;
    ASSERT_TRUE((*interleaved)->Next(&k));
    uint32_t w = 0;
    while (w < spec.writers && !(at[w] < own[w].size() && own[w][at[w]] == k)) ++w;
    ASSERT_LT(w, spec.writers) << "interleaved key " << g << " is no writer's next key";
    ++at[w];
  }
  for (uint32_t w = 0; w < spec.writers; ++w) EXPECT_EQ(at[w], own[w].size()) << "writer " << w;
}

TEST(MeasureWriters, RoundRobinGivesEachWriterItsTurns) {
  const StreamSpec spec = Writers("uuidv7-counter", 4, 50);
  ExpectSplitIsTheInterleavedStream(spec, 10'003);
  absl::StatusOr<WriterSplit> split = SplitByWriter(spec, 10'003);
  ASSERT_TRUE(split.ok());
  // Writer 0, 1, 2, 3 in turn: the first three take one row more.
  EXPECT_EQ(split->rows, (std::vector<uint64_t>{2501, 2501, 2501, 2500}));
}

TEST(MeasureWriters, TimeInterleaveAtUnequalRatesAndRandomKeys) {
  StreamSpec spec = Writers("uuidv7-random", 3, 5);
  spec.interleave = Interleave::kTime;
  spec.writer_weights = {1, 1, 2};
  ExpectSplitIsTheInterleavedStream(spec, 20'000);
  absl::StatusOr<WriterSplit> split = SplitByWriter(spec, 20'000);
  ASSERT_TRUE(split.ok());
  // The writer of weight 2 makes half the rows.
  EXPECT_NEAR(static_cast<double>(split->rows[2]) / 20'000, 0.5, 0.001);
  ExpectSplitIsTheInterleavedStream(Writers("uuidv4", 2, 0), 5'000);
  ExpectSplitIsTheInterleavedStream(Writers("snowflake", 4, 2), 5'000);
}

TEST(MeasureWriters, RefusesOneWriterAndAutoinc) {
  EXPECT_EQ(SplitByWriter(Writers("uuidv7-counter", 1, 0), 10).status().code(), absl::StatusCode::kInvalidArgument);
  absl::Status s = SplitByWriter(Writers("autoinc", 4, 0), 10).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--one-connection"), std::string::npos) << s;
}

}  // namespace
}  // namespace innosim
