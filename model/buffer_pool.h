// BufferPool: which pages are resident, which are dirty, and in what order
// InnoDB would evict and flush them.
//
// The model follows MySQL 8.0/8.4 buf0buf.cc / buf0lru.cc / buf0flu.cc:
//  * a free list of unused frames;
//  * the LRU list with the midpoint insertion strategy: a page read from disk
//    enters at the head of the "old" sublist (buf_LRU_add_block(old=true));
//    a created page enters at the head (buf_page_create ->
//    buf_LRU_add_block(old=false)); the old sublist is kept at
//    innodb_old_blocks_pct of the list within BUF_LRU_OLD_TOLERANCE
//    (buf_LRU_old_adjust_len); a page is made young on access when
//    buf_page_peek_if_too_old() says so: never before the first eviction
//    (freed_page_clock == 0), an old page only when accessed at least
//    innodb_old_blocks_time ms after its first access, a young page when it
//    has fallen into the last quarter of the young sublist;
//  * the flush list of dirty pages ordered by oldest_modification (newest at
//    the head, oldest at the tail; buf_flush_insert_into_flush_list);
//  * a free frame is found as buf_LRU_get_free_block does: the free list,
//    else a clean unfixed page among the last BUF_LRU_SEARCH_SCAN_THRESHOLD
//    of the LRU, else (MySQL) buf_flush_single_page_from_LRU writes the
//    first dirty unfixed page from the tail and frees it, or (MariaDB
//    10.11, which has no single-page flush) the user thread waits for the
//    page cleaner's LRU flush (LruFlushMariaDb). A dirty page is never
//    evicted without being written;
//  * MariaDB 10.11: a user thread that takes a free frame and leaves fewer
//    than innodb_lru_scan_depth / 2 wakes the page cleaner, whose LRU flush
//    (buf_flush_LRU, io_capacity_max writes at most) runs at once here;
//  * neighbour flushing (buf_flush_try_neighbors): a page written by a
//    flush-list or LRU batch takes its dirty neighbours in its flush area
//    (min(read_ahead_area, frames / 16) pages, aligned) along, contiguous
//    ones (innodb_flush_neighbors=1) or all (2).
//
// One buffer-pool instance is modelled (see docs/flushing.md); the free-page
// target of the LRU batch is innodb_lru_scan_depth x instances.
//
// Every hot-path call (Fix, Create, MarkDirty, CommitMtr) is O(1) amortised
// and allocates nothing (except when a space's page table or the flush-order
// array must grow).
//
// A pool too small for one mini-transaction (every frame fixed by the
// current mtr when it needs another page) is not a state InnoDB allows; the
// model records it in status() (sticky) and leaves the page not resident,
// so every list stays consistent and nothing is written out of bounds. The
// figures of such a run mean nothing: callers check status() (cheaply, e.g.
// once per transaction) and stop.
// Not thread-safe.
#ifndef INNOSIM_MODEL_BUFFER_POOL_H_
#define INNOSIM_MODEL_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/fast/dirty_tail_run.h"
#include "model/fast/huge_pages.h"

namespace innosim {

class BufferPool {
 public:
  struct Options {
    // Frames: ServerSettings::BufferPoolPages(), the server's frame count for its
    // pool and page size. 0 is taken as 1;
    // above 2^31 - 1 the pool has 1 frame and status() is OutOfRange.
    uint64_t n_frames = 8192;
    // innodb_old_blocks_pct (5..95).
    uint32_t old_blocks_pct = 37;
    // innodb_old_blocks_time, ms.
    uint32_t old_blocks_time_ms = 1000;
    // MariaDB 10.11's LRU rules instead of MySQL's: LRU-flushed pages stay
    // on the LRU (clean) instead of being freed at write completion; no
    // single-page flush; the page cleaner is woken for free frames (above).
    bool mariadb = false;
    // innodb_flush_neighbors as the server applies it: 0, 1 (contiguous),
    // 2 (whole area). The caller passes 0 where the server skips
    // neighbours (MariaDB on non-rotational storage).
    uint32_t flush_neighbors = 0;
    // MariaDB: buf_pool.LRU_scan_depth (innodb_lru_scan_depth) and
    // innodb_io_capacity_max, for the LRU flush a user thread wakes.
    uint64_t lru_scan_depth = 1536;
    uint64_t io_capacity_max = 2000;
    // Keep PageWrites' tally (a picture's input). Off: PageWrites is 0 and a
    // write touches no per-page array (a cache miss per write on a table
    // far larger than the pool).
    bool count_page_writes = true;
    // The speed device model/fast/dirty_tail_run.h (no result depends on
    // it; tests switch it off to compare).
    bool dirty_tail_run = true;
  };

  // Status counters, named after InnoDB's.
  struct Stats {
    uint64_t reads = 0;                // Innodb_buffer_pool_reads
    uint64_t pages_written = 0;        // Innodb_pages_written (all writes)
    uint64_t lru_batch_written = 0;    // buffer_LRU_batch_flush_total_pages
    uint64_t single_page_written = 0;  // buffer_LRU_single_flush_num_scan-ish:
                                       // writes by user threads needing a frame
    uint64_t flush_list_written = 0;   // flush-list batch writes
    uint64_t evicted = 0;              // pages freed from the LRU
    uint64_t made_young = 0;           // Innodb_buffer_pool_pages_made_young
    uint64_t not_made_young = 0;       // Innodb_buffer_pool_pages_made_not_young
    uint64_t created = 0;              // buf_page_create without a read
    // Of the writes above, neighbours written along with a page
    // (MONITOR_FLUSH_NEIGHBOR_TOTAL_PAGE: count - 1 per try).
    uint64_t neighbors_written = 0;
    // Of lru_batch_written, the MariaDB LRU flushes a user thread woke the
    // page cleaner for (need_LRU_eviction), not its once-a-second pass.
    uint64_t lru_wakeup_written = 0;
    // FlushPages' writes (MySQL's Flush_observer).
    uint64_t observer_written = 0;
    // Dirty pages a flush released unwritten: MariaDB's freed pages, a
    // dropped space's (not a server counter).
    uint64_t freed_released = 0;
    // Of pages_written, the writes of pages created since their last
    // write (MariaDB: not doublewritten; see Frame::reinit).
    uint64_t reinit_written = 0;
  };

  explicit BufferPool(const Options& options);

  // --- Hot path ------------------------------------------------------------
  // buf_page_get: the page is fixed by the current mtr. A page not resident
  // is read (stats().reads++) into a free frame, entering the LRU at the
  // midpoint. `now_ms` is the simulated clock.
  void Fix(uint32_t space_id, uint32_t page_no, uint64_t now_ms) {
    const int32_t f = Lookup(space_id, page_no);
    // Until the first eviction no page is ever made young (see
    // PeekIfTooOld): a resident page is only marked fixed and accessed.
    if (f >= 0 && freed_page_clock_ == 0) {
      MarkAccessed(frames_[f], now_ms);
      return;
    }
    FixSlow(f, space_id, page_no, now_ms);
  }
  // MariaDB 10.11's buf_page_get_gen / buf_pool_t::page_fix without the
  // caller's buf_page_make_young_if_needed: fixed for the current mtr, not
  // marked accessed, not made young; a page not resident is read into the
  // old sublist and stays unaccessed until an access marks it.
  void FixNoAccess(uint32_t space_id, uint32_t page_no, uint64_t now_ms);
  // buf_page_create: a freshly allocated page gets a frame without a read
  // and enters the LRU at the head. If already resident, it is just fixed.
  void Create(uint32_t space_id, uint32_t page_no, uint64_t now_ms);
  // The current mtr modified the page; `mtr_start_lsn` becomes its
  // oldest_modification if it was clean (buf_flush_note_modification). The
  // page is fixed (and read if needed) first.
  void MarkDirty(uint32_t space_id, uint32_t page_no, uint64_t mtr_start_lsn, uint64_t now_ms) {
    const int32_t f = Lookup(space_id, page_no);
    if (f < 0) {
      MarkDirtySlow(space_id, page_no, mtr_start_lsn, now_ms);
      return;
    }
    frames_[f].fix_mtr = mtr_seq_;
    NoteModification(f, mtr_start_lsn);
  }
  // The current mtr freed the page (mtr_t::free). MariaDB 10.11 marks a
  // resident page FREED and puts it on the flush list like any page the mtr
  // changed; a flush that reaches it writes nothing (buf_page_t::flush ->
  // buf_pool_t::release_freed_page): it leaves the flush list and the pool,
  // uncounted in Innodb_pages_written and in the batch's quota. A later
  // Create of the page makes it an ordinary page again. MySQL 8.4 keeps
  // the page as it is: written if dirty (nothing to do here).
  void Free(uint32_t space_id, uint32_t page_no, uint64_t mtr_start_lsn);
  // MariaDB 10.11: the current mtr (which writes no redo) changed a page of
  // the temporary tablespace (buf_page_t::set_temp_modified: its
  // oldest_modification is 2). The page is dirty but never on the flush
  // list: no flush-list batch and no final flush writes it, and
  // Innodb_buffer_pool_pages_dirty does not count it; a user thread's scan
  // for a clean page passes it (buf_LRU_free_page refuses it); an LRU flush
  // writes it, counting it in its quota and in Innodb_pages_written, and
  // frees it (buf_flush_LRU_list_batch; buf_page_write_complete evicts a
  // temporary page). The page is fixed (and read if needed) first.
  void MarkTempDirty(uint32_t space_id, uint32_t page_no, uint64_t now_ms);
  // A dropped tablespace: its dirty pages stay on the flush list (and in
  // Innodb_buffer_pool_pages_dirty) until a flush reaches them, which
  // releases them unwritten and uncounted, as it does a freed page (MariaDB
  // buf_do_flush_list_batch -> buf_flush_discard_page for a stopping space;
  // MySQL 8.0.23+ its stale pages, buf_page_free_stale). O(page table).
  void DropSpace(uint32_t space_id);
  // Writes each listed page of `space_id` that is dirty (a flush of chosen
  // pages: MySQL's Flush_observer). Returns pages written.
  uint64_t FlushPages(uint32_t space_id, const std::vector<uint32_t>& pages);
  // A hint (no effect on any result): the page will be fixed soon. Step 0
  // starts loading its entry in the page table, step 1 (later) its frame.
  void Prefetch(uint32_t space_id, uint32_t page_no, int step) const {
    const std::vector<int32_t>* map = FrameMap(space_id);
    if (map == nullptr || page_no >= map->size()) return;
    if (step == 0) {
      __builtin_prefetch(map->data() + page_no);
    } else if (const int32_t f = (*map)[page_no]; f >= 0) {
      const char* fr = reinterpret_cast<const char*>(&frames_[f]);
      __builtin_prefetch(fr);
      __builtin_prefetch(fr + sizeof(Frame) - 1);
    }
  }
  // The current mtr committed: its pages are unfixed.
  void CommitMtr() { ++mtr_seq_; }

  // --- Page cleaner --------------------------------------------------------
  // oldest_modification of the flush-list tail, or 0 when no page is dirty
  // (buf_pool_get_oldest_modification_approx).
  uint64_t OldestModification() const {
    return flush_tail_ < 0 ? 0 : frames_[flush_tail_].oldest_modification;
  }
  // oldest_modification of the flush-list head (the most recently dirtied
  // page), or 0.
  uint64_t NewestModification() const {
    return flush_head_ < 0 ? 0 : frames_[flush_head_].oldest_modification;
  }
  // buf_flush_do_batch(BUF_FLUSH_LIST, max_pages, lsn_limit): writes up to
  // `max_pages` pages from the flush-list tail whose oldest_modification is
  // below `lsn_limit`. Returns pages written.
  uint64_t FlushListBatch(uint64_t max_pages, uint64_t lsn_limit);
  // Pages from the flush-list tail with oldest_modification <= target_lsn,
  // counting at most `max` (the scan in set_flush_target_by_lsn).
  uint64_t CountFlushListUpTo(uint64_t target_lsn, uint64_t max) const;
  // buf_flush_LRU_list_batch: from the LRU tail, scanning at most
  // `scan_depth` pages while the free list is shorter than `free_target` and
  // the LRU longer than BUF_LRU_MIN_LEN: clean pages are freed, dirty ones
  // written and freed. Returns pages written.
  uint64_t LruBatch(uint64_t scan_depth, uint64_t free_target);
  // MariaDB buf_flush_LRU(max_n): buf_flush_LRU_list_batch from the LRU
  // tail while the LRU is longer than min(frames/20 - 1, BUF_LRU_MIN_LEN)
  // and the free list shorter than innodb_lru_scan_depth: clean pages are
  // freed, dirty ones written (at most `max_flush`, neighbours counted;
  // neighbours only once the free list is at half its target) and left on
  // the LRU, clean. When the quota ran out a second pass with no quota
  // frees the clean pages. Returns pages written.
  uint64_t LruFlushMariaDb(uint64_t max_flush);
  // MariaDB buf_pool_t::need_LRU_eviction: the LRU longer than
  // BUF_LRU_MIN_LEN and fewer than innodb_lru_scan_depth / 2 free frames.
  bool NeedLruEviction() const;
  // Whether LruBatch(scan_depth, free_target) would scan nothing (its loop's
  // entry condition fails): the free list is long enough, the LRU list too
  // short, or no depth. Such a batch changes no state.
  bool LruBatchIsNoOp(uint64_t scan_depth, uint64_t free_target) const;
  // The neighbour-flush area: min(buf_pool.read_ahead_area, frames / 16).
  uint32_t flush_area() const { return flush_area_; }

  // --- Observers -----------------------------------------------------------
  uint64_t n_frames() const { return frames_.size(); }
  // How often the page was written so far (for pictures of the pages
  // written, `run --page-map --shade writes`; not a server counter); 0
  // unless Options::count_page_writes.
  uint32_t PageWrites(uint32_t space_id, uint32_t page_no) const {
    for (const SpacePages& s : spaces_) {
      if (s.space_id == space_id) return page_no < s.writes.size() ? s.writes[page_no] : 0;
    }
    return 0;
  }
  // Pages of one tablespace written so far (counted whether or not
  // Options::count_page_writes keeps PageWrites' tally): how
  // Innodb_pages_written divides between the table, the undo logs and the
  // statistics tables.
  uint64_t PagesWrittenOf(uint32_t space_id) const {
    for (const SpacePages& s : spaces_) {
      if (s.space_id == space_id) return s.written;
    }
    return 0;
  }
  // A page type whose reads and writes are counted apart, as INNODB_METRICS
  // buffer_page_read_<type> / buffer_page_written_<type> count them
  // (buf_page_monitor, by the page's FIL_PAGE_TYPE): pages [first_page,
  // end_page) of `space_id` are of `type`. The pool does not know page
  // types; the engine names the ranges it lays out (the rollback segment
  // headers, the undo log pages). Set before the first page event; a page
  // counts in the first range that holds it.
  enum class PageType { kSystemPage, kUndoLog, kCount };
  void CountPagesAs(PageType type, uint32_t space_id, uint32_t first_page, uint32_t end_page) {
    typed_ranges_.push_back({space_id, first_page, end_page, type});
  }
  // Reads and writes of pages of `type` so far (parts of stats().reads and
  // stats().pages_written).
  uint64_t ReadsOf(PageType type) const { return reads_of_[static_cast<size_t>(type)]; }
  uint64_t WritesOf(PageType type) const { return writes_of_[static_cast<size_t>(type)]; }
  uint64_t dirty_pages() const { return flush_len_; }
  // Dirty pages of one tablespace (a walk of the flush list).
  uint64_t DirtyPagesOf(uint32_t space_id) const;
  uint64_t lru_len() const { return lru_len_; }
  uint64_t lru_old_len() const { return lru_old_len_; }
  uint64_t free_len() const { return free_len_; }
  // buf_get_modified_ratio_pct: 100 * dirty / (1 + LRU + free).
  double ModifiedRatioPct() const {
    return 100.0 * static_cast<double>(flush_len_) /
           static_cast<double>(1 + lru_len_ + free_len_);
  }
  const Stats& stats() const { return stats_; }
  // OK, or why the pool could not do what it was asked (sticky: the first
  // failure). ResourceExhausted: no free frame for a page because every
  // frame was fixed by the current mtr. OutOfRange: more frames asked for
  // than the model indexes (2^31 - 1).
  const absl::Status& status() const { return status_; }
  bool IsResident(uint32_t space_id, uint32_t page_no) const { return Lookup(space_id, page_no) >= 0; }
  bool IsDirty(uint32_t space_id, uint32_t page_no) const;
  bool IsOld(uint32_t space_id, uint32_t page_no) const;
  // Position from the LRU head (0 = most recently made young), or -1.
  int64_t LruPosition(uint32_t space_id, uint32_t page_no) const;
  // Page numbers of `space_id` on the flush list, tail (oldest) first.
  std::vector<uint64_t> FlushListOldestFirst() const;
  // Checks every invariant: "" when all hold, else what is wrong. The LRU
  // list's links both ways, its length, the old flags (old exactly from
  // LRU_old to the tail) and the old sublist's length within
  // BUF_LRU_OLD_TOLERANCE of innodb_old_blocks_pct (none under
  // BUF_LRU_OLD_MIN_LEN); the free list (clean frames not in use); the flush
  // list's links both ways, holding exactly the dirty frames, ordered by
  // oldest_modification (newest at the head: the model adds each page at its
  // first modification with the current LSN, so the order is exact, not
  // within log_buffer_flush_order_lag as in MySQL 8.0); the flush-order
  // array against it; the page table against the frames; the counters.
  // O(frames + page table); for tests, never per row.
  std::string Verify() const;

  // Writes every dirty page (the shutdown sweep); returns pages written.
  uint64_t FlushAllDirty();

 private:
  // tests/verify_test_peer.h: breaks invariants on purpose, to see Verify
  // catch them.
  friend struct VerifyTestPeer;

  struct Frame {
    uint32_t space_id = 0;
    uint32_t page_no = 0;
    int32_t lru_next = -1;  // toward the tail (old end)
    int32_t fl_prev = -1;   // toward the head (newest)
    int32_t fl_next = -1;   // toward the tail (oldest)
    uint64_t fl_seq = 0;    // its place in flush_order_ while dirty
    uint64_t oldest_modification = 0;  // 0 = clean
    uint64_t fix_mtr = 0;              // == mtr_seq_ while fixed
    uint64_t access_time = 0;          // simulated ms + 1; 0 = never
    uint32_t freed_page_clock = 0;
    bool old = false;
    bool in_use = false;
    bool freed = false;  // released unwritten by a flush: MariaDB's FREED
                         // state (Free), a dropped space's page (DropSpace)
    // Created (buf_page_create) since its last write: MariaDB's REINIT
    // state, which buf_page_t::flush writes past the doublewrite buffer
    // (the redo holds the whole page from its initialisation on).
    bool reinit = false;
    // A temporary-tablespace page with unwritten changes (MarkTempDirty):
    // dirty, off the flush list, oldest_modification 0 here.
    bool temp = false;
  };
  struct TypedRange {
    uint32_t space_id = 0;
    uint32_t first_page = 0;
    uint32_t end_page = 0;
    PageType type = PageType::kSystemPage;
  };
  // The tally of `counts` (reads_of_ or writes_of_) for the page's type, if
  // it has one.
  void CountTyped(uint64_t* counts, uint32_t space_id, uint32_t page_no) {
    for (const TypedRange& r : typed_ranges_) {
      if (r.space_id == space_id && page_no >= r.first_page && page_no < r.end_page) {
        ++counts[static_cast<size_t>(r.type)];
        return;
      }
    }
  }
  // A read: stats_.reads and its page type's tally.
  void CountRead(uint32_t space_id, uint32_t page_no) {
    ++stats_.reads;
    CountTyped(reads_of_, space_id, page_no);
  }
  struct SpacePages {
    uint32_t space_id = 0;
    std::vector<int32_t> frame_of_page;  // -1 = not resident
    std::vector<uint32_t> writes;        // page writes so far, by page number
    uint64_t written = 0;                // page writes so far, all pages
  };

  // The page table of a space, or nullptr. A load touches two or three
  // spaces (the table's, the undo tablespace): a short scan, inline.
  const std::vector<int32_t>* FrameMap(uint32_t space_id) const {
    for (const SpacePages& s : spaces_) {
      if (s.space_id == space_id) return &s.frame_of_page;
    }
    return nullptr;
  }
  // The frame holding the page, or -1.
  int32_t Lookup(uint32_t space_id, uint32_t page_no) const {
    const std::vector<int32_t>* map = FrameMap(space_id);
    return map != nullptr && page_no < map->size() ? (*map)[page_no] : -1;
  }
  int32_t& Slot(uint32_t space_id, uint32_t page_no);
  // Fix of a page not resident (f < 0), or of a resident one once pages
  // have been evicted (the LRU may move it).
  void FixSlow(int32_t f, uint32_t space_id, uint32_t page_no, uint64_t now_ms);
  // Fixed by the current mtr; buf_page_set_accessed on the first access.
  void MarkAccessed(Frame& fr, uint64_t now_ms) {
    fr.fix_mtr = mtr_seq_;
    if (fr.access_time == 0) fr.access_time = now_ms + 1;
  }
  // A free frame, or -1 (status_ set) when every resident page is fixed.
  int32_t GetFreeFrame(uint64_t now_ms);
  void Install(int32_t f, uint32_t space_id, uint32_t page_no, bool old, uint64_t now_ms);
  void Evict(int32_t f);
  // Writes the dirty page of frame `f` (true), or, for a freed page,
  // releases it unwritten (false; see Free).
  bool WritePage(int32_t f);
  // buf_flush_try_neighbors: writes the page of frame `f` and, with
  // neighbour flushing on, its dirty neighbours; at most n_to_flush -
  // n_flushed pages unless the page itself is still unwritten. `lru`: an
  // LRU batch (MySQL writes only old neighbours there). Frames written are
  // appended to `written` when it is not null. Returns pages written.
  uint64_t FlushTryNeighbors(int32_t f, uint64_t n_flushed, uint64_t n_to_flush, bool lru,
                             std::vector<int32_t>* written);
  bool NeighborFlushable(int32_t g, bool lru) const {
    return g >= 0 && frames_[g].oldest_modification != 0 && !Fixed(g) && (mariadb_ || !lru || frames_[g].old);
  }
  // One pass of buf_flush_LRU_list_batch (MariaDB).
  uint64_t LruListBatchMariaDb(uint64_t max_flush);
  bool Fixed(int32_t f) const { return frames_[f].fix_mtr == mtr_seq_; }
  void Touch(int32_t f, uint64_t now_ms);

  // LRU (buf0lru.cc).
  void LruAddBlock(int32_t f, bool old);
  void LruRemoveBlock(int32_t f);
  void LruOldAdjustLen();
  void LruOldInit();
  bool PeekIfYoung(const Frame& fr) const;
  bool PeekIfTooOld(const Frame& fr, uint64_t now_ms) const;

  // Flush list.
  void FlushListAddHead(int32_t f) {
    Frame& fr = frames_[f];
    fr.fl_prev = -1;
    fr.fl_next = flush_head_;
    if (flush_head_ >= 0) frames_[flush_head_].fl_prev = f;
    flush_head_ = f;
    if (flush_tail_ < 0) flush_tail_ = f;
    ++flush_len_;
    fr.fl_seq = flush_order_base_ + flush_order_.size();
    flush_order_.push_back({f, fr.oldest_modification});
  }
  void FlushListRemove(int32_t f);
  // buf_flush_note_modification -> buf_flush_insert_into_flush_list: a
  // clean page enters the flush list.
  void NoteModification(int32_t f, uint64_t mtr_start_lsn) {
    Frame& fr = frames_[f];
    if (fr.oldest_modification == 0) {
      fr.oldest_modification = mtr_start_lsn == 0 ? 1 : mtr_start_lsn;
      dirty_[f] = 1;
      FlushListAddHead(f);
    }
  }
  // MarkDirty of a page not resident: read it first (if a frame is free).
  void MarkDirtySlow(uint32_t space_id, uint32_t page_no, uint64_t mtr_start_lsn, uint64_t now_ms);
  // buf_LRU_free_from_common_LRU_list(scan_all=false)'s choice: the first
  // clean, unfixed page among the last kSearchScanThreshold of the LRU, or
  // -1; past the dirty tail run when the device is on.
  int32_t ScanTailForClean();

  // In huge pages (model/fast/huge_pages.h): a 4 GB pool's 262,144 frames
  // are 16 MB that the constructor touches at once, page by page.
  std::vector<Frame, HugeAllocator<Frame>> frames_;
  // Beside the frames, one entry per frame: what a user thread's LRU scan
  // for a clean page reads at each step (buf_LRU_free_from_common_LRU_list
  // walks from the tail past dirty pages, often dozens per eviction). A
  // 64-byte Frame per step would be a cache miss each; these two arrays
  // (5 bytes a frame) stay in the core's cache. lru_prev_[f] links toward
  // the head (young end), -1 at the head; dirty_[f] is
  // frames_[f].oldest_modification != 0 || frames_[f].temp (Verify checks
  // it).
  std::vector<int32_t> lru_prev_;
  std::vector<uint8_t> dirty_;
  // The dirty pages at the LRU tail the clean-page scan may skip
  // (model/fast/dirty_tail_run.h); marks in dirty_'s second bit.
  DirtyTailRun tail_run_;
  std::vector<SpacePages> spaces_;

  int32_t free_head_ = -1;  // singly linked through lru_next
  uint64_t free_len_ = 0;

  int32_t lru_head_ = -1, lru_tail_ = -1, lru_old_ = -1;
  uint64_t lru_len_ = 0, lru_old_len_ = 0;
  uint32_t lru_old_ratio_ = 378;
  uint32_t old_threshold_ms_ = 1000;
  uint32_t freed_page_clock_ = 0;

  int32_t flush_head_ = -1, flush_tail_ = -1;
  uint64_t flush_len_ = 0;
  // The flush list again, as an array in the order pages entered it (tail
  // first), with the pages since removed left as holes (frame -1): the
  // page cleaner counts thousands of pages from the tail every second, and
  // a walk along the list's links would be a cache miss per page.
  // flush_order_[i] is the page that entered with fl_seq
  // flush_order_base_ + i; holes before flush_order_tail_ are dropped in
  // batches.
  struct FlushOrderEntry {
    int32_t frame;  // -1: left the flush list
    uint64_t oldest_modification;
  };
  std::vector<FlushOrderEntry> flush_order_;
  uint64_t flush_order_base_ = 0;
  size_t flush_order_tail_ = 0;  // the first entry that is not a hole

  uint64_t mtr_seq_ = 1;
  bool mariadb_ = false;
  uint32_t flush_neighbors_ = 0;
  uint32_t flush_area_ = 1;
  uint64_t lru_scan_depth_ = 1536;
  bool count_page_writes_ = true;
  uint64_t io_capacity_max_ = 2000;
  // Reused by the MySQL LRU batch (neighbours to free); no per-row use.
  std::vector<int32_t> scratch_;
  Stats stats_;
  std::vector<TypedRange> typed_ranges_;
  uint64_t reads_of_[static_cast<size_t>(PageType::kCount)] = {};
  uint64_t writes_of_[static_cast<size_t>(PageType::kCount)] = {};
  absl::Status status_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_BUFFER_POOL_H_
