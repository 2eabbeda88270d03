// RedoLog: the LSN, the checkpoint, and the capacity thresholds that decide
// when InnoDB must flush dirty pages because of redo.
//
// MySQL 8.0.30+ (innodb_redo_log_capacity):
//   * Data bytes of each mtr advance the "sn"; the LSN also counts the 12-byte
//     header and 4-byte trailer of every 512-byte log block
//     (log_translate_sn_to_lsn, include/log0log.h / log0constants.h).
//   * Thresholds computed as log0files_capacity.cc
//     (hard_logical_capacity_for_physical, soft_logical_capacity_for_hard,
//     update_exposed) and log0chkp.cc (log_concurrency_margin,
//     log_free_check_capacity, log_files_capacity_get_limits,
//     log_sync_flush_lsn) do.
// MariaDB 10.11 (innodb_log_file_size):
//   * The 10.8+ log has no block framing: the LSN advances by the bytes of
//     each mtr ([Mb] mtr/mtr0mtr.cc, log_t::append_prepare).
//   * Thresholds from log_t::set_capacity ([Mb] log/log0log.cc).
//
//   RedoLog log(RedoLog::MySqlLimitsFor(100 << 20, 16384, 0));
//   log.Append(190);                     // one mtr of 190 bytes
//   uint64_t age = log.lsn() - oldest_dirty_lsn;
//
// Value type; not thread-safe.
#ifndef INNOSIM_MODEL_REDO_LOG_H_
#define INNOSIM_MODEL_REDO_LOG_H_

#include <cstdint>

#include "model/server_settings.h"

namespace innosim {

// MySQL 8.0.30+ redo capacity limits, all in LSN bytes.
struct MySqlRedoLimits {
  uint64_t physical_capacity = 0;  // innodb_redo_log_capacity
  uint64_t hard = 0;               // hard_logical_capacity
  uint64_t soft = 0;               // soft_logical_capacity
  uint64_t adaptive_flush_min_age = 0;         // soft - soft/8
  uint64_t adaptive_flush_max_age = 0;         // soft * (1 - 1/16)
  uint64_t aggressive_checkpoint_min_age = 0;  // soft - soft/32
  uint64_t concurrency_margin = 0;             // log_concurrency_margin (sn)
  uint64_t free_check_margin = 0;  // log_free_check_margin (LSN units)
  // log_free_check_capacity: user threads wait in log_free_check beyond
  // this checkpoint age.
  uint64_t limit_for_free_check = 0;
  // log_files_capacity_get_limits: divisor of get_pct_for_lsn.
  uint64_t limit_for_dirty_page_age = 0;
  // Sync flushing starts when current + margin - oldest exceeds
  // adaptive_flush_max_age, i.e. at an oldest-page age of this.
  uint64_t sync_flush_age = 0;
};

// MariaDB 10.11 log_t::set_capacity, in LSN bytes.
struct MariaDbRedoLimits {
  uint64_t log_file_size = 0;
  uint64_t log_capacity = 0;            // log_sys.log_capacity
  uint64_t max_checkpoint_age = 0;      // furious flushing beyond this
  uint64_t max_modified_age_async = 0;  // async flushing beyond this
};

class RedoLog {
 public:
  // log0constants.h: OS_FILE_LOG_BLOCK_SIZE, LOG_BLOCK_HDR_SIZE,
  // LOG_BLOCK_TRL_SIZE, LOG_START_LSN (16 blocks).
  static constexpr uint64_t kBlockSize = 512;
  static constexpr uint64_t kBlockHdrSize = 12;
  static constexpr uint64_t kBlockTrlSize = 4;
  static constexpr uint64_t kBlockDataSize = kBlockSize - kBlockHdrSize - kBlockTrlSize;
  static constexpr uint64_t kStartLsn = 16 * kBlockSize;
  // log0constants.h INNODB_LOG_RECENT_CLOSED_SIZE_DEFAULT: 2 MiB, the
  // log_buffer_flush_order_lag added to the sync-flush target.
  static constexpr uint64_t kFlushOrderLag = 2ull << 20;

  static MySqlRedoLimits MySqlLimitsFor(uint64_t redo_log_capacity, uint64_t page_size,
                                        uint64_t thread_concurrency);
  static MariaDbRedoLimits MariaDbLimitsFor(uint64_t log_file_size, uint64_t page_size);

  // log_translate_sn_to_lsn / log_translate_lsn_to_sn.
  static uint64_t SnToLsn(uint64_t sn) {
    return sn / kBlockDataSize * kBlockSize + sn % kBlockDataSize + kBlockHdrSize;
  }
  static uint64_t LsnToSn(uint64_t lsn) {
    return lsn / kBlockSize * kBlockDataSize + (lsn % kBlockSize) - kBlockHdrSize;
  }

  explicit RedoLog(const ServerSettings& settings);

  // One mini-transaction committed `bytes` of log records.
  void Append(uint64_t bytes) {
    sn_ += bytes;
    lsn_ = block_framing_ ? SnToLsn(sn_) : sn_;
  }
  // Current LSN (log_get_lsn). During an mtr it is the mtr's start LSN.
  uint64_t lsn() const { return lsn_; }
  // Data bytes appended so far.
  uint64_t bytes_appended() const { return sn_ - start_sn_; }

  // The LSN the checkpointer may write given the flush-list tail's
  // oldest_modification (0 = no dirty page).
  // MySQL (log_determine_checkpoint_lsn): min(lwm, dpa); dpa = current LSN
  // here (every committed mtr has added its pages), and lwm =
  // buf_pool_get_oldest_modification_lwm = max(last checkpoint,
  // oldest - log_buffer_flush_order_lag) (buf/buf0buf.cc), or dpa when clean.
  // MariaDB: the oldest modification, or the current LSN when clean.
  uint64_t AvailableForCheckpoint(uint64_t oldest_dirty_lsn) const;
  // Writes a checkpoint at AvailableForCheckpoint (never moves backwards).
  void Checkpoint(uint64_t oldest_dirty_lsn) {
    const uint64_t c = AvailableForCheckpoint(oldest_dirty_lsn);
    if (c > last_checkpoint_lsn_) last_checkpoint_lsn_ = c;
  }
  uint64_t last_checkpoint_lsn() const { return last_checkpoint_lsn_; }
  uint64_t checkpoint_age() const { return lsn_ - last_checkpoint_lsn_; }

  // MySQL log_sync_flush_lsn (no requested checkpoint): with
  // oldest = AvailableForCheckpoint, 0 unless current + margin - oldest >
  // adaptive_flush_max_age; then current + margin - adaptive_flush_max_age
  // (capped at current) + log_buffer_flush_order_lag. `oldest_dirty_lsn` 0
  // means clean.
  uint64_t MySqlSyncFlushLsn(uint64_t oldest_dirty_lsn) const;

  const MySqlRedoLimits& mysql() const { return mysql_; }
  const MariaDbRedoLimits& mariadb() const { return mariadb_; }
  ServerFlavor flavor() const { return flavor_; }

 private:
  friend struct VerifyTestPeer;  // tests/verify_test_peer.h

  ServerFlavor flavor_;
  bool block_framing_;
  MySqlRedoLimits mysql_;
  MariaDbRedoLimits mariadb_;
  uint64_t start_sn_ = 0;
  uint64_t sn_ = 0;
  uint64_t lsn_ = 0;
  uint64_t last_checkpoint_lsn_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_REDO_LOG_H_
