// OPTIMIZE TABLE against a private MariaDB 10.11 (label `server`): 200,000
// uuidv4 rows loaded by Measure() (seed 000's table and procedure), then
// OPTIMIZE TABLE (ALTER TABLE ... FORCE: the sorted index build) and
// ANALYZE TABLE; n_leaf_pages and size of PRIMARY (mysql.innodb_index_stats)
// and DATA_LENGTH (information_schema.TABLES) against innosim's
// --phase optimize with the mariadb-10.11 profile, within 2%, before and
// after. Prints the figures (docs/phases.md quotes them).
// INNOSIM_PHASES_ROWS overrides the row count. If mariadbd is not installed
// the test FAILS saying to install mariadb-server.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "tests/private_server_suite.h"
#include "tests/test_util.h"
#include "tools/measure.h"
#include "tools/private_server.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

uint64_t Rows() {
  const char* env = std::getenv("INNOSIM_PHASES_ROWS");
  if (env != nullptr && *env != '\0') return std::strtoull(env, nullptr, 10);
  return 200'000;
}

class PhasesServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = StartSuiteServer(256ull << 20, start_error_); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(server_, nullptr) << NoServerMessage(*start_error_); }

  static PrivateServer* server_;
  static std::string* start_error_;
};

PrivateServer* PhasesServerTest::server_ = nullptr;
std::string* PhasesServerTest::start_error_ = new std::string;

struct Figures {
  int64_t n_leaf_pages = 0;
  int64_t size = 0;
  int64_t data_length = 0;
};

void Expect(const char* when, const char* name, int64_t simulated, int64_t measured) {
  const double e = RelativeError(simulated, measured);
  std::printf("  %-16s %-14s simulated %10lld  measured %10lld  (%+.2f%%)\n", when, name,
              static_cast<long long>(simulated), static_cast<long long>(measured), 100 * e);
  EXPECT_LE(std::fabs(e), 0.02) << when << " " << name << ": simulated " << simulated << ", measured " << measured;
}

TEST_F(PhasesServerTest, OptimizeTableOfRandomUuidsAgreesWithinTwoPercent) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = Rows();
  spec.profile = "mariadb-10.11";
  spec.flush = false;
  spec.phases = {*ParsePhase("optimize")};

  absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(server_->connection_options());
  ASSERT_TRUE(conn.ok()) << conn.status();
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec.stream);
  ASSERT_TRUE(stream.ok()) << stream.status();
  MeasureOptions mo;
  mo.table = "optimize_uuidv4";
  mo.rows = spec.rows;
  absl::StatusOr<MeasureResult> m = Measure(**conn, **stream, mo);
  ASSERT_TRUE(m.ok()) << m.status();
  for (const SanityCheck& c : m->sanity) EXPECT_TRUE(c.pass) << c.name << ": " << c.detail;

  const std::string qualified = absl::StrFormat("`%s`.`%s`", mo.database, mo.table);
  // MariaDB: "Table does not support optimize, doing recreate + analyze instead".
  absl::StatusOr<std::vector<ServerConnection::Row>> opt = (*conn)->Query("OPTIMIZE TABLE " + qualified);
  ASSERT_TRUE(opt.ok()) << opt.status();
  ASSERT_TRUE((*conn)->Query("ANALYZE TABLE " + qualified).ok());
  Figures after;
  absl::StatusOr<std::map<std::string, std::string>> stats = (*conn)->QueryMap(absl::StrFormat(
      "SELECT stat_name, stat_value FROM mysql.innodb_index_stats WHERE database_name='%s' AND table_name='%s' "
      "AND index_name='PRIMARY' AND stat_name IN ('size', 'n_leaf_pages')",
      mo.database, mo.table));
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_EQ(stats->size(), 2u);
  after.n_leaf_pages = std::stoll(stats->at("n_leaf_pages"));
  after.size = std::stoll(stats->at("size"));
  absl::StatusOr<int64_t> dl = (*conn)->QueryInt(absl::StrFormat(
      "SELECT DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA='%s' AND TABLE_NAME='%s'", mo.database,
      mo.table));
  ASSERT_TRUE(dl.ok()) << dl.status();
  after.data_length = *dl;

  absl::StatusOr<RunResult> sim = innosim::Run(spec);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_EQ(sim->phases.size(), 2u);
  const EngineReport& b = sim->phases[0].report;
  const EngineReport& a = sim->phases[1].report;
  std::printf("uuidv4, %d rows, MariaDB %s, then OPTIMIZE TABLE (simulated/measured):\n", static_cast<int>(spec.rows),
              m->version.c_str());
  Expect("after the load", "n_leaf_pages", b.primary.n_leaf_pages, m->measured.n_leaf_pages);
  Expect("after the load", "size", b.primary.size, m->measured.size);
  Expect("after the load", "DATA_LENGTH", b.data_length, m->measured.data_length);
  Expect("after OPTIMIZE", "n_leaf_pages", a.primary.n_leaf_pages, after.n_leaf_pages);
  Expect("after OPTIMIZE", "size", a.primary.size, after.size);
  Expect("after OPTIMIZE", "DATA_LENGTH", a.data_length, after.data_length);
  EXPECT_TRUE((*conn)->Execute("DROP TABLE " + qualified).ok());
}

// A secondary index: seed 000's rows copied into a table whose second
// column holds the primary key (KEY kc (c): entries of c + id, 32 bytes of
// key), then OPTIMIZE TABLE. After the rebuild both indexes hold the same
// set of records as the simulated table's (--column c=pk), whatever order
// the copy inserted them in; innodb_fill_factor 100 leaves secondary pages
// no reserve.
TEST_F(PhasesServerTest, OptimizeTableRebuildsASecondaryIndexWithinTwoPercent) {
  constexpr char kTable[] =
      "CREATE TABLE t (id BINARY(16) NOT NULL, c BINARY(16) NOT NULL, PRIMARY KEY (id), KEY kc (c))";
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = Rows();
  spec.profile = "mariadb-10.11";
  spec.flush = false;
  spec.table = kTable;
  spec.columns = {*ParseColumnSource("c=pk")};
  spec.phases = {*ParsePhase("optimize")};

  absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(server_->connection_options());
  ASSERT_TRUE(conn.ok()) << conn.status();
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec.stream);
  ASSERT_TRUE(stream.ok()) << stream.status();
  MeasureOptions mo;
  mo.table = "optimize_source";
  mo.rows = spec.rows;
  absl::StatusOr<MeasureResult> m = Measure(**conn, **stream, mo);
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string source = absl::StrFormat("`%s`.`%s`", mo.database, mo.table);
  const std::string target = absl::StrFormat("`%s`.`optimize_secondary`", mo.database);
  ASSERT_TRUE((*conn)->Execute("DROP TABLE IF EXISTS " + target).ok());
  ASSERT_TRUE((*conn)
                  ->Execute("CREATE TABLE " + target +
                            " (id BINARY(16) NOT NULL, c BINARY(16) NOT NULL, PRIMARY KEY (id), KEY kc (c)) "
                            "ENGINE=InnoDB")
                  .ok());
  ASSERT_TRUE((*conn)->Execute("INSERT INTO " + target + " SELECT id, id FROM " + source).ok());
  ASSERT_TRUE((*conn)->Query("OPTIMIZE TABLE " + target).ok());
  ASSERT_TRUE((*conn)->Query("ANALYZE TABLE " + target).ok());
  absl::StatusOr<std::vector<ServerConnection::Row>> rows = (*conn)->Query(absl::StrFormat(
      "SELECT index_name, stat_name, stat_value FROM mysql.innodb_index_stats WHERE database_name='%s' AND "
      "table_name='optimize_secondary' AND stat_name IN ('size', 'n_leaf_pages')",
      mo.database));
  ASSERT_TRUE(rows.ok()) << rows.status();
  std::map<std::string, int64_t> measured;
  for (const ServerConnection::Row& r : *rows) {
    ASSERT_EQ(r.size(), 3u);
    measured[r[0].value_or("") + "." + r[1].value_or("")] = std::stoll(r[2].value_or("0"));
  }
  ASSERT_EQ(measured.size(), 4u);

  absl::StatusOr<RunResult> sim = innosim::Run(spec);
  ASSERT_TRUE(sim.ok()) << sim.status();
  EXPECT_EQ(sim->secondary_ties, 0u);
  ASSERT_EQ(sim->phases.size(), 2u);
  const EngineReport& a = sim->phases[1].report;
  ASSERT_EQ(a.secondary.size(), 1u);
  std::printf("uuidv4, %d rows copied into (id, c = id, KEY kc (c)), MariaDB %s, OPTIMIZE TABLE "
              "(simulated/measured):\n",
              static_cast<int>(spec.rows), m->version.c_str());
  Expect("PRIMARY", "n_leaf_pages", a.primary.n_leaf_pages, measured["PRIMARY.n_leaf_pages"]);
  Expect("PRIMARY", "size", a.primary.size, measured["PRIMARY.size"]);
  Expect("kc", "n_leaf_pages", a.secondary[0].n_leaf_pages, measured["kc.n_leaf_pages"]);
  Expect("kc", "size", a.secondary[0].size, measured["kc.size"]);
  EXPECT_TRUE((*conn)->Execute("DROP TABLE " + target).ok());
  EXPECT_TRUE((*conn)->Execute("DROP TABLE " + source).ok());
}

}  // namespace
}  // namespace innosim
