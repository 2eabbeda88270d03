// innosim compare's parts: the portable table read by each engine, the
// specs' checks, and figures that are each engine's own run figures.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "sim/engine_compare.h"
#include "sim/portable_table.h"
#include "sim/postgres_driver.h"

namespace innosim {
namespace {

TEST(PortableTableTest, InnodbReadsUuidAsBinary16AndIndexesAsKeys) {
  absl::StatusOr<std::string> sql = PortableToInnodbSql(
      "CREATE TABLE c (id uuid PRIMARY KEY, parent_id uuid NOT NULL, note varchar(20) NOT NULL); "
      "CREATE INDEX ON c (parent_id); CREATE UNIQUE INDEX c_note ON c USING btree (note, id)");
  ASSERT_TRUE(sql.ok()) << sql.status();
  EXPECT_EQ(*sql,
            "CREATE TABLE c (id BINARY(16) PRIMARY KEY, parent_id BINARY(16) NOT NULL, note varchar(20) NOT NULL, "
            "KEY c_parent_id_idx (parent_id), UNIQUE KEY c_note (note, id))");
  // A word that only contains "uuid" stays; a quoted one too.
  sql = PortableToInnodbSql("CREATE TABLE t (uuid_col bigint PRIMARY KEY, v varchar(9) DEFAULT 'uuid')");
  ASSERT_TRUE(sql.ok());
  EXPECT_EQ(*sql, "CREATE TABLE t (uuid_col bigint PRIMARY KEY, v varchar(9) DEFAULT 'uuid')");
  EXPECT_FALSE(PortableToInnodbSql("CREATE TABLE t (id bigint PRIMARY KEY); CREATE INDEX ON t USING hash (id)").ok());
  EXPECT_FALSE(PortableToInnodbSql("CREATE TABLE t (id bigint PRIMARY KEY); CREATE INDEX ON t ((id + 1))").ok());
  EXPECT_FALSE(PortableToInnodbSql("CREATE TABLE t (id bigint PRIMARY KEY); DROP TABLE t").ok());
}

RunSpec Base(const std::string& stream, const std::string& table) {
  RunSpec spec;
  spec.stream.name = stream;
  spec.rows = 20000;
  spec.table = table;
  return spec;
}

TEST(EngineCompareTest, ProfilesAreCheckedBeforeAnyRun) {
  const RunSpec base = Base("uuidv4", CompareTableSql("seed000", 16));
  EXPECT_EQ(base.table, "CREATE TABLE t (id uuid PRIMARY KEY)");
  auto message = [&](const std::vector<std::string>& profiles) {
    absl::StatusOr<std::vector<RunSpec>> s = CompareSpecs(base, profiles);
    EXPECT_FALSE(s.ok());
    return std::string(s.status().message());
  };
  EXPECT_NE(message({"mysql-8.4"}).find("two profiles or more"), std::string::npos);
  EXPECT_NE(message({"mysql-8.4", "mysql-8.4"}).find("twice"), std::string::npos);
  EXPECT_NE(message({"mysql-8.4", "postgresql-17"}).find("postgresql-18"), std::string::npos);
  // A table one engine cannot read is named with its profile.
  const RunSpec bad = Base("uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY, d bytea NOT NULL)");
  absl::StatusOr<std::vector<RunSpec>> s = CompareSpecs(bad, {"mysql-8.4", "postgresql-18"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(std::string(s.status().message()).rfind("mysql-8.4: ", 0), 0u) << s.status();
}

TEST(EngineCompareTest, EachColumnIsThatEnginesOwnRun) {
  const RunSpec base = Base("uuidv4", "CREATE TABLE c (id uuid PRIMARY KEY, p bigint NOT NULL); CREATE INDEX ON c (p)");
  absl::StatusOr<std::vector<RunSpec>> specs = CompareSpecs(base, {"mysql-8.4", "postgresql-15"});
  ASSERT_TRUE(specs.ok()) << specs.status();
  std::vector<ComparedRun> runs;
  for (const RunSpec& spec : *specs) {
    EXPECT_FALSE(spec.flush);
    absl::StatusOr<RunResult> r = innosim::Run(spec);
    ASSERT_TRUE(r.ok()) << r.status();
    runs.push_back(Compared(*r));
  }
  const RunResult& innodb = runs[0].result;
  EXPECT_EQ(runs[0].figures.leaf_pages, innodb.report.primary.n_leaf_pages);
  EXPECT_EQ(runs[0].figures.total_bytes, innodb.report.data_length + innodb.report.index_length);
  ASSERT_EQ(innodb.report.secondary.size(), 1u);
  EXPECT_EQ(innodb.report.secondary[0].name, "c_p_idx");  // PostgreSQL's name for it, in both
  const auto* pg = dynamic_cast<const PgRunResult*>(runs[1].result.engine_result.get());
  ASSERT_NE(pg, nullptr);
  EXPECT_EQ(runs[1].figures.leaf_pages, pg->report().indexes[0].stat.leaf_pages);
  EXPECT_EQ(pg->report().indexes[1].name, "c_p_idx");
  EXPECT_EQ(runs[1].figures.total_bytes, pg->report().heap_pg_relation_size + pg->report().indexes[0].stat.index_size +
                                             pg->report().indexes[1].stat.index_size);
  EXPECT_GT(runs[1].figures.leaf_fill, 0.5);
  EXPECT_LT(runs[1].figures.leaf_fill, 0.8);
  const nlohmann::ordered_json j = CompareJson(runs, base.table);
  ASSERT_EQ(j["engines"].size(), 2u);
  EXPECT_EQ(j["engines"][0]["leaf_pages_name"], "n_leaf_pages");
  EXPECT_EQ(j["engines"][1]["leaf_pages_name"], "leaf_pages");
  EXPECT_EQ(j["engines"][1]["engine"], "postgresql");
  const std::string table = CompareTable(runs);
  EXPECT_NE(table.find("avg_leaf_density"), std::string::npos);
  EXPECT_NE(CompareSvg(runs, base.table).find("postgresql-15 (8192-byte pages)"), std::string::npos);
}

}  // namespace
}  // namespace innosim
