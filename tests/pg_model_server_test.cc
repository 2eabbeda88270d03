// The PostgreSQL model against a real PostgreSQL 15, on the same keys: each
// case makes its keys with the stream a run uses (MakeKeyStream, then
// PhaseStreamSpec for the appended phase), loads them into a private server
// (tools/pg_private_server.h, tools/pg_load.h: COPY in key order, 10,000 rows
// per transaction), runs `innosim run --profile postgresql-15` on the same
// spec (innosim::Run), and holds pgstatindex and pg_relation_size against the
// model's figures. The pages follow from the keys' order alone, so random
// keys too must agree to the page. A server test (label `server`).
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "sim/key_stream.h"
#include "sim/phases.h"
#include "sim/postgres_driver.h"
#include "sim/runner.h"
#include "tools/pg_load.h"
#include "tools/pg_private_server.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 300000;
constexpr uint64_t kMoreRows = 10000;

class PgModelServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    PgPrivateServerOptions o;
    o.shared_buffers = "256MB";
    absl::StatusOr<std::unique_ptr<PgPrivateServer>> s = PgPrivateServer::Start(o);
    if (s.ok()) {
      server_ = s->release();
    } else {
      *start_error_ = std::string(s.status().message());
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr) << "the private PostgreSQL of this suite did not start: " << *start_error_;
  }

  static std::vector<Key> Keys(const StreamSpec& spec, uint64_t n) {
    absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec);
    EXPECT_TRUE(ks.ok()) << ks.status();
    std::vector<Key> keys;
    if (!ks.ok()) return keys;
    keys.reserve(n);
    Key k;
    while (keys.size() < n && (*ks)->Next(&k)) keys.push_back(k);
    return keys;
  }

  // The server's figures and the model's, for `spec` with one insert phase
  // of kMoreRows rows of the same stream.
  static void Compare(const std::string& name, RunSpec spec, int key_width, uint32_t payload_bytes) {
    absl::StatusOr<PhaseSpec> phase = ParsePhase("insert:" + spec.stream.name + ":" + std::to_string(kMoreRows));
    ASSERT_TRUE(phase.ok()) << phase.status();
    spec.phases.push_back(*phase);
    const bool autoinc = spec.stream.name == "autoinc";
    const std::vector<Key> first = Keys(spec.stream, spec.rows);
    const std::vector<Key> more = Keys(PhaseStreamSpec(spec, 0, spec.rows, autoinc ? spec.rows : 0), kMoreRows);
    ASSERT_EQ(first.size(), spec.rows);
    ASSERT_EQ(more.size(), kMoreRows);

    PgLoadOptions o;
    o.database = name;
    o.create_sql = spec.table;
    o.key_width = key_width;
    o.bigint_sign_flipped = true;  // the streams' integer keys are InnoDB's stored form
    o.payload_bytes = payload_bytes;
    o.batch_rows = 10000;
    absl::StatusOr<PgLoadResult> a = PgLoadKeys(server_->connection_options(), o, first);
    ASSERT_TRUE(a.ok()) << a.status();
    o.append = true;
    absl::StatusOr<PgLoadResult> server = PgLoadKeys(server_->connection_options(), o, more);
    ASSERT_TRUE(server.ok()) << server.status();

    absl::StatusOr<RunResult> r = innosim::Run(spec);
    ASSERT_TRUE(r.ok()) << r.status();
    const auto* pg = dynamic_cast<const PgRunResult*>(r->engine_result.get());
    ASSERT_NE(pg, nullptr);
    const postgres::PgTableReport& model = pg->report();

    EXPECT_EQ(server->rows, static_cast<int64_t>(model.rows)) << name;
    EXPECT_EQ(server->heap_relation_size, static_cast<int64_t>(model.heap_relpages) * 8192) << name;
    ASSERT_EQ(server->indexes.size(), model.indexes.size()) << name;
    for (size_t i = 0; i < model.indexes.size(); ++i) {
      const postgres::PgStatIndex& m = model.indexes[i].stat;
      // PgReadTableStats orders by index name; a one-index table here.
      const PgIndexStats& s = server->indexes[i];
      std::cout << "pg-model " << name << " " << s.name << ": server leaf " << s.leaf_pages << " internal "
                << s.internal_pages << " root " << s.root_block_no << " density " << s.avg_leaf_density
                << " fragmentation " << s.leaf_fragmentation << " size " << s.index_size << "; model leaf "
                << m.leaf_pages << " internal " << m.internal_pages << " root " << m.root_block_no << " density "
                << m.avg_leaf_density << " fragmentation " << m.leaf_fragmentation << " size "
                << m.relpages * 8192 << "\n";
      EXPECT_EQ(s.name, model.indexes[i].name) << name;
      EXPECT_EQ(s.tree_level, static_cast<int>(m.tree_level)) << name;
      EXPECT_EQ(s.leaf_pages, static_cast<int64_t>(m.leaf_pages)) << name;
      EXPECT_EQ(s.internal_pages, static_cast<int64_t>(m.internal_pages)) << name;
      EXPECT_EQ(s.root_block_no, static_cast<int64_t>(m.root_block_no)) << name;
      EXPECT_EQ(s.relation_size, static_cast<int64_t>(m.relpages) * 8192) << name;
      // pgstatindex prints both with two decimals.
      EXPECT_NEAR(s.avg_leaf_density, m.avg_leaf_density, 0.006) << name;
      EXPECT_NEAR(s.leaf_fragmentation, m.leaf_fragmentation, 0.006) << name;
    }
  }

  static RunSpec Spec(const std::string& stream, const std::string& table) {
    RunSpec spec;
    spec.profile = "postgresql-15";
    spec.stream.name = stream;
    spec.stream.seed = 7;
    spec.rows = kRows;
    spec.table = table;
    return spec;
  }

  static inline PgPrivateServer* server_ = nullptr;
  static inline std::string* start_error_ = new std::string;  // never destroyed: read after main
};

TEST_F(PgModelServerTest, BigintAutoIncrement) {
  Compare("bigint_autoinc", Spec("autoinc", "CREATE TABLE t (id bigint PRIMARY KEY)"), 8, 0);
}

TEST_F(PgModelServerTest, UuidV7WithSubMillisecondBits) {
  Compare("uuid_v7", Spec("uuidv7-subms", "CREATE TABLE t (id uuid PRIMARY KEY)"), 16, 0);
}

TEST_F(PgModelServerTest, UuidV4) {
  Compare("uuid_v4", Spec("uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY)"), 16, 0);
}

// A text column beside the key: the heap's tuples are 24 + 16 + 1 + 100
// bytes (the short varlena header), MAXALIGNed; the index is the key's.
TEST_F(PgModelServerTest, UuidV4WithATextPayload) {
  RunSpec spec = Spec("uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY, v text NOT NULL)");
  spec.payload_bytes = 100;
  spec.payload_bytes_given = true;
  Compare("uuid_v4_text", spec, 16, 100);
}

}  // namespace
}  // namespace innosim
