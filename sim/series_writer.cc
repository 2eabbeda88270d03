#include "sim/series_writer.h"

#include "absl/strings/str_format.h"
#include "sim/report.h"

namespace innosim {

std::string SeriesCsv(const RunResult& r) {
  std::string s = kSeriesCsvHeader;
  s += '\n';
  for (const SeriesPoint& p : r.series) {
    const FlushModel::Sample& x = p.sample;
    absl::StrAppendFormat(&s, "%d,%.6f,%d,%d,%d,%d,%d\n", p.rows, x.seconds, x.lsn, x.checkpoint_age, x.dirty_pages,
                          x.pages_written, x.buffer_pool_reads);
  }
  return s;
}

absl::Status WriteSeriesCsv(const std::string& path, const RunResult& r) {
  return WriteFileAtomically(path, SeriesCsv(r));
}

}  // namespace innosim
