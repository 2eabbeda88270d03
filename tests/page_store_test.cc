// Tests for PageStore (model/fast/page_store.h): the page descriptors survive the
// array's growth, and new ones start as unused pages.
#include "model/fast/page_store.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace innosim {
namespace {

TEST(PageStoreTest, PagesKeepTheirStateWhileTheArrayGrows) {
  PageStore store;
  constexpr uint32_t kPages = 200000;  // the array moves several times
  for (uint32_t no = 0; no < kPages; no += 7) {
    IndexPage& p = store.Grow(no);
    EXPECT_FALSE(p.in_use()) << no;
    p.Create(no, 0, 142, 16384, store.pool());
    ASSERT_TRUE(p.InsertAfter(-1, Key::FromU64(no), 0, store.pool()));
  }
  EXPECT_GE(store.capacity(), kPages);
  for (uint32_t no = 0; no < kPages; ++no) {
    const IndexPage& p = store.page(no);
    if (no % 7 != 0) {
      EXPECT_FALSE(p.in_use()) << no;
      EXPECT_EQ(p.page_no(), kFilNull) << no;
      continue;
    }
    ASSERT_EQ(p.page_no(), no);
    ASSERT_EQ(p.n_recs(), 1);
    ASSERT_EQ(p.key(0), Key::FromU64(no));
    ASSERT_EQ(p.Verify(), "");
  }
}

TEST(PageStoreTest, CapacityCountsTheDescriptorsMadeAheadOfTheLastPage) {
  PageStore store;
  EXPECT_EQ(store.capacity(), 0u);
  store.Grow(10);
  EXPECT_EQ(store.capacity(), 10u + 1024u);
  store.Grow(500);  // already made
  EXPECT_EQ(store.capacity(), 10u + 1024u);
  store.Grow(5000);
  EXPECT_EQ(store.capacity(), 5000u + 1024u);
}

}  // namespace
}  // namespace innosim
