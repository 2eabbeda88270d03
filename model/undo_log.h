// UndoLogs: the insert undo logs of a single loading session, the pages they
// dirty and the redo they write per transaction (trx0undo, trx0rseg,
// trx0purge; docs/flushing.md "Undo logs and rollback segments").
//
// A transaction that inserts gets a rollback segment, round-robin over the
// server's (MariaDB trx_assign_rseg_low, MySQL trx_assign_rseg_durable), and
// in it an undo log: a cached one when the segment has one
// (trx_undo_reuse_cached), else a new undo segment (trx_undo_create). Each
// row appends its undo record to the log's last page. At commit a log that
// fits one page filled below TRX_UNDO_PAGE_REUSE_LIMIT is cached for the
// segment's next transaction (trx_undo_set_state_at_finish); a longer one is
// freed (MySQL insert undo, trx_undo_insert_cleanup) or handed to purge,
// which frees it (MariaDB, trx_purge_free_segment).
//
//   UndoLogs undo(ServerFlavor::kMariaDb1011, 16384, &redo, /*pk_bytes=*/16);
//   undo.ReportInsert(sink);   // per row, before the clustered-index insert
//   undo.Commit(sink);         // per transaction
//
// The pages are keyed Engine::kUndoPageEventSpace (the undo tablespaces, or
// MariaDB's system tablespace): the rollback segment header pages, the undo
// log pages and the tablespace's FSP header and first inode page. Page
// numbers are the model's, not the server's (only their identity matters to
// the buffer pool).
//
// Pure computation; not thread-safe; nothing allocated per row.
#ifndef INNOSIM_MODEL_UNDO_LOG_H_
#define INNOSIM_MODEL_UNDO_LOG_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "model/page_events.h"
#include "model/redo_format.h"
#include "model/server_settings.h"

namespace innosim {

class UndoLogs {
 public:
  // TRX_SYS_N_RSEGS (trx0sys.h): 128 rollback segments. MariaDB 10.11 keeps
  // them all in the system tablespace with innodb_undo_tablespaces=0 (its
  // default) and uses every one. MySQL 8.4: innodb_rollback_segments=128 in
  // each of its 2 default undo tablespaces (innodb_undo_tablespaces doc).
  static constexpr uint32_t kMariaDbRsegs = 128;
  static constexpr uint32_t kMySqlRsegs = 2 * 128;
  // trx0undo.h: the undo page header starts at FIL_PAGE_DATA (38) and is
  // TRX_UNDO_PAGE_HDR_SIZE (6 + FLST_NODE_SIZE 12) long; the segment
  // header follows (TRX_UNDO_SEG_HDR_SIZE = 4 + FSEG_HEADER_SIZE 10 +
  // FLST_BASE_NODE_SIZE 16); each undo log starts with a
  // TRX_UNDO_LOG_XA_HDR_SIZE header (34 + FLST_NODE_SIZE + 4+4+4 +
  // XIDDATASIZE 128 = 186 bytes).
  static constexpr uint32_t kUndoPageHdr = 38;
  static constexpr uint32_t kUndoPageHdrSize = 18;
  static constexpr uint32_t kUndoSegHdrSize = 30;
  static constexpr uint32_t kUndoLogXaHdrSize = 186;
  // Where the first undo log header of a segment's page starts.
  static constexpr uint32_t kFirstLogOffset = kUndoPageHdr + kUndoPageHdrSize + kUndoSegHdrSize;
  // FIL_PAGE_DATA_END: the 8-byte page trailer.
  static constexpr uint32_t kPageDataEnd = 8;

  // Model page numbers under Engine::kUndoPageEventSpace.
  static constexpr uint32_t kFspHeaderPage = 0;  // FSP header + first XDES
  static constexpr uint32_t kInodePage = 2;      // FSP_FIRST_INODE_PAGE_NO
  static constexpr uint32_t kRsegFirstPage = 6;  // FSP_FIRST_RSEG_PAGE_NO
  // Undo log pages are allocated from here up (a cached log keeps its
  // page; a freed segment's pages are taken again first). The simulator's
  // numbering, not an InnoDB constant: a server's undo page numbers depend
  // on its history; any number above the rollback segment headers serves,
  // and only neighbour flushing of the undo space could tell them apart.
  static constexpr uint32_t kSegmentFirstPage = 300;

  // `redo` (not owned) gives the record sizes of the table's flavor;
  // `pk_bytes` is the clustered key's stored length (the undo record's).
  UndoLogs(ServerFlavor flavor, uint32_t page_size, const RedoFormat* redo, uint32_t pk_bytes);

  // The pages the server holds from its start: every rollback segment
  // header (trx_rseg_array_init reads them) and the undo tablespace's FSP
  // header and inode page, created in the sink's pool without a read.
  // MariaDB then creates its temporary tablespace (srv_open_tmp_tablespace:
  // fsp_header_init, and trx_temp_rseg_create's 128 rollback segments, each
  // a segment whose inode takes a slot of the space's two inode pages), all
  // in MTR_LOG_NO_REDO mtrs: 131 pages dirty from the start, written only
  // when an LRU flush reaches them (OnTempPageModify). A private MariaDB
  // 10.11.19 just started showed them in INNODB_BUFFER_PAGE (space
  // 4294967294: 1 FILE_SPACE_HEADER, 2 INODE, 128 SYSTEM pages, every one
  // with OLDEST_MODIFICATION > 0); MySQL's temporary rollback segments are
  // not modelled.
  void Startup(PageEventSink* sink) const;
  // SRV_TMP_SPACE_ID, the temporary tablespace's id (fsp0types.h), as the
  // key of its page events; its pages numbered as the undo space's
  // (kFspHeaderPage, kInodePage and the next, kRsegFirstPage on).
  static constexpr uint32_t kTempSpaceKey = 0xFFFFFFFEu;
  // The temporary tablespace's inode pages: 128 segment inodes at
  // FSP_SEG_INODES_PER_PAGE (84 at 16 KiB: (16384 - 38 - 12 - 8) / 192)
  // take two; the model numbers the second after the first.
  static constexpr uint32_t kTempInodePages = 2;
  // trx_undo_report_row_operation for one inserted row: its undo record in
  // its own mtr, preceded at the transaction's first row by the undo log's
  // assignment (a cached log's new header, trx_undo_header_create /
  // MySQL trx_undo_insert_header_reuse). Reports the pages and the redo.
  void ReportInsert(PageEventSink* sink);
  // trx_undo_report_row_operation for one row a DELETE delete-marks: its
  // TRX_UNDO_DEL_MARK_REC record (trx_undo_page_report_modify, of
  // DeleteMarkRecordBytes) appended in its own mtr, as ReportInsert does;
  // MySQL keeps it in the transaction's update undo log, whose cache is
  // apart from the insert logs'. A transaction that delete-marks is
  // committed by Commit and left to purge: ReadForPurge, then EndPurge.
  void ReportDeleteMark(PageEventSink* sink);
  // Purge fetches the undo record of the `row`-th delete-marked row of the
  // committed log (trx_purge_fetch_next_rec): its page is fixed, in a
  // read-only mtr.
  void ReadForPurge(PageEventSink* sink, uint64_t row);
  // Purge is done with the log (trx_purge_truncate_history): a log that
  // was not cached has its segment freed (trx_purge_free_segment): its
  // pages (OnPageFree), the rollback segment header, the FSP header and
  // inode; the history list entry removed.
  void EndPurge(PageEventSink* sink);
  // The record's bytes on the undo page for a delete-mark of a row whose
  // primary key is `pk_bytes` long (taken as one field), `ordering` being
  // the stored bytes of each column of a secondary index that is not a key
  // column (trx_undo_page_report_modify; see undo_log.cc).
  static uint32_t DeleteMarkRecordBytes(uint32_t pk_bytes, const std::vector<uint32_t>& ordering);
  void set_delete_mark_record_bytes(uint32_t bytes) { del_mark_rec_bytes_ = bytes; }
  uint32_t delete_mark_record_bytes() const { return del_mark_rec_bytes_; }

  // The transaction's commit (nothing when it inserted no row): the undo
  // log's state at finish and, MariaDB, its history-list entry
  // (trx_purge_add_undo_to_history). A cached log's removal from the
  // history (trx_purge_truncate_rseg_history) is modelled at the commit; a
  // log that is not cached is created and freed as
  // RedoFormat::InsertTrxLifecycle says (segment life, UNVERIFIED): freed
  // at the commit (MySQL's insert undo, trx_undo_insert_cleanup), or,
  // MariaDB with a deferred purge, left in the history until Purge.
  void Commit(PageEventSink* sink);

  // MariaDB's purge lag (docs/flushing.md "Purge's lag"). With `on`, a
  // MariaDB log that is not cached (TRX_UNDO_TO_PURGE) stays in the
  // history list, its pages allocated and dirty (pages the page cleaner
  // may write), until Purge; the next transactions take other pages. Off
  // (a caller whose sink has no clock, so no purge would come): freed at
  // the commit. No effect on MySQL, whose insert logs skip the history.
  void set_deferred_purge(bool on) { deferred_purge_ = on && !mysql(); }
  // trx_sys.history_exists(): with a deferred purge, a transaction
  // committed since the last Purge (every MariaDB log enters the history,
  // cached or not).
  bool history_exists() const { return history_exists_; }
  // One run of MariaDB 10.11's purge coordinator, as srv_master_callback's
  // once-a-second wake starts it (purge_sys.wake_if_not_active; a commit
  // does not wake it): purge_coordinator_state::do_purge repeats batches
  // until the history is done. A batch reads the logs' undo records page
  // by page (purge_sys_t::fetch_next_rec, a read-only fix; an insert
  // record without off-page columns changes nothing else,
  // row_purge_record_func); the truncation after it (purge_truncation_task,
  // trx_purge_truncate_history) latches every rollback segment's header
  // (trx_rseg_t::get: buf_page_get_gen, which makes an old header young)
  // and frees the purged logs' segments (free_history_rseg ->
  // trx_purge_free_segment), each in an mtr with UndoSegmentFree's redo.
  // The history is empty afterwards.
  void Purge(PageEventSink* sink);

  // Redo bytes of the pieces, for tests and docs/flushing.md.
  uint32_t HeaderReuseBytes() const;   // reusing a cached log, first row
  uint32_t CachedCommitBytes() const;  // commit of a cached log, with purge
  uint32_t undo_rec_bytes() const { return undo_rec_bytes_; }

  struct Stats {
    uint64_t transactions = 0;
    uint64_t logs_reused = 0;       // trx_undo_reuse_cached
    uint64_t segments_created = 0;  // trx_undo_create
    uint64_t logs_cached = 0;       // TRX_UNDO_CACHED at commit
    uint64_t segments_purged = 0;   // freed by trx_purge_free_segment
  };
  const Stats& stats() const { return stats_; }
  uint32_t n_rsegs() const { return static_cast<uint32_t>(rsegs_.size()); }

 private:
  struct Cached {
    bool cached = false;  // an undo log is on the segment's cache
    uint32_t page = 0;    // its header page
    uint32_t free = 0;    // its TRX_UNDO_PAGE_FREE
  };
  struct Rseg {
    Cached insert;  // MariaDB's only cache; MySQL's insert_undo_cached
    Cached update;  // MySQL's update_undo_cached
  };
  // Appends one undo record of `rec_bytes` (`redo` its UNDO_APPEND /
  // MLOG_UNDO_INSERT bytes), opening the transaction's log at its first.
  void AppendRecord(PageEventSink* sink, uint32_t rec_bytes, uint32_t record_redo);
  // The cache the open transaction's log comes from and goes back to.
  Cached& CacheOf(Rseg& rs) { return mysql() && delete_marks_ ? rs.update : rs.insert; }
  bool mysql() const { return flavor_ == ServerFlavor::kMySql84; }
  // An undo segment freed (trx_undo_seg_free, trx_purge_free_segment): the
  // rseg header's slot, the FSP header and inode changed, `pages` freed
  // for the next segments, and reported to the sink (OnPageFree) when
  // `report_free`.
  void FreeSegment(PageEventSink* sink, uint32_t rseg, absl::Span<const uint32_t> pages, bool report_free);
  // A page for a new segment or an added page: the most recently freed one
  // (fsp reuses freed pages first), else a fresh one.
  uint32_t AllocPage();
  // The undo page the next record of the open transaction goes to.
  uint32_t CurrentPage() const { return pages_.back(); }
  void Modify(PageEventSink* sink, uint32_t page_no) const {
    sink->OnPageAccess(kUndoSpaceKey, page_no);
    sink->OnPageModify(kUndoSpaceKey, page_no);
  }
  // The same by a caller that does not make the page young in MariaDB
  // (PageEventSink::OnPageFixOnly): the FSP header and inode page, the
  // undo header page at commit.
  void ModifyFixOnly(PageEventSink* sink, uint32_t page_no) const {
    sink->OnPageFixOnly(kUndoSpaceKey, page_no);
    sink->OnPageModify(kUndoSpaceKey, page_no);
  }
  static constexpr uint32_t kUndoSpaceKey = 0xFFFFFFEFu;  // Engine::kUndoPageEventSpace

  ServerFlavor flavor_;
  uint32_t page_size_;
  const RedoFormat* redo_;
  uint32_t pk_bytes_;
  uint32_t undo_rec_bytes_;  // the record as stored on the undo page
  uint32_t reuse_limit_;     // TRX_UNDO_PAGE_REUSE_LIMIT
  std::vector<Rseg> rsegs_;
  uint64_t next_rseg_ = 0;
  std::vector<uint32_t> free_pages_;  // LIFO
  uint32_t next_fresh_page_ = kSegmentFirstPage;
  // The open transaction: its rseg, whether its log is a reused cached one,
  // its rows, its pages (header page first) and the free offset on the
  // last. Reserved vectors: no allocation per row.
  uint32_t rseg_ = 0;
  bool reused_ = false;
  uint64_t rows_ = 0;
  std::vector<uint32_t> pages_;
  uint32_t free_ = 0;
  // Whether the open transaction delete-marks rows, the record's bytes,
  // and the row each of its pages starts with.
  bool delete_marks_ = false;
  uint32_t del_mark_rec_bytes_ = 0;
  std::vector<uint64_t> page_first_row_;
  // The committed log waiting for purge (not cached): its rseg, pages and
  // the rows each page starts with; where ReadForPurge is.
  bool purge_pending_ = false;
  uint32_t purge_rseg_ = 0;
  std::vector<uint32_t> purge_pages_;
  std::vector<uint64_t> purge_first_row_;
  size_t purge_page_ = 0;
  // MariaDB's history list: commits since the last Purge, and the logs
  // among them waiting to be freed (their rseg and page count; their pages,
  // in commit order, in history_pages_). Reserved: no allocation per row.
  struct HistoryLog {
    uint32_t rseg = 0;
    uint32_t n_pages = 0;
  };
  bool deferred_purge_ = false;
  bool history_exists_ = false;
  std::vector<HistoryLog> history_logs_;
  std::vector<uint32_t> history_pages_;
  Stats stats_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_UNDO_LOG_H_
