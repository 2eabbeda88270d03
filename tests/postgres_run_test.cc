// PostgreSQL runs through the one run path (sim/load.h) with the profiles
// postgresql-15 and postgresql-18: the figures of seed 002's three primary
// keys (PostgreSQL 18.6, 1M rows), and the one-line refusals of what the
// PostgreSQL model does not simulate.
#include <string>

#include "gtest/gtest.h"
#include "sim/postgres_driver.h"
#include "sim/report.h"
#include "sim/runner.h"

namespace innosim {
namespace {

RunSpec PgSpec(const std::string& stream, uint64_t rows, const std::string& table, const std::string& profile) {
  RunSpec spec;
  spec.profile = profile;
  spec.stream.name = stream;
  spec.rows = rows;
  spec.table = table;
  return spec;
}

const postgres::PgTableReport& PgReport(const RunResult& r) {
  const auto* pg = dynamic_cast<const PgRunResult*>(r.engine_result.get());
  EXPECT_NE(pg, nullptr);
  return pg->report();
}

// Seed 002 (PostgreSQL 18.6, 1M rows each, pgstatindex): bigint 2,733
// leaves at 90.01; uuidv7() 3,832 at 89.98; gen_random_uuid() 4,870 at
// 70.87 (one draw of random keys: another seed lands near it).
TEST(PostgresRunTest, SeedTwoPrimaryKeysAtOneMillionRows) {
  struct Case {
    const char* stream;
    const char* table;
    uint64_t leaf_lo, leaf_hi;
    double density_lo, density_hi;
  } cases[] = {
      {"autoinc", "CREATE TABLE t (id bigint PRIMARY KEY)", 2733, 2733, 89.95, 90.05},
      {"uuidv7-subms", "CREATE TABLE t (id uuid PRIMARY KEY)", 3832, 3832, 89.9, 90.1},
      {"uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY)", 4700, 4950, 70.0, 73.5},
  };
  for (const Case& c : cases) {
    absl::StatusOr<RunResult> r = innosim::Run(PgSpec(c.stream, 1000000, c.table, "postgresql-18"));
    ASSERT_TRUE(r.ok()) << r.status();
    const postgres::PgTableReport& pg = PgReport(*r);
    ASSERT_EQ(pg.indexes.size(), 1u);
    EXPECT_EQ(pg.indexes[0].name, "t_pkey");
    EXPECT_EQ(pg.rows, 1000000u);
    EXPECT_GE(pg.indexes[0].stat.leaf_pages, c.leaf_lo) << c.stream;
    EXPECT_LE(pg.indexes[0].stat.leaf_pages, c.leaf_hi) << c.stream;
    EXPECT_GE(pg.indexes[0].stat.avg_leaf_density, c.density_lo) << c.stream;
    EXPECT_LE(pg.indexes[0].stat.avg_leaf_density, c.density_hi) << c.stream;
    // --json carries pgstatindex's names for each index, by its name.
    const nlohmann::ordered_json j = RunToJson(*r);
    EXPECT_EQ(j["engine"], "postgresql");
    EXPECT_EQ(j["indexes"][0]["name"], "t_pkey");
    EXPECT_EQ(j["indexes"][0]["leaf_pages"], pg.indexes[0].stat.leaf_pages);
    EXPECT_TRUE(j["heap"].contains("relpages"));
    EXPECT_FALSE(j.contains("index_page_splits")) << "InnoDB's names stay InnoDB's";
  }
}

// The same keys, the same pages on both profiles; only pgstatindex's free
// space differs (REL_18 counts PageGetExactFreeSpace: a lower density).
TEST(PostgresRunTest, FifteenAndEighteenShareThePages) {
  absl::StatusOr<RunResult> a = innosim::Run(PgSpec("uuidv4", 100000, "seed000", "postgresql-15"));
  absl::StatusOr<RunResult> b = innosim::Run(PgSpec("uuidv4", 100000, "seed000", "postgresql-18"));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  const postgres::PgStatIndex& s15 = PgReport(*a).indexes[0].stat;
  const postgres::PgStatIndex& s18 = PgReport(*b).indexes[0].stat;
  EXPECT_EQ(s15.leaf_pages, s18.leaf_pages);
  EXPECT_EQ(s15.index_size, s18.index_size);
  EXPECT_GT(s15.avg_leaf_density, s18.avg_leaf_density);
}

// An insert phase of the same stream: seed 002's +10,000 rows after the
// first million grow the bigint key's index from 2,745 to 2,772 blocks on
// PostgreSQL 15 here (tools/pg_load, pg_relation_size / 8192).
TEST(PostgresRunTest, AnInsertPhaseGrowsTheIndex) {
  RunSpec spec = PgSpec("autoinc", 1000000, "CREATE TABLE t (id bigint PRIMARY KEY)", "postgresql-15");
  absl::StatusOr<PhaseSpec> phase = ParsePhase("insert:autoinc:10k");
  ASSERT_TRUE(phase.ok());
  spec.phases.push_back(*phase);
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(PgReport(*r).rows, 1010000u);
  EXPECT_EQ(PgReport(*r).indexes[0].stat.relpages, 2772u);
}

TEST(PostgresRunTest, WhatIsNotModelledIsRefusedInOneLine) {
  RunSpec spec = PgSpec("uuidv4", 1000, "seed000", "postgresql-18");
  spec.page_size = 16384;
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("BLCKSZ"), std::string::npos) << r.status();

  spec = PgSpec("uuidv4", 1000, "seed000", "postgresql-18");
  spec.settings.push_back({"shared_buffers", "1G", "--set"});
  r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no server variables"), std::string::npos) << r.status();

  spec = PgSpec("uuidv4", 1000, "seed000", "postgresql-18");
  absl::StatusOr<PhaseSpec> del = ParsePhase("delete:every:2");
  ASSERT_TRUE(del.ok());
  spec.phases.push_back(*del);
  r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("insert and checkpoint phases only"), std::string::npos) << r.status();

  // A row over TOAST_TUPLE_THRESHOLD is refused rather than sized wrongly.
  spec = PgSpec("uuidv4", 1000, "CREATE TABLE t (id uuid PRIMARY KEY, v text)", "postgresql-18");
  spec.payload_bytes = 3000;
  spec.payload_bytes_given = true;
  r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("TOAST"), std::string::npos) << r.status();
  for (const char* ch : {"\n"}) EXPECT_EQ(std::string(r.status().message()).find(ch), std::string::npos);

  // A bigint key for a 16-byte stream: the parser's own message.
  r = innosim::Run(PgSpec("uuidv4", 1000, "CREATE TABLE t (id bigint PRIMARY KEY)", "postgresql-18"));
  EXPECT_FALSE(r.ok());
}

// InnoDB's profiles still read MySQL's CREATE TABLE; the profile list
// names both engines' profiles.
TEST(PostgresRunTest, UnknownProfileNamesEveryEngine) {
  absl::StatusOr<RunResult> r = innosim::Run(PgSpec("uuidv4", 10, "seed000", "postgresql-16"));
  ASSERT_FALSE(r.ok());
  const std::string m(r.status().message());
  EXPECT_NE(m.find("mysql-8.4"), std::string::npos) << m;
  EXPECT_NE(m.find("postgresql-18"), std::string::npos) << m;
}

// Seed 002's step: --phase checkpoint, then 10,000 rows. The checkpoint
// leaves every block clean; the step dirties the bigint key's 29 blocks
// (PostgreSQL 15 and seed 002's PostgreSQL 18 both: 29), and each phase
// carries its own WAL and the census in --json.
TEST(PostgresRunTest, ACheckpointPhaseThenRows) {
  RunSpec spec = PgSpec("autoinc", 1000000, "CREATE TABLE t (id bigint PRIMARY KEY)", "postgresql-15");
  for (const char* text : {"checkpoint", "insert:autoinc:10k"}) {
    absl::StatusOr<PhaseSpec> phase = ParsePhase(text);
    ASSERT_TRUE(phase.ok()) << phase.status();
    spec.phases.push_back(*phase);
  }
  absl::StatusOr<RunResult> r = innosim::Run(spec);
  ASSERT_TRUE(r.ok()) << r.status();
  const nlohmann::ordered_json j = RunToJson(*r);
  ASSERT_TRUE(j.contains("phases"));
  ASSERT_EQ(j["phases"].size(), 3u);
  const auto& ckpt = j["phases"][1];
  EXPECT_EQ(ckpt["dirty_blocks"]["t"], 0);
  EXPECT_EQ(ckpt["dirty_blocks"]["t_pkey"], 0);
  EXPECT_EQ(ckpt["wal_fpi"], 0);
  const auto& step = j["phases"][2];
  EXPECT_EQ(step["dirty_blocks"]["t_pkey"], 29);
  EXPECT_EQ(step["dirty_blocks"]["t"], 46);
  // 10,000 heap inserts, 10,000 leaf inserts of which 27 are logged as
  // the split they cause (XLOG_BTREE_SPLIT_R carries the new item), 27
  // downlinks (XLOG_BTREE_INSERT_UPPER), 10 commits (--batch 1000); as
  // PostgreSQL 15 wrote them (tests/pg_wal_server_test.cc).
  EXPECT_EQ(step["wal_records"], 20000 + 27 + 10);
  // The leaf and parent that were rightmost, and the heap's last page.
  EXPECT_EQ(step["wal_fpi"], 3);
  const EngineResult& e = *r->engine_result;
  EXPECT_EQ(e.Metric("dirty_blocks"), 29.0);
  EXPECT_EQ(e.Metric("t_pkey.dirty_blocks"), 29.0);
  EXPECT_EQ(e.Metric("heap.dirty_blocks"), 46.0);
  EXPECT_EQ(e.Metric("last_phase.wal_bytes"), step["wal_bytes"].get<double>());
  EXPECT_GT(*e.Metric("wal_bytes"), *e.Metric("last_phase.wal_bytes"));
}

}  // namespace
}  // namespace innosim
