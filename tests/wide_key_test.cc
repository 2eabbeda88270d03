// Keys longer than 16 bytes (model/key.h): index pages keep heads and tails
// apart, and a secondary entry whose first 16 bytes tie is ordered by the
// rest, as cmp_data orders its bytes.
//
// The equivalence below is the contract: a wide index fed entries whose
// order lies in their tails builds, split for split, the tree the same
// index builds from entries whose order lies in their heads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/index_page.h"
#include "model/key.h"
#include "model/record_format.h"
#include "sim/runner.h"
#include "sim/uuid.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

// id BINARY(16) PRIMARY KEY, a BINARY(16), KEY (a): entries of 32 bytes.
TableDef WideTable() { return BinaryTableWithIndex(16, "a", 16); }

Key Random16(std::mt19937_64& rng) { return Key{rng(), rng()}; }

struct Loaded {
  EngineReport report;
  std::string verify;
};

// Inserts n rows; row i's entry is entry(pk, i). `fast`: the speed devices
// (model/fast/), which must change nothing.
template <class Entry>
Loaded Load(const EngineProfile& profile, uint64_t n, Entry entry, bool fast = true) {
  Engine e(profile, WideTable());
  if (!fast) e.set_fast_path(FastPath::Devices{false, false, false, false, false});
  std::mt19937_64 rng(7);
  for (uint64_t i = 0; i < n; ++i) {
    const Key pk = Random16(rng);
    EXPECT_TRUE(e.InsertRow(pk).ok());
    EXPECT_TRUE(e.InsertSecondary(0, entry(pk, i)).ok()) << "row " << i;
  }
  return Loaded{e.Report(), e.Verify()};
}

void ExpectSameTree(const IndexReport& a, const IndexReport& b) {
  EXPECT_EQ(a.counters.index_page_splits, b.counters.index_page_splits);
  EXPECT_EQ(a.counters.splits_middle, b.counters.splits_middle);
  EXPECT_EQ(a.counters.splits_to_right, b.counters.splits_to_right);
  EXPECT_EQ(a.counters.index_page_reorg_attempts, b.counters.index_page_reorg_attempts);
  EXPECT_EQ(a.n_leaf_pages, b.n_leaf_pages);
  EXPECT_EQ(a.size, b.size);
  EXPECT_EQ(a.height, b.height);
  EXPECT_DOUBLE_EQ(a.leaf_fill, b.leaf_fill);
}

TEST(WideKeyTest, OrderInTheTailBuildsTheTreeOrderInTheHeadBuilds) {
  for (const EngineProfile& profile : {EngineProfile::MySQL84(), EngineProfile::MariaDB1011()}) {
    // Every entry's column is the same 16 bytes; only the PK (the tail)
    // orders them. Against it, the PK as the head and zeros behind.
    const Key same_a{0x0123456789abcdefull, 0xfedcba9876543210ull};
    const Loaded tail_ordered =
        Load(profile, 60000, [&](const Key& pk, uint64_t) { return Key::Join(same_a.head(), pk.head()); });
    const Loaded head_ordered = Load(profile, 60000, [&](const Key& pk, uint64_t) { return pk; });
    ASSERT_EQ(tail_ordered.verify, "");
    ASSERT_EQ(head_ordered.verify, "");
    ASSERT_EQ(tail_ordered.report.secondary.size(), 1u);
    // Random order: thousands of splits, which a tie-breaking bug would move.
    EXPECT_GT(tail_ordered.report.secondary[0].counters.index_page_splits, 100u);
    ExpectSameTree(tail_ordered.report.secondary[0], head_ordered.report.secondary[0]);
  }
}

// The leaf route cache holds ranges by their first 16 bytes; keys that
// share them (and ascend in their tails within a few runs, where the cache
// hits) must reach the leaves the descent reaches.
TEST(WideKeyTest, SpeedDevicesChangeNothingOnWideKeys) {
  const EngineProfile profile = EngineProfile::MariaDB1011();
  auto entry = [](const Key& pk, uint64_t i) {
    return Key::Join(KeyHalf{i / 5000, 0}, KeyHalf{(i % 7) << 40 | (i / 7), pk.hi});
  };
  const Loaded fast = Load(profile, 60000, entry, true);
  const Loaded slow = Load(profile, 60000, entry, false);
  ASSERT_EQ(fast.verify, "");
  ASSERT_EQ(slow.verify, "");
  ExpectSameTree(fast.report.secondary[0], slow.report.secondary[0]);
  EXPECT_GT(fast.report.secondary[0].counters.splits_to_right, 10u);
}

TEST(WideKeyTest, EntriesEqualInTheirFirstSixteenBytesAreNotDuplicates) {
  Engine e(EngineProfile::MySQL84(), WideTable());
  const KeyHalf a{1, 2};
  for (uint64_t i = 1; i <= 3000; ++i) {
    ASSERT_TRUE(e.InsertRow(Key{i, 0}).ok());
    ASSERT_TRUE(e.InsertSecondary(0, Key::Join(a, KeyHalf{i, 0})).ok()) << i;
  }
  // The whole entry again is one.
  EXPECT_EQ(e.InsertSecondary(0, Key::Join(a, KeyHalf{1500, 0})).code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(e.Verify(), "");
}

TEST(WideKeyTest, PurgeFindsEntriesByTheirTails) {
  Engine e(EngineProfile::MariaDB1011(), WideTable());
  const KeyHalf a{9, 9};
  std::vector<Key> pks;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    pks.push_back(Random16(rng));
    ASSERT_TRUE(e.InsertRow(pks.back()).ok());
    ASSERT_TRUE(e.InsertSecondary(0, Key::Join(a, pks.back().head())).ok());
  }
  for (const Key& pk : pks) {
    const Key entry = Key::Join(a, pk.head());
    ASSERT_TRUE(e.DeleteRow(pk, {&entry, 1}).ok());
  }
  ASSERT_TRUE(e.EndDeletes().ok());
  EXPECT_EQ(e.Verify(), "");
  const EngineReport r = e.Report();
  EXPECT_EQ(r.secondary[0].n_leaf_pages, 1u) << "every entry purged leaves the root leaf";
  EXPECT_GT(r.secondary[0].counters.index_page_merge_successful, 0u);
}

// An index of 16-byte entries keeps no tails: an entry with one is refused,
// not cut.
TEST(WideKeyTest, ANarrowIndexRefusesALongerEntry) {
  Engine e(EngineProfile::MySQL84(), BinaryTableWithIndex(8, "a", 8));
  ASSERT_TRUE(e.InsertRow(Key{1, 0}).ok());
  EXPECT_TRUE(e.InsertSecondary(0, Key{2, 1}).ok());
  EXPECT_EQ(e.InsertSecondary(0, Key::Join(KeyHalf{3, 0}, KeyHalf{0, 1})).code(), absl::StatusCode::kInvalidArgument);
}

// A BINARY(20) primary key from a file20: key file (a SHA-1, say): keys
// that share their first 16 bytes and differ in the last 4 are distinct
// rows, and order as their bytes do. Against the same keys with those 4
// bytes moved to the front, the tree is the same.
TEST(WideKeyTest, ATwentyBytePrimaryKeyFromAKeyFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "innosim_wide_key_test";
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(21);
  std::string tail_ordered, head_ordered;
  for (int i = 0; i < 30000; ++i) {
    const Key random{rng(), rng()};
    const std::string last4 = KeyBytes(random, 4);
    tail_ordered += std::string(16, '\x5a') + last4;
    head_ordered += last4 + std::string(16, '\x5a');
  }
  auto run = [&](const std::string& name, const std::string& bytes) {
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    RunSpec spec;
    spec.stream.name = "file20:" + path;
    spec.rows = 30000;
    spec.flush = false;
    spec.table = "CREATE TABLE t (id BINARY(20) NOT NULL PRIMARY KEY, payload CHAR(100) CHARACTER SET ascii NOT NULL)";
    return innosim::Run(spec);
  };
  const absl::StatusOr<RunResult> tail = run("tail.bin", tail_ordered);
  const absl::StatusOr<RunResult> head = run("head.bin", head_ordered);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(tail.ok()) << tail.status();
  ASSERT_TRUE(head.ok()) << head.status();
  EXPECT_EQ(tail->key_width, 20);
  EXPECT_EQ(tail->report.rows, 30000u);
  EXPECT_GT(tail->report.primary.counters.splits_middle, 100u);
  ExpectSameTree(tail->report.primary, head->report.primary);
}

// Seed 004's idx_created (created_at DATETIME(3), then the BINARY(16) key)
// with ulid-monotonic keys: the rows of one millisecond share the time and
// the key's first bytes, and differ only in the key's last ones (its random
// part + 1). The 16-byte encoding tied nearly all of them; the exact
// 23-byte entry inserts every one.
TEST(WideKeyTest, UlidMonotonicEntriesOfOneMillisecondAllGoIn) {
  RunSpec spec;
  spec.stream.name = "ulid-monotonic";
  spec.rows = 50000;
  spec.flush = false;
  spec.rows_per_sec = 482000;  // 482 rows in each DATETIME(3) millisecond
  spec.table = "seed004";
  const absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->secondary_ties, 0u);
  ASSERT_EQ(r->report.secondary.size(), 1u);
  // 50,000 entries of 5 + 23 bytes fill about 90 pages.
  EXPECT_GT(r->report.secondary[0].n_leaf_pages, 80u);
  for (const std::string& w : r->warnings) EXPECT_EQ(w.find("tied"), std::string::npos) << w;
}

// The page alone: heads shared by runs of keys, tails in random order.
TEST(WideKeyTest, PageSearchesOrderByHeadThenTail) {
  PagePool pool;
  IndexPage page;
  page.Create(3, 0, 40, 16384, pool, /*wide_keys=*/true);
  std::mt19937_64 rng(5);
  std::vector<Key> in;
  for (int i = 0; i < 300; ++i) {
    const Key k = Key::Join(KeyHalf{rng() % 3, 0}, KeyHalf{rng() % 1000, rng()});
    bool dup = false;
    const int cursor = page.SearchInsertCursor(k, &dup, /*try_shortcut=*/i % 2 == 0);
    if (dup) continue;
    if (!page.InsertAfter(cursor, k, 0, pool)) break;
    in.push_back(k);
  }
  std::sort(in.begin(), in.end());
  ASSERT_EQ(page.n_recs(), static_cast<int>(in.size()));
  for (int i = 0; i < page.n_recs(); ++i) ASSERT_EQ(page.key(i), in[static_cast<size_t>(i)]) << i;
  EXPECT_EQ(page.Verify(), "");
  for (size_t i = 0; i < in.size(); ++i) {
    bool dup = false;
    EXPECT_EQ(page.SearchInsertCursor(in[i], &dup), static_cast<int>(i) - 1);
    EXPECT_TRUE(dup);
    EXPECT_EQ(page.SearchLE(in[i]), static_cast<int>(i));
    Key above = in[i];
    ++above.tail_lo;  // between in[i] and in[i + 1] unless it is in[i + 1]
    const bool next_is_above = i + 1 < in.size() && in[i + 1] == above;
    EXPECT_EQ(page.SearchLE(above), static_cast<int>(next_is_above ? i + 1 : i));
  }
  page.Release(pool);
}

// FromBytes and ToBytes read and write whole words; every width 0..32 and
// every byte value place the bytes where the byte-by-byte definition does
// (byte i is bits 63-8*(i%8) .. 56-8*(i%8) of word i/8), and a width past
// kMaxBytes is cut to it.
TEST(WideKeyTest, BytesMapToWordsBigEndianAtEveryWidth) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    uint8_t bytes[40];
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    for (size_t width = 0; width <= 40; ++width) {
      const Key k = Key::FromBytes(bytes, width);
      uint64_t want[4] = {0, 0, 0, 0};
      for (size_t i = 0; i < std::min<size_t>(width, Key::kMaxBytes); ++i) {
        want[i / 8] |= uint64_t{bytes[i]} << (56 - 8 * (i % 8));
      }
      ASSERT_EQ(k.hi, want[0]) << width;
      ASSERT_EQ(k.lo, want[1]) << width;
      ASSERT_EQ(k.tail_hi, want[2]) << width;
      ASSERT_EQ(k.tail_lo, want[3]) << width;
      uint8_t out[40];
      std::fill(std::begin(out), std::end(out), uint8_t{0xA5});
      k.ToBytes(out, width);
      const size_t kept = std::min<size_t>(width, Key::kMaxBytes);
      for (size_t i = 0; i < kept; ++i) ASSERT_EQ(out[i], bytes[i]) << width << " byte " << i;
      for (size_t i = kept; i < 40; ++i) ASSERT_EQ(out[i], 0xA5) << "wrote past " << kept;
    }
  }
}

}  // namespace
}  // namespace innosim
