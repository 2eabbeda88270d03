// Which runs may share one tree (a speed device: model/fast/fan_out_sink.h).
//
// A load's B-trees depend on its rows, its table and the engine's page
// rules, never on its buffer pool, redo log or page cleaner. Runs that
// differ only there (seed 000's doublewrite pair, a sweep of pool sizes or
// of the insert rate) can be simulated by one engine with one instance per
// configuration (Engine's several-configuration constructor): the tree's
// work, most of a random-key run's time, is done once. RunMany groups them
// (MayShareTree, which asks the engine about the server variables); the
// engine's preparation refuses a group it cannot share after all (its
// table), which RunMany then runs one by one. Results are the same either way
// (tests/shared_tree_equivalence_test.cc).
#ifndef INNOSIM_SIM_SHARED_TREE_H_
#define INNOSIM_SIM_SHARED_TREE_H_

#include <string>

#include "absl/status/status.h"
#include "model/server_settings.h"
#include "sim/runner.h"

namespace innosim {

// Whether runs `a` and `b`, with their configurations (ConfigFor), may
// share one tree: the same stream (its synthetic clock aside when the
// stream does not read it: StreamInfo::uses_clock), rows, profile, page size, table, payload
// and column sources, the engine's buffers on, no phases, no time series,
// no per-page write counts, and settings the engine says its trees read
// alike (EngineKind::shares_tree). The engine's preparation may still
// refuse the pair once it has read the table (InnodbPrepareShared).
bool MayShareTree(const RunSpec& a, const RunConfig& ca, const RunSpec& b, const RunConfig& cb);

// EngineKind::shares_tree of InnoDB: OK if the two configurations have the
// same engine profile and differ only in variables no B-tree reads (the
// buffer pool, LRU, page cleaner, doublewrite, redo log and statistics
// variables); else FailedPrecondition naming the first that differs.
absl::Status InnodbSharesTree(const RunConfig& a, const RunConfig& b);

}  // namespace innosim

#endif  // INNOSIM_SIM_SHARED_TREE_H_
