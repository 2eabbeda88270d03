#include "model/postgres/wal.h"

#include <algorithm>

#include "model/postgres/buffer_manager.h"
#include "model/postgres/page_layout.h"

namespace innosim::postgres {
namespace {

// xlog.c: UsableBytesInPage and UsableBytesInSegment.
constexpr uint64_t kUsableBytesInPage = kXLogBlcksz - kSizeOfXLogShortPHD;
constexpr uint64_t kUsableBytesInSegment =
    kWalSegmentSize / kXLogBlcksz * kUsableBytesInPage - (kSizeOfXLogLongPHD - kSizeOfXLogShortPHD);

}  // namespace

void WalRecord::Block(int relation, uint32_t block, int flags, int lower, int upper, int data_bytes) {
  if (nrefs_ == kMaxRefs) {
    overflow_ = true;  // a record this model does not write
    return;
  }
  refs_[nrefs_++] = Ref{relation, block, flags, lower, upper, data_bytes};
}

int Wal::AddRelation() {
  state_.emplace_back();
  dirty_count_.push_back(0);
  return static_cast<int>(state_.size() - 1);
}

bool Wal::is_dirty(int relation, uint32_t block) const {
  const std::vector<uint8_t>& d = state_[relation];
  return block < d.size() && d[block] == kDirty;
}

bool Wal::changed_since_redo(int relation, uint32_t block) const {
  const std::vector<uint8_t>& d = state_[relation];
  return block < d.size() && d[block] != kUnchanged;
}

void Wal::NewRelfilenode(int relation) {
  state_[relation].clear();
  dirty_count_[relation] = 0;
}

void Wal::LogNewPages(int relation, const std::vector<WalNewPage>& pages) {
  const size_t batch = profile_.major >= 17 ? static_cast<size_t>(kXlrMaxBlockId) : 1;
  for (size_t first = 0; first < pages.size(); first += batch) {
    const size_t end = std::min(pages.size(), first + batch);
    // XLOG_FPI: no main data; each block an image (REGBUF_FORCE_IMAGE,
    // standard page: the hole left out), the relation named once
    // (BKPBLOCK_SAME_REL after the first).
    int total = kSizeOfXLogRecord + kSizeOfRelFileLocator;
    for (size_t i = first; i < end; ++i) {
      const WalNewPage& p = pages[i];
      const int hole = (p.lower >= kSizeOfPageHeaderData && p.upper > p.lower && p.upper <= kBlckSz) ? p.upper - p.lower : 0;
      total += kSizeOfXLogRecordBlockHeader + kSizeOfXLogRecordBlockImageHeader + (kBlckSz - hole) + kSizeOfBlockNumber;
      std::vector<uint8_t>& d = state_[relation];
      if (p.block >= d.size()) d.resize(p.block + 1 + d.size() / 2, kUnchanged);
      if (d[p.block] == kDirty) --dirty_count_[relation];
      d[p.block] = kLogged;
    }
    Place(total);
    counters_.wal_fpi += end - first;
  }
}

WalRecordSize Wal::Size(const WalRecord& record) const {
  WalRecordSize s;
  int total = kSizeOfXLogRecord;
  int prev_relation = -1;
  for (int i = 0; i < record.nrefs_; ++i) {
    const WalRecord::Ref& ref = record.refs_[i];
    // XLogRecordAssemble: needs_backup when not REGBUF_NO_IMAGE and the
    // page LSN is at or before RedoRecPtr (doPageWrites: full_page_writes
    // on); REGBUF_FORCE_IMAGE always.
    const bool image = (ref.flags & kRegbufForceImage) != 0 ||
                       (full_page_writes_ && (ref.flags & kRegbufNoImage) == 0 &&
                        !changed_since_redo(ref.relation, ref.block));
    total += kSizeOfXLogRecordBlockHeader;
    if (image) {
      total += kSizeOfXLogRecordBlockImageHeader;
      // A standard page leaves out pd_lower..pd_upper (wal_compression
      // off: no XLogRecordBlockCompressHeader).
      int hole = 0;
      if ((ref.flags & kRegbufStandard) != 0 && ref.lower >= kSizeOfPageHeaderData && ref.upper > ref.lower &&
          ref.upper <= kBlckSz) {
        hole = ref.upper - ref.lower;
      }
      total += kBlckSz - hole;
      ++s.fpi;
    } else {
      // needs_data: the block's registered data only without an image
      // (none of these records asks REGBUF_KEEP_DATA).
      total += ref.data_bytes;
    }
    // BKPBLOCK_SAME_REL: the previous block reference's relation.
    if (ref.relation != prev_relation) total += kSizeOfRelFileLocator;
    prev_relation = ref.relation;
    total += kSizeOfBlockNumber;
  }
  if (record.main_data_ > 0) {
    total += record.main_data_ > 255 ? kSizeOfXLogRecordDataHeaderLong : kSizeOfXLogRecordDataHeaderShort;
    total += record.main_data_;
  }
  s.xl_tot_len = total;
  return s;
}

void Wal::Place(int xl_tot_len) {
  // XLogInsertRecord: pgWalUsage.wal_records++, wal_bytes += xl_tot_len;
  // ReserveXLogInsertLocation: CurrBytePos += MAXALIGN(size).
  const uint64_t start = BytePosToRecPtr(bytepos_);
  bytepos_ += static_cast<uint64_t>(MaxAlign(xl_tot_len));
  counters_.wal_lsn_bytes += BytePosToRecPtr(bytepos_) - start;
  ++counters_.wal_records;
  counters_.wal_bytes += static_cast<uint64_t>(xl_tot_len);
}

WalRecordSize Wal::Insert(const WalRecord& record) {
  if (record.overflow_ && status_.ok()) {
    status_ = absl::InternalError("a WAL record with more than 4 block references: not a record this model writes");
  }
  const WalRecordSize s = Size(record);
  Place(s.xl_tot_len);
  counters_.wal_fpi += static_cast<uint64_t>(s.fpi);
  // The page LSNs become the record's: changed since the redo pointer,
  // and dirty (MarkBufferDirty before XLogInsert).
  for (int i = 0; i < record.nrefs_; ++i) {
    const WalRecord::Ref& ref = record.refs_[i];
    std::vector<uint8_t>& d = state_[ref.relation];
    if (ref.block >= d.size()) d.resize(ref.block + 1 + d.size() / 2, kUnchanged);
    if (d[ref.block] != kDirty) {
      d[ref.block] = kDirty;
      ++dirty_count_[ref.relation];
    }
    if (buffers_ != nullptr) buffers_->MarkDirty(ref.relation, ref.block);
  }
  return s;
}

void Wal::Commit() {
  WalRecord r;
  r.MainData(kMinSizeOfXactCommit);
  Insert(r);
}

void Wal::Checkpoint() {
  BeginCheckpoint();
  EndCheckpoint();
}

void Wal::BeginCheckpoint() {
  // The redo pointer at the insert position: every block's LSN is at or
  // before it, so its next change takes an image.
  for (std::vector<uint8_t>& d : state_) d.assign(d.size(), kUnchanged);
  for (uint64_t& n : dirty_count_) n = 0;
  redo_rec_ptr_ = InsertRecPtr();
  if (profile_.major >= 17) {
    // REL_17+ CreateCheckPoint: the redo pointer is this record's start.
    WalRecord redo;
    redo.MainData(kSizeOfCheckpointRedo);
    Insert(redo);
  }
}

void Wal::EndCheckpoint() {
  WalRecord running;
  running.MainData(kMinSizeOfXactRunningXacts);
  Insert(running);
  WalRecord checkpoint;
  checkpoint.MainData(kSizeOfCheckPoint);
  Insert(checkpoint);
}

uint64_t Wal::BytePosToRecPtr(uint64_t bytepos) {
  const uint64_t fullsegs = bytepos / kUsableBytesInSegment;
  uint64_t bytesleft = bytepos % kUsableBytesInSegment;
  uint64_t seg_offset;
  if (bytesleft < kXLogBlcksz - kSizeOfXLogLongPHD) {
    // Fits on the first page of the segment, after its long header.
    seg_offset = bytesleft + kSizeOfXLogLongPHD;
  } else {
    bytesleft -= kXLogBlcksz - kSizeOfXLogLongPHD;
    const uint64_t fullpages = bytesleft / kUsableBytesInPage;
    bytesleft = bytesleft % kUsableBytesInPage;
    seg_offset = kXLogBlcksz + fullpages * kXLogBlcksz + bytesleft + kSizeOfXLogShortPHD;
  }
  return fullsegs * kWalSegmentSize + seg_offset;
}

}  // namespace innosim::postgres
