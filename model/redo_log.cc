#include "model/redo_log.h"

#include <algorithm>
#include <cmath>

#include "model/page_format.h"  // kUnivPageSizeMax

namespace innosim {
namespace {

// include/log0constants.h (MySQL 8.0.30+).
constexpr uint64_t kLogNFiles = 32;                       // LOG_N_FILES
constexpr uint64_t kLogFileHdrSize = 4 * RedoLog::kBlockSize;  // LOG_FILE_HDR_SIZE
constexpr uint64_t kExtraSafetyMargin = 2 * kUnivPageSizeMax;  // LOG_EXTRA_SAFETY_MARGIN
constexpr double kNextFileEarlierMarginPct = 10;          // LOG_NEXT_FILE_EARLIER_MARGIN
constexpr double kExtraWriterMarginPct = 5;               // LOG_EXTRA_WRITER_MARGIN_PCT
constexpr double kExtraConcMarginPct = 5;                 // LOG_EXTRA_CONC_MARGIN_PCT
constexpr double kConcurrencyMarginMaxPct = 50;           // LOG_CONCCURENCY_MARGIN_MAX_PCT
constexpr uint64_t kBackgroundThreadsUsingRwMtrs = 10;    // LOG_BACKGROUND_THREADS_USING_RW_MTRS
constexpr uint64_t kCheckpointFreePerThread = 4;          // LOG_CHECKPOINT_FREE_PER_THREAD
constexpr uint64_t kFilesDummyIntakeSize = 4 * 1024;      // LOG_FILES_DUMMY_INTAKE_SIZE
constexpr uint64_t kAggressiveCheckpointRatioMin = 32;    // LOG_AGGRESSIVE_CHECKPOINT_RATIO_MIN
constexpr uint64_t kForcingAdaptiveFlushRatioMax = 16;    // LOG_FORCING_ADAPTIVE_FLUSH_RATIO_MAX
constexpr uint64_t kForcingAdaptiveFlushRatioMin = 8;     // LOG_FORCING_ADAPTIVE_FLUSH_RATIO_MIN

uint64_t AlignDown(uint64_t v, uint64_t a) { return v / a * a; }
uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

MySqlRedoLimits RedoLog::MySqlLimitsFor(uint64_t capacity, uint64_t page_size,
                                        uint64_t thread_concurrency) {
  MySqlRedoLimits m;
  m.physical_capacity = capacity;
  // Log_files_capacity::hard_logical_capacity_for_physical.
  const double free_file_ratio = 1.0 * (kLogNFiles - 2) / kLogNFiles;
  const uint64_t overhead = (kLogNFiles - 1) * kLogFileHdrSize + kExtraSafetyMargin;
  const uint64_t lsn_capacity =
      static_cast<uint64_t>(static_cast<double>(capacity) * free_file_ratio) - overhead;
  // next_file_size / next_file_earlier_margin.
  const uint64_t file_size = AlignDown(capacity / kLogNFiles, page_size);
  const uint64_t next_file_margin = AlignUp(
      static_cast<uint64_t>(std::ceil(kNextFileEarlierMarginPct / 100.0 * file_size)), kBlockSize);
  m.hard = AlignDown(lsn_capacity - next_file_margin, kBlockSize);
  // soft_logical_capacity_for_hard.
  m.soft = AlignDown(static_cast<uint64_t>(std::floor(m.hard * (1.0 - kExtraWriterMarginPct / 100.0))),
                     kBlockSize);
  // update_exposed.
  m.adaptive_flush_max_age = AlignDown(
      static_cast<uint64_t>(std::floor(m.soft * (1.0 - 1.0 / kForcingAdaptiveFlushRatioMax))),
      kBlockSize);
  m.adaptive_flush_min_age = AlignDown(m.soft - m.soft / kForcingAdaptiveFlushRatioMin, kBlockSize);
  m.aggressive_checkpoint_min_age =
      AlignDown(m.soft - m.soft / kAggressiveCheckpointRatioMin, kBlockSize);
  // log0chkp.cc log_concurrency_margin(soft) (sn units).
  uint64_t margin = kCheckpointFreePerThread * page_size *
                    (thread_concurrency + kBackgroundThreadsUsingRwMtrs);
  margin += kFilesDummyIntakeSize;
  margin += AlignDown(static_cast<uint64_t>(kExtraConcMarginPct / 100.0 * m.soft), kBlockSize);
  const uint64_t max_margin = LsnToSn(AlignDown(
      static_cast<uint64_t>(m.soft * (kConcurrencyMarginMaxPct + kExtraConcMarginPct) / 100.0),
      kBlockSize));
  m.concurrency_margin = std::min(margin, max_margin);
  // log_free_check_margin: sn_to_lsn(concurrency_margin + dict_persist_margin);
  // dict_persist_margin is 0 when no table has unpersisted dynamic metadata.
  m.free_check_margin = SnToLsn(m.concurrency_margin);
  // log_free_check_capacity / log_files_capacity_get_limits.
  m.limit_for_free_check = AlignDown(m.soft - m.free_check_margin, kBlockSize);
  m.limit_for_dirty_page_age = AlignDown(m.adaptive_flush_min_age - m.free_check_margin, kBlockSize);
  // log_sync_flush_lsn: current + margin - oldest > adaptive_flush_max_age.
  m.sync_flush_age = m.adaptive_flush_max_age - m.free_check_margin;
  return m;
}

MariaDbRedoLimits RedoLog::MariaDbLimitsFor(uint64_t log_file_size, uint64_t page_size) {
  // [Mb] log/log0log.cc log_t::set_capacity (10.11).
  constexpr uint64_t kStartOffset = 12288;  // log_t::START_OFFSET
  MariaDbRedoLimits m;
  m.log_file_size = log_file_size;
  uint64_t cap = log_file_size - kStartOffset;
  cap -= cap / 10;
  m.log_capacity = cap;
  uint64_t margin = cap - 48 * page_size;  // 48 pages (srv_page_size)
  margin -= margin / 10;
  m.max_checkpoint_age = margin;
  m.max_modified_age_async = margin - margin / 8;
  return m;
}

RedoLog::RedoLog(const ServerSettings& s)
    : flavor_(s.flavor), block_framing_(s.flavor == ServerFlavor::kMySql84) {
  mysql_ = MySqlLimitsFor(s.EffectiveRedoLogCapacity(), s.innodb_page_size,
                          s.innodb_thread_concurrency);
  mariadb_ = MariaDbLimitsFor(s.innodb_log_file_size, s.innodb_page_size);
  if (block_framing_) {
    // LOG_START_LSN (= 16 blocks) plus the first block's header.
    start_sn_ = LsnToSn(kStartLsn + kBlockHdrSize);
  } else {
    start_sn_ = kStartLsn;  // any non-zero start; MariaDB's FIRST_LSN is 12288
  }
  sn_ = start_sn_;
  lsn_ = block_framing_ ? SnToLsn(sn_) : sn_;
  last_checkpoint_lsn_ = lsn_;
}

uint64_t RedoLog::AvailableForCheckpoint(uint64_t oldest) const {
  if (oldest == 0) return lsn_;
  if (flavor_ == ServerFlavor::kMariaDb1011) return std::min(oldest, lsn_);
  const uint64_t lwm = oldest > kFlushOrderLag
                           ? std::max(last_checkpoint_lsn_, oldest - kFlushOrderLag)
                           : last_checkpoint_lsn_;
  return std::min(lwm, lsn_);
}

uint64_t RedoLog::MySqlSyncFlushLsn(uint64_t oldest_dirty_lsn) const {
  const uint64_t oldest = AvailableForCheckpoint(oldest_dirty_lsn);
  const uint64_t current = lsn_;
  if (current == oldest) return 0;
  uint64_t flush_up_to = oldest;
  const uint64_t margin = mysql_.free_check_margin;
  const uint64_t max_age = mysql_.adaptive_flush_max_age;
  if (current + margin - oldest > max_age) flush_up_to = current + margin - max_age;
  if (flush_up_to > current) flush_up_to = current;
  if (flush_up_to > oldest) return flush_up_to + kFlushOrderLag;
  return 0;
}

}  // namespace innosim
