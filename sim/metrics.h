// The InnoDB counters innosim simulates and `innosim measure` reads from a
// server: one table of their names, so that `run --json` (sim/report.cc),
// the measurement (tools/measure.cc), the comparison of the two
// (sim/cli/server_commands.cc), `experiment` (sim/experiment.cc) and `bench`
// (tools/bench.cc) spell each name once.
//
// A counter's `name` is the JSON key of `innosim run --json` and of
// `innosim measure --json`'s "measured" object; `server_name` is how the
// server spells it where a user reads it (`source`):
//   kInnodbMetrics  SELECT COUNT FROM information_schema.INNODB_METRICS
//                   WHERE NAME = server_name (a delta over the load)
//   kGlobalStatus   SHOW GLOBAL STATUS LIKE 'server_name' (a delta from
//                   before the load to after the final flush)
//   kIndexStats     SELECT stat_value FROM mysql.innodb_index_stats WHERE
//                   index_name = 'PRIMARY' AND stat_name = 'server_name'
//                   (after ANALYZE TABLE)
//   kTables         the server_name column of information_schema.TABLES
//                   (after ANALYZE TABLE)
// A `structural` counter follows from the B-tree's shape alone (which pages
// split, how many pages the index holds); it decides `measure`'s exit code
// (--tolerance). The others depend on timing (flushing) or on InnoDB's
// reorganisation heuristics and are shown for information.
//
// kInnodbCounters is in the order of `measure`'s comparison table;
// `measure` reads every counter of it but data_free.
#ifndef INNOSIM_SIM_METRICS_H_
#define INNOSIM_SIM_METRICS_H_

#include <string>
#include <vector>

namespace innosim {

enum class CounterSource { kInnodbMetrics, kGlobalStatus, kIndexStats, kTables };

struct InnodbCounter {
  const char* name;
  const char* server_name;
  CounterSource source;
  bool structural;
  // Simulated only with the flush model (`run` without --no-flush).
  bool needs_flush;
  const char* what;
};

namespace counters {

inline constexpr InnodbCounter kIndexPageSplits{
    "index_page_splits", "index_page_splits", CounterSource::kInnodbMetrics, true, false,
    "B-tree page splits (btr_page_split_and_insert), every level; inserts into the right sibling do not count"};
inline constexpr InnodbCounter kIndexPageReorgAttempts{
    "index_page_reorg_attempts", "index_page_reorg_attempts", CounterSource::kInnodbMetrics, false, false,
    "page reorganisations tried before a split (btr_page_reorganize)"};
inline constexpr InnodbCounter kIndexPageReorgSuccessful{
    "index_page_reorg_successful", "index_page_reorg_successful", CounterSource::kInnodbMetrics, false, false,
    "page reorganisations that made room for the record"};
inline constexpr InnodbCounter kIndexPageMergeAttempts{
    "index_page_merge_attempts", "index_page_merge_attempts", CounterSource::kInnodbMetrics, false, false,
    "page merges tried (btr_compress)"};
inline constexpr InnodbCounter kIndexPageMergeSuccessful{
    "index_page_merge_successful", "index_page_merge_successful", CounterSource::kInnodbMetrics, false, false,
    "page merges done"};
inline constexpr InnodbCounter kNLeafPages{
    "n_leaf_pages", "n_leaf_pages", CounterSource::kIndexStats, true, false,
    "leaf pages of PRIMARY"};
inline constexpr InnodbCounter kSize{
    "size", "size", CounterSource::kIndexStats, true, false,
    "pages reserved by PRIMARY's two file segments (leaf and non-leaf)"};
inline constexpr InnodbCounter kDataLength{
    "data_length", "DATA_LENGTH", CounterSource::kTables, false, false,
    "bytes of the clustered index (its size times the page size)"};
inline constexpr InnodbCounter kIndexLength{
    "index_length", "INDEX_LENGTH", CounterSource::kTables, false, false,
    "bytes of the secondary indexes"};
inline constexpr InnodbCounter kDataFree{
    "data_free", "DATA_FREE", CounterSource::kTables, false, false,
    "free bytes of the tablespace (free extents)"};
inline constexpr InnodbCounter kInnodbPagesWritten{
    "Innodb_pages_written", "Innodb_pages_written", CounterSource::kGlobalStatus, false, true,
    "pages written to data files (not the doublewrite buffer)"};
inline constexpr InnodbCounter kInnodbBufferPoolReads{
    "Innodb_buffer_pool_reads", "Innodb_buffer_pool_reads", CounterSource::kGlobalStatus, false, true,
    "pages read from disk because they were not in the buffer pool"};
inline constexpr InnodbCounter kBufferPageReadSystemPage{
    "buffer_page_read_system_page", "buffer_page_read_system_page", CounterSource::kInnodbMetrics, false, true,
    "of the reads, system pages: the rollback segment headers"};
inline constexpr InnodbCounter kBufferPageReadUndoLog{
    "buffer_page_read_undo_log", "buffer_page_read_undo_log", CounterSource::kInnodbMetrics, false, true,
    "of the reads, undo log pages"};
inline constexpr InnodbCounter kBufferPageWrittenSystemPage{
    "buffer_page_written_system_page", "buffer_page_written_system_page", CounterSource::kInnodbMetrics, false, true,
    "of the pages written, system pages: the rollback segment headers (MariaDB: the temporary tablespace's too)"};
inline constexpr InnodbCounter kBufferPageWrittenUndoLog{
    "buffer_page_written_undo_log", "buffer_page_written_undo_log", CounterSource::kInnodbMetrics, false, true,
    "of the pages written, undo log pages"};
inline constexpr InnodbCounter kInnodbDblwrPagesWritten{
    "Innodb_dblwr_pages_written", "Innodb_dblwr_pages_written", CounterSource::kGlobalStatus, false, true,
    "pages written to the doublewrite buffer"};

}  // namespace counters

inline constexpr InnodbCounter kInnodbCounters[] = {
    counters::kIndexPageSplits,       counters::kIndexPageReorgAttempts, counters::kIndexPageReorgSuccessful,
    counters::kIndexPageMergeAttempts, counters::kIndexPageMergeSuccessful, counters::kNLeafPages,
    counters::kSize,                  counters::kDataLength,             counters::kIndexLength,
    counters::kDataFree,              counters::kInnodbPagesWritten,     counters::kInnodbBufferPoolReads,
    counters::kBufferPageReadSystemPage, counters::kBufferPageReadUndoLog, counters::kBufferPageWrittenSystemPage,
    counters::kBufferPageWrittenUndoLog, counters::kInnodbDblwrPagesWritten,
};

// The server names of the counters read from `source`, in table order.
inline std::vector<const char*> ServerNames(CounterSource source) {
  std::vector<const char*> names;
  for (const InnodbCounter& c : kInnodbCounters) {
    if (c.source == source) names.push_back(c.server_name);
  }
  return names;
}

// The structural counters' names joined: "index_page_splits, n_leaf_pages,
// size" (`last` = ", ") or "index_page_splits, n_leaf_pages and size"
// (`last` = " and ").
inline std::string StructuralNames(const char* last = ", ") {
  std::vector<const char*> names;
  for (const InnodbCounter& c : kInnodbCounters) {
    if (c.structural) names.push_back(c.name);
  }
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += i + 1 == names.size() ? last : ", ";
    s += names[i];
  }
  return s;
}

}  // namespace innosim

#endif  // INNOSIM_SIM_METRICS_H_
