// VerifyTestPeer: test-only access to the model's private state, to break
// one invariant on purpose and check that Verify() reports it (a check that
// never fails proves nothing). One definition for the whole test binary:
// the classes befriend it by this name.
#ifndef INNOSIM_TESTS_VERIFY_TEST_PEER_H_
#define INNOSIM_TESTS_VERIFY_TEST_PEER_H_

#include <cstdint>

#include "model/buffer_pool.h"
#include "model/redo_log.h"

namespace innosim {

struct VerifyTestPeer {
  // The frame holding a resident page.
  static int32_t FrameOf(const BufferPool& p, uint32_t space_id, uint32_t page_no) {
    return p.Lookup(space_id, page_no);
  }
  // Frees a page without writing it, dirty or not (what Evict's callers
  // must never do to a dirty page).
  static void EvictUnwritten(BufferPool& p, uint32_t space_id, uint32_t page_no) {
    p.Evict(p.Lookup(space_id, page_no));
  }
  static void SetLruPrev(BufferPool& p, int32_t f, int32_t prev) { p.lru_prev_[f] = prev; }
  static void SetLruNext(BufferPool& p, int32_t f, int32_t next) { p.frames_[f].lru_next = next; }
  static int32_t LruHead(const BufferPool& p) { return p.lru_head_; }
  static int32_t LruTail(const BufferPool& p) { return p.lru_tail_; }
  static int32_t LruNext(const BufferPool& p, int32_t f) { return p.frames_[f].lru_next; }
  static void SetOld(BufferPool& p, int32_t f, bool old) { p.frames_[f].old = old; }
  static void SetOldestModification(BufferPool& p, int32_t f, uint64_t lsn) {
    p.frames_[f].oldest_modification = lsn;
    p.dirty_[f] = lsn != 0;
  }
  // Marks frame f a temporary-tablespace page (BufferPool::MarkTempDirty)
  // whatever list it is on.
  static void SetTemp(BufferPool& p, int32_t f) { p.frames_[f].temp = true; }
  static int32_t FlushHead(const BufferPool& p) { return p.flush_head_; }
  static int32_t FlushTail(const BufferPool& p) { return p.flush_tail_; }
  static void AddFreeLen(BufferPool& p, int64_t d) { p.free_len_ += static_cast<uint64_t>(d); }
  static void SetPageTable(BufferPool& p, uint32_t space_id, uint32_t page_no, int32_t f) {
    p.Slot(space_id, page_no) = f;
  }
  static BufferPool::Stats& MutableStats(BufferPool& p) { return p.stats_; }
  // The dirty tail run (model/fast/dirty_tail_run.h): its length, and a
  // page of it unmarked behind its back.
  static uint64_t TailRunLength(const BufferPool& p) { return p.tail_run_.length(); }
  static void UnmarkTail(BufferPool& p) { p.dirty_[p.lru_tail_] &= static_cast<uint8_t>(~DirtyTailRun::kInRun); }
  static void SetCheckpointLsn(RedoLog& log, uint64_t lsn) { log.last_checkpoint_lsn_ = lsn; }
};

}  // namespace innosim

#endif  // INNOSIM_TESTS_VERIFY_TEST_PEER_H_
