// Series writer: the time series of a run (`innosim run --series FILE.csv`)
// as CSV, one row per RunSpec::series_every rows (10,000 from the CLI):
//
//   rows,seconds,lsn,checkpoint_age,dirty_pages,pages_written,buffer_pool_reads
//   10000,0.100000,1834567,1834567,412,0,0
//
//   rows               rows inserted so far
//   seconds            simulated time (rows / rows_per_sec)
//   lsn                the redo log's LSN (bytes since the start)
//   checkpoint_age     LSN minus what the next checkpoint would leave
//   dirty_pages        pages in the flush list
//   pages_written      Innodb_pages_written so far
//   buffer_pool_reads  Innodb_buffer_pool_reads so far
// Counters are cumulative: a batch's reads are the difference of two rows.
//
// A PostgreSQL run's series has the same shape under PostgreSQL's names:
//   rows,seconds,wal_insert_lsn,redo_lsn,dirty_buffers,buffers_written,blks_read
//   wal_insert_lsn   pg_current_wal_insert_lsn() as a byte position
//   redo_lsn         the last checkpoint's redo pointer (pg_control_checkpoint())
//   dirty_buffers    pg_buffercache's isdirty count over the table's relations
//   buffers_written  checkpointer + background writer + backend victim writes
//   blks_read        blocks read into shared buffers (heap and indexes)
//
// Pure functions apart from the file write; no thread-safety concerns.
#ifndef INNOSIM_SIM_SERIES_WRITER_H_
#define INNOSIM_SIM_SERIES_WRITER_H_

#include <string>

#include "absl/status/status.h"
#include "sim/runner.h"

namespace innosim {

// The CSV header line (without the newline).
inline constexpr char kSeriesCsvHeader[] =
    "rows,seconds,lsn,checkpoint_age,dirty_pages,pages_written,buffer_pool_reads";

inline constexpr char kPgSeriesCsvHeader[] =
    "rows,seconds,wal_insert_lsn,redo_lsn,dirty_buffers,buffers_written,blks_read";

std::string SeriesCsv(const RunResult& r);
// One data line of SeriesCsv (the header's columns, without the newline),
// for writers that put the simulated series beside another one.
std::string SeriesCsvLine(const SeriesPoint& p);
// Writes SeriesCsv(r) to `path` atomically (temporary file + rename).
absl::Status WriteSeriesCsv(const std::string& path, const RunResult& r);

}  // namespace innosim

#endif  // INNOSIM_SIM_SERIES_WRITER_H_
