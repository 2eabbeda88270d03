// SimulateTree: the tablespace a RunSpec leaves behind, as an Engine one can
// look at page by page (for pictures: `innosim run --page-map`).
//
// Run() (sim/runner.h) keeps its engine to itself and returns figures only;
// SimulateTree inserts the same rows in the same order (the stream's keys,
// then each secondary index's entry of the row, as Run's loop does) into an
// engine without the flush model, and returns it. The page cleaner and the
// buffer pool only watch the tree (Engine's page-event sink), so the pages
// are those of Run(spec): the same n_leaf_pages, size and page numbers.
// tests/page_map_sim_test.cc holds the two to that.
//
// Errors: those of Run() for the same spec (bad stream, table, settings, a
// duplicate key or a key file too short), as one-line statuses.
//
// Thread safety: none needed; each call builds its own engine.
#ifndef INNOSIM_SIM_SIMULATED_TREE_H_
#define INNOSIM_SIM_SIMULATED_TREE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "model/engine.h"
#include "sim/runner.h"

namespace innosim {

// The engine after spec.rows rows of spec's stream (spec.flush is ignored:
// the structure does not depend on it).
absl::StatusOr<std::unique_ptr<Engine>> SimulateTree(const RunSpec& spec);

}  // namespace innosim

#endif  // INNOSIM_SIM_SIMULATED_TREE_H_
