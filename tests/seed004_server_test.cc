// Seed 004's claim against a private MariaDB 10.11 (label `server`): the
// seed says its UUIDv4 table's clustered index had "nearly twice" the leaf
// pages of its UUIDv7 table; innosim predicts the opposite for UUIDv7 with
// random bits below the millisecond loaded at many rows per millisecond
// (seed 000's sweep: such a load splits at the insert point among the last
// millisecond's keys and fills its leaves about half). This test runs the
// seed's own procedure, at a smaller scale: its tables (BINARY(16) key,
// created_at DATETIME(3), payload VARCHAR(200), KEY idx_created), its
// 10,000-row number table, and its INSERT ... SELECT batches building the
// keys in SQL from RANDOM_BYTES() and, for v7, FLOOR(UNIX_TIMESTAMP(
// SYSDATE(3)) * 1000) (one transaction per batch, as its stored procedure's
// statements under autocommit). It reads n_leaf_pages of both PRIMARY
// indexes from mysql.innodb_index_stats after ANALYZE TABLE, simulates both
// with the mariadb-10.11 profile at the rows per millisecond the server's
// own v7 keys show, and asserts that the model's answer to "which has more
// leaf pages" is the server's. It prints the figures (docs/validation.md
// quotes them). INNOSIM_SEED004_BATCHES overrides the batch count (default
// 30: 300,000 rows per table). If mariadbd is not installed the test FAILS
// saying to install mariadb-server.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "sim/runner.h"
#include "tests/private_server_suite.h"
#include "tools/private_server.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

int Batches() {
  const char* env = std::getenv("INNOSIM_SEED004_BATCHES");
  if (env != nullptr && *env != '\0') return std::atoi(env);
  return 30;
}

// The seed's statements, verbatim; its SET SESSION cte_max_recursion_depth
// = 10000 is MySQL's variable, MariaDB's is max_recursive_iterations.
constexpr char kTableV4[] =
    "CREATE TABLE t_v4 (id BINARY(16) NOT NULL PRIMARY KEY, created_at DATETIME(3) NOT NULL, "
    "payload VARCHAR(200) NOT NULL, KEY idx_created (created_at)) ENGINE=InnoDB";
constexpr char kSeq[] =
    "INSERT INTO seq WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000) "
    "SELECT n FROM s";
constexpr char kBatchV4[] =
    "INSERT INTO t_v4 (id, created_at, payload) SELECT UNHEX(CONCAT(HEX(RANDOM_BYTES(6)), '4', "
    "SUBSTR(HEX(RANDOM_BYTES(2)), 1, 3), HEX(128 | (ASCII(RANDOM_BYTES(1)) & 63)), HEX(RANDOM_BYTES(7)))), "
    "SYSDATE(3), REPEAT('x', 100) FROM seq";
constexpr char kBatchV7[] =
    "INSERT INTO t_v7 (id, created_at, payload) SELECT UNHEX(CONCAT("
    "LPAD(HEX(FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000)), 12, '0'), '7', "
    "SUBSTR(HEX(RANDOM_BYTES(2)), 1, 3), HEX(128 | (ASCII(RANDOM_BYTES(1)) & 63)), HEX(RANDOM_BYTES(7)))), "
    "SYSDATE(3), REPEAT('x', 100) FROM seq";

// Seed 004's 128 MB buffer pool (leaf counts do not depend on it).
class Seed004ServerTest : public PrivateServerSuite<128ull << 20> {};

// The model's PRIMARY for seed 004's table, structure only.
uint64_t SimulatedLeafPages(const std::string& stream, uint64_t rows, uint64_t rows_per_ms) {
  RunSpec spec;
  spec.profile = "mariadb-10.11";
  spec.stream.name = stream;
  spec.stream.rows_per_ms = rows_per_ms;
  spec.rows = rows;
  spec.table = "seed004";
  spec.payload_bytes = 100;
  spec.trx_rows = 10000;
  spec.rows_per_sec = static_cast<double>(rows_per_ms) * 1000;  // SYSDATE(3) is the clock of both
  spec.flush = false;
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->report.primary.n_leaf_pages : 0;
}

TEST_F(Seed004ServerTest, WhichTableHasMoreLeafPagesIsTheModelsAnswer) {
  absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(server_->connection_options());
  ASSERT_TRUE(conn.ok()) << conn.status();
  ServerConnection& c = **conn;
  for (const char* sql : {"DROP DATABASE IF EXISTS bench", "CREATE DATABASE bench", "USE bench", kTableV4,
                          "CREATE TABLE t_v7 LIKE t_v4", "CREATE TABLE seq (n INT PRIMARY KEY)",
                          "SET SESSION max_recursive_iterations = 10000", kSeq}) {
    const absl::Status s = c.Execute(sql);
    ASSERT_TRUE(s.ok()) << sql << ": " << s;
  }
  ASSERT_EQ(*c.QueryInt("SELECT COUNT(*) FROM seq"), 10000);
  const int batches = Batches();
  // The seed loads v7 before v4 (CALL load_rows('v7'), then 'v4').
  for (int i = 0; i < batches; ++i) ASSERT_TRUE(c.Execute(kBatchV7).ok()) << "v7 batch " << i;
  for (int i = 0; i < batches; ++i) ASSERT_TRUE(c.Execute(kBatchV4).ok()) << "v4 batch " << i;
  ASSERT_TRUE(c.Execute("ANALYZE TABLE t_v4, t_v7").ok());
  auto leaves = [&](const char* table) {
    absl::StatusOr<int64_t> v = c.QueryInt(absl::StrFormat(
        "SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = 'bench' AND table_name = '%s' "
        "AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'",
        table));
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? static_cast<uint64_t>(*v) : 0;
  };
  const uint64_t rows = static_cast<uint64_t>(batches) * 10000;
  ASSERT_EQ(static_cast<uint64_t>(*c.QueryInt("SELECT COUNT(*) FROM t_v7")), rows);
  // The rate SYSDATE(3) saw: rows per millisecond that holds a v7 key.
  const int64_t ms = *c.QueryInt("SELECT COUNT(DISTINCT SUBSTR(id, 1, 6)) FROM t_v7");
  ASSERT_GT(ms, 0);
  const uint64_t rows_per_ms = std::max<uint64_t>(1, (rows + ms / 2) / static_cast<uint64_t>(ms));
  const uint64_t server_v4 = leaves("t_v4");
  const uint64_t server_v7 = leaves("t_v7");
  const uint64_t sim_v4 = SimulatedLeafPages("uuidv4", rows, rows_per_ms);
  const uint64_t sim_v7 = SimulatedLeafPages("uuidv7-random", rows, rows_per_ms);
  absl::StatusOr<std::string> version = c.QueryString("SELECT VERSION()");
  std::printf("seed 004's procedure, %d batches of 10,000 rows, MariaDB %s, %d rows per ms of v7 keys: "
              "PRIMARY n_leaf_pages t_v4 %d measured / %d simulated, t_v7 %d measured / %d simulated; "
              "v7/v4 measured %.3f, simulated %.3f\n",
              batches, version.ok() ? version->c_str() : "?", static_cast<int>(rows_per_ms),
              static_cast<int>(server_v4), static_cast<int>(sim_v4), static_cast<int>(server_v7),
              static_cast<int>(sim_v7), static_cast<double>(server_v7) / server_v4,
              static_cast<double>(sim_v7) / sim_v4);
  ASSERT_GT(server_v4, 0u);
  ASSERT_GT(server_v7, 0u);
  ASSERT_NE(sim_v7, sim_v4);
  EXPECT_EQ(server_v7 > server_v4, sim_v7 > sim_v4)
      << "the model says t_" << (sim_v7 > sim_v4 ? "v7" : "v4") << " has more leaf pages; the server disagrees";
  ASSERT_TRUE(c.Execute("DROP DATABASE bench").ok());
}

}  // namespace
}  // namespace innosim
