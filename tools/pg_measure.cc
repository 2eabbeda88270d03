#include "tools/pg_measure.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/phases.h"

namespace innosim {
namespace {

using Counters = std::vector<std::pair<std::string, int64_t>>;

absl::Status Context(const absl::Status& s, absl::string_view what) {
  return absl::Status(s.code(), absl::StrCat(what, ": ", s.message()));
}

int64_t ToInt(const std::optional<std::string>& v) {
  int64_t out = 0;
  if (v && absl::SimpleAtoi(*v, &out)) return out;
  double d = 0;
  if (v && absl::SimpleAtod(*v, &d)) return static_cast<int64_t>(d);
  return 0;
}

// The extensions the figures come from: pgstatindex (pgstattuple) and the
// dirty-block census (pg_buffercache). One line naming what is missing.
absl::Status CreateExtension(PgConnection& c, const std::string& name) {
  absl::StatusOr<int64_t> available =
      c.QueryInt(absl::StrCat("SELECT count(*) FROM pg_available_extensions WHERE name = ", c.QuoteLiteral(name)));
  if (!available.ok()) return available.status();
  if (*available == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the server lacks the extension ", name, " (PostgreSQL's contrib modules): install them on the server, "
        "then CREATE EXTENSION ", name, ";"));
  }
  if (absl::Status s = c.Exec(absl::StrCat("CREATE EXTENSION IF NOT EXISTS ", name)); !s.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "CREATE EXTENSION ", name, " failed (", s.message(), "): run CREATE EXTENSION ", name,
        "; as a superuser in template1 (new databases copy it), or measure as a superuser"));
  }
  return absl::OkStatus();
}

// pg_stat_wal's counters and the insert position, as one snapshot.
struct WalSnapshot {
  int64_t records = 0, fpi = 0, bytes = 0, lsn = 0;
};

// Our own backend's pending statistics reach the shared counters when it
// goes idle after pg_stat_force_next_flush() (PostgreSQL 15's pgstat.c:
// otherwise at most once per PGSTAT_MIN_INTERVAL).
absl::Status FlushOwnStats(PgConnection& c) { return c.Exec("SELECT pg_stat_force_next_flush()"); }

absl::StatusOr<WalSnapshot> ReadWal(PgConnection& c) {
  absl::StatusOr<std::vector<PgConnection::Row>> rows = c.Query(
      "SELECT wal_records, wal_fpi, wal_bytes::bigint, "
      "pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint FROM pg_stat_wal");
  if (!rows.ok()) return Context(rows.status(), "reading pg_stat_wal");
  if (rows->size() != 1 || (*rows)[0].size() != 4) return absl::InternalError("pg_stat_wal returned no row");
  const PgConnection::Row& r = (*rows)[0];
  return WalSnapshot{ToInt(r[0]), ToInt(r[1]), ToInt(r[2]), ToInt(r[3])};
}

// The block counters under their views' column names: the table's and each
// index's pg_statio_user_* (an index's prefixed by its name), and the
// server-wide writers: pg_stat_bgwriter (PostgreSQL 15: checkpoints and
// backends' writes too), pg_stat_checkpointer (17 on) and pg_stat_io's
// reads and writes of relations per backend type (16 on).
absl::StatusOr<Counters> ReadCounters(PgConnection& c, int version, const std::string& table,
                                      const std::vector<std::string>& indexes) {
  Counters out;
  auto add_row = [&](const std::string& sql, const std::vector<std::string>& names,
                     const std::string& prefix) -> absl::Status {
    absl::StatusOr<std::vector<PgConnection::Row>> rows = c.Query(sql);
    if (!rows.ok()) return Context(rows.status(), sql);
    if (rows->size() != 1 || (*rows)[0].size() != names.size()) {
      return absl::InternalError(absl::StrCat("no row from: ", sql));
    }
    for (size_t i = 0; i < names.size(); ++i) out.push_back({prefix + names[i], ToInt((*rows)[0][i])});
    return absl::OkStatus();
  };
  const std::string lit = c.QuoteLiteral(table);
  if (absl::Status s = add_row(absl::StrCat("SELECT coalesce(heap_blks_read, 0), coalesce(heap_blks_hit, 0), "
                                            "coalesce(idx_blks_read, 0), coalesce(idx_blks_hit, 0) FROM "
                                            "pg_statio_user_tables WHERE relid = ",
                                            lit, "::regclass"),
                               {"heap_blks_read", "heap_blks_hit", "idx_blks_read", "idx_blks_hit"}, "");
      !s.ok()) {
    return s;
  }
  for (const std::string& ix : indexes) {
    if (absl::Status s = add_row(absl::StrCat("SELECT idx_blks_read, idx_blks_hit FROM pg_statio_user_indexes WHERE "
                                              "indexrelid = ",
                                              c.QuoteLiteral(ix), "::regclass"),
                                 {"idx_blks_read", "idx_blks_hit"}, ix + ".");
        !s.ok()) {
      return s;
    }
  }
  if (version < 170000) {
    const std::vector<std::string> names = {"checkpoints_timed", "checkpoints_req", "buffers_checkpoint",
                                            "buffers_clean",     "maxwritten_clean", "buffers_backend",
                                            "buffers_alloc"};
    if (absl::Status s = add_row(absl::StrCat("SELECT ", absl::StrJoin(names, ", "), " FROM pg_stat_bgwriter"), names, "");
        !s.ok()) {
      return s;
    }
  } else {
    const std::vector<std::string> cp = {"num_timed", "num_requested", "buffers_written"};
    if (absl::Status s = add_row(absl::StrCat("SELECT ", absl::StrJoin(cp, ", "), " FROM pg_stat_checkpointer"), cp, "");
        !s.ok()) {
      return s;
    }
    const std::vector<std::string> bg = {"buffers_clean", "maxwritten_clean", "buffers_alloc"};
    if (absl::Status s = add_row(absl::StrCat("SELECT ", absl::StrJoin(bg, ", "), " FROM pg_stat_bgwriter"), bg, "");
        !s.ok()) {
      return s;
    }
  }
  if (version >= 160000) {
    absl::StatusOr<std::vector<PgConnection::Row>> rows = c.Query(
        "SELECT backend_type, coalesce(sum(reads), 0)::bigint, coalesce(sum(writes), 0)::bigint FROM pg_stat_io "
        "WHERE object = 'relation' GROUP BY backend_type ORDER BY backend_type");
    if (!rows.ok()) return Context(rows.status(), "reading pg_stat_io");
    for (const PgConnection::Row& r : *rows) {
      out.push_back({absl::StrCat("pg_stat_io.", r[0].value_or(""), ".reads"), ToInt(r[1])});
      out.push_back({absl::StrCat("pg_stat_io.", r[0].value_or(""), ".writes"), ToInt(r[2])});
    }
  }
  return out;
}

// after - before, in after's order.
Counters Delta(const Counters& after, const Counters& before) {
  std::map<std::string, int64_t> b(before.begin(), before.end());
  Counters d;
  for (const auto& [name, v] : after) d.push_back({name, v - b[name]});
  return d;
}

// pg_buffercache's isdirty census of a relation's main fork in this database.
absl::StatusOr<int64_t> DirtyBlocks(PgConnection& c, const std::string& rel) {
  return c.QueryInt(absl::StrCat(
      "SELECT count(*) FILTER (WHERE isdirty) FROM pg_buffercache WHERE reldatabase = (SELECT oid FROM "
      "pg_database WHERE datname = current_database()) AND relforknumber = 0 AND relfilenode = "
      "pg_relation_filenode(",
      c.QuoteLiteral(rel), "::regclass)"));
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ShowSettings(PgConnection& c,
                                                                               const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& n : names) {
    absl::StatusOr<std::string> v = c.QueryString(absl::StrCat("SHOW ", n));
    if (!v.ok()) return Context(v.status(), absl::StrCat("SHOW ", n));
    out.push_back({n, *v});
  }
  return out;
}

// DROP DATABASE of what PgMeasure created, on every way out.
class DatabaseGuard {
 public:
  DatabaseGuard(PgConnection* admin, std::string name, bool force) : admin_(admin), name_(std::move(name)), force_(force) {}
  ~DatabaseGuard() { (void)Drop(); }
  absl::Status Drop() {
    if (admin_ == nullptr) return absl::OkStatus();
    PgConnection* a = admin_;
    admin_ = nullptr;
    // WITH (FORCE) (PostgreSQL 13 on) ends a connection of ours that an
    // error left open.
    return a->Exec(absl::StrCat("DROP DATABASE IF EXISTS ", a->QuoteIdentifier(name_), force_ ? " WITH (FORCE)" : ""));
  }

 private:
  PgConnection* admin_;
  std::string name_;
  bool force_;
};

absl::StatusOr<int64_t> CheckpointsRequested(PgConnection& c, int version) {
  return c.QueryInt(version >= 170000 ? "SELECT num_requested FROM pg_stat_checkpointer"
                                      : "SELECT checkpoints_req FROM pg_stat_bgwriter");
}

// Polls (10 ms apart, 10 s at most) until the requested checkpoints'
// counter has gone past `before`; then one poll more, for the WAL counters
// the checkpointer reports right after (checkpointer.c: its loop reports
// pgstat_report_checkpointer then pgstat_report_wal).
absl::Status WaitForCheckpointStats(PgConnection& c, int version, int64_t before) {
  for (int i = 0; i < 1000; ++i) {
    absl::StatusOr<int64_t> now = CheckpointsRequested(c, version);
    if (!now.ok()) return now.status();
    if (*now > before) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return absl::OkStatus();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return absl::OkStatus();  // the figures are read as they are; the WAL row shows it
}

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// `rows` keys of `stream` as multi-row INSERTs of batch_rows rows, each
// statement its own transaction. Not COPY: COPY FROM goes through
// heap_multi_insert (copyfrom.c CopyMultiInsertBufferFlush), one
// XLOG_HEAP2_MULTI_INSERT record per heap page, where INSERT ... VALUES
// calls heap_insert for each row (nodeModifyTable.c ExecInsert), the WAL
// the model writes.
// The DELETE of a delete step, committed on its own; the rows it took.
// Key order is the index's: uuid byte order, bigint's signed order (the
// model's stored form of an integer key sorts the same way).
absl::StatusOr<int64_t> DeleteStep(PgConnection& c, const PgMeasureOptions& o, const std::string& table,
                                   const PgMeasureStep& st) {
  std::string key_column = "id";
  for (const PgMeasureColumn& col : o.columns) {
    if (col.key) key_column = col.name;
  }
  const std::string id = c.QuoteIdentifier(key_column);
  const std::string ranked =
      absl::StrCat("SELECT ", id, " AS k, row_number() OVER (ORDER BY ", id, ") AS rn FROM ", table);
  if (st.every > 0) {
    return c.QueryInt(absl::StrCat("WITH d AS (DELETE FROM ", table, " WHERE ", id, " IN (SELECT k FROM (", ranked,
                                   ") s WHERE rn % ", st.every, " = 0) RETURNING 1) SELECT count(*) FROM d"));
  }
  if (st.to_pct > 0) {
    absl::StatusOr<int64_t> n = c.QueryInt(absl::StrCat("SELECT count(*) FROM ", table));
    if (!n.ok()) return n.status();
    PhaseSpec p;
    p.from_pct = st.from_pct;
    p.to_pct = st.to_pct;
    uint64_t first = 0, last = 0;
    DeleteRangeRanks(p, static_cast<uint64_t>(*n), &first, &last);
    // Ranks are 0-based, row_number() 1-based.
    return c.QueryInt(absl::StrCat("WITH d AS (DELETE FROM ", table, " WHERE ", id, " IN (SELECT k FROM (", ranked,
                                   ") s WHERE rn > ", first, " AND rn <= ", last,
                                   ") RETURNING 1) SELECT count(*) FROM d"));
  }
  // The keys of one insert phase, 10,000 to a statement, in one transaction.
  if (absl::Status s = c.Exec("BEGIN"); !s.ok()) return s;
  int64_t deleted = 0;
  const char* type = o.key_width == 16 ? "uuid" : "bigint";
  for (size_t b = 0; b < st.keys.size(); b += 10000) {
    std::string array = "{";
    for (size_t i = b; i < st.keys.size() && i < b + 10000; ++i) {
      absl::StatusOr<std::string> text = PgKeyText(st.keys[i], o.key_width, o.bigint_sign_flipped);
      if (!text.ok()) return text.status();
      absl::StrAppend(&array, i > b ? "," : "", *text);
    }
    array += "}";
    absl::StatusOr<int64_t> n = c.QueryInt(absl::StrCat("WITH d AS (DELETE FROM ", table, " WHERE ", id, " = ANY(",
                                                        c.QuoteLiteral(array), "::", type,
                                                        "[]) RETURNING 1) SELECT count(*) FROM d"));
    if (!n.ok()) return n.status();
    deleted += *n;
  }
  if (absl::Status s = c.Exec("COMMIT"); !s.ok()) return s;
  return deleted;
}

absl::Status LoadStep(PgConnection& c, const PgMeasureOptions& o, const std::string& insert_sql,
                      const std::vector<std::string>& literals, const PgMeasureStep& st, uint64_t* done_total) {
  std::string sql;
  Key k;
  for (uint64_t at = 0; at < st.rows; at += o.batch_rows) {
    if (o.interrupted && o.interrupted()) {
      return absl::CancelledError(absl::StrCat("interrupted while loading ", st.text, ", after ", at, " of ", st.rows,
                                               " rows"));
    }
    const uint64_t end = std::min(st.rows, at + o.batch_rows);
    sql = insert_sql;
    for (uint64_t i = at; i < end; ++i) {
      if (!st.stream->Next(&k)) {
        absl::Status s = st.stream->status();
        return absl::InvalidArgumentError(absl::StrCat(st.text, ": the stream ended after ", i, " keys",
                                                       s.ok() ? "" : absl::StrCat(" (", s.message(), ")")));
      }
      sql += i == at ? "(" : ",(";
      bool first = true;
      for (size_t col = 0; col < o.columns.size(); ++col) {
        if (o.columns[col].by_default) continue;
        if (!first) sql.push_back(',');
        first = false;
        if (o.columns[col].key) {
          absl::StatusOr<std::string> text = PgKeyText(k, o.key_width, o.bigint_sign_flipped);
          if (!text.ok()) return Context(text.status(), absl::StrCat(st.text, ", row ", i + 1));
          absl::StrAppend(&sql, "'", *text, "'");
        } else {
          sql += literals[col];
        }
      }
      sql.push_back(')');
    }
    if (absl::Status s = c.Exec(sql); !s.ok()) {
      return Context(s, absl::StrCat(st.text, ": INSERT of rows ", at + 1, "..", end));
    }
    *done_total += end - at;
    if (o.progress) o.progress(*done_total);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<PgMeasureResult> PgMeasure(const PgMeasureOptions& o) {
  if (o.batch_rows == 0) return absl::InvalidArgumentError("--batch must be at least 1 row");
  absl::StatusOr<std::unique_ptr<PgConnection>> admin = PgConnection::Connect(o.connection);
  if (!admin.ok()) return admin.status();
  PgMeasureResult r;
  r.target = (*admin)->target();
  if (o.connection.host.empty()) {
    // libpq chose the server (PGHOST, its default socket folder): say
    // which, as the server sees the connection.
    absl::StatusOr<std::vector<PgConnection::Row>> where = (*admin)->Query(
        "SELECT coalesce(host(inet_server_addr()), ''), coalesce(inet_server_port()::text, current_setting('port')), "
        "current_setting('unix_socket_directories'), current_user, current_database()");
    if (where.ok() && where->size() == 1 && (*where)[0].size() == 5) {
      const PgConnection::Row& w = (*where)[0];
      const std::string addr = w[0].value_or("");
      r.target = absl::StrCat(addr.empty() ? absl::StrCat("socket in ", w[2].value_or("")) : "host " + addr, " port ",
                              w[1].value_or(""), " user ", w[3].value_or(""), " database ", w[4].value_or(""),
                              " (libpq's environment)");
    }
  }
  r.version_num = (*admin)->server_version();
  r.database = o.database;
  absl::StatusOr<std::string> version = (*admin)->QueryString("SHOW server_version");
  if (!version.ok()) return version.status();
  r.version = *version;
  if (absl::Status s = (*admin)->Exec(absl::StrCat("CREATE DATABASE ", (*admin)->QuoteIdentifier(o.database)));
      !s.ok()) {
    return Context(s, absl::StrCat("creating database ", o.database, " (the user needs CREATEDB)"));
  }
  DatabaseGuard guard(admin->get(), o.database, r.version_num >= 130000);
  // CREATE DATABASE copies the template by WAL (PostgreSQL 15's
  // WAL_LOG strategy: an image of each block); this backend's counters of
  // it must reach pg_stat_wal before the reset, not during the load.
  if (absl::Status s = FlushOwnStats(**admin); !s.ok()) return s;
  absl::StatusOr<PgMeasureResult> out = [&]() -> absl::StatusOr<PgMeasureResult> {
    PgConnectionOptions co = o.connection;
    co.dbname = o.database;
    absl::StatusOr<std::unique_ptr<PgConnection>> cc = PgConnection::Connect(co);
    if (!cc.ok()) return cc.status();
    PgConnection& c = **cc;
    for (const char* ext : {"pgstattuple", "pg_buffercache"}) {
      if (absl::Status s = CreateExtension(c, ext); !s.ok()) return s;
    }
    if (absl::Status s = c.Exec(o.create_sql); !s.ok()) return Context(s, "creating the table");
    const std::string table = c.QuoteIdentifier(o.table);
    const std::string table_lit = c.QuoteLiteral(o.table);
    // No background VACUUM or ANALYZE of the table between the steps.
    if (absl::Status s = c.Exec(absl::StrCat("ALTER TABLE ", table, " SET (autovacuum_enabled = false)")); !s.ok()) {
      return s;
    }
    absl::StatusOr<std::vector<PgConnection::Row>> ixrows = c.Query(absl::StrCat(
        "SELECT i.indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND i.indrelid = ",
        table_lit, "::regclass ORDER BY 1"));
    if (!ixrows.ok()) return ixrows.status();
    std::vector<std::string> indexes;
    for (const PgConnection::Row& row : *ixrows) indexes.push_back(row[0].value_or(""));

    absl::StatusOr<std::vector<std::pair<std::string, std::string>>> settings = ShowSettings(c, o.setting_names);
    if (!settings.ok()) return settings.status();
    r.settings = *settings;

    std::string insert_sql = absl::StrCat("INSERT INTO ", table, " (");
    std::vector<std::string> literals;
    bool first = true;
    for (const PgMeasureColumn& col : o.columns) {
      literals.push_back(c.QuoteLiteral(col.text));
      if (col.by_default) continue;
      absl::StrAppend(&insert_sql, first ? "" : ", ", c.QuoteIdentifier(col.name));
      first = false;
    }
    absl::StrAppend(&insert_sql, ") VALUES ");

    // The statistics from zero: this database's (pg_stat_reset) and the
    // shared ones the figures come from.
    std::vector<std::string> resets = {"SELECT pg_stat_reset()", "SELECT pg_stat_reset_shared('bgwriter')",
                                       "SELECT pg_stat_reset_shared('wal')"};
    if (r.version_num >= 170000) resets.push_back("SELECT pg_stat_reset_shared('checkpointer')");
    if (r.version_num >= 160000) resets.push_back("SELECT pg_stat_reset_shared('io')");
    std::string reset_failure;
    for (const std::string& sql : resets) {
      if (absl::Status s = c.Exec(sql); !s.ok() && reset_failure.empty()) {
        reset_failure = absl::StrCat(sql.substr(7), ": ", s.message());
      }
    }
    r.sanity.push_back({"statistics reset", reset_failure.empty(),
                        reset_failure.empty() ? absl::StrJoin(resets, "; ") : reset_failure});

    if (absl::Status s = FlushOwnStats(c); !s.ok()) return s;
    absl::StatusOr<WalSnapshot> wal0 = ReadWal(c);
    if (!wal0.ok()) return wal0.status();
    absl::StatusOr<Counters> counters0 = ReadCounters(c, r.version_num, o.table, indexes);
    if (!counters0.ok()) return counters0.status();

    uint64_t done_total = 0;
    int64_t expected = 0;
    std::map<std::string, int64_t> sums;
    Counters order;
    bool rows_ok = true;
    std::string rows_detail;
    for (const PgMeasureStep& st : o.steps) {
      const auto t0 = std::chrono::steady_clock::now();
      if (st.kind == PgMeasureStep::Kind::kInsert) {
        if (absl::Status s = LoadStep(c, o, insert_sql, literals, st, &done_total); !s.ok()) return s;
        expected += static_cast<int64_t>(st.rows);
      } else if (st.kind == PgMeasureStep::Kind::kDelete) {
        if (o.interrupted && o.interrupted()) return absl::CancelledError(absl::StrCat("interrupted before ", st.text));
        absl::StatusOr<int64_t> deleted = DeleteStep(c, o, table, st);
        if (!deleted.ok()) return Context(deleted.status(), st.text);
        expected -= *deleted;
        // The model's delete phase: the DELETE committed, then a VACUUM of
        // the table on a quiet server (VACUUM runs outside a transaction).
        if (absl::Status s = c.Exec(absl::StrCat("VACUUM ", table)); !s.ok()) return Context(s, st.text);
      } else if (st.kind == PgMeasureStep::Kind::kReindex) {
        if (o.interrupted && o.interrupted()) return absl::CancelledError(absl::StrCat("interrupted before ", st.text));
        if (absl::Status s = c.Exec(absl::StrCat("REINDEX TABLE ", table)); !s.ok()) return Context(s, st.text);
      } else {
        if (o.interrupted && o.interrupted()) return absl::CancelledError(absl::StrCat("interrupted before ", st.text));
        absl::StatusOr<int64_t> before = CheckpointsRequested(c, r.version_num);
        if (!before.ok()) return before.status();
        if (absl::Status s = c.Exec("CHECKPOINT"); !s.ok()) return Context(s, st.text);
        // The checkpointer reports its counters (and its WAL's) after it
        // has woken the CHECKPOINT's backend: wait until they are in.
        if (absl::Status s = WaitForCheckpointStats(c, r.version_num, *before); !s.ok()) return s;
      }
      PgMeasuredStep m;
      m.text = st.text;
      m.elapsed_s = Since(t0);
      m.expected_rows = expected;
      if (&st == &o.steps.front()) r.load_elapsed_s = m.elapsed_s;
      // The step's figures before anything reads the table (a read sets
      // hint bits, which dirties heap blocks; ANALYZE writes WAL).
      if (absl::Status s = FlushOwnStats(c); !s.ok()) return s;
      absl::StatusOr<WalSnapshot> wal1 = ReadWal(c);
      if (!wal1.ok()) return wal1.status();
      m.wal_records = wal1->records - wal0->records;
      m.wal_fpi = wal1->fpi - wal0->fpi;
      m.wal_bytes = wal1->bytes - wal0->bytes;
      m.wal_lsn_diff = wal1->lsn - wal0->lsn;
      absl::StatusOr<Counters> counters1 = ReadCounters(c, r.version_num, o.table, indexes);
      if (!counters1.ok()) return counters1.status();
      m.counters = Delta(*counters1, *counters0);
      for (const auto& [name, v] : m.counters) {
        if (sums.count(name) == 0) order.push_back({name, 0});
        sums[name] += v;
      }
      PgRelationFigures heap;
      heap.name = o.table;
      absl::StatusOr<int64_t> dirty = DirtyBlocks(c, o.table);
      if (!dirty.ok()) return dirty.status();
      heap.dirty_blocks = *dirty;
      std::vector<PgRelationFigures> rels;
      for (const std::string& ix : indexes) {
        PgRelationFigures f;
        f.name = ix;
        f.index = true;
        if (!(dirty = DirtyBlocks(c, ix)).ok()) return dirty.status();
        f.dirty_blocks = *dirty;
        rels.push_back(std::move(f));
      }
      // Then the reads: ANALYZE, count(*), relpages, pgstatindex.
      absl::StatusOr<PgLoadResult> stats = PgReadTableStats(c, table);
      if (!stats.ok()) return Context(stats.status(), absl::StrCat("reading the table after ", st.text));
      m.rows = stats->rows;
      heap.relpages = stats->heap_relpages;
      heap.pg_relation_size = stats->heap_relation_size;
      for (PgRelationFigures& f : rels) {
        for (const PgIndexStats& s : stats->indexes) {
          if (s.name == f.name) {
            f.stat = s;
            f.relpages = s.relation_size / (stats->block_size > 0 ? stats->block_size : 8192);
            f.pg_relation_size = s.relation_size;
          }
        }
      }
      m.relations.push_back(std::move(heap));
      for (PgRelationFigures& f : rels) m.relations.push_back(std::move(f));
      if (m.rows != m.expected_rows) {
        rows_ok = false;
        if (rows_detail.empty()) {
          rows_detail = absl::StrCat("after ", st.text, ": count(*) ", m.rows, ", expected ", m.expected_rows);
        }
      }
      r.steps.push_back(std::move(m));
      // The next step's baseline, after the reads.
      if (absl::Status s = FlushOwnStats(c); !s.ok()) return s;
      if (!(wal0 = ReadWal(c)).ok()) return wal0.status();
      if (!(counters0 = ReadCounters(c, r.version_num, o.table, indexes)).ok()) return counters0.status();
    }
    for (const auto& [name, v] : order) r.counters.push_back({name, sums[name]});
    r.sanity.push_back({"row count read back", rows_ok,
                        rows_ok ? absl::StrCat("count(*) = ", expected, " after the last step") : rows_detail});

    absl::StatusOr<std::vector<std::pair<std::string, std::string>>> again = ShowSettings(c, o.setting_names);
    if (!again.ok()) return again.status();
    std::string changed;
    for (size_t i = 0; i < again->size() && i < r.settings.size(); ++i) {
      if ((*again)[i].second != r.settings[i].second) {
        absl::StrAppend(&changed, changed.empty() ? "" : ", ", r.settings[i].first, " ", r.settings[i].second, " -> ",
                        (*again)[i].second);
      }
    }
    r.sanity.push_back({"settings read back", changed.empty(),
                        changed.empty() ? absl::StrCat(r.settings.size(), " settings unchanged from start to end")
                                        : absl::StrCat("changed during the run: ", changed)});
    if (!o.command_line_settings.empty()) {
      std::string not_taken;
      for (const std::string& n : o.command_line_settings) {
        absl::StatusOr<std::string> src =
            c.QueryString(absl::StrCat("SELECT source FROM pg_settings WHERE name = ", c.QuoteLiteral(n)));
        if (!src.ok() || *src != "command line") {
          absl::StrAppend(&not_taken, not_taken.empty() ? "" : ", ", n, " (source ", src.ok() ? *src : "unknown", ")");
        }
      }
      r.sanity.push_back({"--set taken by the server", not_taken.empty(),
                          not_taken.empty() ? absl::StrJoin(o.command_line_settings, ", ") : not_taken});
    }
    absl::StatusOr<std::string> relopts =
        c.QueryString(absl::StrCat("SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = ",
                                   table_lit, "::regclass"));
    const bool av_off = relopts.ok() && relopts->find("autovacuum_enabled=false") != std::string::npos;
    r.sanity.push_back({"autovacuum off for the table", av_off,
                        relopts.ok() ? absl::StrCat("reloptions {", *relopts, "}") : std::string(relopts.status().message())});
    return r;
  }();
  // The connection to the database is closed (the lambda's scope); drop it.
  absl::Status dropped = guard.Drop();
  if (!out.ok()) return out.status();
  out->dropped = dropped.ok();
  if (!dropped.ok()) out->notes.push_back(absl::StrCat("could not drop database ", o.database, ": ", dropped.message()));
  out->valid = true;
  for (const PgSanityCheck& chk : out->sanity) out->valid = out->valid && chk.pass;
  return out;
}

}  // namespace innosim
