// Phases: a workload as a sequence of steps on one table (innosim run
// --phase, docs/phases.md). The run's --stream/--rows insert is always the
// first phase; each --phase adds one after it:
//   insert:STREAM:ROWS   ROWS more rows of STREAM (any stream name, file:PATH
//                        too: the last ':' separates the rows)
//   delete:every:K       DELETE of every K-th row in key order (the K-th,
//                        2K-th, ...), then its purge
//   delete:phase:N       DELETE of the rows phase N inserted (N as the phase
//                        table numbers it, 1 = the run's own insert), in
//                        key order, then its purge
//   delete:range:F:T     DELETE of the rows from F% to T% of the table in
//                        key order (0:50 = the first half, WHERE id < X),
//                        then its purge
//   optimize             OPTIMIZE TABLE = ALTER TABLE ... FORCE: every index
//                        rebuilt by the sorted index build (Engine::Rebuild)
//   checkpoint           every dirty page written and the checkpoint taken
//                        (Engine::Checkpoint; needs the flush model): the
//                        next phase's dirty pages are those it dirtied
//                        (seed 002's "pages dirtied after a CHECKPOINT")
// Every counter is reported after each phase (RunResult::phases).
#ifndef INNOSIM_SIM_PHASES_H_
#define INNOSIM_SIM_PHASES_H_

#include <cstdint>
#include <string>
#include <vector>
#include <string_view>

#include "absl/status/statusor.h"
#include "model/engine.h"
#include "model/flush_model.h"

namespace innosim {

struct PhaseSpec {
  enum class Kind { kInsert, kOptimize, kDeleteEvery, kCheckpoint, kDeletePhase, kDeleteRange };
  Kind kind = Kind::kInsert;
  std::string stream;  // kInsert
  uint64_t rows = 0;   // kInsert
  uint64_t every = 0;  // kDeleteEvery: K
  uint64_t of_phase = 0;  // kDeletePhase: N (1 = the run's own insert)
  // kDeleteRange: from_pct <= rank * 100 / rows < to_pct, 0 <= from < to <= 100.
  uint32_t from_pct = 0;
  uint32_t to_pct = 0;
  // As given (or "insert:STREAM:ROWS" for the run's own first phase).
  std::string text;
};

// Parses one --phase value; InvalidArgument with one line saying how to
// mend it.
absl::StatusOr<PhaseSpec> ParsePhase(std::string_view text);

// OK when phases[n], if a delete:phase:N, names an insert phase before it
// (phases are numbered as the phase table prints them: 1 is the run's own
// --stream/--rows insert, phases[i] is i + 2); else what to mend.
absl::Status CheckDeletePhaseTarget(const std::vector<PhaseSpec>& phases, size_t n);

// Whether the phase is a DELETE (and its purge): delete:every, delete:phase,
// delete:range.
inline bool IsDeletePhase(PhaseSpec::Kind k) {
  return k == PhaseSpec::Kind::kDeleteEvery || k == PhaseSpec::Kind::kDeletePhase ||
         k == PhaseSpec::Kind::kDeleteRange;
}

// delete:range's rows of a table of `rows` rows: the ranks [first, last) in
// key order, first = floor(rows * from / 100), last = floor(rows * to / 100).
inline void DeleteRangeRanks(const PhaseSpec& p, uint64_t rows, uint64_t* first, uint64_t* last) {
  // floor(rows * pct / 100) without overflow: rows = 100q + r.
  *first = rows / 100 * p.from_pct + rows % 100 * p.from_pct / 100;
  *last = rows / 100 * p.to_pct + rows % 100 * p.to_pct / 100;
}

// Every counter after one phase.
struct PhaseResult {
  PhaseSpec phase;
  EngineReport report;
  // Cumulative, with the flush model (RunSpec::flush).
  FlushModel::Counters flush;
  // With the flush model: Innodb_buffer_pool_pages_dirty at the phase's
  // end, and those of the table's own tablespace (its indexes and
  // allocation pages; the rest are undo and system pages).
  uint64_t dirty_pages = 0;
  uint64_t table_dirty_pages = 0;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_PHASES_H_
