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

// The byte map at the top of model/page_format.h, number by number, against
// the constants the model and the reader use.
TEST(PageFormatTest, ByteMapAgreesWithTheConstants) {
  static_assert(kFilPageSpaceOrChksum == 0 && kFilPageOffset == 4 && kFilPagePrev == 8 && kFilPageNext == 12);
  static_assert(kFilPageLsn == 16 && kFilPageType == 24 && kFilPageFileFlushLsn == 26 && kFilPageSpaceId == 34);
  static_assert(kFilPageData == 38 && kPageHeader == 38);
  static_assert(kPageNDirSlots == 38 && kPageHeapTop == 40 && kPageNHeap == 42 && kPageFree == 44);
  static_assert(kPageGarbage == 46 && kPageLastInsert == 48 && kPageDirection == 50 && kPageNDirection == 52);
  static_assert(kPageNRecs == 54 && kPageMaxTrxId == 56 && kPageLevel == 64 && kPageIndexId == 66);
  static_assert(kPageBtrSegLeaf == 74 && kPageBtrSegTop == 84 && kPageData == 94);
  static_assert(kPageData + kRecNewExtraBytes == kPageNewInfimum && kPageNewInfimum == 99);
  static_assert(kPageNewSupremum - kRecNewExtraBytes == 107 && kPageNewSupremum == 112);
  static_assert(kPageNewSupremumEnd == 120);
  static_assert(kPageDir == 8 && kFilPageDataEnd == 8 && kPageDirSlotSize == 2);
  // Each field ends where the next begins (widths from the map).
  static_assert(kPageMaxTrxId + 8 == kPageLevel && kPageIndexId + 8 == kPageBtrSegLeaf);
  static_assert(kPageBtrSegLeaf + kFsegHeaderSize == kPageBtrSegTop && kPageBtrSegTop + kFsegHeaderSize == kPageData);
  // Free space of an empty page: P - 120 - trailer - two slots (infimum and
  // supremum), at every page size.
  for (uint32_t p : kSupportedPageSizes) {
    EXPECT_EQ(FreeSpaceOfEmpty(p), p - kPageNewSupremumEnd - kPageDir - 2 * kPageDirSlotSize) << p;
  }
}

}  // namespace
}  // namespace innosim
