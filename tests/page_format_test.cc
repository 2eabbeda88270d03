// model/page_format.h: the page sizes, listed once, and the offsets the
// model and the .ibd reader share, against InnoDB's documented layout.
#include "model/page_format.h"

#include "gtest/gtest.h"
#include "model/index_page.h"

namespace innosim {
namespace {

TEST(PageFormatTest, SupportedPageSizes) {
  for (uint64_t ps : {4096, 8192, 16384, 32768, 65536}) EXPECT_TRUE(IsSupportedPageSize(ps)) << ps;
  for (uint64_t ps : std::initializer_list<uint64_t>{0, 512, 1024, 2048, 4095, 12288, 131072, 4294983680ull}) {
    EXPECT_FALSE(IsSupportedPageSize(ps)) << ps;
  }
  EXPECT_EQ(SupportedPageSizesInK(), "4k, 8k, 16k, 32k or 64k");
  EXPECT_EQ(SupportedPageSizesInBytes(), "4096, 8192, 16384, 32768 or 65536");
}

TEST(PageFormatTest, OffsetsFollowEachOther) {
  // The FIL header is 38 bytes; the index page header (36 bytes of fields
  // and two 10-byte FSEG headers) ends at PAGE_DATA = 94, where the infimum's
  // 5-byte header starts (origin 99), 8 bytes "infimum\0", then the
  // supremum's header (origin 112) and 8 bytes "supremum".
  static_assert(kFilPageData == 38);
  static_assert(kPageBtrSegTop + 10 + kRecNewExtraBytes == kPageNewInfimum);
  static_assert(kPageNewInfimum + 8 + kRecNewExtraBytes == kPageNewSupremum);
  static_assert(kPageNewSupremum + 8 == kPageNewSupremumEnd);
  // An empty 16 KiB compact page: 16384 - 120 - 8 - 2 slots of 2 bytes.
  EXPECT_EQ(FreeSpaceOfEmpty(16384), 16252u);
  EXPECT_EQ(ExtentSizeInPages(4096), 256u);
  EXPECT_EQ(ExtentSizeInPages(65536), 64u);
}

}  // namespace
}  // namespace innosim
