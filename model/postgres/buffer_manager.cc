#include "model/postgres/buffer_manager.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace innosim::postgres {

BufferManager::BufferManager(const PgProfile& profile, int64_t nbuffers) : profile_(profile) {
  // buf_init.c InitBufferPool: NBuffers descriptors, all free, linked in
  // buffer order (freeNext = i + 1), firstFreeBuffer 0.
  frames_.resize(static_cast<size_t>(std::max<int64_t>(nbuffers, 1)));
}

int BufferManager::AddRelation() {
  table_.emplace_back();
  dirty_count_.push_back(0);
  resident_count_.push_back(0);
  rel_io_.emplace_back();
  const int id = static_cast<int>(table_.size() - 1);
  stats_rel_.push_back(id);
  sync_order_.push_back(id * 2);
  next_sync_order_ = std::max(next_sync_order_, id * 2 + 2);
  return id;
}

int BufferManager::AddFsmFork(int main) {
  const int id = AddRelation();
  stats_rel_[id] = main;
  sync_order_[id] = main * 2 + 1;
  next_sync_order_ = std::max(next_sync_order_, main * 2 + 2);
  return id;
}

int BufferManager::Lookup(int rel, uint32_t block) const {
  const std::vector<int32_t>& t = table_[rel];
  return block < t.size() ? t[block] : -1;
}

void BufferManager::Pin(int buf_id) {
  Frame& f = frames_[buf_id];
  // PinBuffer: the usage count goes up on this backend's first pin
  // (no PrivateRefCount entry yet), up to BM_MAX_USAGE_COUNT.
  if (f.refcount == 0) {
    if (f.usage < kBmMaxUsageCount) ++f.usage;
    pinned_.push_back(buf_id);
  }
  ++f.refcount;
}

void BufferManager::UnpinAll() {
  for (int b : pinned_) frames_[b].refcount = 0;
  pinned_.clear();
}

// freelist.c StrategyGetBuffer (strategy NULL): numBufferAllocs++, the
// freelist while it has a buffer (its head taken off; used when unpinned
// with a usage count of 0, else passed over), then the clock sweep: ClockSweepTick
// advances nextVictimBuffer (completePasses on each wrap); an unpinned
// buffer with a usage count loses one (and trycounter restarts), one at 0
// is the victim; a pinned one is passed over, and NBuffers pinned in a row
// is the server's "no unpinned buffers available".
int BufferManager::StrategyGetBuffer() {
  ++num_buffer_allocs_;
  ++counters_.buffers_alloc;
  const int n = nbuffers();
  while (!freed_.empty()) {
    const int b = freed_.back();
    freed_.pop_back();
    if (frames_[b].refcount == 0 && frames_[b].usage == 0) return b;
  }
  if (first_free_ < n) return first_free_++;
  int trycounter = n;
  for (;;) {
    const int victim = next_victim_;
    if (++next_victim_ >= n) {
      next_victim_ = 0;
      ++complete_passes_;
    }
    Frame& f = frames_[victim];
    if (f.refcount == 0) {
      if (f.usage != 0) {
        --f.usage;
        trycounter = n;
      } else {
        return victim;
      }
    } else if (--trycounter == 0) {
      if (status_.ok()) {
        status_ = absl::ResourceExhaustedError(
            "no unpinned buffers available: shared_buffers is smaller than the pages one insert holds");
      }
      return victim;
    }
  }
}

void BufferManager::Write(Frame& f, Writer writer) {
  // FlushBuffer then TerminateBufferIO(clear_dirty): BM_DIRTY and
  // BM_CHECKPOINT_NEEDED cleared.
  f.dirty = false;
  f.checkpoint_needed = false;
  --dirty_count_[f.rel];
  switch (writer) {
    case Writer::kBackend:
      ++counters_.backend_writes;
      ++counters_.buffers_backend;
      break;
    case Writer::kCheckpointer: ++counters_.buffers_checkpoint; break;
    case Writer::kBgWriter: ++counters_.buffers_clean; break;
  }
}

// bufmgr.c BufferAlloc's miss: a victim buffer; a dirty one is written by
// this backend first (FlushBuffer); the old tag leaves the buffer table,
// the new one enters with BM_TAG_VALID and a usage count of one
// (BUF_USAGECOUNT_ONE), pinned without a further increment (PinBuffer_Locked).
int BufferManager::Alloc(int rel, uint32_t block) {
  const int b = StrategyGetBuffer();
  Frame& f = frames_[b];
  if (f.rel >= 0) {
    if (f.dirty) Write(f, Writer::kBackend);
    table_[f.rel][f.block] = -1;
    --resident_count_[f.rel];
  }
  f.rel = rel;
  f.block = block;
  f.usage = 1;
  f.dirty = false;
  f.checkpoint_needed = false;
  std::vector<int32_t>& t = table_[rel];
  if (block >= t.size()) t.resize(static_cast<size_t>(block) + 1 + t.size() / 2, -1);
  t[block] = b;
  ++resident_count_[rel];
  f.refcount = 1;
  pinned_.push_back(b);
  return b;
}

void BufferManager::DropRelationBuffers(int rel) {
  for (int b = 0; b < nbuffers(); ++b) {
    Frame& f = frames_[b];
    if (f.rel != rel) continue;
    // InvalidateBuffer: the tag cleared, BM_DIRTY and the usage count with
    // it (a dirty page of a dropped file is never written).
    if (f.dirty) --dirty_count_[rel];
    --resident_count_[rel];
    f = Frame{};
    freed_.push_back(b);
  }
  table_[rel].clear();
  sync_order_[rel] = next_sync_order_;
  next_sync_order_ += 2;
}

int BufferManager::ReadBuffer(int rel, uint32_t block) {
  // ReadBufferExtended: pgstat_count_buffer_read, then a hit adds
  // pgstat_count_buffer_hit; blks_read is their difference.
  const int b = Lookup(rel, block);
  if (b >= 0) {
    ++rel_io_[stats_rel_[rel]].blks_hit;
    Pin(b);
    return b;
  }
  ++rel_io_[stats_rel_[rel]].blks_read;
  ++counters_.reads;
  return Alloc(rel, block);
}

int BufferManager::ExtendBuffer(int rel, uint32_t block) {
  ++counters_.extends;
  if (profile_.major < 16) {
    // REL_15: ReadBufferExtended(P_NEW) counts a fetch that is no hit, and
    // mdextend's register_dirty_segment a backend write (num_backend_writes).
    ++rel_io_[stats_rel_[rel]].blks_read;
    ++counters_.buffers_backend;
  }
  const int b = Lookup(rel, block);
  if (b >= 0) {  // cannot happen for a block past the end; kept consistent
    Pin(b);
    return b;
  }
  return Alloc(rel, block);
}

void BufferManager::MarkDirty(int rel, uint32_t block) {
  const int b = Lookup(rel, block);
  if (b < 0) {
    if (status_.ok()) {
      status_ = absl::InternalError(
          absl::StrCat("MarkBufferDirty of relation ", rel, " block ", block, ", which is not in shared buffers"));
    }
    return;
  }
  Frame& f = frames_[b];
  if (!f.dirty) {
    f.dirty = true;
    ++dirty_count_[rel];
  }
}

int BufferManager::StrategySyncStart(uint32_t* complete_passes, uint32_t* num_buf_alloc) {
  *complete_passes = complete_passes_;
  *num_buf_alloc = num_buffer_allocs_;
  num_buffer_allocs_ = 0;
  return next_victim_;
}

int BufferManager::SyncOneBuffer(int buf_id, bool skip_recently_used, Writer writer) {
  Frame& f = frames_[buf_id];
  int result = 0;
  if (f.refcount == 0 && f.usage == 0) {
    result |= kBufReusable;
  } else if (skip_recently_used) {
    return result;
  }
  if (f.rel < 0 || !f.dirty) return result;
  Write(f, writer);
  return result | kBufWritten;
}

void BufferManager::MarkCheckpointNeeded(std::vector<int>* out) {
  out->clear();
  for (int b = 0; b < nbuffers(); ++b) {
    Frame& f = frames_[b];
    if (f.rel >= 0 && f.dirty) {
      f.checkpoint_needed = true;
      out->push_back(b);
    }
  }
  std::sort(out->begin(), out->end(), [&](int a, int b) {
    const Frame& x = frames_[a];
    const Frame& y = frames_[b];
    return x.rel != y.rel ? sync_order_[x.rel] < sync_order_[y.rel] : x.block < y.block;
  });
}

uint64_t BufferManager::dirty_total() const {
  uint64_t n = 0;
  for (uint64_t d : dirty_count_) n += d;
  return n;
}

std::string BufferManager::Verify() const {
  if (!status_.ok()) return std::string(status_.message());
  std::vector<uint64_t> dirty(table_.size(), 0), resident(table_.size(), 0);
  for (int b = 0; b < nbuffers(); ++b) {
    const Frame& f = frames_[b];
    if (f.rel < 0) {
      if (f.dirty) return absl::StrCat("buffer ", b, ": dirty without a page");
      continue;
    }
    if (f.usage > kBmMaxUsageCount) return absl::StrCat("buffer ", b, ": usage count above BM_MAX_USAGE_COUNT");
    if (Lookup(f.rel, f.block) != b) return absl::StrCat("buffer ", b, ": not in the buffer table under its tag");
    ++resident[f.rel];
    if (f.dirty) ++dirty[f.rel];
  }
  for (size_t r = 0; r < table_.size(); ++r) {
    if (dirty[r] != dirty_count_[r]) return absl::StrCat("relation ", r, ": dirty count out of step");
    if (resident[r] != resident_count_[r]) return absl::StrCat("relation ", r, ": resident count out of step");
  }
  return "";
}

}  // namespace innosim::postgres
