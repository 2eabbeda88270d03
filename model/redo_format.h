// RedoFormat: bytes of redo InnoDB writes for each logical page operation,
// derived from the log record layouts (docs/innodb-rules.md, 'Redo volume', and the
// InnoDB source named at each function). The B-tree adds up the records of
// one mini-transaction and reports the sum with OnMtrCommit(); RedoLog adds
// MySQL's 512-byte block framing on top.
//
//   RedoFormat redo(ServerFlavor::kMySql84, /*space_id=*/5, /*n_fields=*/5);
//   uint32_t mtr = redo.RecInsert(leaf_page_no, /*rec_size=*/142,
//                                 redo.Mismatch(/*extra_size=*/5, prefix),
//                                 /*same_size_as_predecessor=*/true);
//   mtr += redo.MtrEnd(/*n_records=*/1);
//   sink->OnMtrCommit(mtr);
//   sink->OnMtrCommit(redo.UndoInsert(/*pk_bytes=*/16, undo_no, table_id) +
//                     redo.MtrEnd(1));     // the undo mtr comes first
//
// Conventions:
//  * `rec_size` is the whole record as stored: extra bytes (header, null
//    bitmap, lengths) + data bytes (rec_offs_size).
//  * `mismatch_index` is InnoDB's `i` in page_cur_insert_rec_write_log: the
//    number of leading bytes, counted from the start of the extra bytes,
//    that equal the cursor (predecessor) record's, where the 5 fixed header
//    bytes (REC_N_NEW_EXTRA_BYTES) count as equal when the extra sizes
//    match. Mismatch() computes it for the common case.
//  * Page numbers matter because MySQL writes them compressed (1-5 bytes).
//
// MySQL numbers are exact for the record layouts cited; the undo,
// allocation and transaction records are assembled from their writers and
// marked UNVERIFIED where a detail was not checked against 8.4. MariaDB
// numbers follow the physical format of docs/innodb-rules.md, 'Redo volume'
// (estimates there).
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_REDO_FORMAT_H_
#define INNOSIM_MODEL_REDO_FORMAT_H_

#include <cstdint>

#include "model/key.h"
#include "model/server_settings.h"

namespace innosim {

// MySQL 8.0: the first undo tablespace's space id, 0xFFFFFFEF
// (dict_sys_t::s_max_undo_space_id; undo space ids count down from it).
// UNVERIFIED against 8.4: any id >= 0xFFFFFC00 compresses to 2 bytes.
inline constexpr uint32_t kMySqlUndoSpaceId = 0xFFFFFFEFu;

class RedoFormat {
 public:
  // `space_id` of the index's tablespace; `n_fields` of the index
  // (dict_index_get_n_fields: for a clustered index the key, DB_TRX_ID,
  // DB_ROLL_PTR and the other columns; the seed-000 table has 5);
  // `page_size` (innodb_page_size) places the extent-descriptor pages the
  // allocation records write to (XdesPageOf).
  RedoFormat(ServerFlavor flavor, uint32_t space_id, uint32_t n_fields, uint32_t page_size = 16384);

  // The XDES page describing `page_no`: an extent-descriptor page comes
  // every XDES_DESCRIBED_PER_PAGE = page size pages (fsp0types.h;
  // xdes_calc_descriptor_page: ut_2pow_round(offset, page_size)), page 0
  // (the FSP header page) describing the first page-size pages.
  uint32_t XdesPageOf(uint32_t page_no) const { return page_no / page_size_ * page_size_; }

  // The bytes of a transaction id that differ from the field's earlier
  // value (MariaDB's MAYBE_NOP writes log only those), and a transaction
  // id below which MySQL's much-compressed form is taken: a server that has
  // run under 2^24 transactions. The simulator's assumption about the
  // server's history, not an InnoDB constant.
  static constexpr uint32_t kTrxIdChangedBytes = 3;
  static constexpr uint64_t kTrxIdBelow = (uint64_t{1} << 24) - 1;

  // --- Encodings -----------------------------------------------------------
  // mach_write_compressed size (include/mach0data.ic), with the 8.0
  // extended forms for values near 2^32 (FIL_NULL, undo space ids).
  static uint32_t CompressedSize(uint32_t n);
  // mach_u64_write_much_compressed size.
  static uint32_t MuchCompressedSize(uint64_t n);
  // MariaDB mlog_encode_varint size (mtr0log.h).
  static uint32_t VarintSize(uint64_t n);
  // Leading equal bytes of two keys of `width` bytes.
  static uint32_t KeyCommonPrefix(const Key& a, const Key& b, uint32_t width);
  // Mismatch index against a predecessor with the same extra size: the
  // extra bytes (header skipped as equal; lengths/null bits assumed equal)
  // plus the common prefix of the data (the key comes first).
  static uint32_t Mismatch(uint32_t extra_size, uint32_t common_data_prefix) {
    return extra_size + common_data_prefix;
  }

  // --- Building blocks -----------------------------------------------------
  // MySQL: type (1) + compressed space_id + compressed page_no
  // (mlog_write_initial_log_record_fast). MariaDB: type/length byte +
  // varint space + varint page (length bytes are added per record).
  uint32_t RecordHeader(uint32_t page_no) const;
  // MySQL mlog_open_and_write_index (INDEX_LOG_VERSION_CURRENT, COMPACT,
  // no instant columns): version (1) + flag (1) + n (2) + n_uniq (2) +
  // 2 per field. 0 for MariaDB (no index descriptor in the physical log).
  uint32_t IndexInfo() const;
  // Bytes that end a mini-transaction. MySQL: MLOG_MULTI_REC_END (1 byte)
  // when the mtr has more than one record, else 0 (the single record
  // carries MLOG_SINGLE_REC_FLAG; mtr_t::Command::prepare_write). MariaDB:
  // the end marker (1) + CRC-32C (4) of every mtr (10.8+ log format).
  uint32_t MtrEnd(uint32_t n_records) const;

  // --- Row insert ----------------------------------------------------------
  // One record insert on a page: MySQL MLOG_REC_INSERT
  // (page_cur_insert_rec_write_log): header + index info + cursor offset
  // (2) + compressed end_seg_len [+ info bits (1) + compressed origin offset
  // + compressed mismatch index, when the size or info bits differ from the
  // predecessor's, e.g. after the infimum] + the rec_size - mismatch_index
  // differing bytes. MariaDB INSERT_HEAP_DYNAMIC (page_cur_insert_rec_low).
  // Used for leaf rows and for node pointers alike.
  uint32_t RecInsert(uint32_t page_no, uint32_t rec_size, uint32_t mismatch_index,
                     bool same_size_as_predecessor) const;
  // The undo record of one inserted row, in its own mtr (MtrEnd excluded).
  // MySQL MLOG_UNDO_INSERT (trx_undof_page_add_undo_rec_log): header on the
  // undo page + length (2) + the record without its 2-byte next pointer and
  // 2-byte start offset: type_cmpl (1) + much-compressed undo_no and
  // table_id + per primary-key field a compressed length and the bytes
  // (trx_undo_page_report_insert). MariaDB UNDO_APPEND of the same record.
  uint32_t UndoInsert(uint32_t pk_bytes, uint64_t undo_no, uint64_t table_id,
                      uint32_t undo_page_no = 300) const;
  // Any undo record of `rec_bytes` (as stored, with its 2-byte next and
  // 2-byte start pointers) appended to an undo page: MySQL MLOG_UNDO_INSERT,
  // MariaDB UNDO_APPEND (MtrEnd excluded).
  uint32_t UndoAppend(uint32_t rec_bytes, uint32_t undo_page_no = 300) const;
  // Per transaction, once: the insert undo log's life: creating its undo
  // segment and header at the first insert, adding `undo_pages - 1` pages,
  // marking it at commit and freeing it (a multi-page insert undo log is
  // not cached). UNVERIFIED estimate assembled from the record layouts.
  uint32_t InsertTrxLifecycle(uint32_t undo_pages) const;
  // Its two halves: a new undo segment of `undo_pages` pages with its first
  // log header (trx_undo_create, trx_undo_add_page), and the log's end
  // when it is not cached: its state and the segment freed
  // (trx_undo_seg_free / MariaDB purge's trx_purge_free_segment).
  // InsertTrxLifecycle = UndoSegmentCreate + UndoSegmentFree. UNVERIFIED.
  uint32_t UndoSegmentCreate(uint32_t undo_pages) const;
  uint32_t UndoSegmentFree(uint32_t undo_pages) const;

  // --- Page allocation and creation (a split's new page) --------------------
  // fseg_alloc_free_page -> fseg_mark_page_used: the XDES free bit (MLOG_1BYTE
  // on the descriptor page) and FSEG_NOT_FULL_N_USED (MLOG_4BYTES on the
  // inode page), MLOG_INIT_FILE_PAGE2 on the new page; when the extent
  // changes segment list (first page used or extent full) a flst_remove +
  // flst_add_last (14 list-node writes); when a new extent is taken for the
  // segment, its removal from FSP_FREE and XDES state/segment id writes.
  uint32_t PageAllocate(uint32_t new_page_no, bool extent_list_move, bool new_extent) const;
  // btr_page_create: MLOG_COMP_PAGE_CREATE (header only), btr_page_set_level
  // (MLOG_2BYTES) and btr_page_set_index_id (MLOG_8BYTES).
  uint32_t PageCreate(uint32_t page_no, uint32_t level, uint64_t index_id) const;
  // One FIL_PAGE_PREV/FIL_PAGE_NEXT write (btr_page_set_prev/next,
  // MLOG_4BYTES), or a node pointer's child page number
  // (btr_node_ptr_set_child_page_no). `value` 0xFFFFFFFF is FIL_NULL.
  uint32_t Write4(uint32_t page_no, uint32_t value) const;
  // btr_set_min_rec_mark (MLOG_COMP_REC_MIN_MARK): header + offset (2).
  uint32_t MinRecMark(uint32_t page_no) const;

  // --- Off-page columns (model/big_rec.h) -----------------------------------
  // One page of an off-page column written with `data_bytes` of it: its
  // header fields (page type, next page / data length, MariaDB's
  // BTR_BLOB_HDR_PART_LEN and BTR_BLOB_HDR_NEXT_PAGE_NO, MySQL's version,
  // data length and trx id) as three small writes, and the data as one
  // string write (MySQL mlog_write_string: header + offset (2) + length (2)
  // + bytes; MariaDB mtr_t::memcpy: a WRITE record of the bytes).
  // UNVERIFIED estimate assembled from the record layouts.
  uint32_t BlobPage(uint32_t page_no, uint32_t data_bytes) const;
  // The clustered record's BTR_EXTERN_FIELD_REF_SIZE reference written once
  // its pages are (btr_store_big_rec_extern_fields / lob::ref_t::update).
  uint32_t ExternFieldRef(uint32_t page_no) const;

  // --- Moving records in a split -------------------------------------------
  // FSP_UP split: page_copy_rec_list_end_to_created_page logs
  // MLOG_COMP_LIST_END_COPY_CREATED (header + index info + 4-byte length)
  // and each moved record as a short insert (compressed end_seg_len + the
  // bytes differing from the previously copied record; the first is compared
  // with the infimum and carries the extra info), then
  // page_delete_rec_list_end logs MLOG_COMP_LIST_END_DELETE (header + index
  // info + 2) on the old page. `bytes_moved` = sum of rec_size,
  // `mismatch_total` = sum of the records' mismatch indexes (pass
  // n_moved * extra_size when unknown: no common data prefix).
  uint32_t SplitMoveEnd(uint32_t new_page_no, uint32_t old_page_no, uint32_t n_moved,
                        uint64_t bytes_moved, uint64_t mismatch_total) const;
  // FSP_DOWN split: page_copy_rec_list_start logs every moved record as a
  // full MLOG_REC_INSERT, then MLOG_COMP_LIST_START_DELETE on the old page.
  uint32_t SplitMoveStart(uint32_t new_page_no, uint32_t old_page_no, uint32_t n_moved,
                          uint64_t bytes_moved, uint64_t mismatch_total) const;
  // A DELETE's delete mark on one record: of the clustered index
  // (btr_cur_del_mark_set_clust_rec: the mark, DB_TRX_ID and DB_ROLL_PTR)
  // or of a secondary index (btr_cur_del_mark_set_sec_rec: the mark and
  // the page's PAGE_MAX_TRX_ID).
  uint32_t DeleteMark(uint32_t page_no, bool clustered) const;
  // Purge's removal of one record of `rec_size` bytes (page_cur_delete_rec).
  uint32_t RecDelete(uint32_t page_no, uint32_t rec_size) const;
  // A page the sorted index build has filled with `n_recs` records of
  // `bytes` (PageBulk::commit's mtr): MariaDB logs it as a copy into a
  // created page; MySQL's build logs nothing (MTR_LOG_NO_REDO).
  uint32_t BulkPage(uint32_t page_no, uint32_t n_recs, uint64_t bytes) const;
  // MLOG_COMP_LIST_END_DELETE / MLOG_COMP_LIST_START_DELETE alone.
  uint32_t ListDelete(uint32_t page_no) const;

  // --- Reorganize ------------------------------------------------------------
  // MySQL btr_page_reorganize_low: MLOG_COMP_PAGE_REORGANIZE, header + index
  // info (recovery replays the rebuild). MariaDB btr_page_reorganize_low
  // writes the changed bytes: the header span [38, 56), the infimum next
  // pointer, the supremum n_owned, one WRITE over the changed heap range
  // (`heap_bytes_changed`), a MEMSET of the freed gap and one WRITE of the
  // changed directory range (`dir_bytes_changed`).
  uint32_t Reorganize(uint32_t page_no, uint32_t heap_bytes_changed = 0,
                      uint32_t dir_bytes_changed = 0) const;

  ServerFlavor flavor() const { return flavor_; }

 private:
  bool mysql() const { return flavor_ == ServerFlavor::kMySql84; }
  // One single-field write (~7-9 bytes) on an undo-tablespace page.
  uint32_t SingleFieldWrite() const;
  // MariaDB: records copied into a created page (a split's new page, a
  // bulk-built page): the heap span, the directory and the header fields.
  uint32_t MariaCopyToCreated(uint32_t page_no, uint32_t n_recs, uint64_t bytes) const;
  // MariaDB: a record whose payload (after the ids) is `payload` bytes.
  uint32_t MariaRecord(uint32_t page_no, uint32_t payload, uint32_t space_id) const;
  // MySQL mlog_write_ulint on a page: header + offset (2) + compressed value.
  uint32_t MySqlWriteUlint(uint32_t space_id, uint32_t page_no, uint32_t value) const;

  ServerFlavor flavor_;
  uint32_t space_id_;
  uint32_t n_fields_;
  // A supported page size (an unsupported one is the Tablespace's error to
  // report; 16384 stands in here so XdesPageOf never divides by zero).
  uint32_t page_size_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_REDO_FORMAT_H_
