// tools/ibd_reader.h: a census of the B+tree pages in a file-per-table
// tablespace (`.ibd`), read page by page from disk.
//
// ReadIbdFile() reads every page of the file once, checks the structure of
// each page (FIL header, index page header, record list, page directory),
// then walks the *live* tree of every index and counts, per index
// (PAGE_INDEX_ID) and per level (PAGE_LEVEL): pages, records (PAGE_N_RECS),
// a records-per-page histogram and the fill (used bytes over usable bytes,
// the simulator's `leaf_fill`):
//
//   used bytes   = data_size = PAGE_HEAP_TOP - 120 - PAGE_GARBAGE
//   usable bytes = page_get_free_space_of_empty = page_size - 120 - 8 - 4
//                  (16252 at 16 KiB)
//
// Live pages: MariaDB (and MySQL) do not overwrite the pages they free, so a
// scan of every FIL_PAGE_INDEX page also counts stale pages. The reader finds
// each index root (an INDEX page with FIL_PAGE_PREV == FIL_PAGE_NEXT ==
// FIL_NULL whose file-segment headers PAGE_BTR_SEG_LEAF/TOP are set; only a
// root carries them), then for every level below it the page list from the
// leftmost page (FIL_PAGE_PREV == FIL_NULL) along FIL_PAGE_NEXT whose back
// links agree and whose length equals the number of node pointers on the
// level above. Every other INDEX page is stale. `raw_index_pages` keeps the
// count of all INDEX pages for comparison.
//
// Formats: MySQL 8.x and MariaDB 10.x, page sizes 4, 8, 16, 32 and 64 KiB,
// MariaDB's full_crc32 tablespace flags (and its CRC-32C page checksum) as
// well as the classic flags. COMPACT/DYNAMIC pages only: ROW_FORMAT=REDUNDANT
// and ROW_FORMAT=COMPRESSED, page_compressed and encrypted tablespaces are
// refused with an error. MySQL's SDI pages (FIL_PAGE_SDI) are not an index
// here; they show as system pages.
//
// Errors: a truncated or corrupt file gives one absl::Status whose message
// names the page and what is wrong. No input crashes the reader. A file
// shorter than its FSP_SIZE is refused (kOutOfRange) unless
// IbdReadOptions::allow_truncated.
//
// Unflushed files: a copy taken while the server still had dirty pages of
// the table mixes page versions of different moments, and its census is
// wrong without looking wrong. The reader looks for signs that cannot occur
// in a file whose every page was written (IbdCensus::unflushed, see
// docs/ibd-reader.md): a written page at or past FSP_FREE_LIMIT or FSP_SIZE
// (page 0 older than the page); a page the extent descriptor marks used that
// is all zero (never written); an INDEX page outside the live tree written
// after every page of the tree (the tree's pages are older than a page it
// has freed). A broken live tree in a file with such a sign is reported as
// unflushed (kUnavailable), not as corrupt. No sign does not prove the file
// consistent: pages that were simply not written yet leave none.
//
// Thread safety: the functions are pure; a census is a plain value.
//
// Example:
//   absl::StatusOr<IbdCensus> census = ReadIbdFile("data/s/t.ibd");
//   if (!census.ok()) { std::cerr << census.status().message() << "\n"; ... }
//   std::cout << IbdCensusText(*census) << PageMapText(*census);
#ifndef INNOSIM_TOOLS_IBD_READER_H_
#define INNOSIM_TOOLS_IBD_READER_H_

#include "model/page_format.h"  // kFilNull, kFilPageIndex, ...
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace innosim {

// The FIL_PAGE_TYPE values the reader names (kFilPageIndex, ...) are
// model/page_format.h's.

// What one page of the file is.
enum class IbdPageState : uint8_t {
  kUnused,      // all zero, or FIL_PAGE_TYPE_ALLOCATED
  kSystem,      // any non-INDEX page: FSP_HDR, XDES, INODE, IBUF_BITMAP, SDI,
                // BLOB, undo, ...
  kIndexLive,   // INDEX page reached by the walk of a live tree
  kIndexStale,  // INDEX page not in any live tree (freed, not overwritten)
};

// One page, as read from the file. Index fields are 0 on non-INDEX pages.
struct IbdPage {
  uint32_t page_no = 0;
  uint16_t fil_type = 0;  // FIL_PAGE_TYPE
  IbdPageState state = IbdPageState::kUnused;
  uint16_t level = 0;      // PAGE_LEVEL
  uint16_t n_recs = 0;     // PAGE_N_RECS
  uint32_t data_size = 0;  // PAGE_HEAP_TOP - 120 - PAGE_GARBAGE
  uint32_t prev = kFilNull;  // FIL_PAGE_PREV
  uint32_t next = kFilNull;  // FIL_PAGE_NEXT
  uint64_t index_id = 0;     // PAGE_INDEX_ID
  uint64_t lsn = 0;          // FIL_PAGE_LSN
};

// One level of one index (live pages only).
struct IbdLevelCensus {
  uint16_t level = 0;
  uint64_t pages = 0;
  uint64_t records = 0;       // sum of PAGE_N_RECS
  uint64_t used_bytes = 0;    // sum of data_size
  uint64_t usable_bytes = 0;  // pages * free space of an empty page
  uint32_t leftmost_page = kFilNull;
  // PAGE_N_RECS value -> number of pages with that many records.
  std::map<uint32_t, uint64_t> records_per_page;

  // used_bytes / usable_bytes, 0 for an empty level.
  double fill() const {
    return usable_bytes == 0 ? 0.0
                             : static_cast<double>(used_bytes) /
                                   static_cast<double>(usable_bytes);
  }
};

// One index (B+tree) found in the file.
struct IbdIndexCensus {
  uint64_t index_id = 0;
  uint32_t root_page = kFilNull;
  uint16_t height = 0;               // number of levels = root level + 1
  std::vector<IbdLevelCensus> levels;  // levels[0] is the leaf level
  uint64_t live_pages = 0;   // sum of levels[].pages
  uint64_t stale_pages = 0;  // INDEX pages with this index id not in the tree
};

// The census of a whole tablespace file.
struct IbdCensus {
  std::string path;          // as given to ReadIbdFile ("" for bytes)
  uint32_t page_size = 0;    // bytes
  uint32_t extent_size = 0;  // pages per extent (64 at 16 KiB)
  uint32_t fsp_flags = 0;    // FSP_SPACE_FLAGS from page 0
  bool full_crc32 = false;   // MariaDB innodb_checksum_algorithm=full_crc32
  bool checksums_verified = false;  // CRC-32C checked on every written page
  uint32_t space_id = 0;     // FSP_SPACE_ID
  uint32_t fsp_size = 0;     // FSP_SIZE: pages the tablespace header claims
  uint32_t fsp_free_limit = 0;  // FSP_FREE_LIMIT: pages from here on were never allocated
  uint64_t n_pages = 0;      // file size / page_size
  uint64_t raw_index_pages = 0;    // every FIL_PAGE_INDEX page, stale included
  uint64_t live_index_pages = 0;   // pages in the live trees
  uint64_t unused_pages = 0;       // all-zero or FIL_PAGE_TYPE_ALLOCATED
  uint32_t usable_bytes_per_page = 0;  // page_size - 120 - 8 - 4
  std::vector<IbdIndexCensus> indexes;  // ordered by index_id
  std::vector<IbdPage> pages;           // one per page, pages[i].page_no == i
  std::vector<std::string> warnings;    // oddities that are not errors
  // Signs that the file is not a consistent image (pages of it were still
  // dirty in the server when it was read); empty when none was seen.
  std::vector<std::string> unflushed;

  // False when a live tree was broken and allow_broken_trees counted it only
  // down to the break (the reason is in warnings).
  bool trees_complete = true;

  bool consistent() const { return unflushed.empty(); }
  // FSP_SIZE claims more pages than the file has (only with allow_truncated).
  bool truncated() const { return fsp_size > n_pages; }

  // "full_crc32" (MariaDB), "mysql-8" (classic flags with the SDI bit) or
  // "classic" (MariaDB without full_crc32, MySQL 5.7).
  std::string format() const;
};

struct IbdReadOptions {
  // Verify the CRC-32C page checksum of full_crc32 files. (Classic-format
  // checksums are not verified: they may use any of three algorithms.)
  bool verify_checksums = true;
  // Read a file shorter than its FSP_SIZE instead of refusing it (the census
  // then covers the pages present, with a warning).
  bool allow_truncated = false;
  // Count a broken live tree down to the break (warning, trees_complete =
  // false) instead of failing.
  bool allow_broken_trees = false;
};

// How to get a consistent file, for messages: wait for zero dirty pages or
// FLUSH TABLES ... FOR EXPORT.
inline constexpr char kIbdFlushAdvice[] =
    "wait until SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty' is 0, or run FLUSH TABLES db.t FOR "
    "EXPORT, copy the file, then UNLOCK TABLES";

// One line for a census with signs of unflushed pages: the path, the first
// sign (and how many more), and kIbdFlushAdvice.
std::string IbdUnflushedMessage(const IbdCensus& census);

// Reads and checks the tablespace at `path`. Errors (one line, naming the
// page): file unreadable or empty; size not a multiple of the page size;
// file shorter than FSP_SIZE (kOutOfRange, unless allow_truncated);
// invalid or unsupported FSP flags; bad checksum; FIL_PAGE_OFFSET or space id
// mismatch; index header out of range (PAGE_HEAP_TOP, PAGE_N_DIR_SLOTS,
// PAGE_GARBAGE); record list loop or out of range; PAGE_N_RECS mismatch with
// the list; directory not owning the list; a broken live page list
// (kUnavailable when the file shows signs of unflushed pages, else
// kDataLoss).
absl::StatusOr<IbdCensus> ReadIbdFile(const std::string& path,
                                      const IbdReadOptions& options = {});

// The same over a whole file image in memory (for tests and fuzzing).
absl::StatusOr<IbdCensus> ReadIbdBytes(std::span<const uint8_t> bytes,
                                       const IbdReadOptions& options = {});

// Page size in bytes encoded by FSP_SPACE_FLAGS (either layout), or 0 if the
// flags are invalid.
uint32_t PageSizeFromFspFlags(uint32_t fsp_flags);

// CRC-32C (Castagnoli), as used by full_crc32 page checksums.
uint32_t Crc32c(std::span<const uint8_t> bytes);

// Fill of one page: data_size / usable_bytes_per_page (0 for non-INDEX).
double PageFill(const IbdCensus& census, const IbdPage& page);

// A human-readable report: file summary, then per index a table of levels
// (pages, records, records per page, fill) and the leaf records-per-page
// histogram. Ends with a newline.
std::string IbdCensusText(const IbdCensus& census);

// The census as one JSON object:
// {"path":..., "page_size":16384, "extent_size":64, "format":"full_crc32",
//  "space_id":5, "n_pages":2304, "raw_index_pages":1775,
//  "live_index_pages":1775, "stale_index_pages":0, "unused_pages":526,
//  "usable_bytes_per_page":16252,
//  "indexes":[{"index_id":23, "root_page":3, "height":3, "live_pages":...,
//     "stale_pages":0,
//     "levels":[{"level":0, "pages":1771, "records":200000,
//                "used_bytes":..., "usable_bytes":..., "fill":0.93,
//                "records_per_page":{"47":1,"56":1,"113":1769}}, ...]}],
//  "warnings":[]}
std::string IbdCensusJson(const IbdCensus& census);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_IBD_READER_H_
