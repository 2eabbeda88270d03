// `innosim pgfile FILE` against a private PostgreSQL 15: an index loaded,
// CHECKPOINTed (so its file holds what the buffers hold), read from disk by
// the built binary, and compared with what the server says of the same
// index: pgstatindex's every column, and bt_page_stats (pageinspect) of
// every block (type, items, free size, siblings, level, flags). Twice: a
// tree of random keys, and one with deleted pages (half the rows deleted,
// VACUUM). A server test (label `server`).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_connection.h"

namespace innosim {
namespace {

class PgNbtreeFileServerTest : public PrivatePgTest<PgNbtreeFileServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.port = 5474;
    return o;
  }

 protected:
  // Creates database `db` with table t loaded by `load_sql`, runs `after`,
  // CHECKPOINTs, then holds `innosim pgfile` of t_pkey against the server.
  static void Compare(const std::string& db, const std::string& create, const std::string& load_sql,
                      const std::vector<std::string>& after, bool expect_deleted) {
    absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(server().connection_options());
    ASSERT_TRUE(admin.ok()) << admin.status();
    ASSERT_TRUE((*admin)->Exec(absl::StrCat("DROP DATABASE IF EXISTS ", db)).ok());
    ASSERT_TRUE((*admin)->Exec(absl::StrCat("CREATE DATABASE ", db)).ok());
    absl::StatusOr<std::unique_ptr<PgConnection>> cc = PgConnection::Connect(server().connection_options(db));
    ASSERT_TRUE(cc.ok()) << cc.status();
    PgConnection& c = **cc;
    std::vector<std::string> statements = {"CREATE EXTENSION pgstattuple", "CREATE EXTENSION pageinspect", create,
                                           load_sql};
    statements.insert(statements.end(), after.begin(), after.end());
    statements.push_back("CHECKPOINT");
    for (const std::string& sql : statements) {
      ASSERT_TRUE(c.Exec(sql).ok()) << sql;
    }
    absl::StatusOr<std::string> rel = c.QueryString("SELECT pg_relation_filepath('t_pkey')");
    ASSERT_TRUE(rel.ok()) << rel.status();
    const std::string file = server().datadir() + "/" + *rel;
    Output o = RunInnosim({"pgfile", file, "--json"}, server().dir() + "/pgfile.err");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << o.out;

    absl::StatusOr<std::vector<PgConnection::Row>> st = c.Query(
        "SELECT version, tree_level, index_size, root_block_no, internal_pages, leaf_pages, empty_pages, "
        "deleted_pages, avg_leaf_density, leaf_fragmentation FROM pgstatindex('t_pkey')");
    ASSERT_TRUE(st.ok()) << st.status();
    const PgConnection::Row& r = (*st)[0];
    const nlohmann::json& p = j["pgstatindex"];
    const char* ints[] = {"version", "tree_level", "index_size", "root_block_no", "internal_pages", "leaf_pages",
                          "empty_pages", "deleted_pages"};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(p[ints[i]].get<int64_t>(), std::stoll(r[i].value_or("-1"))) << ints[i];
    EXPECT_NEAR(p["avg_leaf_density"].get<double>(), std::stod(r[8].value_or("-1")), 0.006);
    EXPECT_NEAR(p["leaf_fragmentation"].get<double>(), std::stod(r[9].value_or("-1")), 0.006);
    if (expect_deleted) {
      EXPECT_GT(p["deleted_pages"].get<int64_t>(), 0);
    }
    std::cout << "pg-file " << db << ": " << p.dump() << "\n";

    // Every block as bt_page_stats sees it (its btpo_level of a deleted
    // page is not the page's level: compared on live pages only).
    absl::StatusOr<std::vector<PgConnection::Row>> blocks = c.Query(
        "SELECT blkno, type, live_items + dead_items, free_size, btpo_prev, btpo_next, btpo_level, btpo_flags FROM "
        "generate_series(1, pg_relation_size('t_pkey') / 8192 - 1) AS b, bt_page_stats('t_pkey', b::int) ORDER BY 1");
    ASSERT_TRUE(blocks.ok()) << blocks.status();
    ASSERT_EQ(blocks->size(), j["pages"].size());
    int mismatches = 0;
    for (size_t i = 0; i < blocks->size(); ++i) {
      const PgConnection::Row& b = (*blocks)[i];
      const nlohmann::json& f = j["pages"][i];
      const bool deleted = b[1].value_or("") == "d" || b[1].value_or("") == "D";
      bool same = f["blkno"].get<int64_t>() == std::stoll(b[0].value_or("-1")) &&
                  f["type"].get<std::string>() == b[1].value_or("") &&
                  f["btpo_prev"].get<int64_t>() == std::stoll(b[4].value_or("-1")) &&
                  f["btpo_next"].get<int64_t>() == std::stoll(b[5].value_or("-1")) &&
                  f["btpo_flags"].get<int64_t>() == std::stoll(b[7].value_or("-1"));
      if (!deleted) {
        same = same && f["items"].get<int64_t>() == std::stoll(b[2].value_or("-1")) &&
               f["free_size"].get<int64_t>() == std::stoll(b[3].value_or("-1")) &&
               f["btpo_level"].get<int64_t>() == std::stoll(b[6].value_or("-1"));
      }
      if (!same && ++mismatches <= 5) {
        ADD_FAILURE() << "block " << b[0].value_or("") << ": bt_page_stats type " << b[1].value_or("") << " items "
                      << b[2].value_or("") << " free_size " << b[3].value_or("") << " prev " << b[4].value_or("")
                      << " next " << b[5].value_or("") << " level " << b[6].value_or("") << " flags "
                      << b[7].value_or("") << "; pgfile " << f.dump();
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
};

TEST_F(PgNbtreeFileServerTest, RandomUuidsAgreeWithPgstatindexAndBtPageStats) {
  Compare("file_uuid", "CREATE TABLE t (id uuid PRIMARY KEY)",
          "INSERT INTO t SELECT md5(i::text)::uuid FROM generate_series(1, 100000) AS i", {}, false);
}

TEST_F(PgNbtreeFileServerTest, DeletedPagesAfterVacuumAgree) {
  Compare("file_deleted", "CREATE TABLE t (id bigint PRIMARY KEY)",
          "INSERT INTO t SELECT generate_series(1, 200000)",
          {"DELETE FROM t WHERE id <= 120000", "VACUUM t"}, true);
}

// Not an index's file, and no file: one line, exit 2.
TEST_F(PgNbtreeFileServerTest, ANonIndexFileIsOneLine) {
  absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(server().connection_options());
  ASSERT_TRUE(admin.ok()) << admin.status();
  ASSERT_TRUE((*admin)->Exec("DROP TABLE IF EXISTS heap_only; CREATE TABLE heap_only(id int); INSERT INTO heap_only "
                             "SELECT generate_series(1, 1000); CHECKPOINT")
                  .ok());
  absl::StatusOr<std::string> rel = (*admin)->QueryString("SELECT pg_relation_filepath('heap_only')");
  ASSERT_TRUE(rel.ok());
  Output o = RunInnosim({"pgfile", server().datadir() + "/" + *rel}, server().dir() + "/pgfile.err");
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_NE(o.err.find("not an nbtree metapage"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  Output n = RunInnosim({"pgfile", server().dir() + "/no-such-file"}, server().dir() + "/pgfile.err");
  EXPECT_EQ(n.exit_code, 2) << n.err;
  EXPECT_NE(n.err.find("cannot open"), std::string::npos) << n.err;
}

}  // namespace
}  // namespace innosim
