#include "model/big_rec.h"

#include <algorithm>

#include "model/index_page.h"  // FreeSpaceOfEmpty
#include "model/page_format.h"

namespace innosim {
namespace {

// BTR_BLOB_HDR_SIZE (btr0cur.h / lob0lob.h): BTR_BLOB_HDR_PART_LEN (4) +
// BTR_BLOB_HDR_NEXT_PAGE_NO (4) at the start of a FIL_PAGE_TYPE_BLOB page.
constexpr uint32_t kBtrBlobHdrSize = 8;

// MySQL lob0first.h first_page_t: LOB_PAGE_DATA = FIL_PAGE_DATA + version
// (1) + flags (1) + LOB version (4) + last trx id (6) + last undo no (4) +
// data len (4) + trx id (6) + two list base nodes (FLST_BASE_NODE_SIZE
// each) = 96; node_count() = 10 index entries of index_entry_t::SIZE (60).
constexpr uint32_t kLobFirstPageData = kFilPageData + 1 + 1 + 4 + 6 + 4 + 4 + 6 + 2 * kFlstBaseNodeSize;
constexpr uint32_t kLobFirstNodeCount = 10;
constexpr uint32_t kLobIndexEntrySize = 60;
// lob0pages.h data_page_t: LOB_PAGE_DATA = FIL_PAGE_DATA + version (1) +
// data len (4) + trx id (6) = 49.
constexpr uint32_t kLobDataPageData = kFilPageData + 1 + 4 + 6;
// lob0impl.h node_page_t: LOB_PAGE_DATA = FIL_PAGE_DATA + version (1).
constexpr uint32_t kLobNodePageData = kFilPageData + 1;

bool Contains(const std::vector<uint32_t>& v, uint32_t c) { return std::find(v.begin(), v.end(), c) != v.end(); }

}  // namespace

bool RecNeedsExt(uint32_t rec_size, uint32_t page_size) {
  // page_zip_rec_needs_ext: the REC_MAX_DATA_SIZE test first (it only
  // matters at 64 KiB), then half an empty page.
  if (rec_size >= kCompressedRecMaxDataSize) return true;
  return rec_size >= FreeSpaceOfEmpty(page_size) / 2;
}

BigRec ConvertBigRec(const TableDef& t, uint32_t page_size) {
  BigRec b;
  const uint32_t local_len = LocalExternBytes(t.row_format);
  // The clustered index's field order: the PK columns (never candidates:
  // the loop starts at dict_index_get_n_unique_in_tree), DB_TRX_ID and
  // DB_ROLL_PTR (fixed-length), then the other columns in table order.
  std::vector<uint32_t> order;
  for (uint32_t c = 0; c < t.columns.size(); ++c) {
    if (!Contains(t.primary.columns, c)) order.push_back(c);
  }
  std::vector<bool> is_ext(t.columns.size(), false);
  b.rec_size = ClusteredRecordSizes(t, b.columns).leaf;
  while (RecNeedsExt(b.rec_size, page_size)) {
    uint32_t longest = 0;
    bool found = false;
    uint32_t longest_c = 0;
    for (uint32_t c : order) {
      const ColumnDef& col = t.columns[c];
      // Fixed-length, already external, or short fields stay.
      if (!col.variable || is_ext[c]) continue;
      if (col.stored_bytes <= local_len || col.stored_bytes <= kBtrExternLocalStoredMaxSize) continue;
      const uint32_t savings = col.stored_bytes - local_len;
      if (longest >= savings) continue;  // the first of equals wins
      // Only DATA_BIG_COL columns have room for the external flag.
      if (!(col.max_bytes > 255 || col.blob)) continue;
      longest = savings;
      longest_c = c;
      found = true;
    }
    if (!found) {
      b.fits = false;  // "Cannot shorten more": DB_TOO_BIG_RECORD
      return b;
    }
    b.columns.push_back(longest_c);
    is_ext[longest_c] = true;
    // DYNAMIC keeps no prefix (local_prefix_len = 0); COMPACT keeps 768.
    const uint32_t prefix = local_len - kBtrExternFieldRefSize;
    b.extern_bytes.push_back(t.columns[longest_c].stored_bytes - prefix);
    b.rec_size = ClusteredRecordSizes(t, b.columns).leaf;
  }
  return b;
}

uint32_t BlobPagePayload(ServerFlavor flavor, uint32_t page_size, bool first) {
  if (flavor == ServerFlavor::kMariaDb1011) {
    // btr_store_big_rec_extern_fields: payload_size = page size -
    // FIL_PAGE_DATA - BTR_BLOB_HDR_SIZE - FIL_PAGE_DATA_END.
    return page_size - kFilPageData - kBtrBlobHdrSize - kFilPageDataEnd;
  }
  if (first) {
    // first_page_t::max_space_available: payload() minus the 10 entries.
    return page_size - kLobFirstPageData - kFilPageDataEnd - kLobFirstNodeCount * kLobIndexEntrySize;
  }
  return page_size - kLobDataPageData - kFilPageDataEnd;  // data_page_t::payload
}

ExternPages ExternPagesFor(ServerFlavor flavor, uint32_t page_size, uint32_t bytes) {
  ExternPages p;
  if (bytes == 0) return p;
  if (flavor == ServerFlavor::kMariaDb1011) {
    const uint32_t per_page = BlobPagePayload(flavor, page_size, false);
    p.pages = (bytes + per_page - 1) / per_page;
    return p;
  }
  // lob::insert: the first page, then data pages for the rest; one index
  // entry per page (the first page's own included), the first 10 in the
  // first page, the others in index pages allocated as the free list runs
  // out (first_page_t::alloc_index_entry).
  const uint32_t first = BlobPagePayload(flavor, page_size, true);
  const uint32_t rest = bytes > first ? bytes - first : 0;
  const uint32_t per_data = BlobPagePayload(flavor, page_size, false);
  const uint32_t data_pages = (rest + per_data - 1) / per_data;
  const uint32_t entries = 1 + data_pages;
  if (entries > kLobFirstNodeCount) {
    const uint32_t per_index = (page_size - kLobNodePageData - kFilPageDataEnd) / kLobIndexEntrySize;
    p.index_pages = (entries - kLobFirstNodeCount + per_index - 1) / per_index;
  }
  p.pages = 1 + data_pages + p.index_pages;
  return p;
}

}  // namespace innosim
