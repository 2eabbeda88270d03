// PostgreSQL's settings (model/postgres/pg_settings.h): the GUC defaults,
// every value in the form SHOW prints it, PostgreSQL's units and ranges,
// and the values the model does not simulate refused in one line.
#include <gtest/gtest.h>

#include "model/postgres/pg_settings.h"

namespace innosim::postgres {
namespace {

std::string Shown(const PgSettings& s, const std::string& name) {
  for (const PgSettings::Row& r : s.Describe()) {
    if (r.name == name) return r.value;
  }
  return "?";
}

TEST(PgSettingsTest, DefaultsAreTheGucDefaultsAsShowPrintsThem) {
  const PgSettings s = PgSettings::Defaults(kPostgresql15);
  EXPECT_EQ(s.shared_buffers, 16384);
  EXPECT_EQ(Shown(s, "shared_buffers"), "128MB");
  EXPECT_EQ(Shown(s, "checkpoint_timeout"), "5min");
  EXPECT_EQ(Shown(s, "max_wal_size"), "1GB");
  EXPECT_EQ(Shown(s, "min_wal_size"), "80MB");
  EXPECT_EQ(Shown(s, "checkpoint_completion_target"), "0.9");
  EXPECT_EQ(Shown(s, "bgwriter_delay"), "200ms");
  EXPECT_EQ(Shown(s, "bgwriter_lru_maxpages"), "100");
  EXPECT_EQ(Shown(s, "bgwriter_lru_multiplier"), "2");
  EXPECT_EQ(Shown(s, "full_page_writes"), "on");
  EXPECT_EQ(Shown(s, "wal_compression"), "off");
  EXPECT_EQ(Shown(s, "block_size"), "8192");
}

TEST(PgSettingsTest, ShowValuesRoundTrip) {
  PgSettings d = PgSettings::Defaults(kPostgresql15);
  PgSettings s = PgSettings::Defaults(kPostgresql15);
  for (const PgSettings::Row& r : d.Describe()) {
    ASSERT_TRUE(s.Set(r.name, r.value, "server").ok()) << r.name << "=" << r.value;
  }
  EXPECT_EQ(s.shared_buffers, d.shared_buffers);
  EXPECT_EQ(s.checkpoint_timeout, d.checkpoint_timeout);
  EXPECT_EQ(s.max_wal_size, d.max_wal_size);
  EXPECT_EQ(s.bgwriter_delay, d.bgwriter_delay);
  EXPECT_DOUBLE_EQ(s.checkpoint_completion_target, 0.9);
  EXPECT_EQ(s.Describe()[0].origin, "server");
}

TEST(PgSettingsTest, UnitsAndBaseUnits) {
  PgSettings s = PgSettings::Defaults(kPostgresql15);
  ASSERT_TRUE(s.Set("shared_buffers", "16MB").ok());
  EXPECT_EQ(s.shared_buffers, 2048);
  ASSERT_TRUE(s.Set("shared_buffers", "1000").ok());  // 8 kB blocks
  EXPECT_EQ(s.shared_buffers, 1000);
  EXPECT_EQ(Shown(s, "shared_buffers"), "8000kB");
  ASSERT_TRUE(s.Set("Shared-Buffers", "1.5GB").ok());
  EXPECT_EQ(s.shared_buffers, 196608);
  ASSERT_TRUE(s.Set("checkpoint_timeout", "30s").ok());
  EXPECT_EQ(s.checkpoint_timeout, 30);
  ASSERT_TRUE(s.Set("checkpoint_timeout", "1h").ok());
  EXPECT_EQ(s.checkpoint_timeout, 3600);
  EXPECT_EQ(Shown(s, "checkpoint_timeout"), "1h");
  ASSERT_TRUE(s.Set("checkpoint_timeout", "90").ok());
  EXPECT_EQ(Shown(s, "checkpoint_timeout"), "90s");
  ASSERT_TRUE(s.Set("max_wal_size", "64MB").ok());
  EXPECT_EQ(s.max_wal_size, 64);
  ASSERT_TRUE(s.Set("bgwriter_delay", "1s").ok());
  EXPECT_EQ(s.bgwriter_delay, 1000);
  ASSERT_TRUE(s.Set("full_page_writes", "of").ok());
  EXPECT_FALSE(s.full_page_writes);
  ASSERT_TRUE(s.Set("wal_compression", "off").ok());
  ASSERT_TRUE(s.Set("data_checksums", "off").ok());
}

TEST(PgSettingsTest, RefusedInOneLine) {
  PgSettings s = PgSettings::Defaults(kPostgresql15);
  const std::pair<const char*, const char*> bad[] = {
      {"shared_buffers", "1G"},          // mysqld's suffix, not a PostgreSQL unit
      {"shared_buffers", "64kB"},        // below 16 buffers
      {"checkpoint_timeout", "10s"},     // below 30s
      {"checkpoint_timeout", "5 parsecs"},
      {"max_wal_size", "16MB"},          // less than two segments
      {"checkpoint_completion_target", "1.5"},
      {"bgwriter_delay", "5ms"},
      {"bgwriter_lru_multiplier", "11"},
      {"bgwriter_lru_maxpages", "10kB"},
      {"full_page_writes", "o"},
      {"wal_compression", "pglz"},
      {"wal_compression", "on"},
      {"data_checksums", "on"},
      {"wal_log_hints", "on"},
      {"block_size", "16384"},
      {"innodb_buffer_pool_size", "1G"},
  };
  for (const auto& [name, value] : bad) {
    const absl::Status st = s.Set(name, value, "--set");
    EXPECT_FALSE(st.ok()) << name << "=" << value;
    EXPECT_EQ(std::string(st.message()).find('\n'), std::string::npos);
    EXPECT_NE(std::string(st.message()).find("--set"), std::string::npos) << st;
  }
  EXPECT_EQ(s.shared_buffers, 16384);  // nothing refused changed a value
  EXPECT_TRUE(s.full_page_writes);
}

}  // namespace
}  // namespace innosim::postgres
