#include "sim/runner.h"

#include <algorithm>
#include <utility>
#include <atomic>
#include <chrono>
#include <thread>

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/defaults_file.h"
#include "sim/nearest_name.h"
#include "sim/secondary_keys.h"

namespace innosim {

absl::Status ValidateRunSpec(const RunSpec& spec) {
  if (spec.rows == 0) return absl::InvalidArgumentError("--rows must be at least 1 (e.g. --rows 10M)");
  if (!IsKnownStreamName(spec.stream.name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown stream '", spec.stream.name, "'",
        DidYouMean(spec.stream.name, GeneratorStreamNames()), ": use ", absl::StrJoin(GeneratorStreamNames(), ", "),
        " or file:PATH"));
  }
  if (spec.stream.rows_per_ms == 0) {
    return absl::InvalidArgumentError("--rows-per-ms must be at least 1 (e.g. --rows-per-ms 482)");
  }
  if (spec.page_size != 0 && !IsSupportedPageSize(spec.page_size)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "page size ", spec.page_size, " is not supported: use ", SupportedPageSizesInK(), " (", kUnivPageSizeMin,
        " ... ", kUnivPageSizeMax, ")"));
  }
  if (spec.payload_bytes > 4000) {
    return absl::InvalidArgumentError(absl::StrCat("--payload-bytes ", spec.payload_bytes,
                                                   " is too long: the model keeps records on the page (at most 4000)"));
  }
  if (spec.table.empty()) {
    return absl::InvalidArgumentError("--table is empty: give seed000, seed004 or a CREATE TABLE statement");
  }
  if (!EngineProfile::ByName(spec.profile)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown profile '", spec.profile, "'",
                                                   DidYouMean(spec.profile, EngineProfile::Names()), ": use ",
                                                   absl::StrJoin(EngineProfile::Names(), " or ")));
  }
  return absl::OkStatus();
}

absl::StatusOr<TableSchema> ResolveRunTable(const RunSpec& spec, int key_width, const ServerSettings* settings) {
  TableOptions options;
  options.payload_bytes = spec.payload_bytes;
  options.payload_given = spec.payload_bytes_given;
  options.profile = spec.profile;  // the server's default charset and collations
  if (settings != nullptr) {  // ... unless the server's variables say otherwise
    options.server_charset = settings->TextOf("character_set_server");
    options.server_collation = settings->TextOf("collation_server");
  }
  absl::StatusOr<TableSchema> schema = ResolveTable(spec.table, key_width, options);
  if (!schema.ok()) return schema.status();
  if (absl::Status s = CheckColumnSources(*schema, spec.columns); !s.ok()) return s;
  return schema;
}

std::string TableSql(const TableDef& t) {
  std::vector<std::string> cols;
  for (const ColumnDef& c : t.columns) {
    cols.push_back(absl::StrCat(c.name, " ", c.type, c.nullable ? "" : " NOT NULL"));
  }
  std::vector<std::string> pk;
  for (uint32_t c : t.primary.columns) pk.push_back(t.columns[c].name);
  cols.push_back(absl::StrCat("PRIMARY KEY (", absl::StrJoin(pk, ", "), ")"));
  for (const IndexDef& ix : t.secondary) {
    std::vector<std::string> k;
    for (uint32_t c : ix.columns) k.push_back(t.columns[c].name);
    cols.push_back(absl::StrCat(ix.unique ? "UNIQUE KEY " : "KEY ", ix.name, " (", absl::StrJoin(k, ", "), ")"));
  }
  return absl::StrCat("CREATE TABLE ", t.name, " (", absl::StrJoin(cols, ", "), ") ENGINE=InnoDB");
}

absl::StatusOr<RunConfig> ConfigFor(const RunSpec& spec) {
  const std::optional<ServerFlavor> flavor = ServerFlavorByName(spec.profile);
  if (!flavor) {
    return absl::InvalidArgumentError(absl::StrCat("unknown profile '", spec.profile, "': use ",
                                                   absl::StrJoin(EngineProfile::Names(), " or "),
                                                   DidYouMean(spec.profile, EngineProfile::Names())));
  }
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

const char* OrderedStreamName(int key_width) { return key_width <= 8 ? "autoinc" : "uuidv7-counter"; }

StreamSpec PhaseStreamSpec(const RunSpec& spec, size_t n, uint64_t rows_before, uint64_t autoinc_rows) {
  StreamSpec ps = spec.stream;
  ps.name = spec.phases[n].stream;
  ps.seed = spec.stream.seed + n + 1;
  // The clock goes on: this phase's first row comes after the rows before it.
  ps.start_ms = spec.stream.start_ms + rows_before / std::max<uint64_t>(1, spec.stream.rows_per_ms);
  ps.autoinc_start = autoinc_rows;
  return ps;
}

namespace {

// One simulation: the engine lives only as long as this call, so that the
// key-order reference run after it never holds a second tree in memory.
absl::StatusOr<RunResult> RunOnce(const RunSpec& spec, const std::function<void(const Engine&)>& at_end) {
  if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
  if (spec.flush && !(spec.rows_per_sec > 0)) {
    return absl::InvalidArgumentError("--rows-per-sec must be positive (e.g. --rows-per-sec 127290)");
  }
  if (spec.trx_rows == 0) return absl::InvalidArgumentError("--batch must be at least 1 (e.g. --batch 1000)");
  for (const PhaseSpec& phase : spec.phases) {
    if (phase.kind == PhaseSpec::Kind::kCheckpoint && !spec.flush) {
      return absl::InvalidArgumentError(
          "--phase checkpoint writes the dirty pages of the flush model: drop --no-flush (flush = true)");
    }
    if (phase.kind == PhaseSpec::Kind::kInsert && !IsKnownStreamName(phase.stream)) {
      return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": unknown stream '", phase.stream,
                                                     "'", DidYouMean(phase.stream, GeneratorStreamNames())));
    }
  }
  // delete:phase:N names an insert before it (phases are numbered as the
  // phase table prints them: 1 is the run's own insert, spec.phases[i] is
  // i + 2). Those phases keep their keys as they insert them.
  std::vector<bool> keep_keys(spec.phases.size() + 2, false);
  for (size_t n = 0; n < spec.phases.size(); ++n) {
    if (absl::Status s = CheckDeletePhaseTarget(spec.phases, n); !s.ok()) return s;
    if (spec.phases[n].kind == PhaseSpec::Kind::kDeletePhase) keep_keys[spec.phases[n].of_phase] = true;
  }
  // The keys of each kept phase, in the order they were inserted.
  std::vector<std::vector<Key>> phase_keys(spec.phases.size() + 2);
  absl::StatusOr<RunConfig> config = ConfigFor(spec);
  if (!config.ok()) return config.status();
  const ServerSettings* settings = &config->server;
  StreamSpec stream_spec = spec.stream;  // autoinc takes the table's integer width
  if (absl::Status s = BindStreamToTable(spec.table, &stream_spec); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(stream_spec);
  if (!stream.ok()) return stream.status();
  KeyStream& ks = **stream;
  const EngineProfile& profile = config->profile;
  RunResult result;
  result.spec = spec;
  result.spec.page_size = profile.page_size;
  if (result.spec.label.empty()) result.spec.label = spec.stream.name;
  result.key_width = ks.key_width();
  absl::StatusOr<TableSchema> schema = ResolveRunTable(spec, result.key_width, settings);
  if (!schema.ok()) return schema.status();
  const TableDef& table = schema->def;
  result.table = TableSql(table);
  // The row's wall time runs at rows_per_sec whether or not flushing is on,
  // unless a column's source has its own clock (time:R, key-time).
  std::vector<SecondaryKeyEncoder> encoders;
  for (size_t ix = 0; ix < table.secondary.size(); ++ix) {
    encoders.emplace_back(*schema, ix, spec.stream.start_ms, spec.rows_per_sec > 0 ? spec.rows_per_sec : 100000,
                          spec.columns, spec.stream.rows_per_ms);
  }
  EngineOptions options;
  if (spec.flush) options.flush = *settings;
  options.trx_rows = spec.trx_rows;
  options.rows_per_sec = spec.rows_per_sec;
  Engine engine(profile, table, options);
  result.warnings = settings->warnings;
  const auto t0 = std::chrono::steady_clock::now();
  // One insert phase: `rows` rows of `ks`, the first being the run's row
  // `base` (secondary entries and errors count rows over the whole run).
  // With `keep`, each row's key is appended to it (reserved first: no
  // allocation per row).
  // With secondary indexes and a delete phase, each row's key and row
  // number (its secondary entries are Encode(row, key)), for purging the
  // secondary entries of the rows a DELETE takes; a purged row's number
  // becomes kPurged.
  bool deletes = false;
  for (const PhaseSpec& phase : spec.phases) deletes = deletes || IsDeletePhase(phase.kind);
  constexpr uint64_t kPurged = ~uint64_t{0};
  std::vector<std::pair<Key, uint64_t>> row_of;
  const bool track_rows = deletes && !encoders.empty();
  auto insert = [&](KeyStream& source, uint64_t rows, uint64_t base, std::vector<Key>* keep) -> absl::Status {
    if (keep != nullptr) keep->reserve(rows);
    if (track_rows) row_of.reserve(row_of.size() + rows);
    // Keys are read kLookahead rows ahead, and each announced to the engine
    // (Engine::PrefetchRow) that far before its insert; never past rows,
    // so a stream is read exactly as far as without the lookahead.
    constexpr uint64_t kLookahead = 2;
    constexpr uint64_t kRing = 4;  // a power of two above kLookahead: slots by mask
    Key ring[kRing];
    uint64_t read = 0;  // keys taken from the stream so far
    bool ended = false;
    auto read_one = [&]() __attribute__((always_inline)) {
      if (ended || read == rows) return;
      Key& k = ring[read & (kRing - 1)];
      if (!source.Next(&k)) {
        ended = true;
        return;
      }
      engine.PrefetchRow(k);
      ++read;
    };
    for (uint64_t j = 0; j < kLookahead; ++j) read_one();
    for (uint64_t i = 0; i < rows; ++i) {
      read_one();
      if (i >= read) {
        if (!source.status().ok()) return source.status();
        return absl::InvalidArgumentError(absl::StrCat("the stream ended after ", i, " of ", rows,
                                                       " rows: lower --rows or give a longer key file"));
      }
      const Key key = ring[i & (kRing - 1)];
      absl::Status s = engine.InsertRow(key);
      if (!s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("row ", base + i + 1, ": duplicate primary key in the stream (",
                                                       "InnoDB would refuse it with ER_DUP_ENTRY): remove it from the key file"));
      }
      if (keep != nullptr) keep->push_back(key);
      if (track_rows) row_of.emplace_back(key, base + i);
      // row_ins: the clustered index first, then each secondary index in order.
      for (size_t ix = 0; ix < encoders.size(); ++ix) {
        const absl::Status s = engine.InsertSecondary(ix, encoders[ix].Encode(base + i, key));
        if (absl::IsAlreadyExists(s)) {
          ++result.secondary_ties;
        } else if (!s.ok()) {
          return s;
        }
      }
      if (absl::Status s = engine.EndRow(); !s.ok()) return s;
      if (spec.series_every > 0 && (base + i + 1) % spec.series_every == 0 && engine.flush_model() != nullptr) {
        result.series.push_back({base + i + 1, engine.flush_model()->Snapshot()});
      }
      if (spec.progress != nullptr && ((i + 1) & (ProgressCounter::kBatch - 1)) == 0) {
        spec.progress->AddRows(ProgressCounter::kBatch);
      }
    }
    if (spec.progress != nullptr) spec.progress->AddRows(rows & (ProgressCounter::kBatch - 1));
    return absl::OkStatus();
  };
  if (absl::Status s = insert(ks, spec.rows, 0, keep_keys[1] ? &phase_keys[1] : nullptr); !s.ok()) return s;
  if (!spec.phases.empty()) {
    auto record = [&](const PhaseSpec& phase) {
      PhaseResult pr;
      pr.phase = phase;
      pr.report = engine.Report();
      if (const FlushModel* fm = engine.flush_model(); fm != nullptr) {
        pr.flush = fm->counters();
        pr.dirty_pages = fm->Snapshot().dirty_pages;
        pr.table_dirty_pages = fm->DirtyPagesOf(engine.table_space());
      }
      result.phases.push_back(std::move(pr));
    };
    PhaseSpec first;
    first.stream = spec.stream.name;
    first.rows = spec.rows;
    first.text = absl::StrCat("insert:", spec.stream.name, ":", spec.rows);
    record(first);
    uint64_t done = spec.rows;
    // The table's AUTO_INCREMENT counter: where a later autoinc phase goes on.
    uint64_t autoinc_rows = spec.stream.name == "autoinc" ? spec.rows : 0;
    for (size_t n = 0; n < spec.phases.size(); ++n) {
      const PhaseSpec& phase = spec.phases[n];
      if (IsDeletePhase(phase.kind)) {
        // DELETE ... in key order (a scan of PRIMARY), committed, then
        // purged record by record in the undo log's order: the same order.
        engine.CommitTrx();
        std::vector<Key> doomed;
        if (phase.kind == PhaseSpec::Kind::kDeleteEvery) {
          uint64_t ordinal = 0;
          engine.primary().ForEachKey([&](const Key& k) {
            if (++ordinal % phase.every == 0) doomed.push_back(k);
          });
        } else if (phase.kind == PhaseSpec::Kind::kDeleteRange) {
          // WHERE id >= A AND id < B: the rows ranked [first, last) in key order.
          uint64_t first = 0;
          uint64_t last = 0;
          DeleteRangeRanks(phase, engine.rows(), &first, &last);
          uint64_t rank = 0;
          engine.primary().ForEachKey([&](const Key& k) {
            if (rank >= first && rank < last) doomed.push_back(k);
            ++rank;
          });
        } else {
          // WHERE id IN (the keys phase N inserted), found by a scan of
          // PRIMARY: key order; rows an earlier delete took are not there.
          doomed = std::move(phase_keys[phase.of_phase]);
          phase_keys[phase.of_phase] = {};
          std::sort(doomed.begin(), doomed.end());
        }
        if (track_rows) std::sort(row_of.begin(), row_of.end());
        std::vector<Key> entries(encoders.size());
        for (const Key& k : doomed) {
          if (track_rows) {
            auto it = std::lower_bound(row_of.begin(), row_of.end(), std::pair<Key, uint64_t>{k, 0});
            if (it == row_of.end() || !(it->first == k) || it->second == kPurged) continue;  // deleted before
            for (size_t ix = 0; ix < encoders.size(); ++ix) entries[ix] = encoders[ix].Encode(it->second, k);
            it->second = kPurged;
          }
          absl::Status s = engine.DeleteRow(k, entries);
          if (!s.ok() && !(phase.kind == PhaseSpec::Kind::kDeletePhase && absl::IsNotFound(s))) return s;
        }
        if (absl::Status s = engine.EndDeletes(); !s.ok()) return s;
      } else if (phase.kind == PhaseSpec::Kind::kCheckpoint) {
        if (absl::Status s = engine.Checkpoint(); !s.ok()) return s;
      } else if (phase.kind == PhaseSpec::Kind::kOptimize) {
        // ALTER TABLE commits the open transaction first (an implicit commit).
        engine.CommitTrx();
        // At innodb_fill_factor (100 unless set; model/bulk_load.h).
        if (absl::Status s = engine.Rebuild(static_cast<uint32_t>(settings->innodb_fill_factor)); !s.ok()) return s;
      } else {
        StreamSpec ps = PhaseStreamSpec(spec, n, done, autoinc_rows);
        if (phase.stream == "autoinc") autoinc_rows += phase.rows;
        if (absl::Status s = BindStreamToTable(spec.table, &ps); !s.ok()) return s;
        absl::StatusOr<std::unique_ptr<KeyStream>> pstream = MakeKeyStream(ps);
        if (!pstream.ok()) return pstream.status();
        if ((*pstream)->key_width() != result.key_width) {
          return absl::InvalidArgumentError(absl::StrCat("--phase ", phase.text, ": its keys are ",
                                                         (*pstream)->key_width(), " bytes wide, the table's ",
                                                         result.key_width, ": use a stream of the table's key type"));
        }
        if (absl::Status s = insert(**pstream, phase.rows, done, keep_keys[n + 2] ? &phase_keys[n + 2] : nullptr);
            !s.ok()) {
          return s;
        }
        done += phase.rows;
      }
      record(phase);
    }
  }
  if (absl::Status s = engine.EndLoad(); !s.ok()) return s;
  if (engine.flush_model() != nullptr) result.flush = engine.flush_model()->counters();
  result.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.report = engine.Report();
  if (at_end) at_end(engine);
  result.settings_used = settings->Describe();
  if (result.secondary_ties > 0) {
    result.warnings.push_back(absl::StrCat(result.secondary_ties,
                                           " secondary-index entries tied after the compact encoding of entries past 32 bytes and "
                                           "were not inserted (see sim/secondary_keys.h)"));
  }
  return result;
}

}  // namespace

absl::StatusOr<RunResult> Run(const RunSpec& spec, const std::function<void(const Engine&)>& at_end) {
  absl::StatusOr<RunResult> result = RunOnce(spec, at_end);
  if (!result.ok()) return result;
  // The same rows appended in key order, structure only: the size a fill
  // computed from DATA_LENGTH (seed 000's) is measured against. Appends
  // cost about 0.03 s per million rows.
  RunSpec ordered = spec;
  ordered.stream = StreamSpec();  // one writer: strictly ascending
  ordered.stream.name = OrderedStreamName(result->key_width);
  ordered.stream.seed = spec.stream.seed;
  ordered.stream.rows_per_ms = spec.stream.rows_per_ms;
  ordered.stream.start_ms = spec.stream.start_ms;
  ordered.flush = false;
  ordered.series_every = 0;
  // With phases: the rows the table ends with (deletes aside), appended.
  for (const PhaseSpec& phase : spec.phases) ordered.rows += phase.rows;
  ordered.phases.clear();
  ordered.progress = nullptr;  // not rows the user asked for
  // A table no ascending generator fits (a fileN: key of a width other than
  // an integer's or 16) has no reference: the fill is then not reported.
  absl::StatusOr<RunResult> reference = RunOnce(ordered, nullptr);
  if (reference.ok()) result->data_length_in_key_order = reference->report.data_length;
  return result;
}

uint64_t RowsToInsert(const RunSpec& spec) {
  uint64_t rows = spec.rows;
  for (const PhaseSpec& phase : spec.phases) rows += phase.kind == PhaseSpec::Kind::kInsert ? phase.rows : 0;
  return rows;
}

std::vector<absl::StatusOr<RunResult>> RunMany(const std::vector<RunSpec>& specs, int threads) {
  std::vector<absl::StatusOr<RunResult>> results(specs.size(), absl::UnknownError("not run"));
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, static_cast<int>(specs.size()));
  // Longest runs first, so that no long run starts last and leaves the
  // other threads idle: uniformly random keys miss the CPU cache on every
  // insert and cost several times what a time-ordered stream of the same
  // length does. Only the order of work changes, never a result.
  std::vector<size_t> order(specs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto cost = [&](const RunSpec& s) {
    const bool scattered = s.stream.name == "uuidv4" || s.stream.name.rfind("file", 0) == 0;
    return static_cast<double>(s.rows) * (scattered ? 4.0 : 1.0) * (s.flush ? 1.2 : 1.0);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cost(specs[a]) > cost(specs[b]); });
  for (const RunSpec& s : specs) {
    if (s.progress == nullptr) continue;
    s.progress->total_rows += RowsToInsert(s);
    s.progress->total_configurations += 1;
  }
  std::atomic<size_t> next{0};
  auto worker = [&]() {
    for (size_t k = next++; k < specs.size(); k = next++) {
      results[order[k]] = Run(specs[order[k]]);
      if (specs[order[k]].progress != nullptr) specs[order[k]].progress->configurations.fetch_add(1);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace innosim
