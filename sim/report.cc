#include "sim/report.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "sim/metrics.h"
#include "sim/writers.h"

namespace innosim {

double DataLengthFillSeed000(const RunResult& r) {
  if (r.report.data_length == 0 || r.data_length_in_key_order == 0) return 0;
  // dict_index_get_space_reserve: appended pages keep 1/16 free, which is
  // where the seed's 15/16 comes from.
  return 15.0 / 16.0 * static_cast<double>(r.data_length_in_key_order) / static_cast<double>(r.report.data_length);
}

namespace {

// PRIMARY's INNODB_METRICS counters, its page counts and the table's
// lengths under InnoDB's names, as run --json and each phase report them.
// An index's five INNODB_METRICS index_page_* counters under their names.
void PutMetricsCounters(const IndexCounters& c, nlohmann::ordered_json* j) {
  (*j)[counters::kIndexPageSplits.name] = c.index_page_splits;
  (*j)[counters::kIndexPageReorgAttempts.name] = c.index_page_reorg_attempts;
  (*j)[counters::kIndexPageReorgSuccessful.name] = c.index_page_reorg_successful;
  (*j)[counters::kIndexPageMergeAttempts.name] = c.index_page_merge_attempts;
  (*j)[counters::kIndexPageMergeSuccessful.name] = c.index_page_merge_successful;
}

void PutIndexCounters(const EngineReport& report, nlohmann::ordered_json* j) {
  const IndexReport& p = report.primary;
  PutMetricsCounters(p.counters, j);
  (*j)[counters::kNLeafPages.name] = p.n_leaf_pages;
  (*j)[counters::kSize.name] = p.size;
  (*j)[counters::kDataLength.name] = report.data_length;
  (*j)[counters::kIndexLength.name] = report.index_length;
  (*j)[counters::kDataFree.name] = report.data_free;
  // The pages of off-page columns (model/big_rec.h), part of n_leaf_pages
  // and size above; only for a table that has them.
  if (report.extern_pages > 0) (*j)["extern_pages"] = report.extern_pages;
}

// The secondary indexes, one object each, as run --json (with INDEX_LENGTH,
// from `page_size`) and each phase (without) report them.
nlohmann::ordered_json SecondaryJson(const std::vector<IndexReport>& secondary, std::optional<uint32_t> page_size) {
  nlohmann::ordered_json sec = nlohmann::ordered_json::array();
  for (const IndexReport& ix : secondary) {
    nlohmann::ordered_json o;
    o["name"] = ix.name;
    if (page_size) o[counters::kIndexLength.name] = ix.size * *page_size;
    o[counters::kSize.name] = ix.size;
    o[counters::kNLeafPages.name] = ix.n_leaf_pages;
    o["height"] = ix.height;
    o["leaf_fill"] = ix.leaf_fill;
    PutMetricsCounters(ix.counters, &o);
    sec.push_back(std::move(o));
  }
  return sec;
}

// The splits by kind and the per-level census of an index, as run --json
// and each phase report them.
nlohmann::ordered_json SplitsJson(const IndexCounters& c) {
  return {{"to_right", c.splits_to_right}, {"to_left", c.splits_to_left},
          {"middle", c.splits_middle},     {"sure", c.splits_sure},
          {"right_sibling_inserts", c.right_sibling_inserts}, {"root_raises", c.root_raises}};
}

nlohmann::ordered_json LevelsJson(const IndexReport& p) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const LevelCensus& lc : p.levels) {
    levels.push_back({{"level", lc.level},
                      {"pages", lc.pages},
                      {"records", lc.records},
                      {"fill", lc.usable_bytes ? static_cast<double>(lc.data_bytes) / lc.usable_bytes : 0.0}});
  }
  return levels;
}

}  // namespace

namespace {

// The fields every run's JSON opens with, whatever its engine.
void PutRunHeader(const RunResult& r, uint64_t rows, nlohmann::ordered_json* out) {
  nlohmann::ordered_json& j = *out;
  j["stream"] = r.spec.stream.name;
  j["rows"] = rows;
  j["rows_per_ms"] = r.spec.stream.rows_per_ms;
  j["seed"] = r.spec.stream.seed;
  j["profile"] = r.spec.profile;
  j["page_size"] = r.spec.page_size;
  if (r.spec.stream.writers > 1) {
    j["writers"] = r.spec.stream.writers;
    j["clock_skew_ms"] = r.spec.stream.clock_skew_ms;
    j["clock_drift_ppm"] = r.spec.stream.clock_drift_ppm;
    j["interleave"] = InterleaveName(r.spec.stream.interleave);
    if (!r.spec.stream.writer_weights.empty()) j["writer_weights"] = r.spec.stream.writer_weights;
  }
  j["table"] = r.table;
  if (!r.spec.columns.empty()) {
    nlohmann::ordered_json cols = nlohmann::ordered_json::object();
    for (const ColumnSource& c : r.spec.columns) cols[c.column] = ColumnSourceText(c);
    j["columns"] = cols;
  }
}

// Another engine's run: the header, then the engine's own figures.
nlohmann::ordered_json EngineRunToJson(const RunResult& r) {
  nlohmann::ordered_json j;
  j["engine"] = r.engine_result->engine();
  PutRunHeader(r, static_cast<uint64_t>(r.engine_result->Metric("rows").value_or(0)), &j);
  const nlohmann::ordered_json figures = r.engine_result->ToJson();  // items() must not outlive it
  for (auto& [k, v] : figures.items()) {
    if (k != "rows") j[k] = v;
  }
  if (!r.warnings.empty()) j["warnings"] = r.warnings;
  j["elapsed_s"] = r.elapsed_s;
  return j;
}

}  // namespace

nlohmann::ordered_json RunToJson(const RunResult& r) {
  if (r.engine_result != nullptr) return EngineRunToJson(r);
  const IndexReport& p = r.report.primary;
  const IndexCounters& c = p.counters;
  nlohmann::ordered_json j;
  PutRunHeader(r, r.report.rows, &j);
  PutIndexCounters(r.report, &j);
  j["height"] = p.height;
  j["leaf_fill"] = p.leaf_fill;
  j["data_length_in_key_order"] = r.data_length_in_key_order;
  j["data_length_fill_seed000"] = DataLengthFillSeed000(r);
  if (r.spec.flush) {
    const FlushModel::Counters& f = r.flush;
    j[counters::kInnodbPagesWritten.name] = f.Innodb_pages_written;
    j[counters::kInnodbDblwrPagesWritten.name] = f.Innodb_dblwr_pages_written;
    j[counters::kInnodbBufferPoolReads.name] = f.Innodb_buffer_pool_reads;
    j[counters::kBufferPageReadSystemPage.name] = f.buffer_page_read_system_page;
    j[counters::kBufferPageReadUndoLog.name] = f.buffer_page_read_undo_log;
    j[counters::kBufferPageWrittenSystemPage.name] = f.buffer_page_written_system_page;
    j[counters::kBufferPageWrittenUndoLog.name] = f.buffer_page_written_undo_log;
    // Seed 000 divides pages written by the index's size.
    j["pages_written_per_page"] = p.size ? static_cast<double>(f.Innodb_pages_written) / p.size : 0.0;
    j["peak_dirty_pages"] = f.peak_dirty_pages;
    j["redo_bytes"] = f.redo_bytes;
    j["rows_per_sec"] = r.spec.rows_per_sec;
    const RunResult::PagesWrittenBySpace& w = r.pages_written_by_space;
    j["pages_written_by_space"] = {{"table", w.table},
                                   {"undo", w.undo},
                                   {"statistics_tables", w.statistics_tables},
                                   {"temporary", w.temporary},
                                   {"other", f.Innodb_pages_written - w.Sum()}};
  }
  if (r.dict_stats) {
    const DictStats::Counters& d = *r.dict_stats;
    nlohmann::ordered_json stats = {{"recalcs_persistent", d.recalcs_persistent},
                                    {"recalcs_transient", d.recalcs_transient},
                                    {"sampled_leaf_pages", d.dives}};
    // mysql.innodb_table_stats' n_rows and last_update as the last save
    // left them; none before the first.
    if (d.recalcs_persistent > 0) {
      stats["n_rows"] = d.last_saved_n_rows;
      stats["last_update_s"] = d.last_saved_s;
    } else {
      stats["n_rows"] = nullptr;
      stats["last_update_s"] = nullptr;
    }
    j["dict_stats"] = stats;
  }
  j["splits"] = SplitsJson(c);
  j["levels"] = LevelsJson(p);
  if (!r.report.secondary.empty()) j["secondary"] = SecondaryJson(r.report.secondary, r.spec.page_size);
  if (!r.settings_used.empty()) {
    // name -> value as SHOW VARIABLES has it; where each came from; and the
    // variables accepted without an effect in the model.
    nlohmann::ordered_json settings = nlohmann::ordered_json::object();
    nlohmann::ordered_json origin = nlohmann::ordered_json::object();
    nlohmann::ordered_json no_effect = nlohmann::ordered_json::array();
    for (const ServerSettings::Row& row : r.settings_used) {
      settings[row.name] = row.value;
      origin[row.name] = row.origin;
      if (!row.modelled) no_effect.push_back(row.name);
    }
    j["settings"] = settings;
    j["settings_origin"] = origin;
    j["settings_no_effect"] = no_effect;
  }
  j["elapsed_s"] = r.elapsed_s;
  if (!r.phases.empty()) j["phases"] = PhasesToJson(r);
  return j;
}

nlohmann::ordered_json PhasesToJson(const RunResult& r) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const PhaseResult& ph : r.phases) {
    const IndexReport& p = ph.report.primary;
    const IndexCounters& c = p.counters;
    nlohmann::ordered_json j;
    j["phase"] = ph.phase.text;
    j["rows"] = ph.report.rows;
    PutIndexCounters(ph.report, &j);
    j["file_size"] = ph.report.file_size;
    j["height"] = p.height;
    j["leaf_fill"] = p.leaf_fill;
    j["pages_allocated"] = c.pages_allocated;
    j["pages_freed"] = c.pages_freed;
    if (r.spec.flush) {
      j[counters::kInnodbPagesWritten.name] = ph.flush.Innodb_pages_written;
      j[counters::kInnodbDblwrPagesWritten.name] = ph.flush.Innodb_dblwr_pages_written;
      j[counters::kInnodbBufferPoolReads.name] = ph.flush.Innodb_buffer_pool_reads;
      j["redo_bytes"] = ph.flush.redo_bytes;
      j["Innodb_buffer_pool_pages_dirty"] = ph.dirty_pages;
      j["table_dirty_pages"] = ph.table_dirty_pages;
    }
    j["splits"] = SplitsJson(c);
    j["levels"] = LevelsJson(p);
    if (!ph.report.secondary.empty()) j["secondary"] = SecondaryJson(ph.report.secondary, std::nullopt);
    phases.push_back(j);
  }
  return phases;
}

std::string PhasesSummary(const RunResult& r) {
  if (r.phases.empty()) return "";
  std::string s = "\n  phases (every counter after each; PRIMARY's figures, cumulative counters)\n";
  absl::StrAppendFormat(&s, "  %-3s %-34s %12s %12s %10s %12s %10s %14s %6s %9s\n", "#", "phase", "rows",
                        counters::kIndexPageSplits.name, "merges", counters::kNLeafPages.name, counters::kSize.name,
                        counters::kDataLength.server_name, "height", "leaf_fill");
  for (size_t i = 0; i < r.phases.size(); ++i) {
    const PhaseResult& ph = r.phases[i];
    const IndexReport& p = ph.report.primary;
    absl::StrAppendFormat(&s, "  %-3d %-34s %12d %12d %10d %12d %10d %14d %6d %8.1f%%\n", i + 1, ph.phase.text,
                          ph.report.rows, p.counters.index_page_splits, p.counters.index_page_merge_successful,
                          p.n_leaf_pages, p.size, ph.report.data_length, p.height, 100.0 * p.leaf_fill);
    for (const IndexReport& ix : ph.report.secondary) {
      absl::StrAppendFormat(&s, "      %-34s %12s %12d %10d %12d %10d %14d %6d %8.1f%%\n",
                            absl::StrCat("  index ", ix.name), "", ix.counters.index_page_splits,
                            ix.counters.index_page_merge_successful, ix.n_leaf_pages, ix.size,
                            ix.size * r.spec.page_size, ix.height, 100.0 * ix.leaf_fill);
    }
  }
  return s;
}

IndexCounters TableIndexCounters(const EngineReport& report) {
  IndexCounters t = report.primary.counters;
  for (const IndexReport& ix : report.secondary) {
    t.index_page_splits += ix.counters.index_page_splits;
    t.index_page_reorg_attempts += ix.counters.index_page_reorg_attempts;
    t.index_page_reorg_successful += ix.counters.index_page_reorg_successful;
    t.index_page_merge_attempts += ix.counters.index_page_merge_attempts;
    t.index_page_merge_successful += ix.counters.index_page_merge_successful;
  }
  return t;
}

std::optional<uint64_t> MetricsCounter(const IndexCounters& c, std::string_view name) {
  if (name == counters::kIndexPageSplits.name) return c.index_page_splits;
  if (name == counters::kIndexPageReorgAttempts.name) return c.index_page_reorg_attempts;
  if (name == counters::kIndexPageReorgSuccessful.name) return c.index_page_reorg_successful;
  if (name == counters::kIndexPageMergeAttempts.name) return c.index_page_merge_attempts;
  if (name == counters::kIndexPageMergeSuccessful.name) return c.index_page_merge_successful;
  return std::nullopt;
}

std::optional<uint64_t> SimulatedCounter(const RunResult& r, const InnodbCounter& counter) {
  const IndexReport& p = r.report.primary;
  const std::string_view name = counter.name;
  if (std::optional<uint64_t> v = MetricsCounter(p.counters, name)) return v;
  if (name == counters::kNLeafPages.name) return p.n_leaf_pages;
  if (name == counters::kSize.name) return p.size;
  if (name == counters::kDataLength.name) return r.report.data_length;
  if (name == counters::kIndexLength.name) return r.report.index_length;
  if (name == counters::kDataFree.name) return r.report.data_free;
  if (!r.spec.flush) return std::nullopt;
  if (name == counters::kInnodbPagesWritten.name) return r.flush.Innodb_pages_written;
  if (name == counters::kInnodbDblwrPagesWritten.name) return r.flush.Innodb_dblwr_pages_written;
  if (name == counters::kInnodbBufferPoolReads.name) return r.flush.Innodb_buffer_pool_reads;
  if (name == counters::kBufferPageReadSystemPage.name) return r.flush.buffer_page_read_system_page;
  if (name == counters::kBufferPageReadUndoLog.name) return r.flush.buffer_page_read_undo_log;
  if (name == counters::kBufferPageWrittenSystemPage.name) return r.flush.buffer_page_written_system_page;
  if (name == counters::kBufferPageWrittenUndoLog.name) return r.flush.buffer_page_written_undo_log;
  return std::nullopt;
}

std::string SettingsTable(const std::vector<ServerSettings::Row>& rows) {
  std::string s = "\n  settings (as SHOW VARIABLES names them; where each value came from)\n";
  for (const ServerSettings::Row& row : rows) {
    absl::StrAppendFormat(&s, "    %-32s %-14s %s%s\n", row.name, row.value, row.origin,
                          row.modelled ? "" : "   [accepted, no effect in the model]");
  }
  return s;
}

std::string RunSummary(const RunResult& r) {
  const IndexReport& p = r.report.primary;
  const IndexCounters& c = p.counters;
  std::string s;
  const uint64_t rows =
      r.engine_result != nullptr ? static_cast<uint64_t>(r.engine_result->Metric("rows").value_or(0)) : r.report.rows;
  absl::StrAppendFormat(&s, "innosim run: %s, %d rows, rows_per_ms %d, seed %d, profile %s, page size %d\n",
                        r.spec.stream.name, rows, r.spec.stream.rows_per_ms, r.spec.stream.seed,
                        r.spec.profile, r.spec.page_size);
  if (r.spec.stream.writers > 1) {
    absl::StrAppendFormat(&s, "writers: %d, clock skew %g ms, clock drift %g ppm, interleave %s\n",
                          r.spec.stream.writers, r.spec.stream.clock_skew_ms, r.spec.stream.clock_drift_ppm,
                          InterleaveName(r.spec.stream.interleave));
  }
  absl::StrAppendFormat(&s, "table: %s\n", r.table);
  if (!r.spec.columns.empty()) {
    std::vector<std::string> cols;
    for (const ColumnSource& c : r.spec.columns) cols.push_back(absl::StrCat(c.column, "=", ColumnSourceText(c)));
    absl::StrAppendFormat(&s, "columns: %s\n", absl::StrJoin(cols, ", "));
  }
  // Warnings (clamped settings and the like) go to stderr: the caller's.
  s += "\n";
  if (r.engine_result != nullptr) return s + r.engine_result->Summary();
  absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kIndexPageSplits.name, c.index_page_splits);
  absl::StrAppendFormat(&s, "    %-26s %14d\n", "to the right", c.splits_to_right);
  absl::StrAppendFormat(&s, "    %-26s %14d\n", "to the left", c.splits_to_left);
  absl::StrAppendFormat(&s, "    %-26s %14d\n", "at the middle", c.splits_middle);
  absl::StrAppendFormat(&s, "    %-26s %14d  (not counted as splits by MySQL)\n", "into the right sibling",
                        c.right_sibling_inserts);
  absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kIndexPageReorgAttempts.name,
                        c.index_page_reorg_attempts);
  absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kIndexPageMergeAttempts.name,
                        c.index_page_merge_attempts);
  absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kNLeafPages.name, p.n_leaf_pages);
  if (r.report.extern_pages > 0) {
    absl::StrAppendFormat(&s, "  %-28s %14d  (off-page column pages, among n_leaf_pages)\n", "extern_pages",
                          r.report.extern_pages);
  }
  absl::StrAppendFormat(&s, "  %-28s %14d  (pages reserved by PRIMARY)\n", counters::kSize.name, p.size);
  absl::StrAppendFormat(&s, "  %-28s %14d  (%.2f GB)\n", counters::kDataLength.server_name, r.report.data_length,
                        r.report.data_length / 1e9);
  absl::StrAppendFormat(&s, "  %-28s %14d\n", "height", p.height);
  absl::StrAppendFormat(&s, "  %-28s %13.1f%%  (used / usable bytes on the leaf pages)\n", "leaf_fill",
                        100.0 * p.leaf_fill);
  // Seed 000's "fill factor" is a size ratio, not a page fill: printed
  // beside the leaf fill under a name that says so (docs/how-page-splits-work.md).
  if (r.data_length_in_key_order > 0) {
    absl::StrAppendFormat(&s,
                          "  %-28s %13.1f%%  (seed 000's \"fill\": 15/16 x DATA_LENGTH in key order / DATA_LENGTH)\n",
                          "data_length_fill_seed000", 100.0 * DataLengthFillSeed000(r));
    absl::StrAppendFormat(&s, "  %-28s %14d  (%.2f GB: the same rows appended in key order)\n",
                          "DATA_LENGTH in key order", r.data_length_in_key_order, r.data_length_in_key_order / 1e9);
  }
  s += "\n  level      pages        records    fill\n";
  for (const LevelCensus& lc : p.levels) {
    absl::StrAppendFormat(&s, "  %5d %10d %14d  %5.1f%%\n", lc.level, lc.pages, lc.records,
                          lc.usable_bytes ? 100.0 * lc.data_bytes / lc.usable_bytes : 0.0);
  }
  for (const IndexReport& ix : r.report.secondary) {
    absl::StrAppendFormat(&s, "\n  secondary index %s: %d pages reserved (INDEX_LENGTH %d), %d leaf pages, "
                          "height %d, leaf_fill %.1f%%, %d splits, %d merge attempts (%d successful)\n",
                          ix.name, ix.size, ix.size * r.spec.page_size, ix.n_leaf_pages, ix.height,
                          100.0 * ix.leaf_fill, ix.counters.index_page_splits, ix.counters.index_page_merge_attempts,
                          ix.counters.index_page_merge_successful);
  }
  if (r.spec.flush) {
    const FlushModel::Counters& f = r.flush;
    absl::StrAppendFormat(&s, "\n  flushing (simulated at %.0f rows/s)\n", r.spec.rows_per_sec);
    absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kInnodbPagesWritten.name, f.Innodb_pages_written);
    absl::StrAppendFormat(&s, "  %-28s %14.2f\n", "pages written per page", p.size ? double(f.Innodb_pages_written) / p.size : 0.0);
    absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kInnodbDblwrPagesWritten.name,
                          f.Innodb_dblwr_pages_written);
    absl::StrAppendFormat(&s, "  %-28s %14d\n", counters::kInnodbBufferPoolReads.name,
                          f.Innodb_buffer_pool_reads);
    absl::StrAppendFormat(&s, "    of them: system pages (rollback segment headers) %d, undo log pages %d\n",
                          f.buffer_page_read_system_page, f.buffer_page_read_undo_log);
    absl::StrAppendFormat(&s, "  pages written by type: system pages (rollback segment headers) %d, undo log pages %d\n",
                          f.buffer_page_written_system_page, f.buffer_page_written_undo_log);
    absl::StrAppendFormat(&s, "  %-28s %14d\n", "peak dirty pages", f.peak_dirty_pages);
    absl::StrAppendFormat(&s, "  %-28s %14d\n", "redo bytes", f.redo_bytes);
    const RunResult::PagesWrittenBySpace& w = r.pages_written_by_space;
    absl::StrAppendFormat(&s, "  pages written by space: table %d, undo logs %d, statistics tables %d, temporary %d, "
                          "other %d\n", w.table, w.undo, w.statistics_tables, w.temporary,
                          f.Innodb_pages_written - w.Sum());
  }
  if (r.dict_stats) {
    const DictStats::Counters& d = *r.dict_stats;
    absl::StrAppendFormat(&s, "  statistics recalculations: %d persistent, %d transient, %d leaf pages sampled",
                          d.recalcs_persistent, d.recalcs_transient, d.dives);
    if (d.recalcs_persistent > 0) {
      absl::StrAppendFormat(&s, "; the last at %.1f s saved n_rows %d", d.last_saved_s, d.last_saved_n_rows);
    }
    s += "\n";
  }
  s += PhasesSummary(r);
  s += SettingsTable(r.settings_used);
  absl::StrAppendFormat(&s, "\n  simulated in %.2f s\n", r.elapsed_s);
  return s;
}

std::string EngineSweepTable(const std::vector<RunResult>& runs) {
  if (runs.empty() || runs[0].engine_result == nullptr) return "";
  const std::vector<std::string> columns = runs[0].engine_result->SweepColumns();
  std::string out = absl::StrFormat("%12s", "rows_per_ms");
  for (const std::string& c : columns) absl::StrAppendFormat(&out, " %18s", c);
  out += "\n";
  for (const RunResult& r : runs) {
    absl::StrAppendFormat(&out, "%12d", r.spec.stream.rows_per_ms);
    for (const std::string& c : columns) {
      const std::optional<double> v = r.engine_result->Metric(c);
      if (!v) {
        absl::StrAppendFormat(&out, " %18s", "-");
      } else if (*v == static_cast<double>(static_cast<int64_t>(*v))) {
        absl::StrAppendFormat(&out, " %18d", static_cast<int64_t>(*v));
      } else {
        absl::StrAppendFormat(&out, " %18.2f", *v);
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace innosim
