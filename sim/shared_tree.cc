#include "sim/shared_tree.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "sim/engines.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

// The variables only an instance's own side reads: FlushModel (buffer pool
// and LRU, page cleaner, doublewrite, redo log), DictStats (the statistics
// recalculation) and what Describe() derives from them. Every other row of
// Describe() (the page size, the segment reserve, the fill factor, the
// character set a table takes, variables kept without an effect) must be
// equal for two configurations to share a tree.
bool InstanceOnly(std::string_view name) {
  static constexpr std::array<std::string_view, 27> kNames{
      "innodb_buffer_pool_size",       "innodb_buffer_pool_instances",
      "Innodb_buffer_pool_pages_total", "innodb_old_blocks_pct",
      "innodb_old_blocks_time",        "innodb_lru_scan_depth",
      "innodb_lru_flush_size",         "innodb_io_capacity",
      "innodb_io_capacity_max",        "innodb_max_dirty_pages_pct",
      "innodb_max_dirty_pages_pct_lwm", "innodb_adaptive_flushing",
      "innodb_adaptive_flushing_lwm",  "innodb_flushing_avg_loops",
      "innodb_flush_sync",             "innodb_idle_flush_pct",
      "innodb_flush_neighbors",        "storage_rotational",
      "innodb_doublewrite",            "innodb_redo_log_capacity",
      "innodb_log_file_size",          "innodb_log_files_in_group",
      "innodb_thread_concurrency",     "innodb_flush_log_at_trx_commit",
      "innodb_stats_persistent",       "innodb_stats_auto_recalc",
      "innodb_stats_persistent_sample_pages"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

std::map<std::string, std::string> TreeVariables(const ServerSettings& s) {
  std::map<std::string, std::string> out;
  for (const ServerSettings::Row& row : s.Describe()) {
    if (!InstanceOnly(row.name)) out[row.name] = row.value;
  }
  return out;
}

// The same keys: equal specs, or specs that differ only in the synthetic
// clock (rows_per_ms, start_ms) of a stream that does not read it (uuidv4,
// autoinc, ...). A table whose secondary index takes its times from that
// clock is the engine's to refuse (InnodbPrepareShared).
bool SameKeys(const StreamSpec& a, const StreamSpec& b) {
  if (a == b) return true;
  const StreamInfo* info = FindStream(a.name);
  if (info == nullptr || info->uses_clock) return false;
  StreamSpec clock_of_a = b;
  clock_of_a.rows_per_ms = a.rows_per_ms;
  clock_of_a.start_ms = a.start_ms;
  return a == clock_of_a;
}

}  // namespace

bool MayShareTree(const RunSpec& a, const RunConfig& ca, const RunSpec& b, const RunConfig& cb) {
  auto alone = [](const RunSpec& s) {
    return !s.flush || !s.phases.empty() || s.series_every != 0 || s.page_writes;
  };
  if (alone(a) || alone(b)) return false;
  if (!(SameKeys(a.stream, b.stream) && a.rows == b.rows && a.profile == b.profile && a.page_size == b.page_size &&
        a.table == b.table && a.payload_bytes == b.payload_bytes && a.payload_bytes_given == b.payload_bytes_given &&
        a.columns == b.columns)) {
    return false;
  }
  const EngineKind* kind = EngineKindFor(a.profile);
  return kind != nullptr && kind->shares_tree != nullptr && kind->prepare_shared != nullptr &&
         kind->shares_tree(ca, cb).ok();
}

absl::Status InnodbSharesTree(const RunConfig& a, const RunConfig& b) {
  if (!(a.profile == b.profile)) return absl::FailedPreconditionError("the engine profiles differ");
  const std::map<std::string, std::string> va = TreeVariables(a.server);
  const std::map<std::string, std::string> vb = TreeVariables(b.server);
  for (const auto& [name, value] : va) {
    auto it = vb.find(name);
    if (it == vb.end() || it->second != value) {
      return absl::FailedPreconditionError(absl::StrCat(name, " differs: ", value, " and ",
                                                        it == vb.end() ? "(unset)" : it->second));
    }
  }
  for (const auto& [name, value] : vb) {
    if (!va.contains(name)) return absl::FailedPreconditionError(absl::StrCat(name, " differs: (unset) and ", value));
  }
  return absl::OkStatus();
}

}  // namespace innosim
