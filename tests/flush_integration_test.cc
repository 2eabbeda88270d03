// Integration tests of the flushing model through the runner, at reduced
// scale, asserting the orderings the seeds establish:
//   - seed 000 (4 GB pool, doublewrite off): UUIDv4 writes each page several
//     times more often than UUIDv7 with a counter and auto-increment, which
//     write each page about once;
//   - seed 000, section 6.4: doublewrite ON counts Innodb_dblwr_pages_written ==
//     Innodb_pages_written and leaves the tree's counters unchanged;
//   - seed 004 (its table with idx_created, 10,000-row batches, a pool
//     smaller than the UUIDv4 table): physical reads appear for UUIDv4 once
//     the table outgrows the pool, and stay near zero for auto-increment and
//     UUIDv7;
//   - a table that fits the pool is never read: its root pages (btr_create)
//     and the XDES pages the file grows past (fsp_fill_free_list) are
//     created in the pool, not read (0 reads at 4 KiB pages, where a
//     descriptor page comes every 4,096 pages);
//   - `innosim run --series` writes the CSV with its header and one row per
//     10,000 rows; `--defaults-file` applies before `--set`.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "sim/runner.h"
#include "sim/series_writer.h"
#include "tests/innosim_process.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

// Seed 000's settings (section 5.2) and measured throughputs (6.1).
RunSpec Seed000Spec(const std::string& stream, double rows_per_sec, uint64_t rows) {
  RunSpec s;
  s.stream.name = stream;
  s.rows = rows;
  s.rows_per_sec = rows_per_sec;
  s.trx_rows = 1000;
  s.settings = {{"innodb_buffer_pool_size", "4G"},
                {"innodb_doublewrite", "0"},
                {"innodb_flush_log_at_trx_commit", "2"},
                {"innodb_change_buffering", "none"},
                {"innodb_autoinc_lock_mode", "2"}};
  return s;
}

double PerPage(const RunResult& r) {
  return static_cast<double>(r.flush.Innodb_pages_written) / static_cast<double>(r.report.primary.size);
}

TEST(FlushIntegrationTest, UuidV4WritesEachPageSeveralTimesMore) {
  std::vector<RunSpec> specs = {Seed000Spec("uuidv4", 127290, 1000000), Seed000Spec("uuidv7-counter", 415524, 1000000),
                                Seed000Spec("autoinc", 487437, 1000000)};
  std::vector<absl::StatusOr<RunResult>> r = RunMany(specs, 2);
  for (const auto& x : r) ASSERT_TRUE(x.ok()) << x.status();
  const double v4 = PerPage(*r[0]), counter = PerPage(*r[1]), autoinc = PerPage(*r[2]);
  EXPECT_GT(v4, 2.5 * counter) << v4 << " vs " << counter;
  EXPECT_GT(v4, 2.5 * autoinc) << v4 << " vs " << autoinc;
  // Time-ordered streams write each page about once (seed: 1.08, 1.07).
  EXPECT_NEAR(counter, 1.0, 0.2);
  EXPECT_NEAR(autoinc, 1.0, 0.2);
  // The table fits in the 4 GB pool: no physical reads to speak of (seed:
  // "Innodb_buffer_pool_reads ~ 0" is a sanity check of every run).
  for (const auto& x : r) EXPECT_LT(x->flush.Innodb_buffer_pool_reads, 100u) << x->spec.stream.name;
  // No dirty page is left: the final flush is counted.
  for (const auto& x : r) EXPECT_GT(x->flush.Innodb_pages_written, x->report.primary.n_leaf_pages / 2);
}

TEST(FlushIntegrationTest, DoublewriteCountsEveryPageWrittenAndLeavesTheTreeAlone) {
  RunSpec off = Seed000Spec("uuidv4", 96667, 500000);
  RunSpec on = off;
  on.settings.emplace_back("innodb_doublewrite", "ON");
  const RunResult a = MustRun(off);
  const RunResult b = MustRun(on);
  EXPECT_EQ(a.flush.Innodb_dblwr_pages_written, 0u);
  EXPECT_GT(b.flush.Innodb_pages_written, 0u);
  EXPECT_EQ(b.flush.Innodb_dblwr_pages_written, b.flush.Innodb_pages_written);
  const IndexReport& x = a.report.primary;
  const IndexReport& y = b.report.primary;
  EXPECT_EQ(x.counters.index_page_splits, y.counters.index_page_splits);
  EXPECT_EQ(x.counters.index_page_reorg_attempts, y.counters.index_page_reorg_attempts);
  EXPECT_EQ(x.size, y.size);
  EXPECT_EQ(x.n_leaf_pages, y.n_leaf_pages);
  EXPECT_EQ(x.height, y.height);
  EXPECT_EQ(a.report.data_length, b.report.data_length);
}

// Seed 004 scaled down: 1M rows in 10,000-row batches, its 128 MB pool
// (8192 frames, of which the page cleaner keeps innodb_lru_scan_depth free;
// the UUIDv4 table with its secondary index outgrows the rest after roughly
// 450k rows, the time-ordered tables only after their hot pages).
RunSpec Seed004Spec(const std::string& stream) {
  RunSpec s;
  s.stream.name = stream;
  s.stream.rows_per_ms = 100;
  s.rows = 1000000;
  s.rows_per_sec = 100000;
  s.trx_rows = 10000;
  s.table = "seed004";
  s.series_every = 10000;
  s.settings = {{"innodb_buffer_pool_size", "128M"}};
  return s;
}

TEST(FlushIntegrationTest, ATableInThePoolIsNeverRead) {
  for (const char* profile : {"mysql-8.4", "mariadb-10.11"}) {
    RunSpec s = Seed000Spec("uuidv4", 100000, 200000);
    s.profile = profile;
    s.settings.push_back({"innodb_page_size", "4096"});
    absl::StatusOr<RunResult> r = innosim::Run(s);
    ASSERT_TRUE(r.ok()) << r.status();
    // Past several descriptor pages (one every 4,096 pages).
    EXPECT_GT(r->report.primary.size, 2u * 4096) << profile;
    EXPECT_EQ(r->flush.Innodb_buffer_pool_reads, 0u) << profile;
  }
}

TEST(FlushIntegrationTest, Seed004ReadsAppearOnlyForUuidV4OnceTheTableOutgrowsThePool) {
  std::vector<absl::StatusOr<RunResult>> r =
      RunMany({Seed004Spec("autoinc"), Seed004Spec("uuidv7-random"), Seed004Spec("uuidv4")}, 2);
  for (const auto& x : r) ASSERT_TRUE(x.ok()) << x.status();
  const RunResult& autoinc = *r[0];
  const RunResult& v7 = *r[1];
  const RunResult& v4 = *r[2];
  // The secondary index was built: one entry per row, ordered by time.
  for (const auto& x : r) {
    ASSERT_EQ(x->report.secondary.size(), 1u);
    EXPECT_EQ(x->report.secondary[0].name, "idx_created");
    EXPECT_EQ(x->report.secondary[0].levels.back().records, 1000000u);
    EXPECT_GT(x->report.index_length, 0u);
    EXPECT_EQ(x->secondary_ties, 0u);
  }
  const uint64_t pool_pages = 128u << 20 >> 14;
  EXPECT_GT(v4.report.primary.size, pool_pages);
  // "Near zero": under one read per thousand rows.
  EXPECT_LT(autoinc.flush.Innodb_buffer_pool_reads, 1000u);
  EXPECT_LT(v7.flush.Innodb_buffer_pool_reads, 1000u);
  EXPECT_GT(v4.flush.Innodb_buffer_pool_reads, 100u * (autoinc.flush.Innodb_buffer_pool_reads + 100));
  // The step: hardly any reads while the table fits, many after.
  ASSERT_EQ(v4.series.size(), 100u);
  EXPECT_LT(v4.series[3].sample.buffer_pool_reads, 100u);  // 40,000 rows
  const uint64_t last_batch = v4.series[99].sample.buffer_pool_reads - v4.series[98].sample.buffer_pool_reads;
  EXPECT_GT(last_batch, 3000u);  // a large share of the batch's rows read a page
}


std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/innosim_" + std::to_string(getpid()) + "_" + name;
}

TEST(FlushIntegrationTest, SeriesFileAndDefaultsFileFromTheCommandLine) {
  const std::string cnf = TempPath("my.cnf");
  const std::string csv = TempPath("series.csv");
  {
    std::ofstream f(cnf);
    f << "[client]\nport = 3307\n[mysqld]\ninnodb_buffer_pool_size = 16M  # small\nskip_log_bin\n"
         "innodb_io_capacity = 100\nport = 3306\n";
  }
  const Output o = RunInnosim({"run", "--stream", "uuidv4", "--rows", "120k", "--table", "seed004", "--batch",
                               "10000", "--defaults-file", cnf, "--set", "innodb_io_capacity=300", "--json",
                               "--series", csv},
                              TempPath("stderr"));
  ASSERT_EQ(o.exit_code, 0) << o.out;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["settings"]["innodb_buffer_pool_size"], "16777216");
  EXPECT_EQ(j["settings"]["innodb_io_capacity"], "300");  // --set wins
  ASSERT_TRUE(j.contains("secondary"));
  EXPECT_EQ(j["secondary"][0]["name"], "idx_created");
  std::ifstream in(csv);
  ASSERT_TRUE(in.good()) << csv;
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, kSeriesCsvHeader);
  int rows = 0;
  while (std::getline(in, line)) {
    if (!line.empty()) ++rows;
  }
  EXPECT_EQ(rows, 12);
  std::remove(csv.c_str());

  // A malformed line is an error naming the file and line, exit code 2.
  {
    std::ofstream f(cnf);
    f << "[mysqld]\ninnodb_io_capacity = 100\n[mysqld\n";
  }
  const std::string err = TempPath("err.txt");
  const int status = std::system(("'" + std::string(INNOSIM_BINARY) + "' run --stream uuidv4 --rows 1k --defaults-file '" +
                                  cnf + "' > /dev/null 2> '" + err + "'")
                                     .c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::stringstream ss;
  ss << std::ifstream(err).rdbuf();
  EXPECT_NE(ss.str().find(cnf + ":3:"), std::string::npos) << ss.str();
  std::remove(cnf.c_str());
  std::remove(err.c_str());
}

}  // namespace
}  // namespace innosim
