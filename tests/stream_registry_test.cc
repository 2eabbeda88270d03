// The stream registry (sim/stream_registry.h): a stream registered through
// it alone runs everywhere a built-in one does, and every help text lists
// the table's streams.
#include "sim/stream_registry.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

// A throwaway stream: keys that descend from 2^63, one per row (every insert
// goes to the leftmost leaf: InnoDB's split to the left).
class DescendingStream final : public KeyStream {
 public:
  bool Next(Key* out) override {
    *out = Key::FromU64(next_--);
    return true;
  }
  int key_width() const override { return 8; }

 private:
  uint64_t next_ = uint64_t{1} << 63;
};

std::unique_ptr<KeyStream> MakeDescending(const StreamSpec&, uint64_t, const WriterTiming*) {
  return std::make_unique<DescendingStream>();
}

const char kThrowaway[] = "test-descending";

void RegisterThrowaway() {
  if (FindStream(kThrowaway) != nullptr) return;
  StreamInfo info;
  info.name = kThrowaway;
  info.key_width = 8;
  info.uses_clock = false;
  info.version_nibble = false;
  info.make = MakeDescending;
  info.help = "keys descending from 2^63 (a test's)";
  ASSERT_TRUE(RegisterStream(info).ok());
}

TEST(StreamRegistryTest, AStreamRegisteredThroughTheTableAloneRuns) {
  RegisterThrowaway();
  EXPECT_TRUE(IsKnownStreamName(kThrowaway));
  EXPECT_EQ(StreamKeyWidth(std::string(kThrowaway)), 8);
  EXPECT_NE(ValidStreamNames().find(kThrowaway), std::string::npos);
  EXPECT_NE(StreamOptionHelp().find(kThrowaway), std::string::npos);

  RunSpec spec;
  spec.stream.name = kThrowaway;
  spec.rows = 20000;
  spec.flush = false;
  spec.table = "CREATE TABLE t (id BIGINT NOT NULL, PRIMARY KEY (id))";
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->report.rows, 20000u);
  EXPECT_EQ(r->key_width, 8);
  // Descending keys split to the left (never to the right); the key-order
  // reference (the same rows appended by autoinc) was run beside it.
  ASSERT_GT(r->report.primary.n_leaf_pages, 1u);
  EXPECT_GT(r->report.primary.counters.splits_to_left, 0u);
  EXPECT_EQ(r->report.primary.counters.splits_to_right, 0u);
  EXPECT_GT(r->data_length_in_key_order, 0u);
}

TEST(StreamRegistryTest, RefusesADuplicateOrAnEmptyRow) {
  StreamInfo dup;
  dup.name = "uuidv4";
  dup.make = MakeDescending;
  EXPECT_TRUE(absl::IsAlreadyExists(RegisterStream(dup)));
  StreamInfo empty;
  empty.make = MakeDescending;
  EXPECT_TRUE(absl::IsInvalidArgument(RegisterStream(empty)));
  StreamInfo no_factory;
  no_factory.name = "test-no-factory";
  EXPECT_TRUE(absl::IsInvalidArgument(RegisterStream(no_factory)));
}

TEST(StreamRegistryTest, WriterStreamsAreWhatTheInterleavedStreamTakes) {
  // Two writers, round robin: the interleaved stream's keys are writer 0's
  // first key, writer 1's first key, writer 0's second, ...
  StreamSpec spec;
  spec.name = "uuidv7-counter";
  spec.writers = 2;
  spec.clock_skew_ms = 3;
  absl::StatusOr<std::unique_ptr<KeyStream>> all = MakeKeyStream(spec);
  ASSERT_TRUE(all.ok()) << all.status();
  std::unique_ptr<KeyStream> w0 = MakeWriterStream(spec, 0);
  std::unique_ptr<KeyStream> w1 = MakeWriterStream(spec, 1);
  ASSERT_NE(w0, nullptr);
  ASSERT_NE(w1, nullptr);
  for (int i = 0; i < 100; ++i) {
    Key a, b;
    ASSERT_TRUE((*all)->Next(&a));
    ASSERT_TRUE((i % 2 == 0 ? w0 : w1)->Next(&b));
    EXPECT_EQ(a, b) << "row " << i;
  }
}

// Every subcommand that takes --stream lists every stream of the table in
// its help (the built-in ones: the binary registers no test stream).
TEST(StreamRegistryTest, EveryHelpTextListsEveryStream) {
  for (const char* sub : {"run", "sweep", "explain", "keys", "bench", "measure"}) {
    const Output o = RunInnosim({sub, "--help"}, ::testing::TempDir() + "/help.err");
    ASSERT_EQ(o.exit_code, 0) << sub << ": " << o.err;
    ASSERT_NE(o.out.find("--stream"), std::string::npos) << sub;
    for (const StreamInfo& s : Streams()) {
      if (s.name.rfind("test-", 0) == 0) continue;
      EXPECT_NE(o.out.find(s.name), std::string::npos) << "innosim " << sub << " --help lacks stream " << s.name;
    }
  }
}

}  // namespace
}  // namespace innosim
