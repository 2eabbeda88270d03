// Shared buffers against a real PostgreSQL 15 when the index outgrows them:
// the same keys (the run's own stream) go into a private server with
// shared_buffers=16MB by INSERT ... SELECT unnest(...) in 10,000-row
// statements (no BufferAccessStrategy: COPY's bulk-write ring would apply to
// the heap, INSERT's does not), and the model runs the same spec with the
// same settings. Held against each other: idx_blks_read and heap_blks_read
// (pg_statio_user_indexes / _tables), the blocks the backend wrote (the
// victims: pg_stat_bgwriter.buffers_backend less the relations' extensions,
// which REL_15's mdextend counts there too), and the final CHECKPOINT's
// buffers_checkpoint, each within 15%.
//
// The background writer is off (bgwriter_lru_maxpages=0) and no checkpoint
// happens during the load (checkpoint_timeout 1d, max_wal_size 10GB): both
// run on the server's wall clock, which a test cannot hold to the model's
// simulated one. A server test (label `server`).
#include <unistd.h>

#include <chrono>
#include <thread>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "sim/key_stream.h"
#include "sim/postgres_driver.h"
#include "sim/runner.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_connection.h"
#include "tools/pg_load.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 1000000;
constexpr uint64_t kStatement = 10000;

class PgBufferServerTest : public PrivatePgTest<PgBufferServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.port = 5473;
    o.shared_buffers = "16MB";
    o.checkpoint_timeout = "1d";
    o.max_wal_size = "10GB";
    o.settings = {{"bgwriter_lru_maxpages", "0"}};
    return o;
  }
};

struct Figures {
  int64_t idx_blks_read = 0;
  int64_t idx_blks_hit = 0;
  int64_t heap_blks_read = 0;
  int64_t heap_blks_hit = 0;
  int64_t buffers_backend = 0;  // pg_stat_bgwriter, during the load
  int64_t extends = 0;          // blocks the load added (heap + index, main forks)
  int64_t buffers_checkpoint = 0;  // the CHECKPOINT after the load
};

absl::StatusOr<Figures> Server(PgPrivateServer& server, const std::string& db, const std::vector<Key>& keys) {
  absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(server.connection_options());
  if (!admin.ok()) return admin.status();
  if (absl::Status s = (*admin)->Exec("DROP DATABASE IF EXISTS " + db); !s.ok()) return s;
  if (absl::Status s = (*admin)->Exec("CREATE DATABASE " + db); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server.connection_options(db));
  if (!c.ok()) return c.status();
  PgConnection& conn = **c;
  auto q = [&](const std::string& sql, int64_t* out) -> absl::Status {
    absl::StatusOr<int64_t> v = conn.QueryInt(sql);
    if (!v.ok()) return v.status();
    *out = *v;
    return absl::OkStatus();
  };
  // CHECKPOINT returns when the checkpoint is done, a moment before the
  // checkpointer reports its counters (CheckpointerMain: done_cv, then
  // pgstat_report_checkpointer); the backends' writes (num_backend_writes)
  // reach buffers_backend when it absorbs the fsync requests. So each
  // CHECKPOINT here waits until checkpoints_req shows it.
  auto checkpoint = [&]() -> absl::Status {
    int64_t req0 = 0, req = 0;
    if (absl::Status s = q("SELECT checkpoints_req FROM pg_stat_bgwriter", &req0); !s.ok()) return s;
    if (absl::Status s = conn.Exec("CHECKPOINT"); !s.ok()) return s;
    for (int i = 0; i < 200 && req == req0; ++i) {
      if (i > 0) usleep(50000);
      if (absl::Status s = q("SELECT checkpoints_req FROM pg_stat_bgwriter", &req); !s.ok()) return s;
    }
    if (req == req0) return absl::DeadlineExceededError("checkpoints_req did not move within 10 s of a CHECKPOINT");
    return absl::OkStatus();
  };
  if (absl::Status s = conn.Exec("CREATE TABLE t(id uuid PRIMARY KEY)"); !s.ok()) return s;
  if (absl::Status s = checkpoint(); !s.ok()) return s;
  for (const char* sql : {"SELECT pg_stat_reset()", "SELECT pg_stat_reset_shared('bgwriter')"}) {
    if (absl::Status s = conn.Exec(sql); !s.ok()) return s;
  }
  // The shared counters as differences across the load, read once the
  // setup's CHECKPOINT (which writes the pages CREATE DATABASE copied) has
  // surely reported.
  sleep(1);
  int64_t backend0 = 0;
  if (absl::Status s = q("SELECT buffers_backend FROM pg_stat_bgwriter", &backend0); !s.ok()) return s;
  for (size_t b = 0; b < keys.size(); b += kStatement) {
    std::string array = "{";
    for (size_t i = b; i < b + kStatement && i < keys.size(); ++i) {
      absl::StatusOr<std::string> text = PgKeyText(keys[i], 16, false);
      if (!text.ok()) return text.status();
      absl::StrAppend(&array, i > b ? "," : "", *text);
    }
    array += "}";
    if (absl::Status s = conn.Exec(absl::StrCat("INSERT INTO t SELECT unnest('", array, "'::uuid[])")); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = conn.Exec("SELECT pg_stat_force_next_flush()"); !s.ok()) return s;
  Figures f;
  for (const auto& [sql, out] : std::vector<std::pair<std::string, int64_t*>>{
           {"SELECT idx_blks_read FROM pg_statio_user_indexes WHERE indexrelname = 't_pkey'", &f.idx_blks_read},
           {"SELECT idx_blks_hit FROM pg_statio_user_indexes WHERE indexrelname = 't_pkey'", &f.idx_blks_hit},
           {"SELECT heap_blks_read FROM pg_statio_user_tables WHERE relname = 't'", &f.heap_blks_read},
           {"SELECT heap_blks_hit FROM pg_statio_user_tables WHERE relname = 't'", &f.heap_blks_hit},
           {"SELECT (pg_relation_size('t') + pg_relation_size('t_pkey')) / 8192", &f.extends},
       }) {
    if (absl::Status s = q(sql, out); !s.ok()) return s;
  }
  f.extends -= 1;  // the index's metapage was written by CREATE INDEX, not extended by the load
  // The final CHECKPOINT's buffers; the backend's writes of the load are
  // all absorbed by its end.
  int64_t ckpt0 = 0;
  if (absl::Status s = q("SELECT buffers_checkpoint FROM pg_stat_bgwriter", &ckpt0); !s.ok()) return s;
  if (absl::Status s = checkpoint(); !s.ok()) return s;
  if (absl::Status s = q("SELECT buffers_checkpoint FROM pg_stat_bgwriter", &f.buffers_checkpoint); !s.ok()) return s;
  f.buffers_checkpoint -= ckpt0;
  if (absl::Status s = q("SELECT buffers_backend FROM pg_stat_bgwriter", &f.buffers_backend); !s.ok()) return s;
  f.buffers_backend -= backend0;
  return f;
}

void ExpectWithin(const char* what, double model, double server, double tolerance) {
  const double err = server != 0 ? std::fabs(model - server) / server : std::fabs(model);
  EXPECT_LE(err, tolerance) << what << ": model " << model << ", server " << server;
}

void Compare(PgPrivateServer& server, const std::string& stream, const std::string& db) {
  RunSpec spec;
  spec.stream.name = stream;
  spec.stream.seed = 1;
  spec.rows = kRows;
  spec.profile = "postgresql-15";
  spec.table = "CREATE TABLE t (id uuid PRIMARY KEY)";
  spec.trx_rows = kStatement;
  spec.settings = {{"shared_buffers", "16MB", "test"},
                   {"checkpoint_timeout", "1d", "test"},
                   {"max_wal_size", "10GB", "test"},
                   {"bgwriter_lru_maxpages", "0", "test"}};
  spec.phases.push_back(PhaseSpec{.kind = PhaseSpec::Kind::kCheckpoint, .text = "checkpoint"});
  absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec.stream);
  ASSERT_TRUE(ks.ok()) << ks.status();
  std::vector<Key> keys;
  keys.reserve(kRows);
  Key k;
  while (keys.size() < kRows && (*ks)->Next(&k)) keys.push_back(k);
  ASSERT_EQ(keys.size(), kRows);

  absl::StatusOr<Figures> s = Server(server, db, keys);
  ASSERT_TRUE(s.ok()) << s.status();
  absl::StatusOr<RunResult> r = Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto* pg = dynamic_cast<const PgRunResult*>(r->engine_result.get());
  ASSERT_NE(pg, nullptr);
  ASSERT_EQ(pg->phases().size(), 2u);
  const postgres::PgTableReport& load = pg->phases()[0].report;  // at the load's end
  const postgres::PgTableReport& ckpt = pg->phases()[1].io_delta;
  const postgres::BufferCounters& b = load.io.buffers;
  std::cout << stream << " " << kRows << " rows, shared_buffers=16MB\n"
            << "  idx_blks_read  server " << s->idx_blks_read << "  model " << load.indexes[0].io.blks_read << "\n"
            << "  idx_blks_hit   server " << s->idx_blks_hit << "  model " << load.indexes[0].io.blks_hit << "\n"
            << "  heap_blks_read server " << s->heap_blks_read << "  model " << load.heap_io.blks_read << "\n"
            << "  heap_blks_hit  server " << s->heap_blks_hit << "  model " << load.heap_io.blks_hit << "\n"
            << "  buffers_backend server " << s->buffers_backend << " (extends " << s->extends << ")  model "
            << b.buffers_backend << " (extends " << b.extends << ", victims " << b.backend_writes << ")\n"
            << "  CHECKPOINT buffers_checkpoint server " << s->buffers_checkpoint << "  model "
            << ckpt.io.buffers.buffers_checkpoint << "\n";
  ExpectWithin("idx_blks_read", static_cast<double>(load.indexes[0].io.blks_read),
               static_cast<double>(s->idx_blks_read), 0.15);
  ExpectWithin("backend victim writes", static_cast<double>(b.backend_writes),
               static_cast<double>(s->buffers_backend - s->extends), 0.15);
  ExpectWithin("blocks written (backend + checkpoint)",
               static_cast<double>(b.backend_writes + ckpt.io.buffers.buffers_checkpoint),
               static_cast<double>(s->buffers_backend - s->extends + s->buffers_checkpoint), 0.15);
  EXPECT_EQ(b.extends, static_cast<uint64_t>(s->extends));
}

TEST_F(PgBufferServerTest, UuidV4IndexOutgrowsSharedBuffers) { Compare(server(), "uuidv4", "buf_v4"); }

TEST_F(PgBufferServerTest, UuidV7IndexOutgrowsSharedBuffers) { Compare(server(), "uuidv7-subms", "buf_v7"); }

}  // namespace
}  // namespace innosim

// Timed checkpoints on the load's clock: 4M UUIDv4 rows into a server with
// checkpoint_timeout=30s (shared_buffers 128MB, the index fits), the model
// clocked at the server's own average rate (rows / the load's wall time),
// the checkpointer's clock starting at the CHECKPOINT just before the load
// (its last_checkpoint_time). Held: pg_stat_wal's wal_fpi and wal_bytes
// across the load within 10%, and the number of timed checkpoints within
// one. The load is paced to last at least kTimedLoadSeconds whatever the
// machine's speed (each 10,000-row statement waits for its turn), so that
// timed checkpoints happen (checkpoint_timeout's minimum is 30 s) on a fast
// machine too; a slower one just takes longer. The server's rate within a
// statement is not steady, which is what the tolerance absorbs.
namespace innosim {
namespace {

constexpr uint64_t kTimedRows = 4000000;
constexpr double kTimedLoadSeconds = 75;  // two timed checkpoints of 30 s at least

class PgTimedCheckpointServerTest : public PrivatePgTest<PgTimedCheckpointServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.port = 5474;
    o.shared_buffers = "128MB";
    o.checkpoint_timeout = "30s";
    o.max_wal_size = "10GB";
    return o;
  }
};

TEST_F(PgTimedCheckpointServerTest, WalAndImagesOfALoadWithTimedCheckpoints) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.stream.seed = 2;
  spec.rows = kTimedRows;
  spec.profile = "postgresql-15";
  spec.table = "CREATE TABLE t (id uuid PRIMARY KEY)";
  spec.trx_rows = kStatement;
  absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec.stream);
  ASSERT_TRUE(ks.ok()) << ks.status();
  std::vector<Key> keys;
  keys.reserve(kTimedRows);
  Key k;
  while (keys.size() < kTimedRows && (*ks)->Next(&k)) keys.push_back(k);

  absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(server().connection_options());
  ASSERT_TRUE(admin.ok()) << admin.status();
  ASSERT_TRUE((*admin)->Exec("DROP DATABASE IF EXISTS timed").ok());
  ASSERT_TRUE((*admin)->Exec("CREATE DATABASE timed").ok());
  absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server().connection_options("timed"));
  ASSERT_TRUE(c.ok()) << c.status();
  PgConnection& conn = **c;
  ASSERT_TRUE(conn.Exec("CREATE TABLE t(id uuid PRIMARY KEY)").ok());
  std::vector<std::string> arrays;
  for (size_t b = 0; b < keys.size(); b += kStatement) {
    std::string array = "{";
    for (size_t i = b; i < b + kStatement && i < keys.size(); ++i) {
      absl::StatusOr<std::string> text = PgKeyText(keys[i], 16, false);
      ASSERT_TRUE(text.ok());
      absl::StrAppend(&array, i > b ? "," : "", *text);
    }
    arrays.push_back(array + "}");
  }
  ASSERT_TRUE(conn.Exec("SELECT pg_stat_reset_shared('wal')").ok());
  ASSERT_TRUE(conn.Exec("SELECT pg_stat_reset_shared('bgwriter')").ok());
  sleep(1);
  absl::StatusOr<int64_t> timed0 = conn.QueryInt("SELECT checkpoints_timed FROM pg_stat_bgwriter");
  // The checkpointer's clock starts when this CHECKPOINT starts
  // (last_checkpoint_time is a checkpoint's start).
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(conn.Exec("CHECKPOINT").ok());
  absl::StatusOr<int64_t> fpi0 = conn.QueryInt("SELECT wal_fpi FROM pg_stat_wal");
  absl::StatusOr<int64_t> bytes0 = conn.QueryInt("SELECT wal_bytes::bigint FROM pg_stat_wal");
  const double turn_s = kTimedLoadSeconds / static_cast<double>(arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    ASSERT_TRUE(conn.Exec(absl::StrCat("INSERT INTO t SELECT unnest('", arrays[i], "'::uuid[])")).ok());
    std::this_thread::sleep_until(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                              std::chrono::duration<double>(turn_s * static_cast<double>(i + 1))));
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(conn.Exec("SELECT pg_stat_force_next_flush()").ok());
  absl::StatusOr<int64_t> fpi1 = conn.QueryInt("SELECT wal_fpi FROM pg_stat_wal");
  absl::StatusOr<int64_t> bytes1 = conn.QueryInt("SELECT wal_bytes::bigint FROM pg_stat_wal");
  sleep(1);
  absl::StatusOr<int64_t> timed1 = conn.QueryInt("SELECT checkpoints_timed FROM pg_stat_bgwriter");
  ASSERT_TRUE(timed0.ok() && timed1.ok() && fpi0.ok() && fpi1.ok() && bytes0.ok() && bytes1.ok());

  spec.rows_per_sec = static_cast<double>(kTimedRows) / elapsed;
  spec.settings = {{"shared_buffers", "128MB", "test"}, {"checkpoint_timeout", "30s", "test"},
                   {"max_wal_size", "10GB", "test"}};
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto* pg = dynamic_cast<const PgRunResult*>(r->engine_result.get());
  ASSERT_NE(pg, nullptr);
  const postgres::PgTableReport& m = pg->report();
  std::cout << "uuidv4 " << kTimedRows << " rows in " << elapsed << " s (" << spec.rows_per_sec
            << " rows/s), checkpoint_timeout=30s\n"
            << "  wal_fpi   server " << (*fpi1 - *fpi0) << "  model " << m.wal.wal_fpi << "\n"
            << "  wal_bytes server " << (*bytes1 - *bytes0) << "  model " << m.wal.wal_bytes << "\n"
            << "  checkpoints_timed server " << (*timed1 - *timed0) << "  model " << m.io.checkpoints.checkpoints_timed
            << "\n";
  ExpectWithin("wal_fpi", static_cast<double>(m.wal.wal_fpi), static_cast<double>(*fpi1 - *fpi0), 0.10);
  ExpectWithin("wal_bytes", static_cast<double>(m.wal.wal_bytes), static_cast<double>(*bytes1 - *bytes0), 0.10);
  EXPECT_LE(std::abs(static_cast<int64_t>(m.io.checkpoints.checkpoints_timed) - (*timed1 - *timed0)), 1);
  // The premise: the paced load outlasted two checkpoint_timeouts on the server.
  EXPECT_GE(*timed1 - *timed0, 2);
}

}  // namespace
}  // namespace innosim
