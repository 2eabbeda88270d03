// sim/metrics.h's table against the JSON that `run` and `measure` write:
// every counter of the table is a key of both (so the comparison in
// `measure` finds it), and the flags say when.
#include "sim/metrics.h"

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
  const nlohmann::json j = MeasureResultToJson(m)["measured"];
  for (const InnodbCounter& c : kInnodbCounters) {
    SCOPED_TRACE(c.name);
    // measure reads every counter of the table but DATA_FREE.
    EXPECT_EQ(j.contains(c.name), c.name != std::string(counters::kDataFree.name));
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
