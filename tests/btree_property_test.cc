// Property tests for BTree through Engine: random insert streams with every
// invariant checked (Engine::Verify: sorted keys, per-page byte accounting,
// directory ownership, parent separators, sibling links, segments) after
// EVERY insert; at the end the in-order traversal equals the sorted set of
// inserted keys. Duplicates are refused with AlreadyExists and change
// nothing. Fixed seeds: the tests are deterministic.
//
// Small (4 KiB) pages make splits, root raises, right-sibling shortcuts and
// parent merges happen after a few hundred rows.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "model/btree.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/flush_model.h"
#include "model/page_events.h"
#include "model/record_format.h"
#include "model/server_settings.h"

namespace innosim {
namespace {

enum class Stream { kUniform, kUuidV7Windows, kDescending, kInterleavedRuns };

std::string StreamName(Stream s) {
  switch (s) {
    case Stream::kUniform: return "Uniform";
    case Stream::kUuidV7Windows: return "UuidV7Windows";
    case Stream::kDescending: return "Descending";
    case Stream::kInterleavedRuns: return "InterleavedRuns";
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

Snapshot Take(const Engine& e) {
  Snapshot s;
  const IndexCounters& c = e.primary().counters();
  s.counters = {c.index_page_splits,   c.index_page_reorg_attempts, c.index_page_reorg_successful,
                c.index_page_merge_attempts, c.index_page_merge_successful, c.splits_to_right,
                c.splits_to_left,      c.splits_middle,             c.splits_sure,
                c.right_sibling_inserts, c.root_raises,             c.pages_allocated,
                c.pages_freed};
  for (const LevelCensus& l : e.primary().Census()) s.levels.emplace_back(l.pages, l.records, l.data_bytes);
  e.primary().ForEachKey([&](const Key& k) { s.keys.push_back(k); });
  s.size = e.primary().size();
  s.rows = e.rows();
  return s;
}

using Param = std::tuple<Stream, uint32_t, bool>;  // stream, page size, MariaDB

// Every stream on small and default pages, with both engine profiles.
auto AllParams() {
  return ::testing::Combine(::testing::Values(Stream::kUniform, Stream::kUuidV7Windows, Stream::kDescending,
                                              Stream::kInterleavedRuns),
                            ::testing::Values(4096u, 16384u), ::testing::Bool());
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  return StreamName(std::get<0>(info.param)) + "_" + std::to_string(std::get<1>(info.param)) +
         (std::get<2>(info.param) ? "_MariaDB" : "_MySQL");
}

EngineProfile ProfileFor(bool mariadb, uint32_t page_size) {
  EngineProfile profile = mariadb ? EngineProfile::MariaDB1011() : EngineProfile::MySQL84();
  profile.page_size = page_size;
  return profile;
}

class BTreePropertyTest : public ::testing::TestWithParam<Param> {};

TEST_P(BTreePropertyTest, VerifyAfterEveryInsertAndTraversalIsSorted) {
  const auto [stream, page_size, mariadb] = GetParam();
  const EngineProfile profile = ProfileFor(mariadb, page_size);
  Engine e(profile, Seed000Table(16));
  Generator gen(stream, 20260101 + static_cast<uint64_t>(stream));
  std::set<Key> inserted;
  const int n = page_size == 4096 ? 12000 : 6000;
  std::mt19937_64 pick(99);
  for (int i = 0; i < n; ++i) {
    const Key k = gen.Next();
    const bool fresh = inserted.insert(k).second;
    const absl::Status s = e.InsertRow(k);
    if (fresh) {
      ASSERT_TRUE(s.ok()) << "row " << i << ": " << s;
    } else {
      ASSERT_TRUE(absl::IsAlreadyExists(s)) << "row " << i;
    }
    const std::string v = e.Verify();
    ASSERT_EQ(v, "") << "after row " << i;
    // Now and then, a duplicate of an earlier key: refused, nothing changes.
    if (i % 199 == 0) {
      auto it = inserted.begin();
      std::advance(it, static_cast<long>(pick() % inserted.size()));
      const Snapshot before = Take(e);
      const absl::Status d = e.InsertRow(*it);
      EXPECT_TRUE(absl::IsAlreadyExists(d)) << d;
      EXPECT_TRUE(Take(e) == before) << "a refused duplicate changed the tree";
    }
  }
  std::vector<Key> keys;
  e.primary().ForEachKey([&](const Key& k) { keys.push_back(k); });
  EXPECT_EQ(keys, std::vector<Key>(inserted.begin(), inserted.end()));
  EXPECT_EQ(e.rows(), inserted.size());
  const EngineReport r = e.Report();
  EXPECT_EQ(r.primary.levels.back().records, inserted.size());
  EXPECT_GE(r.primary.size, r.primary.used_pages);
  EXPECT_EQ(r.primary.n_leaf_pages, r.primary.levels.back().pages);
  // The load was big enough to exercise splits and a root raise.
  EXPECT_GE(r.primary.height, 2u);
  EXPECT_GT(r.primary.counters.index_page_splits, 0u);
}

// The same streams with the flush model on a pool of 40 pages, so that
// pages are evicted, read back and written while the tree grows: the whole
// model (tree, tablespace, buffer pool, redo, page cleaner) verified after
// every insert.
TEST_P(BTreePropertyTest, WithTheFlushModelOnASmallPoolVerifyAfterEveryInsert) {
  const auto [stream, page_size, mariadb] = GetParam();
  ServerSettings settings = ServerSettings::Defaults(mariadb ? ServerFlavor::kMariaDb1011 : ServerFlavor::kMySql84);
  settings.innodb_page_size = page_size;
  settings.innodb_buffer_pool_size = uint64_t{40} * page_size;
  FlushModel flush(settings);
  Engine e(ProfileFor(mariadb, page_size), Seed000Table(16), &flush);
  Generator gen(stream, 20260101 + static_cast<uint64_t>(stream));
  const int n = page_size == 4096 ? 8000 : 4000;
  for (int i = 0; i < n; ++i) {
    (void)e.InsertRow(gen.Next());
    if ((i + 1) % 50 == 0) e.CommitTrx();
    flush.Tick(static_cast<double>(i + 1) / 2000);
    ASSERT_EQ(e.Verify(), "") << "after row " << i;
  }
  e.CommitTrx();
  flush.FlushAll();
  EXPECT_EQ(e.Verify(), "");
  EXPECT_TRUE(e.status().ok()) << e.status();
  EXPECT_EQ(flush.buffer_pool().dirty_pages(), 0u);
  EXPECT_GT(flush.counters().Innodb_pages_written, 0u);
  EXPECT_GT(flush.buffer_pool().stats().evicted, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Streams, BTreePropertyTest,
    AllParams(), ParamName);

TEST(BTreePropertyExtraTest, InterleavedRunsUseTheRightSiblingShortcut) {
  // The premise of the stream above: runs appending into the middle of the
  // key space hit full pages whose right sibling has room.
  EngineProfile profile = EngineProfile::MySQL84();
  profile.page_size = 4096;
  Engine e(profile, Seed000Table(16));
  Generator gen(Stream::kInterleavedRuns, 5);
  for (int i = 0; i < 4000; ++i) ASSERT_TRUE(e.InsertRow(gen.Next()).ok());
  EXPECT_GT(e.primary().counters().right_sibling_inserts, 0u);
  EXPECT_EQ(e.Verify(), "");
}

TEST(BTreePropertyExtraTest, AutoincKeysOn8BytePkVerifyThroughout) {
  EngineProfile profile = EngineProfile::MySQL84();
  profile.page_size = 4096;
  Engine e(profile, Seed000Table(8));
  std::mt19937_64 rng(3);
  std::set<uint64_t> in;
  for (int i = 0; i < 3000; ++i) {
    // Mostly ascending with occasional out-of-order rows (late commits).
    const uint64_t k = (rng() % 10 == 0 && i > 10) ? static_cast<uint64_t>(i) * 10 - 55 : uint64_t(i) * 10;
    const bool fresh = in.insert(k).second;
    const absl::Status s = e.InsertRow(Key::FromU64(k));
    ASSERT_EQ(s.ok(), fresh) << i;
    ASSERT_EQ(e.Verify(), "") << i;
  }
  std::vector<Key> keys;
  e.primary().ForEachKey([&](const Key& k) { keys.push_back(k); });
  ASSERT_EQ(keys.size(), in.size());
  size_t j = 0;
  for (uint64_t k : in) EXPECT_EQ(keys[j++], Key::FromU64(k));
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

class RouteCacheTest : public ::testing::TestWithParam<Param> {};

// The leaf route cache skips descents; it must change nothing: not the tree,
// not the counters, not one page access of the buffer pool's view.
TEST_P(RouteCacheTest, SameTreeAndSamePageEventsWithAndWithoutIt) {
  const auto [stream, page_size, mariadb] = GetParam();
  EnginePair e(ProfileFor(mariadb, page_size));
  e.without.set_route_cache(false);
  Generator a(stream, 77), b(stream, 77);
  for (int i = 0; i < 20000; ++i) {
    const Key k = a.Next();
    ASSERT_EQ(k, b.Next());
    ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(k, i));
  }
  e.ExpectSameRuns();
  EXPECT_GT(e.with.primary().counters().index_page_splits, 10u);
}

INSTANTIATE_TEST_SUITE_P(
    Streams, RouteCacheTest,
    AllParams(), ParamName);

// Leaves whose record storage exceeds what their records need by a 64-byte
// pool granule or more.
int SlackLeaves(const Engine& e) {
  const PageStore& store = e.page_store();
  uint32_t pn = e.primary().root();
  while (!store.page(pn).is_leaf()) pn = store.page(pn).child(0);
  int slack = 0;
  for (; pn != kFilNull; pn = store.page(pn).next()) {
    const IndexPage& p = store.page(pn);
    slack += static_cast<int>(p.capacity() >= static_cast<uint32_t>(p.n_recs()) + 4);
  }
  return slack;
}

// While the route cache finds the leaves, a split's pages take their whole
// capacity at once, and a leaf is compacted once 64 newer leaves have
// split: only the leaves that split lately keep room to spare. Without the
// cache (blocks grown by steps of 32 records) most leaves do. The trees
// are the same (RouteCacheTest).
TEST(BlockStorageTest, ColdLeavesOfATimeOrderedStreamAreCompacted) {
  EnginePair e(ProfileFor(false, 16384));
  e.without.set_route_cache(false);
  Generator g(Stream::kUuidV7Windows, 79);
  for (int i = 0; i < 40000; ++i) ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(g.Next(), i));
  e.ExpectSameRuns();
  const uint64_t leaves = e.with.primary().n_leaf_pages();
  ASSERT_GT(leaves, 400u);
  EXPECT_LE(SlackLeaves(e.with), 64);
  EXPECT_GT(SlackLeaves(e.without), static_cast<int>(leaves / 2));
}

class PrefetchTest : public ::testing::TestWithParam<Param> {};

// Engine::PrefetchRow only hints: announcing every key two rows ahead (and,
// now and then, a key that never comes or no key at all) must change nothing
// either, while on scattered keys most leaves come from the announced routes.
TEST_P(PrefetchTest, SameTreeAndSamePageEventsWithAndWithoutHints) {
  const auto [stream, page_size, mariadb] = GetParam();
  EnginePair e(ProfileFor(mariadb, page_size));
  Generator a(stream, 78), ahead(stream, 78);
  std::mt19937_64 noise(5);
  constexpr int kRows = 20000;
  std::vector<Key> keys;
  for (int i = 0; i < kRows + 2; ++i) keys.push_back(ahead.Next());
  e.with.PrefetchRow(keys[0]);
  e.with.PrefetchRow(keys[1]);
  for (int i = 0; i < kRows; ++i) {
    const Key k = a.Next();
    ASSERT_EQ(k, keys[i]);
    if (i % 89 != 0) e.with.PrefetchRow(keys[i + 2]);
    if (i % 97 == 0) e.with.PrefetchRow(Key{noise(), noise()});
    ASSERT_NO_FATAL_FAILURE(e.InsertIntoBoth(k, i));
  }
  e.ExpectSameRuns();
  if (stream == Stream::kUniform) {
    EXPECT_GT(e.with.primary().prefetched_routes_taken(), kRows / 2);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Streams, PrefetchTest,
    AllParams(), ParamName);

}  // namespace
}  // namespace innosim
