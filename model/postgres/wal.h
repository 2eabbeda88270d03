// PostgreSQL's WAL as the table's changes write it: the size of each record
// as access/transam/xloginsert.c XLogRecordAssemble builds it, full-page
// images on the first change of a block after the redo pointer
// (full_page_writes on, wal_compression off), pg_stat_wal's counters as
// XLogInsertRecord adds them up (pgWalUsage), the insert position as
// xlog.c ReserveXLogInsertLocation moves it (MAXALIGNed records, WAL page
// headers skipped: pg_current_wal_insert_lsn()), and the blocks changed
// since the last checkpoint (pg_buffercache's isdirty while every block
// stays in shared_buffers).
//
//   Wal wal(kPostgresql15);
//   const int heap = wal.AddRelation();
//   WalRecord r;                        // one XLogBeginInsert .. XLogInsert
//   r.Block(heap, blkno, kRegbufStandard, pd_lower, pd_upper, data_bytes);
//   r.MainData(kSizeOfHeapInsert);
//   wal.Insert(r);                      // sizes it, counts it, marks blocks changed
//   wal.Checkpoint();                   // buffers clean, redo pointer moved
//
// A record's byte map (xlogrecord.h), in the order XLogRecordAssemble writes it:
//   XLogRecord                                   24 (SizeOfXLogRecord)
//   per block reference, in block-id order:
//     XLogRecordBlockHeader                       4 (id, fork_flags, data_length)
//     XLogRecordBlockImageHeader if an image      5 (length, hole_offset, bimg_info)
//     RelFileLocator unless BKPBLOCK_SAME_REL    12 (spcOid, dbOid, relNumber)
//     BlockNumber                                 4
//   main data header: XLR_BLOCK_ID_DATA_SHORT + uint8 length (2), or
//                     XLR_BLOCK_ID_DATA_LONG + uint32 length (5) past 255 bytes
//   then each image (BLCKSZ - hole), each block's data (none with an image
//   unless REGBUF_KEEP_DATA), the main data.
// xl_tot_len is that sum; pg_stat_wal.wal_bytes adds xl_tot_len; the
// insert position advances by MAXALIGN(xl_tot_len).
//
// Pure computation. Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_WAL_H_
#define INNOSIM_MODEL_POSTGRES_WAL_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "model/postgres/profile.h"

namespace innosim::postgres {
class BufferManager;
}

namespace innosim::postgres {

// access/xlogrecord.h.
inline constexpr int kSizeOfXLogRecord = 24;                 // SizeOfXLogRecord
inline constexpr int kSizeOfXLogRecordBlockHeader = 4;       // SizeOfXLogRecordBlockHeader
inline constexpr int kSizeOfXLogRecordBlockImageHeader = 5;  // SizeOfXLogRecordBlockImageHeader
inline constexpr int kSizeOfRelFileLocator = 12;             // sizeof(RelFileLocator) (REL_15: RelFileNode)
inline constexpr int kSizeOfBlockNumber = 4;                 // sizeof(BlockNumber)
inline constexpr int kSizeOfXLogRecordDataHeaderShort = 2;   // SizeOfXLogRecordDataHeaderShort
inline constexpr int kSizeOfXLogRecordDataHeaderLong = 5;    // SizeOfXLogRecordDataHeaderLong
// access/xlog_internal.h: MAXALIGN(sizeof(XLogPageHeaderData)) (xlp_magic 2,
// xlp_info 2, xlp_tli 4, xlp_pageaddr 8, xlp_rem_len 4 = 20) and
// MAXALIGN(sizeof(XLogLongPageHeaderData)) (+ xlp_sysid 8, xlp_seg_size 4,
// xlp_xlog_blcksz 4 = 36), the long one at each segment's start.
inline constexpr int kSizeOfXLogShortPHD = 24;
inline constexpr int kSizeOfXLogLongPHD = 40;
// pg_config.h XLOG_BLCKSZ; initdb --wal-segsize default (16 MB).
inline constexpr int kXLogBlcksz = 8192;
inline constexpr uint64_t kWalSegmentSize = 16u << 20;

// access/heapam_xlog.h: SizeOfHeapInsert = offsetof(xl_heap_insert, flags)
// + sizeof(uint8) (offnum 2, flags 1); SizeOfHeapHeader = offsetof(
// xl_heap_header, t_hoff) + sizeof(uint8) (t_infomask2 2, t_infomask 2, t_hoff 1).
inline constexpr int kSizeOfHeapInsert = 3;
inline constexpr int kSizeOfHeapHeader = 5;
// access/nbtxlog.h: SizeOfBtreeInsert (offnum 2); SizeOfBtreeSplit (level 4,
// firstrightoff 2, newitemoff 2, postingoff 2); SizeOfBtreeNewroot (rootblk
// 4, level 4); sizeof(xl_btree_metadata) (version, root, level, fastroot,
// fastlevel, last_cleanup_num_delpages: 4 each, allequalimage 1, padded to
// 28); SizeOfBtreeDedup (nintervals 2); sizeof(BTDedupInterval) (baseoff 2,
// nitems 2).
inline constexpr int kSizeOfBtreeInsert = 2;
inline constexpr int kSizeOfBtreeSplit = 10;
inline constexpr int kSizeOfBtreeNewroot = 8;
inline constexpr int kSizeOfBtreeMetadata = 28;
inline constexpr int kSizeOfBtreeDedup = 2;
inline constexpr int kSizeOfBTDedupInterval = 4;
// access/xact.h: MinSizeOfXactCommit = offsetof(xl_xact_commit, xact_time)
// + sizeof(TimestampTz): a top-level commit with nothing else to say
// (no subtransactions, relations, invalidations, origin; xinfo 0, so no
// xl_xact_xinfo either).
inline constexpr int kMinSizeOfXactCommit = 8;
// storage/standbydefs.h: MinSizeOfXactRunningXacts = offsetof(
// xl_running_xacts, xids) (xcnt, subxcnt 4 each, subxid_overflow 1 padded,
// nextXid, oldestRunningXid, latestCompletedXid 4 each): the snapshot
// CreateCheckPoint logs (LogStandbySnapshot) at wal_level replica, with no
// transaction running.
inline constexpr int kMinSizeOfXactRunningXacts = 24;
// catalog/pg_control.h: sizeof(CheckPoint), the XLOG_CHECKPOINT_ONLINE
// record's main data: 88 in REL_15 and REL_18 (REL_17 added int wal_level
// into the padding after fullPageWrites). REL_17+: XLOG_CHECKPOINT_REDO
// carries the int wal_level (4) and marks the redo pointer.
inline constexpr int kSizeOfCheckPoint = 88;
inline constexpr int kSizeOfCheckpointRedo = 4;
// xlogrecord.h XLR_MAX_BLOCK_ID + 1: the most block references one record
// holds; REL_17+ bulk_write.c flushes its pending pages in batches of
// MAX_PENDING_WRITES = XLR_MAX_BLOCK_ID (32), one log_newpages record each.
inline constexpr int kXlrMaxBlockId = 32;

// XLogRegisterBuffer flags (access/xloginsert.h) the modelled records use.
inline constexpr int kRegbufForceImage = 0x01;  // REGBUF_FORCE_IMAGE
inline constexpr int kRegbufNoImage = 0x02;     // REGBUF_NO_IMAGE
inline constexpr int kRegbufWillInit = 0x04 | kRegbufNoImage;  // REGBUF_WILL_INIT
inline constexpr int kRegbufStandard = 0x08;   // REGBUF_STANDARD: the hole may be left out

// One record being assembled (XLogBeginInsert .. XLogInsert): its block
// references in block-id order and its main data length.
class WalRecord {
 public:
  // Block reference `relation`/`block` with REGBUF_* `flags`; `lower` and
  // `upper` are the page's pd_lower and pd_upper after the change (the
  // image's hole); `data_bytes` what XLogRegisterBufData gave the block.
  void Block(int relation, uint32_t block, int flags, int lower, int upper, int data_bytes);
  void MainData(int bytes) { main_data_ += bytes; }

 private:
  friend class Wal;
  struct Ref {
    int relation;
    uint32_t block;
    int flags;
    int lower;
    int upper;
    int data_bytes;
  };
  // XLR_MAX_BLOCK_ID allows 33; the records modelled name at most 4
  // (a split: left, right, old sibling, child). Kept inline: two records a
  // row must not allocate.
  static constexpr int kMaxRefs = 4;
  std::array<Ref, kMaxRefs> refs_{};
  int nrefs_ = 0;
  bool overflow_ = false;  // a fifth reference: Wal::Insert makes it its status
  int main_data_ = 0;
};

// pg_stat_wal's counters (pgWalUsage), and the insert position's advance.
struct WalCounters {
  uint64_t wal_records = 0;
  uint64_t wal_fpi = 0;
  uint64_t wal_bytes = 0;  // sum of xl_tot_len
  // pg_wal_lsn_diff of pg_current_wal_insert_lsn() across the span:
  // MAXALIGN padding and WAL page headers included.
  uint64_t wal_lsn_bytes = 0;
};

// What one record came to.
struct WalRecordSize {
  int xl_tot_len = 0;
  int fpi = 0;  // full-page images in it
};

// A page a bulk build wrote straight to its file (no shared buffer): its
// block and its pd_lower / pd_upper (the image's hole).
struct WalNewPage {
  uint32_t block = 0;
  int lower = 0;
  int upper = 0;
};

class Wal {
 public:
  explicit Wal(const PgProfile& profile) : profile_(profile) {}

  // A relation whose blocks records refer to; returns its id.
  int AddRelation();
  // Sizes `record` as XLogRecordAssemble would now (which blocks need an
  // image: not REGBUF_NO_IMAGE and not changed since the redo pointer),
  // without inserting it.
  WalRecordSize Size(const WalRecord& record) const;
  // XLogInsert: sizes, counts and places the record; every block it names
  // is then changed since the redo pointer (its page LSN is past it).
  WalRecordSize Insert(const WalRecord& record);
  // A commit record (xact.c XactLogCommitRecord, RM_XACT_ID XLOG_XACT_COMMIT).
  void Commit();
  // CHECKPOINT (xlog.c CreateCheckPoint, requested): every buffer written
  // (BufferSync), the redo pointer moved to the insert position, then the
  // records the checkpoint writes (REL_17+: XLOG_CHECKPOINT_REDO first;
  // the standby snapshot; XLOG_CHECKPOINT_ONLINE).
  void Checkpoint();
  // A spread checkpoint's two ends (CreateCheckPoint): the redo pointer
  // moved to the insert position (REL_17+: XLOG_CHECKPOINT_REDO written
  // there), after which every block's next change takes an image; and,
  // once BufferSync is done, the standby snapshot and XLOG_CHECKPOINT_ONLINE.
  // Checkpoint() is the two at once.
  void BeginCheckpoint();
  void EndCheckpoint();
  // A new relfilenode for `relation` (REINDEX: RelationSetNewRelfilenumber):
  // no block of it was changed yet.
  void NewRelfilenode(int relation);
  // The pages a sorted index build wrote through smgr, each WAL-logged as a
  // full-page image (wal_level replica): REL_15/16 nbtsort.c _bt_blwritepage
  // -> log_newpage, one XLOG_FPI record per page; REL_17+ bulk_write.c
  // smgr_bulk_flush -> log_newpages, one record per batch of up to
  // kXlrMaxBlockId pages. Their LSNs are past the redo pointer (no image at
  // their next change) but no buffer holds them: not dirty.
  void LogNewPages(int relation, const std::vector<WalNewPage>& pages);
  // From now on each record's blocks are marked dirty in `buffers`
  // (MarkBufferDirty before XLogInsert); nullptr: none.
  void AttachBuffers(BufferManager* buffers) { buffers_ = buffers; }
  // full_page_writes (doPageWrites): off takes no image after the redo
  // pointer (REGBUF_FORCE_IMAGE still does).
  void set_full_page_writes(bool on) { full_page_writes_ = on; }
  // pg_current_wal_insert_lsn() and the last checkpoint's redo pointer
  // (RedoRecPtr), as LSNs.
  uint64_t InsertRecPtr() const { return BytePosToRecPtr(bytepos_); }
  uint64_t RedoRecPtr() const { return redo_rec_ptr_; }

  const WalCounters& counters() const { return counters_; }
  // OK, or the first record this model could not size; sticky.
  absl::Status status() const { return status_; }
  // Blocks changed since the redo pointer: pg_buffercache's isdirty census
  // when no buffer is written in between (no buffer model attached); a
  // bulk build's pages are not among them (they never were in a buffer).
  uint64_t dirty_blocks(int relation) const { return dirty_count_[relation]; }
  bool is_dirty(int relation, uint32_t block) const;
  // The block's page LSN is past the redo pointer: its next change takes
  // no image (dirty, or written by a bulk build).
  bool changed_since_redo(int relation, uint32_t block) const;
  // xlog.c XLogBytePosToRecPtr: the LSN of usable byte position `bytepos`.
  static uint64_t BytePosToRecPtr(uint64_t bytepos);

 private:
  void Place(int xl_tot_len);

  PgProfile profile_;
  // By relation, by block: kUnchanged (page LSN at or before the redo
  // pointer), kDirty (changed since it, in a dirty buffer), kLogged (its
  // LSN past it, written to the file by a bulk build: clean).
  enum BlockState : uint8_t { kUnchanged = 0, kDirty = 1, kLogged = 2 };
  std::vector<std::vector<uint8_t>> state_;
  std::vector<uint64_t> dirty_count_;
  WalCounters counters_;
  uint64_t bytepos_ = 0;  // Insert->CurrBytePos
  uint64_t redo_rec_ptr_ = 0;
  BufferManager* buffers_ = nullptr;
  bool full_page_writes_ = true;
  absl::Status status_;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_WAL_H_
