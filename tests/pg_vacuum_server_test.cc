// DELETE + VACUUM and REINDEX in the PostgreSQL model against a real
// PostgreSQL 15, on the same keys (model/postgres/vacuum.h, vacuumlazy.h,
// nbtsort.h): seed 002's v4-to-v7 switch scaled to 300,000 + 60,000 rows
// (the run's own phases: insert, delete:phase:1, optimize = REINDEX TABLE),
// a non-unique index with many duplicates (posting lists shrinking under
// VACUUM, deduplicated by the build) and a composite primary key, each
// driven through the engine seam with the heap TIDs the server assigns.
// After each step pgstatindex's figures and the heap's size are held
// against the model's. A server test (label `server`).
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "model/key.h"
#include "model/postgres/nbtree.h"
#include "model/postgres/pg_engine.h"
#include "model/postgres/vacuum.h"
#include "sim/key_stream.h"
#include "sim/phases.h"
#include "sim/postgres_driver.h"
#include "sim/runner.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_connection.h"
#include "tools/pg_load.h"

namespace innosim {
namespace {

class PgVacuumServerTest : public PrivatePgTest<PgVacuumServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.shared_buffers = "256MB";
    return o;
  }
  static PgConnectionOptions ServerConnection(const std::string& db = "postgres") {
    return server().connection_options(db);
  }

  static std::vector<Key> Keys(const StreamSpec& spec, uint64_t n) {
    absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec);
    EXPECT_TRUE(ks.ok()) << ks.status();
    std::vector<Key> keys;
    if (!ks.ok()) return keys;
    Key k;
    while (keys.size() < n && (*ks)->Next(&k)) keys.push_back(k);
    return keys;
  }

  // Holds the server's figures (`s`) against the model's (`m`) for `step`.
  static void Check(const std::string& step, const PgLoadResult& s, const postgres::PgTableReport& m) {
    EXPECT_EQ(s.rows, static_cast<int64_t>(m.rows)) << step;
    EXPECT_EQ(s.heap_relpages, static_cast<int64_t>(m.heap_relpages)) << step;
    EXPECT_EQ(s.heap_relation_size, static_cast<int64_t>(m.heap_pg_relation_size)) << step;
    ASSERT_EQ(s.indexes.size(), m.indexes.size()) << step;
    for (const postgres::PgIndexReport& mi : m.indexes) {
      const PgIndexStats* si = nullptr;
      for (const PgIndexStats& x : s.indexes) {
        if (x.name == mi.name) si = &x;
      }
      ASSERT_NE(si, nullptr) << step << " " << mi.name;
      const postgres::PgStatIndex& ms = mi.stat;
      std::cout << "pg-vacuum " << step << " " << mi.name << ": server leaf " << si->leaf_pages << " internal "
                << si->internal_pages << " deleted " << si->deleted_pages << " empty " << si->empty_pages << " root "
                << si->root_block_no << " density " << si->avg_leaf_density << " fragmentation "
                << si->leaf_fragmentation << " size " << si->index_size << "; model leaf " << ms.leaf_pages
                << " internal " << ms.internal_pages << " deleted " << ms.deleted_pages << " empty " << ms.empty_pages
                << " root " << ms.root_block_no << " density " << ms.avg_leaf_density << " fragmentation "
                << ms.leaf_fragmentation << " size " << ms.index_size << "; heap " << s.heap_relpages << " / "
                << m.heap_relpages << "\n";
      EXPECT_EQ(si->tree_level, ms.tree_level) << step << " " << mi.name;
      EXPECT_EQ(si->leaf_pages, static_cast<int64_t>(ms.leaf_pages)) << step << " " << mi.name;
      EXPECT_EQ(si->internal_pages, static_cast<int64_t>(ms.internal_pages)) << step << " " << mi.name;
      EXPECT_EQ(si->deleted_pages, static_cast<int64_t>(ms.deleted_pages)) << step << " " << mi.name;
      EXPECT_EQ(si->empty_pages, static_cast<int64_t>(ms.empty_pages)) << step << " " << mi.name;
      EXPECT_EQ(si->root_block_no, static_cast<int64_t>(ms.root_block_no)) << step << " " << mi.name;
      EXPECT_EQ(si->index_size, static_cast<int64_t>(ms.index_size)) << step << " " << mi.name;
      EXPECT_EQ(si->relation_size, static_cast<int64_t>(ms.relpages) * 8192) << step << " " << mi.name;
      // pgstatindex prints both with two decimals. A non-unique index's
      // density after the load by single inserts differs by about 0.15
      // points already (the insert path's deduplication passes, before any
      // VACUUM: a known gap of the insert model), hence the 0.5.
      EXPECT_NEAR(si->avg_leaf_density, ms.avg_leaf_density, mi.unique ? 0.006 : 0.5) << step << " " << mi.name;
      EXPECT_NEAR(si->leaf_fragmentation, ms.leaf_fragmentation, 0.006) << step << " " << mi.name;
    }
    std::cout.flush();
  }

  static std::unique_ptr<PgConnection> Connect(const std::string& db) {
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server().connection_options(db));
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? std::move(*c) : nullptr;
  }

  static PgLoadResult Read(PgConnection& conn, const std::string& table) {
    absl::StatusOr<PgLoadResult> r = PgReadTableStats(conn, table);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : PgLoadResult{};
  }
};

Key Int8Key(int64_t v) { return Key::FromU64(static_cast<uint64_t>(v) ^ (uint64_t{1} << 63)); }

// Seed 002's switch at 300,000 UUIDv4 rows and 60,000 UUIDv7 rows: the v7
// rows split non-rightmost leaves 50:50; DELETE of the v4 rows and VACUUM
// delete the leaves they leave empty (the v7 leaves stay half full);
// REINDEX packs the v7 rows to fillfactor 90. The model runs the phases
// insert:uuidv7-subms, delete:phase:1 and optimize.
TEST_F(PgVacuumServerTest, SwitchV4ToV7DeleteVacuumReindex) {
  RunSpec spec;
  spec.profile = "postgresql-15";
  spec.stream.name = "uuidv4";
  spec.stream.seed = 7;
  spec.rows = 300000;
  spec.table = "CREATE TABLE t (id uuid PRIMARY KEY)";
  for (const char* p : {"insert:uuidv7-subms:60000", "delete:phase:1", "optimize"}) {
    absl::StatusOr<PhaseSpec> ph = ParsePhase(p);
    ASSERT_TRUE(ph.ok()) << ph.status();
    spec.phases.push_back(*ph);
  }
  const std::vector<Key> v4 = Keys(spec.stream, spec.rows);
  const std::vector<Key> v7 = Keys(PhaseStreamSpec(spec, 0, spec.rows, 0), 60000);
  ASSERT_EQ(v4.size(), spec.rows);
  ASSERT_EQ(v7.size(), 60000u);

  PgLoadOptions o;
  o.database = "switch";
  o.create_sql = spec.table;
  o.key_width = 16;
  o.batch_rows = 10000;
  absl::StatusOr<PgLoadResult> a = PgLoadKeys(server().connection_options(), o, v4);
  ASSERT_TRUE(a.ok()) << a.status();
  o.append = true;
  absl::StatusOr<PgLoadResult> b = PgLoadKeys(server().connection_options(), o, v7);
  ASSERT_TRUE(b.ok()) << b.status();
  std::unique_ptr<PgConnection> conn = Connect("switch");
  ASSERT_NE(conn, nullptr);
  // The v4 rows: the uuid's version digit (text position 15) is 4.
  ASSERT_TRUE(conn->Exec("DELETE FROM t WHERE substr(id::text, 15, 1) = '4'").ok());
  ASSERT_TRUE(conn->Exec("VACUUM t").ok());
  const PgLoadResult c = Read(*conn, "t");
  ASSERT_TRUE(conn->Exec("REINDEX TABLE t").ok());
  const PgLoadResult d = Read(*conn, "t");

  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto* pg = dynamic_cast<const PgRunResult*>(r->engine_result.get());
  ASSERT_NE(pg, nullptr);
  ASSERT_EQ(pg->phases().size(), 4u);
  Check("switch v4", *a, pg->phases()[0].report);
  Check("switch +v7", *b, pg->phases()[1].report);
  Check("switch delete+vacuum", c, pg->phases()[2].report);
  Check("switch reindex", d, pg->phases()[3].report);
  // The model's own story: leaves deleted, none recycled yet.
  EXPECT_GT(pg->phases()[2].report.indexes[0].stat.deleted_pages, 1000u);
  EXPECT_EQ(pg->phases()[3].report.indexes[0].stat.deleted_pages, 0u);
}

// Rows driven through the engine seam and loaded into the server in the
// same order (COPY of the first column; the others generated or from a
// sequence, so both sides get the same heap TIDs); then a DELETE by
// `delete_where` (the model deletes the same rows), VACUUM, REINDEX.
struct SeamCase {
  std::string db;
  std::string create_sql;                 // the server's table
  postgres::PgTableSpec spec;             // the model's
  std::vector<Key> copy_keys;             // the COPY's first column, row by row
  std::vector<Key> pks;                   // the model's primary key, row by row
  std::vector<std::vector<Key>> entries;  // each row's secondary entries
  std::string delete_where;
  std::vector<bool> doomed;  // the rows delete_where takes
};

void RunSeamCase(const SeamCase& sc) {
  PgLoadOptions o;
  o.database = sc.db;
  o.create_sql = sc.create_sql;
  o.key_width = 8;
  o.bigint_sign_flipped = true;
  o.batch_rows = 10000;
  absl::StatusOr<PgLoadResult> a = PgLoadKeys(PgVacuumServerTest::ServerConnection(), o, sc.copy_keys);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::unique_ptr<PgConnection>> conn =
      PgConnection::Connect(PgVacuumServerTest::ServerConnection(sc.db));
  ASSERT_TRUE(conn.ok()) << conn.status();
  ASSERT_TRUE((*conn)->Exec("DELETE FROM " + sc.spec.name + " WHERE " + sc.delete_where).ok());
  ASSERT_TRUE((*conn)->Exec("VACUUM " + sc.spec.name).ok());
  absl::StatusOr<PgLoadResult> b = PgReadTableStats(**conn, sc.spec.name);
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_TRUE((*conn)->Exec("REINDEX TABLE " + sc.spec.name).ok());
  absl::StatusOr<PgLoadResult> c = PgReadTableStats(**conn, sc.spec.name);
  ASSERT_TRUE(c.ok()) << c.status();

  postgres::PgEngine e(postgres::kPostgresql15, sc.spec, 10000);
  for (size_t i = 0; i < sc.pks.size(); ++i) {
    ASSERT_TRUE(e.InsertRow(sc.pks[i]).ok());
    for (size_t ix = 0; ix < sc.entries[i].size(); ++ix) ASSERT_TRUE(e.InsertSecondary(ix, sc.entries[i][ix]).ok());
    ASSERT_TRUE(e.EndRow().ok());
  }
  ASSERT_TRUE(e.EndLoad().ok());
  PgVacuumServerTest::Check(sc.db + " load", *a, e.table().Report());
  for (size_t i = 0; i < sc.pks.size(); ++i) {
    if (sc.doomed[i]) ASSERT_TRUE(e.DeleteRow(sc.pks[i], sc.entries[i]).ok()) << i;
  }
  ASSERT_TRUE(e.EndDeletes().ok());
  EXPECT_EQ(e.Verify(), "");
  PgVacuumServerTest::Check(sc.db + " delete+vacuum", *b, e.table().Report());
  ASSERT_TRUE(e.Rebuild().ok());
  EXPECT_EQ(e.Verify(), "");
  PgVacuumServerTest::Check(sc.db + " reindex", *c, e.table().Report());
}

// A non-unique index with 300 rows a value (g = i % 1000): posting lists.
// The DELETE takes the first half of the rows, so every value's posting
// lists lose their lower TIDs; the build deduplicates again.
TEST_F(PgVacuumServerTest, NonUniqueIndexWithDuplicates) {
  SeamCase sc;
  sc.db = "dups";
  sc.create_sql = "CREATE TABLE d (g bigint NOT NULL, id bigserial PRIMARY KEY); CREATE INDEX d_g_idx ON d (g)";
  sc.spec.name = "d";
  sc.spec.columns = {postgres::PgColumn{"g", postgres::PgType::kInt8},
                     postgres::PgColumn{"id", postgres::PgType::kInt8}};
  sc.spec.primary_key = {1};
  sc.spec.secondary = {postgres::PgIndexSpec{"d_g_idx", {0}, false}};
  const int n = 300000;
  for (int i = 1; i <= n; ++i) {
    sc.copy_keys.push_back(Int8Key(i % 1000));
    sc.pks.push_back(Int8Key(i));
    sc.entries.push_back({Int8Key(i % 1000)});
    sc.doomed.push_back(i <= n / 2);
  }
  sc.delete_where = "id <= 150000";
  RunSeamCase(sc);
}

// A composite primary key (b, a) with b = a % 7, the rows arriving run by
// run (every b = 0 row, then b = 1, ...), so the key ascends and each
// leaf's high key between two runs keeps only b (_bt_truncate). DELETE of
// one run (b = 3) empties a contiguous range of leaves, found through
// those truncated pivots.
TEST_F(PgVacuumServerTest, CompositePrimaryKey) {
  SeamCase sc;
  sc.db = "composite";
  sc.create_sql = "CREATE TABLE c (a bigint NOT NULL, b bigint GENERATED ALWAYS AS (a % 7) STORED, PRIMARY KEY (b, a))";
  sc.spec.name = "c";
  sc.spec.columns = {postgres::PgColumn{"a", postgres::PgType::kInt8},
                     postgres::PgColumn{"b", postgres::PgType::kInt8}};
  sc.spec.primary_key = {1, 0};
  const int n = 300000;
  for (int run = 0; run < 7; ++run) {
    for (int a = run; a < n; a += 7) {
      sc.copy_keys.push_back(Int8Key(a));
      sc.pks.push_back(Key{Int8Key(run).hi, Int8Key(a).hi});
      sc.entries.push_back({});
      sc.doomed.push_back(run == 3);
    }
  }
  sc.delete_where = "b = 3";
  RunSeamCase(sc);
}

// Recycling: the first VACUUM deletes the leaves a DELETE emptied but
// cannot hand them out (their safexid is the next xid); once an xid was
// assigned (txid_current(), and ANALYZE's own), the next VACUUM, with no
// dead tuples, scans the index because those pages exceed 5% of it
// (_bt_vacuum_needs_cleanup) and puts them in the FSM; then the rightmost
// leaf's splits take them, lowest block first, before the relation grows.
// The index's pages do not depend on the heap TIDs (a unique key), so the
// model's index is driven directly (BtIndex, BtVacuum) while the server's
// heap reuses its own freed space.
TEST_F(PgVacuumServerTest, RecycledPagesTakeTheNextSplits) {
  std::vector<Key> first, more;
  for (int i = 1; i <= 100000; ++i) first.push_back(Int8Key(i));
  for (int i = 100001; i <= 150000; ++i) more.push_back(Int8Key(i));
  PgLoadOptions o;
  o.database = "recycle";
  o.create_sql = "CREATE TABLE r (id bigint PRIMARY KEY)";
  o.key_width = 8;
  o.bigint_sign_flipped = true;
  o.batch_rows = 10000;
  absl::StatusOr<PgLoadResult> a = PgLoadKeys(server().connection_options(), o, first);
  ASSERT_TRUE(a.ok()) << a.status();
  std::unique_ptr<PgConnection> conn = Connect("recycle");
  ASSERT_NE(conn, nullptr);
  // A DDL takes an xid: made before the DELETE, so that nothing between
  // the two VACUUMs below takes one.
  ASSERT_TRUE(conn->Exec("CREATE EXTENSION pg_freespacemap").ok());
  ASSERT_TRUE(conn->Exec("DELETE FROM r WHERE id <= 50000").ok());
  ASSERT_TRUE(conn->Exec("VACUUM r").ok());
  absl::StatusOr<int64_t> deleted = conn->QueryInt("SELECT deleted_pages FROM pgstatindex('r_pkey')");
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  // The index's FSM (pg_freespacemap): blocks recorded free.
  auto fsm_free = [&]() {
    absl::StatusOr<int64_t> n = conn->QueryInt("SELECT count(*) FROM pg_freespace('r_pkey') WHERE avail > 0");
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  };
  EXPECT_EQ(fsm_free(), 0);  // _bt_pendingfsm_finalize: no xid taken since the deletion
  ASSERT_TRUE(conn->Exec("VACUUM r").ok());
  EXPECT_EQ(fsm_free(), 0);  // still none: no xid was assigned in between
  ASSERT_TRUE(conn->Exec("SELECT txid_current()").ok());
  ASSERT_TRUE(conn->Exec("VACUUM r").ok());
  EXPECT_EQ(fsm_free(), *deleted);  // the cleanup-only scan recycled every deleted page
  o.append = true;
  absl::StatusOr<PgLoadResult> b = PgLoadKeys(server().connection_options(), o, more);
  ASSERT_TRUE(b.ok()) << b.status();

  postgres::BtIndexDesc d;
  d.name = "r_pkey";
  d.columns = {postgres::BtKeyColumn{postgres::PgType::kInt8, 8, 0}};
  d.unique = true;
  postgres::BtIndex ix(postgres::kPostgresql15, d);
  uint64_t row = 0;
  auto tid = [&]() {
    ++row;
    return postgres::MakeHeapTid(static_cast<uint32_t>(row / 226), 1 + row % 226);
  };
  std::vector<postgres::BtDeadTuple> dead;
  for (const Key& k : first) {
    const postgres::HeapTid t = tid();
    ix.Insert(k, t);
    if (dead.size() < 50000) dead.push_back(postgres::BtDeadTuple{k, t});
  }
  const uint64_t xid = 100;  // the DELETE's xid was 99
  postgres::BtVacuumStats st = postgres::BtVacuum::BulkDelete(ix, dead, xid);
  postgres::BtVacuum::VacuumCleanup(ix, &st, xid);
  EXPECT_EQ(*deleted, static_cast<int64_t>(ix.StatIndex().deleted_pages));
  EXPECT_EQ(ix.fsm().free_pages(), 0u);  // a quiet server: not in the same VACUUM
  // A VACUUM with no xid assigned since: the cleanup-only scan finds
  // nothing recyclable.
  postgres::BtVacuum::VacuumCleanup(ix, nullptr, xid);
  EXPECT_EQ(ix.fsm().free_pages(), 0u);
  // txid_current() took xid 100.
  postgres::BtVacuum::VacuumCleanup(ix, nullptr, xid + 1);
  EXPECT_EQ(ix.fsm().free_pages(), ix.StatIndex().deleted_pages);
  for (const Key& k : more) ix.Insert(k, tid());
  EXPECT_EQ(ix.Verify(), "");
  // The heap is the server's own (it reused its freed pages): only the index is compared.
  postgres::PgTableReport m;
  m.rows = b->rows;
  m.heap_relpages = static_cast<uint32_t>(b->heap_relpages);
  m.heap_pg_relation_size = static_cast<uint64_t>(b->heap_relation_size);
  m.indexes.push_back(postgres::PgIndexReport{"r_pkey", true, ix.StatIndex(), ix.counters(), 0});
  Check("recycle +50k", *b, m);
  EXPECT_GT(ix.StatIndex().leaf_fragmentation, 0.0);
}

}  // namespace
}  // namespace innosim
