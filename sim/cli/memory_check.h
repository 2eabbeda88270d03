// Issue 29, item 2: the model's memory estimated before any work, and a
// refusal in one line when it cannot fit in the memory available here.
//
//   if (absl::Status s = CheckMemoryFor(specs, parallel, force); !s.ok()) return Fail(2, ...);
//
// The estimate is a lower bound from what each engine's model keeps for
// every row of the run (docs/limits.md), never a fitted figure.
#ifndef INNOSIM_SIM_CLI_MEMORY_CHECK_H_
#define INNOSIM_SIM_CLI_MEMORY_CHECK_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "sim/runner.h"

namespace innosim::cli {

// --force's help, the same in every subcommand that has it.
inline constexpr char kForceMemoryHelp[] =
    "run even when the model's memory estimate exceeds the memory available here (docs/limits.md)";

// The bytes the model keeps per row of `spec` at least: InnoDB's 16-byte
// key head of each record in its page's block (sizeof(KeyHalf),
// IndexPage::BlockBytes); PostgreSQL's index tuple of the primary key in
// its page (postgres::BtIndex::ModelTupleBytes).
uint64_t ModelBytesPerRow(const RunSpec& spec);

// OK when `force`, or when `parallel` runs of the largest of `specs` (at
// most specs.size() of them) fit in MemAvailable; else one line with the
// estimate, the memory available and the way out. `extra_per_row`: bytes a
// row the command keeps besides the model (bench's btree_set of the keys).
absl::Status CheckMemoryFor(const std::vector<RunSpec>& specs, uint64_t parallel, bool force,
                            uint64_t extra_per_row = 0);

}  // namespace innosim::cli

#endif  // INNOSIM_SIM_CLI_MEMORY_CHECK_H_
