// InnoDB's on-disk page format constants, defined once for the model and
// the .ibd reader (tools/ibd_reader.cc). Each carries InnoDB's name and the
// header that defines it (MySQL 8.x and MariaDB agree on all of them):
// fil0fil.h / fil0types.h (the FIL header and trailer of every page),
// fsp0fsp.h / fsp0types.h / fut0lst.h (page 0's FSP header, extent
// descriptors, file segments, lists), page0types.h / page0page.h (the index
// page header, infimum/supremum, page directory), rem0rec.h (the COMPACT
// record header), univ.i (the page sizes).
#ifndef INNOSIM_MODEL_PAGE_FORMAT_H_
#define INNOSIM_MODEL_PAGE_FORMAT_H_

#include <cstdint>
#include <iterator>
#include <string>

namespace innosim {

// ---- Page sizes (univ.i UNIV_PAGE_SIZE_MIN .. UNIV_PAGE_SIZE_MAX, powers of
// two; the innodb_page_size documentation lists the same five).
inline constexpr uint32_t kSupportedPageSizes[] = {4096, 8192, 16384, 32768, 65536};
inline constexpr uint32_t kUnivPageSizeMin = kSupportedPageSizes[0];
inline constexpr uint32_t kUnivPageSizeMax = kSupportedPageSizes[4];

// True for the page sizes of kSupportedPageSizes.
constexpr bool IsSupportedPageSize(uint64_t page_size) {
  for (uint32_t s : kSupportedPageSizes) {
    if (page_size == s) return true;
  }
  return false;
}

// For messages: "4k, 8k, 16k, 32k or 64k" and "4096, 8192, 16384, 32768 or
// 65536".
inline std::string SupportedPageSizesInK() {
  std::string s;
  for (size_t i = 0; i < std::size(kSupportedPageSizes); ++i) {
    if (i > 0) s += i + 1 == std::size(kSupportedPageSizes) ? " or " : ", ";
    s += std::to_string(kSupportedPageSizes[i] / 1024) + "k";
  }
  return s;
}
inline std::string SupportedPageSizesInBytes() {
  std::string s;
  for (size_t i = 0; i < std::size(kSupportedPageSizes); ++i) {
    if (i > 0) s += i + 1 == std::size(kSupportedPageSizes) ? " or " : ", ";
    s += std::to_string(kSupportedPageSizes[i]);
  }
  return s;
}

// FSP_EXTENT_SIZE (fsp0types.h): pages per extent, 1 MiB of pages up to
// 16 KiB pages, 2 MiB at 32 KiB and 4 MiB at 64 KiB (64 pages).
constexpr uint32_t ExtentSizeInPages(uint32_t page_size) {
  if (page_size <= 16384) return 1048576 / page_size;
  if (page_size <= 32768) return 2097152 / page_size;
  return 4194304 / page_size;
}

// ---- FIL header and trailer of every page (fil0fil.h, fil0types.h).
// FIL_NULL: "no page" (a null page number, e.g. FIL_PAGE_PREV of the first
// page of a level).
inline constexpr uint32_t kFilNull = 0xFFFFFFFF;
inline constexpr uint32_t kFilPageOffset = 4;    // FIL_PAGE_OFFSET
inline constexpr uint32_t kFilPagePrev = 8;      // FIL_PAGE_PREV
inline constexpr uint32_t kFilPageNext = 12;     // FIL_PAGE_NEXT
inline constexpr uint32_t kFilPageLsn = 16;      // FIL_PAGE_LSN
inline constexpr uint32_t kFilPageType = 24;     // FIL_PAGE_TYPE
inline constexpr uint32_t kFilPageSpaceId = 34;  // FIL_PAGE_ARCH_LOG_NO_OR_SPACE_ID
// FIL_PAGE_DATA: end of the FIL header, start of the page's own data.
inline constexpr uint32_t kFilPageData = 38;
// FIL_PAGE_DATA_END: the trailer (old-style checksum and LSN) at the end.
inline constexpr uint32_t kFilPageDataEnd = 8;

// FIL_PAGE_TYPE values (fil0fil.h).
inline constexpr uint16_t kFilPageIndex = 17855;      // 0x45BF, B-tree node
inline constexpr uint16_t kFilPageSdi = 17853;        // 0x45BD, MySQL 8 SDI
inline constexpr uint16_t kFilPageTypeAllocated = 0;  // allocated, unused
inline constexpr uint16_t kFilPageUndoLog = 2;
inline constexpr uint16_t kFilPageInode = 3;
inline constexpr uint16_t kFilPageIbufBitmap = 5;
inline constexpr uint16_t kFilPageTypeBlob = 10;
inline constexpr uint16_t kFilPageTypeFspHdr = 8;
inline constexpr uint16_t kFilPageTypeXdes = 9;

// ---- File lists and segments (fut0lst.h, fsp0fsp.h).
inline constexpr uint32_t kFlstBaseNodeSize = 16;  // FLST_BASE_NODE_SIZE
inline constexpr uint32_t kFlstNodeSize = 12;      // FLST_NODE_SIZE
// FSEG_PAGE_DATA = FIL_PAGE_DATA; FSEG_ARR_OFFSET = FSEG_PAGE_DATA +
// FLST_NODE_SIZE: where the inodes of an INODE page start.
inline constexpr uint32_t kFsegArrOffset = kFilPageData + kFlstNodeSize;

// ---- FSP header on page 0 (fsp0fsp.h), FSP_HEADER_OFFSET = FIL_PAGE_DATA.
inline constexpr uint32_t kFspSpaceId = kFilPageData + 0;      // FSP_SPACE_ID
inline constexpr uint32_t kFspSize = kFilPageData + 8;         // FSP_SIZE
inline constexpr uint32_t kFspFreeLimit = kFilPageData + 12;   // FSP_FREE_LIMIT
inline constexpr uint32_t kFspSpaceFlags = kFilPageData + 16;  // FSP_SPACE_FLAGS

// Extent descriptors: on page 0 after the FSP header (FSP_HEADER_SIZE = 32 +
// 5 * FLST_BASE_NODE_SIZE = 112), and on the XDES page at every multiple of
// the page size. An entry: XDES_ID (8), XDES_FLST_NODE (12), XDES_STATE (4),
// XDES_BITMAP (2 bits per page of the extent: XDES_FREE_BIT = bit 0 of the
// pair, set = free).
inline constexpr uint32_t kXdesArrOffset = kFilPageData + 32 + 5 * kFlstBaseNodeSize;  // XDES_ARR_OFFSET
inline constexpr uint32_t kXdesState = 20;                                             // XDES_STATE
inline constexpr uint32_t kXdesBitmap = 24;                                            // XDES_BITMAP
inline constexpr uint32_t kXdesFreeFrag = 2;                                           // XDES_FREE_FRAG
inline constexpr uint32_t kXdesLastState = 5;  // XDES_FULL_FRAG 3, XDES_FSEG 4, XDES_FSEG_FRAG 5

// ---- Index page header (page0types.h), PAGE_HEADER = FIL_PAGE_DATA.
inline constexpr uint32_t kPageHeader = kFilPageData;          // PAGE_HEADER
inline constexpr uint32_t kPageNDirSlots = kPageHeader + 0;    // PAGE_N_DIR_SLOTS
inline constexpr uint32_t kPageHeapTop = kPageHeader + 2;      // PAGE_HEAP_TOP
inline constexpr uint32_t kPageNHeap = kPageHeader + 4;        // PAGE_N_HEAP
inline constexpr uint32_t kPageFree = kPageHeader + 6;         // PAGE_FREE
inline constexpr uint32_t kPageGarbage = kPageHeader + 8;      // PAGE_GARBAGE
inline constexpr uint32_t kPageNRecs = kPageHeader + 16;       // PAGE_N_RECS
inline constexpr uint32_t kPageMaxTrxId = kPageHeader + 18;    // PAGE_MAX_TRX_ID
inline constexpr uint32_t kPageLevel = kPageHeader + 26;       // PAGE_LEVEL
inline constexpr uint32_t kPageIndexId = kPageHeader + 28;     // PAGE_INDEX_ID
inline constexpr uint32_t kPageBtrSegLeaf = kPageHeader + 36;  // PAGE_BTR_SEG_LEAF
inline constexpr uint32_t kPageBtrSegTop = kPageHeader + 46;   // PAGE_BTR_SEG_TOP

// ---- COMPACT page records and directory (page0page.h, rem0rec.h).
inline constexpr uint32_t kPageNewInfimum = 99;    // PAGE_NEW_INFIMUM (origin)
inline constexpr uint32_t kPageNewSupremum = 112;  // PAGE_NEW_SUPREMUM (origin)
// PAGE_NEW_SUPREMUM_END: end of the supremum record, where the user-record
// heap starts.
inline constexpr uint32_t kPageNewSupremumEnd = 120;
// PAGE_HEAP_NO_USER_LOW (include/rem0rec.h): the heap number of the first
// user record; 0 and 1 are the infimum and the supremum.
inline constexpr uint32_t kPageHeapNoUserLow = 2;
// PAGE_DIR = FIL_PAGE_DATA_END: the directory grows down from the trailer.
inline constexpr uint32_t kPageDir = kFilPageDataEnd;
inline constexpr uint32_t kPageDirSlotSize = 2;  // PAGE_DIR_SLOT_SIZE
// PAGE_DIR_SLOT_MIN_N_OWNED / PAGE_DIR_SLOT_MAX_N_OWNED.
inline constexpr uint32_t kDirSlotMinNOwned = 4;
inline constexpr uint32_t kDirSlotMaxNOwned = 8;
// REC_N_NEW_EXTRA_BYTES (rem0rec.h): the fixed part of a COMPACT record
// header.
inline constexpr uint32_t kRecNewExtraBytes = 5;
inline constexpr uint32_t kBtrMaxLevels = 100;  // BTR_MAX_LEVELS (btr0btr.h)

}  // namespace innosim

#endif  // INNOSIM_MODEL_PAGE_FORMAT_H_
