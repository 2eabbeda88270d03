// libFuzzer harness: CREATE TABLE statements (`--table 'CREATE TABLE ...'`).
//
// The input is parsed as a statement, then resolved for both key widths (16
// for UUID streams, 8 for autoinc), as a run does. Contract checked: no
// crash, no sanitizer report; a parsed table has one value kind per column.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sim/table_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  innosim::TableOptions options;
  absl::StatusOr<innosim::TableSchema> t = innosim::ParseCreateTable(sql, options);
  if (t.ok() && t->values.size() != t->def.columns.size()) std::abort();
  for (int width : {16, 8}) {
    absl::StatusOr<innosim::TableSchema> r = innosim::ResolveTable(sql, width, options);
    if (r.ok() && r->values.size() != r->def.columns.size()) std::abort();
  }
  return 0;
}
