// A private MariaDB for one test suite: started in SetUpTestSuite, stopped
// in TearDownTestSuite, and every test of the suite fails (never skips)
// with the reason when it could not start (e.g. mariadbd not installed).
// A suite that includes this is a server test: its file belongs in
// tests/*_server_test.cc (tests/CMakeLists.txt lists the server suites by
// that name; ctest label `server`).
#ifndef INNOSIM_TESTS_PRIVATE_SERVER_SUITE_H_
#define INNOSIM_TESTS_PRIVATE_SERVER_SUITE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "tools/private_server.h"

namespace innosim {

// Starts a server with seed 000's InnoDB settings and the given buffer pool
// under /tmp; nullptr on failure, with the reason in *why.
inline PrivateServer* StartSuiteServer(uint64_t buffer_pool_bytes, std::string* why) {
  PrivateServerOptions o;
  o.base_dir = "/tmp";
  o.buffer_pool_bytes = buffer_pool_bytes;
  absl::StatusOr<std::unique_ptr<PrivateServer>> s = PrivateServer::Start(o);
  if (!s.ok()) {
    *why = std::string(s.status().message());
    return nullptr;
  }
  return s->release();
}

// The failure message of a test whose suite has no server; `why` says what
// is missing and how to get it (tools/private_server.h).
inline std::string NoServerMessage(const std::string& why) {
  return "the private MariaDB of this suite did not start: " + why;
}

// A suite with one server of `PoolBytes` of buffer pool, shared by its
// tests: `class FooServerTest : public PrivateServerSuite<256ull << 20> {};`
// Suites run one after another, so two suites of the same pool size share
// the statics without overlapping.
template <uint64_t PoolBytes>
class PrivateServerSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = StartSuiteServer(PoolBytes, start_error_); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(server_, nullptr) << NoServerMessage(*start_error_); }

  static inline PrivateServer* server_ = nullptr;
  static inline std::string* start_error_ = new std::string;  // never destroyed: read after main
};

}  // namespace innosim

#endif  // INNOSIM_TESTS_PRIVATE_SERVER_SUITE_H_
