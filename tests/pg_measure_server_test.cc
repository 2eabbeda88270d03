// `innosim measure --profile postgresql-15` as a user runs it: the built
// binary (INNOSIM_BINARY) as a subprocess against this suite's private
// PostgreSQL 15 (tests/pg_server_fixture.h: own data folder and socket, no
// TCP), over --socket, over libpq's environment (PGHOST, PGUSER,
// PGDATABASE), and with --private-server (a throwaway server of its own).
//
// Seed 002's step (the load, CHECKPOINT, 10,000 more rows of the stream):
// for ordered keys every figure of the tree (pgstatindex), the heap and the
// dirty-block census agrees exactly between the model and the server, and
// the whole run is within the default 2% (exit 0). Then what measure must
// never do: leave its database behind (after success, after an error, after
// SIGINT) or touch another relation; and the bad inputs, each one line with
// its exit code. A server test (label `server`).
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"
#include "tests/pg_server_fixture.h"
#include "tools/pg_connection.h"

namespace innosim {
namespace {

class PgMeasureServerTest : public PrivatePgTest<PgMeasureServerTest> {
 public:
  static PgPrivateServerOptions ServerOptions() {
    PgPrivateServerOptions o;
    o.port = 5473;
    o.checkpoint_timeout = "1h";  // no timed checkpoint inside a step
    return o;
  }

 protected:
  static std::unique_ptr<PgConnection> Admin() {
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(server().connection_options("postgres"));
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }

  // measure's databases still on the server.
  static int64_t LeftoverDatabases() {
    std::unique_ptr<PgConnection> a = Admin();
    if (a == nullptr) return -1;
    absl::StatusOr<int64_t> n = a->QueryInt("SELECT count(*) FROM pg_database WHERE datname LIKE 'innosim_measure_%'");
    return n.ok() ? *n : -1;
  }

  static std::vector<std::string> Socket() {
    return {"--socket", server().socket_dir(), "--port", std::to_string(server().port()), "--user", "postgres",
            "--dbname", "postgres"};
  }

  static std::string Err(const std::string& name) { return server().dir() + "/" + name + ".err"; }

  // Seed 002's step on `stream`, --json; the parsed output.
  static nlohmann::json Step(const std::vector<std::string>& where, const std::string& stream, Output* o) {
    std::vector<std::string> args = {"measure", "--profile", "postgresql-15", "--stream", stream, "--rows", "100000",
                                     "--phase", "checkpoint", "--phase", "insert:" + stream + ":10000", "--json"};
    args.insert(args.end(), where.begin(), where.end());
    *o = RunInnosim(args, Err("step-" + stream));
    return nlohmann::json::parse(o->out, nullptr, false);
  }

  // Every tree, heap and census figure of every phase: simulated == measured.
  static void ExpectStructureExact(const nlohmann::json& j) {
    ASSERT_TRUE(j.contains("phases"));
    ASSERT_EQ(j["phases"].size(), 3u);
    for (const nlohmann::json& ph : j["phases"]) {
      const nlohmann::json& c = ph["comparison"];
      for (const char* name : {"rows", "t.relpages", "t.pg_relation_size", "t.dirty_blocks", "t_pkey.tree_level",
                               "t_pkey.index_size", "t_pkey.internal_pages", "t_pkey.leaf_pages",
                               "t_pkey.avg_leaf_density", "t_pkey.leaf_fragmentation", "t_pkey.dirty_blocks"}) {
        ASSERT_TRUE(c.contains(name)) << ph["phase"] << " " << name;
        EXPECT_EQ(c[name]["simulated"], c[name]["measured"]) << ph["phase"] << " " << name;
      }
    }
  }
};

TEST_F(PgMeasureServerTest, SeedTwoStepOfAscendingBigintsAgreesExactlyOverTheSocket) {
  // A relation measure must not touch, in the database it connects to.
  std::unique_ptr<PgConnection> a = Admin();
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->Exec("DROP TABLE IF EXISTS bystander; CREATE TABLE bystander(id int); INSERT INTO bystander "
                      "SELECT generate_series(1, 100)")
                  .ok());
  absl::StatusOr<std::string> node = a->QueryString("SELECT pg_relation_filenode('bystander')::text");
  ASSERT_TRUE(node.ok());

  Output o;
  const nlohmann::json j = Step(Socket(), "autoinc", &o);
  ASSERT_TRUE(j.is_object()) << o.out << o.err;
  EXPECT_EQ(o.exit_code, 0) << o.err << o.out;
  EXPECT_EQ(j["valid"], true) << j["sanity"].dump();
  EXPECT_EQ(j["within_tolerance"], true);
  EXPECT_EQ(j["database_dropped"], true);
  ExpectStructureExact(j);
  // Seed 002's figure for ordered bigints: the CHECKPOINT cleaned every
  // block, the 10,000 rows after it dirtied the index's right edge only.
  const nlohmann::json& step = j["phases"][2];
  EXPECT_EQ(step["phase"], "insert:autoinc:10000");
  EXPECT_EQ(step["server"]["dirty_blocks"]["t_pkey"], 29);
  EXPECT_EQ(j["phases"][1]["server"]["dirty_blocks"]["t_pkey"], 0);
  // The step's WAL, full-page images included, within the tolerance.
  for (const char* w : {"wal_records", "wal_fpi", "wal_bytes"}) {
    EXPECT_EQ(step["comparison"][w]["within_tolerance"], true) << w << " " << step["comparison"][w].dump();
    EXPECT_EQ(step["comparison"][w]["in_verdict"], true) << w;
  }
  EXPECT_GT(step["server"]["wal_fpi"].get<int64_t>(), 0);

  EXPECT_EQ(LeftoverDatabases(), 0);
  absl::StatusOr<int64_t> rows = a->QueryInt("SELECT count(*) FROM bystander");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(*rows, 100);
  EXPECT_EQ(a->QueryString("SELECT pg_relation_filenode('bystander')::text").value_or(""), *node);
  ASSERT_TRUE(a->Exec("DROP TABLE bystander").ok());
}

// Seed 002's switch through measure: v4 rows, v7 rows appended, DELETE of
// the v4 rows + VACUUM, REINDEX; and the other two DELETEs (every K-th row,
// a key range) on ordered keys. The tree and the heap agree exactly after
// each phase (pgstatindex's deleted_pages too, through leaf/internal/size);
// the DELETE's and REINDEX's WAL and dirty blocks are shown, not judged (the
// model does not simulate them).
TEST_F(PgMeasureServerTest, DeleteVacuumAndReindexPhasesAgreeExactly) {
  const std::vector<std::vector<std::string>> runs = {
      {"--stream", "uuidv4", "--rows", "60000", "--phase", "insert:uuidv7-subms:15000", "--phase", "delete:phase:1",
       "--phase", "optimize"},
      {"--stream", "autoinc", "--rows", "60000", "--table", "CREATE TABLE t (id bigint PRIMARY KEY)", "--phase",
       "delete:every:3", "--phase", "delete:range:10:60", "--phase", "optimize"},
  };
  for (const std::vector<std::string>& run : runs) {
    std::vector<std::string> args = {"measure", "--profile", "postgresql-15", "--json"};
    for (const std::string& s : Socket()) args.push_back(s);
    args.insert(args.end(), run.begin(), run.end());
    const Output o = RunInnosim(args, Err("switch"));
    const nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << o.out << o.err;
    EXPECT_EQ(o.exit_code, 0) << o.err << o.out;
    EXPECT_EQ(j["valid"], true) << j["sanity"].dump();
    ASSERT_EQ(j["phases"].size(), 4u);
    for (const nlohmann::json& ph : j["phases"]) {
      const nlohmann::json& c = ph["comparison"];
      for (const char* name : {"rows", "t.relpages", "t.pg_relation_size", "t_pkey.tree_level", "t_pkey.index_size",
                               "t_pkey.internal_pages", "t_pkey.leaf_pages", "t_pkey.avg_leaf_density",
                               "t_pkey.leaf_fragmentation"}) {
        ASSERT_TRUE(c.contains(name)) << ph["phase"] << " " << name;
        EXPECT_EQ(c[name]["simulated"], c[name]["measured"]) << ph["phase"] << " " << name;
      }
    }
    // Rows left: the DELETEs took what the model's phases take.
    const nlohmann::json& last = j["phases"][3]["comparison"]["rows"];
    EXPECT_EQ(last["measured"], run[1] == "uuidv4" ? 15000 : 20000);
    // REINDEX: the build's pages, one XLOG_FPI each (log_newpage), and the
    // old index's buffers dropped (no dirty block left). The server's few
    // catalog records (pg_class, pg_index) are not modelled: under 1%.
    const nlohmann::json& re = j["phases"][3]["comparison"];
    EXPECT_EQ(re["wal_fpi"]["simulated"], re["wal_fpi"]["measured"]);
    EXPECT_GT(re["wal_fpi"]["measured"].get<double>(), 0.0);
    EXPECT_NEAR(re["wal_bytes"]["simulated"].get<double>(), re["wal_bytes"]["measured"].get<double>(),
                0.01 * re["wal_bytes"]["measured"].get<double>());
    EXPECT_EQ(re["t_pkey.dirty_blocks"]["simulated"], 0);
    EXPECT_EQ(re["t_pkey.dirty_blocks"]["measured"], 0);
  }
  EXPECT_EQ(LeftoverDatabases(), 0);
}

// libpq's environment, as every libpq client reads it: no --socket, --user
// or --dbname on the command line.
TEST_F(PgMeasureServerTest, UuidV7StepOverLibpqEnvironmentAgreesExactly) {
  ::setenv("PGHOST", server().socket_dir().c_str(), 1);
  ::setenv("PGPORT", std::to_string(server().port()).c_str(), 1);
  ::setenv("PGUSER", "postgres", 1);
  ::setenv("PGDATABASE", "postgres", 1);
  Output o;
  const nlohmann::json j = Step({}, "uuidv7-subms", &o);
  for (const char* v : {"PGHOST", "PGPORT", "PGUSER", "PGDATABASE"}) ::unsetenv(v);
  ASSERT_TRUE(j.is_object()) << o.out << o.err;
  EXPECT_EQ(o.exit_code, 0) << o.err << o.out;
  EXPECT_TRUE(absl::StrContains(j["target"].get<std::string>(), server().socket_dir())) << j["target"];
  ExpectStructureExact(j);
  EXPECT_EQ(LeftoverDatabases(), 0);
}

// --private-server: a throwaway server of its own, --set as its -c
// settings (read back with SHOW and checked as taken from the command line).
TEST_F(PgMeasureServerTest, PrivateServerTakesTheSetSettings) {
  Output o = RunInnosim({"measure", "--profile", "postgresql-15", "--private-server", "--set", "shared_buffers=64MB",
                         "--set", "checkpoint_timeout=1h", "--stream", "uuidv4", "--rows", "50000", "--phase",
                         "checkpoint", "--phase", "insert:uuidv4:10000", "--table",
                         "CREATE TABLE t (id uuid PRIMARY KEY, v text)", "--payload-bytes", "32", "--json"},
                        Err("private"));
  const nlohmann::json j = nlohmann::json::parse(o.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << o.out << o.err;
  EXPECT_EQ(o.exit_code, 0) << o.err << o.out;
  EXPECT_EQ(j["settings"]["shared_buffers"]["value"], "64MB");
  EXPECT_EQ(j["settings"]["checkpoint_timeout"]["value"], "1h");
  bool taken = false;
  for (const nlohmann::json& s : j["sanity"]) {
    if (s["name"] == "--set taken by the server") taken = s["pass"].get<bool>();
  }
  EXPECT_TRUE(taken) << j["sanity"].dump();
  ExpectStructureExact(j);
}

// SIGINT while loading: exit 130, one line, the database dropped.
TEST_F(PgMeasureServerTest, SigintWhileLoadingDropsTheDatabase) {
  const std::string out = server().dir() + "/sigint.out", err = Err("sigint");
  std::vector<std::string> args = {"measure", "--profile", "postgresql-15", "--stream", "autoinc", "--rows", "5M"};
  for (const std::string& s : Socket()) args.push_back(s);
  const pid_t pid = SpawnInnosim(args, out, err);
  ASSERT_GT(pid, 0);
  std::unique_ptr<PgConnection> a = Admin();
  ASSERT_NE(a, nullptr);
  bool loading = false;
  for (int i = 0; i < 3000 && !loading; ++i) {
    // Rows in the table: the loop between INSERT batches is running.
    absl::StatusOr<int64_t> n = a->QueryInt(
        "SELECT coalesce(sum(tup_inserted), 0)::bigint FROM pg_stat_database WHERE datname LIKE 'innosim_measure_%'");
    loading = n.ok() && *n > 0;
    if (!loading) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!loading) ::kill(pid, SIGKILL);
  ASSERT_TRUE(loading) << "measure never started loading";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int code = WaitInnosim(pid);
  std::string e = ReadWholeFile(err);
  EXPECT_EQ(code, 130) << e;
  EXPECT_TRUE(absl::StrContains(e, "SIGINT")) << e;
  EXPECT_TRUE(absl::StrContains(e, "dropped")) << e;
  EXPECT_EQ(e.find('\n'), e.size() - 1) << e;
  EXPECT_EQ(LeftoverDatabases(), 0);
}

// A user who may create databases but not the extensions: one line naming
// the extension and the CREATE EXTENSION to run; nothing left behind.
TEST_F(PgMeasureServerTest, MissingExtensionIsOneLineNamingIt) {
  std::unique_ptr<PgConnection> a = Admin();
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->Exec("DROP ROLE IF EXISTS measurer; CREATE ROLE measurer LOGIN CREATEDB").ok());
  Output o = RunInnosim({"measure", "--profile", "postgresql-15", "--socket", server().socket_dir(), "--port",
                         std::to_string(server().port()), "--user", "measurer", "--dbname", "postgres", "--stream", "autoinc", "--rows", "1000"},
                        Err("ext"));
  EXPECT_EQ(o.exit_code, 2) << o.err << o.out;
  EXPECT_TRUE(absl::StrContains(o.err, "CREATE EXTENSION pgstattuple")) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  EXPECT_EQ(LeftoverDatabases(), 0);
  ASSERT_TRUE(a->Exec("DROP ROLE measurer").ok());
}

// Bad input: one line, the exit code, before any server is needed.
TEST_F(PgMeasureServerTest, BadInputIsOneLineWithItsExitCode) {
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::string no_dir = "/tmp/innosim-no-such-dir";
  const std::vector<Case> cases = {
      // No server there: the outside world, 3.
      {{"--socket", no_dir}, 3, no_dir},
      // What the model does not simulate, refused in its words.
      {{"--private-server", "--phase", "delete:every:2", "--phase", "insert:autoinc:10"}, 2, "after a DELETE's VACUUM"},
      {{"--set", "shared_buffers=32MB", "--socket", no_dir}, 2, "--private-server"},
      {{"--private-server", "--socket", no_dir}, 2, "--private-server"},
      {{"--private-server", "--set", "shared_buffers"}, 2, "NAME=VALUE"},
      {{"--private-server", "--datadir", "/tmp"}, 2, "--datadir"},
      {{"--private-server", "--writers", "2"}, 2, "--writers"},
      {{"--private-server", "--table", "CREATE TABLE t (id bigint PRIMARY KEY, n bigint); CREATE INDEX ON t (n)"},
       2,
       "no other index"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"measure", "--profile", "postgresql-15", "--stream", "autoinc", "--rows", "1000"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Output o = RunInnosim(args, Err("bad"));
    EXPECT_EQ(o.exit_code, c.code) << c.args.front() << ": " << o.err;
    EXPECT_TRUE(absl::StrContains(o.err, c.says)) << o.err;
    EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
  Output p = RunInnosim({"measure", "--profile", "postgresql-16", "--private-server", "--stream", "autoinc", "--rows",
                         "1000"},
                        Err("bad"));
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_TRUE(absl::StrContains(p.err, "postgresql-16")) << p.err;
  Output q = RunInnosim({"measure", "--dbname", "x", "--stream", "autoinc", "--rows", "1000"}, Err("bad"));
  EXPECT_EQ(q.exit_code, 2) << q.err;
  EXPECT_TRUE(absl::StrContains(q.err, "--profile postgresql-15")) << q.err;
}

}  // namespace
}  // namespace innosim
