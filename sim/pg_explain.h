// PgExplain: every insert of a (usually small) run, step by step, as
// PostgreSQL's nbtree takes it (`innosim explain --profile postgresql-18`;
// sim/explain.h is InnoDB's).
//
//   ExplainSpec e;
//   e.run.profile = "postgresql-18"; e.run.stream.name = "uuidv4"; e.run.rows = 2000;
//   absl::StatusOr<PgExplainResult> r = PgExplain(e);
//   std::cout << PgExplainText(*r);          // or PgExplainJsonLines(*r)
//
// Each index tuple inserted (the primary key's, and each secondary index's
// entry) becomes one PgExplainedInsert: the leaf reached, by the fastpath
// of _bt_search_insert or a descent, and why; its free space against the
// tuple's size; the decision (inserted, deduplicated, split by which of
// _bt_findsplitloc's strategies) with its PostgreSQL function and a
// one-line why; every step (the split's candidates, fillfactor, interval,
// penalty, free space of both halves, the new high key; the downlink into
// the parent; a new root), and each touched page after. The summary gives
// each index's leaves at the end by fill (and the frozen ones apart: split,
// never reached again), the trace's counts of splits by
// kind (equal to the model's counters) and pgstatindex's figures.
//
// Pure computation; thread-safe for separate results.
#ifndef INNOSIM_SIM_PG_EXPLAIN_H_
#define INNOSIM_SIM_PG_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "model/key.h"
#include "model/postgres/nbtree_trace.h"
#include "model/postgres/table.h"
#include "sim/explain.h"

namespace innosim {

struct PgExplainedInsert {
  uint64_t row = 0;  // 1-based
  size_t index = 0;  // in PgExplainResult::indexes
  Key key;           // the row's primary key, as the stream gave it
  Key entry;         // the index tuple's key bytes
  std::vector<postgres::BtTraceEvent> steps;  // steps[0] is kLeafReached
  std::vector<postgres::BtPageView> pages_after;
  std::string decision;  // e.g. "rightmost fillfactor split, new root"
  std::string rule;      // e.g. "_bt_findsplitloc"
  std::string why;
  bool split = false;
};

// One index over the whole run: the trace's counts, the leaves at the end.
struct PgIndexExplained {
  std::string name;
  bool unique = false;
  int key_bytes = 0;  // of an entry's Key
  uint64_t inserts = 0;
  uint64_t leaf_splits[5] = {};      // by postgres::SplitKind, counted from the trace
  uint64_t internal_splits[5] = {};
  uint64_t new_roots = 0;
  uint64_t dedup_passes = 0;  // passes that rewrote the page
  uint64_t fastpath_inserts = 0;
  uint64_t leaves = 0;
  double mean_leaf_fill = 0;  // used bytes / 8152, over the leaves
  // Leaves split at least once and never reached by an insert after their
  // last split ("frozen": ascending keys leave them so), and the others.
  uint64_t frozen = 0;
  double frozen_mean_fill = 0;
  uint64_t receiving = 0;
  double receiving_mean_fill = 0;
  std::vector<uint64_t> fill_histogram = std::vector<uint64_t>(10, 0);  // tenths
};

struct PgExplainResult {
  ExplainSpec spec;
  int key_width = 16;
  std::string table;  // as PostgreSQL's SQL
  uint64_t rows = 0;
  std::vector<PgExplainedInsert> inserts;  // the ones selected for printing
  std::vector<PgIndexExplained> indexes;   // the primary key first
  postgres::PgTableReport report;          // the model's own figures
};

absl::StatusOr<PgExplainResult> PgExplain(const ExplainSpec& spec);

// Readable: one block per index tuple, pages drawn as bars of used / free
// bytes; then each index's summary (docs/explain.md, "PostgreSQL").
std::string PgExplainText(const PgExplainResult& r);
// One JSON object per index tuple, one per line, then one summary object.
std::string PgExplainJsonLines(const PgExplainResult& r);

// EngineKind::explain of the PostgreSQL profiles: text, or JSON lines.
absl::StatusOr<std::string> PostgresExplain(const ExplainSpec& spec, bool json);

// Names as the text and the JSON give them.
const char* BtStepName(postgres::BtStep s);
const char* BtFastpathName(postgres::BtFastpath f);

}  // namespace innosim

#endif  // INNOSIM_SIM_PG_EXPLAIN_H_
