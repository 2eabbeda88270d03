// PrivatePgTest<Suite>: the one fixture every PostgreSQL server test derives
// from. Each suite (each Suite type) gets its own throwaway PostgreSQL 15
// (tools/pg_private_server.h: its own data folder and unix socket under a
// temp folder, no TCP listener), started once before the suite's first test
// and stopped and removed after its last.
//
// A suite changes the server's settings by declaring its own
//   static PgPrivateServerOptions ServerOptions();
// which hides the default below (CRTP: Suite::ServerOptions() is called).
// A server that does not start fails every test of the suite with the reason
// (initdb missing, port in use...): never a silent skip.
//
// Example:
//   class PgWalTest : public PrivatePgTest<PgWalTest> {
//    public:
//     static PgPrivateServerOptions ServerOptions() { PgPrivateServerOptions o; o.shared_buffers = "256MB"; return o; }
//   };
//   TEST_F(PgWalTest, X) { auto conn = PgConnection::Connect(server().connection_options()); ... }
#ifndef INNOSIM_TESTS_PG_SERVER_FIXTURE_H_
#define INNOSIM_TESTS_PG_SERVER_FIXTURE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tools/pg_private_server.h"

namespace innosim {

template <typename Suite>
class PrivatePgTest : public ::testing::Test {
 public:
  static PgPrivateServerOptions ServerOptions() { return {}; }

  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<PgPrivateServer>> s = PgPrivateServer::Start(Suite::ServerOptions());
    if (s.ok()) {
      server_ = s->release();
    } else {
      *start_error_ = std::string(s.status().message());
    }
  }
  static void TearDownTestSuite() {
    delete server_;  // stops the server and removes its folder
    server_ = nullptr;
  }

 protected:
  void SetUp() override {
    ASSERT_NE(server_, nullptr) << "the private PostgreSQL of this suite did not start: " << *start_error_;
  }

  // Valid inside a test (SetUp has checked it started).
  static PgPrivateServer& server() { return *server_; }

 private:
  static inline PgPrivateServer* server_ = nullptr;
  static inline std::string* start_error_ = new std::string;  // never destroyed: read after main
};

}  // namespace innosim

#endif  // INNOSIM_TESTS_PG_SERVER_FIXTURE_H_
