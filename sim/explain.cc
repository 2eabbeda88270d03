#include "sim/explain.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "model/space_reserve.h"
#include "sim/key_stream.h"
#include "sim/load.h"
#include "sim/secondary_keys.h"
#include "sim/table_parser.h"
#include "sim/uuid.h"

namespace innosim {

const char* StepName(TraceStep s) {
  switch (s) {
    case TraceStep::kLeafReached:
      return "leaf reached";
    case TraceStep::kInserted:
      return "inserted";
    case TraceStep::kRefusedNoRoom:
      return "refused: no room";
    case TraceStep::kRefusedByReserve:
      return "refused by the 1/16 reserve";
    case TraceStep::kReorganized:
      return "reorganized";
    case TraceStep::kRightSiblingInsert:
      return "inserted into the right sibling";
    case TraceStep::kRootRaise:
      return "root raised";
    case TraceStep::kSplit:
      return "split";
    case TraceStep::kNodePointer:
      return "node pointer into the parent";
    case TraceStep::kPageAllocated:
      return "page allocated";
    case TraceStep::kMerged:
      return "merged";
  }
  return "?";
}

const char* DirectionName(PageDirection d) {
  switch (d) {
    case PageDirection::kLeft:
      return "PAGE_LEFT";
    case PageDirection::kRight:
      return "PAGE_RIGHT";
    case PageDirection::kSameRec:
      return "PAGE_SAME_REC";
    case PageDirection::kSamePage:
      return "PAGE_SAME_PAGE";
    case PageDirection::kNoDirection:
      return "PAGE_NO_DIRECTION";
  }
  return "?";
}

namespace {

const char* SplitKindName(SplitDecision::Kind k, int split_rec) {
  switch (k) {
    case SplitDecision::Kind::kToRight:
      return split_rec == kNoSplitRec ? "split to the right" : "split to the right, keeping one record";
    case SplitDecision::Kind::kToLeft:
      return "split to the left";
    case SplitDecision::Kind::kMiddle:
      return "split at the middle";
    case SplitDecision::Kind::kSure:
      return "sure split";
  }
  return "split";
}

const char* SplitRule(SplitDecision::Kind k) {
  switch (k) {
    case SplitDecision::Kind::kToRight:
      return "btr_page_get_split_rec_to_right";
    case SplitDecision::Kind::kToLeft:
      return "btr_page_get_split_rec_to_left";
    case SplitDecision::Kind::kMiddle:
      return "page_get_middle_rec";
    case SplitDecision::Kind::kSure:
      return "btr_page_get_split_rec";
  }
  return "";
}

std::string LastInsertText(int last_insert) { return last_insert < 0 ? "none" : absl::StrCat("record ", last_insert); }

// Why a leaf split went the way it did, from the header it read.
std::string SplitWhy(const TraceEvent& s) {
  const PageHeaderView& h = s.page;
  switch (s.split_kind) {
    case SplitDecision::Kind::kToRight: {
      const int after = static_cast<int>(h.n_recs) - 1 - s.cursor;  // records after the insert point
      const std::string where =
          s.split_rec != kNoSplitRec
              ? "the new record stays on the old page with the one record after it, and the new page takes the rest"
          : after == 0 ? "the new page starts with the new record alone"
                       : absl::StrCat("the new page takes the new record and the ", after, " record",
                                      after == 1 ? "" : "s", " after the insert point");
      return absl::StrFormat(
          "PAGE_LAST_INSERT (%s) is the record the new one goes after (PAGE_DIRECTION %s, PAGE_N_DIRECTION %u): the "
          "page looks like it fills in order, so it splits at the insert point: %s",
          LastInsertText(h.last_insert), DirectionName(h.direction), h.n_direction, where);
    }
    case SplitDecision::Kind::kToLeft:
      return absl::StrFormat(
          "PAGE_LAST_INSERT (%s) is the record right after the insert point: the keys look like they arrive in "
          "descending order (the one previous insert is all the rule looks at), so the records below the insert point "
          "move to a new page on the left",
          LastInsertText(h.last_insert));
    case SplitDecision::Kind::kMiddle:
      return absl::StrFormat(
          "the insert point (after %s) is not next to PAGE_LAST_INSERT (%s): no order to follow, so the upper half "
          "of the %u records moves to the new page",
          s.cursor < 0 ? "the infimum" : absl::StrCat("record ", s.cursor), LastInsertText(h.last_insert), h.n_recs);
    case SplitDecision::Kind::kSure:
      return "the first split left no room for the record on its half: the retry cuts where the bytes reach half";
  }
  return "";
}

// Collects the steps of the current insert.
class StepCollector : public InsertTraceSink {
 public:
  void OnInsertStart(const Key&) override {}
  void OnStep(const TraceEvent& e) override { steps_.push_back(e); }
  std::vector<TraceEvent> Take() { return std::exchange(steps_, {}); }

 private:
  std::vector<TraceEvent> steps_;
};

// The decision, its rule and why, from an insert's steps.
void Decide(ExplainedInsert* x) {
  const TraceEvent* reserve = nullptr;
  const TraceEvent* leaf_split = nullptr;
  const TraceEvent* right_sibling = nullptr;
  const TraceEvent* root_raise = nullptr;
  const TraceEvent* inserted = nullptr;
  const TraceEvent* reorganized = nullptr;
  for (const TraceEvent& e : x->steps) {
    if (e.page.level != 0) continue;
    switch (e.step) {
      case TraceStep::kRefusedByReserve:
        if (reserve == nullptr) reserve = &e;
        break;
      case TraceStep::kSplit:
        if (leaf_split == nullptr) leaf_split = &e;
        break;
      case TraceStep::kRightSiblingInsert:
        if (right_sibling == nullptr) right_sibling = &e;
        break;
      case TraceStep::kRootRaise:
        if (root_raise == nullptr) root_raise = &e;
        break;
      case TraceStep::kInserted:
        if (inserted == nullptr) inserted = &e;
        break;
      case TraceStep::kReorganized:
        if (reorganized == nullptr) reorganized = &e;
        break;
      default:
        break;
    }
  }
  for (const TraceEvent& e : x->steps) x->split |= e.step == TraceStep::kSplit;
  const std::string prefix = reserve != nullptr ? "refused by the 1/16 reserve, then " : "";
  const std::string reserve_why =
      reserve != nullptr ? absl::StrFormat(
                               "the leaf looks sequential (PAGE_LAST_INSERT %s next to the insert point), and there a "
                               "record must leave 1/16 of the page (%u bytes) free for updates: %u bytes are free, the "
                               "record needs %u; ",
                               LastInsertText(reserve->page.last_insert), SpaceReserve(reserve->page.page_size),
                               reserve->page.max_insert, reserve->page.rec_size)
                         : "";
  if (leaf_split != nullptr) {
    x->decision = absl::StrCat(prefix, root_raise != nullptr ? "root raised, then " : "",
                               SplitKindName(leaf_split->split_kind, leaf_split->split_rec));
    x->rule = SplitRule(leaf_split->split_kind);
    x->why = absl::StrCat(reserve_why,
                          root_raise != nullptr
                              ? "the root was full: its records moved to a new page one level down (LAST_INSERT is "
                                "reset by that copy), and that page split; "
                              : "",
                          SplitWhy(*leaf_split));
  } else if (right_sibling != nullptr) {
    x->decision = absl::StrCat(prefix, "inserted into the right sibling");
    x->rule = "btr_insert_into_right_sibling";
    x->why = absl::StrCat(reserve_why,
                          "the page is full and the key goes after its last record: InnoDB tries the next page, "
                          "where the key is the smallest, before splitting");
  } else if (inserted != nullptr) {
    x->decision = reorganized != nullptr ? "reorganized, then inserted" : "optimistic insert";
    x->rule = reorganized != nullptr ? "btr_page_reorganize_low" : "btr_cur_optimistic_insert";
    // The leaf's header before the insert is the search's (steps[0]).
    const PageHeaderView& before = x->steps.front().page;
    x->why = absl::StrFormat("the record fits: %u bytes free (after a reorganize), %u needed", before.max_insert,
                             before.rec_size);
  } else {
    x->decision = "refused";
    x->rule = "btr_cur_optimistic_insert";
    x->why = "duplicate key";
  }
}

void AddPage(const PageStore& store, uint32_t page_no, uint32_t reserve_bytes, std::vector<PageAfter>* out) {
  if (page_no == kFilNull) return;
  for (const PageAfter& p : *out) {
    if (p.page_no == page_no) return;
  }
  const IndexPage& p = store.page(page_no);
  if (!p.in_use()) return;
  PageAfter a;
  a.page_no = page_no;
  a.level = p.level();
  a.n_recs = static_cast<uint32_t>(p.n_recs());
  a.data_size = p.DataSize();
  a.usable = FreeSpaceOfEmpty(p.page_size());
  a.reserve = p.is_leaf() ? reserve_bytes : 0;
  if (p.n_recs() > 0) a.first_key = p.key(0);
  out->push_back(a);
}

bool Selected(const ExplainSpec& spec, const ExplainedInsert& x) {
  if (x.row < spec.from || x.row > spec.to) return false;
  if (spec.only_splits && !x.split) return false;
  if (spec.page != kFilNull) {
    for (const TraceEvent& e : x.steps) {
      if (e.page.page_no == spec.page || e.new_page == spec.page || e.lower == spec.page || e.upper == spec.page ||
          e.child == spec.page || e.into == spec.page) {
        return true;
      }
    }
    return false;
  }
  return true;
}

// Per leaf: the row of its last split (0: never split) and whether an
// insert reached it after that.
struct LeafLife {
  std::vector<uint64_t> last_split;
  std::vector<uint8_t> reached_after;
  void Grow(uint32_t p) {
    if (p >= last_split.size()) {
      last_split.resize(p + 1, 0);
      reached_after.resize(p + 1, 0);
    }
  }
  void Note(const ExplainedInsert& x) {
    for (const TraceEvent& e : x.steps) {
      if (e.page.level != 0) continue;
      if (e.step == TraceStep::kLeafReached || e.step == TraceStep::kRightSiblingInsert) {
        const uint32_t p = e.step == TraceStep::kLeafReached ? e.page.page_no : e.new_page;
        Grow(p);
        if (last_split[p] > 0 && last_split[p] < x.row) reached_after[p] = 1;
      } else if (e.step == TraceStep::kSplit) {
        for (uint32_t p : {e.lower, e.upper}) {
          Grow(p);
          last_split[p] = x.row;
          reached_after[p] = 0;
        }
      }
    }
  }
};

// The leaves at the end of the run, in key order (along FIL_PAGE_NEXT).
std::vector<LeafAtEnd> LeavesAtEnd(const Engine& engine) {
  std::vector<LeafAtEnd> leaves;
  const PageStore& store = engine.page_store();
  uint32_t pn = engine.primary().root();
  while (!store.page(pn).is_leaf()) pn = store.page(pn).child(0);
  for (; pn != kFilNull; pn = store.page(pn).next()) {
    const IndexPage& p = store.page(pn);
    LeafAtEnd l;
    l.page_no = pn;
    l.n_recs = static_cast<uint32_t>(p.n_recs());
    l.garbage = p.garbage();
    l.fill = static_cast<double>(p.DataSize()) / FreeSpaceOfEmpty(p.page_size());
    if (p.n_recs() > 0) {
      l.first_key = p.key(0);
      l.last_key = p.key(p.n_recs() - 1);
    }
    leaves.push_back(l);
  }
  return leaves;
}

FrozenSummary Summarize(const std::vector<LeafAtEnd>& leaves, const LeafLife& life) {
  FrozenSummary s;
  double frozen_fill = 0;
  double receiving_fill = 0;
  for (const LeafAtEnd& l : leaves) {
    const size_t bucket = std::min<size_t>(9, static_cast<size_t>(l.fill * 10));
    const bool split = l.page_no < life.last_split.size() && life.last_split[l.page_no] > 0;
    const bool frozen = split && life.reached_after[l.page_no] == 0;
    ++s.leaves;
    if (frozen) {
      ++s.frozen;
      ++s.frozen_fill[bucket];
      frozen_fill += l.fill;
    } else {
      ++s.receiving;
      ++s.receiving_fill[bucket];
      receiving_fill += l.fill;
    }
  }
  s.frozen_mean_fill = s.frozen > 0 ? frozen_fill / static_cast<double>(s.frozen) : 0;
  s.receiving_mean_fill = s.receiving > 0 ? receiving_fill / static_cast<double>(s.receiving) : 0;
  return s;
}

}  // namespace

absl::Status ParseKeyList(std::string_view text, std::vector<Key>* keys, int* width) {
  int kind = 0;  // 8 or 16 once known
  if (absl::StripAsciiWhitespace(absl::string_view(text.data(), text.size())).empty()) {
    return absl::InvalidArgumentError("--keys is empty: write e.g. --keys 10,20,15");
  }
  for (absl::string_view item : absl::StrSplit(absl::string_view(text.data(), text.size()), ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (item.empty()) {
      return absl::InvalidArgumentError(
          "--keys has an empty item (two commas, or one at an end): write e.g. --keys 10,20,15");
    }
    Key k;
    uint64_t v = 0;
    int this_kind = 0;
    if (!item.empty() && item[0] != '-' && item[0] != '+' && absl::SimpleAtoi(item, &v)) {
      // Whole numbers go into a signed BIGINT key (as every integer stream
      // and key file does), whose largest value is 2^63 - 1; negative ones are
      // refused above, so a number past it has no place either.
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return absl::InvalidArgumentError(absl::StrCat("--keys: ", item,
                                                       " is above BIGINT's largest value 9223372036854775807: give "
                                                       "whole numbers from 0 to 9223372036854775807"));
      }
      k = Key::FromU64(v);
      this_kind = 8;
    } else if (ParseUuid(std::string_view(item.data(), item.size()), &k)) {
      this_kind = 16;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--keys: '", item,
                                                     "' is neither a whole number nor a UUID: write e.g. --keys "
                                                     "10,20,15 or --keys 0190a6b2-7c4e-7d21-9f00-0123456789ab,..."));
    }
    if (kind != 0 && kind != this_kind) {
      return absl::InvalidArgumentError("--keys mixes whole numbers and UUIDs: give one kind of key");
    }
    kind = this_kind;
    keys->push_back(k);
  }
  if (keys->empty()) return absl::InvalidArgumentError("--keys is empty: write e.g. --keys 10,20,15");
  *width = kind;
  return absl::OkStatus();
}

namespace {

// Explain's view of each row as the load drives it: the steps of its
// PRIMARY insert (from the engine's trace), the decision, and the state of
// the pages and the buffer pool after it.
class ExplainObserver final : public RowObserver {
 public:
  ExplainObserver(const ExplainSpec& spec, const Engine& engine, StepCollector& collector, ExplainResult& result)
      : spec_(spec), engine_(engine), collector_(collector), result_(result) {}

  absl::Status RowInserted(uint64_t row, const Key& key) override {
    x_ = ExplainedInsert();
    x_.row = row + 1;
    x_.key = key;
    x_.steps = collector_.Take();
    return absl::OkStatus();
  }

  absl::Status RowEnded(uint64_t, const Key&) override {
    Decide(&x_);
    life_.Note(x_);
    if (!Selected(spec_, x_)) return absl::OkStatus();
    if (const FlushModel* flush = engine_.flush_model(); flush != nullptr) {
      const BufferPool& pool = flush->buffer_pool();
      const RedoLog& log = flush->redo_log();
      x_.has_flush = true;
      x_.flush.dirty_pages = pool.dirty_pages();
      x_.flush.oldest_modification = pool.OldestModification();
      x_.flush.lsn = log.lsn();
      x_.flush.checkpoint_lsn = log.last_checkpoint_lsn();
      x_.flush.checkpoint_age = log.checkpoint_age();
      x_.flush.pages_written = pool.stats().pages_written;
      x_.flush.seconds = flush->Snapshot().seconds;
    }
    const uint32_t reserve_bytes = SpaceReserve(engine_.profile().page_size);
    const PageStore& store = engine_.page_store();
    for (const TraceEvent& e : x_.steps) {
      for (uint32_t p : {e.page.page_no, e.new_page, e.lower, e.upper, e.into})
        AddPage(store, p, reserve_bytes, &x_.pages_after);
    }
    result_.inserts.push_back(std::move(x_));
    return absl::OkStatus();
  }

  const LeafLife& life() const { return life_; }

 private:
  const ExplainSpec& spec_;
  const Engine& engine_;
  StepCollector& collector_;
  ExplainResult& result_;
  ExplainedInsert x_;
  LeafLife life_;
};

}  // namespace

absl::StatusOr<ExplainResult> Explain(const ExplainSpec& spec) {
  const bool own_keys = !spec.keys.empty();
  OwnKeys own;
  if (own_keys) {
    own.keys = &spec.keys;
    own.width = spec.key_width;
  }
  absl::StatusOr<std::unique_ptr<Load>> prepared = Load::Prepare(spec.run, own);
  if (!prepared.ok()) return prepared.status();
  Load& load = **prepared;
  // Explain reads InnoDB's pages, directory and trace.
  const Engine* engine = load.driver().innodb();
  if (engine == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("explain follows InnoDB's insert path; --profile ", spec.run.profile,
                                                   " is not an InnoDB profile: use mysql-8.4 or mariadb-10.11"));
  }
  ExplainResult result;
  result.spec = spec;
  result.spec.run = load.spec();
  result.key_width = load.result().key_width;
  result.page_size = load.config().profile.page_size;
  result.table = load.result().table;
  StepCollector collector;
  const_cast<Engine*>(engine)->set_trace(&collector);
  ExplainObserver observer(spec, *engine, collector, result);
  if (absl::Status s = load.Insert(load.stream(), load.spec().rows, 0, {}, &observer); !s.ok()) return s;
  if (absl::Status s = load.engine().EndLoad(); !s.ok()) return s;
  if (const FlushModel* flush = engine->flush_model(); flush != nullptr) {
    result.flush = true;
    result.flush_counters = flush->counters();
    result.buffer_pool_frames = flush->buffer_pool().n_frames();
  }
  result.rows = load.spec().rows;
  result.leaves = LeavesAtEnd(*engine);
  result.summary = Summarize(result.leaves, observer.life());
  result.report = engine->Report();
  return result;
}

absl::StatusOr<std::string> InnodbExplain(const ExplainSpec& spec, bool json) {
  absl::StatusOr<ExplainResult> r = Explain(spec);
  if (!r.ok()) return r.status();
  return json ? ExplainJsonLines(*r) : ExplainText(*r);
}

namespace {

// A page as a bar of `width` cells: '#' used bytes, 'r' the 1/16 reserve
// still free, '.' the rest of the free space.
std::string Bar(const PageAfter& p, int width) {
  const double used = p.fill();
  const double reserve = p.usable == 0 ? 0 : std::min<double>(1.0 - used, static_cast<double>(p.reserve) / p.usable);
  const int n_used = static_cast<int>(used * width + 0.5);
  const int n_reserve = std::min(width - n_used, static_cast<int>(reserve * width + 0.5));
  return absl::StrCat("[", std::string(n_used, '#'), std::string(n_reserve, 'r'),
                      std::string(width - n_used - n_reserve, '.'), "]");
}

std::string StepText(const TraceEvent& e) {
  switch (e.step) {
    case TraceStep::kPageAllocated:
      return absl::StrFormat("page %u allocated from the %s segment (%s, hint %s)", e.page.page_no,
                             e.leaf_segment ? "leaf" : "non-leaf", e.rule,
                             e.hint == kFilNull || e.hint == 0 ? "none" : absl::StrCat(e.hint));
    case TraceStep::kSplit:
      return absl::StrFormat(
          "%s of page %u (level %u, %s): %u records to new page %u; lower %u, upper %u; the new "
          "record goes %s",
          SplitKindName(e.split_kind, e.split_rec), e.page.page_no, e.page.level, SplitRule(e.split_kind), e.moved,
          e.new_page, e.lower, e.upper, e.insert_left ? "left" : "right");
    case TraceStep::kNodePointer:
      return absl::StrFormat("node pointer to page %u into page %u (level %u, %s)", e.child, e.page.page_no,
                             e.page.level, e.rule);
    case TraceStep::kRightSiblingInsert:
      return absl::StrFormat("inserted into page %u, the right sibling of page %u (%s)", e.new_page, e.page.page_no,
                             e.rule);
    case TraceStep::kMerged:
      return absl::StrFormat("page %u merged into page %u (%s)", e.page.page_no, e.into, e.rule);
    default:
      return absl::StrFormat("%s: page %u (level %u, %s)", StepName(e.step), e.page.page_no, e.page.level, e.rule);
  }
}

nlohmann::ordered_json HeaderJson(const PageHeaderView& h) {
  nlohmann::ordered_json j;
  j["page"] = h.page_no;
  j["level"] = h.level;
  j["PAGE_N_RECS"] = h.n_recs;
  j["PAGE_LAST_INSERT"] = h.last_insert < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(h.last_insert);
  j["PAGE_DIRECTION"] = DirectionName(h.direction);
  j["PAGE_N_DIRECTION"] = h.n_direction;
  j["PAGE_GARBAGE"] = h.garbage;
  j["data_size"] = h.data_size;
  j["max_insert_size"] = h.max_insert;
  j["usable"] = h.usable;
  j["record_bytes"] = h.rec_size;
  return j;
}

}  // namespace

nlohmann::ordered_json FlushJson(const FlushAfter& f) {
  nlohmann::ordered_json j;
  j["dirty_pages"] = f.dirty_pages;
  j["oldest_modification"] = f.oldest_modification;
  j["lsn"] = f.lsn;
  j["checkpoint_lsn"] = f.checkpoint_lsn;
  j["checkpoint_age"] = f.checkpoint_age;
  j["Innodb_pages_written"] = f.pages_written;
  j["seconds"] = f.seconds;
  return j;
}

std::string ExplainText(const ExplainResult& r) {
  std::string out =
      absl::StrCat("explain: ", r.rows, " rows of ", r.spec.keys.empty() ? r.spec.run.stream.name : "the keys given",
                   ", ", r.page_size, "-byte pages, ", r.spec.run.profile, "\n  table: ", r.table,
                   "\n  pages: '#' used, 'r' the 1/16 reserve kept free on leaves that fill in order, "
                   "'.' free\n\n");
  for (const ExplainedInsert& x : r.inserts) {
    const TraceEvent& leaf = x.steps.front();
    std::string path;
    for (int i = 0; i < leaf.path_length; ++i) absl::StrAppend(&path, i > 0 ? " > " : "", leaf.path[i]);
    absl::StrAppend(&out, "row ", x.row, "  key ", FormatKey(x.key, r.key_width), "\n");
    absl::StrAppendFormat(&out, "  leaf %u (path %s), after %s\n", leaf.page.page_no, path,
                          leaf.cursor < 0 ? "the infimum" : absl::StrCat("record ", leaf.cursor));
    absl::StrAppendFormat(&out,
                          "  before: PAGE_N_RECS %u, PAGE_LAST_INSERT %s, PAGE_DIRECTION %s, PAGE_N_DIRECTION %u, "
                          "%u bytes free, PAGE_GARBAGE %u\n",
                          leaf.page.n_recs, LastInsertText(leaf.page.last_insert), DirectionName(leaf.page.direction),
                          leaf.page.n_direction, leaf.page.max_insert, leaf.page.garbage);
    absl::StrAppend(&out, "  ", x.decision, " (", x.rule, ")\n    why: ", x.why, "\n");
    for (size_t i = 1; i < x.steps.size(); ++i) absl::StrAppend(&out, "    - ", StepText(x.steps[i]), "\n");
    if (x.has_flush) {
      const FlushAfter& f = x.flush;
      absl::StrAppendFormat(&out,
                            "    flush: %u dirty pages on the flush list (oldest modification LSN %u), LSN %u, "
                            "checkpoint age %u, Innodb_pages_written %u\n",
                            f.dirty_pages, f.oldest_modification, f.lsn, f.checkpoint_age, f.pages_written);
    }
    for (const PageAfter& p : x.pages_after) {
      absl::StrAppendFormat(&out, "    page %6u L%u %s %4u recs %5.1f%%\n", p.page_no, p.level, Bar(p, 40), p.n_recs,
                            100.0 * p.fill());
    }
    out += "\n";
  }
  const FrozenSummary& s = r.summary;
  absl::StrAppendFormat(
      &out,
      "summary: %u leaves; %u frozen (split, never reached by an insert after their last split), "
      "mean fill %.1f%%; %u reached again after their last split (or never split), mean fill %.1f%%\n",
      s.leaves, s.frozen, 100 * s.frozen_mean_fill, s.receiving, 100 * s.receiving_mean_fill);
  out += "  fill      frozen  reached again\n";
  for (int b = 0; b < 10; ++b) {
    absl::StrAppendFormat(&out, "  %3d-%3d%% %7u %10u\n", b * 10, b * 10 + 10, s.frozen_fill[b], s.receiving_fill[b]);
  }
  uint64_t garbage_leaves = 0, garbage_bytes = 0;
  for (const LeafAtEnd& l : r.leaves) {
    garbage_leaves += l.garbage > 0;
    garbage_bytes += l.garbage;
  }
  absl::StrAppendFormat(&out, "  PAGE_GARBAGE: %u leaves hold %u bytes of moved or deleted records not reused\n",
                        garbage_leaves, garbage_bytes);
  absl::StrAppendFormat(&out, "index_page_splits %u, n_leaf_pages %u, size %u, leaf_fill %.1f%%\n",
                        r.report.primary.counters.index_page_splits, r.report.primary.n_leaf_pages,
                        r.report.primary.size, 100 * r.report.primary.leaf_fill);
  if (r.flush) {
    const FlushModel::Counters& f = r.flush_counters;
    absl::StrAppendFormat(&out,
                          "Innodb_pages_written %u (%u of them by the final flush), peak dirty pages %u of %u "
                          "buffer pool frames, simulated at %.0f rows/s\n",
                          f.Innodb_pages_written, f.final_flush_pages, f.peak_dirty_pages, r.buffer_pool_frames,
                          r.spec.run.rows_per_sec);
  }
  return out;
}

std::string ExplainJsonLines(const ExplainResult& r) {
  std::string out;
  for (const ExplainedInsert& x : r.inserts) {
    const TraceEvent& leaf = x.steps.front();
    nlohmann::ordered_json j;
    j["row"] = x.row;
    j["key"] = FormatKey(x.key, r.key_width);
    j["leaf"] = leaf.page.page_no;
    j["path"] = std::vector<uint32_t>(leaf.path, leaf.path + leaf.path_length);
    j["cursor"] = leaf.cursor;
    j["before"] = HeaderJson(leaf.page);
    j["decision"] = x.decision;
    j["rule"] = x.rule;
    j["why"] = x.why;
    j["split"] = x.split;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (size_t i = 1; i < x.steps.size(); ++i) {
      const TraceEvent& e = x.steps[i];
      nlohmann::ordered_json s;
      s["step"] = StepName(e.step);
      s["rule"] = e.rule;
      s["page"] = e.page.page_no;
      s["level"] = e.page.level;
      if (e.step == TraceStep::kSplit) {
        s["kind"] = SplitKindName(e.split_kind, e.split_rec);
        s["split_rule"] = SplitRule(e.split_kind);
        s["before"] = HeaderJson(e.page);
        s["new_page"] = e.new_page;
        s["lower"] = e.lower;
        s["upper"] = e.upper;
        s["moved"] = e.moved;
        s["insert_left"] = e.insert_left;
      } else if (e.step == TraceStep::kNodePointer) {
        s["child"] = e.child;
      } else if (e.step == TraceStep::kRightSiblingInsert) {
        s["into"] = e.new_page;
      } else if (e.step == TraceStep::kPageAllocated) {
        s["segment"] = e.leaf_segment ? "leaf" : "non-leaf";
        s["hint"] = e.hint;
      } else if (e.step == TraceStep::kMerged) {
        s["into"] = e.into;
      }
      steps.push_back(std::move(s));
    }
    j["steps"] = std::move(steps);
    nlohmann::ordered_json pages = nlohmann::ordered_json::array();
    for (const PageAfter& p : x.pages_after) {
      pages.push_back({{"page", p.page_no},
                       {"level", p.level},
                       {"records", p.n_recs},
                       {"data_size", p.data_size},
                       {"usable", p.usable},
                       {"reserve", p.reserve},
                       {"fill", p.fill()}});
    }
    j["pages_after"] = std::move(pages);
    if (x.has_flush) j["flush"] = FlushJson(x.flush);
    absl::StrAppend(&out, j.dump(), "\n");
  }
  const FrozenSummary& s = r.summary;
  nlohmann::ordered_json sum;
  sum["summary"] = true;
  sum["rows"] = r.rows;
  sum["leaves"] = s.leaves;
  sum["frozen"] = s.frozen;
  sum["receiving"] = s.receiving;
  sum["frozen_mean_fill"] = s.frozen_mean_fill;
  sum["receiving_mean_fill"] = s.receiving_mean_fill;
  sum["frozen_fill_histogram"] = s.frozen_fill;
  sum["receiving_fill_histogram"] = s.receiving_fill;
  uint64_t garbage_leaves = 0, garbage_bytes = 0;
  for (const LeafAtEnd& l : r.leaves) {
    garbage_leaves += l.garbage > 0;
    garbage_bytes += l.garbage;
  }
  sum["leaves_with_garbage"] = garbage_leaves;
  sum["PAGE_GARBAGE"] = garbage_bytes;
  sum["index_page_splits"] = r.report.primary.counters.index_page_splits;
  sum["n_leaf_pages"] = r.report.primary.n_leaf_pages;
  sum["size"] = r.report.primary.size;
  sum["leaf_fill"] = r.report.primary.leaf_fill;
  if (r.flush) {
    const FlushModel::Counters& f = r.flush_counters;
    sum["Innodb_pages_written"] = f.Innodb_pages_written;
    sum["final_flush_pages"] = f.final_flush_pages;
    sum["peak_dirty_pages"] = f.peak_dirty_pages;
    sum["buffer_pool_frames"] = r.buffer_pool_frames;
    sum["rows_per_sec"] = r.spec.run.rows_per_sec;
  }
  absl::StrAppend(&out, sum.dump(), "\n");
  return out;
}

}  // namespace innosim
