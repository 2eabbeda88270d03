#include "tools/pg_load.h"

#include <cstdio>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

// splitmix64's step (Steele, Lea, Flood 2014): the payload's letters.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// `n` letters a-z drawn from the key, appended to `out`.
void AppendPayload(const Key& k, uint32_t n, std::string* out) {
  uint64_t state = k.hi ^ (k.lo * 0x9e3779b97f4a7c15ull) ^ (k.tail_hi << 1) ^ (k.tail_lo << 2);
  uint64_t bits = 0;
  int left = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (left == 0) {
      bits = SplitMix64(&state);
      left = 12;  // 12 draws of 26 from 64 bits (26^12 < 2^57)
    }
    out->push_back(static_cast<char>('a' + bits % 26));
    bits /= 26;
    --left;
  }
}

absl::StatusOr<int64_t> ParseInt(const std::optional<std::string>& v, const char* what) {
  int64_t out = 0;
  if (!v || !absl::SimpleAtoi(*v, &out)) {
    return absl::InternalError(absl::StrCat("pgstatindex returned a non-integer ", what, ": '", v.value_or("NULL"), "'"));
  }
  return out;
}

absl::StatusOr<double> ParseDouble(const std::optional<std::string>& v, const char* what) {
  double out = 0;
  if (!v || !absl::SimpleAtod(*v, &out)) {
    return absl::InternalError(absl::StrCat("pgstatindex returned a non-number ", what, ": '", v.value_or("NULL"), "'"));
  }
  return out;
}

absl::Status Context(const absl::Status& s, absl::string_view what) {
  return absl::Status(s.code(), absl::StrCat(what, ": ", s.message()));
}

}  // namespace

absl::StatusOr<std::string> PgKeyText(const Key& k, int width, bool bigint_sign_flipped) {
  if (width == 8) {
    const uint64_t v = bigint_sign_flipped ? k.hi ^ (uint64_t{1} << 63) : k.hi;
    if (!bigint_sign_flipped && v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "key ", v, " does not fit a bigint; if the keys are InnoDB's stored form (sign bit flipped), set "
          "bigint_sign_flipped"));
    }
    return absl::StrCat(static_cast<int64_t>(v));
  }
  if (width == 16) {
    uint8_t b[16];
    k.ToBytes(b, 16);
    char text[37];
    std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return std::string(text, 36);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("key width ", width, ": a PostgreSQL load takes 8-byte keys (bigint) or 16-byte keys (uuid)"));
}

absl::StatusOr<PgLoadResult> PgReadTableStats(PgConnection& conn, const std::string& table) {
  PgLoadResult r;
  r.table = table;
  const std::string lit = conn.QuoteLiteral(table);
  if (absl::Status s = conn.Exec(absl::StrCat("ANALYZE ", table)); !s.ok()) return Context(s, "ANALYZE");
  absl::StatusOr<int64_t> v = conn.QueryInt(absl::StrCat("SELECT count(*) FROM ", table));
  if (!v.ok()) return v.status();
  r.rows = *v;
  if (!(v = conn.QueryInt("SELECT current_setting('block_size')::int")).ok()) return v.status();
  r.block_size = *v;
  if (!(v = conn.QueryInt(absl::StrCat("SELECT relpages FROM pg_class WHERE oid = ", lit, "::regclass"))).ok()) {
    return v.status();
  }
  r.heap_relpages = *v;
  if (!(v = conn.QueryInt(absl::StrCat("SELECT pg_relation_size(", lit, "::regclass)"))).ok()) return v.status();
  r.heap_relation_size = *v;

  // pgstatindex reads B-tree indexes only.
  absl::StatusOr<std::vector<PgConnection::Row>> names = conn.Query(absl::StrCat(
      "SELECT i.indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
      "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND i.indrelid = ",
      lit, "::regclass ORDER BY 1"));
  if (!names.ok()) return names.status();
  for (const PgConnection::Row& n : *names) {
    PgIndexStats ix;
    ix.name = n[0].value_or("");
    const std::string ilit = conn.QuoteLiteral(ix.name);
    absl::StatusOr<std::vector<PgConnection::Row>> rows = conn.Query(absl::StrCat(
        "SELECT version, tree_level, index_size, root_block_no, internal_pages, leaf_pages, empty_pages, "
        "deleted_pages, avg_leaf_density, leaf_fragmentation, pg_relation_size(",
        ilit, "::regclass) FROM pgstatindex(", ilit, ")"));
    if (!rows.ok()) return Context(rows.status(), absl::StrCat("pgstatindex of ", ix.name));
    if (rows->size() != 1 || (*rows)[0].size() != 11) {
      return absl::InternalError(absl::StrCat("pgstatindex of ", ix.name, " returned no row of 11 columns"));
    }
    const PgConnection::Row& row = (*rows)[0];
    absl::StatusOr<int64_t> i;
    absl::StatusOr<double> d;
    if (!(i = ParseInt(row[0], "version")).ok()) return i.status();
    ix.version = static_cast<int>(*i);
    if (!(i = ParseInt(row[1], "tree_level")).ok()) return i.status();
    ix.tree_level = static_cast<int>(*i);
    int64_t* fields[] = {&ix.index_size, &ix.root_block_no, &ix.internal_pages, &ix.leaf_pages,
                         &ix.empty_pages, &ix.deleted_pages};
    const char* field_names[] = {"index_size", "root_block_no", "internal_pages", "leaf_pages",
                                 "empty_pages", "deleted_pages"};
    for (int f = 0; f < 6; ++f) {
      if (!(i = ParseInt(row[2 + f], field_names[f])).ok()) return i.status();
      *fields[f] = *i;
    }
    if (!(d = ParseDouble(row[8], "avg_leaf_density")).ok()) return d.status();
    ix.avg_leaf_density = *d;
    if (!(d = ParseDouble(row[9], "leaf_fragmentation")).ok()) return d.status();
    ix.leaf_fragmentation = *d;
    if (!(i = ParseInt(row[10], "pg_relation_size")).ok()) return i.status();
    ix.relation_size = *i;
    r.indexes.push_back(std::move(ix));
  }
  return r;
}

absl::StatusOr<PgLoadResult> PgLoadKeys(const PgConnectionOptions& server, const PgLoadOptions& options,
                                        absl::Span<const Key> keys) {
  if (options.key_width != 8 && options.key_width != 16) {
    return PgKeyText(Key{}, options.key_width, false).status();
  }
  if (options.batch_rows == 0) {
    return absl::InvalidArgumentError("batch_rows is 0; give the rows per COPY transaction (1 or more)");
  }
  if (options.database.empty()) return absl::InvalidArgumentError("no database name; give one to load into");
  if (!options.append) {
    if (options.create_sql.empty()) {
      return absl::InvalidArgumentError("no CREATE TABLE statement; give create_sql (or append to a loaded table)");
    }
    PgConnectionOptions admin = server;
    admin.dbname = "postgres";
    absl::StatusOr<std::unique_ptr<PgConnection>> c = PgConnection::Connect(admin);
    if (!c.ok()) return c.status();
    const std::string db = (*c)->QuoteIdentifier(options.database);
    if (absl::Status s = (*c)->Exec(absl::StrCat("DROP DATABASE IF EXISTS ", db)); !s.ok()) return s;
    if (absl::Status s = (*c)->Exec(absl::StrCat("CREATE DATABASE ", db)); !s.ok()) return s;
  }
  PgConnectionOptions target = server;
  target.dbname = options.database;
  absl::StatusOr<std::unique_ptr<PgConnection>> conn = PgConnection::Connect(target);
  if (!conn.ok()) return conn.status();
  PgConnection& c = **conn;
  if (!options.append) {
    if (absl::Status s = c.Exec("CREATE EXTENSION IF NOT EXISTS pgstattuple"); !s.ok()) {
      return Context(s, "pgstattuple is part of postgresql-15 (contrib)");
    }
    if (absl::Status s = c.Exec(options.create_sql); !s.ok()) return s;
  }

  absl::StatusOr<std::vector<PgConnection::Row>> tables = c.Query(
      "SELECT oid::regclass::text FROM pg_class WHERE relkind IN ('r', 'p') "
      "AND relnamespace = 'public'::regnamespace ORDER BY 1");
  if (!tables.ok()) return tables.status();
  if (tables->size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("database ", options.database, " holds ", tables->size(),
                                                   " tables in schema public; the load needs exactly one (give a "
                                                   "create_sql that makes one table)"));
  }
  const std::string table = (*tables)[0][0].value_or("");
  absl::StatusOr<std::vector<PgConnection::Row>> cols = c.Query(absl::StrCat(
      "SELECT attname FROM pg_attribute WHERE attrelid = ", c.QuoteLiteral(table),
      "::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"));
  if (!cols.ok()) return cols.status();
  const size_t need = options.payload_bytes > 0 ? 2 : 1;
  if (cols->size() < need) {
    return absl::InvalidArgumentError(absl::StrCat("table ", table, " has ", cols->size(), " columns; a load with ",
                                                   options.payload_bytes > 0 ? "a payload needs 2 (key, text)" : "needs 1 (the key)"));
  }
  std::string copy = absl::StrCat("COPY ", table, " (", c.QuoteIdentifier((*cols)[0][0].value_or("")));
  if (need == 2) absl::StrAppend(&copy, ", ", c.QuoteIdentifier((*cols)[1][0].value_or("")));
  absl::StrAppend(&copy, ") FROM STDIN");

  std::string data;
  for (size_t at = 0; at < keys.size(); at += options.batch_rows) {
    const size_t end = std::min(keys.size(), at + options.batch_rows);
    data.clear();
    for (size_t i = at; i < end; ++i) {
      absl::StatusOr<std::string> text = PgKeyText(keys[i], options.key_width, options.bigint_sign_flipped);
      if (!text.ok()) return Context(text.status(), absl::StrCat("row ", i + 1));
      data.append(*text);
      if (need == 2) {
        data.push_back('\t');
        AppendPayload(keys[i], options.payload_bytes, &data);
      }
      data.push_back('\n');
    }
    if (absl::Status s = c.CopyIn(copy, data); !s.ok()) {
      return Context(s, absl::StrCat("COPY of rows ", at + 1, "..", end, " (", at, " loaded before)"));
    }
  }

  absl::StatusOr<PgLoadResult> r = PgReadTableStats(c, table);
  if (!r.ok()) return r.status();
  r->rows_loaded = static_cast<int64_t>(keys.size());
  return r;
}

}  // namespace innosim
