// Off-page ("externally stored") columns of the clustered index: which
// columns of a row InnoDB moves out of its leaf record, and the pages it
// writes them to.
//
//   BigRec b = ConvertBigRec(table, /*page_size=*/4096);
//   if (!b.fits) ...                          // DB_TOO_BIG_RECORD
//   RecordSizes s = ClusteredRecordSizes(table, b.columns);  // leaf: 56 bytes
//   ExternPages p = ExternPagesFor(ServerFlavor::kMariaDb1011, 4096, 3000);
//   // p.pages == 1 (one FIL_PAGE_TYPE_BLOB page)
//
// The rules, from the insert path (btr_cur_optimistic_insert /
// btr_cur_pessimistic_insert):
//   page_zip_rec_needs_ext (uncompressed page): a record needs off-page
//     storage when its converted size is at least half the free space of an
//     empty page (page_get_free_space_of_empty / 2: 1982 bytes at 4 KiB,
//     8126 at 16 KiB), or at least COMPRESSED_REC_MAX_DATA_SIZE (16384:
//     what limits 64 KiB pages).
//   dtuple_convert_big_rec: while it does, the longest eligible field goes
//     off-page (ties: the first in index order), leaving
//     BTR_EXTERN_FIELD_REF_SIZE (20) bytes in DYNAMIC, a 768-byte prefix +
//     20 in COMPACT. Eligible: not fixed-length, not NULL, not already
//     external, longer than both the local part and
//     BTR_EXTERN_LOCAL_STORED_MAX_SIZE (40), and DATA_BIG_COL (a maximum
//     over 255 bytes, or TEXT/BLOB). No eligible field left: NULL, which the
//     insert returns as DB_TOO_BIG_RECORD.
// Every row of the model holds the same stored lengths, so every row makes
// the same choice.
//
// The pages of one off-page column (each allocated from the clustered
// index's leaf segment, btr_page_alloc at level 0, after
// fsp_reserve_free_extents(1, FSP_BLOB, n_pages = 1)):
//   MariaDB btr_store_big_rec_extern_fields: a chain of FIL_PAGE_TYPE_BLOB
//     pages, each holding page size - FIL_PAGE_DATA (38) - BTR_BLOB_HDR_SIZE
//     (8) - FIL_PAGE_DATA_END (8) bytes; hint the previous page + 1 (the
//     record's page + 1 for the first), FSP_NO_DIR.
//   MySQL 8.0+ lob::insert (lob0impl.cc; ref_t::is_big is always true for
//     an uncompressed table): a FIL_PAGE_TYPE_LOB_FIRST page holding
//     first_page_t::max_space_available() = page size - 96 (header) - 8
//     (trailer) - 10 index entries of 60 bytes; then FIL_PAGE_TYPE_LOB_DATA
//     pages of data_page_t::payload() = page size - 49 - 8 bytes, one index
//     entry each; index entries past the first page's 10 come from
//     FIL_PAGE_TYPE_LOB_INDEX pages (node_page_t) of (page size - 39 - 8) /
//     60 entries. Hint FIL_NULL, FSP_NO_DIR.
//
// Pure functions; no thread-safety concerns.
#ifndef INNOSIM_MODEL_BIG_REC_H_
#define INNOSIM_MODEL_BIG_REC_H_

#include <cstdint>
#include <vector>

#include "model/record_format.h"
#include "model/server_settings.h"

namespace innosim {

// BTR_EXTERN_LOCAL_STORED_MAX_SIZE (btr0cur.h): BTR_EXTERN_FIELD_REF_SIZE * 2.
inline constexpr uint32_t kBtrExternLocalStoredMaxSize = 2 * kBtrExternFieldRefSize;
// COMPRESSED_REC_MAX_DATA_SIZE (rem0types.h): 1 << 14.
inline constexpr uint32_t kCompressedRecMaxDataSize = 16384;

// page_zip_rec_needs_ext for an uncompressed COMPACT/DYNAMIC page.
bool RecNeedsExt(uint32_t rec_size, uint32_t page_size);

// dtuple_convert_big_rec for a clustered-index row of `table`.
struct BigRec {
  // The columns stored off-page (TableDef positions), in the order chosen.
  std::vector<uint32_t> columns;
  // Bytes of each of them written to its pages: the whole value in
  // DYNAMIC, what follows the 768-byte prefix in COMPACT.
  std::vector<uint32_t> extern_bytes;
  // The leaf record's size once they are out (ClusteredRecordSizes).
  uint32_t rec_size = 0;
  // False when no eligible column is left and the record still needs
  // off-page storage (DB_TOO_BIG_RECORD).
  bool fits = true;
};
BigRec ConvertBigRec(const TableDef& table, uint32_t page_size);

// The pages one off-page value of `bytes` takes.
struct ExternPages {
  uint32_t pages = 0;        // all of them
  uint32_t index_pages = 0;  // MySQL's FIL_PAGE_TYPE_LOB_INDEX pages among them
};
ExternPages ExternPagesFor(ServerFlavor flavor, uint32_t page_size, uint32_t bytes);

// The data bytes one page of a value holds: MariaDB's FIL_PAGE_TYPE_BLOB
// payload; MySQL's first page (first = true) or a data page.
uint32_t BlobPagePayload(ServerFlavor flavor, uint32_t page_size, bool first);

}  // namespace innosim

#endif  // INNOSIM_MODEL_BIG_REC_H_
