#include "sim/postgres_driver.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/postgres/heap.h"
#include "model/postgres/page_layout.h"
#include "sim/pg_entry_encoder.h"
#include "sim/pg_table_parser.h"
#include "sim/stream_registry.h"

namespace innosim {
namespace {

using postgres::PgIndexReport;
using postgres::PgTableReport;
using postgres::SplitKind;

constexpr SplitKind kSplitKinds[] = {SplitKind::kRightmostFillfactor, SplitKind::kFiftyFifty,
                                     SplitKind::kAfterNewItem, SplitKind::kManyDuplicates,
                                     SplitKind::kSingleValue};

// pgstatindex prints avg_leaf_density and leaf_fragmentation with two
// decimals (pgstatindex.c: snprintf "%.2f"); the JSON carries them so.
double TwoDecimals(double v) { return std::round(v * 100.0) / 100.0; }

nlohmann::ordered_json IoJson(const PgTableReport& r);
nlohmann::ordered_json SettingsJson(const PgTableReport& r);

postgres::WalCounters WalDelta(const postgres::WalCounters& now, const postgres::WalCounters& before) {
  postgres::WalCounters d;
  d.wal_records = now.wal_records - before.wal_records;
  d.wal_fpi = now.wal_fpi - before.wal_fpi;
  d.wal_bytes = now.wal_bytes - before.wal_bytes;
  d.wal_lsn_bytes = now.wal_lsn_bytes - before.wal_lsn_bytes;
  return d;
}

// pg_stat_wal's names; wal_lsn_diff is pg_wal_lsn_diff() of
// pg_current_wal_insert_lsn() across the same span.
void PutWal(const postgres::WalCounters& w, nlohmann::ordered_json* j) {
  (*j)["wal_records"] = w.wal_records;
  (*j)["wal_fpi"] = w.wal_fpi;
  (*j)["wal_bytes"] = w.wal_bytes;
  (*j)["wal_lsn_diff"] = w.wal_lsn_bytes;
}

// pg_buffercache's isdirty census by relation name: the heap (its main
// fork), then each index.
nlohmann::ordered_json DirtyJson(const PgTableReport& r) {
  nlohmann::ordered_json d = nlohmann::ordered_json::object();
  d[r.heap_name] = r.heap_dirty_blocks;
  for (const PgIndexReport& ix : r.indexes) d[ix.name] = ix.dirty_blocks;
  return d;
}

nlohmann::ordered_json IndexJson(const PgIndexReport& ix) {
  const postgres::PgStatIndex& s = ix.stat;
  nlohmann::ordered_json j;
  j["name"] = ix.name;
  j["unique"] = ix.unique;
  // pgstatindex()'s columns, in its order.
  j["version"] = s.version;
  j["tree_level"] = s.tree_level;
  j["index_size"] = s.index_size;
  j["root_block_no"] = s.root_block_no;
  j["internal_pages"] = s.internal_pages;
  j["leaf_pages"] = s.leaf_pages;
  j["empty_pages"] = s.empty_pages;
  j["deleted_pages"] = s.deleted_pages;
  j["avg_leaf_density"] = TwoDecimals(s.avg_leaf_density);
  j["leaf_fragmentation"] = TwoDecimals(s.leaf_fragmentation);
  // pg_class.relpages of the index: its blocks, the metapage included.
  j["relpages"] = s.relpages;
  nlohmann::ordered_json leaf = nlohmann::ordered_json::object();
  nlohmann::ordered_json internal = nlohmann::ordered_json::object();
  for (SplitKind k : kSplitKinds) {
    leaf[postgres::SplitKindName(k)] = ix.counters.leaf_splits[static_cast<int>(k)];
    internal[postgres::SplitKindName(k)] = ix.counters.internal_splits[static_cast<int>(k)];
  }
  j["leaf_splits"] = leaf;
  j["internal_splits"] = internal;
  j["new_roots"] = ix.counters.new_roots;
  j["dedup_passes"] = ix.counters.dedup_passes;
  j["fastpath_inserts"] = ix.counters.fastpath_inserts;
  j["dirty_blocks"] = ix.dirty_blocks;
  return j;
}

nlohmann::ordered_json TableJson(const PgTableReport& r) {
  nlohmann::ordered_json j;
  j["rows"] = r.rows;
  nlohmann::ordered_json heap;
  heap["relpages"] = r.heap_relpages;
  heap["pg_relation_size"] = r.heap_pg_relation_size;
  heap["dirty_blocks"] = r.heap_dirty_blocks;
  j["heap"] = heap;
  PutWal(r.wal, &j);
  j["dirty_blocks"] = DirtyJson(r);
  nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
  for (const PgIndexReport& ix : r.indexes) indexes.push_back(IndexJson(ix));
  j["indexes"] = indexes;
  if (r.has_io) {
    j["io"] = IoJson(r);
    const nlohmann::ordered_json settings = SettingsJson(r);
    for (auto it = settings.begin(); it != settings.end(); ++it) j[it.key()] = it.value();
  }
  return j;
}

uint64_t Splits(const uint64_t (&by_kind)[5]) {
  uint64_t n = 0;
  for (uint64_t v : by_kind) n += v;
  return n;
}

// The figures Metric answers for one index, by pgstatindex's names.
std::optional<double> IndexMetric(const PgIndexReport& ix, std::string_view name) {
  const postgres::PgStatIndex& s = ix.stat;
  if (name == "tree_level") return s.tree_level;
  if (name == "index_size") return static_cast<double>(s.index_size);
  if (name == "root_block_no") return s.root_block_no;
  if (name == "internal_pages") return static_cast<double>(s.internal_pages);
  if (name == "leaf_pages") return static_cast<double>(s.leaf_pages);
  if (name == "empty_pages") return static_cast<double>(s.empty_pages);
  if (name == "deleted_pages") return static_cast<double>(s.deleted_pages);
  if (name == "avg_leaf_density") return TwoDecimals(s.avg_leaf_density);
  if (name == "leaf_fragmentation") return TwoDecimals(s.leaf_fragmentation);
  if (name == "relpages") return static_cast<double>(s.relpages);
  if (name == "leaf_splits") return static_cast<double>(Splits(ix.counters.leaf_splits));
  if (name == "internal_splits") return static_cast<double>(Splits(ix.counters.internal_splits));
  if (name == "new_roots") return static_cast<double>(ix.counters.new_roots);
  if (name == "dirty_blocks") return static_cast<double>(ix.dirty_blocks);
  if (name == "idx_blks_read") return static_cast<double>(ix.io.blks_read);
  if (name == "idx_blks_hit") return static_cast<double>(ix.io.blks_hit);
  return std::nullopt;
}

constexpr const char* kIndexMetricNames[] = {"tree_level",     "index_size",         "root_block_no", "internal_pages",
                                             "leaf_pages",     "empty_pages",        "deleted_pages",
                                             "avg_leaf_density", "leaf_fragmentation", "relpages",
                                             "leaf_splits",    "internal_splits",    "new_roots",
                                             "dirty_blocks",   "idx_blks_read",      "idx_blks_hit"};

std::optional<double> WalMetric(const postgres::WalCounters& w, std::string_view name) {
  if (name == "wal_records") return static_cast<double>(w.wal_records);
  if (name == "wal_fpi") return static_cast<double>(w.wal_fpi);
  if (name == "wal_bytes") return static_cast<double>(w.wal_bytes);
  if (name == "wal_lsn_diff") return static_cast<double>(w.wal_lsn_bytes);
  return std::nullopt;
}

constexpr const char* kWalMetricNames[] = {"wal_records", "wal_fpi", "wal_bytes", "wal_lsn_diff"};

// The I/O counters of `now` less those of `before` (the rest is `now`'s).
PgTableReport IoDelta(const PgTableReport& now, const PgTableReport& before) {
  PgTableReport d = now;
  auto sub = [](uint64_t& a, uint64_t b) { a -= b; };
  sub(d.heap_io.blks_read, before.heap_io.blks_read);
  sub(d.heap_io.blks_hit, before.heap_io.blks_hit);
  for (size_t i = 0; i < d.indexes.size() && i < before.indexes.size(); ++i) {
    sub(d.indexes[i].io.blks_read, before.indexes[i].io.blks_read);
    sub(d.indexes[i].io.blks_hit, before.indexes[i].io.blks_hit);
  }
  postgres::BufferCounters& b = d.io.buffers;
  const postgres::BufferCounters& o = before.io.buffers;
  sub(b.buffers_alloc, o.buffers_alloc);
  sub(b.backend_writes, o.backend_writes);
  sub(b.extends, o.extends);
  sub(b.reads, o.reads);
  sub(b.buffers_checkpoint, o.buffers_checkpoint);
  sub(b.buffers_clean, o.buffers_clean);
  sub(b.maxwritten_clean, o.maxwritten_clean);
  sub(b.buffers_backend, o.buffers_backend);
  sub(d.io.checkpoints.checkpoints_timed, before.io.checkpoints.checkpoints_timed);
  sub(d.io.checkpoints.checkpoints_req, before.io.checkpoints.checkpoints_req);
  sub(d.io.checkpoints.checkpoints_done, before.io.checkpoints.checkpoints_done);
  return d;
}

bool IsPg15(const PgTableReport& r) { return r.profile == postgres::kPostgresql15.name; }

// The server's I/O views under the profile's names: REL_15's
// pg_stat_bgwriter; REL_18's pg_stat_checkpointer, pg_stat_bgwriter and
// pg_stat_io (client backend, relation, normal context); and both
// profiles' pg_statio_user_tables of the heap and idx_blks_* per index.
nlohmann::ordered_json IoJson(const PgTableReport& r) {
  nlohmann::ordered_json j;
  const postgres::BufferCounters& b = r.io.buffers;
  const postgres::CheckpointCounters& c = r.io.checkpoints;
  if (IsPg15(r)) {
    nlohmann::ordered_json bg;
    bg["checkpoints_timed"] = c.checkpoints_timed;
    bg["checkpoints_req"] = c.checkpoints_req;
    bg["buffers_checkpoint"] = b.buffers_checkpoint;
    bg["buffers_clean"] = b.buffers_clean;
    bg["maxwritten_clean"] = b.maxwritten_clean;
    bg["buffers_backend"] = b.buffers_backend;
    bg["buffers_alloc"] = b.buffers_alloc;
    j["pg_stat_bgwriter"] = bg;
  } else {
    nlohmann::ordered_json ck;
    ck["num_timed"] = c.checkpoints_timed;
    ck["num_requested"] = c.checkpoints_req;
    ck["num_done"] = c.checkpoints_done;
    ck["buffers_written"] = b.buffers_checkpoint;
    j["pg_stat_checkpointer"] = ck;
    nlohmann::ordered_json bg;
    bg["buffers_clean"] = b.buffers_clean;
    bg["maxwritten_clean"] = b.maxwritten_clean;
    bg["buffers_alloc"] = b.buffers_alloc;
    j["pg_stat_bgwriter"] = bg;
    nlohmann::ordered_json io;
    io["reads"] = b.reads;
    io["writes"] = b.backend_writes;
    io["extends"] = b.extends;
    j["pg_stat_io"] = io;
  }
  nlohmann::ordered_json statio;
  nlohmann::ordered_json heap;
  heap["relname"] = r.heap_name;
  heap["heap_blks_read"] = r.heap_io.blks_read;
  heap["heap_blks_hit"] = r.heap_io.blks_hit;
  uint64_t idx_read = 0, idx_hit = 0;
  for (const PgIndexReport& ix : r.indexes) {
    idx_read += ix.io.blks_read;
    idx_hit += ix.io.blks_hit;
  }
  heap["idx_blks_read"] = idx_read;
  heap["idx_blks_hit"] = idx_hit;
  statio["pg_statio_user_tables"] = heap;
  nlohmann::ordered_json idx = nlohmann::ordered_json::array();
  for (const PgIndexReport& ix : r.indexes) {
    nlohmann::ordered_json i;
    i["indexrelname"] = ix.name;
    i["idx_blks_read"] = ix.io.blks_read;
    i["idx_blks_hit"] = ix.io.blks_hit;
    idx.push_back(i);
  }
  statio["pg_statio_user_indexes"] = idx;
  j["statio"] = statio;
  // The model's own: blocks written in all (checkpointer, background
  // writer, backend victims; extensions apart) and the simulated clock.
  j["blocks_written"] = b.buffers_checkpoint + b.buffers_clean + b.backend_writes;
  j["clock_s"] = r.io.clock_s;
  return j;
}

nlohmann::ordered_json SettingsJson(const PgTableReport& r) {
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  nlohmann::ordered_json origin = nlohmann::ordered_json::object();
  for (const postgres::PgSettings::Row& row : r.io.settings) {
    s[row.name] = row.value;
    if (row.origin != "default") origin[row.name] = row.origin;
  }
  nlohmann::ordered_json j;
  j["settings"] = s;
  j["settings_origin"] = origin;
  return j;
}

// I/O figures by name for Metric: the profile's view names and the statio ones.
std::optional<double> IoMetric(const PgTableReport& r, std::string_view name) {
  if (!r.has_io) return std::nullopt;
  const postgres::BufferCounters& b = r.io.buffers;
  const postgres::CheckpointCounters& c = r.io.checkpoints;
  auto d = [](uint64_t v) { return std::optional<double>(static_cast<double>(v)); };
  if (name == "buffers_clean") return d(b.buffers_clean);
  if (name == "maxwritten_clean") return d(b.maxwritten_clean);
  if (name == "buffers_alloc") return d(b.buffers_alloc);
  if (name == "heap_blks_read") return d(r.heap_io.blks_read);
  if (name == "heap_blks_hit") return d(r.heap_io.blks_hit);
  if (name == "blocks_written") return d(b.buffers_checkpoint + b.buffers_clean + b.backend_writes);
  if (IsPg15(r)) {
    if (name == "checkpoints_timed") return d(c.checkpoints_timed);
    if (name == "checkpoints_req") return d(c.checkpoints_req);
    if (name == "buffers_checkpoint") return d(b.buffers_checkpoint);
    if (name == "buffers_backend") return d(b.buffers_backend);
  } else {
    if (name == "num_timed") return d(c.checkpoints_timed);
    if (name == "num_requested") return d(c.checkpoints_req);
    if (name == "num_done") return d(c.checkpoints_done);
    if (name == "buffers_written") return d(b.buffers_checkpoint);
    if (name == "reads") return d(b.reads);
    if (name == "writes") return d(b.backend_writes);
    if (name == "extends") return d(b.extends);
  }
  return std::nullopt;
}

std::vector<std::string> IoMetricNames(const PgTableReport& r) {
  std::vector<std::string> n = {"buffers_clean", "maxwritten_clean", "buffers_alloc", "heap_blks_read",
                                "heap_blks_hit", "blocks_written"};
  if (IsPg15(r)) {
    for (const char* x : {"checkpoints_timed", "checkpoints_req", "buffers_checkpoint", "buffers_backend"}) {
      n.push_back(x);
    }
  } else {
    for (const char* x : {"num_timed", "num_requested", "num_done", "buffers_written", "reads", "writes", "extends"}) {
      n.push_back(x);
    }
  }
  return n;
}

}  // namespace

absl::StatusOr<postgres::PgSettings> PostgresSettings(const RunSpec& spec) {
  const std::optional<postgres::PgProfile> profile = postgres::FindPgProfile(spec.profile);
  if (!profile) return absl::InvalidArgumentError(absl::StrCat("profile '", spec.profile, "' is not PostgreSQL's"));
  postgres::PgSettings settings = postgres::PgSettings::Defaults(*profile);
  for (const VariableAssignment& a : spec.settings) {
    if (absl::Status s = settings.Set(a.name, a.value, a.origin); !s.ok()) {
      return absl::InvalidArgumentError(s.message());
    }
  }
  return settings;
}

absl::Status PostgresCheck(const RunSpec& spec) {
  if (spec.page_size != 0 && spec.page_size != postgres::kBlckSz) {
    return absl::InvalidArgumentError(absl::StrCat("--page-size ", spec.page_size, ": PostgreSQL's block size is BLCKSZ, ",
                                                   postgres::kBlckSz,
                                                   ", fixed when the server is built: drop --page-size"));
  }
  if (absl::StatusOr<postgres::PgSettings> settings = PostgresSettings(spec); !settings.ok()) {
    return settings.status();
  }
  // DELETE phases run a VACUUM after them (model/postgres/vacuumlazy.h);
  // rows inserted after one would go into the heap space it freed, through
  // the heap's free space map, which the model does not simulate.
  bool deleted = false;
  for (const PhaseSpec& phase : spec.phases) {
    if (IsDeletePhase(phase.kind)) deleted = true;
    if (phase.kind == PhaseSpec::Kind::kInsert && deleted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--phase ", phase.text, ": the PostgreSQL model does not simulate inserts after a DELETE's VACUUM (they "
          "would reuse the freed heap space through its free space map): put the insert phases before the deletes"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RunConfig> PostgresConfigure(const RunSpec& spec) {
  if (!postgres::FindPgProfile(spec.profile)) {
    return absl::InvalidArgumentError(absl::StrCat("profile '", spec.profile, "' is not PostgreSQL's"));
  }
  RunConfig config;
  config.profile.name = spec.profile;
  config.profile.page_size = postgres::kBlckSz;
  return config;
}

absl::Status PostgresBindStream(std::string_view table, StreamSpec* stream) {
  // A sequence (bigserial, serial, identity) fills the key column at its
  // width: integer keys of 4 or 2 bytes for integer and smallint keys.
  if (!ServerAssigns(stream->name) || table == "seed000") return absl::OkStatus();
  absl::StatusOr<PgSchema> schema = ParsePgTable(table, PgTableOptions{});
  if (!schema.ok()) return schema.status();
  if (schema->spec.primary_key.size() != 1) return absl::OkStatus();
  const postgres::PgType type = schema->spec.columns[schema->spec.primary_key.front()].type;
  if (type == postgres::PgType::kInt4) stream->autoinc_bytes = 4;
  if (type == postgres::PgType::kInt2) stream->autoinc_bytes = 2;
  return absl::OkStatus();
}

absl::StatusOr<PreparedEngine> PostgresPrepare(const RunSpec& spec, RunConfig*, int key_width) {
  const std::optional<postgres::PgProfile> profile = postgres::FindPgProfile(spec.profile);
  if (!profile) return absl::InvalidArgumentError(absl::StrCat("profile '", spec.profile, "' is not PostgreSQL's"));
  PgTableOptions options;
  options.payload_bytes = spec.payload_bytes;
  options.payload_given = spec.payload_bytes_given;
  absl::StatusOr<PgSchema> schema = ResolvePgTable(spec.table, key_width, options);
  if (!schema.ok()) return schema.status();
  if (absl::Status s = CheckPgColumnSources(*schema, spec.columns); !s.ok()) return s;
  // A tuple over TOAST_TUPLE_THRESHOLD would have its long values
  // compressed or moved out of line by heap_insert; that is not modelled,
  // so such a row is refused rather than sized wrongly.
  const int tuple = postgres::HeapTupleLength(schema->spec.columns, postgres::PgRow{});
  if (tuple > postgres::kToastTupleThreshold) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a row of this table is ", tuple, " bytes, over TOAST_TUPLE_THRESHOLD (", postgres::kToastTupleThreshold,
        "): PostgreSQL would TOAST its long values, which the model does not simulate: lower --payload-bytes"));
  }
  PreparedEngine prepared;
  prepared.table_sql = schema->sql;
  for (size_t ix = 0; ix < schema->spec.secondary.size(); ++ix) {
    prepared.encoders.push_back(std::make_unique<PgEntryEncoder>(
        *schema, ix, spec.stream.start_ms, spec.rows_per_sec > 0 ? spec.rows_per_sec : 100000, spec.columns,
        spec.stream.rows_per_ms));
  }
  if (spec.flush) {
    absl::StatusOr<postgres::PgSettings> settings = PostgresSettings(spec);
    if (!settings.ok()) return settings.status();
    postgres::PgIoOptions io;
    io.settings = *settings;
    io.rows_per_sec = spec.rows_per_sec;
    prepared.driver = std::make_unique<PostgresDriver>(*profile, schema->spec, spec.trx_rows, &io);
  } else {
    prepared.driver = std::make_unique<PostgresDriver>(*profile, schema->spec, spec.trx_rows);
  }
  return prepared;
}

absl::Status PostgresCheckTable(const RunSpec& spec, int key_width) {
  RunConfig config;
  return PostgresPrepare(spec, &config, key_width).status();
}

absl::StatusOr<std::vector<std::string>> PostgresMetricNames(const RunSpec& spec) {
  const std::optional<postgres::PgProfile> profile = postgres::FindPgProfile(spec.profile);
  if (!profile) return absl::InvalidArgumentError(absl::StrCat("profile '", spec.profile, "' is not PostgreSQL's"));
  PgTableOptions options;
  options.payload_bytes = spec.payload_bytes;
  options.payload_given = spec.payload_bytes_given;
  StreamSpec stream = spec.stream;  // a sequence takes the key's width
  if (absl::Status s = PostgresBindStream(spec.table, &stream); !s.ok()) return s;
  absl::StatusOr<PgSchema> schema = ResolvePgTable(spec.table, StreamKeyWidth(stream), options);
  if (!schema.ok()) return schema.status();
  // The names of an empty table's figures: its indexes' names are the
  // run's.
  return PgRunResult(postgres::PgTable(*profile, schema->spec).Report()).MetricNames();
}

void PostgresDriver::Sample(uint64_t rows, RunResult* result) {
  const postgres::PgTable& t = engine_.table();
  const postgres::PgIo* io = t.io();
  if (io == nullptr) return;
  const postgres::BufferManager& b = io->buffers();
  FlushModel::Sample s;
  s.seconds = io->clock();
  s.lsn = t.wal().InsertRecPtr();
  s.checkpoint_lsn = t.wal().RedoRecPtr();
  s.checkpoint_age = s.lsn - s.checkpoint_lsn;
  s.dirty_pages = b.dirty_total();
  s.pages_written = b.counters().buffers_checkpoint + b.counters().buffers_clean + b.counters().backend_writes;
  s.buffer_pool_reads = b.counters().reads;
  result->series.push_back({rows, s});
}

void PostgresDriver::RecordPhase(const PhaseSpec& phase, RunResult*) {
  PgPhaseResult p;
  p.phase = phase;
  p.report = engine_.table().Report();
  p.wal = WalDelta(p.report.wal, wal_before_);
  wal_before_ = p.report.wal;
  p.io_delta = IoDelta(p.report, io_before_);
  io_before_ = p.report;
  phases_.push_back(std::move(p));
}

void PostgresDriver::Finish(RunResult* result) {
  result->engine_result = std::make_shared<PgRunResult>(engine_.table().Report(), phases_);
}

nlohmann::ordered_json PgRunResult::ToJson() const {
  nlohmann::ordered_json j = TableJson(report_);
  if (!phases_.empty()) {
    nlohmann::ordered_json phases = nlohmann::ordered_json::array();
    for (const PgPhaseResult& p : phases_) {
      nlohmann::ordered_json ph;
      ph["phase"] = p.phase.text;
      ph["rows"] = p.report.rows;
      PutWal(p.wal, &ph);
      ph["dirty_blocks"] = DirtyJson(p.report);
      nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
      for (const PgIndexReport& ix : p.report.indexes) {
        nlohmann::ordered_json i;
        i["name"] = ix.name;
        i["relpages"] = ix.stat.relpages;
        i["leaf_pages"] = ix.stat.leaf_pages;
        i["internal_pages"] = ix.stat.internal_pages;
        i["dirty_blocks"] = ix.dirty_blocks;
        indexes.push_back(i);
      }
      ph["heap_relpages"] = p.report.heap_relpages;
      ph["indexes"] = indexes;
      if (p.report.has_io) ph["io"] = IoJson(p.io_delta);
      phases.push_back(ph);
    }
    j["phases"] = phases;
  }
  return j;
}

std::string PgRunResult::Summary() const {
  std::string out;
  absl::StrAppendFormat(&out, "  %-36s %10u  (pg_class.relpages of the table)\n", "heap relpages",
                        report_.heap_relpages);
  absl::StrAppendFormat(&out, "  %-36s %10u\n", "heap pg_relation_size", report_.heap_pg_relation_size);
  absl::StrAppendFormat(&out, "  %-36s %10u  (pg_buffercache isdirty, main fork)\n", "heap dirty_blocks",
                        report_.heap_dirty_blocks);
  absl::StrAppendFormat(&out, "  %-36s %10u\n", "wal_records", report_.wal.wal_records);
  absl::StrAppendFormat(&out, "  %-36s %10u\n", "wal_fpi", report_.wal.wal_fpi);
  absl::StrAppendFormat(&out, "  %-36s %10u  (pg_stat_wal, bytes)\n", "wal_bytes", report_.wal.wal_bytes);
  absl::StrAppendFormat(&out, "  %-36s %10u  (pg_wal_lsn_diff of the insert LSN)\n", "wal_lsn_diff",
                        report_.wal.wal_lsn_bytes);
  if (report_.has_io) {
    const postgres::BufferCounters& b = report_.io.buffers;
    const postgres::CheckpointCounters& c = report_.io.checkpoints;
    std::string settings;
    for (const postgres::PgSettings::Row& row : report_.io.settings) {
      if (row.name == "shared_buffers" || row.name == "checkpoint_timeout" || row.name == "max_wal_size" ||
          row.name == "bgwriter_lru_maxpages" || row.origin != "default") {
        absl::StrAppend(&settings, settings.empty() ? "" : ", ", row.name, "=", row.value);
      }
    }
    absl::StrAppendFormat(&out, "  settings: %s; %.1f s simulated\n", settings, report_.io.clock_s);
    if (IsPg15(report_)) {
      absl::StrAppendFormat(&out, "  pg_stat_bgwriter: checkpoints_timed %u, checkpoints_req %u, buffers_checkpoint %u, "
                                  "buffers_clean %u, maxwritten_clean %u, buffers_backend %u (%u victims + %u extends), "
                                  "buffers_alloc %u\n",
                            c.checkpoints_timed, c.checkpoints_req, b.buffers_checkpoint, b.buffers_clean,
                            b.maxwritten_clean, b.buffers_backend, b.backend_writes, b.extends, b.buffers_alloc);
    } else {
      absl::StrAppendFormat(&out, "  pg_stat_checkpointer: num_timed %u, num_requested %u, num_done %u, buffers_written %u\n",
                            c.checkpoints_timed, c.checkpoints_req, c.checkpoints_done, b.buffers_checkpoint);
      absl::StrAppendFormat(&out, "  pg_stat_bgwriter: buffers_clean %u, maxwritten_clean %u, buffers_alloc %u\n",
                            b.buffers_clean, b.maxwritten_clean, b.buffers_alloc);
      absl::StrAppendFormat(&out, "  pg_stat_io (client backend): reads %u, writes %u, extends %u\n", b.reads,
                            b.backend_writes, b.extends);
    }
    absl::StrAppendFormat(&out, "  pg_statio_user_tables %s: heap_blks_read %u, heap_blks_hit %u\n", report_.heap_name,
                          report_.heap_io.blks_read, report_.heap_io.blks_hit);
    for (const PgIndexReport& ix : report_.indexes) {
      absl::StrAppendFormat(&out, "  pg_statio_user_indexes %s: idx_blks_read %u, idx_blks_hit %u\n", ix.name,
                            ix.io.blks_read, ix.io.blks_hit);
    }
  }
  for (const PgIndexReport& ix : report_.indexes) {
    const postgres::PgStatIndex& s = ix.stat;
    absl::StrAppendFormat(&out, "  index %s%s\n", ix.name, ix.unique ? " (unique)" : "");
    absl::StrAppendFormat(&out, "    %-34s %10d\n", "tree_level", s.tree_level);
    absl::StrAppendFormat(&out, "    %-34s %10u  (bytes)\n", "index_size", s.index_size);
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "root_block_no", s.root_block_no);
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "internal_pages", s.internal_pages);
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "leaf_pages", s.leaf_pages);
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "empty_pages", s.empty_pages);
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "deleted_pages", s.deleted_pages);
    absl::StrAppendFormat(&out, "    %-34s %10.2f\n", "avg_leaf_density", s.avg_leaf_density);
    absl::StrAppendFormat(&out, "    %-34s %10.2f\n", "leaf_fragmentation", s.leaf_fragmentation);
    absl::StrAppendFormat(&out, "    %-34s %10u  (", "leaf splits", Splits(ix.counters.leaf_splits));
    bool first = true;
    for (SplitKind k : kSplitKinds) {
      const uint64_t n = ix.counters.leaf_splits[static_cast<int>(k)];
      if (n == 0) continue;
      absl::StrAppend(&out, first ? "" : ", ", postgres::SplitKindName(k), " ", n);
      first = false;
    }
    absl::StrAppend(&out, ")\n");
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "internal splits", Splits(ix.counters.internal_splits));
    absl::StrAppendFormat(&out, "    %-34s %10u\n", "new roots", ix.counters.new_roots);
    if (!ix.unique) absl::StrAppendFormat(&out, "    %-34s %10u\n", "dedup passes", ix.counters.dedup_passes);
    absl::StrAppendFormat(&out, "    %-34s %10u  (pg_buffercache isdirty)\n", "dirty_blocks", ix.dirty_blocks);
  }
  if (!phases_.empty()) {
    absl::StrAppend(&out, "\n  phases (each phase's own WAL; dirty blocks at its end: heap, then each index)\n");
    absl::StrAppendFormat(&out, "  %-3s %-34s %12s %12s %10s %14s %14s  %s\n", "#", "phase", "rows", "wal_records",
                          "wal_fpi", "wal_bytes", "wal_lsn_diff", "dirty_blocks");
    for (size_t i = 0; i < phases_.size(); ++i) {
      const PgPhaseResult& p = phases_[i];
      std::string dirty = absl::StrCat(p.report.heap_name, " ", p.report.heap_dirty_blocks);
      for (const PgIndexReport& ix : p.report.indexes) absl::StrAppend(&dirty, ", ", ix.name, " ", ix.dirty_blocks);
      absl::StrAppendFormat(&out, "  %-3d %-34s %12d %12d %10d %14d %14d  %s\n", i + 1, p.phase.text, p.report.rows,
                            p.wal.wal_records, p.wal.wal_fpi, p.wal.wal_bytes, p.wal.wal_lsn_bytes, dirty);
    }
  }
  return out;
}

std::optional<double> PgRunResult::Metric(std::string_view name) const {
  if (name == "heap_relpages") return report_.heap_relpages;
  if (name == "heap_pg_relation_size") return static_cast<double>(report_.heap_pg_relation_size);
  if (name == "rows") return static_cast<double>(report_.rows);
  if (name == "heap.dirty_blocks") return static_cast<double>(report_.heap_dirty_blocks);
  if (std::optional<double> v = WalMetric(report_.wal, name)) return v;
  if (std::optional<double> v = IoMetric(report_, name)) return v;
  // The last phase's own WAL (seed 002: the WAL of the rows after a CHECKPOINT).
  if (name.starts_with("last_phase.")) {
    if (phases_.empty()) return std::nullopt;
    return WalMetric(phases_.back().wal, name.substr(11));
  }
  // "NAME.figure" for the index NAME; a bare figure for the primary key's
  // index (the first).
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) {
    if (report_.indexes.empty()) return std::nullopt;
    return IndexMetric(report_.indexes.front(), name);
  }
  for (const PgIndexReport& ix : report_.indexes) {
    if (name.substr(0, dot) == ix.name) return IndexMetric(ix, name.substr(dot + 1));
  }
  return std::nullopt;
}

std::vector<std::string> PgRunResult::MetricNames() const {
  std::vector<std::string> names = {"heap_relpages", "heap_pg_relation_size", "rows", "heap.dirty_blocks"};
  for (const char* n : kWalMetricNames) names.push_back(n);
  for (const char* n : kWalMetricNames) names.push_back(absl::StrCat("last_phase.", n));
  if (report_.has_io) {
    for (const std::string& n : IoMetricNames(report_)) names.push_back(n);
  }
  for (const char* n : kIndexMetricNames) names.push_back(n);
  for (const PgIndexReport& ix : report_.indexes) {
    for (const char* n : kIndexMetricNames) names.push_back(absl::StrCat(ix.name, ".", n));
  }
  return names;
}

bool PostgresPhaseFigure(const RunSpec&, std::string_view metric) {
  static constexpr std::string_view kTable[] = {"heap_relpages", "heap_pg_relation_size", "rows"};
  static constexpr std::string_view kIndex[] = {"tree_level",       "index_size",         "root_block_no", "internal_pages",
                                                "leaf_pages",       "empty_pages",        "deleted_pages", "avg_leaf_density",
                                                "leaf_fragmentation", "relpages",         "leaf_splits",   "internal_splits",
                                                "new_roots"};
  for (std::string_view n : kTable) {
    if (metric == n) return true;
  }
  if (metric.starts_with("last_phase.") || metric.starts_with("heap.")) return false;
  // "NAME.figure" for an index other than the primary key's, split as
  // PgRunResult::Metric splits it.
  const size_t dot = metric.find('.');
  const std::string_view figure = dot == std::string_view::npos ? metric : metric.substr(dot + 1);
  for (std::string_view n : kIndex) {
    if (figure == n) return true;
  }
  return false;
}

bool PostgresResultAtPhase(const RunResult& longer, size_t phases, RunResult* out) {
  if (longer.engine_result == nullptr) return false;
  std::shared_ptr<const EngineResult> at = longer.engine_result->AtPhase(phases);
  if (at == nullptr) return false;
  *out = longer;
  out->engine_result = std::move(at);
  return true;
}

std::shared_ptr<const EngineResult> PgRunResult::AtPhase(size_t phases) const {
  if (phases == 0 || phases > phases_.size()) return nullptr;
  if (phases == 1) return std::make_shared<PgRunResult>(phases_[0].report);  // a plain run records no phase
  return std::make_shared<PgRunResult>(phases_[phases - 1].report,
                                       std::vector<PgPhaseResult>(phases_.begin(), phases_.begin() + phases));
}

std::vector<std::string> PgRunResult::SweepColumns() const {
  // The primary key's index (the figures seed 002 publishes) and the heap.
  return {"leaf_pages", "internal_pages", "avg_leaf_density", "leaf_fragmentation", "relpages", "heap_relpages"};
}

TreeFigures PostgresTreeFigures(const RunResult& run) {
  TreeFigures f;
  const auto* pg = dynamic_cast<const PgRunResult*>(run.engine_result.get());
  if (pg == nullptr) return f;
  const PgTableReport& r = pg->report();
  f.rows = r.rows;
  f.page_size = postgres::kBlckSz;
  f.leaf_pages_name = "leaf_pages";
  f.leaf_fill_name = "avg_leaf_density";
  f.rows_bytes = r.heap_pg_relation_size;
  f.total_bytes = r.heap_pg_relation_size;
  for (size_t i = 0; i < r.indexes.size(); ++i) {
    const PgIndexReport& ix = r.indexes[i];
    f.total_bytes += ix.stat.index_size;
    if (i > 0) f.secondary_bytes += ix.stat.index_size;
  }
  f.sizes_note = "heap pg_relation_size, index_size of each index";
  if (r.indexes.empty()) return f;
  // The primary key's index (the first, PgTableReport::indexes).
  const PgIndexReport& pk = r.indexes.front();
  f.leaf_pages = pk.stat.leaf_pages;
  f.leaf_fill = TwoDecimals(pk.stat.avg_leaf_density) / 100.0;
  f.levels = static_cast<uint32_t>(pk.stat.tree_level) + 1;
  f.primary_key_bytes = pk.stat.index_size;
  for (SplitKind k : kSplitKinds) {
    f.splits.emplace_back(absl::StrCat("leaf ", postgres::SplitKindName(k)),
                          pk.counters.leaf_splits[static_cast<int>(k)]);
  }
  f.splits.emplace_back("internal", Splits(pk.counters.internal_splits));
  f.splits.emplace_back("new_roots", pk.counters.new_roots);
  return f;
}

}  // namespace innosim
