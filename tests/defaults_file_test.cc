// my.cnf reading (sim/defaults_file.h): groups, flags, prefixes, comments,
// includes, and errors that name the line.
#include "sim/defaults_file.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace innosim {
namespace {

DefaultsFile MustParse(const std::string& text, ServerFlavor flavor = ServerFlavor::kMySql84) {
  absl::StatusOr<DefaultsFile> f = ParseDefaultsFile(text, "my.cnf", flavor);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : DefaultsFile{};
}

std::string Error(const std::string& text) {
  absl::StatusOr<DefaultsFile> f = ParseDefaultsFile(text, "my.cnf", ServerFlavor::kMySql84);
  EXPECT_FALSE(f.ok()) << text;
  return f.ok() ? "" : std::string(f.status().message());
}

TEST(DefaultsFileTest, Seed000Section52) {
  const DefaultsFile f = MustParse(
      "# seed 000, section 5.2\n"
      "[client]\n"
      "port = 3307\n"
      "[mysqld]\n"
      "innodb_flush_method            = O_DIRECT   # bypass the OS page cache\n"
      "innodb_flush_log_at_trx_commit = 2\n"
      "skip_log_bin\n"
      "innodb_autoinc_lock_mode       = 2\n"
      "innodb_doublewrite             = 0\n"
      "innodb_change_buffering        = none\n"
      "innodb_page_size               = 16384\n"
      "innodb_adaptive_hash_index     = ON\n"
      "innodb_buffer_pool_size        = 4G\n");
  ASSERT_EQ(f.entries.size(), 9u);  // [client]'s port is not read
  EXPECT_EQ(f.entries[0].name, "innodb_flush_method");
  EXPECT_EQ(f.entries[0].value, "O_DIRECT");
  EXPECT_EQ(f.entries[0].line, 5);
  EXPECT_EQ(f.entries[2].name, "skip_log_bin");
  EXPECT_EQ(f.entries[2].value, "");
  EXPECT_EQ(f.entries[8].value, "4G");

  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  for (const DefaultsEntry& e : f.entries) ASSERT_TRUE(ApplyServerVariable(&s, e.name, e.value).ok()) << e.name;
  EXPECT_EQ(s.innodb_buffer_pool_size, 4ull << 30);
  EXPECT_FALSE(s.innodb_doublewrite);
  EXPECT_EQ(s.innodb_flush_log_at_trx_commit, 2u);
}

TEST(DefaultsFileTest, GroupsPerServer) {
  const std::string text =
      "[server]\ninnodb_io_capacity=300\n[mysqld-8.4]\ninnodb_io_capacity=400\n"
      "[mariadb]\ninnodb_io_capacity=500\n[MYSQLD]\ninnodb_lru_scan_depth=128\n[mysqldump]\nquick\n";
  const DefaultsFile my = MustParse(text, ServerFlavor::kMySql84);
  ASSERT_EQ(my.entries.size(), 3u);
  EXPECT_EQ(my.entries[1].value, "400");
  const DefaultsFile ma = MustParse(text, ServerFlavor::kMariaDb1011);
  ASSERT_EQ(ma.entries.size(), 3u);
  EXPECT_EQ(ma.entries[1].value, "500");
}

TEST(DefaultsFileTest, CommentsQuotesAndDashes) {
  const DefaultsFile f = MustParse(
      "; a comment\n"
      "[mysqld]\n"
      "  # indented comment\n"
      "\n"
      "innodb-buffer-pool-size = \"128M\"   # quoted\n"
      "innodb_flush_method='O_DIRECT'\n"
      "character_set_server = 'a#b'\n");
  ASSERT_EQ(f.entries.size(), 3u);
  EXPECT_EQ(f.entries[0].name, "innodb_buffer_pool_size");
  EXPECT_EQ(f.entries[0].value, "128M");
  EXPECT_EQ(f.entries[1].value, "O_DIRECT");
  EXPECT_EQ(f.entries[2].value, "a#b");
}

TEST(DefaultsFileTest, LooseAndSkipPrefixes) {
  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMySql84);
  EXPECT_TRUE(ApplyServerVariable(&s, "loose-innodb-io-capacity", "2000").ok());
  EXPECT_EQ(s.innodb_io_capacity, 2000u);
  EXPECT_TRUE(ApplyServerVariable(&s, "skip-innodb-doublewrite", "").ok());
  EXPECT_FALSE(s.innodb_doublewrite);
  EXPECT_TRUE(ApplyServerVariable(&s, "enable-innodb-doublewrite", "").ok());
  EXPECT_TRUE(s.innodb_doublewrite);
  EXPECT_TRUE(ApplyServerVariable(&s, "loose_skip_innodb_adaptive_flushing", "").ok());
  EXPECT_FALSE(s.innodb_adaptive_flushing);
  // mysqld skips a loose- option it does not know, with a warning.
  EXPECT_TRUE(ApplyServerVariable(&s, "loose-innodb-no-such-thing", "1").ok());
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("innodb-no-such-thing"), std::string::npos) << s.warnings[0];
  EXPECT_TRUE(absl::IsNotFound(ApplyServerVariable(&s, "innodb-no-such-thing", "1")));
  EXPECT_TRUE(absl::IsInvalidArgument(ApplyServerVariable(&s, "innodb_buffer_pool_size", "lots")));
}

TEST(DefaultsFileTest, IncludesAreWarningsNamingTheLine) {
  const DefaultsFile f = MustParse("!includedir /etc/mysql/conf.d/\n[mysqld]\n!include /etc/extra.cnf\nport=1\n");
  ASSERT_EQ(f.warnings.size(), 2u);
  EXPECT_NE(f.warnings[0].find("my.cnf:1: !includedir"), std::string::npos) << f.warnings[0];
  EXPECT_NE(f.warnings[1].find("my.cnf:3: !include"), std::string::npos) << f.warnings[1];
}

TEST(DefaultsFileTest, MalformedLinesAreErrorsNamingFileAndLine) {
  EXPECT_NE(Error("[mysqld]\n= 5\n").find("my.cnf:2:"), std::string::npos);
  EXPECT_NE(Error("[mysqld\ninnodb_io_capacity=1\n").find("my.cnf:1: malformed group header"), std::string::npos);
  EXPECT_NE(Error("innodb_io_capacity=1\n[mysqld]\n").find("my.cnf:1:"), std::string::npos);
  EXPECT_NE(Error("[mysqld]\n\n!inclde x\n").find("my.cnf:3:"), std::string::npos);
  EXPECT_NE(Error("[mysqld]\ninnodb io capacity = 5\n").find("my.cnf:2:"), std::string::npos);
  EXPECT_NE(Error("[]\n").find("my.cnf:1:"), std::string::npos);
}

TEST(DefaultsFileTest, UnknownVariablesWarnAndBadValuesFail) {
  const DefaultsFile f = MustParse("[mysqld]\nport = 3306\ninnodb_io_capacity = 300\ndatadir=/var/lib/mysql\n");
  std::vector<std::string> warnings;
  absl::StatusOr<std::vector<VariableAssignment>> kept =
      CheckDefaultsEntries(f, "my.cnf", ServerFlavor::kMySql84, &warnings);
  ASSERT_TRUE(kept.ok()) << kept.status();
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].name, "innodb_io_capacity");
  EXPECT_EQ((*kept)[0].origin, "my.cnf:3");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("my.cnf:2: unknown server variable 'port'"), std::string::npos) << warnings[0];

  const DefaultsFile bad = MustParse("[mysqld]\n\ninnodb_buffer_pool_size = 4X\n");
  kept = CheckDefaultsEntries(bad, "my.cnf", ServerFlavor::kMySql84, &warnings);
  ASSERT_FALSE(kept.ok());
  EXPECT_NE(kept.status().message().find("my.cnf:3:"), std::string::npos) << kept.status();
}

TEST(DefaultsFileTest, MissingFileIsAnError) {
  absl::StatusOr<DefaultsFile> f = ReadDefaultsFile("/nonexistent/my.cnf", ServerFlavor::kMySql84);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("/nonexistent/my.cnf"), std::string::npos);
}

}  // namespace
}  // namespace innosim
