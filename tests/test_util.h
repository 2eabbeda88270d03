// Helpers shared by several test files.
#ifndef INNOSIM_TESTS_TEST_UTIL_H_
#define INNOSIM_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "model/server_settings.h"
#include "model/key.h"
#include "model/record_format.h"
#include "sim/compare.h"  // RelativeError, as `measure` and `experiment` compute it
#include "sim/key_stream.h"
#include "sim/runner.h"

namespace innosim {

// The smallest innodb_buffer_pool_size, in whole pages, that gives `frames`
// frames under `s`'s server (MariaDB's block descriptors take pages of the
// pool): for tests that need a pool of a given number of frames.
inline uint64_t PoolBytesForFrames(ServerSettings s, uint64_t frames) {
  uint64_t pages = frames;
  s.innodb_buffer_pool_size = pages * s.innodb_page_size;
  while (s.BufferPoolPages() < frames) s.innodb_buffer_pool_size = ++pages * s.innodb_page_size;
  return s.innodb_buffer_pool_size;
}

// An 8-byte key of value v (the keys of autoinc), for hand-built trees.
inline Key K(uint64_t v) { return Key::FromU64(v); }

// A NOT NULL BINARY(bytes) column.
inline ColumnDef BinaryColumn(const std::string& name, uint32_t bytes) {
  return ColumnDef{name, "BINARY(" + std::to_string(bytes) + ")", bytes, bytes, false, false};
}

// t (id BINARY(id_bytes) PRIMARY KEY, `column` BINARY(column_bytes),
// KEY `column` (`column`)): one secondary index, whose entries are (column,
// id).
inline TableDef BinaryTableWithIndex(uint32_t id_bytes, const std::string& column, uint32_t column_bytes) {
  TableDef t;
  t.name = "t";
  t.columns = {BinaryColumn("id", id_bytes), BinaryColumn(column, column_bytes)};
  t.primary = {"PRIMARY", {0}, true};
  t.secondary = {{column, {1}, false}};
  return t;
}

// Run(spec), failing the test (and returning an empty result) on an error.
inline RunResult MustRun(const RunSpec& spec) {
  absl::StatusOr<RunResult> r = Run(spec);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : RunResult{};
}

// A run of `rows` keys of `stream` at seed 000's 482 rows/ms.
inline RunResult MustRun(const std::string& stream, uint64_t rows, uint32_t page_size = 16384,
                         const std::string& profile = "mysql-8.4", uint64_t seed = 1) {
  RunSpec spec;
  spec.stream.name = stream;
  spec.stream.seed = seed;
  spec.stream.rows_per_ms = 482;
  spec.rows = rows;
  spec.page_size = page_size;
  spec.profile = profile;
  return MustRun(spec);
}

// StreamSpec's default start (2026-01-01T00:00:00Z).
inline constexpr uint64_t kStartMs = 1767225600000;

// A key stream of `name`, failing the test (and returning nullptr) on an error.
inline std::unique_ptr<KeyStream> MakeStream(const std::string& name, uint64_t seed = 1, uint64_t rows_per_ms = 482,
                                             uint64_t start_ms = kStartMs) {
  StreamSpec spec;
  spec.name = name;
  spec.seed = seed;
  spec.rows_per_ms = rows_per_ms;
  spec.start_ms = start_ms;
  absl::StatusOr<std::unique_ptr<KeyStream>> s = MakeKeyStream(spec);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

}  // namespace innosim

#endif  // INNOSIM_TESTS_TEST_UTIL_H_
