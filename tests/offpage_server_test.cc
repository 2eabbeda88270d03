// Off-page columns against a private MariaDB 10.11 (label `server`): a table
// with a long VARCHAR or TEXT column loaded by Measure() (the stream's keys
// as the PK, the column REPEAT('x', N)) into a server started at 4 KiB and
// at 16 KiB pages, then ANALYZE TABLE; PRIMARY's n_leaf_pages and size
// (mysql.innodb_index_stats) and DATA_LENGTH (information_schema.TABLES),
// which count the BLOB pages (they come from the clustered index's leaf
// segment), against innosim with the mariadb-10.11 profile on the same keys,
// within 1%. The cases:
//   4k  DYNAMIC VARCHAR(3000) x 3000: the value off-page, one BLOB page a row;
//   4k  COMPACT TEXT x 3000: a 768-byte prefix in the record, 2232 bytes out;
//   16k DYNAMIC TEXT x 20000: two BLOB pages a row (16330 bytes each);
//   16k DYNAMIC VARCHAR(3000) x 3000: stays in the record (the control).
// Prints the figures (docs/innodb-rules.md quotes them). INNOSIM_OFFPAGE_ROWS
// overrides the rows per case. If mariadbd is not installed the test FAILS
// saying to install mariadb-server.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/table_parser.h"
#include "tests/private_server_suite.h"
#include "tests/test_util.h"
#include "tools/measure.h"
#include "tools/private_server.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

uint64_t Rows(uint64_t dflt) {
  const char* env = std::getenv("INNOSIM_OFFPAGE_ROWS");
  if (env != nullptr && *env != '\0') return std::strtoull(env, nullptr, 10);
  return dflt;
}

struct Case {
  const char* name;
  const char* sql;
  uint32_t payload;
  uint64_t rows;
  bool off_page;  // whether the model should store the column off-page
};

// One server per page size, shared by its cases.
class OffPageServerTest : public ::testing::Test {
 protected:
  static std::unique_ptr<PrivateServer> StartAt(uint32_t page_size, std::string* why) {
    PrivateServerOptions o;
    o.base_dir = "/tmp";
    o.buffer_pool_bytes = 512ull << 20;
    o.install_args = {absl::StrCat("--innodb-page-size=", page_size)};
    o.extra_args = {absl::StrCat("--innodb-page-size=", page_size)};
    absl::StatusOr<std::unique_ptr<PrivateServer>> s = PrivateServer::Start(o);
    if (!s.ok()) {
      *why = std::string(s.status().message());
      return nullptr;
    }
    return std::move(*s);
  }

  void RunCase(PrivateServer& server, uint32_t page_size, const Case& c) {
    RunSpec spec;
    spec.stream.name = "uuidv4";
    spec.rows = Rows(c.rows);
    spec.profile = "mariadb-10.11";
    spec.page_size = page_size;
    spec.flush = false;
    spec.table = c.sql;
    spec.payload_bytes = c.payload;
    spec.payload_bytes_given = true;

    absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(server.connection_options());
    ASSERT_TRUE(conn.ok()) << conn.status();
    absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec.stream);
    ASSERT_TRUE(stream.ok()) << stream.status();
    MeasureOptions mo;
    mo.table = c.name;
    mo.rows = spec.rows;
    // Measure sizes a batch by its values (about 2 bytes a value byte), which
    // must stay under max_allowed_packet (16 MiB): fewer rows a batch for
    // long values, and as many rows a transaction in the model.
    mo.batch_rows = std::min<uint64_t>(1000, 4'000'000 / c.payload);
    spec.trx_rows = mo.batch_rows;
    mo.expected_settings["innodb_page_size"] = absl::StrCat(page_size);
    TableOptions to;
    to.payload_bytes = c.payload;
    to.payload_given = true;
    to.profile = spec.profile;
    to.page_size = page_size;
    absl::StatusOr<TableSchema> schema = ResolveTable(c.sql, 16, to);
    ASSERT_TRUE(schema.ok()) << schema.status();
    mo.spec_table = MeasureTable{c.sql, *schema};
    absl::StatusOr<MeasureResult> m = Measure(**conn, **stream, mo);
    ASSERT_TRUE(m.ok()) << m.status();
    for (const SanityCheck& s : m->sanity) {
      if (!s.pass) std::printf("  (sanity %s: %s)\n", s.name.c_str(), s.detail.c_str());
    }

    absl::StatusOr<RunResult> sim = innosim::Run(spec);
    ASSERT_TRUE(sim.ok()) << sim.status();
    const EngineReport& r = sim->report;
    std::printf("%s, %llu rows, %u-byte pages, MariaDB %s (simulated / measured); simulated BLOB pages %llu, "
                "tree leaves %llu\n",
                c.name, static_cast<unsigned long long>(spec.rows), page_size, m->version.c_str(),
                static_cast<unsigned long long>(r.extern_pages),
                static_cast<unsigned long long>(r.primary.levels.back().pages));
    Expect(c.name, "n_leaf_pages", r.primary.n_leaf_pages, m->measured.n_leaf_pages);
    Expect(c.name, "size", r.primary.size, m->measured.size);
    Expect(c.name, "DATA_LENGTH", r.data_length, m->measured.data_length);
    if (c.off_page) {
      EXPECT_GE(r.extern_pages, spec.rows) << c.name << ": every row has at least one BLOB page";
    } else {
      EXPECT_EQ(r.extern_pages, 0u) << c.name;
    }
  }

  static void Expect(const char* name, const char* what, int64_t simulated, int64_t measured) {
    const double e = RelativeError(simulated, measured);
    std::printf("  %-14s simulated %10lld  measured %10lld  (%+.2f%%)\n", what, static_cast<long long>(simulated),
                static_cast<long long>(measured), 100 * e);
    EXPECT_LE(std::fabs(e), 0.01) << name << " " << what << ": simulated " << simulated << ", measured " << measured;
  }
};

TEST_F(OffPageServerTest, FourKPages) {
  std::string why;
  std::unique_ptr<PrivateServer> server = StartAt(4096, &why);
  ASSERT_NE(server, nullptr) << NoServerMessage(why);
  const Case cases[] = {
      {"offpage_4k_varchar",
       "CREATE TABLE t (id BINARY(16) NOT NULL, v VARCHAR(3000) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB", 3000,
       20000, true},
      {"offpage_4k_compact_text",
       "CREATE TABLE t (id BINARY(16) NOT NULL, v TEXT NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB ROW_FORMAT=COMPACT",
       3000, 20000, true},
  };
  for (const Case& c : cases) ASSERT_NO_FATAL_FAILURE(RunCase(*server, 4096, c));
}

TEST_F(OffPageServerTest, SixteenKPages) {
  std::string why;
  std::unique_ptr<PrivateServer> server = StartAt(16384, &why);
  ASSERT_NE(server, nullptr) << NoServerMessage(why);
  const Case cases[] = {
      {"offpage_16k_text", "CREATE TABLE t (id BINARY(16) NOT NULL, v TEXT NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB",
       20000, 5000, true},
      {"offpage_16k_inline",
       "CREATE TABLE t (id BINARY(16) NOT NULL, v VARCHAR(3000) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB", 3000,
       20000, false},
  };
  for (const Case& c : cases) ASSERT_NO_FATAL_FAILURE(RunCase(*server, 16384, c));
}

}  // namespace
}  // namespace innosim
