// libFuzzer harness: PostgreSQL table definitions (`--table 'CREATE TABLE
// ...; CREATE INDEX ...'` with a postgresql-* profile).
//
// The input is parsed, then resolved for the 16-, 8- and 4-byte key widths,
// as a run does; every secondary index of a parsed table gets an entry
// encoder (default sources) and encodes a few rows. Contract checked: no
// crash, no sanitizer report; a parsed table has one value per column, named
// indexes whose columns exist, and entries as wide as the index's key.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/key.h"
#include "sim/pg_entry_encoder.h"
#include "sim/pg_table_parser.h"

namespace {

void Check(const innosim::PgSchema& s) {
  if (s.values.size() != s.spec.columns.size()) std::abort();
  for (size_t c : s.spec.primary_key) {
    if (c >= s.spec.columns.size()) std::abort();
  }
  for (size_t i = 0; i < s.spec.secondary.size(); ++i) {
    const innosim::postgres::PgIndexSpec& ix = s.spec.secondary[i];
    if (ix.name.empty() || ix.name.size() > 63 || ix.columns.empty()) std::abort();
    for (size_t c : ix.columns) {
      if (c >= s.spec.columns.size()) std::abort();
    }
    const innosim::PgEntryEncoder enc(s, i, 1700000000000ull, 1000);
    if (enc.key_bytes() > innosim::Key::kMaxBytes) std::abort();
    for (uint64_t row : {0ull, 1ull, 999ull}) (void)enc.Encode(row, innosim::Key::FromU64(row + 1));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  innosim::PgTableOptions options;
  absl::StatusOr<innosim::PgSchema> t = innosim::ParsePgTable(sql, options);
  if (t.ok()) Check(*t);
  for (int width : {16, 8, 4}) {
    absl::StatusOr<innosim::PgSchema> r = innosim::ResolvePgTable(sql, width, options);
    if (r.ok()) Check(*r);
  }
  return 0;
}
