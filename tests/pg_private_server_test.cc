// The private PostgreSQL (tools/pg_private_server.h), the libpq adapter
// (tools/pg_connection.h) and the loader (tools/pg_load.h) against a real
// PostgreSQL 15. A server test (label `server`): every test fails, saying
// what to install, where postgresql-15 is missing.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_connection.h"
#include "tools/pg_load.h"
#include "tools/pg_private_server.h"

namespace innosim {
namespace {

// One server for the suite, with shared_buffers of 64MB (not the default
// 128MB, so that reading it back proves the -c options arrived).
class PgServerTest : public PrivatePgTest<PgServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.shared_buffers = "64MB";
    o.max_wal_size = "2GB";
    o.checkpoint_timeout = "15min";
    return o;
  }

 protected:
  static std::unique_ptr<PgConnection> Connect(const std::string& db = "postgres") {
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server().connection_options(db));
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

};

std::vector<Key> AscendingBigints(uint64_t first, uint64_t n) {
  std::vector<Key> keys;
  keys.reserve(n);
  for (uint64_t i = 0; i < n; ++i) keys.push_back(Key::FromU64(first + i));
  return keys;
}

TEST_F(PgServerTest, HasNoTcpListenerAndItsSocketIsInItsFolder) {
  std::unique_ptr<PgConnection> c = Connect();
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::string> listen = c->QueryString("SHOW listen_addresses");
  ASSERT_TRUE(listen.ok()) << listen.status();
  EXPECT_EQ(*listen, "");
  absl::StatusOr<std::string> dirs = c->QueryString("SHOW unix_socket_directories");
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(*dirs, server().socket_dir());
  struct stat st;
  ASSERT_EQ(::stat(server().socket_path().c_str(), &st), 0) << server().socket_path();
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(server().socket_path().rfind(server().dir() + "/", 0), 0u);
  EXPECT_GE(c->server_version(), 150000);
  EXPECT_LT(c->server_version(), 160000);
}

TEST_F(PgServerTest, ReadsBackTheSettingsItWasGiven) {
  std::unique_ptr<PgConnection> c = Connect();
  ASSERT_NE(c, nullptr);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"shared_buffers", "64MB"}, {"max_wal_size", "2GB"}, {"checkpoint_timeout", "15min"},
      {"autovacuum", "off"},      {"fsync", "off"},        {"port", "5432"}};
  for (const auto& [name, value] : want) {
    absl::StatusOr<std::string> v = c->QueryString("SHOW " + name);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(*v, value) << name;
    // And it came from the command line, not postgresql.conf's defaults.
    absl::StatusOr<std::string> source =
        c->QueryString("SELECT source FROM pg_settings WHERE name = " + c->QuoteLiteral(name));
    ASSERT_TRUE(source.ok()) << source.status();
    EXPECT_EQ(*source, "command line") << name;
  }
}

TEST_F(PgServerTest, StatementErrorsAreOneLineWithTheSqlstate) {
  std::unique_ptr<PgConnection> c = Connect();
  ASSERT_NE(c, nullptr);
  absl::Status s = c->Exec("SELECT * FROM innosim_no_such_table");
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_NE(s.message().find("[SQLSTATE 42P01]"), absl::string_view::npos) << s;
  EXPECT_EQ(s.message().find('\n'), absl::string_view::npos) << s;
  PgConnectionOptions o = server().connection_options("innosim_no_such_db");
  absl::StatusOr<std::unique_ptr<PgConnection>> bad = PgConnection::Connect(o);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kNotFound) << bad.status();
  EXPECT_NE(bad.status().message().find("innosim_no_such_db"), absl::string_view::npos) << bad.status();
}

TEST_F(PgServerTest, LoadsTenThousandBigintKeysIntoATree) {
  PgLoadOptions o;
  o.database = "load10k";
  o.create_sql = "CREATE TABLE t(id bigint PRIMARY KEY)";
  absl::StatusOr<PgLoadResult> r = PgLoadKeys(server().connection_options(), o, AscendingBigints(1, 10000));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->table, "t");
  EXPECT_EQ(r->rows, 10000);
  EXPECT_EQ(r->rows_loaded, 10000);
  EXPECT_EQ(r->block_size, 8192);
  ASSERT_EQ(r->indexes.size(), 1u);
  EXPECT_EQ(r->indexes[0].name, "t_pkey");
  EXPECT_GT(r->indexes[0].leaf_pages, 0);
  EXPECT_GE(r->indexes[0].tree_level, 1);
  EXPECT_GT(r->heap_relpages, 0);
  EXPECT_EQ(r->heap_relation_size, r->heap_relpages * 8192);
  // The keys arrived in the order given: the heap holds them by ctid.
  std::unique_ptr<PgConnection> c = Connect("load10k");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<int64_t> out_of_order = c->QueryInt(
      "SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY ctid) AS prev FROM t) s WHERE id <> prev + 1");
  ASSERT_TRUE(out_of_order.ok()) << out_of_order.status();
  EXPECT_EQ(*out_of_order, 0);
}

TEST_F(PgServerTest, AppendsToALoadedTableWithAPayload) {
  PgLoadOptions o;
  o.database = "append";
  o.create_sql = "CREATE TABLE p(id uuid PRIMARY KEY, v text)";
  o.key_width = 16;
  o.payload_bytes = 100;
  o.batch_rows = 7;
  std::vector<Key> keys = {Key{0x0123456789abcdefull, 0xfedcba9876543210ull}, Key{1, 2}};
  absl::StatusOr<PgLoadResult> r = PgLoadKeys(server().connection_options(), o, keys);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows, 2);
  o.append = true;
  std::vector<Key> more;
  for (uint64_t i = 0; i < 20; ++i) more.push_back(Key{7, i});
  r = PgLoadKeys(server().connection_options(), o, more);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows, 22);
  EXPECT_EQ(r->rows_loaded, 20);
  std::unique_ptr<PgConnection> c = Connect("append");
  ASSERT_NE(c, nullptr);
  absl::StatusOr<std::string> v =
      c->QueryString("SELECT length(v) || ' ' || id FROM p ORDER BY ctid LIMIT 1");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, "100 01234567-89ab-cdef-fedc-ba9876543210");
}

// A unique B-tree on bigint filled in ascending order, against PostgreSQL's
// rules worked out here from its sources (PostgreSQL 15, 8 kB pages):
//
// Page: 8192 bytes, less the page header (SizeOfPageHeaderData = 24) and
// the B-tree special space (MAXALIGN(sizeof(BTPageOpaqueData)) = 16):
// 8152 bytes for line pointers and tuples (_bt_findsplitloc's leftspace).
// A bigint leaf tuple is MAXALIGN(IndexTupleData 8 + int8 8) = 16 bytes,
// plus a 4-byte line pointer: 20 bytes a key.
//
// A tuple goes in while PageGetFreeSpace (free bytes less one line
// pointer) is at least the tuple's size (_bt_findinsertloc): with n keys,
// 8152 - 20n - 4 >= 16, so a leaf takes n <= 406 + 1 = 407 keys; the
// 408th splits it. No deduplication runs first: the index is unique and the
// keys distinct (_bt_delete_or_dedup_one_page dedups a unique index only
// after finding a duplicate), and no tuple is LP_DEAD.
//
// The split (_bt_findsplitloc): the rightmost leaf uses fillfactormult =
// 90/100 (BTREE_DEFAULT_FILLFACTOR). For a split leaving k old keys on the
// left and the new key on the right (_bt_recsplitloc):
//   leftfree  = 8152 - 20k - (20 + MAXALIGN(sizeof(ItemPointerData)) = 8)
//               (the first right tuple becomes the left's high key, counted
//               with room for a heap TID)
//   rightfree = 8152 - 20(407 - k) - 20
// and the split with the smallest |0.9 leftfree - 0.1 rightfree| (truncated
// to int16, _bt_deltasortsplits) comes first. Its penalty (the attributes
// needed to tell the last left key from the first right one,
// _bt_split_penalty) is 1, the perfect penalty of distinct keys
// (_bt_strategy), so _bt_bestsplitloc takes it: k = 366. So every leaf
// but the rightmost keeps 366 keys and the new rightmost starts with
// 407 - 366 + 1 = 42. The routine below computes this rather than taking
// the numbers on trust.
struct AscendingLeafRule {
  int usable = 8192 - 24 - 16;
  int item = 0;         // MAXALIGNed tuple + line pointer
  int full = 0;         // keys a leaf takes before the next one splits it
  int split_left = 0;   // keys left behind by a rightmost split
};

AscendingLeafRule DeriveAscendingLeafRule(int tuple_bytes, double fillfactor) {
  AscendingLeafRule r;
  r.item = tuple_bytes + 4;
  while (r.usable - r.item * r.full - 4 >= tuple_bytes) ++r.full;
  // The page holds r.full keys; the new one (the largest) is at its end.
  int best_delta = 1 << 30;
  int best_k = -1;
  bool tie = false;
  for (int k = 1; k <= r.full; ++k) {
    const int leftfree = r.usable - r.item * k - (r.item + 8);
    const int rightfree = r.usable - r.item * (r.full - k) - r.item;
    if (leftfree < 0 || rightfree < 0) continue;
    int delta = static_cast<int16_t>(fillfactor * leftfree - (1.0 - fillfactor) * rightfree);
    if (delta < 0) delta = -delta;
    if (delta < best_delta) {
      best_delta = delta;
      best_k = k;
      tie = false;
    } else if (delta == best_delta) {
      tie = true;
    }
  }
  EXPECT_FALSE(tie) << "two split points tie; qsort's order would decide";
  r.split_left = best_k;
  return r;
}

// Leaves after `n` ascending keys: the rightmost fills to `full`, then
// splits leaving `split_left` behind.
struct AscendingLeaves {
  int64_t leaves = 1;
  int64_t rightmost_keys = 0;
};
AscendingLeaves CountAscendingLeaves(const AscendingLeafRule& r, int64_t n) {
  AscendingLeaves a;
  for (int64_t i = 0; i < n; ++i) {
    if (a.rightmost_keys == r.full) {
      ++a.leaves;
      a.rightmost_keys = r.full - r.split_left;
    }
    ++a.rightmost_keys;
  }
  return a;
}

TEST_F(PgServerTest, AscendingBigintLeavesFollowTheRightmostSplitRule) {
  const AscendingLeafRule rule = DeriveAscendingLeafRule(16, 0.90);
  ASSERT_EQ(rule.full, 407);
  ASSERT_EQ(rule.split_left, 366);
  const AscendingLeaves want = CountAscendingLeaves(rule, 100000);
  ASSERT_EQ(want.leaves, 274);  // 273 leaves of 366 keys, the rightmost with 82

  PgLoadOptions o;
  o.database = "asc100k";
  o.create_sql = "CREATE TABLE t(id bigint PRIMARY KEY)";
  o.batch_rows = 10000;
  absl::StatusOr<PgLoadResult> r = PgLoadKeys(server().connection_options(), o, AscendingBigints(1, 100000));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->indexes.size(), 1u);
  const PgIndexStats& ix = r->indexes[0];
  EXPECT_EQ(r->rows, 100000);
  EXPECT_EQ(ix.leaf_pages, want.leaves);
  EXPECT_EQ(ix.tree_level, 1);  // one root above 274 leaves (its 16-byte pivots fit one page)
  EXPECT_EQ(ix.empty_pages, 0);
  EXPECT_EQ(ix.deleted_pages, 0);
  // Blocks: the metapage (0), the first leaf (1), the right sibling of the
  // first split (2), then the root made by that split (_bt_newroot, 3),
  // then one new block per later split.
  EXPECT_EQ(ix.root_block_no, 3);
  EXPECT_EQ(ix.relation_size, (1 + want.leaves + 1) * 8192);
  // avg_leaf_density = 100 - sum(PageGetFreeSpace) / sum(usable) * 100 over
  // the leaves (pgstatindex): a split-off leaf holds 366 keys and a high
  // key (the 16-byte first key of its right sibling: distinct keys need no
  // heap TID, _bt_truncate), the rightmost 82 keys and no high key.
  const int64_t left_free = rule.usable - rule.item * (rule.split_left + 1) - 4;
  const int64_t right_free = rule.usable - rule.item * want.rightmost_keys - 4;
  const double density =
      100.0 - static_cast<double>((want.leaves - 1) * left_free + right_free) /
                  static_cast<double>(want.leaves * rule.usable) * 100.0;
  EXPECT_NEAR(ix.avg_leaf_density, density, 0.006) << "derived " << density;
  EXPECT_EQ(ix.leaf_fragmentation, 0.0);  // each leaf's right sibling has a higher block number

  // The heap: a tuple is MAXALIGN(23-byte header) 24 + 8 = 32 bytes and a
  // line pointer 4; a page of 8192 - 24 takes another while
  // PageGetHeapFreeSpace >= 32 (RelationGetBufferForTuple, fillfactor 100):
  // 8168 - 36n - 4 >= 32 up to n = 225, so 226 rows a page.
  EXPECT_EQ(r->heap_relation_size, (100000 + 225) / 226 * 8192);
  EXPECT_EQ(r->heap_relpages * 8192, r->heap_relation_size);
}

TEST(PgPrivateServerTest, TheFolderIsGoneAfterStop) {
  absl::StatusOr<std::unique_ptr<PgPrivateServer>> s = PgPrivateServer::Start(PgPrivateServerOptions{});
  ASSERT_TRUE(s.ok()) << "the private PostgreSQL did not start: " << s.status();
  const std::string dir = (*s)->dir();
  const std::string socket = (*s)->socket_path();
  ASSERT_EQ(::access(socket.c_str(), F_OK), 0) << socket;
  absl::Status stop = (*s)->Stop();
  EXPECT_TRUE(stop.ok()) << stop;
  EXPECT_NE(::access(dir.c_str(), F_OK), 0) << dir << " is still there";
  EXPECT_TRUE((*s)->Stop().ok());  // idempotent
  // A second server, ended by its destructor alone (as when a test fails).
  std::string dir2;
  {
    absl::StatusOr<std::unique_ptr<PgPrivateServer>> t = PgPrivateServer::Start(PgPrivateServerOptions{});
    ASSERT_TRUE(t.ok()) << t.status();
    dir2 = (*t)->dir();
  }
  EXPECT_NE(::access(dir2.c_str(), F_OK), 0) << dir2 << " is still there";
}

// INNOSIM_PG_BINDIR names the programs' folder; one without them is
// reported in one line naming the package and the install script.
TEST(PgPrivateServerTest, AMissingBinarySaysWhatToInstall) {
  const char* saved = std::getenv(kPgBindirEnv);
  const std::string old = saved ? saved : "";
  ASSERT_EQ(::setenv(kPgBindirEnv, "/nonexistent/pg/bin", 1), 0);
  absl::StatusOr<std::unique_ptr<PgPrivateServer>> s = PgPrivateServer::Start(PgPrivateServerOptions{});
  if (saved != nullptr) {
    ::setenv(kPgBindirEnv, old.c_str(), 1);
  } else {
    ::unsetenv(kPgBindirEnv);
  }
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  const std::string m(s.status().message());
  EXPECT_NE(m.find("initdb not found in /nonexistent/pg/bin (INNOSIM_PG_BINDIR)"), std::string::npos) << m;
  EXPECT_NE(m.find("install postgresql-15 (tools/install-deps.sh"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST(PgKeyTextTest, BigintAndUuidTextForms) {
  EXPECT_EQ(*PgKeyText(Key::FromU64(1), 8, false), "1");
  EXPECT_EQ(*PgKeyText(Key::FromU64(9223372036854775807ull), 8, false), "9223372036854775807");
  EXPECT_FALSE(PgKeyText(Key::FromU64(1ull << 63), 8, false).ok());
  // InnoDB's stored form: the sign bit flipped.
  EXPECT_EQ(*PgKeyText(Key::FromU64((1ull << 63) | 5), 8, true), "5");
  EXPECT_EQ(*PgKeyText(Key::FromU64((1ull << 63) - 1), 8, true), "-1");
  EXPECT_EQ(*PgKeyText(Key{0x0011223344556677ull, 0x8899aabbccddeeffull}, 16, false),
            "00112233-4455-6677-8899-aabbccddeeff");
  absl::StatusOr<std::string> bad = PgKeyText(Key{}, 4, false);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("8-byte keys (bigint) or 16-byte keys (uuid)"), absl::string_view::npos);
}

}  // namespace
}  // namespace innosim
