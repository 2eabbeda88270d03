// PostgreSQL's shared buffers as one backend's inserts use them: NBuffers
// frames (storage/buffer/buf_init.c InitBufferPool: every buffer on the
// freelist at start, in buffer order), the buffer table (block -> buffer),
// pins and usage counts (bufmgr.c PinBuffer: +1 up to BM_MAX_USAGE_COUNT 5
// on a backend's first pin; a newly filled buffer starts at 1, BufferAlloc),
// and the replacement of freelist.c StrategyGetBuffer: the freelist first,
// then the clock sweep (ClockSweepTick), which decrements each unpinned
// buffer's usage count and takes the first at 0. A dirty victim is written
// by the backend itself (BufferAlloc -> FlushBuffer). No ring buffer: an
// INSERT runs without a BufferAccessStrategy.
//
//   BufferManager b(kPostgresql15, nbuffers);
//   const int heap = b.AddRelation();      // the same ids as the Wal's
//   b.ReadBuffer(heap, 7);                 // ReadBufferExtended: hit or read
//   b.ExtendBuffer(heap, 8);               // a new zeroed block: no read
//   b.MarkDirty(heap, 8);                  // MarkBufferDirty
//   b.UnpinAll();                          // the operation's pins released
//
// The checkpointer (checkpointer.h) and the background writer (bgwriter.h)
// write buffers through SyncOneBuffer / FlushFor, which count each write by
// writer. Counters carry the server's names (pg_statio_*, pg_stat_bgwriter,
// pg_stat_io). Nothing is allocated per access: the buffer table is an array
// per relation indexed by block, grown as the relation grows.
//
// Pure computation. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_BUFFER_MANAGER_H_
#define INNOSIM_MODEL_POSTGRES_BUFFER_MANAGER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/postgres/profile.h"

namespace innosim::postgres {

// buf_internals.h BM_MAX_USAGE_COUNT.
inline constexpr int kBmMaxUsageCount = 5;

// pg_statio_user_tables / pg_statio_user_indexes of one relation:
// blks_read = blocks fetched (pgstat_count_buffer_read) less hits
// (pgstat_count_buffer_hit).
struct RelIoCounters {
  uint64_t blks_read = 0;
  uint64_t blks_hit = 0;
};

// Who wrote a buffer.
enum class Writer : uint8_t { kBackend, kCheckpointer, kBgWriter };

// Shared-buffer writes and reads by who did them (pg_stat_bgwriter,
// pg_stat_checkpointer, pg_stat_io's client backend rows).
struct BufferCounters {
  uint64_t buffers_alloc = 0;       // StrategyGetBuffer calls (pg_stat_bgwriter.buffers_alloc)
  uint64_t backend_writes = 0;      // dirty victims the backend wrote (pg_stat_io writes, client backend)
  uint64_t extends = 0;             // blocks added to relations (pg_stat_io extends)
  uint64_t reads = 0;               // blocks read into shared buffers (pg_stat_io reads, client backend)
  uint64_t buffers_checkpoint = 0;  // written by BufferSync (PG18: pg_stat_checkpointer.buffers_written)
  uint64_t buffers_clean = 0;       // written by BgBufferSync
  uint64_t maxwritten_clean = 0;    // BgBufferSync rounds stopped by bgwriter_lru_maxpages
  // PG15's pg_stat_bgwriter.buffers_backend: every write a backend forwards
  // to the checkpointer's fsync queue (checkpointer.c ForwardSyncRequest
  // counts num_backend_writes), which REL_15's mdextend does for each new
  // block too (register_dirty_segment): victims plus extensions there. From
  // REL_16 extensions are pg_stat_io's own column and buffers_backend (gone
  // in 17) counted victims only.
  uint64_t buffers_backend = 0;
};

// SyncOneBuffer's result bits (bufmgr.c BUF_WRITTEN, BUF_REUSABLE).
inline constexpr int kBufWritten = 0x01;
inline constexpr int kBufReusable = 0x02;

class BufferManager {
 public:
  BufferManager(const PgProfile& profile, int64_t nbuffers);

  int AddRelation();
  // The free space map fork of relation `main` (added after every main
  // fork): its fetches count in `main`'s pg_statio figures (pgstat counts
  // per relation, every fork), BufferSync orders it after `main`.
  int AddFsmFork(int main);
  // REL_15 fsm_extend: `n` new FSM blocks written straight through smgr
  // (no buffer), each a backend fsync request (buffers_backend).
  void CountSmgrExtend(uint64_t n) {
    if (profile_.major < 16) counters_.buffers_backend += n;
  }
  const PgProfile& profile() const { return profile_; }
  // ReadBufferExtended of an existing block: a hit pins it (usage +1 on the
  // backend's first pin); a miss takes a buffer (StrategyGetBuffer), writes
  // its dirty page first, reads the block. Counts the relation's
  // blks_read/blks_hit. Returns the buffer id.
  int ReadBuffer(int rel, uint32_t block);
  // The relation extended by `block` (its new last block): a buffer taken
  // as for a miss, zeroed, no read (REL_15 ReadBuffer(P_NEW); REL_16+
  // ExtendBufferedRelBy). REL_15 counts it as a fetch without a hit
  // (ReadBufferExtended's pgstat_count_buffer_read) and as a backend write
  // (mdextend); REL_16+ as an extend only.
  int ExtendBuffer(int rel, uint32_t block);
  // MarkBufferDirty of a resident block (the record's blocks, XLogInsert).
  void MarkDirty(int rel, uint32_t block);
  // Releases every pin taken since the last call (the end of one heap or
  // index tuple insert: the pages it held).
  void UnpinAll();
  // REINDEX's end (smgrDoPendingDeletes at commit -> smgrdounlinkall ->
  // bufmgr.c DropRelationsAllBuffers): every buffer of the old relfilenode
  // of `rel` invalidated without a write (InvalidateBuffer), in buffer
  // order (the full scan of NBuffers outside recovery), each pushed on the
  // freelist's head (freelist.c StrategyFreeBuffer); the new relfilenode,
  // the highest, sorts last in BufferSync's order.
  void DropRelationBuffers(int rel);

  // --- for the checkpointer and the background writer -------------------
  int nbuffers() const { return static_cast<int>(frames_.size()); }
  // freelist.c StrategySyncStart: the clock hand, its complete passes, and
  // the allocations since the last call (which it resets).
  int StrategySyncStart(uint32_t* complete_passes, uint32_t* num_buf_alloc);
  // bufmgr.c SyncOneBuffer: with `skip_recently_used`, only a buffer with
  // refcount 0 and usage count 0 is written (BUF_REUSABLE); writes it when
  // valid and dirty (BUF_WRITTEN), counted for `writer`.
  int SyncOneBuffer(int buf_id, bool skip_recently_used, Writer writer);
  // BufferSync's start: marks every dirty buffer BM_CHECKPOINT_NEEDED and
  // puts their ids in `out` in the order BufferSync writes them
  // (ckpt_buforder_comparator: tablespace, relation, fork, block; one
  // tablespace here, relations in creation order as their relfilenodes).
  void MarkCheckpointNeeded(std::vector<int>* out);
  // BufferSync's test for one marked buffer: still BM_CHECKPOINT_NEEDED
  // (no one wrote it, it was not replaced).
  bool CheckpointNeeded(int buf_id) const { return frames_[buf_id].checkpoint_needed; }
  // BgBufferSync stopped at bgwriter_lru_maxpages (pg_stat_bgwriter.maxwritten_clean).
  void CountMaxWrittenClean() { ++counters_.maxwritten_clean; }
  // Allocations since the start (never reset).
  uint64_t allocs_total() const { return counters_.buffers_alloc; }

  // pg_buffercache's isdirty census of relation `rel` (main fork).
  uint64_t dirty_blocks(int rel) const { return dirty_count_[rel]; }
  uint64_t dirty_total() const;
  uint64_t resident(int rel) const { return resident_count_[rel]; }
  const RelIoCounters& rel_counters(int rel) const { return rel_io_[rel]; }
  const BufferCounters& counters() const { return counters_; }
  // Test access: the buffer holding `rel`/`block`, or -1.
  int Lookup(int rel, uint32_t block) const;
  int usage_count(int buf_id) const { return frames_[buf_id].usage; }
  bool is_dirty(int buf_id) const { return frames_[buf_id].dirty; }

  absl::Status status() const { return status_; }
  std::string Verify() const;

 private:
  // A BufferDesc: its tag (relation, block), state bits and counts.
  struct Frame {
    int32_t rel = -1;  // -1: no valid page (on the freelist)
    uint32_t block = 0;
    uint8_t usage = 0;
    uint8_t refcount = 0;  // this backend's pins (no other backend here)
    bool dirty = false;
    bool checkpoint_needed = false;
  };
  int StrategyGetBuffer();
  // BufferAlloc's miss path: a victim (written first when dirty), retagged.
  int Alloc(int rel, uint32_t block);
  void Write(Frame& f, Writer writer);
  void Pin(int buf_id);

  PgProfile profile_;
  std::vector<Frame> frames_;
  std::vector<std::vector<int32_t>> table_;  // by relation, by block: buffer id or -1
  std::vector<uint64_t> dirty_count_;
  std::vector<uint64_t> resident_count_;
  std::vector<RelIoCounters> rel_io_;
  std::vector<int> stats_rel_;   // by relation: whose pg_statio counters its fetches go to
  std::vector<int> sync_order_;  // by relation: BufferSync's order (relation, then fork)
  // The freelist (StrategyControl->firstFreeBuffer and the freeNext links):
  // the buffers StrategyFreeBuffer pushed (the head at the back), then the
  // never used ones first_free_.. in buffer order (InitBufferPool's links).
  std::vector<int> freed_;
  int first_free_ = 0;
  int next_sync_order_ = 0;  // BufferSync's order of the next new relfilenode
  int next_victim_ = 0;  // StrategyControl->nextVictimBuffer
  uint32_t complete_passes_ = 0;
  uint32_t num_buffer_allocs_ = 0;  // since StrategySyncStart
  std::vector<int> pinned_;         // pins of the current operation
  BufferCounters counters_;
  absl::Status status_;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_BUFFER_MANAGER_H_
