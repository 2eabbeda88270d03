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
#include "tests/test_util.h"
#include "tests/tree_streams.h"

namespace innosim {
namespace {


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
  settings.innodb_buffer_pool_size = PoolBytesForFrames(settings, 40);
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


}  // namespace
}  // namespace innosim
