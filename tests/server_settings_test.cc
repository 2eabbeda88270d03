// ServerSettings::Set takes each variable as the server takes it: names,
// units, ranges, clamps, and which server has which variable.
#include "model/server_settings.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "model/engine_profile.h"
#include "sim/runner.h"

namespace innosim {
namespace {

const ServerSettings::Row* FindRow(const std::vector<ServerSettings::Row>& rows, const std::string& name) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const ServerSettings::Row& r) { return r.name == name; });
  return it == rows.end() ? nullptr : &*it;
}

TEST(ServerVariablesTest, SizesAreWholeNumbersWithPowersOf1024) {
  EXPECT_EQ(*ParseSize("16k"), 16384u);
  EXPECT_EQ(*ParseSize("16K"), 16384u);
  EXPECT_EQ(*ParseSize("128M"), 128ull << 20);
  EXPECT_EQ(*ParseSize("4G"), 4ull << 30);
  EXPECT_EQ(*ParseSize("2T"), 2ull << 40);
  EXPECT_EQ(*ParseSize(" 42 "), 42u);
  EXPECT_EQ(*ParseSize("18446744073709551615"), ~0ull);
  for (const char* bad : {"", "1e19", "1e30", "1.5G", "-1", "+5", "16E", "18446744073709551616", "4X", "4KB", "M"}) {
    EXPECT_FALSE(ParseSize(bad).ok()) << bad;
  }
}

TEST(ServerVariablesTest, OutOfRangeIntegersAndDecimalsAreClampedWithAWarning) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ASSERT_TRUE(s.Set("innodb_io_capacity", "0", "my.cnf:4").ok());
  EXPECT_EQ(s.innodb_io_capacity, 100u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("my.cnf:4: innodb_io_capacity=0"), std::string::npos) << s.warnings[0];
  ASSERT_TRUE(s.Set("innodb_max_dirty_pages_pct", "200").ok());
  EXPECT_DOUBLE_EQ(s.innodb_max_dirty_pages_pct, 99.999);
  ASSERT_TRUE(s.Set("innodb_old_blocks_pct", "99").ok());
  EXPECT_EQ(s.innodb_old_blocks_pct, 95u);
  ASSERT_TRUE(s.Set("innodb_segment_reserve_factor", "50").ok());
  EXPECT_DOUBLE_EQ(s.innodb_segment_reserve_factor, 40);
  EXPECT_EQ(s.warnings.size(), 4u);
  // In range: no warning.
  ASSERT_TRUE(s.Set("innodb_io_capacity", "2000").ok());
  EXPECT_EQ(s.warnings.size(), 4u);
}

TEST(ServerVariablesTest, WhatTheServerRefusesIsAnError) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_TRUE(absl::IsInvalidArgument(s.Set("innodb_page_size", "5000")));
  EXPECT_TRUE(absl::IsInvalidArgument(s.Set("innodb_buffer_pool_size", "4M")));
  EXPECT_TRUE(absl::IsInvalidArgument(s.Set("innodb_doublewrite", "maybe")));
  EXPECT_TRUE(absl::IsInvalidArgument(s.Set("innodb_io_capacity", "lots")));
  EXPECT_EQ(s.innodb_page_size, 16384u);
  EXPECT_EQ(s.innodb_buffer_pool_size, 128ull << 20);
  ASSERT_TRUE(s.Set("innodb_page_size", "4k").ok());
  EXPECT_EQ(s.innodb_page_size, 4096u);
}

TEST(ServerVariablesTest, EachServerHasItsOwnVariables) {
  ServerSettings my = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ServerSettings ma = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  EXPECT_TRUE(my.Set("innodb_redo_log_capacity", "1G").ok());
  EXPECT_TRUE(absl::IsNotFound(ma.Set("innodb_redo_log_capacity", "1G")));
  EXPECT_TRUE(absl::IsNotFound(ma.Set("innodb_segment_reserve_factor", "20")));
  EXPECT_TRUE(absl::IsNotFound(ma.Set("innodb_buffer_pool_instances", "4")));  // removed in 10.6
  EXPECT_TRUE(absl::IsNotFound(my.Set("innodb_lru_flush_size", "64")));         // MariaDB only
  EXPECT_TRUE(ma.Set("innodb_lru_flush_size", "64").ok());
  // Each server's own minimum buffer pool.
  EXPECT_TRUE(absl::IsInvalidArgument(my.Set("innodb_buffer_pool_size", "2M")));
  EXPECT_TRUE(ma.Set("innodb_buffer_pool_size", "2M").ok());
  // MySQL's DETECT_ONLY is not a MariaDB 10.11 value.
  EXPECT_TRUE(my.Set("innodb_doublewrite", "DETECT_AND_RECOVER").ok());
  EXPECT_TRUE(absl::IsInvalidArgument(ma.Set("innodb_doublewrite", "DETECT_ONLY")));
  const std::vector<std::string> names = ServerSettings::VariableNames(ServerFlavor::kMariaDb1011);
  EXPECT_EQ(std::count(names.begin(), names.end(), "innodb_redo_log_capacity"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "innodb_log_file_size"), 1);
}

TEST(ServerVariablesTest, MysqldPrefixesAndLooseVariables) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ASSERT_TRUE(s.Set("skip-innodb-adaptive-flushing", "").ok());
  EXPECT_FALSE(s.innodb_adaptive_flushing);
  EXPECT_EQ(s.OriginOf("innodb_adaptive_flushing"), "--set");
  ASSERT_TRUE(s.Set("enable_innodb_adaptive_flushing", "").ok());
  EXPECT_TRUE(s.innodb_adaptive_flushing);
  // skip- only applies to booleans.
  EXPECT_TRUE(absl::IsNotFound(s.Set("skip-innodb-io-capacity", "")));
  ASSERT_TRUE(s.Set("loose-innodb-redo-log-capacity", "200M").ok());
  EXPECT_EQ(s.innodb_redo_log_capacity, 200ull << 20);
  EXPECT_TRUE(s.warnings.empty());
  ASSERT_TRUE(s.Set("loose_innodb_unheard_of", "1").ok());
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("innodb_unheard_of"), std::string::npos);
}

TEST(ServerVariablesTest, MysqlRedoCapacityFallsBackToTheLogFilesOnlyWhenUnset) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_EQ(s.EffectiveRedoLogCapacity(), 100ull << 20);
  ASSERT_TRUE(s.Set("innodb_log_file_size", "256M", "my.cnf:2").ok());
  EXPECT_EQ(s.EffectiveRedoLogCapacity(), 512ull << 20);  // x innodb_log_files_in_group = 2
  ASSERT_TRUE(s.Set("innodb_log_files_in_group", "3").ok());
  EXPECT_EQ(s.EffectiveRedoLogCapacity(), 768ull << 20);
  ASSERT_TRUE(s.Set("innodb_redo_log_capacity", "1G").ok());
  EXPECT_EQ(s.EffectiveRedoLogCapacity(), 1ull << 30);
  ServerSettings ma = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  EXPECT_EQ(ma.EffectiveRedoLogCapacity(), 96ull << 20);
}

TEST(ServerVariablesTest, MariaDbFlushesNeighboursOnlyOnRotationalStorage) {
  ServerSettings ma = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  EXPECT_EQ(ma.EffectiveFlushNeighbors(), 1u);
  ASSERT_TRUE(ma.Set("storage_rotational", "OFF", "server datadir device").ok());
  EXPECT_EQ(ma.EffectiveFlushNeighbors(), 0u);
  EXPECT_EQ(ma.OriginOf("storage_rotational"), "server datadir device");
  ServerSettings my = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_EQ(my.EffectiveFlushNeighbors(), 0u);  // MySQL 8.0+'s default
  ASSERT_TRUE(my.Set("innodb_flush_neighbors", "2").ok());
  ASSERT_TRUE(my.Set("storage_rotational", "OFF").ok());
  EXPECT_EQ(my.EffectiveFlushNeighbors(), 2u);  // MySQL never asks about the disk
}

TEST(ServerVariablesTest, DescribeNamesOriginsAndVariablesWithoutEffect) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(s.Set("innodb_io_capacity", "500", "my.cnf:9").ok());
  ASSERT_TRUE(s.Set("innodb_flush_method", "O_DIRECT", "--set").ok());
  const std::vector<ServerSettings::Row> rows = s.Describe();
  const ServerSettings::Row* io = FindRow(rows, "innodb_io_capacity");
  ASSERT_NE(io, nullptr);
  EXPECT_EQ(io->value, "500");
  EXPECT_EQ(io->origin, "my.cnf:9");
  EXPECT_TRUE(io->modelled);
  const ServerSettings::Row* lru = FindRow(rows, "innodb_lru_scan_depth");
  ASSERT_NE(lru, nullptr);
  EXPECT_EQ(lru->value, "1536");
  EXPECT_EQ(lru->origin, "mariadb-10.11 default");
  const ServerSettings::Row* nb = FindRow(rows, "innodb_flush_neighbors");
  ASSERT_NE(nb, nullptr);
  EXPECT_EQ(nb->value, "1");
  EXPECT_TRUE(nb->modelled);
  // The storage the server's neighbour rule asks about: an input with its origin.
  const ServerSettings::Row* rot = FindRow(rows, "storage_rotational");
  ASSERT_NE(rot, nullptr);
  EXPECT_EQ(rot->value, "ON");
  EXPECT_EQ(rot->origin, "mariadb-10.11 default");
  EXPECT_TRUE(rot->modelled);
  const ServerSettings::Row* commit = FindRow(rows, "innodb_flush_log_at_trx_commit");
  ASSERT_NE(commit, nullptr);
  EXPECT_FALSE(commit->modelled);
  const ServerSettings::Row* fm = FindRow(rows, "innodb_flush_method");
  ASSERT_NE(fm, nullptr);
  EXPECT_EQ(fm->value, "O_DIRECT");
  EXPECT_FALSE(fm->modelled);
  EXPECT_EQ(FindRow(rows, "innodb_redo_log_capacity"), nullptr);
}

TEST(ServerVariablesTest, TheEngineProfileTakesThePageSizeAndReserveFromTheServer) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ASSERT_TRUE(s.Set("innodb_page_size", "8k").ok());
  ASSERT_TRUE(s.Set("innodb_segment_reserve_factor", "20").ok());
  const EngineProfile p = EngineProfile::ForServer(s);
  EXPECT_EQ(p.name, "mysql-8.4");
  EXPECT_EQ(p.page_size, 8192u);
  EXPECT_DOUBLE_EQ(p.segment_reserve_pct, 20);
  const EngineProfile ma = EngineProfile::ForServer(ServerSettings::Defaults(ServerFlavor::kMariaDb1011));
  EXPECT_EQ(ma.name, "mariadb-10.11");
  EXPECT_DOUBLE_EQ(ma.segment_reserve_pct, 12.5);
}

TEST(ServerVariablesTest, ConfigForAppliesAssignmentsInOrderThenThePageSizeShorthand) {
  RunSpec spec;
  spec.settings = {{"innodb_page_size", "8192", "my.cnf:1"}, {"innodb_io_capacity", "400", "--set"}};
  absl::StatusOr<RunConfig> c = ConfigFor(spec);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->profile.page_size, 8192u);
  EXPECT_EQ(c->server.innodb_io_capacity, 400u);
  spec.page_size = 4096;  // --page-size over a file's value
  c = ConfigFor(spec);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->profile.page_size, 4096u);
  EXPECT_EQ(c->server.OriginOf("innodb_page_size"), "--page-size");
  spec.settings.push_back({"innodb_page_size", "16k", "--set"});
  EXPECT_FALSE(ConfigFor(spec).ok());
  spec.settings.back().value = "4k";
  EXPECT_TRUE(ConfigFor(spec).ok());
  spec.settings = {{"innodb_no_such", "1", "exp.toml:3"}};
  absl::StatusOr<RunConfig> bad = ConfigFor(spec);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("exp.toml:3: ", 0), 0u) << bad.status();
}

TEST(ServerSettingsTest, SetterParsesSuffixesAndReportsUnknownNames) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_TRUE(s.Set("innodb_buffer_pool_size", "4G").ok());
  EXPECT_EQ(s.innodb_buffer_pool_size, 4ull << 30);
  EXPECT_EQ(s.BufferPoolPages(), 262144u);
  EXPECT_EQ(s.EffectiveBufferPoolInstances(), 8u);
  EXPECT_TRUE(s.Set("innodb-redo-log-capacity", "200M").ok());
  EXPECT_EQ(s.innodb_redo_log_capacity, 200ull << 20);
  EXPECT_TRUE(s.Set("loose-innodb_doublewrite", "OFF").ok());
  EXPECT_FALSE(s.innodb_doublewrite);
  EXPECT_TRUE(s.Set("skip_log_bin", "").ok());
  EXPECT_TRUE(s.Set("innodb_flush_method", "O_DIRECT").ok());
  EXPECT_EQ(s.EffectiveIoCapacityMax(), 20000u);
  EXPECT_EQ(s.Set("innodb_no_such_thing", "1").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.Set("innodb_io_capacity", "lots").code(), absl::StatusCode::kInvalidArgument);
  const ServerSettings m = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  EXPECT_EQ(m.innodb_io_capacity, 200u);
  EXPECT_EQ(m.EffectiveIoCapacityMax(), 2000u);
  EXPECT_EQ(m.innodb_lru_scan_depth, 1536u);
}

// Innodb_buffer_pool_pages_total of the private MariaDB 10.11.19 (16k pages
// unless named), measured with the command in docs/flushing.md: 8 MiB
// extents of 507 frames each (5 pages of descriptors); an incomplete last
// extent loses the same 5 pages.
TEST(BufferPoolFramesTest, MariaDbCarvesTheBlockDescriptorsOutOfEachExtent) {
  struct Case {
    const char* pool;
    const char* page;
    uint64_t frames;
  };
  for (const Case& c : {Case{"16M", "16k", 1014}, Case{"24M", "16k", 1521}, Case{"64M", "16k", 4056},
                        Case{"100M", "16k", 6335}, Case{"128M", "16k", 8112}, Case{"200M", "16k", 12675},
                        Case{"1G", "16k", 64896}, Case{"128M", "4k", 31536}, Case{"128M", "8k", 16064},
                        Case{"128M", "32k", 4064}, Case{"128M", "64k", 2032}}) {
    ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
    ASSERT_TRUE(s.Set("innodb_page_size", c.page).ok());
    ASSERT_TRUE(s.Set("innodb_buffer_pool_size", c.pool).ok());
    EXPECT_EQ(s.BufferPoolPages(), c.frames) << c.pool << " of " << c.page << " pages";
  }
}

TEST(BufferPoolFramesTest, MariaDbRoundsThePoolDownToWholeMebibytes) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(s.Set("innodb_buffer_pool_size", "105381888", "my.cnf:3").ok());  // 100.5M
  EXPECT_EQ(s.innodb_buffer_pool_size, 100ull << 20);
  EXPECT_EQ(s.BufferPoolPages(), 6335u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("my.cnf:3: innodb_buffer_pool_size=105381888 is not a whole number of MiB"),
            std::string::npos)
      << s.warnings[0];
}

// MySQL 8.4 allocates the descriptors beside the chunk's frames, so a pool
// has pool / page frames once the pool is a whole number of chunk_size x
// instances (not measured here: no MySQL server on this machine).
TEST(BufferPoolFramesTest, MySqlKeepsWholeChunksOfFramesAndRoundsThePoolUpToThem) {
  struct Case {
    const char* pool;
    uint64_t frames;
  };
  for (const Case& c : {Case{"128M", 8192}, Case{"100M", 6400}, Case{"4G", 262144}, Case{"200M", 16384},
                        Case{"1536M", 131072}}) {
    ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
    ASSERT_TRUE(s.Set("innodb_buffer_pool_size", c.pool).ok());
    EXPECT_EQ(s.BufferPoolPages(), c.frames) << c.pool;
  }
  ServerSettings four = ServerSettings::Defaults(ServerFlavor::kMySql84);
  ASSERT_TRUE(four.Set("innodb_buffer_pool_size", "4G").ok());
  ASSERT_TRUE(four.Set("innodb_buffer_pool_instances", "3").ok());
  // 4G over 3 instances of 128M chunks: rounded up to 33 chunks of 8192.
  EXPECT_EQ(four.BufferPoolPages(), 33u * 8192);
  // The MiB rounding is MariaDB's alone here.
  ASSERT_TRUE(four.Set("innodb_buffer_pool_size", "105381888").ok());
  EXPECT_EQ(four.innodb_buffer_pool_size, 105381888u);
}

TEST(BufferPoolFramesTest, TheSettingsPrintoutShowsTheFrames) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  const std::vector<ServerSettings::Row> rows = s.Describe();
  const ServerSettings::Row* frames = FindRow(rows, "Innodb_buffer_pool_pages_total");
  ASSERT_NE(frames, nullptr);
  EXPECT_EQ(frames->value, "8112");
}

}  // namespace
}  // namespace innosim
