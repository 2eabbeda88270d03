// PageEventSink: what the B-tree tells the buffer pool and redo log.
//
// Every insert runs as InnoDB mini-transactions (mtr). Inside one, the tree
// fixes pages in the buffer pool (OnPageAccess: a page that is not resident
// must be read), marks the ones it changes (OnPageModify) and, at commit,
// reports the redo bytes the mtr wrote (OnMtrCommit); pages modified in the
// mtr enter the flush list with the mtr's start LSN as their oldest
// modification, as mtr_t::commit -> add_dirty_blocks_to_flush_list does.
//
// The structure-only run passes no sink (nullptr) and pays nothing.
// Implementations need not be thread-safe: one engine, one thread.
#ifndef INNOSIM_MODEL_PAGE_EVENTS_H_
#define INNOSIM_MODEL_PAGE_EVENTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace innosim {

class PageEventSink {
 public:
  virtual ~PageEventSink() = default;
  // The page is fixed (buf_page_get) by the current mtr. `space_id` tells
  // the index apart when several B-trees share a buffer pool.
  virtual void OnPageAccess(uint32_t space_id, uint32_t page_no) = 0;
  // The page is fixed by a caller that does not call
  // buf_page_make_young_if_needed: in MariaDB 10.11 buf_page_get_gen and
  // buf_pool_t::page_fix neither mark a page accessed nor make it young,
  // their callers do (B-tree descents, the undo log's per-row page, the
  // rollback segment header); purge's undo page reads (purge_sys_t::
  // get_page: "we expect the page to be freed soon", trx0rec.cc) and
  // commit's undo header page (trx_purge_add_undo_to_history) and the file
  // space's own pages (fsp0fsp.cc: the FSP header, XDES and inode pages) do
  // not. A page not resident is read into the LRU's old end as any read.
  // MySQL 8.4's Buf_fetch makes every fixed page young if needed: there it
  // is OnPageAccess, as is the default.
  virtual void OnPageFixOnly(uint32_t space_id, uint32_t page_no) { OnPageAccess(space_id, page_no); }
  // A freshly allocated page is created in the buffer pool without a read
  // (btr_page_alloc -> fseg_alloc_free_page with init_mtr: buf_page_create).
  virtual void OnPageCreate(uint32_t space_id, uint32_t page_no) = 0;
  // The current mtr modified the page.
  virtual void OnPageModify(uint32_t space_id, uint32_t page_no) = 0;
  // The current mtr commits having generated `redo_bytes` of log.
  virtual void OnMtrCommit(uint64_t redo_bytes) = 0;
  // The current mtr freed the page (fseg_free_page: btr_page_free, an undo
  // segment's pages). What becomes of it if it is dirty is the server's
  // affair (FlushModel); a later OnPageCreate allocates it again.
  virtual void OnPageFree(uint32_t /*space_id*/, uint32_t /*page_no*/) {}
  // The current mtr, which writes no redo (MTR_LOG_NO_REDO), changed a page
  // of MariaDB's temporary tablespace: dirty, but written only when an LRU
  // flush meets it (BufferPool::MarkTempDirty).
  virtual void OnTempPageModify(uint32_t /*space_id*/, uint32_t /*page_no*/) {}
  // The tablespace is dropped (the old table of a rebuild): its dirty pages
  // are never written (BufferPool::DropSpace).
  virtual void OnSpaceDrop(uint32_t /*space_id*/) {}
  // The listed pages are written now, whatever the page cleaner's plans
  // (MySQL's Flush_observer::flush at the end of a sorted index build).
  virtual void OnPagesFlush(uint32_t /*space_id*/, const std::vector<uint32_t>& /*pages*/) {}
  // A speed hint, never a page event: the page will be fixed a few rows
  // from now (BTree::Prefetch). Called twice per page, `step` 0 then 1, an
  // insert apart, so that a lookup can be loaded in two dependent steps.
  virtual void OnPageSoon(uint32_t /*space_id*/, uint32_t /*page_no*/, int /*step*/) {}
  // OK, or why the sink could not follow the page traffic (e.g. a buffer
  // pool too small for one mtr); sticky. Not on the hot path: callers ask
  // once per transaction or at the end.
  virtual absl::Status status() const { return absl::OkStatus(); }
  // "" if the sink's invariants hold, else what is wrong (Engine::Verify
  // includes it). For tests: O(state), never per row.
  virtual std::string Verify() const { return ""; }
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_PAGE_EVENTS_H_
