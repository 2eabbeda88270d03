// InnoDB's on-disk page format constants, defined once for the model and
// the .ibd reader (tools/ibd_reader.cc). Each carries InnoDB's name and the
// header that defines it (MySQL 8.x and MariaDB agree on all of them):
// fil0fil.h / fil0types.h (the FIL header and trailer of every page),
// fsp0fsp.h / fsp0types.h / fut0lst.h (page 0's FSP header, extent
// descriptors, file segments, lists), page0types.h / page0page.h (the index
// page header, infimum/supremum, page directory), rem0rec.h (the COMPACT
// record header), univ.i (the page sizes).
//
// The byte map of a COMPACT index page (FIL_PAGE_INDEX), page size P bytes
// (4096 .. 65536); every number is a byte offset from the page start, and
// multi-byte fields are big-endian (mach_read_from_N):
//
//   FIL header (fil0types.h), 38 bytes, on every page of every type
//     0  FIL_PAGE_SPACE_OR_CHKSUM   4  checksum (classic; 0 or unused in full_crc32)
//     4  FIL_PAGE_OFFSET            4  this page's number
//     8  FIL_PAGE_PREV              4  previous page of the level, or FIL_NULL
//    12  FIL_PAGE_NEXT              4  next page of the level, or FIL_NULL
//    16  FIL_PAGE_LSN               8  LSN of the newest change written to the page
//    24  FIL_PAGE_TYPE              2  17855 = FIL_PAGE_INDEX
//    26  FIL_PAGE_FILE_FLUSH_LSN    8  only meaningful on page 0 of the system tablespace
//    34  FIL_PAGE_SPACE_ID          4  (FIL_PAGE_ARCH_LOG_NO_OR_SPACE_ID)
//    38  FIL_PAGE_DATA: the page's own data begins
//   PAGE_HEADER = FIL_PAGE_DATA (page0types.h), 56 bytes
//    38  PAGE_N_DIR_SLOTS           2  slots in the page directory
//    40  PAGE_HEAP_TOP              2  first byte past the record heap
//    42  PAGE_N_HEAP                2  heap records incl. infimum/supremum; bit 15 = COMPACT
//    44  PAGE_FREE                  2  head of the list of deleted records, 0 if none
//    46  PAGE_GARBAGE               2  bytes in deleted records
//    48  PAGE_LAST_INSERT           2  record last inserted, 0 after a reset
//    50  PAGE_DIRECTION             2  PAGE_LEFT / PAGE_RIGHT / PAGE_NO_DIRECTION
//    52  PAGE_N_DIRECTION           2  consecutive inserts in that direction
//    54  PAGE_N_RECS                2  user records
//    56  PAGE_MAX_TRX_ID            8  secondary indexes and the change buffer only
//    64  PAGE_LEVEL                 2  0 = leaf
//    66  PAGE_INDEX_ID              8  the index the page belongs to
//    74  PAGE_BTR_SEG_LEAF         10  FSEG header of the leaf segment (root only)
//    84  PAGE_BTR_SEG_TOP          10  FSEG header of the non-leaf segment (root only)
//    94  PAGE_DATA: the records begin
//   System records (page0page.h), COMPACT: a 5-byte header (REC_N_NEW_EXTRA_BYTES)
//   before each record's origin
//    94  infimum's header;   99  PAGE_NEW_INFIMUM   "infimum\0" (8 bytes)
//   107  supremum's header; 112  PAGE_NEW_SUPREMUM  "supremum" (8 bytes)
//   120  PAGE_NEW_SUPREMUM_END: the user-record heap begins
//   User records and the heap
//   120 .. PAGE_HEAP_TOP   user records in heap (insertion) order, each a
//                          header + data; key order is the singly linked
//                          list of next-record offsets from the infimum to
//                          the supremum; deleted records stay in the heap
//                          (PAGE_FREE list, PAGE_GARBAGE bytes) until a
//                          reorganize
//   Free space
//   PAGE_HEAP_TOP .. the lowest directory slot: unused, shared by the heap
//                          growing up and the directory growing down
//   Page directory (page0page.h, PAGE_DIR = FIL_PAGE_DATA_END)
//   P-8-2*n .. P-8         PAGE_N_DIR_SLOTS slots of PAGE_DIR_SLOT_SIZE = 2
//                          bytes, growing down from the trailer: slot 0 at
//                          P-10 points to the infimum, the last to the
//                          supremum; each slot's record owns 4..8 records
//                          (PAGE_DIR_SLOT_MIN/MAX_N_OWNED; 1 for the
//                          infimum, 1..8 for the supremum)
//   FIL trailer (fil0types.h), FIL_PAGE_DATA_END = 8 bytes
//   P-8                    FIL_PAGE_END_LSN_OLD_CHKSUM: old-style checksum
//                          (4) and the low 4 bytes of FIL_PAGE_LSN (4); in
//                          MariaDB's full_crc32 format the last 4 bytes are
//                          the page's CRC-32C instead
//
// A new empty page thus holds P - 120 - 8 - 2 * 2 bytes for records
// (page_get_free_space_of_empty: 16252 at 16 KiB). The constants below
// carry these offsets; tests/page_format_test.cc checks that the map and
// the constants agree.
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
inline constexpr uint32_t kFilPageSpaceOrChksum = 0;  // FIL_PAGE_SPACE_OR_CHKSUM
inline constexpr uint32_t kFilPageOffset = 4;    // FIL_PAGE_OFFSET
inline constexpr uint32_t kFilPagePrev = 8;      // FIL_PAGE_PREV
inline constexpr uint32_t kFilPageNext = 12;     // FIL_PAGE_NEXT
inline constexpr uint32_t kFilPageLsn = 16;      // FIL_PAGE_LSN
inline constexpr uint32_t kFilPageType = 24;     // FIL_PAGE_TYPE
inline constexpr uint32_t kFilPageFileFlushLsn = 26;  // FIL_PAGE_FILE_FLUSH_LSN
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
inline constexpr uint32_t kPageLastInsert = kPageHeader + 10;  // PAGE_LAST_INSERT
inline constexpr uint32_t kPageDirection = kPageHeader + 12;   // PAGE_DIRECTION
inline constexpr uint32_t kPageNDirection = kPageHeader + 14;  // PAGE_N_DIRECTION
inline constexpr uint32_t kPageNRecs = kPageHeader + 16;       // PAGE_N_RECS
inline constexpr uint32_t kPageMaxTrxId = kPageHeader + 18;    // PAGE_MAX_TRX_ID
inline constexpr uint32_t kPageLevel = kPageHeader + 26;       // PAGE_LEVEL
inline constexpr uint32_t kPageIndexId = kPageHeader + 28;     // PAGE_INDEX_ID
inline constexpr uint32_t kPageBtrSegLeaf = kPageHeader + 36;  // PAGE_BTR_SEG_LEAF
inline constexpr uint32_t kPageBtrSegTop = kPageHeader + 46;   // PAGE_BTR_SEG_TOP
inline constexpr uint32_t kFsegHeaderSize = 10;                // FSEG_HEADER_SIZE (fsp0types.h)
// PAGE_DATA = PAGE_HEADER + 36 + 2 * FSEG_HEADER_SIZE: the records begin.
inline constexpr uint32_t kPageData = kPageHeader + 36 + 2 * kFsegHeaderSize;

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
