// EngineProfile: the server-specific rules and defaults the model follows.
//
// Two profiles exist: "mysql-8.4" (what seed 000 measured) and
// "mariadb-10.11" (the server the tests run here). They share InnoDB's page
// format and split heuristics and differ where the servers' code differs;
// each field names the source of its value. The variables a profile shares
// with the server (innodb_page_size, innodb_segment_reserve_factor) come
// from the server's settings: ForServer() builds the profile of a
// ServerSettings, so a `--set` or a server's own value reaches the model by
// that one path.
//
// Value type; no thread-safety concerns.
#ifndef INNOSIM_MODEL_ENGINE_PROFILE_H_
#define INNOSIM_MODEL_ENGINE_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/page_format.h"  // IsSupportedPageSize
#include "model/server_settings.h"
#include "model/tablespace.h"

namespace innosim {

// Where index_page_splits is incremented.
enum class SplitCounting : uint8_t {
  // MySQL: MONITOR_INC(MONITOR_INDEX_SPLIT) at the exit of
  // btr_page_split_and_insert (btr/btr0btr.cc); the right-sibling shortcut,
  // which returns early, is not counted.
  kAtExitWithoutShortcut,
  // MariaDB 10.6+: buf_pool.pages_split++ at the entry of
  // btr_page_split_and_insert (btr/btr0btr.cc), before the shortcut is tried.
  kAtEntryWithShortcut,
};

// When index_page_reorg_attempts is incremented.
enum class ReorgCounting : uint8_t {
  // MySQL btr_page_reorganize_low: attempts at the start, successes at the end.
  kAttemptAtStart,
  // MariaDB btr_page_reorganize_low: both counters together, on success.
  kBothOnSuccess,
};

struct EngineProfile {
  std::string name;
  // innodb_page_size (server default 16384, both servers' documentation).
  uint32_t page_size = 16384;
  SplitCounting split_counting = SplitCounting::kAtExitWithoutShortcut;
  ReorgCounting reorg_counting = ReorgCounting::kAttemptAtStart;
  AllocationPolicy allocation = AllocationPolicy::kMySQL84;
  // innodb_segment_reserve_factor: 12.5 by default (MySQL 8.4 manual; the
  // FSEG_RESERVE_PCT_DFLT of include/fsp0fsp.h). MariaDB has no such variable:
  // its fsp0fsp.cc keeps the fixed 1/8 (FSEG_FILLFACTOR-era rule).
  double segment_reserve_pct = 12.5;
  // MERGE_THRESHOLD default 50 (% of the page), dict_index_t::merge_threshold
  // (DICT_INDEX_MERGE_THRESHOLD_DEFAULT in include/dict0mem.h), used by
  // BTR_CUR_PAGE_COMPRESS_LIMIT in btr_cur_compress_recommendation.
  uint32_t merge_threshold_pct = 50;
  // page_cur_delete_rec of the record last allocated from the heap (heap
  // number PAGE_N_HEAP - 1) gives its space back to the heap instead of
  // adding it to PAGE_FREE: MariaDB's page_mem_free (page/page0cur.cc; its
  // `deleting_top` branch). MySQL 8.4's page_mem_free always adds it to
  // PAGE_FREE (docs/innodb-rules.md, 'Free list and garbage'). It shows after a split to the
  // left (page_delete_rec_list_start deletes one record at a time): the old
  // page's heap can end a record shorter, and the page takes one insert more
  // before it splits again (MariaDB 10.11.19's .ibd files, uuidv4 loads).
  bool delete_reclaims_heap_top = false;

  // The server this profile models; its page allocation tells them apart.
  ServerFlavor flavor() const {
    return allocation == AllocationPolicy::kMariaDB1011 ? ServerFlavor::kMariaDb1011 : ServerFlavor::kMySql84;
  }

  bool operator==(const EngineProfile&) const = default;

  static EngineProfile MySQL84();
  static EngineProfile MariaDB1011();
  // "mysql-8.4" or "mariadb-10.11"; nullopt for anything else.
  static std::optional<EngineProfile> ByName(std::string_view name);
  static std::vector<std::string> Names();
  // The profile of `settings.flavor` with the server's page size and
  // segment reserve.
  static EngineProfile ForServer(const ServerSettings& settings);
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_ENGINE_PROFILE_H_
