// Explain: every insert of a (usually small) run, step by step, as InnoDB
// takes it, for learners (`innosim explain`).
//
//   ExplainSpec e;
//   e.run.stream.name = "uuidv7-random"; e.run.rows = 400; e.run.page_size = 4096;
//   absl::StatusOr<ExplainResult> r = Explain(e);
//   std::cout << ExplainText(*r);          // or ExplainJsonLines(*r)
//
// Each insert of the PRIMARY index becomes one ExplainedInsert: its key, the
// leaf reached and the page header there, the decision (optimistic insert,
// refused by the 1/16 reserve, reorganize, right-sibling insert, split to
// the right / keeping one / to the left / at the middle / sure split, root
// raise) with the InnoDB function whose rule it is and a one-line why, every
// step (node pointers, pages allocated, merges), and the fill of each page
// it touched, after. The summary answers the learner's question: how many
// leaves were never inserted into again after their last split ("frozen"),
// with their fill, against the leaves that kept receiving inserts.
//
// With run.flush (the default, as for `run`; --no-flush turns it off) the
// flush model runs too, and each insert records the buffer pool and redo
// log as its row left them (FlushAfter): dirty pages, LSN, checkpoint age,
// Innodb_pages_written so far. Pure computation; thread-safe for separate
// results.
#ifndef INNOSIM_SIM_EXPLAIN_H_
#define INNOSIM_SIM_EXPLAIN_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "model/engine.h"
#include "model/insert_trace.h"
#include "model/key.h"
#include "nlohmann/json.hpp"
#include "sim/runner.h"

namespace innosim {

struct ExplainSpec {
  // Stream, rows, profile, page size, settings, table, rows_per_sec and
  // flush (on unless --no-flush), as `run` takes them.
  RunSpec run;
  // A learner's own keys (--keys); when non-empty they replace the stream
  // and run.rows is their count. key_width: 8 (integers) or 16 (UUIDs).
  std::vector<Key> keys;
  int key_width = 16;
  // Which inserts to print (1-based rows, inclusive); the summary covers all.
  uint64_t from = 1;
  uint64_t to = std::numeric_limits<uint64_t>::max();
  bool only_splits = false;  // only inserts that split a page
  uint32_t page = kFilNull;  // --explain-page: only inserts touching it
};

// A page as an insert left it.
struct PageAfter {
  uint32_t page_no = kFilNull;
  uint16_t level = 0;
  uint32_t n_recs = 0;
  uint32_t data_size = 0;
  uint32_t usable = 0;   // page_get_free_space_of_empty
  uint32_t reserve = 0;  // the 1/16 kept free on clustered leaves that fill in order
  Key first_key;         // orders the pages of a level (the leftmost non-leaf page's is the minimum)
  double fill() const { return usable == 0 ? 0 : static_cast<double>(data_size) / usable; }
};

// The flush model after an insert's row ended (Engine::EndRow: the row's
// mini-transactions committed, the page cleaner run for every simulated
// second that passed). Names as `run --json` and InnoDB's status use them.
struct FlushAfter {
  // Pages on the buffer pool's flush list: InnoDB's dirty pages (SHOW ENGINE
  // INNODB STATUS "Modified db pages" is the flush list's length), the
  // table's and the undo log's.
  uint64_t dirty_pages = 0;
  // oldest_modification of the flush list's tail (the page dirty longest),
  // 0 when no page is dirty: the checkpoint cannot pass it.
  uint64_t oldest_modification = 0;
  uint64_t lsn = 0;             // log_sys's current LSN
  uint64_t checkpoint_lsn = 0;  // the last checkpoint
  uint64_t checkpoint_age = 0;  // lsn - checkpoint_lsn
  uint64_t pages_written = 0;   // Innodb_pages_written so far
  double seconds = 0;           // the simulated clock (row / rows_per_sec)
};

struct ExplainedInsert {
  uint64_t row = 0;  // 1-based
  Key key;
  std::vector<TraceEvent> steps;  // steps[0] is kLeafReached
  std::vector<PageAfter> pages_after;
  // What happened, in words and by rule: e.g. "split to the right",
  // "btr_page_get_split_rec_to_right", "PAGE_LAST_INSERT is the record
  // before the insert point: the page fills in order; ...".
  std::string decision;
  std::string rule;
  std::string why;
  bool split = false;  // some page split
  bool has_flush = false;  // the run has the flush model: `flush` holds
  FlushAfter flush;
};

// Leaves at the end of the run, by whether any insert reached them after
// their last split.
struct FrozenSummary {
  uint64_t leaves = 0;
  uint64_t frozen = 0;     // split once at least, never reached again after the last split
  uint64_t receiving = 0;  // reached by an insert after their last split (or never split)
  // Fill histograms in tenths (index 0: < 10%, ..., 9: >= 90%).
  std::vector<uint64_t> frozen_fill = std::vector<uint64_t>(10, 0);
  std::vector<uint64_t> receiving_fill = std::vector<uint64_t>(10, 0);
  double frozen_mean_fill = 0;
  double receiving_mean_fill = 0;
};

// A leaf at the end of the run, in key order.
struct LeafAtEnd {
  uint32_t page_no = kFilNull;
  uint32_t n_recs = 0;
  uint32_t garbage = 0;  // PAGE_GARBAGE: bytes of deleted (moved) records not yet reused
  double fill = 0;
  Key first_key;
  Key last_key;
};

struct ExplainResult {
  ExplainSpec spec;
  int key_width = 16;
  uint32_t page_size = 0;  // the run's innodb_page_size (spec.run's, or the default)
  std::string table;  // as SQL
  uint64_t rows = 0;
  std::vector<ExplainedInsert> inserts;  // the ones selected for printing
  FrozenSummary summary;
  std::vector<LeafAtEnd> leaves;
  EngineReport report;
  // With the flush model (spec.run.flush): its counters after the load,
  // the final flush (EndLoad) included, and the buffer pool's frames.
  bool flush = false;
  FlushModel::Counters flush_counters;
  uint64_t buffer_pool_frames = 0;
};

// --keys: whole numbers (8-byte keys, the BIGINT table) or UUIDs (16-byte
// keys), comma-separated; not both kinds. Sets *width to 8 or 16.
absl::Status ParseKeyList(std::string_view text, std::vector<Key>* keys, int* width);

absl::StatusOr<ExplainResult> Explain(const ExplainSpec& spec);

// EngineKind::explain of the InnoDB profiles: Explain, then its text, or
// its JSON lines with `json`.
absl::StatusOr<std::string> InnodbExplain(const ExplainSpec& spec, bool json);

// Readable: one block per insert, pages drawn as bars of used / reserved /
// free bytes with their record counts; then the summary.
std::string ExplainText(const ExplainResult& r);
// One JSON object per insert, one per line (docs/explain.md has the schema),
// then one summary object.
std::string ExplainJsonLines(const ExplainResult& r);
// One self-contained HTML document (no network reference: styles, script
// and trace inline) that replays the trace: docs/explain.md.
std::string ExplainHtml(const ExplainResult& r);

// An insert's FlushAfter as `--json` and the --html page carry it
// (docs/explain.md): dirty_pages, oldest_modification, lsn, checkpoint_lsn,
// checkpoint_age, Innodb_pages_written, seconds.
nlohmann::ordered_json FlushJson(const FlushAfter& f);

// The readable names of the trace's vocabulary (also the JSON's values).
const char* StepName(TraceStep s);
const char* DirectionName(PageDirection d);

}  // namespace innosim

#endif  // INNOSIM_SIM_EXPLAIN_H_
