// PostgreSQL 15's own figures for the key orders the model is checked
// against: 1,000,000 rows loaded in a given order into a private server
// (tools/pg_private_server.h, tools/pg_load.h), then 10,000 more of the same
// kind. Each test prints its statements and pgstatindex figures (lines
// starting "pg-ground-truth") and asserts what can be worked out from
// PostgreSQL's rules without running it (see pg_private_server_test.cc for
// the rightmost-split derivation), or bounds that a wrong load would break.
// A server test (label `server`).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_load.h"
#include "tools/pg_private_server.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 1000000;
constexpr uint64_t kMoreRows = 10000;

class PgGroundTruthTest : public PrivatePgTest<PgGroundTruthTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.shared_buffers = "256MB";  // every table of the suite stays in memory
    return o;
  }

 protected:
  // Loads `first` with create_sql, prints, appends `more`, prints; returns
  // both read-backs.
  static std::pair<PgLoadResult, PgLoadResult> LoadTwice(const std::string& name, PgLoadOptions o,
                                                         const std::vector<Key>& first, const std::vector<Key>& more) {
    o.database = name;
    absl::StatusOr<PgLoadResult> a = PgLoadKeys(server().connection_options(), o, first);
    EXPECT_TRUE(a.ok()) << a.status();
    if (!a.ok()) return {};
    Print(name, o, *a);
    o.append = true;
    absl::StatusOr<PgLoadResult> b = PgLoadKeys(server().connection_options(), o, more);
    EXPECT_TRUE(b.ok()) << b.status();
    if (!b.ok()) return {};
    Print(name + "+10k", o, *b);
    return {*a, *b};
  }

  static void Print(const std::string& name, const PgLoadOptions& o, const PgLoadResult& r) {
    std::cout << "pg-ground-truth " << name << ": " << (o.append ? "(appended) " : "") << o.create_sql << "; rows "
              << r.rows << " (batches of " << o.batch_rows << " per COPY); heap " << r.table << " relpages "
              << r.heap_relpages << " pg_relation_size " << r.heap_relation_size << "\n";
    for (const PgIndexStats& ix : r.indexes) {
      std::cout << "pg-ground-truth " << name << ": pgstatindex('" << ix.name << "') version " << ix.version
                << " tree_level " << ix.tree_level << " index_size " << ix.index_size << " ("
                << ix.index_size / r.block_size << " blocks) root_block_no " << ix.root_block_no
                << " internal_pages " << ix.internal_pages << " leaf_pages " << ix.leaf_pages << " empty_pages "
                << ix.empty_pages << " deleted_pages " << ix.deleted_pages << " avg_leaf_density "
                << ix.avg_leaf_density << " leaf_fragmentation " << ix.leaf_fragmentation << " pg_relation_size "
                << ix.relation_size << "\n";
    }
    std::cout.flush();
  }

};

// splitmix64 (Steele, Lea, Flood 2014): the seeded random uuids.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A version-4 uuid (RFC 9562: version nibble 4, variant bits 10).
Key RandomUuidV4(uint64_t* state) {
  const uint64_t hi = SplitMix64(state);
  const uint64_t lo = SplitMix64(state);
  return Key{(hi & ~0xf000ull) | 0x4000ull, (lo & ~(3ull << 62)) | (2ull << 62)};
}

std::vector<Key> Bigints(uint64_t first, uint64_t n) {
  std::vector<Key> keys;
  for (uint64_t i = 0; i < n; ++i) keys.push_back(Key::FromU64(first + i));
  return keys;
}

// Keys a rightmost leaf keeps at each split, and how many a leaf takes,
// for fixed-size distinct keys inserted in ascending order (the rule
// derived in pg_private_server_test.cc, repeated here in closed form).
int64_t AscendingLeaves(int tuple_bytes, int64_t n) {
  const int usable = 8192 - 24 - 16;
  const int item = tuple_bytes + 4;
  const int full = (usable - 4 - tuple_bytes) / item + 1;
  int best = 0;
  int best_delta = 1 << 30;
  for (int k = 1; k <= full; ++k) {
    const int leftfree = usable - item * k - (item + 8);
    const int rightfree = usable - item * (full - k) - item;
    if (leftfree < 0 || rightfree < 0) continue;
    int delta = static_cast<int16_t>(0.9 * leftfree - 0.1 * rightfree);
    delta = delta < 0 ? -delta : delta;
    if (delta < best_delta) best_delta = delta, best = k;
  }
  return n <= full ? 1 : (n - full + best - 1) / best + 1;
}

TEST_F(PgGroundTruthTest, BigintAscending) {
  PgLoadOptions o;
  o.create_sql = "CREATE TABLE t(id bigint PRIMARY KEY)";
  o.batch_rows = 10000;
  auto [a, b] = LoadTwice("bigint_asc", o, Bigints(1, kRows), Bigints(kRows + 1, kMoreRows));
  ASSERT_EQ(a.indexes.size(), 1u);
  ASSERT_EQ(b.indexes.size(), 1u);
  EXPECT_EQ(a.rows, 1000000);
  EXPECT_EQ(a.indexes[0].leaf_pages, AscendingLeaves(16, kRows));
  EXPECT_EQ(b.indexes[0].leaf_pages, AscendingLeaves(16, kRows + kMoreRows));
  // 226 heap tuples of 32 bytes a page (pg_private_server_test.cc).
  EXPECT_EQ(a.heap_relation_size, static_cast<int64_t>((kRows + 225) / 226 * 8192));
  EXPECT_EQ(b.heap_relation_size, static_cast<int64_t>((kRows + kMoreRows + 225) / 226 * 8192));
}

TEST_F(PgGroundTruthTest, UuidAscending) {
  // uuid i = 00000000-0000-0000-0000-<i in 12 hex digits>, i = 1, 2, ...
  std::vector<Key> first, more;
  for (uint64_t i = 1; i <= kRows; ++i) first.push_back(Key{0, i});
  for (uint64_t i = kRows + 1; i <= kRows + kMoreRows; ++i) more.push_back(Key{0, i});
  PgLoadOptions o;
  o.create_sql = "CREATE TABLE t(id uuid PRIMARY KEY)";
  o.key_width = 16;
  o.batch_rows = 10000;
  auto [a, b] = LoadTwice("uuid_asc", o, first, more);
  ASSERT_EQ(a.indexes.size(), 1u);
  ASSERT_EQ(b.indexes.size(), 1u);
  // A uuid leaf tuple: MAXALIGN(8 + 16) = 24 bytes.
  EXPECT_EQ(a.indexes[0].leaf_pages, AscendingLeaves(24, kRows));
  EXPECT_EQ(b.indexes[0].leaf_pages, AscendingLeaves(24, kRows + kMoreRows));
  // Heap tuple 24 + 16 = 40 bytes, + 4: 8168 - 44n - 4 >= 40 up to n = 184,
  // so 185 rows a page.
  EXPECT_EQ(a.heap_relation_size, static_cast<int64_t>((kRows + 184) / 185 * 8192));
}

TEST_F(PgGroundTruthTest, UuidV4Random) {
  uint64_t state = 42;  // splitmix64 seed
  std::vector<Key> first, more;
  for (uint64_t i = 0; i < kRows; ++i) first.push_back(RandomUuidV4(&state));
  for (uint64_t i = 0; i < kMoreRows; ++i) more.push_back(RandomUuidV4(&state));
  PgLoadOptions o;
  o.create_sql = "CREATE TABLE t(id uuid PRIMARY KEY)";
  o.key_width = 16;
  o.batch_rows = 10000;
  auto [a, b] = LoadTwice("uuid_v4_seed42", o, first, more);
  ASSERT_EQ(a.indexes.size(), 1u);
  ASSERT_EQ(b.indexes.size(), 1u);
  EXPECT_EQ(a.rows, 1000000);
  // Random inserts split 50:50 (not rightmost: usemult false): leaves
  // between full (290 keys) and half full (145), never as packed as the
  // ascending load's 90%.
  EXPECT_GT(a.indexes[0].leaf_pages, AscendingLeaves(24, kRows));
  EXPECT_LT(a.indexes[0].leaf_pages, static_cast<int64_t>(kRows / 145));
  EXPECT_GT(a.indexes[0].avg_leaf_density, 50.0);
  EXPECT_LT(a.indexes[0].avg_leaf_density, 90.0);
  EXPECT_GE(b.indexes[0].leaf_pages, a.indexes[0].leaf_pages);
  // The heap does not care about the key order.
  EXPECT_EQ(a.heap_relation_size, static_cast<int64_t>((kRows + 184) / 185 * 8192));
}

// A non-unique index with ten rows per value: deduplication
// (_bt_dedup_pass) folds each value's heap TIDs into posting lists, so it
// needs fewer leaves than the unique bigint primary key beside it.
TEST_F(PgGroundTruthTest, DuplicatesTenPerParent) {
  PgLoadOptions o;
  o.create_sql =
      "CREATE TABLE c(id bigint PRIMARY KEY, parent_id bigint GENERATED ALWAYS AS ((id + 9) / 10) STORED); "
      "CREATE INDEX ON c(parent_id)";
  o.batch_rows = 10000;
  auto [a, b] = LoadTwice("dup10_asc", o, Bigints(1, kRows), Bigints(kRows + 1, kMoreRows));
  ASSERT_EQ(a.indexes.size(), 2u);
  ASSERT_EQ(a.indexes[0].name, "c_parent_id_idx");
  ASSERT_EQ(a.indexes[1].name, "c_pkey");
  EXPECT_EQ(a.indexes[1].leaf_pages, AscendingLeaves(16, kRows));
  EXPECT_LT(a.indexes[0].leaf_pages, a.indexes[1].leaf_pages / 2);
  EXPECT_EQ(b.rows, static_cast<int64_t>(kRows + kMoreRows));
}

// The same table with the rows in a seeded random order (a Fisher-Yates
// shuffle of 1..1M by splitmix64, seed 7): each parent's ten rows arrive
// far apart.
TEST_F(PgGroundTruthTest, DuplicatesTenPerParentShuffled) {
  std::vector<Key> keys = Bigints(1, kRows + kMoreRows);
  uint64_t state = 7;
  for (size_t i = keys.size() - 1; i > 0; --i) std::swap(keys[i], keys[SplitMix64(&state) % (i + 1)]);
  std::vector<Key> first(keys.begin(), keys.begin() + kRows);
  std::vector<Key> more(keys.begin() + kRows, keys.end());
  PgLoadOptions o;
  o.create_sql =
      "CREATE TABLE c(id bigint PRIMARY KEY, parent_id bigint GENERATED ALWAYS AS ((id + 9) / 10) STORED); "
      "CREATE INDEX ON c(parent_id)";
  o.batch_rows = 10000;
  auto [a, b] = LoadTwice("dup10_shuffled_seed7", o, first, more);
  ASSERT_EQ(a.indexes.size(), 2u);
  EXPECT_EQ(a.rows, 1000000);
  EXPECT_GT(a.indexes[1].leaf_pages, AscendingLeaves(16, kRows));
  EXPECT_EQ(b.rows, static_cast<int64_t>(kRows + kMoreRows));
}

}  // namespace
}  // namespace innosim
