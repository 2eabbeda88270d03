#include "sim/innodb_driver.h"

#include <memory>
#include <optional>
#include <utility>

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "model/big_rec.h"
#include "model/page_format.h"
#include "sim/defaults_file.h"
#include "sim/metrics.h"
#include "sim/secondary_keys.h"

namespace innosim {

// Refuses a delete phase on a table whose rows have off-page columns at
// `page_size` (the engine cannot purge them).
absl::Status CheckOffPagePhases(const RunSpec& spec, const TableDef& table, uint32_t page_size);

namespace {

EngineOptions OptionsOf(const RunSpec& spec, const RunConfig& config) {
  EngineOptions options;
  if (spec.flush) options.flush = config.server;
  options.trx_rows = spec.trx_rows;
  options.count_page_writes = spec.page_writes;
  options.rows_per_sec = spec.rows_per_sec;
  options.end_wait_s = spec.end_wait_s;
  // OPTIMIZE TABLE's sorted build fills pages to innodb_fill_factor
  // (model/bulk_load.h), whether or not the flush model runs.
  options.fill_factor = static_cast<uint32_t>(config.server.innodb_fill_factor);
  return options;
}

}  // namespace

absl::Status InnodbCheck(const RunSpec& spec) {
  if (spec.page_size != 0 && !IsSupportedPageSize(spec.page_size)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "page size ", spec.page_size, " is not supported: use ", SupportedPageSizesInK(), " (", kUnivPageSizeMin,
        " ... ", kUnivPageSizeMax, ")"));
  }
  // --payload-bytes has no fixed cap: each VARCHAR/TEXT column takes at
  // most its declared length (sim/table_parser.cc, ER_DATA_TOO_LONG), and
  // a value too long for half a page goes off-page (model/big_rec.h).
  return absl::OkStatus();
}

absl::StatusOr<RunConfig> InnodbConfigure(const RunSpec& spec) {
  const std::optional<ServerFlavor> flavor = ServerFlavorByName(spec.profile);
  if (!flavor) return absl::InvalidArgumentError(absl::StrCat("profile '", spec.profile, "' is not InnoDB's"));
  ServerSettings settings = ServerSettings::Defaults(*flavor);
  for (const VariableAssignment& a : spec.settings) {
    absl::Status s = ApplyServerVariable(&settings, a.name, a.value, a.origin);
    if (!s.ok()) {
      const std::string sep = a.origin.rfind("--", 0) == 0 ? " " : ": ";
      return absl::InvalidArgumentError(absl::IsInvalidArgument(s)
                                            ? absl::StrCat(a.origin, sep, s.message())
                                            : absl::StrCat(a.origin, sep, a.name, "=", a.value, ": ", s.message()));
    }
  }
  // --page-size is the command line's innodb_page_size: two different
  // values on the command line are a contradiction, not a precedence.
  if (spec.page_size != 0 && settings.OriginOf("innodb_page_size") == "--set" &&
      settings.innodb_page_size != spec.page_size) {
    return absl::InvalidArgumentError(absl::StrCat("--page-size ", spec.page_size, " and --set innodb_page_size=",
                                                   settings.innodb_page_size, " disagree: give the page size once"));
  }
  if (spec.page_size != 0) {
    if (absl::Status s = settings.Set("innodb_page_size", absl::StrCat(spec.page_size), "--page-size"); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--page-size: ", s.message()));
    }
  }
  // The buffer pool's frames are simulated, not allocated, but a pool the
  // machine could not hold is a typo, not a what-if a server could run.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_bytes > 0) {
    const uint64_t memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_bytes);
    if (settings.innodb_buffer_pool_size > memory) {
      return absl::InvalidArgumentError(absl::StrCat(
          "innodb_buffer_pool_size=", settings.innodb_buffer_pool_size, " (", settings.OriginOf("innodb_buffer_pool_size"),
          ") is larger than this machine's memory (", memory, " bytes): give a size a server here could have"));
    }
  }
  RunConfig config{settings, EngineProfile::ForServer(settings)};
  return config;
}

namespace {

// InnodbPrepare without the driver: the table and the secondary entries'
// encoders, the table's schema in `def`.
absl::StatusOr<PreparedEngine> PrepareTable(const RunSpec& spec, RunConfig* config, int key_width, TableDef* def) {
  absl::StatusOr<TableSchema> schema = ResolveRunTable(spec, key_width, &config->server);
  if (!schema.ok()) return schema.status();
  if (absl::Status s = CheckOffPagePhases(spec, schema->def, static_cast<uint32_t>(config->server.innodb_page_size));
      !s.ok()) {
    return s;
  }
  PreparedEngine prepared;
  prepared.table_sql = TableSql(schema->def);
  // A row's wall time runs at rows_per_sec whether or not the engine keeps
  // a clock, unless a column's source has its own (time:R, key-time).
  for (size_t ix = 0; ix < schema->def.secondary.size(); ++ix) {
    prepared.encoders.push_back(std::make_unique<SecondaryKeyEncoder>(
        *schema, ix, spec.stream.start_ms, spec.rows_per_sec > 0 ? spec.rows_per_sec : 100000, spec.columns,
        spec.stream.rows_per_ms));
  }
  *def = schema->def;
  return prepared;
}

}  // namespace

absl::StatusOr<PreparedEngine> InnodbPrepare(const RunSpec& spec, RunConfig* config, int key_width) {
  TableDef def;
  absl::StatusOr<PreparedEngine> prepared = PrepareTable(spec, config, key_width, &def);
  if (!prepared.ok()) return prepared.status();
  prepared->driver = std::make_unique<InnodbDriver>(spec, *config, def);
  return prepared;
}

absl::StatusOr<PreparedEngine> InnodbPrepareShared(const std::vector<RunSpec>& specs, std::vector<RunConfig>* configs,
                                                   int key_width) {
  std::vector<RunConfig>& c = *configs;
  TableDef def;
  absl::StatusOr<PreparedEngine> prepared = PrepareTable(specs[0], &c[0], key_width, &def);
  if (!prepared.ok()) return prepared.status();
  const std::string table_sql = TableSql(def);
  for (size_t i = 1; i < specs.size(); ++i) {
    absl::StatusOr<TableSchema> other = ResolveRunTable(specs[i], key_width, &c[i].server);
    if (!other.ok()) return other.status();
    if (TableSql(other->def) != table_sql) return absl::FailedPreconditionError("the configurations' tables differ");
    // A secondary index's time columns take the row's wall time from the
    // insert rate (SecondaryKeyEncoder): different rates, different entries.
    if (!def.secondary.empty() && specs[i].rows_per_sec != specs[0].rows_per_sec) {
      return absl::FailedPreconditionError("rows_per_sec differs on a table with secondary indexes");
    }
    // ... or from the synthetic clock (time:R, key-time), which a stream
    // that ignores it may share with different settings (MayShareTree).
    if (!def.secondary.empty() && (specs[i].stream.rows_per_ms != specs[0].stream.rows_per_ms ||
                                   specs[i].stream.start_ms != specs[0].stream.start_ms)) {
      return absl::FailedPreconditionError("rows_per_ms differs on a table with secondary indexes");
    }
  }
  prepared->driver = std::make_unique<InnodbDriver>(specs, c, def);
  return prepared;
}

absl::Status InnodbCheckTable(const RunSpec& spec, int key_width) {
  // The row-size rules need the page size the run will have (--page-size,
  // --set innodb_page_size, a defaults file): the run's settings, when they
  // are valid (when not, the run says so itself).
  absl::StatusOr<RunConfig> config = InnodbConfigure(spec);
  const ServerSettings* settings = config.ok() ? &config->server : nullptr;
  absl::StatusOr<TableSchema> schema = ResolveRunTable(spec, key_width, settings);
  if (!schema.ok()) return schema.status();
  const uint32_t page_size = settings != nullptr ? static_cast<uint32_t>(settings->innodb_page_size)
                             : spec.page_size != 0 ? spec.page_size
                                                   : 16384;
  return CheckOffPagePhases(spec, schema->def, page_size);
}

absl::Status CheckOffPagePhases(const RunSpec& spec, const TableDef& table, uint32_t page_size) {
  const BigRec big = ConvertBigRec(table, page_size);
  // The off-page values alone must fit a tablespace: page numbers are 32
  // bits (FIL_NULL excluded), 64 TiB at 16 KiB pages.
  uint64_t pages_per_row = 0;
  const std::optional<ServerFlavor> flavor = ServerFlavorByName(spec.profile);
  for (uint32_t bytes : big.extern_bytes) {
    pages_per_row += ExternPagesFor(flavor.value_or(ServerFlavor::kMySql84), page_size, bytes).pages;
  }
  const uint64_t rows = RowsToInsert(spec);
  if (pages_per_row > 0 && rows > (uint64_t{kFilNull} - 1) / pages_per_row) {
    return absl::InvalidArgumentError(absl::StrCat(
        rows, " rows of ", pages_per_row, " off-page pages each need more pages than a tablespace can number (2^32 - 1, ",
        ((uint64_t{kFilNull} + 1) * page_size) >> 40, " TiB at ", page_size / 1024,
        " KiB pages): lower --rows or --payload-bytes"));
  }
  // A delete phase on rows with off-page columns would need purge to free
  // their pages, which the engine refuses (Engine::DeleteRow): say so
  // before the load rather than after it.
  if (!big.columns.empty()) {
    for (const PhaseSpec& ph : spec.phases) {
      if (ph.kind == PhaseSpec::Kind::kDeleteEvery || ph.kind == PhaseSpec::Kind::kDeletePhase ||
          ph.kind == PhaseSpec::Kind::kDeleteRange) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--phase ", ph.text, ": DELETE of rows with off-page columns is not modelled (purge would free their "
            "BLOB pages): drop the delete phase or shorten --payload-bytes"));
      }
    }
  }
  return absl::OkStatus();
}

InnodbDriver::InnodbDriver(const RunSpec& spec, const RunConfig& config, const TableDef& table)
    : engine_(config.profile, table, OptionsOf(spec, config)), settings_{config.server.Describe()} {}

namespace {

std::vector<EngineOptions> OptionsOfEach(const std::vector<RunSpec>& specs, const std::vector<RunConfig>& configs) {
  std::vector<EngineOptions> options;
  for (size_t i = 0; i < specs.size(); ++i) options.push_back(OptionsOf(specs[i], configs[i]));
  return options;
}

}  // namespace

InnodbDriver::InnodbDriver(const std::vector<RunSpec>& specs, const std::vector<RunConfig>& configs,
                           const TableDef& table)
    : engine_(configs[0].profile, table, OptionsOfEach(specs, configs)) {
  for (const RunConfig& c : configs) settings_.push_back(c.server.Describe());
}

void InnodbDriver::Sample(uint64_t rows, RunResult* result) {
  if (const FlushModel* fm = engine_.flush_model(); fm != nullptr) result->series.push_back({rows, fm->Snapshot()});
}

void InnodbDriver::RecordPhase(const PhaseSpec& phase, RunResult* result) {
  PhaseResult pr;
  pr.phase = phase;
  pr.report = engine_.Report();
  if (const FlushModel* fm = engine_.flush_model(); fm != nullptr) {
    pr.flush = fm->counters();
    pr.dirty_pages = fm->Snapshot().dirty_pages;
    pr.table_dirty_pages = fm->DirtyPagesOf(engine_.table_space());
  }
  result->phases.push_back(std::move(pr));
}

void InnodbDriver::FinishInstance(size_t i, RunResult* result) {
  if (const FlushModel* fm = engine_.flush_model(i); fm != nullptr) {
    result->flush = fm->counters();
    const BufferPool& pool = fm->buffer_pool();
    result->pages_written_by_space.table = pool.PagesWrittenOf(engine_.table_space());
    result->pages_written_by_space.undo = pool.PagesWrittenOf(Engine::kUndoPageEventSpace);
    result->pages_written_by_space.statistics_tables = pool.PagesWrittenOf(DictStats::kStatsPageEventSpace);
    result->pages_written_by_space.temporary = pool.PagesWrittenOf(UndoLogs::kTempSpaceKey);
  }
  if (const DictStats* stats = engine_.dict_stats(i); stats != nullptr) result->dict_stats = stats->counters();
  result->report = engine_.Report();
  result->settings_used = settings_[i];
}

bool InnodbPhaseFigure(const RunSpec& spec, std::string_view metric) {
  if (spec.flush) return false;
  static constexpr std::string_view kFigures[] = {
      counters::kIndexPageSplits.name, counters::kIndexPageReorgAttempts.name,
      counters::kIndexPageReorgSuccessful.name, counters::kIndexPageMergeAttempts.name,
      counters::kIndexPageMergeSuccessful.name, counters::kNLeafPages.name, counters::kSize.name,
      counters::kDataLength.name, counters::kIndexLength.name, counters::kDataFree.name,
      "height", "leaf_fill", "rows"};
  for (std::string_view f : kFigures) {
    if (metric == f) return true;
  }
  return false;
}

bool InnodbResultAtPhase(const RunResult& longer, size_t phases, RunResult* out) {
  if (phases == 0 || phases > longer.phases.size()) return false;
  *out = longer;
  out->report = longer.phases[phases - 1].report;
  if (phases == 1) {
    out->phases.clear();  // a plain run records no phase
  } else {
    out->phases.resize(phases);
  }
  return true;
}

TreeFigures InnodbTreeFigures(const RunResult& run) {
  TreeFigures f;
  const IndexReport& p = run.report.primary;
  f.rows = run.report.rows;
  f.page_size = run.spec.page_size;
  f.leaf_pages_name = "n_leaf_pages";
  f.leaf_fill_name = "leaf_fill";
  f.leaf_pages = p.n_leaf_pages;
  f.leaf_fill = p.leaf_fill;
  f.levels = p.height;
  // The clustered index holds the rows: DATA_LENGTH is both.
  f.primary_key_bytes = run.report.data_length;
  f.rows_bytes = run.report.data_length;
  f.secondary_bytes = run.report.index_length;
  f.total_bytes = run.report.data_length + run.report.index_length;
  f.sizes_note = "DATA_LENGTH (the clustered index holds the rows), INDEX_LENGTH";
  f.splits = {{"index_page_splits", p.counters.index_page_splits},
              {"to the right", p.counters.splits_to_right},
              {"to the left", p.counters.splits_to_left},
              {"at the middle", p.counters.splits_middle},
              {"root raises", p.counters.root_raises}};
  return f;
}

}  // namespace innosim
