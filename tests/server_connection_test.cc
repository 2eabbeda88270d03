// tools/server_connection.h without a server: the option file reader.
#include "tools/server_connection.h"

#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <string>

#include "gtest/gtest.h"

namespace innosim {
namespace {

TEST(ServerConnectionTest, ReadsTheClientGroupOfADefaultsFile) {
  char path[] = "/tmp/innosim-cnf-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  {
    std::ofstream f(path);
    f << "[mysqld]\nuser=server\n[client]\n# comment\nuser = alice\n"
         "password=\"p a\\\"ss\"\nsocket=/x/sock  # trailing\nport = 3307\n"
         "ssl\n[mysql]\nuser=bob\n";
  }
  absl::StatusOr<std::map<std::string, std::string>> m = ReadClientOptionGroup(path);
  ::unlink(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)["user"], "alice");
  EXPECT_EQ((*m)["password"], "p a\"ss");
  EXPECT_EQ((*m)["socket"], "/x/sock");
  EXPECT_EQ((*m)["port"], "3307");
  EXPECT_EQ(m->count("ssl"), 1u);
}

}  // namespace
}  // namespace innosim
