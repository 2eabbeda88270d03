// tools/private_server.h without starting a server: what a machine without
// MariaDB is told (the suites that start one are in the `server` label).
#include "tools/private_server.h"

#include <stdlib.h>

#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace innosim {
namespace {

TEST(PrivateServerTest, MissingProgramSaysWhatToInstall) {
  absl::StatusOr<std::string> p = FindMariadbProgram("mariadbd-innosim-absent");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("install mariadb-server"), absl::string_view::npos)
      << p.status();
}

}  // namespace
}  // namespace innosim
