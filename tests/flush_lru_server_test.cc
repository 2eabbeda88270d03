// Neighbour flushing and LRU flushing under a small buffer pool, against
// MariaDB 10.11 itself: seed 004's table (BINARY(16) key, created_at
// DATETIME(3), payload VARCHAR(200) of 100 bytes, KEY idx_created) loaded
// with 1,000,000 uuidv4 rows in 10,000-row transactions into a private
// mariadbd with a 128 MB buffer pool (8,112 frames): the table outgrows the
// pool after about 400,000 rows, and from then on every insert reads its
// leaf and every read needs a frame the LRU flush frees. The same load is
// simulated with the mariadb-10.11 profile, the server's variables, the
// storage of its datadir (storage_rotational) and the insert rate it
// achieved, as `innosim measure` does. Asserts Innodb_pages_written and
// Innodb_buffer_pool_reads within 15% with innodb_flush_neighbors 1 and 0
// (the flush model's acceptance bound and configuration; docs/validation.md
// has the 2M-row ones, by tools/flush-validation.sh).
//
// Why not a smaller pool: at 16 MB the default innodb_lru_scan_depth (1,536)
// is above the pool's 1,014 frames, so every LRU flush empties the LRU to
// its floor and the server's reads moved from 47,198 to 62,354 between runs
// of the same 100k-row load; with the depth scaled down with the pool (16 MB
// and 192, 32 MB and 384) the model came out 9-18% low on both counters,
// which is not explained yet (docs/flushing.md). 128 MB with the default
// depth is the configuration the model is meant for.
//
// About 40 s per configuration on two cores. If mariadbd is not
// installed the test FAILS saying to install mariadb-server.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/table_parser.h"
#include "tests/test_util.h"
#include "tools/measure.h"
#include "tools/private_server.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 1'000'000;
constexpr uint64_t kBatch = 10'000;

class FlushLruServerTest : public ::testing::TestWithParam<int> {};

TEST_P(FlushLruServerTest, PagesWrittenAndReadsWithinFifteenPercent) {
  const int neighbors = GetParam();
  PrivateServerOptions so;
  so.buffer_pool_bytes = 128ull << 20;
  so.extra_args.push_back(absl::StrCat("--innodb-flush-neighbors=", neighbors));
  absl::StatusOr<std::unique_ptr<PrivateServer>> server = PrivateServer::Start(so);
  ASSERT_TRUE(server.ok()) << "the private MariaDB did not start: " << server.status();

  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = kRows;
  spec.table = "seed004";
  spec.profile = "mariadb-10.11";
  spec.trx_rows = kBatch;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec.stream);
  ASSERT_TRUE(stream.ok()) << stream.status();
  absl::StatusOr<TableSchema> schema = ResolveRunTable(spec, (*stream)->key_width());
  ASSERT_TRUE(schema.ok()) << schema.status();

  absl::StatusOr<std::unique_ptr<ServerConnection>> conn =
      ServerConnection::Connect((*server)->connection_options());
  ASSERT_TRUE(conn.ok()) << conn.status();
  MeasureOptions mo;
  mo.table = "flush_lru";
  mo.rows = kRows;
  mo.batch_rows = kBatch;
  mo.spec_table = MeasureTable{Seed004TableSql(16), *schema};
  absl::StatusOr<MeasureResult> m = Measure(**conn, **stream, mo);
  ASSERT_TRUE(m.ok()) << m.status();
  for (const SanityCheck& c : m->sanity) EXPECT_TRUE(c.pass) << c.name << ": " << c.detail;
  ASSERT_EQ(m->variables["innodb_flush_neighbors"], absl::StrCat(neighbors));
  // The table outgrew the pool: the reads are the LRU's doing.
  ASSERT_GT(m->measured.data_length + m->measured.index_length, int64_t{128} << 20);

  for (const auto& [name, value] : m->variables) spec.settings.push_back({name, value, "server"});
  std::string origin;
  const std::optional<bool> rotational = DatadirRotational(m->datadir, &origin);
  ASSERT_TRUE(rotational.has_value()) << m->datadir;
  spec.settings.push_back({"storage_rotational", *rotational ? "ON" : "OFF", origin});
  ASSERT_GT(m->measured.elapsed_s, 0);
  spec.rows_per_sec = static_cast<double>(kRows) / m->measured.elapsed_s;
  absl::StatusOr<RunResult> sim = innosim::Run(spec);
  ASSERT_TRUE(sim.ok()) << sim.status();

  const double e_written = RelativeError(sim->flush.Innodb_pages_written, m->measured.Innodb_pages_written);
  const double e_reads = RelativeError(sim->flush.Innodb_buffer_pool_reads, m->measured.Innodb_buffer_pool_reads);
  std::printf("innodb_flush_neighbors=%d (storage_rotational %s): Innodb_pages_written %llu / %lld (%+.1f%%), "
              "Innodb_buffer_pool_reads %llu / %lld (%+.1f%%), %.0f rows/s\n",
              neighbors, *rotational ? "ON" : "OFF",
              static_cast<unsigned long long>(sim->flush.Innodb_pages_written),
              static_cast<long long>(m->measured.Innodb_pages_written), 100 * e_written,
              static_cast<unsigned long long>(sim->flush.Innodb_buffer_pool_reads),
              static_cast<long long>(m->measured.Innodb_buffer_pool_reads), 100 * e_reads, spec.rows_per_sec);
  EXPECT_LE(std::fabs(e_written), 0.15) << "Innodb_pages_written: simulated " << sim->flush.Innodb_pages_written
                                        << ", measured " << m->measured.Innodb_pages_written;
  EXPECT_LE(std::fabs(e_reads), 0.15) << "Innodb_buffer_pool_reads: simulated " << sim->flush.Innodb_buffer_pool_reads
                                      << ", measured " << m->measured.Innodb_buffer_pool_reads;
}

INSTANTIATE_TEST_SUITE_P(Neighbors, FlushLruServerTest, ::testing::Values(1, 0),
                         [](const ::testing::TestParamInfo<int>& i) { return absl::StrCat("Neighbors", i.param); });

}  // namespace
}  // namespace innosim
