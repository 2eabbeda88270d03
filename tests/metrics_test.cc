// sim/metrics.h's table against the JSON that `run` and `measure` write:
// every counter of the table is a key of both (so the comparison in
// `measure` finds it), the flags say when, and SimulatedCounter and
// MeasuredCounter read the values the JSON reports.
#include "sim/metrics.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "sim/report.h"
#include "tools/measure.h"

namespace innosim {
namespace {

TEST(MetricsTest, EveryCounterIsANumberOfRunJson) {
  for (bool flush : {false, true}) {
    RunResult r;
    r.spec.flush = flush;
    const nlohmann::ordered_json j = RunToJson(r);
    for (const InnodbCounter& c : kInnodbCounters) {
      SCOPED_TRACE(c.name);
      if (c.needs_flush && !flush) {
        EXPECT_FALSE(j.contains(c.name));
      } else {
        ASSERT_TRUE(j.contains(c.name));
        EXPECT_TRUE(j[c.name].is_number());
      }
    }
  }
}

TEST(MetricsTest, EveryCounterButDataFreeIsMeasured) {
  MeasureResult m;
  m.measured.index_page_splits = 1;
  m.measured.index_page_reorg_attempts = 1;
  m.measured.index_page_reorg_successful = 1;
  m.measured.index_page_merge_attempts = 1;
  m.measured.index_page_merge_successful = 1;
  m.measured.buffer_page_read_system_page = 1;
  m.measured.buffer_page_read_undo_log = 1;
  m.measured.buffer_page_written_system_page = 1;
  m.measured.buffer_page_written_undo_log = 1;
  const nlohmann::json j = MeasureResultToJson(m)["measured"];
  for (const InnodbCounter& c : kInnodbCounters) {
    SCOPED_TRACE(c.name);
    // measure reads every counter of the table but DATA_FREE.
    EXPECT_EQ(j.contains(c.name), c.name != std::string(counters::kDataFree.name));
  }
}

// `measure` compares through SimulatedCounter and MeasuredCounter; each must
// give, counter by counter, the value the JSON reports under that name. The
// fields get distinct values so that a counter read from a neighbour's field
// is seen.
TEST(MetricsTest, SimulatedCounterIsWhatRunJsonReports) {
  for (bool flush : {false, true}) {
    RunResult r;
    r.spec.flush = flush;
    IndexCounters& c = r.report.primary.counters;
    c.index_page_splits = 11;
    c.index_page_reorg_attempts = 12;
    c.index_page_reorg_successful = 13;
    c.index_page_merge_attempts = 14;
    c.index_page_merge_successful = 15;
    r.report.primary.n_leaf_pages = 16;
    r.report.primary.size = 17;
    r.report.data_length = 18;
    r.report.index_length = 19;
    r.report.data_free = 20;
    r.flush.Innodb_pages_written = 21;
    r.flush.Innodb_buffer_pool_reads = 22;
    r.flush.Innodb_dblwr_pages_written = 23;
    r.flush.buffer_page_read_system_page = 24;
    r.flush.buffer_page_read_undo_log = 25;
    r.flush.buffer_page_written_system_page = 26;
    r.flush.buffer_page_written_undo_log = 27;
    const nlohmann::ordered_json j = RunToJson(r);
    for (const InnodbCounter& counter : kInnodbCounters) {
      SCOPED_TRACE(counter.name);
      const std::optional<uint64_t> v = SimulatedCounter(r, counter);
      ASSERT_EQ(v.has_value(), j.contains(counter.name));
      if (v) {
        EXPECT_EQ(*v, j[counter.name].get<uint64_t>());
      }
    }
  }
}

TEST(MetricsTest, MeasuredCounterIsWhatMeasureJsonReports) {
  for (bool server_has_metrics : {false, true}) {
    MeasureResult m;
    MeasuredCounters& c = m.measured;
    if (server_has_metrics) {
      c.index_page_splits = 11;
      c.index_page_reorg_attempts = 12;
      c.index_page_reorg_successful = 13;
      c.index_page_merge_attempts = 14;
      c.index_page_merge_successful = 15;
      c.buffer_page_read_system_page = 24;
      c.buffer_page_read_undo_log = 25;
      c.buffer_page_written_system_page = 26;
      c.buffer_page_written_undo_log = 27;
    }
    c.n_leaf_pages = 16;
    c.size = 17;
    c.data_length = 18;
    c.index_length = 19;
    c.Innodb_pages_written = 21;
    c.Innodb_buffer_pool_reads = 22;
    c.Innodb_dblwr_pages_written = 23;
    const nlohmann::json j = MeasureResultToJson(m)["measured"];
    for (const InnodbCounter& counter : kInnodbCounters) {
      SCOPED_TRACE(counter.name);
      const std::optional<int64_t> v = MeasuredCounter(c, counter);
      ASSERT_EQ(v.has_value(), j.contains(counter.name));
      if (v) {
        EXPECT_EQ(*v, j[counter.name].get<int64_t>());
      }
    }
  }
}

TEST(MetricsTest, NamesAreUniqueAndStructuralOnesAreTheShapeOfTheTree) {
  std::set<std::string> names;
  for (const InnodbCounter& c : kInnodbCounters) EXPECT_TRUE(names.insert(c.name).second) << c.name;
  EXPECT_EQ(StructuralNames(), "index_page_splits, n_leaf_pages, size");
  EXPECT_EQ(StructuralNames(" and "), "index_page_splits, n_leaf_pages and size");
}

}  // namespace
}  // namespace innosim
