// Integration tests of the server side of `innosim measure`: a private
// mariadbd (tools/private_server.h) is started once for the suite, in a temp
// directory under /tmp. No mocks. If mariadbd is not installed every test
// FAILS with a message saying to install mariadb-server.
#include "tools/measure.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "tools/private_server.h"
#include "tests/private_server_suite.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

// Test-only streams (the real ones live in sim/; these keep the test
// independent of them).
class TestUuidV4Stream : public KeyStream {
 public:
  explicit TestUuidV4Stream(uint64_t seed, uint64_t limit = UINT64_MAX)
      : state_(seed), limit_(limit) {}
  bool Next(Key* out) override {
    if (produced_ == limit_) return false;
    ++produced_;
    uint8_t b[16];
    uint64_t hi = SplitMix(), lo = SplitMix();
    for (int i = 0; i < 8; ++i) {
      b[i] = static_cast<uint8_t>(hi >> (56 - 8 * i));
      b[8 + i] = static_cast<uint8_t>(lo >> (56 - 8 * i));
    }
    b[6] = static_cast<uint8_t>((b[6] & 0x0f) | 0x40);  // version 4
    b[8] = static_cast<uint8_t>((b[8] & 0x3f) | 0x80);  // RFC 9562 variant
    *out = Key::FromBytes(b, 16);
    return true;
  }
  int key_width() const override { return 16; }

 private:
  uint64_t SplitMix() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
  uint64_t limit_;
  uint64_t produced_ = 0;
};

class TestAutoincStream : public KeyStream {
 public:
  bool Next(Key* out) override {
    *out = Key::FromU64(++next_);
    return true;
  }
  int key_width() const override { return 8; }

 private:
  uint64_t next_ = 0;
};

class MeasureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = StartSuiteServer(64ull << 20, start_error_);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr) << NoServerMessage(*start_error_);
  }

  static std::unique_ptr<ServerConnection> Root() {
    absl::StatusOr<std::unique_ptr<ServerConnection>> c =
        ServerConnection::Connect(server_->connection_options());
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  static void ExpectSane(const MeasureResult& r, uint64_t rows) {
    for (const SanityCheck& c : r.sanity) EXPECT_TRUE(c.pass) << c.name << ": " << c.detail;
    EXPECT_TRUE(r.valid);
    EXPECT_EQ(r.measured.rows, static_cast<int64_t>(rows));
    EXPECT_EQ(r.measured.rows_inserted, static_cast<int64_t>(rows));
    EXPECT_EQ(r.measured.rows_inserted_counter, "Handler_write");  // MariaDB 10.11
    ASSERT_TRUE(r.measured.index_page_splits.has_value());
    EXPECT_GT(*r.measured.index_page_splits, 0);
    EXPECT_GT(r.measured.n_leaf_pages, 0);
    EXPECT_GE(r.measured.size, r.measured.n_leaf_pages);
    EXPECT_GT(r.measured.data_length, 0);
    EXPECT_GT(r.measured.Innodb_pages_written, 0);
    EXPECT_EQ(r.measured.Innodb_dblwr_pages_written, 0);
    EXPECT_TRUE(r.missing_counters.empty());
    EXPECT_NE(r.version.find("MariaDB"), std::string::npos) << r.version;
    EXPECT_EQ(r.variables.count("innodb_page_size"), 1u);
    EXPECT_EQ(r.variables.count("innodb_log_file_size"), 1u);
    EXPECT_EQ(r.variables.count("innodb_segment_reserve_factor"), 0u);  // MySQL only
    EXPECT_FALSE(r.datadir.empty());
  }

  static PrivateServer* server_;
  static std::string* start_error_;
};

PrivateServer* MeasureTest::server_ = nullptr;
std::string* MeasureTest::start_error_ = new std::string;

TEST_F(MeasureTest, UnreachableServerNamesTheSocket) {
  ConnectionOptions o;
  o.socket = "/tmp/innosim-no-such-dir/sock";
  o.user = "root";
  o.connect_timeout_s = 2;
  absl::StatusOr<std::unique_ptr<ServerConnection>> c = ServerConnection::Connect(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kUnavailable) << c.status();
  EXPECT_NE(c.status().message().find("server unreachable"), absl::string_view::npos) << c.status();
  EXPECT_NE(c.status().message().find("/tmp/innosim-no-such-dir/sock"), absl::string_view::npos)
      << c.status();
}

TEST_F(MeasureTest, AuthenticationFailureIsClearAndHidesThePassword) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(root->Execute("CREATE OR REPLACE USER 'innosim_auth'@'localhost' "
                            "IDENTIFIED BY 'right-secret-pw'").ok());

  const std::string file = server_->dir() + "/client.cnf";
  {
    std::ofstream f(file);
    f << "# test\n[mysqld]\npassword=not-this-one\n[client]\nuser = innosim_auth\n"
         "password = \"wrong-secret-pw\"\n";
  }
  ConnectionOptions o;
  o.socket = server_->socket_path();
  o.defaults_file = file;
  absl::StatusOr<std::unique_ptr<ServerConnection>> c = ServerConnection::Connect(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kUnauthenticated) << c.status();
  const std::string msg(c.status().message());
  EXPECT_NE(msg.find("authentication refused"), std::string::npos) << msg;
  EXPECT_NE(msg.find("innosim_auth"), std::string::npos) << msg;
  EXPECT_NE(msg.find(server_->socket_path()), std::string::npos) << msg;
  EXPECT_EQ(msg.find("secret"), std::string::npos) << "password leaked: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;

  // The right password from the [client] section works.
  {
    std::ofstream f(file);
    f << "[client]\nuser=innosim_auth\npassword='right-secret-pw'\n";
  }
  c = ServerConnection::Connect(o);
  EXPECT_TRUE(c.ok()) << c.status();

  // So does MYSQL_PWD when no defaults file is given.
  ConnectionOptions env = o;
  env.defaults_file.clear();
  env.user = "innosim_auth";
  ::setenv("MYSQL_PWD", "right-secret-pw", 1);
  c = ServerConnection::Connect(env);
  ::unsetenv("MYSQL_PWD");
  EXPECT_TRUE(c.ok()) << c.status();
}

TEST_F(MeasureTest, MissingPrivilegeIsNamed) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(root->Execute("CREATE OR REPLACE USER 'innosim_weak'@'localhost' "
                            "IDENTIFIED BY 'weak-pw'").ok());
  ASSERT_TRUE(root->Execute("GRANT ALL ON `innosim_weak`.* TO 'innosim_weak'@'localhost'").ok());
  ConnectionOptions o;
  o.socket = server_->socket_path();
  o.user = "innosim_weak";
  o.password = "weak-pw";
  absl::StatusOr<std::unique_ptr<ServerConnection>> c = ServerConnection::Connect(o);
  ASSERT_TRUE(c.ok()) << c.status();
  TestAutoincStream stream;
  MeasureOptions mo;
  mo.database = "innosim_weak";
  mo.rows = 10;
  absl::StatusOr<MeasureResult> r = Measure(**c, stream, mo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied) << r.status();
  EXPECT_NE(r.status().message().find("missing privilege"), absl::string_view::npos) << r.status();
  EXPECT_NE(r.status().message().find("PROCESS"), absl::string_view::npos) << r.status();
}

TEST_F(MeasureTest, ForeignTableWithTheSameNameIsNeverTouched) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(root->Execute("CREATE DATABASE IF NOT EXISTS innosim").ok());
  ASSERT_TRUE(root->Execute("CREATE OR REPLACE TABLE innosim.precious "
                            "(id INT PRIMARY KEY, v VARCHAR(10)) ENGINE=InnoDB").ok());
  ASSERT_TRUE(root->Execute("INSERT INTO innosim.precious VALUES (1, 'keep')").ok());

  TestAutoincStream stream;
  MeasureOptions mo;
  mo.table = "precious";
  mo.rows = 100;
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
  EXPECT_NE(r.status().message().find("not created by innosim"), absl::string_view::npos)
      << r.status();
  absl::StatusOr<std::string> v = root->QueryString("SELECT v FROM innosim.precious WHERE id=1");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(*v, "keep");
  absl::StatusOr<int64_t> n = root->QueryInt("SELECT COUNT(*) FROM innosim.precious");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
}

TEST_F(MeasureTest, InterruptedLoadLeavesTheTableInPlace) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  TestUuidV4Stream stream(7, /*limit=*/1500);
  MeasureOptions mo;
  mo.table = "interrupted";
  mo.rows = 5000;
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("load interrupted after 1000 of 5000 rows"),
            absl::string_view::npos) << r.status();
  EXPECT_NE(r.status().message().find("left in place"), absl::string_view::npos) << r.status();
  absl::StatusOr<int64_t> n = root->QueryInt("SELECT COUNT(*) FROM innosim.interrupted");
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 1000);
}

TEST_F(MeasureTest, UuidV4Load20kIsSane) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  TestUuidV4Stream stream(42);
  MeasureOptions mo;
  mo.rows = 20000;
  mo.expected_buffer_pool_bytes = 64ull << 20;
  uint64_t last_progress = 0;
  int calls = 0;
  mo.progress = [&](uint64_t done) {
    EXPECT_GT(done, last_progress);
    last_progress = done;
    ++calls;
  };
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(last_progress, 20000u);
  EXPECT_EQ(calls, 20);
  ExpectSane(*r, 20000);
  // Random keys: pages about half to two-thirds full, so more leaves than
  // the ~150 rows per full page would give.
  EXPECT_GT(r->measured.n_leaf_pages, 20000 / 150);
  const nlohmann::json j = MeasureResultToJson(*r);
  EXPECT_EQ(j["sanity"]["uuid_version"], "pass");
  EXPECT_EQ(j["measured"]["rows"], 20000);
  EXPECT_TRUE(j["valid"].get<bool>());
  EXPECT_TRUE(j["server"]["variables"].contains("innodb_page_size"));
  std::printf("uuidv4 20k: %s\n", j.dump().c_str());
}

TEST_F(MeasureTest, AutoincLoad20kIsSane) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  TestAutoincStream stream;
  MeasureOptions mo;
  mo.rows = 20000;
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSane(*r, 20000);
  // No uuid check for BIGINT keys.
  for (const SanityCheck& c : r->sanity) EXPECT_NE(c.name, "uuid_version");
  absl::StatusOr<std::string> ids =
      root->QueryString("SELECT CONCAT(MIN(id), '-', MAX(id)) FROM innosim.innosim_load");
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, "1-20000");
  // The final-flush boost is undone.
  absl::StatusOr<int64_t> io = root->QueryInt("SELECT @@GLOBAL.innodb_io_capacity");
  ASSERT_TRUE(io.ok());
  EXPECT_EQ(*io, 200);
  absl::StatusOr<std::string> pct = root->QueryString("SELECT @@GLOBAL.innodb_max_dirty_pages_pct");
  ASSERT_TRUE(pct.ok());
  EXPECT_EQ(std::stod(*pct), 90.0);
  std::printf("autoinc 20k: %s\n", MeasureResultToJson(*r).dump().c_str());
}

TEST_F(MeasureTest, AutoincWithServerAssignedIds) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  TestAutoincStream stream;
  MeasureOptions mo;
  mo.table = "server_ids";
  mo.rows = 3000;
  mo.batch_rows = 500;
  mo.autoinc_explicit_ids = false;
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectSane(*r, 3000);
}

// MeasureOptions::interrupted: Measure() stops with kCancelled, says where,
// and turns off again the counter it had turned on (in process; the signal
// side is in measure_cli_server_test.cc).
TEST_F(MeasureTest, InterruptedMeasurementIsCancelledAndPutsCountersBack) {
  std::unique_ptr<ServerConnection> root = Root();
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(root->Execute("SET GLOBAL innodb_monitor_disable='index_page_reorg_attempts'").ok());
  TestAutoincStream stream;
  MeasureOptions mo;
  mo.table = "interrupted";
  mo.rows = 10000;
  uint64_t seen = 0;
  mo.progress = [&seen](uint64_t done) { seen = done; };
  mo.interrupted = [&seen] { return seen >= 3000; };  // after the third batch
  absl::StatusOr<MeasureResult> r = Measure(*root, stream, mo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled) << r.status();
  EXPECT_NE(r.status().message().find("interrupted while loading, after 3000 of 10000 rows"), std::string::npos)
      << r.status();
  absl::StatusOr<std::string> on = root->QueryString(
      "SELECT ENABLED FROM information_schema.INNODB_METRICS WHERE NAME='index_page_reorg_attempts'");
  ASSERT_TRUE(on.ok()) << on.status();
  EXPECT_EQ(*on, "0");
  absl::StatusOr<int64_t> rows = root->QueryInt("SELECT COUNT(*) FROM innosim.interrupted");
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, 3000);
  ASSERT_TRUE(root->Execute("SET GLOBAL innodb_monitor_enable='index_page_reorg_attempts'").ok());
}

}  // namespace
}  // namespace innosim
