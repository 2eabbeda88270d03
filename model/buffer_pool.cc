#include "model/buffer_pool.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

// include/buf0lru.h (MySQL 8.0): BUF_LRU_OLD_RATIO_DIV, BUF_LRU_OLD_RATIO_MIN,
// BUF_LRU_OLD_TOLERANCE, BUF_LRU_NON_OLD_MIN_LEN, BUF_LRU_OLD_MIN_LEN.
constexpr uint64_t kOldRatioDiv = 1024;
constexpr uint64_t kOldRatioMin = 51;
constexpr uint64_t kOldTolerance = 20;
constexpr uint64_t kNonOldMinLen = 5;
constexpr uint64_t kOldMinLen = 512;
// buf/buf0lru.cc: BUF_LRU_SEARCH_SCAN_THRESHOLD (tail pages scanned for a
// clean victim before a single-page flush) and include/buf0lru.h
// BUF_LRU_MIN_LEN (the LRU batch never shrinks the LRU below this).
constexpr uint64_t kSearchScanThreshold = 100;
constexpr uint64_t kLruMinLen = 256;
// include/buf0buf.h: BUF_READ_AHEAD_PAGES (MariaDB buf_pool_t::
// READ_AHEAD_PAGES; MySQL BUF_READ_AHEAD_AREA's cap) and
// BUF_READ_AHEAD_PORTION: the read-ahead area is 64 pages, or the power of
// two at or above frames / 32 when that is smaller.
constexpr uint64_t kReadAheadPages = 64;
constexpr uint64_t kReadAheadPortion = 32;
// Not an InnoDB constant: the model indexes frames by int32_t (-1 = none),
// so a larger pool is refused rather than simulated.
constexpr uint64_t kMaxFrames = std::numeric_limits<int32_t>::max();

}  // namespace

BufferPool::BufferPool(const Options& options) {
  uint64_t n = std::max<uint64_t>(options.n_frames, 1);
  if (n > kMaxFrames) {
    status_ = absl::OutOfRangeError(
        absl::StrCat(options.n_frames, " frames is more than the model's ", kMaxFrames));
    n = 1;
  }
  frames_.resize(n);
  lru_prev_.assign(n, -1);
  dirty_.assign(n, 0);
  tail_run_ = DirtyTailRun(options.dirty_tail_run);
  // All frames start on the free list (buf_pool_init -> buf_chunk_init).
  for (uint64_t i = n; i-- > 0;) {
    frames_[i].lru_next = free_head_;
    free_head_ = static_cast<int32_t>(i);
  }
  free_len_ = n;
  // buf_LRU_old_ratio_update_instance: ratio = pct * DIV / 100, clamped.
  uint64_t ratio = uint64_t{options.old_blocks_pct} * kOldRatioDiv / 100;
  ratio = std::clamp<uint64_t>(ratio, kOldRatioMin, kOldRatioDiv);
  lru_old_ratio_ = static_cast<uint32_t>(ratio);
  old_threshold_ms_ = options.old_blocks_time_ms;
  mariadb_ = options.mariadb;
  flush_neighbors_ = std::min<uint32_t>(options.flush_neighbors, 2);
  lru_scan_depth_ = options.lru_scan_depth;
  count_page_writes_ = options.count_page_writes;
  io_capacity_max_ = std::max<uint64_t>(options.io_capacity_max, 1);
  // buf_pool_t::create (MariaDB) / buf_pool_init (MySQL): read_ahead_area;
  // buf_flush_check_neighbors / buf_flush_try_neighbors: the flush area is
  // min(read_ahead_area, curr_size / 16).
  const uint64_t portion = n / kReadAheadPortion;
  uint64_t area = 1;
  while (area < portion && area < kReadAheadPages) area *= 2;
  flush_area_ = static_cast<uint32_t>(std::max<uint64_t>(1, std::min(area, n / 16)));
  spaces_.reserve(8);
}

int32_t& BufferPool::Slot(uint32_t space_id, uint32_t page_no) {
  size_t i = 0;
  while (i < spaces_.size() && spaces_[i].space_id != space_id) ++i;
  if (i == spaces_.size()) {
    spaces_.push_back(SpacePages{space_id, {}, {}, 0});
    spaces_.back().frame_of_page.reserve(1024);
  }
  auto& v = spaces_[i].frame_of_page;
  if (page_no >= v.size()) {
    // Grows geometrically; amortised O(1).
    size_t want = std::max<size_t>(page_no + 1, v.size() * 2);
    v.resize(want, -1);
  }
  return v[page_no];
}

// ---------------------------------------------------------------------------
// LRU list (buf/buf0lru.cc)

void BufferPool::LruOldAdjustLen() {
  // buf_LRU_old_adjust_len.
  if (lru_old_ < 0) return;
  uint64_t old_len = lru_old_len_;
  const uint64_t new_len = std::min(lru_len_ * lru_old_ratio_ / kOldRatioDiv,
                                    lru_len_ - (kOldTolerance + kNonOldMinLen));
  for (;;) {
    const int32_t old = lru_old_;
    if (old_len + kOldTolerance < new_len) {
      lru_old_ = lru_prev_[old];
      old_len = ++lru_old_len_;
      frames_[lru_old_].old = true;
    } else if (old_len > new_len + kOldTolerance) {
      lru_old_ = frames_[old].lru_next;
      old_len = --lru_old_len_;
      frames_[old].old = false;
    } else {
      return;
    }
  }
}

void BufferPool::LruOldInit() {
  // buf_LRU_old_init: all blocks old, then adjust.
  for (int32_t f = lru_tail_; f >= 0; f = lru_prev_[f]) frames_[f].old = true;
  lru_old_ = lru_head_;
  lru_old_len_ = lru_len_;
  LruOldAdjustLen();
}

void BufferPool::LruAddBlock(int32_t f, bool old) {
  // buf_LRU_add_block_low.
  Frame& fr = frames_[f];
  if (!old || lru_len_ < kOldMinLen) {
    lru_prev_[f] = -1;
    fr.lru_next = lru_head_;
    if (lru_head_ >= 0) lru_prev_[lru_head_] = f;
    lru_head_ = f;
    if (lru_tail_ < 0) lru_tail_ = f;
    fr.freed_page_clock = freed_page_clock_ & ((1u << 31) - 1);
  } else {
    // A page inserted among the run's pages (the old sublist, whose head
    // LRU_old is at position lru_old_len_ from the tail, no longer than
    // the run) ends it: the run is the pages next to the tail.
    if (tail_run_.length() > 0 && lru_old_len_ <= tail_run_.length()) tail_run_.Clear(lru_tail_, lru_prev_, dirty_);
    // UT_LIST_INSERT(LRU, LRU_old, bpage): right after LRU_old.
    Frame& o = frames_[lru_old_];
    lru_prev_[f] = lru_old_;
    fr.lru_next = o.lru_next;
    if (o.lru_next >= 0) {
      lru_prev_[o.lru_next] = f;
    } else {
      lru_tail_ = f;
    }
    o.lru_next = f;
    ++lru_old_len_;
  }
  ++lru_len_;
  if (lru_len_ > kOldMinLen) {
    fr.old = old;
    LruOldAdjustLen();
  } else if (lru_len_ == kOldMinLen) {
    LruOldInit();
  } else {
    fr.old = lru_old_ >= 0;
  }
}

void BufferPool::LruRemoveBlock(int32_t f) {
  // buf_LRU_remove_block.
  Frame& fr = frames_[f];
  if (dirty_[f] & DirtyTailRun::kInRun) tail_run_.Leave(f, fr.lru_next, dirty_);
  if (f == lru_old_) {
    const int32_t prev = lru_prev_[f];
    lru_old_ = prev;
    if (prev >= 0) frames_[prev].old = true;
    ++lru_old_len_;
  }
  if (lru_prev_[f] >= 0) {
    frames_[lru_prev_[f]].lru_next = fr.lru_next;
  } else {
    lru_head_ = fr.lru_next;
  }
  if (fr.lru_next >= 0) {
    lru_prev_[fr.lru_next] = lru_prev_[f];
  } else {
    lru_tail_ = lru_prev_[f];
  }
  lru_prev_[f] = -1;
  fr.lru_next = -1;
  --lru_len_;
  if (lru_len_ < kOldMinLen) {
    if (lru_old_ >= 0 || lru_old_len_ != 0) {
      for (int32_t g = lru_head_; g >= 0; g = frames_[g].lru_next) frames_[g].old = false;
    }
    fr.old = false;
    lru_old_ = -1;
    lru_old_len_ = 0;
    return;
  }
  if (fr.old) --lru_old_len_;
  fr.old = false;
  LruOldAdjustLen();
}

bool BufferPool::PeekIfYoung(const Frame& fr) const {
  // buf_page_peek_if_young: the page is in the first quarter... of the young
  // sublist when fewer than curr_size * (DIV - ratio) / (DIV * 4) pages
  // were freed since it was made young.
  return (freed_page_clock_ & ((1u << 31) - 1)) <
         fr.freed_page_clock +
             frames_.size() * (kOldRatioDiv - lru_old_ratio_) / (kOldRatioDiv * 4);
}

bool BufferPool::PeekIfTooOld(const Frame& fr, uint64_t now_ms) const {
  // buf_page_peek_if_too_old.
  if (freed_page_clock_ == 0) return false;  // no eviction yet
  if (old_threshold_ms_ != 0 && fr.old) {
    return fr.access_time > 0 && (now_ms + 1) - fr.access_time >= old_threshold_ms_;
  }
  return !PeekIfYoung(fr);
}

void BufferPool::Touch(int32_t f, uint64_t now_ms) {
  Frame& fr = frames_[f];
  // buf_page_set_accessed (first access only), then
  // buf_page_make_young_if_needed (Buf_fetch::single_page).
  MarkAccessed(fr, now_ms);
  if (PeekIfTooOld(fr, now_ms)) {
    // buf_LRU_make_block_young.
    if (fr.old) ++stats_.made_young;
    LruRemoveBlock(f);
    LruAddBlock(f, false);
  } else if (fr.old && freed_page_clock_ != 0) {
    ++stats_.not_made_young;
  }
}

// ---------------------------------------------------------------------------
// Flush list (buf/buf0flu.cc)

void BufferPool::FlushListRemove(int32_t f) {
  Frame& fr = frames_[f];
  if (fr.fl_prev >= 0) {
    frames_[fr.fl_prev].fl_next = fr.fl_next;
  } else {
    flush_head_ = fr.fl_next;
  }
  if (fr.fl_next >= 0) {
    frames_[fr.fl_next].fl_prev = fr.fl_prev;
  } else {
    flush_tail_ = fr.fl_prev;
  }
  fr.fl_prev = fr.fl_next = -1;
  --flush_len_;
  flush_order_[fr.fl_seq - flush_order_base_].frame = -1;
  while (flush_order_tail_ < flush_order_.size() && flush_order_[flush_order_tail_].frame < 0) {
    ++flush_order_tail_;
  }
  // Drop the holes before the tail once they are half the array (amortised
  // O(1) per page; 1024 is a speed setting of the simulator, not InnoDB's).
  if (flush_order_tail_ >= 1024 && 2 * flush_order_tail_ >= flush_order_.size()) {
    flush_order_.erase(flush_order_.begin(), flush_order_.begin() + static_cast<ptrdiff_t>(flush_order_tail_));
    flush_order_base_ += flush_order_tail_;
    flush_order_tail_ = 0;
  }
}

bool BufferPool::WritePage(int32_t f) {
  // Only a dirty page is written: its callers take it from the flush list
  // or check oldest_modification, or it is a temporary page an LRU batch
  // met (Verify: the flush list holds exactly the dirty frames that are not
  // temporary).
  Frame& fr = frames_[f];
  // A page of the run turns clean on the list: the run ends there.
  if (dirty_[f] & DirtyTailRun::kInRun) tail_run_.Clear(lru_tail_, lru_prev_, dirty_);
  if (fr.temp) {
    fr.temp = false;
  } else {
    FlushListRemove(f);
  }
  fr.oldest_modification = 0;
  dirty_[f] = 0;
  if (fr.freed) {
    // buf_pool_t::release_freed_page: off the flush list and out of the
    // pool (buf_LRU_free_page), nothing written.
    fr.freed = false;
    ++stats_.freed_released;
    Evict(f);
    return false;
  }
  ++stats_.pages_written;
  CountTyped(writes_of_, fr.space_id, fr.page_no);
  if (fr.reinit) {
    fr.reinit = false;
    ++stats_.reinit_written;
  }
  for (SpacePages& sp : spaces_) {
    if (sp.space_id != fr.space_id) continue;
    ++sp.written;
    if (count_page_writes_) {
      if (fr.page_no >= sp.writes.size()) sp.writes.resize(std::max<size_t>(fr.page_no + 1, sp.writes.size() * 2), 0);
      ++sp.writes[fr.page_no];
    }
    break;
  }
  return true;
}

void BufferPool::Evict(int32_t f) {
  // buf_LRU_free_page -> buf_LRU_block_remove_hashed (freed_page_clock++)
  // -> the frame goes to the free list.
  // The page is clean: its callers write a dirty one first (Verify: no free
  // frame is dirty or on the flush list).
  Frame& fr = frames_[f];
  LruRemoveBlock(f);
  Slot(fr.space_id, fr.page_no) = -1;
  ++freed_page_clock_;
  ++stats_.evicted;
  fr.in_use = false;
  fr.access_time = 0;
  fr.lru_next = free_head_;
  free_head_ = f;
  ++free_len_;
}

bool BufferPool::NeedLruEviction() const {
  // buf_pool_t::need_LRU_eviction (try_LRU_scan aside: GetFreeFrame waits
  // for the cleaner itself when its scan found nothing).
  return lru_len_ > kLruMinLen && free_len_ < lru_scan_depth_ / 2;
}

int32_t BufferPool::GetFreeFrame(uint64_t /*now_ms*/) {
  // buf_LRU_get_free_block.
  for (;;) {
    if (free_head_ >= 0) {
      const int32_t f = free_head_;
      free_head_ = frames_[f].lru_next;
      frames_[f].lru_next = -1;
      --free_len_;
      // MariaDB (got_block): fewer than LRU_scan_depth / 2 free frames left
      // wakes the page cleaner (page_cleaner_wakeup(true)), which runs
      // buf_flush_LRU(innodb_io_capacity_max) without waiting for its
      // second. The model runs it here, between this thread's steps; the
      // frames the current mtr has fixed are skipped as latched.
      if (mariadb_ && NeedLruEviction()) stats_.lru_wakeup_written += LruFlushMariaDb(io_capacity_max_);
      return f;
    }
    // buf_LRU_scan_and_free_block(scan_all=false).
    int32_t victim = ScanTailForClean();
    if (victim >= 0) {
      Evict(victim);
      continue;
    }
    if (mariadb_) {
      // MariaDB 10.11 has no single-page flush: the thread sets
      // try_LRU_scan = false and waits for the page cleaner's LRU flush,
      // then scans the whole LRU for a clean page.
      stats_.lru_wakeup_written += LruFlushMariaDb(io_capacity_max_);
      if (free_head_ >= 0) continue;
      for (int32_t g = lru_tail_; g >= 0; g = lru_prev_[g]) {
        if (dirty_[g] == 0 && !Fixed(g)) {
          victim = g;
          break;
        }
      }
      if (victim >= 0) {
        Evict(victim);
        continue;
      }
    }
    // buf_flush_single_page_from_LRU: the first page from the tail that is
    // clean (freed) or dirty (written, then freed). Fixed pages are skipped.
    for (int32_t g = lru_tail_; g >= 0; g = lru_prev_[g]) {
      if (Fixed(g)) continue;
      // It leaves the list (Evict below): it leaves the run before its
      // write, which would otherwise end the run.
      if (dirty_[g] & DirtyTailRun::kInRun) tail_run_.Leave(g, frames_[g].lru_next, dirty_);
      if (dirty_[g] & 1) {
        WritePage(g);
        ++stats_.single_page_written;
      }
      victim = g;
      break;
    }
    // Every resident page fixed by the current mtr: the pool is too small
    // for one mini-transaction, which InnoDB does not allow either.
    if (victim < 0) {
      if (status_.ok()) {
        status_ = absl::ResourceExhaustedError(absl::StrCat(
            "a mini-transaction needs another page while all ", frames_.size(),
            frames_.size() == 1 ? " frame is" : " frames are", " fixed by it"));
      }
      return -1;
    }
    Evict(victim);
  }
}

int32_t BufferPool::ScanTailForClean() {
  uint64_t scanned = 0;
  int32_t g = lru_tail_;
  // The run's pages are dirty: the scan would pass them.
  if (tail_run_.length() > 0) {
    scanned = tail_run_.length();
    g = lru_prev_[tail_run_.edge()];
  }
  bool extend = tail_run_.on() && tail_run_.length() == scanned;
  for (; g >= 0 && scanned < kSearchScanThreshold; g = lru_prev_[g], ++scanned) {
    if (dirty_[g] == 0) {
      if (!Fixed(g)) return g;
      extend = false;  // a clean page, fixed: the run ends before it
    } else if (extend) {
      tail_run_.Extend(g, dirty_);
    }
  }
  return -1;
}

void BufferPool::Install(int32_t f, uint32_t space_id, uint32_t page_no, bool old,
                         uint64_t now_ms) {
  Frame& fr = frames_[f];
  fr.space_id = space_id;
  fr.page_no = page_no;
  fr.oldest_modification = 0;
  dirty_[f] = 0;
  fr.fl_prev = fr.fl_next = -1;
  fr.in_use = true;
  fr.freed = false;
  fr.reinit = false;
  fr.temp = false;
  fr.access_time = 0;
  Slot(space_id, page_no) = f;
  LruAddBlock(f, old);
  fr.fix_mtr = mtr_seq_;
  fr.access_time = now_ms + 1;  // buf_page_set_accessed on this first fix
}

void BufferPool::FixSlow(int32_t f, uint32_t space_id, uint32_t page_no, uint64_t now_ms) {
  if (f >= 0) {
    Touch(f, now_ms);
    return;
  }
  // buf_read_page -> buf_page_init_for_read -> buf_LRU_add_block(old=true).
  const int32_t g = GetFreeFrame(now_ms);
  if (g < 0) return;
  CountRead(space_id, page_no);
  Install(g, space_id, page_no, /*old=*/true, now_ms);
}

void BufferPool::FixNoAccess(uint32_t space_id, uint32_t page_no, uint64_t now_ms) {
  const int32_t f = Lookup(space_id, page_no);
  if (f >= 0) {
    frames_[f].fix_mtr = mtr_seq_;
    return;
  }
  const int32_t g = GetFreeFrame(now_ms);
  if (g < 0) return;
  CountRead(space_id, page_no);
  Install(g, space_id, page_no, /*old=*/true, now_ms);
  frames_[g].access_time = 0;  // buf_read_page alone sets no access time
}

void BufferPool::MarkDirtySlow(uint32_t space_id, uint32_t page_no, uint64_t mtr_start_lsn, uint64_t now_ms) {
  FixSlow(-1, space_id, page_no, now_ms);
  const int32_t f = Lookup(space_id, page_no);
  if (f < 0) return;  // no frame for it: status() says why
  NoteModification(f, mtr_start_lsn);
}

void BufferPool::MarkTempDirty(uint32_t space_id, uint32_t page_no, uint64_t now_ms) {
  int32_t f = Lookup(space_id, page_no);
  if (f < 0) {
    FixSlow(-1, space_id, page_no, now_ms);
    f = Lookup(space_id, page_no);
    if (f < 0) return;  // no frame for it: status() says why
  } else {
    frames_[f].fix_mtr = mtr_seq_;
  }
  if (dirty_[f] & 1) return;  // dirty already: on the flush list, or temporary
  frames_[f].temp = true;
  dirty_[f] |= 1;
}

uint64_t BufferPool::DirtyPagesOf(uint32_t space_id) const {
  uint64_t n = 0;
  for (int32_t f = flush_head_; f >= 0; f = frames_[f].fl_next) n += frames_[f].space_id == space_id;
  return n;
}

void BufferPool::Create(uint32_t space_id, uint32_t page_no, uint64_t now_ms) {
  const int32_t f = Lookup(space_id, page_no);
  if (f >= 0) {
    // buf_page_create of a freed page: an ordinary page again, and
    // reinitialised.
    frames_[f].freed = false;
    frames_[f].reinit = true;
    Touch(f, now_ms);
    return;
  }
  // buf_page_create -> buf_LRU_add_block(old=false).
  const int32_t g = GetFreeFrame(now_ms);
  if (g < 0) return;
  ++stats_.created;
  Install(g, space_id, page_no, /*old=*/false, now_ms);
  frames_[g].reinit = true;
}

void BufferPool::DropSpace(uint32_t space_id) {
  const std::vector<int32_t>* map = FrameMap(space_id);
  if (map == nullptr) return;
  // The dirty pages stay on the flush list until a flush reaches them and
  // releases them unwritten, as freed pages are; the clean ones age out of
  // the LRU.
  for (const int32_t f : *map) {
    if (f >= 0 && frames_[f].oldest_modification != 0) frames_[f].freed = true;
  }
}

uint64_t BufferPool::FlushPages(uint32_t space_id, const std::vector<uint32_t>& pages) {
  uint64_t n = 0;
  for (uint32_t p : pages) {
    const int32_t f = Lookup(space_id, p);
    if (f >= 0 && frames_[f].oldest_modification != 0 && WritePage(f)) ++n;
  }
  stats_.observer_written += n;
  return n;
}

void BufferPool::Free(uint32_t space_id, uint32_t page_no, uint64_t mtr_start_lsn) {
  if (!mariadb_) return;
  const int32_t f = Lookup(space_id, page_no);
  if (f < 0) return;  // not resident: nothing in the pool to release
  frames_[f].freed = true;
  NoteModification(f, mtr_start_lsn);
}

uint64_t BufferPool::FlushTryNeighbors(int32_t f, uint64_t n_flushed, uint64_t n_to_flush, bool lru,
                                       std::vector<int32_t>* written) {
  // Both servers: no neighbours while the LRU is shorter than
  // BUF_LRU_OLD_MIN_LEN ("little space"; MariaDB buf_do_flush_list_batch /
  // buf_flush_LRU_list_batch, MySQL buf_flush_try_neighbors).
  if (flush_neighbors_ == 0 || lru_len_ < kOldMinLen) {
    if (!WritePage(f)) return 0;
    if (written != nullptr) written->push_back(f);
    return 1;
  }
  const uint32_t page = frames_[f].page_no;
  const std::vector<int32_t>& map = *FrameMap(frames_[f].space_id);
  auto frame_of = [&](uint64_t p) { return p < map.size() ? map[p] : -1; };
  // buf_flush_check_neighbors: the aligned area around the page. (The
  // server also ends it at the tablespace's last page, which no page
  // beyond can be resident to matter; the last page itself is left out
  // there, a detail the model does not copy.)
  uint64_t low = page - page % flush_area_;
  uint64_t high = low + flush_area_;
  if (flush_neighbors_ == 1) {
    // Only the contiguous run of flushable pages around the page.
    uint64_t lo = page;
    while (lo > low && NeighborFlushable(frame_of(lo - 1), lru)) --lo;
    uint64_t hi = uint64_t{page} + 1;
    while (hi < high && NeighborFlushable(frame_of(hi), lru)) ++hi;
    low = lo;
    high = hi;
  }
  uint64_t count = 0;
  bool self_written = false;
  for (uint64_t p = low; p < high; ++p) {
    if (count + n_flushed >= n_to_flush) {
      // The batch's quota is used up: write the page itself if it is not
      // written yet, and stop.
      if (p > page) break;
      p = page;
    }
    const int32_t g = frame_of(p);
    if (g != f && !NeighborFlushable(g, lru)) continue;
    const bool page_written = WritePage(g);
    if (g == f) self_written = page_written;
    if (!page_written) continue;
    ++count;
    if (written != nullptr) written->push_back(g);
  }
  stats_.neighbors_written += count - (self_written ? 1 : 0);
  return count;
}

uint64_t BufferPool::FlushListBatch(uint64_t max_pages, uint64_t lsn_limit) {
  // buf_flush_flush_list_batch (MySQL) / buf_do_flush_list_batch (MariaDB):
  // from the tail while count < max_n and oldest_modification < lsn_limit;
  // each page with its neighbours, which count toward max_n.
  uint64_t count = 0;
  while (count < max_pages && flush_tail_ >= 0 &&
         frames_[flush_tail_].oldest_modification < lsn_limit) {
    count += FlushTryNeighbors(flush_tail_, count, max_pages, /*lru=*/false, nullptr);
  }
  stats_.flush_list_written += count;
  return count;
}

uint64_t BufferPool::LruListBatchMariaDb(uint64_t max_flush) {
  // [Ma] buf_flush_LRU_list_batch. The LRU floor is min(usable / 20 - 1,
  // BUF_LRU_MIN_LEN), the free target buf_pool.LRU_scan_depth.
  const uint64_t n = frames_.size();
  const uint64_t min_len = std::min<uint64_t>(n / 20 > 0 ? n / 20 - 1 : 0, kLruMinLen);
  const uint64_t free_limit = lru_scan_depth_;
  uint64_t flushed = 0;
  int32_t f = lru_tail_;
  while (f >= 0 && lru_len_ > min_len && free_len_ < free_limit) {
    int32_t prev = lru_prev_[f];
    if (!Fixed(f)) {
      if (frames_[f].temp) {
        // A temporary page: written alone and freed at its write's
        // completion (buf_page_write_complete), within the quota.
        if (flushed >= max_flush) break;
        WritePage(f);
        Evict(f);
        ++flushed;
      } else if (frames_[f].oldest_modification == 0) {
        Evict(f);
      } else {
        if (flushed >= max_flush) break;
        // Neighbours only once the free list is at half its target
        // ("Skip neighbourhood flush from LRU list if we haven't yet
        // reached half of the free page target"). The pages written stay
        // on the LRU, clean: buf_page_write_complete frees only pages of
        // the temporary tablespace.
        if (free_len_ * 2 >= free_limit) {
          flushed += FlushTryNeighbors(f, flushed, max_flush, /*lru=*/true, nullptr);
        } else if (WritePage(f)) {
          ++flushed;
        }
        // A freed page released (this one or a neighbour) left the pool:
        // the scan goes on from the tail if it was the next one.
        if (prev >= 0 && !frames_[prev].in_use) prev = lru_tail_;
      }
    }
    f = prev;
  }
  stats_.lru_batch_written += flushed;
  return flushed;
}

uint64_t BufferPool::LruFlushMariaDb(uint64_t max_flush) {
  // [Ma] buf_flush_LRU: "If we have exhausted flush quota, it is likely we
  // exited before generating enough free pages. Call once more with 0
  // flush to generate free pages immediately as required."
  const uint64_t pages = LruListBatchMariaDb(max_flush);
  if (pages >= max_flush) LruListBatchMariaDb(0);
  return pages;
}

uint64_t BufferPool::CountFlushListUpTo(uint64_t target_lsn, uint64_t max) const {
  // The walk from the tail along the links, over the array instead.
  uint64_t n = 0;
  for (size_t i = flush_order_tail_; i < flush_order_.size() && n < max; ++i) {
    const FlushOrderEntry& e = flush_order_[i];
    if (e.frame < 0) continue;
    if (e.oldest_modification > target_lsn) break;
    ++n;
  }
  return n;
}

bool BufferPool::LruBatchIsNoOp(uint64_t scan_depth, uint64_t free_target) const {
  // The negation of LruBatch's loop condition on its first step.
  return !(lru_tail_ >= 0 && scan_depth > 0 && free_len_ < free_target && lru_len_ > kLruMinLen);
}

uint64_t BufferPool::LruBatch(uint64_t scan_depth, uint64_t free_target) {
  // buf_flush_LRU_list -> buf_flush_LRU_list_batch.
  uint64_t written = 0, evicted = 0, scanned = 0;
  int32_t f = lru_tail_;
  while (f >= 0 && written + evicted < scan_depth && free_len_ < free_target &&
         lru_len_ > kLruMinLen) {
    int32_t prev = lru_prev_[f];
    if (!Fixed(f)) {
      if (dirty_[f] & 1) {
        // Written with BUF_FLUSH_LRU (buf_flush_page_and_try_neighbors,
        // old neighbours only); every page so written is freed at I/O
        // completion (buf_page_io_complete: BUF_FLUSH_LRU always evicts).
        scratch_.clear();
        written += FlushTryNeighbors(f, written, scan_depth, /*lru=*/true, &scratch_);
        for (int32_t g : scratch_) Evict(g);
        // A neighbour freed may have been the next page of the scan: go
        // on from the tail, whose pages were just freed or are fixed.
        if (prev >= 0 && !frames_[prev].in_use) prev = lru_tail_;
      } else {
        ++evicted;
        Evict(f);
      }
    }
    ++scanned;
    f = prev;
  }
  stats_.lru_batch_written += written;
  return written;
}

uint64_t BufferPool::FlushAllDirty() {
  uint64_t n = 0;
  while (flush_tail_ >= 0) {
    if (WritePage(flush_tail_)) ++n;
  }
  stats_.flush_list_written += n;
  return n;
}

bool BufferPool::IsDirty(uint32_t space_id, uint32_t page_no) const {
  const int32_t f = Lookup(space_id, page_no);
  return f >= 0 && frames_[f].oldest_modification != 0;
}

bool BufferPool::IsOld(uint32_t space_id, uint32_t page_no) const {
  const int32_t f = Lookup(space_id, page_no);
  return f >= 0 && frames_[f].old;
}

int64_t BufferPool::LruPosition(uint32_t space_id, uint32_t page_no) const {
  const int32_t target = Lookup(space_id, page_no);
  if (target < 0) return -1;
  int64_t pos = 0;
  for (int32_t f = lru_head_; f >= 0; f = frames_[f].lru_next, ++pos) {
    if (f == target) return pos;
  }
  return -1;
}

std::vector<uint64_t> BufferPool::FlushListOldestFirst() const {
  std::vector<uint64_t> out;
  for (int32_t f = flush_tail_; f >= 0; f = frames_[f].fl_prev) out.push_back(frames_[f].page_no);
  return out;
}

std::string BufferPool::Verify() const {
  // Every walk is bounded by the number of frames, so that a list turned
  // into a cycle is reported instead of walked forever.
  const uint64_t n_frames = frames_.size();
  // LRU links, length and the old sublist.
  uint64_t n = 0, old = 0;
  int32_t prev = -1;
  bool seen_old_boundary = false;
  for (int32_t f = lru_head_; f >= 0; f = frames_[f].lru_next) {
    if (n == n_frames || static_cast<uint64_t>(f) >= n_frames) return absl::StrCat("LRU list: a cycle or a bad link at frame ", f);
    const Frame& fr = frames_[f];
    if (!fr.in_use) return absl::StrCat("LRU list: frame ", f, " is not in use");
    if (lru_prev_[f] != prev) return absl::StrCat("LRU list: frame ", f, " links back to ", lru_prev_[f], ", not ", prev);
    if (f == lru_old_) seen_old_boundary = true;
    if (fr.old) {
      ++old;
      if (!seen_old_boundary) return absl::StrCat("LRU list: old frame ", f, " before LRU_old");
    } else if (seen_old_boundary) {
      return absl::StrCat("LRU list: young frame ", f, " after LRU_old");
    }
    if (Lookup(fr.space_id, fr.page_no) != f) {
      return absl::StrCat("page table: page ", fr.space_id, ":", fr.page_no, " of frame ", f, " maps to frame ",
                          Lookup(fr.space_id, fr.page_no));
    }
    prev = f;
    ++n;
  }
  if (prev != lru_tail_) return absl::StrCat("LRU list: ends at frame ", prev, ", the tail is ", lru_tail_);
  if (lru_len_ >= kOldMinLen && !seen_old_boundary) {
    return absl::StrCat("LRU list: LRU_old (frame ", lru_old_, ") is not on the list");
  }
  if (n != lru_len_) return absl::StrCat("LRU list: ", n, " frames, counted ", lru_len_);
  if (old != lru_old_len_) return absl::StrCat("LRU list: ", old, " old frames, counted ", lru_old_len_);
  if (lru_len_ >= kOldMinLen) {
    const uint64_t want = std::min(lru_len_ * lru_old_ratio_ / kOldRatioDiv,
                                   lru_len_ - (kOldTolerance + kNonOldMinLen));
    if (lru_old_len_ + kOldTolerance < want || lru_old_len_ > want + kOldTolerance) {
      return absl::StrCat("LRU list: ", lru_old_len_, " old of ", lru_len_, ", want ", want, " +- ", kOldTolerance);
    }
  } else if (lru_old_ >= 0 || lru_old_len_ != 0) {
    return absl::StrCat("LRU list: an old sublist in a list of ", lru_len_, " frames (under ", kOldMinLen, ")");
  }
  // Free list: frames not in use and clean (a dirty page is never freed
  // without being written).
  uint64_t nf = 0;
  for (int32_t f = free_head_; f >= 0; f = frames_[f].lru_next) {
    if (nf == n_frames || static_cast<uint64_t>(f) >= n_frames) return absl::StrCat("free list: a cycle or a bad link at frame ", f);
    if (frames_[f].in_use) return absl::StrCat("free list: frame ", f, " is in use");
    if (frames_[f].oldest_modification != 0) return absl::StrCat("free list: frame ", f, " is dirty");
    ++nf;
  }
  if (nf != free_len_) return absl::StrCat("free list: ", nf, " frames, counted ", free_len_);
  if (nf + n != n_frames) return absl::StrCat(nf, " free + ", n, " LRU frames of ", n_frames);
  // Flush list: dirty frames in use, ordered by oldest_modification, newest
  // at the head.
  uint64_t nd = 0;
  prev = -1;
  uint64_t last = UINT64_MAX;
  for (int32_t f = flush_head_; f >= 0; f = frames_[f].fl_next) {
    if (nd == n_frames || static_cast<uint64_t>(f) >= n_frames) return absl::StrCat("flush list: a cycle or a bad link at frame ", f);
    const Frame& fr = frames_[f];
    if (fr.fl_prev != prev) return absl::StrCat("flush list: frame ", f, " links back to ", fr.fl_prev, ", not ", prev);
    if (fr.oldest_modification == 0) return absl::StrCat("flush list: frame ", f, " is clean");
    if (!fr.in_use) return absl::StrCat("flush list: frame ", f, " is not in use");
    if (fr.oldest_modification > last) {
      return absl::StrCat("flush list: frame ", f, " (oldest_modification ", fr.oldest_modification,
                          ") after one of ", last);
    }
    last = fr.oldest_modification;
    prev = f;
    ++nd;
  }
  if (prev != flush_tail_) return absl::StrCat("flush list: ends at frame ", prev, ", the tail is ", flush_tail_);
  if (nd != flush_len_) return absl::StrCat("flush list: ", nd, " frames, counted ", flush_len_);
  // The array holds the same pages in the same order, tail first.
  int32_t at = flush_tail_;
  for (size_t i = flush_order_tail_; i < flush_order_.size(); ++i) {
    const FlushOrderEntry& e = flush_order_[i];
    if (e.frame < 0) continue;
    if (at < 0 || e.frame != at || frames_[at].fl_seq != flush_order_base_ + i ||
        e.oldest_modification != frames_[at].oldest_modification) {
      return absl::StrCat("flush order array: entry ", flush_order_base_ + i, " (frame ", e.frame,
                          ") is not the flush list's frame ", at);
    }
    at = frames_[at].fl_prev;
  }
  if (at != -1) return absl::StrCat("flush order array: misses frame ", at);
  if (flush_order_tail_ > flush_order_.size()) return "flush order array: its tail is past its end";
  for (size_t i = 0; i < flush_order_tail_; ++i) {
    if (flush_order_[i].frame >= 0) return absl::StrCat("flush order array: entry ", flush_order_base_ + i, " before the tail");
  }
  // The page table maps exactly the resident pages.
  uint64_t mapped = 0;
  for (const SpacePages& sp : spaces_) {
    for (size_t p = 0; p < sp.frame_of_page.size(); ++p) {
      const int32_t f = sp.frame_of_page[p];
      if (f < 0) continue;
      if (static_cast<uint64_t>(f) >= n_frames || !frames_[f].in_use || frames_[f].space_id != sp.space_id ||
          frames_[f].page_no != p) {
        return absl::StrCat("page table: page ", sp.space_id, ":", p, " maps to frame ", f, ", which does not hold it");
      }
      ++mapped;
    }
  }
  if (mapped != lru_len_) return absl::StrCat("page table: ", mapped, " pages mapped, ", lru_len_, " on the LRU list");
  // Frames are fixed by the current mtr at most.
  for (uint64_t f = 0; f < n_frames; ++f) {
    if (frames_[f].fix_mtr > mtr_seq_) return absl::StrCat("frame ", f, " fixed by a future mtr");
  }
  // The counters add up: every installed page was read or created and is
  // resident or evicted; every write has one origin.
  if (stats_.reads + stats_.created != stats_.evicted + lru_len_) {
    return absl::StrCat(stats_.reads, " reads + ", stats_.created, " created != ", stats_.evicted, " evicted + ", lru_len_,
                        " resident");
  }
  if (stats_.pages_written != stats_.lru_batch_written + stats_.single_page_written + stats_.flush_list_written +
                                  stats_.observer_written) {
    return absl::StrCat(stats_.pages_written, " pages written != ", stats_.lru_batch_written, " LRU batch + ",
                        stats_.single_page_written, " single page + ", stats_.flush_list_written, " flush list + ",
                        stats_.observer_written, " chosen pages");
  }
  uint64_t dirty = 0;
  for (size_t f = 0; f < frames_.size(); ++f) {
    const Frame& fr = frames_[f];
    dirty += (fr.in_use && fr.oldest_modification != 0);
    if (fr.temp && (fr.oldest_modification != 0 || !fr.in_use)) {
      return absl::StrCat("frame ", f, ": a temporary page on the flush list or free");
    }
    if (((dirty_[f] & 1) != 0) != (fr.oldest_modification != 0 || fr.temp) ||
        (dirty_[f] != 0 && (dirty_[f] & 1) == 0)) {
      return absl::StrCat("frame ", f, ": the scan's dirty flag ", int{dirty_[f]}, " disagrees with oldest_modification ",
                          fr.oldest_modification);
    }
  }
  if (dirty != flush_len_) return absl::StrCat(dirty, " dirty frames, ", flush_len_, " on the flush list");
  // The dirty tail run: exactly the first length() pages from the tail,
  // every one dirty, the last its edge.
  uint64_t marked = 0;
  for (size_t f = 0; f < frames_.size(); ++f) marked += (dirty_[f] & DirtyTailRun::kInRun) != 0;
  if (marked != tail_run_.length()) return absl::StrCat(marked, " pages marked in the dirty tail run of ", tail_run_.length());
  int32_t g = lru_tail_;
  for (uint64_t i = 0; i < tail_run_.length(); ++i, g = lru_prev_[g]) {
    if (g < 0 || (dirty_[g] & DirtyTailRun::kInRun) == 0 || (dirty_[g] & 1) == 0) {
      return absl::StrCat("dirty tail run: page ", i + 1, " from the tail is not a dirty page of the run");
    }
    if (i + 1 == tail_run_.length() && g != tail_run_.edge()) return "dirty tail run: its edge is not its last page";
  }
  return "";
}

}  // namespace innosim
