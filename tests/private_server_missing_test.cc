// tools/private_server.h without starting a server: what a machine without
// MariaDB is told (the suites that start one are in the `server` label).
#include "tools/private_server.h"

#include <stdlib.h>

#include <memory>
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

// INNOSIM_MARIADBD names the server binary; one that is not there is
// reported as missing, with the variable, its value and what to install.
TEST(PrivateServerTest, MariadbdNamedByTheEnvironmentButAbsentSaysWhatToInstall) {
  const char* saved = std::getenv(kMariadbdEnv);
  const std::string old = saved ? saved : "";
  ASSERT_EQ(::setenv(kMariadbdEnv, "/nonexistent/mariadbd", 1), 0);
  absl::StatusOr<std::string> p = FindMariadbd();
  absl::StatusOr<std::unique_ptr<PrivateServer>> s = PrivateServer::Start(PrivateServerOptions{});
  if (saved != nullptr) {
    ::setenv(kMariadbdEnv, old.c_str(), 1);
  } else {
    ::unsetenv(kMariadbdEnv);
  }
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(p.status().message().find("mariadbd not found: INNOSIM_MARIADBD=/nonexistent/mariadbd"),
            absl::string_view::npos)
      << p.status();
  EXPECT_NE(p.status().message().find("install mariadb-server (tools/install-deps.sh does"), absl::string_view::npos)
      << p.status();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status(), p.status());
}

}  // namespace
}  // namespace innosim
