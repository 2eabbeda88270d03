#include "model/undo_log.h"

#include <algorithm>

namespace innosim {
namespace {

// MariaDB 10.8+ physical log record (mtr0log.h): a type/length byte, one
// more length varint when the rest is longer than 15 bytes, then (unless
// the record is on the same page as the one before it) the space id and
// page number as varints, then the body. The undo logs live in the system
// tablespace, space 0 (innodb_undo_tablespaces=0, the 10.11 default).
uint32_t MbRecord(bool same_page, uint32_t page_no, uint32_t body) {
  const uint32_t len = (same_page ? 0 : RedoFormat::VarintSize(0) + RedoFormat::VarintSize(page_no)) + body;
  return 1 + (len > 15 ? RedoFormat::VarintSize(len - 16) : 0) + len;
}
// WRITE of `n` bytes at `offset` (mtr_t::write logs only the bytes that
// changed, from the first differing one: `n` is that count).
uint32_t MbWrite(bool same_page, uint32_t page_no, uint32_t offset, uint32_t n) {
  return MbRecord(same_page, page_no, RedoFormat::VarintSize(offset) + n);
}
// MEMSET of `len` bytes at `offset` with a `pattern`-byte fill.
uint32_t MbMemset(bool same_page, uint32_t page_no, uint32_t offset, uint32_t len, uint32_t pattern) {
  return MbRecord(same_page, page_no, RedoFormat::VarintSize(offset) + RedoFormat::VarintSize(len) + pattern);
}
// mtr end: the termination byte and CRC-32C of the 10.8+ format.
constexpr uint32_t kMbMtrEnd = 1 + 4;

// trx0undo.h / trx0rseg.h / fut0lst.h field offsets used below.
constexpr uint32_t kTrxUndoPageStart = 38 + 2;     // TRX_UNDO_PAGE_HDR + TRX_UNDO_PAGE_START
constexpr uint32_t kTrxUndoState = 38 + 18;        // TRX_UNDO_SEG_HDR + TRX_UNDO_STATE
constexpr uint32_t kTrxRsegHistory = 38 + 8;       // TRX_RSEG + TRX_RSEG_HISTORY
constexpr uint32_t kUndoHistoryNode = 34;          // TRX_UNDO_HISTORY_NODE in a log header
constexpr uint32_t kFlstNodeSize = 12;             // FLST_NODE_SIZE
constexpr uint32_t kXidExistsToPrevLog = 30 - 20;  // TRX_UNDO_PREV_LOG - TRX_UNDO_XID_EXISTS
// A transaction id's changed bytes, which mtr_t::write<8> logs over the
// zeroed header (MAYBE_NOP skips equal ones): RedoFormat's assumption.
constexpr uint32_t kTrxIdChangedBytes = RedoFormat::kTrxIdChangedBytes;

}  // namespace

UndoLogs::UndoLogs(ServerFlavor flavor, uint32_t page_size, const RedoFormat* redo, uint32_t pk_bytes)
    : flavor_(flavor), page_size_(page_size), redo_(redo), pk_bytes_(pk_bytes) {
  // trx_undo_page_report_insert: next-record pointer (2) + type_cmpl (1) +
  // much-compressed undo_no (2 below 2^14 rows) and table_id (1) + the
  // key's compressed length (1) and bytes + the start offset (2).
  undo_rec_bytes_ = 2 + 1 + 2 + 1 + RedoFormat::CompressedSize(pk_bytes) + pk_bytes + 2;
  // trx0undo.h: TRX_UNDO_PAGE_REUSE_LIMIT = 3 * (srv_page_size / 4).
  reuse_limit_ = 3 * (page_size / 4);
  rsegs_.assign(mysql() ? kMySqlRsegs : kMariaDbRsegs, Rseg{});
  // One page per rseg's cached log plus the pages of the logs in flight.
  free_pages_.reserve(rsegs_.size() + 64);
  pages_.reserve(64);
  history_logs_.reserve(64);
  history_pages_.reserve(256);
}

uint32_t UndoLogs::DeleteMarkRecordBytes(uint32_t pk_bytes, const std::vector<uint32_t>& ordering) {
  // trx_undo_page_report_modify for TRX_UNDO_DEL_MARK_REC (update == NULL,
  // cmpl_info 0): the next-record pointer (2), type_cmpl (1), the
  // much-compressed undo_no (2 below 2^14 rows) and table_id (1), the
  // record's info bits (1), the old DB_TRX_ID and DB_ROLL_PTR
  // (mach_u64_write_compressed: 5, and 4 + 4 with the insert flag set in the
  // roll pointer's high word), the primary key (compressed length +
  // bytes); then, as a delete mark changes every index, the ordering
  // columns (col->ord_part: the key columns and every secondary index's):
  // a 2-byte block length and per column its field number and length
  // (compressed, 1 byte each here) and its bytes; the 2-byte start offset.
  uint32_t bytes = 2 + 1 + 2 + 1 + 1 + 5 + 8 + RedoFormat::CompressedSize(pk_bytes) + pk_bytes;
  bytes += 2 + 1 + RedoFormat::CompressedSize(pk_bytes) + pk_bytes;
  for (uint32_t col : ordering) bytes += 1 + RedoFormat::CompressedSize(col) + col;
  return bytes + 2;
}

uint32_t UndoLogs::HeaderReuseBytes() const {
  if (mysql()) {
    // trx_undo_insert_header_reuse: MLOG_UNDO_HDR_REUSE, header + the
    // much-compressed trx id (mlog_write_initial_log_record + ...).
    return 1 + RedoFormat::CompressedSize(kMySqlUndoSpaceId) + RedoFormat::CompressedSize(kSegmentFirstPage) +
           RedoFormat::MuchCompressedSize(1u << 20);
  }
  // trx_undo_header_create on the cached page, the new header at F (past
  // the earlier logs: offsets of 2 varint bytes). The page type write is a
  // MAYBE_NOP (already 0); TRX_UNDO_TRX_NO is 0 in the zeroed area (no
  // memset).
  const uint32_t f = kFirstLogOffset + kUndoLogXaHdrSize;  // any offset >= 128
  const uint32_t p = kSegmentFirstPage;
  return MbMemset(false, p, kTrxUndoPageStart, 4, 2) +   // PAGE_START, PAGE_FREE
         MbWrite(true, p, kTrxUndoState, 3) +            // STATE, LAST_LOG
         MbWrite(true, p, f, 2) +                        // previous log's NEXT_LOG
         MbWrite(true, p, f, kTrxIdChangedBytes) +       // TRX_ID
         MbWrite(true, p, f, 4) +                        // NEEDS_PURGE, LOG_START
         MbMemset(true, p, f, kXidExistsToPrevLog, 1) +  // XID_EXISTS..PREV_LOG
         MbWrite(true, p, f, 2) +                        // PREV_LOG
         MbMemset(true, p, f, kFlstNodeSize, 1);         // HISTORY_NODE
}

uint32_t UndoLogs::CachedCommitBytes() const {
  if (mysql()) {
    // trx_undo_set_state_at_finish: MLOG_2BYTES TRX_UNDO_STATE, alone in
    // the commit mtr of an insert-only transaction (no serialisation: an
    // insert undo log is not added to the history list).
    return 1 + RedoFormat::CompressedSize(kMySqlUndoSpaceId) + RedoFormat::CompressedSize(kSegmentFirstPage) + 2 + 1 +
           redo_->MtrEnd(1);
  }
  const uint32_t u = kSegmentFirstPage;
  const uint32_t r = kRsegFirstPage;
  const uint32_t f = kFirstLogOffset + kUndoLogXaHdrSize;
  // trx_write_serialisation_history: the state (ACTIVE -> CACHED, 1 byte),
  // trx_purge_add_undo_to_history: flst_add_first onto the rseg's history,
  // empty since purge emptied it (flst_add_to_empty: the base's length,
  // first and last boffsets (the page number is unchanged, a MAYBE_NOP),
  // the node's prev and next set to FIL_NULL), then TRX_UNDO_TRX_NO.
  const uint32_t commit = MbWrite(false, u, kTrxUndoState, 1) + MbWrite(false, r, kTrxRsegHistory, 1) +
                          MbWrite(true, r, kTrxRsegHistory, 2) + MbWrite(true, r, kTrxRsegHistory, 2) +
                          MbMemset(false, u, f + kUndoHistoryNode, 4, 1) +
                          MbMemset(true, u, f + kUndoHistoryNode, 4, 1) + MbWrite(true, u, f, kTrxIdChangedBytes) +
                          kMbMtrEnd;
  // Purge (trx_purge_truncate_rseg_history -> trx_purge_remove_log_hdr):
  // flst_remove of the only node: the length, first and last set to
  // FIL_NULL (4 page bytes and 2 boffset bytes each).
  const uint32_t purge = MbWrite(false, r, kTrxRsegHistory, 1) +
                         2 * (MbWrite(true, r, kTrxRsegHistory, 4) + MbWrite(true, r, kTrxRsegHistory, 2)) + kMbMtrEnd;
  return commit + purge;
}

void UndoLogs::Startup(PageEventSink* sink) const {
  // Each in an mtr of its own (no redo): a small pool keeps what fits.
  auto resident = [sink](uint32_t page_no) {
    sink->OnPageCreate(kUndoSpaceKey, page_no);
    sink->OnMtrCommit(0);
  };
  resident(kFspHeaderPage);
  resident(kInodePage);
  for (uint32_t r = 0; r < n_rsegs(); ++r) resident(kRsegFirstPage + r);
  if (mysql()) return;
  // MariaDB's temporary tablespace (srv_open_tmp_tablespace after
  // trx_lists_init_at_db_start): created and changed without redo.
  auto temporary = [sink](uint32_t page_no) {
    sink->OnPageCreate(kTempSpaceKey, page_no);
    sink->OnTempPageModify(kTempSpaceKey, page_no);
    sink->OnMtrCommit(0);
  };
  temporary(kFspHeaderPage);
  for (uint32_t i = 0; i < kTempInodePages; ++i) temporary(kInodePage + i);
  for (uint32_t r = 0; r < kMariaDbRsegs; ++r) temporary(kRsegFirstPage + r);
}

uint32_t UndoLogs::AllocPage() {
  if (!free_pages_.empty()) {
    const uint32_t p = free_pages_.back();
    free_pages_.pop_back();
    return p;
  }
  return next_fresh_page_++;
}

void UndoLogs::ReportInsert(PageEventSink* sink) {
  // The record itself (MLOG_UNDO_INSERT / UNDO_APPEND), in the same mtr.
  AppendRecord(sink, undo_rec_bytes_, redo_->UndoInsert(pk_bytes_, rows_ + 1, 1));
}

void UndoLogs::ReportDeleteMark(PageEventSink* sink) {
  delete_marks_ = true;
  AppendRecord(sink, del_mark_rec_bytes_, redo_->UndoAppend(del_mark_rec_bytes_));
}

void UndoLogs::AppendRecord(PageEventSink* sink, uint32_t rec_bytes, uint32_t record_redo) {
  uint32_t redo = 0;
  if (rows_ == 0) {
    ++stats_.transactions;
    rseg_ = static_cast<uint32_t>(next_rseg_++ % rsegs_.size());
    Cached& cache = CacheOf(rsegs_[rseg_]);
    pages_.clear();
    page_first_row_.clear();
    if (cache.cached) {
      // trx_undo_reuse_cached: MariaDB appends a header after the earlier
      // logs of the page; MySQL rewrites the log's header in place.
      ++stats_.logs_reused;
      reused_ = true;
      cache.cached = false;
      pages_.push_back(cache.page);
      free_ = (mysql() ? kFirstLogOffset : cache.free) + kUndoLogXaHdrSize;
      redo += HeaderReuseBytes();
      Modify(sink, pages_[0]);
    } else {
      // trx_undo_create: a new segment in the rseg's slot: its inode and
      // page allocation (FSP header, inode page), the rseg header's slot.
      ++stats_.segments_created;
      reused_ = false;
      pages_.push_back(AllocPage());
      free_ = kFirstLogOffset + kUndoLogXaHdrSize;
      Modify(sink, kRsegFirstPage + rseg_);
      ModifyFixOnly(sink, kFspHeaderPage);
      ModifyFixOnly(sink, kInodePage);
      sink->OnPageCreate(kUndoSpaceKey, pages_[0]);
      Modify(sink, pages_[0]);
    }
    page_first_row_.push_back(0);
  }
  if (free_ + rec_bytes > page_size_ - kPageDataEnd) {
    // trx_undo_add_page: a page from the segment (FSP header, inode), on
    // the header page's page list. Its redo is in UndoSegmentCreate's
    // per-page part, counted at commit.
    pages_.push_back(AllocPage());
    page_first_row_.push_back(rows_);
    free_ = kUndoPageHdr + kUndoPageHdrSize;
    ModifyFixOnly(sink, kFspHeaderPage);
    ModifyFixOnly(sink, kInodePage);
    Modify(sink, pages_[0]);
    sink->OnPageCreate(kUndoSpaceKey, CurrentPage());
  }
  Modify(sink, CurrentPage());
  free_ += rec_bytes;
  ++rows_;
  redo += record_redo + redo_->MtrEnd(redo > 0 ? 2 : 1);
  sink->OnMtrCommit(redo);
}

void UndoLogs::Commit(PageEventSink* sink) {
  if (rows_ == 0) return;
  Cached& cache = CacheOf(rsegs_[rseg_]);
  const uint32_t used_pages = static_cast<uint32_t>(pages_.size());
  // trx_undo_set_state_at_finish: TRX_UNDO_CACHED for a one-page log below
  // the reuse limit.
  const bool cached = used_pages == 1 && free_ < reuse_limit_;
  ModifyFixOnly(sink, pages_[0]);
  // The history list: MariaDB adds every log to it, MySQL an update log
  // (trx_purge_add_update_undo_to_history); purge removes it.
  if (!mysql() || delete_marks_) Modify(sink, kRsegFirstPage + rseg_);
  uint32_t redo = 0;
  if (cached) {
    ++stats_.logs_cached;
    if (!reused_) redo += redo_->UndoSegmentCreate(1);
    redo += CachedCommitBytes();
    cache.cached = true;
    cache.page = pages_[0];
    cache.free = free_;
  } else if (delete_marks_) {
    // TRX_UNDO_TO_PURGE: the log stays until purge has read its records
    // (EndPurge frees it).
    if (!reused_) redo += redo_->UndoSegmentCreate(used_pages);
    redo += CachedCommitBytes();
    purge_pending_ = true;
    purge_rseg_ = rseg_;
    purge_pages_ = pages_;
    purge_first_row_ = page_first_row_;
    purge_page_ = 0;
  } else if (deferred_purge_) {
    // A MariaDB log that is not cached (TRX_UNDO_TO_PURGE): in the history
    // until Purge frees it, its pages allocated and dirty. The segment's
    // creation redo now, its free's at Purge.
    if (!reused_) redo += redo_->UndoSegmentCreate(used_pages);
    history_logs_.push_back(HistoryLog{rseg_, used_pages});
    history_pages_.insert(history_pages_.end(), pages_.begin(), pages_.end());
  } else {
    // An insert log that is not cached, freed at commit: MySQL's insert
    // undo, or MariaDB's where no purge is modelled (set_deferred_purge):
    // the rseg slot, the FSP header and inode.
    redo += reused_ ? redo_->UndoSegmentFree(used_pages) : redo_->InsertTrxLifecycle(used_pages);
    // MariaDB: reported as freed pages (trx_purge_free_segment ->
    // fseg_free_step marks them FREED), which a flush that reaches them
    // before the next segment takes them again releases unwritten
    // (buf_pool_t::release_freed_page -> buf_LRU_free_page, which also
    // starts freed_page_clock: from then on purge's walk makes the rollback
    // segment headers young; docs/flushing.md "Purge keeps the rollback
    // segment headers young"). The server's purge frees the log a little
    // later than this ("Purge's lag"). MySQL frees its insert undo at
    // commit and writes freed pages like any other (BufferPool::Free).
    FreeSegment(sink, rseg_, pages_, /*report_free=*/!mysql());
  }
  sink->OnMtrCommit(redo);
  if (deferred_purge_) history_exists_ = true;
  rows_ = 0;
  delete_marks_ = false;
  pages_.clear();
}

void UndoLogs::Purge(PageEventSink* sink) {
  // The batches: each waiting log's undo records, read page by page.
  for (uint32_t page_no : history_pages_) {
    // purge_sys_t::get_page: buf_pool_t::page_fix, no access, not young.
    sink->OnPageFixOnly(kUndoSpaceKey, page_no);
    sink->OnMtrCommit(0);
  }
  // trx_purge_truncate_history: every rollback segment's header latched.
  for (uint32_t r = 0; r < n_rsegs(); ++r) {
    sink->OnPageAccess(kUndoSpaceKey, kRsegFirstPage + r);
    sink->OnMtrCommit(0);
  }
  // The purged logs' segments freed, oldest first: their pages reported
  // freed (a freed page is never written).
  absl::Span<const uint32_t> pages(history_pages_);
  for (const HistoryLog& log : history_logs_) {
    FreeSegment(sink, log.rseg, pages.subspan(0, log.n_pages), /*report_free=*/true);
    pages.remove_prefix(log.n_pages);
    sink->OnMtrCommit(redo_->UndoSegmentFree(log.n_pages));
    ++stats_.segments_purged;
  }
  history_logs_.clear();
  history_pages_.clear();
  history_exists_ = false;
}

void UndoLogs::FreeSegment(PageEventSink* sink, uint32_t rseg, absl::Span<const uint32_t> pages, bool report_free) {
  Modify(sink, kRsegFirstPage + rseg);
  ModifyFixOnly(sink, kFspHeaderPage);
  ModifyFixOnly(sink, kInodePage);
  // Freed in reverse, so the next segment takes the same pages in order.
  for (size_t i = pages.size(); i-- > 0;) {
    if (report_free) sink->OnPageFree(kUndoSpaceKey, pages[i]);
    free_pages_.push_back(pages[i]);
  }
}

void UndoLogs::ReadForPurge(PageEventSink* sink, uint64_t row) {
  if (!purge_pending_) return;  // a cached log: its one page is resident
  while (purge_page_ + 1 < purge_pages_.size() && purge_first_row_[purge_page_ + 1] <= row) ++purge_page_;
  sink->OnPageFixOnly(kUndoSpaceKey, purge_pages_[purge_page_]);
  sink->OnMtrCommit(0);
}

void UndoLogs::EndPurge(PageEventSink* sink) {
  if (!purge_pending_) return;
  const uint32_t n = static_cast<uint32_t>(purge_pages_.size());
  // trx_purge_free_segment: the segment's pages freed (fseg_free_step) and
  // the rseg's slot and history entry removed.
  FreeSegment(sink, purge_rseg_, purge_pages_, /*report_free=*/true);
  sink->OnMtrCommit(redo_->UndoSegmentFree(n));
  ++stats_.segments_purged;
  purge_pending_ = false;
  purge_pages_.clear();
  purge_first_row_.clear();
}

}  // namespace innosim
