#include "sim/series_writer.h"

#include "absl/strings/str_format.h"
#include "sim/report.h"

namespace innosim {

std::string SeriesCsv(const RunResult& r) {
  // A PostgreSQL run's points carry its own figures (PostgresDriver::Sample):
  // the redo pointer where InnoDB's have the checkpoint age.
  const bool pg = r.engine_result != nullptr && r.engine_result->engine() == "postgresql";
  std::string s = pg ? kPgSeriesCsvHeader : kSeriesCsvHeader;
  s += '\n';
  for (const SeriesPoint& p : r.series) {
    if (pg) {
      const FlushModel::Sample& x = p.sample;
      s += absl::StrFormat("%d,%.6f,%d,%d,%d,%d,%d", p.rows, x.seconds, x.lsn, x.checkpoint_lsn, x.dirty_pages,
                           x.pages_written, x.buffer_pool_reads);
    } else {
      s += SeriesCsvLine(p);
    }
    s += '\n';
  }
  return s;
}

std::string SeriesCsvLine(const SeriesPoint& p) {
  const FlushModel::Sample& x = p.sample;
  return absl::StrFormat("%d,%.6f,%d,%d,%d,%d,%d", p.rows, x.seconds, x.lsn, x.checkpoint_age, x.dirty_pages,
                         x.pages_written, x.buffer_pool_reads);
}

absl::Status WriteSeriesCsv(const std::string& path, const RunResult& r) {
  return WriteFileAtomically(path, SeriesCsv(r));
}

}  // namespace innosim
