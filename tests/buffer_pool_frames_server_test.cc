// The model's buffer pool frames against a private MariaDB 10.11: for pool
// sizes other than the default (one with an incomplete last 8 MiB extent,
// one of many extents), the server's Innodb_buffer_pool_pages_total must
// equal ServerSettings::BufferPoolPages() computed from the server's own
// innodb_buffer_pool_size and innodb_page_size. Fails (never skips) when
// mariadbd is not installed.
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "model/server_settings.h"
#include "tests/private_server_suite.h"
#include "tools/private_server.h"
#include "tools/server_connection.h"

namespace innosim {
namespace {

class BufferPoolFramesServerTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(BufferPoolFramesServerTest, ModelFramesEqualTheServersPagesTotal) {
  const uint64_t pool_bytes = GetParam();
  std::string why;
  std::unique_ptr<PrivateServer> server(StartSuiteServer(pool_bytes, &why));
  ASSERT_NE(server, nullptr) << NoServerMessage(why);
  absl::StatusOr<std::unique_ptr<ServerConnection>> conn = ServerConnection::Connect(server->connection_options());
  ASSERT_TRUE(conn.ok()) << conn.status();
  absl::StatusOr<std::map<std::string, std::string>> vars = (*conn)->QueryMap(
      "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('innodb_buffer_pool_size', 'innodb_page_size')");
  ASSERT_TRUE(vars.ok()) << vars.status();
  absl::StatusOr<std::map<std::string, std::string>> status =
      (*conn)->QueryMap("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_total'");
  ASSERT_TRUE(status.ok()) << status.status();
  ASSERT_EQ(status->count("Innodb_buffer_pool_pages_total"), 1u);
  const uint64_t server_frames = std::stoull(status->at("Innodb_buffer_pool_pages_total"));

  ServerSettings s = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  for (const char* name : {"innodb_page_size", "innodb_buffer_pool_size"}) {
    ASSERT_EQ(vars->count(name), 1u) << name;
    ASSERT_TRUE(s.Set(name, vars->at(name), "server").ok()) << name << "=" << vars->at(name);
  }
  EXPECT_EQ(s.innodb_buffer_pool_size, pool_bytes) << "the server changed the requested pool size";
  EXPECT_EQ(s.BufferPoolPages(), server_frames)
      << "innodb_buffer_pool_size=" << s.innodb_buffer_pool_size << ", innodb_page_size=" << s.innodb_page_size;
  // The pool size alone would be wrong: the descriptors take frames.
  EXPECT_LT(server_frames, pool_bytes / s.innodb_page_size);
}

// 100M: 12 whole extents and a half one; 1G: 128 extents.
INSTANTIATE_TEST_SUITE_P(Pools, BufferPoolFramesServerTest,
                         ::testing::Values(uint64_t{100} << 20, uint64_t{1} << 30),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           return absl::StrCat(info.param >> 20, "M");
                         });

}  // namespace
}  // namespace innosim
