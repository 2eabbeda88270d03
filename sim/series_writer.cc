#include "sim/series_writer.h"

#include "absl/strings/str_format.h"
#include "sim/report.h"

namespace innosim {

std::string SeriesCsv(const RunResult& r) {
  std::string s = kSeriesCsvHeader;
  s += '\n';
  for (const SeriesPoint& p : r.series) {
    s += SeriesCsvLine(p);
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
