// Seed 002's step against a private PostgreSQL 15: the same keys loaded
// into the server (tools/pg_load.h: COPY, 1,000 rows per transaction) and
// into the model (model/postgres/table.h, a commit every 1,000 rows), then
// CHECKPOINT, then 10,000 more rows in one INSERT ... SELECT unnest(...)
// (heap_insert row by row, one transaction, as seed 002 added its rows).
// Compared: pg_stat_wal's wal_records, wal_fpi and wal_bytes across the
// step (reset before it, pg_stat_force_next_flush() after it), and the
// pg_buffercache isdirty census of the index and of the heap at its end.
// Lines starting "pg-wal" print both sides and pg_walinspect's record types.
//
// Tolerances: the dirty-block census is exact, and so are the step's own
// records (pg_walinspect's records naming t or t_pkey, and the commit of
// their transaction): their number, images and bytes (the same keys make
// the same pages). pg_stat_wal counts what other relations wrote too:
// measured here, one or two Heap2/PRUNE records with an image of a catalog
// page that the INSERT's catalog lookups pruned (heap_page_prune_opt on
// pg_class/pg_attribute pages made dead by CREATE TABLE and CREATE
// EXTENSION), and the background writer's standby snapshots; the model
// writes only the table's records, so pg_stat_wal may exceed it by at most
// 4 records and 2 page images (2 * 8192 + 4 * 128 bytes).
// A server test (label `server`).
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "model/postgres/table.h"
#include "tools/pg_load.h"
#include "tools/pg_private_server.h"

namespace innosim {
namespace {

constexpr uint64_t kRows = 200000;
constexpr uint64_t kMoreRows = 10000;
constexpr uint32_t kBatch = 1000;

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Key RandomUuidV4(uint64_t* state) {
  const uint64_t hi = SplitMix64(state);
  const uint64_t lo = SplitMix64(state);
  return Key{(hi & ~0xf000ull) | 0x4000ull, (lo & ~(3ull << 62)) | (2ull << 62)};
}

struct StepFigures {
  int64_t wal_records = 0;
  int64_t wal_fpi = 0;
  int64_t wal_bytes = 0;
  // pg_walinspect: the records of the step's own transaction (those naming
  // t or t_pkey, and its commit), from pg_get_wal_records_info.
  int64_t own_records = 0;
  int64_t own_fpi = 0;
  int64_t own_bytes = 0;
  int64_t index_dirty = 0;
  int64_t heap_dirty = 0;
};

class PgWalTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    PgPrivateServerOptions o;
    o.shared_buffers = "256MB";      // every block stays in the pool (no eviction in this model yet)
    o.checkpoint_timeout = "1h";     // no timed checkpoint during a step
    o.port = 5471;
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

  // The server's step.
  // payload_bytes > 0: a second column `v text` of that many letters.
  static absl::StatusOr<StepFigures> Server(const std::string& db, int key_width, const std::vector<Key>& first,
                                            const std::vector<Key>& more, uint32_t payload_bytes) {
    PgLoadOptions o;
    o.database = db;
    o.key_width = key_width;
    o.create_sql = absl::StrCat("CREATE TABLE t(id ", key_width == 8 ? "bigint" : "uuid", " PRIMARY KEY",
                                payload_bytes > 0 ? ", v text" : "", ")");
    o.payload_bytes = payload_bytes;
    o.batch_rows = kBatch;
    absl::StatusOr<PgLoadResult> loaded = PgLoadKeys(server_->connection_options(), o, first);
    if (!loaded.ok()) return loaded.status();
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server_->connection_options(db));
    if (!c.ok()) return c.status();
    PgConnection& conn = **c;
    std::string array = "{";
    for (size_t i = 0; i < more.size(); ++i) {
      absl::StatusOr<std::string> text = PgKeyText(more[i], key_width, false);
      if (!text.ok()) return text.status();
      absl::StrAppend(&array, i ? "," : "", *text);
    }
    array += "}";
    const std::string type = key_width == 8 ? "bigint" : "uuid";
    for (const char* sql : {"CREATE EXTENSION IF NOT EXISTS pg_buffercache", "CREATE EXTENSION IF NOT EXISTS pg_walinspect",
                            "CREATE TABLE lsn(start pg_lsn)", "CHECKPOINT", "SELECT pg_stat_reset_shared('wal')",
                            "INSERT INTO lsn SELECT pg_current_wal_insert_lsn()"}) {
      if (absl::Status s = conn.Exec(sql); !s.ok()) return s;
    }
    // The counters before the step (the INSERT into lsn included: the
    // step is what changes after it); walinspect's range starts there too.
    if (absl::Status s = conn.Exec("SELECT pg_stat_force_next_flush()"); !s.ok()) return s;
    absl::StatusOr<int64_t> r0 = conn.QueryInt("SELECT wal_records FROM pg_stat_wal");
    absl::StatusOr<int64_t> f0 = conn.QueryInt("SELECT wal_fpi FROM pg_stat_wal");
    absl::StatusOr<int64_t> b0 = conn.QueryInt("SELECT wal_bytes::bigint FROM pg_stat_wal");
    if (!r0.ok() || !f0.ok() || !b0.ok()) return absl::InternalError("pg_stat_wal before the step");
    // The payload's letters differ from PgLoadKeys' but not its length,
    // which is all a tuple's size depends on (32 letters: not compressed).
    const std::string payload = payload_bytes > 0 ? absl::StrCat(", repeat('q', ", payload_bytes, ")") : "";
    if (absl::Status s = conn.Exec(absl::StrCat("INSERT INTO t SELECT k", payload, " FROM unnest('", array, "'::", type,
                                                "[]) AS k"));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = conn.Exec("SELECT pg_stat_force_next_flush()"); !s.ok()) return s;
    StepFigures f;
    absl::StatusOr<int64_t> r1 = conn.QueryInt("SELECT wal_records FROM pg_stat_wal");
    absl::StatusOr<int64_t> f1 = conn.QueryInt("SELECT wal_fpi FROM pg_stat_wal");
    absl::StatusOr<int64_t> b1 = conn.QueryInt("SELECT wal_bytes::bigint FROM pg_stat_wal");
    if (!r1.ok() || !f1.ok() || !b1.ok()) return absl::InternalError("pg_stat_wal after the step");
    f.wal_records = *r1 - *r0;
    f.wal_fpi = *f1 - *f0;
    f.wal_bytes = *b1 - *b0;
    const std::string census =
        "SELECT count(*) FILTER (WHERE isdirty) FROM pg_buffercache WHERE reldatabase = (SELECT oid FROM "
        "pg_database WHERE datname = current_database()) AND relforknumber = 0 AND relfilenode = "
        "pg_relation_filenode('";
    absl::StatusOr<int64_t> ix = conn.QueryInt(census + "t_pkey')");
    absl::StatusOr<int64_t> heap = conn.QueryInt(census + "t')");
    if (!ix.ok()) return ix.status();
    if (!heap.ok()) return heap.status();
    f.index_dirty = *ix;
    f.heap_dirty = *heap;
    const std::string own =
        "WITH r AS (SELECT * FROM pg_get_wal_records_info((SELECT start FROM lsn), pg_current_wal_flush_lsn())), "
        "o AS (SELECT * FROM r WHERE block_ref ~ ('/(' || pg_relation_filenode('t') || '|' || "
        "pg_relation_filenode('t_pkey') || ') ')) "
        "SELECT count(*), sum(record_length)::bigint, sum((length(block_ref) - length(replace(block_ref, '(FPW)', "
        "''))) / 5)::bigint FROM r WHERE block_ref ~ ('/(' || pg_relation_filenode('t') || '|' || "
        "pg_relation_filenode('t_pkey') || ') ') OR (resource_manager = 'Transaction' AND xid IN (SELECT xid FROM "
        "o))";
    absl::StatusOr<std::vector<PgConnection::Row>> own_rows = conn.Query(own);
    if (!own_rows.ok()) return own_rows.status();
    if (own_rows->size() != 1 || (*own_rows)[0].size() != 3) return absl::InternalError("walinspect sum");
    f.own_records = std::stoll((*own_rows)[0][0].value_or("0"));
    f.own_bytes = std::stoll((*own_rows)[0][1].value_or("0"));
    f.own_fpi = std::stoll((*own_rows)[0][2].value_or("0"));
    absl::StatusOr<std::vector<PgConnection::Row>> stats = conn.Query(
        "SELECT \"resource_manager/record_type\", count, record_size, fpi_size FROM pg_get_wal_stats((SELECT start "
        "FROM lsn), pg_current_wal_flush_lsn(), true) WHERE count > 0");
    if (stats.ok()) {
      for (const PgConnection::Row& row : *stats) {
        std::cout << "pg-wal " << db << ": walinspect " << row[0].value_or("") << " count " << row[1].value_or("")
                  << " record_size " << row[2].value_or("") << " fpi_size " << row[3].value_or("") << "\n";
      }
    }
    return f;
  }

  // The model's step: the same keys, the same transactions.
  static StepFigures Model(int key_width, const std::vector<Key>& first, const std::vector<Key>& more,
                           uint32_t payload_bytes) {
    postgres::PgTableSpec spec;
    spec.columns = {{"id", key_width == 8 ? postgres::PgType::kInt8 : postgres::PgType::kUuid}};
    if (payload_bytes > 0) spec.columns.push_back({"v", postgres::PgType::kText, true, static_cast<int>(payload_bytes)});
    spec.primary_key = {0};
    postgres::PgTable t(postgres::kPostgresql15, spec);
    uint64_t n = 0;
    for (const Key& k : first) {
      t.InsertRow(k);
      t.EndRow();
      if (++n % kBatch == 0) t.Commit();
    }
    if (n % kBatch != 0) t.Commit();
    t.Checkpoint();
    const postgres::WalCounters before = t.wal().counters();
    for (const Key& k : more) {
      t.InsertRow(k);
      t.EndRow();
    }
    t.Commit();
    EXPECT_EQ(t.Verify(), "");
    const postgres::PgTableReport r = t.Report();
    StepFigures f;
    f.wal_records = static_cast<int64_t>(r.wal.wal_records - before.wal_records);
    f.wal_fpi = static_cast<int64_t>(r.wal.wal_fpi - before.wal_fpi);
    f.wal_bytes = static_cast<int64_t>(r.wal.wal_bytes - before.wal_bytes);
    f.index_dirty = static_cast<int64_t>(r.indexes[0].dirty_blocks);
    f.heap_dirty = static_cast<int64_t>(r.heap_dirty_blocks);
    return f;
  }

  static void Compare(const std::string& name, int key_width, const std::vector<Key>& first,
                      const std::vector<Key>& more, uint32_t payload_bytes = 0) {
    absl::StatusOr<StepFigures> server = Server(name, key_width, first, more, payload_bytes);
    ASSERT_TRUE(server.ok()) << server.status();
    const StepFigures model = Model(key_width, first, more, payload_bytes);
    std::cout << "pg-wal " << name << ": " << first.size() << " rows, CHECKPOINT, " << more.size()
              << " rows: server wal_records " << server->wal_records << " wal_fpi " << server->wal_fpi
              << " wal_bytes " << server->wal_bytes << " t_pkey dirty " << server->index_dirty << " t dirty "
              << server->heap_dirty << " (own transaction: records " << server->own_records << " fpi "
              << server->own_fpi << " bytes " << server->own_bytes << "); model wal_records " << model.wal_records << " wal_fpi " << model.wal_fpi
              << " wal_bytes " << model.wal_bytes << " t_pkey dirty " << model.index_dirty << " t dirty "
              << model.heap_dirty << "\n";
    std::cout.flush();
    EXPECT_EQ(model.index_dirty, server->index_dirty);
    EXPECT_EQ(model.heap_dirty, server->heap_dirty);
    // The step's own records: exact.
    EXPECT_EQ(model.wal_records, server->own_records);
    EXPECT_EQ(model.wal_fpi, server->own_fpi);
    EXPECT_EQ(model.wal_bytes, server->own_bytes);
    // pg_stat_wal: the same plus what other relations wrote meanwhile (the
    // catalog pages the INSERT's lookups pruned, with their images, the
    // checkpointer's and the background writer's records): at most
    // kOtherRecords records and kOtherFpi images more.
    constexpr int64_t kOtherRecords = 4;
    constexpr int64_t kOtherFpi = 2;
    EXPECT_GE(server->wal_records, model.wal_records);
    EXPECT_LE(server->wal_records - model.wal_records, kOtherRecords);
    EXPECT_GE(server->wal_fpi, model.wal_fpi);
    EXPECT_LE(server->wal_fpi - model.wal_fpi, kOtherFpi);
    EXPECT_GE(server->wal_bytes, model.wal_bytes);
    EXPECT_LE(server->wal_bytes - model.wal_bytes, kOtherFpi * 8192 + kOtherRecords * 128);
  }

  static PgPrivateServer* server_;
  static std::string* start_error_;
};

PgPrivateServer* PgWalTest::server_ = nullptr;
std::string* PgWalTest::start_error_ = new std::string;

TEST_F(PgWalTest, BigintAscending) {
  std::vector<Key> first, more;
  for (uint64_t i = 1; i <= kRows; ++i) first.push_back(Key::FromU64(i));
  for (uint64_t i = kRows + 1; i <= kRows + kMoreRows; ++i) more.push_back(Key::FromU64(i));
  Compare("wal_bigint", 8, first, more);
}

TEST_F(PgWalTest, UuidAscending) {
  std::vector<Key> first, more;
  for (uint64_t i = 1; i <= kRows; ++i) first.push_back(Key{0x0190000000007000ull, i});
  for (uint64_t i = kRows + 1; i <= kRows + kMoreRows; ++i) more.push_back(Key{0x0190000000007000ull, i});
  Compare("wal_uuid_asc", 16, first, more);
}

TEST_F(PgWalTest, UuidV4) {
  uint64_t state = 2;
  std::vector<Key> first, more;
  for (uint64_t i = 0; i < kRows; ++i) first.push_back(RandomUuidV4(&state));
  for (uint64_t i = 0; i < kMoreRows; ++i) more.push_back(RandomUuidV4(&state));
  Compare("wal_uuid_v4", 16, first, more);
}

// The load itself, from CREATE TABLE on, by INSERT ... SELECT unnest(...)
// in 1,000-row transactions (no checkpoint since the table was made: every
// block is new, so no image): the records of the empty root
// (_bt_getroot's NEWROOT), the root splits (_bt_newroot), internal page
// splits (SPLIT with the child as block 3) and every insert, equal to the
// model's.
TEST_F(PgWalTest, LoadFromAnEmptyTableByInsert) {
  constexpr uint64_t kLoad = 100000;
  uint64_t state = 4;
  std::vector<Key> keys;
  for (uint64_t i = 0; i < kLoad; ++i) keys.push_back(RandomUuidV4(&state));
  absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(server_->connection_options());
  ASSERT_TRUE(admin.ok()) << admin.status();
  ASSERT_TRUE((*admin)->Exec("DROP DATABASE IF EXISTS wal_load").ok());
  ASSERT_TRUE((*admin)->Exec("CREATE DATABASE wal_load").ok());
  absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server_->connection_options("wal_load"));
  ASSERT_TRUE(c.ok()) << c.status();
  PgConnection& conn = **c;
  for (const char* sql : {"CREATE EXTENSION pg_walinspect", "CREATE TABLE t(id uuid PRIMARY KEY)",
                          "CREATE TABLE lsn(start pg_lsn)", "INSERT INTO lsn SELECT pg_current_wal_insert_lsn()"}) {
    ASSERT_TRUE(conn.Exec(sql).ok()) << sql;
  }
  for (uint64_t b = 0; b < kLoad; b += kBatch) {
    std::string array = "{";
    for (uint64_t i = b; i < b + kBatch; ++i) {
      absl::StatusOr<std::string> text = PgKeyText(keys[i], 16, false);
      ASSERT_TRUE(text.ok()) << text.status();
      absl::StrAppend(&array, i > b ? "," : "", *text);
    }
    array += "}";
    ASSERT_TRUE(conn.Exec(absl::StrCat("INSERT INTO t SELECT unnest('", array, "'::uuid[])")).ok());
  }
  absl::StatusOr<std::vector<PgConnection::Row>> own = conn.Query(
      "WITH r AS (SELECT * FROM pg_get_wal_records_info((SELECT start FROM lsn), pg_current_wal_flush_lsn())), "
      "o AS (SELECT * FROM r WHERE block_ref ~ ('/(' || pg_relation_filenode('t') || '|' || "
      "pg_relation_filenode('t_pkey') || ') ')) "
      "SELECT count(*), sum(record_length)::bigint, count(*) FILTER (WHERE record_type = 'NEWROOT'), "
      "sum((length(block_ref) - length(replace(block_ref, '(FPW)', ''))) / 5)::bigint FROM r "
      "WHERE block_ref ~ ('/(' || pg_relation_filenode('t') || '|' || pg_relation_filenode('t_pkey') || ') ') "
      "OR (resource_manager = 'Transaction' AND xid IN (SELECT xid FROM o))");
  ASSERT_TRUE(own.ok()) << own.status();
  ASSERT_EQ(own->size(), 1u);
  const int64_t records = std::stoll((*own)[0][0].value_or("0"));
  const int64_t bytes = std::stoll((*own)[0][1].value_or("0"));
  const int64_t newroots = std::stoll((*own)[0][2].value_or("0"));
  const int64_t fpi = std::stoll((*own)[0][3].value_or("0"));

  postgres::PgTableSpec spec;
  spec.columns = {{"id", postgres::PgType::kUuid}};
  spec.primary_key = {0};
  postgres::PgTable t(postgres::kPostgresql15, spec);
  for (uint64_t i = 0; i < kLoad; ++i) {
    t.InsertRow(keys[i]);
    t.EndRow();
    if ((i + 1) % kBatch == 0) t.Commit();
  }
  const postgres::PgTableReport r = t.Report();
  std::cout << "pg-wal wal_load: " << kLoad << " uuidv4 rows by INSERT from CREATE TABLE: server records " << records
            << " bytes " << bytes << " images " << fpi << " NEWROOT " << newroots << "; model records "
            << r.wal.wal_records << " bytes " << r.wal.wal_bytes << " images " << r.wal.wal_fpi << " new roots + empty root "
            << r.indexes[0].counters.new_roots + 1 << "\n";
  EXPECT_EQ(static_cast<int64_t>(r.wal.wal_records), records);
  EXPECT_EQ(static_cast<int64_t>(r.wal.wal_bytes), bytes);
  EXPECT_EQ(static_cast<int64_t>(r.wal.wal_fpi), fpi);
  EXPECT_EQ(static_cast<int64_t>(r.indexes[0].counters.new_roots + 1), newroots);
}

// Seed 002's other table shape: the key and a 32-byte text (heap tuple
// 24 + 16 + 1 + 32 = 73 bytes, t_len as heap_form_tuple makes it).
TEST_F(PgWalTest, UuidV4WithATextPayload) {
  uint64_t state = 3;
  std::vector<Key> first, more;
  for (uint64_t i = 0; i < kRows; ++i) first.push_back(RandomUuidV4(&state));
  for (uint64_t i = 0; i < kMoreRows; ++i) more.push_back(RandomUuidV4(&state));
  Compare("wal_uuid_v4_text", 16, first, more, 32);
}

TEST_F(PgWalTest, BigintWithATextPayload) {
  std::vector<Key> first, more;
  for (uint64_t i = 1; i <= kRows; ++i) first.push_back(Key::FromU64(i));
  for (uint64_t i = kRows + 1; i <= kRows + kMoreRows; ++i) more.push_back(Key::FromU64(i));
  Compare("wal_bigint_text", 8, first, more, 32);
}

}  // namespace
}  // namespace innosim
