#include "model/redo_format.h"

#include <algorithm>
#include <bit>

#include "model/page_format.h"

namespace innosim {
namespace {

// MariaDB 10.11: innodb_undo_tablespaces = 0 by default ([Doc]; 3 from
// 11.0), so undo logs live in the system tablespace, space 0.
constexpr uint32_t kMariaDbUndoSpaceId = 0;
// fsp0fsp: the FSP header / first XDES page is page 0, the first inode page
// is page 2 (FSP_FIRST_INODE_PAGE_NO); an XDES page every page_size pages
// (XdesPageOf).
constexpr uint32_t kInodePageNo = 2;
// flst_remove + flst_add_last: ~5 + ~9 single-field writes (prev/next
// page and offset of the neighbours, base first/last, base length;
// fut0lst.cc flst_write_addr writes page (4B) and offset (2B) separately).
constexpr uint32_t kListMoveWrites = 14;
// FSEG_FRAG_ARR_N_SLOTS (include/fsp0fsp.h): slots fseg_create sets to
// FIL_NULL.
constexpr uint32_t kFragArrSlots = 32;
// page_header span rewritten by MariaDB's reorganize: [PAGE_HEADER,
// PAGE_MAX_TRX_ID) = [38, 56).
constexpr uint32_t kMariaDbReorgHeaderSpan = kPageMaxTrxId - kPageHeader;
// Offsets within a page are 2-byte fields in MySQL's mlog_write_ulint.
constexpr uint32_t kOffsetBytes = 2;

}  // namespace

RedoFormat::RedoFormat(ServerFlavor flavor, uint32_t space_id, uint32_t n_fields, uint32_t page_size)
    : flavor_(flavor),
      space_id_(space_id),
      n_fields_(n_fields),
      page_size_(IsSupportedPageSize(page_size) ? page_size : 16384) {}

uint32_t RedoFormat::CompressedSize(uint32_t n) {
  // include/mach0data.ic mach_write_compressed (8.0 layout).
  if (n < 0x80u) return 1;
  if (n < 0x4000u) return 2;
  if (n < 0x200000u) return 3;
  if (n < 0x10000000u) return 4;
  if (n >= 0xFFFFFC00u) return 2;
  if (n >= 0xFFFE0000u) return 3;
  if (n >= 0xFF000000u) return 4;
  return 5;
}

uint32_t RedoFormat::MuchCompressedSize(uint64_t n) {
  // mach_u64_write_much_compressed: high word 0 -> compressed low word;
  // else a 0xFF marker + compressed high + compressed low.
  const uint32_t high = static_cast<uint32_t>(n >> 32);
  const uint32_t low = static_cast<uint32_t>(n);
  if (high == 0) return CompressedSize(low);
  return 1 + CompressedSize(high) + CompressedSize(low);
}

uint32_t RedoFormat::VarintSize(uint64_t n) {
  // MariaDB mtr0log.h mlog_encode_varint: 1 byte < 0x80, 2 < 0x4080,
  // 3 < 0x204080, 4 < 0x10204080, else 5.
  if (n < 0x80) return 1;
  if (n < 0x4080) return 2;
  if (n < 0x204080) return 3;
  if (n < 0x10204080) return 4;
  return 5;
}

uint32_t RedoFormat::KeyCommonPrefix(const Key& a, const Key& b, uint32_t width) {
  for (size_t w = 0; w < Key::kMaxBytes / 8; ++w) {
    if (a.word(w) != b.word(w)) {
      const auto bits = static_cast<uint32_t>(64 * w + std::countl_zero(a.word(w) ^ b.word(w)));
      return std::min(bits / 8, width);
    }
  }
  return width;
}

uint32_t RedoFormat::RecordHeader(uint32_t page_no) const {
  if (mysql()) return 1 + CompressedSize(space_id_) + CompressedSize(page_no);
  return 1 + VarintSize(space_id_) + VarintSize(page_no);
}

uint32_t RedoFormat::IndexInfo() const {
  if (!mysql()) return 0;
  // mtr0log.cc log_index_get_size_needed: version 1 + flag 1 + n 2 +
  // n_uniq 2 + 2 per field.
  return 1 + 1 + 2 + 2 + 2 * n_fields_;
}

uint32_t RedoFormat::MtrEnd(uint32_t n_records) const {
  if (mysql()) return n_records > 1 ? 1 : 0;
  return 1 + 4;
}

uint32_t RedoFormat::MariaRecord(uint32_t page_no, uint32_t payload, uint32_t space_id) const {
  // Type/length byte, one more length varint when the payload is longer
  // than 15 bytes, then space and page varints ([Mb] mtr0log.h;
  // docs/innodb-rules.md, 'Redo volume').
  const uint32_t len = payload > 15 ? VarintSize(payload - 16) : 0;
  return 1 + len + VarintSize(space_id) + VarintSize(page_no) + payload;
}

uint32_t RedoFormat::MySqlWriteUlint(uint32_t space_id, uint32_t page_no, uint32_t value) const {
  // mlog_write_ulint -> mlog_log_ulint... : initial record + 2-byte offset +
  // compressed value (MLOG_1BYTE/2BYTES/4BYTES).
  return 1 + CompressedSize(space_id) + CompressedSize(page_no) + kOffsetBytes +
         CompressedSize(value);
}

uint32_t RedoFormat::RecInsert(uint32_t page_no, uint32_t rec_size, uint32_t mismatch_index,
                               bool same_size_as_predecessor) const {
  mismatch_index = std::min(mismatch_index, rec_size);
  const uint32_t logged = rec_size - mismatch_index;
  if (mysql()) {
    const bool extra_info = !same_size_as_predecessor;
    const uint32_t end_seg_len = 2 * logged + (extra_info ? 1 : 0);
    uint32_t n = RecordHeader(page_no) + IndexInfo() + 2 /* cursor offset */ +
                 CompressedSize(end_seg_len);
    // info bits (1) + origin offset (extra_size < 128: 1) + mismatch index.
    if (extra_info) n += 1 + 1 + CompressedSize(mismatch_index);
    return n + logged;
  }
  // [Mb] INSERT_HEAP_DYNAMIC: subtype (1) + prev_rec varint (2 on a
  // typical page) + enc_hdr_l, hdr_c, data_c varints (1 each) + bytes.
  return MariaRecord(page_no, 1 + 2 + 1 + 1 + 1 + logged, space_id_);
}

uint32_t RedoFormat::UndoInsert(uint32_t pk_bytes, uint64_t undo_no, uint64_t table_id,
                                uint32_t undo_page_no) const {
  // trx_undo_page_report_insert: type_cmpl (1) + undo_no + table_id (much
  // compressed) + per unique field: compressed length + bytes, between the
  // 2-byte next and 2-byte start pointers.
  const uint32_t rec = 1 + MuchCompressedSize(undo_no) + MuchCompressedSize(table_id) +
                       CompressedSize(pk_bytes) + pk_bytes;
  return UndoAppend(2 + rec + 2, undo_page_no);
}

uint32_t RedoFormat::UndoAppend(uint32_t rec_bytes, uint32_t undo_page_no) const {
  if (mysql()) {
    // trx_undof_page_add_undo_rec_log: header + length (2) + the record
    // without its next and start pointers.
    return 1 + CompressedSize(kMySqlUndoSpaceId) + CompressedSize(undo_page_no) + 2 + (rec_bytes - 4);
  }
  // UNDO_APPEND (EXTENDED subtype byte) of the record with its pointers.
  return MariaRecord(undo_page_no, 1 + rec_bytes, kMariaDbUndoSpaceId);
}

uint32_t RedoFormat::SingleFieldWrite() const {
  // UNVERIFIED: a single-field write of ~7-9 bytes on a low page number
  // (MySQL mlog_write_ulint; MariaDB WRITE records are of the same order).
  return mysql() ? MySqlWriteUlint(kMySqlUndoSpaceId, kInodePageNo, 300)
                 : MariaRecord(kInodePageNo, 2 + 4, kMariaDbUndoSpaceId);
}

uint32_t RedoFormat::UndoSegmentCreate(uint32_t undo_pages) const {
  undo_pages = std::max<uint32_t>(undo_pages, 1);
  const uint32_t w = SingleFieldWrite();
  // fseg_create: FSEG_ID, FSEG_NOT_FULL_N_USED, FSEG_MAGIC_N, three list
  // bases (flst_init: 5 writes each), the fragment array (32 FIL_NULL
  // slots), the segment header (3 writes).
  const uint32_t seg_create = w * (3 + 15 + kFragArrSlots + 3);
  // trx_undo_seg_create + header create: MLOG_UNDO_INIT, segment header
  // state / last log (2), page list init (5), the rseg slot (1),
  // MLOG_UNDO_HDR_CREATE with the trx id (~10).
  const uint32_t undo_create = w * (1 + 2 + 5 + 1) + 10;
  // Each page: allocation (xdes bit, used count, init) + MLOG_UNDO_INIT +
  // flst_add_last onto the undo page list (9 writes).
  const uint32_t per_page = w * (3 + 1 + 9);
  return seg_create + undo_create + per_page * undo_pages + MtrEnd(2) * 2;
}

uint32_t RedoFormat::UndoSegmentFree(uint32_t undo_pages) const {
  undo_pages = std::max<uint32_t>(undo_pages, 1);
  // TRX_UNDO_STATE, then trx_undo_seg_free: per page the xdes bit and used
  // count (2), the inode freed (3), the rseg slot reset (1).
  return SingleFieldWrite() * (1 + 2 * undo_pages + 3 + 1) + MtrEnd(2) * 2;
}

uint32_t RedoFormat::InsertTrxLifecycle(uint32_t undo_pages) const {
  return UndoSegmentCreate(undo_pages) + UndoSegmentFree(undo_pages);
}

uint32_t RedoFormat::PageAllocate(uint32_t new_page_no, bool extent_list_move,
                                  bool new_extent) const {
  const uint32_t xdes_page = XdesPageOf(new_page_no);
  if (mysql()) {
    // XDES free bit (MLOG_1BYTE), FSEG_NOT_FULL_N_USED (MLOG_4BYTES),
    // MLOG_INIT_FILE_PAGE2 (header only).
    uint32_t n = MySqlWriteUlint(space_id_, xdes_page, 0x55) +
                 MySqlWriteUlint(space_id_, kInodePageNo, 40) + RecordHeader(new_page_no);
    if (extent_list_move) {
      n += kListMoveWrites * MySqlWriteUlint(space_id_, kInodePageNo, 1000) +
           MySqlWriteUlint(space_id_, kInodePageNo, 40);
    }
    if (new_extent) {
      // flst_remove from FSP_FREE + flst_add_last to FSEG_FREE, XDES state
      // (MLOG_4BYTES) and XDES_ID (MLOG_8BYTES, ~2-byte segment id).
      n += kListMoveWrites * MySqlWriteUlint(space_id_, xdes_page, 1000) +
           MySqlWriteUlint(space_id_, xdes_page, 2) + MySqlWriteUlint(space_id_, xdes_page, 1000);
    }
    return n;
  }
  // MariaDB: WRITE records of the changed bytes and INIT_PAGE.
  const uint32_t write4 = MariaRecord(kInodePageNo, 2 + 4, space_id_);
  uint32_t n = MariaRecord(xdes_page, 2 + 1, space_id_) + write4 + MariaRecord(new_page_no, 0, space_id_);
  if (extent_list_move) n += kListMoveWrites * write4 + write4;
  if (new_extent) n += (kListMoveWrites + 2) * MariaRecord(xdes_page, 2 + 4, space_id_);
  return n;
}

uint32_t RedoFormat::PageCreate(uint32_t page_no, uint32_t level, uint64_t index_id) const {
  if (mysql()) {
    // MLOG_COMP_PAGE_CREATE (page_create_write_log: header only),
    // MLOG_2BYTES PAGE_LEVEL, MLOG_8BYTES PAGE_INDEX_ID (much compressed).
    return RecordHeader(page_no) + (RecordHeader(page_no) + kOffsetBytes + CompressedSize(level)) +
           (RecordHeader(page_no) + kOffsetBytes + MuchCompressedSize(index_id));
  }
  // INIT_INDEX-style page create (subtype byte), then PAGE_LEVEL (2 bytes)
  // and PAGE_INDEX_ID (8 bytes) as same-page WRITEs (ids omitted).
  return MariaRecord(page_no, 1, space_id_) + (1 + 2 + 2) + (1 + 2 + 8);
}

uint32_t RedoFormat::Write4(uint32_t page_no, uint32_t value) const {
  if (mysql()) return MySqlWriteUlint(space_id_, page_no, value);
  return MariaRecord(page_no, 2 + 4, space_id_);
}

uint32_t RedoFormat::BlobPage(uint32_t page_no, uint32_t data_bytes) const {
  if (mysql()) {
    return 3 * Write4(page_no, 0) + RecordHeader(page_no) + kOffsetBytes + 2 + data_bytes;
  }
  return 3 * Write4(page_no, 0) + MariaRecord(page_no, 2 + data_bytes, space_id_);
}

uint32_t RedoFormat::ExternFieldRef(uint32_t page_no) const {
  if (mysql()) return RecordHeader(page_no) + kOffsetBytes + 2 + 20;
  return MariaRecord(page_no, 2 + 20, space_id_);
}

uint32_t RedoFormat::MinRecMark(uint32_t page_no) const {
  if (mysql()) return RecordHeader(page_no) + 2;
  return MariaRecord(page_no, 2 + 1, space_id_);
}

uint32_t RedoFormat::ListDelete(uint32_t page_no) const {
  if (mysql()) return RecordHeader(page_no) + IndexInfo() + 2;
  // Header fields (PAGE_N_DIR_SLOTS .. PAGE_N_RECS span), the last
  // record's next pointer, the owner's n_owned and the last directory slot
  // (docs/innodb-rules.md, 'Redo volume': ~50-100 bytes; UNVERIFIED form).
  return MariaRecord(page_no, 2 + 18, space_id_) + (1 + 2 + 2) + (1 + 2 + 1) + (1 + 2 + 2);
}

uint32_t RedoFormat::DeleteMark(uint32_t page_no, bool clustered) const {
  if (mysql()) {
    if (clustered) {
      // MLOG_COMP_REC_CLUST_DELETE_MARK (btr_cur_del_mark_set_clust_rec_log):
      // header + index info + flags (1) + value (1) + the system fields
      // (row_upd_write_sys_vals_to_log: DB_TRX_ID's field position
      // compressed, DB_ROLL_PTR 7, DB_TRX_ID much compressed) + offset (2).
      return RecordHeader(page_no) + IndexInfo() + 1 + 1 + CompressedSize(n_fields_) + 7 +
             MuchCompressedSize(kTrxIdBelow) + kOffsetBytes;
    }
    // MLOG_REC_SEC_DELETE_MARK (btr_cur_del_mark_set_sec_rec_log): header
    // + value (1) + offset (2); no index descriptor.
    return RecordHeader(page_no) + 1 + kOffsetBytes;
  }
  // btr_rec_set_deleted: a WRITE of the info-bits byte (offset varint 2,
  // data 1).
  const uint32_t mark = MariaRecord(page_no, 2 + 1, space_id_);
  if (!clustered) return mark;
  // btr_cur_upd_rec_sys: a same-page WRITE (type byte, relative offset
  // varint) of DB_TRX_ID and DB_ROLL_PTR (13 bytes) from the first byte
  // that changed: a transaction id's high bytes are equal.
  return mark + 1 + 1 + (13 - (6 - kTrxIdChangedBytes));
}

uint32_t RedoFormat::RecDelete(uint32_t page_no, uint32_t rec_size) const {
  // MySQL MLOG_COMP_REC_DELETE (page_cur_delete_rec_write_log): header +
  // index info + the record's offset (2).
  if (mysql()) return RecordHeader(page_no) + IndexInfo() + kOffsetBytes;
  // MariaDB mtr_t::page_delete, DELETE_ROW_FORMAT_DYNAMIC (the list,
  // directory and PAGE_FREE changes are replayed from it, not logged): the
  // subtype byte, the predecessor's offset from the infimum (a 2-byte
  // varint on a page past its first records), the extra bytes past the
  // fixed header and the data bytes, as varints.
  const uint32_t data = rec_size > kRecNewExtraBytes ? rec_size - kRecNewExtraBytes : 0;
  return MariaRecord(page_no, 1 + 2 + VarintSize(0) + VarintSize(data), space_id_);
}

uint32_t RedoFormat::SplitMoveEnd(uint32_t new_page_no, uint32_t old_page_no, uint32_t n_moved,
                                  uint64_t bytes_moved, uint64_t mismatch_total) const {
  if (n_moved == 0) return ListDelete(old_page_no);
  mismatch_total = std::min(mismatch_total, bytes_moved);
  const uint64_t logged = bytes_moved - mismatch_total;
  if (mysql()) {
    const uint32_t avg = static_cast<uint32_t>(logged / n_moved);
    // MLOG_COMP_LIST_END_COPY_CREATED + 4-byte length, short inserts, the
    // first with extra info (info bits, origin offset, mismatch index).
    const uint64_t copy = RecordHeader(new_page_no) + IndexInfo() + 4 +
                          uint64_t{n_moved} * CompressedSize(2 * avg + 1) + logged + 3;
    return static_cast<uint32_t>(copy) + ListDelete(old_page_no);
  }
  return MariaCopyToCreated(new_page_no, n_moved, bytes_moved) + ListDelete(old_page_no);
}

uint32_t RedoFormat::MariaCopyToCreated(uint32_t page_no, uint32_t n_recs, uint64_t bytes) const {
  // [Ma] copying into the created page: WRITE of the heap span and of the
  // directory (2 bytes per slot, a slot per ~4-8 records; 'Redo volume', UNVERIFIED),
  // plus the header fields.
  const uint32_t slots = (n_recs + 5) / 6 + 1;
  return MariaRecord(page_no, 2 + static_cast<uint32_t>(bytes), space_id_) + (1 + 2 + 2 + 2 * slots) + (1 + 2 + 18);
}

uint32_t RedoFormat::BulkPage(uint32_t page_no, uint32_t n_recs, uint64_t bytes) const {
  // MySQL's Page_load runs with MTR_LOG_NO_REDO (the build's pages are
  // flushed at its end, and one MLOG_INDEX_LOAD per index is logged).
  if (mysql()) return 0;
  // MariaDB 10.11's PageBulk logs the page it builds, as a copy into a
  // created page.
  return MariaCopyToCreated(page_no, n_recs, bytes);
}

uint32_t RedoFormat::SplitMoveStart(uint32_t new_page_no, uint32_t old_page_no, uint32_t n_moved,
                                    uint64_t bytes_moved, uint64_t mismatch_total) const {
  if (n_moved == 0) return ListDelete(old_page_no);
  if (!mysql()) return SplitMoveEnd(new_page_no, old_page_no, n_moved, bytes_moved, mismatch_total);
  mismatch_total = std::min(mismatch_total, bytes_moved);
  const uint64_t logged = bytes_moved - mismatch_total;
  const uint32_t avg = static_cast<uint32_t>(logged / n_moved);
  // page_copy_rec_list_start: a full MLOG_REC_INSERT per record.
  const uint64_t per_rec = RecordHeader(new_page_no) + IndexInfo() + 2 + CompressedSize(2 * avg);
  return static_cast<uint32_t>(per_rec * n_moved + logged + 3) + ListDelete(old_page_no);
}

uint32_t RedoFormat::Reorganize(uint32_t page_no, uint32_t heap_bytes_changed,
                                uint32_t dir_bytes_changed) const {
  if (mysql()) return RecordHeader(page_no) + IndexInfo();
  // Same-page records omit the ids (1 type byte + payload).
  auto same = [](uint32_t payload) { return 1 + (payload > 15 ? VarintSize(payload - 16) : 0) + payload; };
  return MariaRecord(page_no, 2 + kMariaDbReorgHeaderSpan, space_id_) + same(2 + 2) + same(2 + 1) +
         same(2 + heap_bytes_changed) + same(2 + 2 + 1) + same(2 + dir_bytes_changed);
}

}  // namespace innosim
