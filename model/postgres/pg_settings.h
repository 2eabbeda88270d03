// PgSettings: the PostgreSQL server settings (GUCs) the model reads, with
// the profile's defaults (utils/misc/guc_tables.c, REL_15 guc.c; the
// postgresql.conf.sample of both: the same values in 15 and 18), each set
// as the server takes it:
//
//   PgSettings s = PgSettings::Defaults(kPostgresql15);
//   s.Set("shared_buffers", "16MB");          // 2048 buffers of 8 kB
//   s.Set("checkpoint_timeout", "30s");       // or "5min", or "300" (s)
//   s.Set("wal_compression", "pglz");         // InvalidArgument: not modelled
//
// Names: case-insensitive, '-' as '_' (postgres -c --name=value does so).
// Values: guc.c parse_int / parse_real with the GUC's base unit (shared_buffers
// 8 kB blocks, max_wal_size/min_wal_size MB, checkpoint_timeout s,
// bgwriter_delay ms) and the memory units B, kB, MB, GB, TB (x1024) and time
// units us, ms, s, min, h, d (case-sensitive, as guc.c's unit tables); a
// fraction is rounded to the base unit as convert_to_base_unit does (rint);
// booleans as parse_bool (on/off, true/false, yes/no, 1/0, unique prefixes).
// So every value as SHOW prints it ("128MB", "1GB", "5min", "200ms", "0.9",
// "on") is accepted. Out of the GUC's range: InvalidArgument (the server
// refuses the value; it does not clamp). Read-only settings (block_size,
// data_checksums) take the value the server was built or initdb'd with.
// A value the model does not simulate (wal_compression other than off,
// data_checksums or wal_log_hints on, block_size other than 8192) is
// InvalidArgument in one line saying so.
//
// Value type.
#ifndef INNOSIM_MODEL_POSTGRES_PG_SETTINGS_H_
#define INNOSIM_MODEL_POSTGRES_PG_SETTINGS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "model/postgres/profile.h"

namespace innosim::postgres {

struct PgSettings {
  // shared_buffers in 8 kB buffers (NBuffers): 16384 = 128MB, boot value in
  // guc_tables.c and initdb's choice here (postgresql.conf.sample
  // "#shared_buffers = 128MB"); min 16, max INT_MAX / 2.
  int64_t shared_buffers = 16384;
  // checkpoint_timeout (CheckPointTimeout), seconds: 300 (5min), 30..86400.
  int64_t checkpoint_timeout = 300;
  // max_wal_size (max_wal_size_mb), MB: 1024 (1GB), 2..MAX_KILOBYTES; the
  // server refuses less than two WAL segments (xlog.c ReadControlFile).
  int64_t max_wal_size = 1024;
  // min_wal_size (min_wal_size_mb), MB: 80 (5 * 16 MB segments). Only WAL
  // file recycling follows it; kept for SHOW's sake.
  int64_t min_wal_size = 80;
  // checkpoint_completion_target (CheckPointCompletionTarget): 0.9 since
  // PostgreSQL 14, 0.0..1.0.
  double checkpoint_completion_target = 0.9;
  // bgwriter_delay (BgWriterDelay), ms: 200, 10..10000.
  int64_t bgwriter_delay = 200;
  // bgwriter_lru_maxpages: 100, 0..INT_MAX / 2 (0 turns the LRU scan off).
  int64_t bgwriter_lru_maxpages = 100;
  // bgwriter_lru_multiplier: 2.0, 0..10.0.
  double bgwriter_lru_multiplier = 2.0;
  // full_page_writes: on.
  bool full_page_writes = true;
  // wal_compression: off (the only value modelled).
  std::string wal_compression = "off";
  // data_checksums: initdb's choice (read-only): off for initdb without -k.
  // PostgreSQL 18's initdb turns checksums on by default, but the model
  // writes no hint-bit images, so its default here stays off and `on` is
  // refused (see Set).
  bool data_checksums = false;
  // wal_log_hints: off.
  bool wal_log_hints = false;
  // block_size (BLCKSZ, read-only): 8192.
  int64_t block_size = 8192;

  // Where each setting that was set came from (name, origin), in order.
  std::vector<std::pair<std::string, std::string>> origins;

  static PgSettings Defaults(const PgProfile& profile);

  // Sets one GUC as the server takes it; `origin` names where it came from
  // in the error ("--set", "server").
  absl::Status Set(std::string_view name, std::string_view value, std::string_view origin = "--set");

  // Each setting as SHOW prints it, in the order above, with its origin
  // ("default" or where it was set).
  struct Row {
    std::string name;
    std::string value;
    std::string origin;
  };
  std::vector<Row> Describe() const;

  // The names Set knows.
  static const std::vector<std::string>& Names();
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PG_SETTINGS_H_
