// PhaseRunner: a run's phases after its first insert (sim/phases.h,
// docs/phases.md): more rows of another stream, a DELETE and its clean-up,
// a rebuild, a checkpoint; every counter recorded after each phase.
//
// Phases are numbered as the phase table prints them: 1 is the run's own
// insert, spec.phases[i] is i + 2. A delete:phase:N needs the keys phase N
// inserted, and a DELETE of a table with secondary indexes needs each row's
// number (its entries are Encode(row, key)): the runner asks Keeping(n)
// before each insert phase.
//
//   PhaseRunner phases(*load);
//   load->Insert(load->stream(), spec.rows, 0, phases.Keeping(1));
//   phases.Run();   // records phase 1, then runs and records the others
//
// Not thread-safe: one per run.
#ifndef INNOSIM_SIM_PHASE_RUNNER_H_
#define INNOSIM_SIM_PHASE_RUNNER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "sim/load.h"

namespace innosim {

class PhaseRunner {
 public:
  explicit PhaseRunner(Load& load);

  // What insert phase `n` (1 = the run's own insert) keeps of its rows.
  InsertKeeping Keeping(size_t n);
  // Records phase 1, then runs spec.phases in order, recording each. A
  // plain run (no phases) records nothing.
  absl::Status Run();

 private:
  absl::Status Delete(const PhaseSpec& phase);
  absl::Status InsertPhase(size_t n);

  Load& load_;
  // Phases whose keys a delete:phase:N takes, and those keys in insert order.
  std::vector<bool> keep_keys_;
  std::vector<std::vector<Key>> phase_keys_;
  // With secondary indexes and a DELETE: each row's key and number; a
  // purged row's number becomes kPurged.
  bool track_rows_ = false;
  std::vector<std::pair<Key, uint64_t>> row_of_;
  // Rows inserted so far, and the table's AUTO_INCREMENT counter (where a
  // later autoinc phase goes on).
  uint64_t done_ = 0;
  uint64_t autoinc_rows_ = 0;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_PHASE_RUNNER_H_
