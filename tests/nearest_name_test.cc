#include "sim/nearest_name.h"

#include "gtest/gtest.h"

namespace innosim {
namespace {

TEST(NearestNameTest, CountsEditsWithAdjacentSwapsAsOne) {
  EXPECT_EQ(EditDistance("stream", "stream"), 0u);
  EXPECT_EQ(EditDistance("strem", "stream"), 1u);
  EXPECT_EQ(EditDistance("rn", "run"), 1u);
  EXPECT_EQ(EditDistance("sewep", "sweep"), 1u);  // one swap
  EXPECT_EQ(EditDistance("innodb-page-size", "INNODB_PAGE_SIZE"), 0u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
}

TEST(NearestNameTest, OffersOnlyCloseCandidates) {
  const std::vector<std::string> keys = {"stream", "rows", "rows_per_ms", "seed"};
  EXPECT_EQ(NearestName("strem", keys), "stream");
  EXPECT_EQ(NearestName("rows_per_secs", keys), "rows_per_ms");  // 3 edits
  EXPECT_EQ(NearestName("rows_per_mss", keys), "rows_per_ms");
  EXPECT_EQ(NearestName("xyz", keys), "");
  EXPECT_EQ(NearestName("rows_per_second_count", keys), "");  // too far
  EXPECT_EQ(DidYouMean("sed", keys), " (did you mean 'seed'?)");
  EXPECT_EQ(DidYouMean("completely_different", keys), "");
}

}  // namespace
}  // namespace innosim
