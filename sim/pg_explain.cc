#include "sim/pg_explain.h"

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/postgres/page_layout.h"
#include "nlohmann/json.hpp"
#include "sim/load.h"
#include "sim/postgres_driver.h"
#include "sim/uuid.h"

namespace innosim {

using postgres::BtFastpath;
using postgres::BtPageView;
using postgres::BtStep;
using postgres::BtTraceEvent;
using postgres::kBTPageSpace;
using postgres::SplitKind;

const char* BtStepName(BtStep s) {
  switch (s) {
    case BtStep::kLeafReached:
      return "leaf reached";
    case BtStep::kDedupPass:
      return "deduplication pass";
    case BtStep::kInserted:
      return "inserted";
    case BtStep::kSplit:
      return "split";
    case BtStep::kInsertParent:
      return "downlink into the parent";
    case BtStep::kNewRoot:
      return "new root";
  }
  return "?";
}

const char* BtFastpathName(BtFastpath f) {
  switch (f) {
    case BtFastpath::kTaken:
      return "taken";
    case BtFastpath::kTreeTooLow:
      return "tree below BTREE_FASTPATH_MIN_LEVEL";
    case BtFastpath::kNotCached:
      return "no cached rightmost leaf";
    case BtFastpath::kNoRoom:
      return "cached leaf has no room";
    case BtFastpath::kNotAfterLast:
      return "key not after the cached leaf's last item";
  }
  return "?";
}

namespace {

constexpr SplitKind kSplitKinds[] = {SplitKind::kRightmostFillfactor, SplitKind::kFiftyFifty,
                                     SplitKind::kAfterNewItem, SplitKind::kManyDuplicates,
                                     SplitKind::kSingleValue};

double Fill(const BtPageView& p) { return static_cast<double>(p.used()) / kBTPageSpace; }

// The split's name as a learner reads it.
const char* SplitDecisionName(SplitKind k) {
  switch (k) {
    case SplitKind::kRightmostFillfactor:
      return "rightmost fillfactor split";
    case SplitKind::kFiftyFifty:
      return "50:50 split";
    case SplitKind::kAfterNewItem:
      return "split after the new item";
    case SplitKind::kManyDuplicates:
      return "many-duplicates split";
    case SplitKind::kSingleValue:
      return "single-value split";
  }
  return "split";
}

std::string FastpathWhy(BtFastpath f) {
  switch (f) {
    case BtFastpath::kTaken:
      return "_bt_search_insert's fastpath: the leaf cached by the previous insert is still the rightmost leaf, "
             "has more free space than the tuple needs, and the key sorts after its last item: no descent";
    case BtFastpath::kTreeTooLow:
      return "descent from the root (_bt_search): the fastpath caches the rightmost leaf only once the tree is "
             "BTREE_FASTPATH_MIN_LEVEL (2) levels high";
    case BtFastpath::kNotCached:
      return "descent from the root (_bt_search): no leaf cached for the fastpath (the previous insert split its "
             "leaf, or was not on the rightmost leaf)";
    case BtFastpath::kNoRoom:
      return "descent from the root (_bt_search): the cached rightmost leaf has no room for the tuple";
    case BtFastpath::kNotAfterLast:
      return "descent from the root (_bt_search): the key does not sort after the cached rightmost leaf's last item";
  }
  return "";
}

std::string PageText(const BtPageView& p) {
  return absl::StrFormat("%d items, %s, PageGetFreeSpace %d bytes", p.nitems,
                         p.rightmost ? "rightmost of its level (no high key)"
                                     : absl::StrCat("right sibling block ", p.next),
                         p.free_space);
}

// Why a page split where it did, from the split's event.
// `after_dedup`: a deduplication pass ran first and left the page still
// short of room (the why already gave the free space).
std::string SplitWhy(const BtTraceEvent& s, int nkeyatts, bool after_dedup) {
  const std::string lead = after_dedup ? std::string("still no room")
                                       : absl::StrFormat("PageGetFreeSpace %d < the tuple's %d bytes",
                                                         s.page.free_space, s.itemsz);
  const postgres::SplitDecision& d = s.split;
  const bool leaf = s.page.level == 0;
  const int left_items = s.after.nitems, right_items = s.right.nitems;
  const std::string halves = absl::StrFormat(
      "left keeps %d item%s (leftfree %d bytes), right block %d gets %d (rightfree %d)", left_items,
      left_items == 1 ? "" : "s", d.leftfree, s.right_block, right_items, d.rightfree);
  std::string why;
  switch (d.kind) {
    case SplitKind::kRightmostFillfactor:
      why = absl::StrFormat(
          "%s, and the %s is the rightmost of its level (no high key): "
          "_bt_findsplitloc weighs the halves by %s, taking of %d legal split points the one where %d%% of the "
          "left's free space balances %d%% of the right's: %s. %s",
          lead, leaf ? "leaf" : "internal page",
          leaf ? absl::StrFormat("the leaf fillfactor %d (BTREE_DEFAULT_FILLFACTOR, or the index's fillfactor)",
                                 d.fillfactor)
               : absl::StrFormat("BTREE_NONLEAF_FILLFACTOR %d", d.fillfactor),
          d.candidates, d.fillfactor, 100 - d.fillfactor, halves,
          leaf ? absl::StrFormat("Keys that keep ascending never come back to the left page: it stays %d%% full "
                                 "(InnoDB's rightmost split leaves 15/16 instead)",
                                 d.fillfactor)
               : std::string("The left page stays so for ascending keys"));
      break;
    case SplitKind::kFiftyFifty:
      why = absl::StrFormat(
          "%s, and the page has a right sibling (a high key): the default "
          "strategy wants equal free space on both halves; of %d legal split points, the most even one within an "
          "interval of %d: %s",
          lead, d.candidates, d.interval, halves);
      if (leaf && !d.newitemonleft) {
        absl::StrAppend(&why,
                        ". The new key goes to the right half: if keys keep ascending here (UUIDv7 appended into a "
                        "UUIDv4 index land between old keys, not on the rightmost leaf), the left half is never "
                        "inserted into again and stays about 50% full: only the rightmost leaf of a level gets the "
                        "fillfactor");
      }
      break;
    case SplitKind::kAfterNewItem:
      why = absl::StrFormat(
          "%s; the page holds equal-sized tuples of a composite key and the "
          "new one follows its predecessor (_bt_afternewitemoff: localized ascending insertions): %s; %s",
          lead,
          d.fillfactor == 0 ? "the split goes just after the new item"
                            : absl::StrFormat("the halves are weighed by the leaf fillfactor %d", d.fillfactor),
          halves);
      break;
    case SplitKind::kManyDuplicates:
      why = absl::StrFormat(
          "%s; every split point near the even one would need a heap TID "
          "in the new high key (equal keys on both sides): SPLIT_MANY_DUPLICATES searches all %d candidates for "
          "the fewest key attributes kept (penalty %d)%s: %s",
          lead, d.candidates, d.penalty,
          d.duplicates_fallback ? ", then falls back to the even split (the new item just right of the duplicates)"
                                : "",
          halves);
      break;
    case SplitKind::kSingleValue:
      why = absl::StrFormat(
          "%s, and the page holds one value only, the new key's "
          "(SPLIT_SINGLE_VALUE): the halves are weighed by BTREE_SINGLEVAL_FILLFACTOR %d, so the left page stays "
          "%d%% full and later duplicates go right: %s",
          lead, d.fillfactor, d.fillfactor, halves);
      break;
  }
  if (leaf && (nkeyatts > 1 || d.penalty > 1 || s.hikey_heap_tid)) {
    absl::StrAppendFormat(&why, "; suffix truncation: the new high key keeps %d of %d key attribute%s%s (penalty %d, "
                          "perfect %d)",
                          s.hikey_natts, nkeyatts, nkeyatts == 1 ? "" : "s",
                          s.hikey_heap_tid ? " and a heap TID" : "", d.penalty, d.perfectpenalty);
  }
  return why;
}

// The decision, its rule and why, from an index tuple's steps.
void Decide(PgExplainedInsert* x, int nkeyatts, bool unique) {
  const BtTraceEvent* leaf_split = nullptr;
  const BtTraceEvent* dedup = nullptr;
  bool new_root = false;
  for (const BtTraceEvent& e : x->steps) {
    if (e.step == BtStep::kSplit && e.page.level == 0 && leaf_split == nullptr) leaf_split = &e;
    if (e.step == BtStep::kDedupPass && dedup == nullptr) dedup = &e;
    new_root |= e.step == BtStep::kNewRoot;
    x->split |= e.step == BtStep::kSplit;
  }
  const BtTraceEvent& leaf = x->steps.front();
  std::string dedup_why;
  if (dedup != nullptr) {
    dedup_why = dedup->nintervals > 0
                    ? absl::StrFormat(
                          "PageGetFreeSpace %d < the tuple's %d bytes: before splitting, _bt_delete_or_dedup_one_page "
                          "ran a deduplication pass%s: %d items became %d (%d posting lists), %d bytes free now; ",
                          dedup->page.free_space, dedup->itemsz,
                          dedup->singlevalue ? " (single-value strategy: the page is all one value)" : "",
                          dedup->page.nitems, dedup->after.nitems, dedup->after.posting_lists,
                          dedup->after.free_space)
                    : absl::StrFormat(
                          "PageGetFreeSpace %d < the tuple's %d bytes: a deduplication pass found no equal keys to "
                          "merge; ",
                          dedup->page.free_space, dedup->itemsz);
  }
  if (leaf_split != nullptr) {
    x->decision = absl::StrCat(dedup != nullptr && dedup->nintervals > 0 ? "deduplication pass, then " : "",
                               SplitDecisionName(leaf_split->split.kind), new_root ? ", new root" : "");
    x->rule = "_bt_findsplitloc";
    x->why = absl::StrCat(dedup_why, SplitWhy(*leaf_split, nkeyatts, dedup != nullptr));
    if (unique) {
      absl::StrAppend(&x->why,
                      ". No deduplication pass first: a unique index that saw no duplicate skips it "
                      "(_bt_delete_or_dedup_one_page)");
    }
  } else if (dedup != nullptr && dedup->nintervals > 0) {
    x->decision = "deduplication pass, then inserted";
    x->rule = "_bt_dedup_pass";
    x->why = absl::StrCat(dedup_why, "the tuple fits");
  } else {
    x->decision = "inserted";
    x->rule = "_bt_insertonpg";
    x->why = absl::StrFormat("the tuple fits: PageGetFreeSpace %d >= its %d bytes", leaf.page.free_space, leaf.itemsz);
  }
}

// Collects one index's steps for the current row.
class IndexCollector final : public postgres::BtTraceSink {
 public:
  void OnInsertStart(const Key& key) override {
    started = true;
    entry = key;
    steps.clear();
  }
  void OnStep(const BtTraceEvent& e) override { steps.push_back(e); }

  bool started = false;
  Key entry;
  std::vector<BtTraceEvent> steps;
};

bool Touches(const BtTraceEvent& e, uint32_t block) {
  return e.page.block == block || e.right_block == block || e.child == block || e.left_child == block ||
         e.old_next == block;
}

bool Selected(const ExplainSpec& spec, const PgExplainedInsert& x) {
  if (x.row < spec.from || x.row > spec.to) return false;
  if (spec.only_splits && !x.split) return false;
  if (spec.page != kFilNull) {
    for (const BtTraceEvent& e : x.steps) {
      if (Touches(e, spec.page)) return true;
    }
    return false;
  }
  return true;
}

// Per leaf block of one index: the row of its last split (0: never split)
// and whether an insert reached it after that.
struct LeafLife {
  std::vector<uint64_t> last_split;
  std::vector<uint8_t> reached_after;
  void Grow(uint32_t b) {
    if (b >= last_split.size()) {
      last_split.resize(b + 1, 0);
      reached_after.resize(b + 1, 0);
    }
  }
  void Note(uint64_t row, const std::vector<BtTraceEvent>& steps) {
    for (const BtTraceEvent& e : steps) {
      if (e.step == BtStep::kLeafReached) {
        Grow(e.page.block);
        if (last_split[e.page.block] > 0 && last_split[e.page.block] < row) reached_after[e.page.block] = 1;
      } else if (e.step == BtStep::kSplit && e.page.level == 0) {
        for (uint32_t b : {e.page.block, e.right_block}) {
          Grow(b);
          last_split[b] = row;
          reached_after[b] = 0;
        }
      }
    }
  }
  bool Frozen(uint32_t b) const { return b < last_split.size() && last_split[b] > 0 && reached_after[b] == 0; }
};

class PgExplainObserver final : public RowObserver {
 public:
  PgExplainObserver(const ExplainSpec& spec, const postgres::PgTable& table,
                    std::vector<std::unique_ptr<IndexCollector>>& collectors, PgExplainResult& result)
      : spec_(spec), table_(table), collectors_(collectors), result_(result) {}

  absl::Status RowInserted(uint64_t, const Key& key) override {
    key_ = key;
    return absl::OkStatus();
  }

  absl::Status RowEnded(uint64_t row, const Key&) override {
    for (size_t i = 0; i < collectors_.size(); ++i) {
      IndexCollector& c = *collectors_[i];
      if (!c.started) continue;
      c.started = false;
      if (c.steps.empty()) continue;  // refused before the leaf (the run stops with the model's error)
      PgIndexExplained& ix = result_.indexes[i];
      Count(c.steps, &ix);
      if (life_.size() <= i) life_.resize(i + 1);
      life_[i].Note(row + 1, c.steps);
      PgExplainedInsert x;
      x.row = row + 1;
      x.index = i;
      x.key = key_;
      x.entry = c.entry;
      x.steps = std::move(c.steps);
      c.steps.clear();
      const postgres::BtIndex& index = table_.index(i);
      Decide(&x, static_cast<int>(index.desc().columns.size()), index.desc().unique);
      if (!Selected(spec_, x)) continue;
      for (const BtTraceEvent& e : x.steps) {
        for (uint32_t b : {e.page.block, e.right_block}) AddPage(index, b, &x.pages_after);
      }
      result_.inserts.push_back(std::move(x));
    }
    return absl::OkStatus();
  }

  // Index i's leaves' lives (empty when it had no insert).
  const LeafLife& life(size_t i) const {
    static const LeafLife kNone;
    return i < life_.size() ? life_[i] : kNone;
  }

 private:
  static void Count(const std::vector<BtTraceEvent>& steps, PgIndexExplained* ix) {
    ++ix->inserts;
    for (const BtTraceEvent& e : steps) {
      switch (e.step) {
        case BtStep::kLeafReached:
          ix->fastpath_inserts += e.fastpath == BtFastpath::kTaken;
          break;
        case BtStep::kDedupPass:
          ix->dedup_passes += e.nintervals > 0;
          break;
        case BtStep::kSplit:
          (e.page.level == 0 ? ix->leaf_splits : ix->internal_splits)[static_cast<int>(e.split.kind)]++;
          break;
        case BtStep::kNewRoot:
          ++ix->new_roots;
          break;
        default:
          break;
      }
    }
  }
  static void AddPage(const postgres::BtIndex& index, uint32_t block, std::vector<BtPageView>* out) {
    if (block == postgres::kPNone) return;
    for (const BtPageView& p : *out) {
      if (p.block == block) return;
    }
    out->push_back(index.View(block));
  }

  const ExplainSpec& spec_;
  const postgres::PgTable& table_;
  std::vector<std::unique_ptr<IndexCollector>>& collectors_;
  PgExplainResult& result_;
  Key key_;
  std::vector<LeafLife> life_;
};

// The Key bytes of an index entry, as hex (a primary key prints as the
// stream's key instead).
std::string EntryHex(const Key& k, int bytes) {
  const std::array<uint8_t, Key::kMaxBytes> b = k.Bytes();
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(b.data()), std::min<size_t>(bytes, Key::kMaxBytes)));
}

std::string KeyText(const PgExplainResult& r, const PgExplainedInsert& x) {
  // The primary key's tuple holds the row's key (as the stream made it); a
  // secondary's holds its columns' bytes.
  return x.entry == x.key ? FormatKey(x.key, r.key_width) : EntryHex(x.entry, r.indexes[x.index].key_bytes);
}

// A pivot key of x's index: as the stream's key for the primary key's
// single column, else as its bytes.
std::string HikeyText(const PgExplainResult& r, const PgExplainedInsert& x, const Key& k) {
  return x.entry == x.key ? FormatKey(k, r.key_width) : EntryHex(k, r.indexes[x.index].key_bytes);
}

// A page as a bar of `width` cells: '#' used bytes, '.' free.
std::string Bar(const BtPageView& p, int width) {
  const int used = std::min(width, static_cast<int>(Fill(p) * width + 0.5));
  return absl::StrCat("[", std::string(used, '#'), std::string(width - used, '.'), "]");
}

// `key_text` formats a key of the index (a pivot's kept attributes).
std::string StepText(const BtTraceEvent& e, const std::function<std::string(const Key&)>& key_text) {
  switch (e.step) {
    case BtStep::kDedupPass:
      return absl::StrFormat(
          "deduplication pass on block %u (%s)%s: %d items -> %d, %d posting lists, PageGetFreeSpace %d -> %d; the "
          "tuple %s",
          e.page.block, e.rule, e.singlevalue ? " with the single-value strategy" : "", e.page.nitems,
          e.after.nitems, e.after.posting_lists, e.page.free_space, e.after.free_space,
          e.split_avoided ? "now fits" : "still does not fit");
    case BtStep::kInserted:
      return absl::StrFormat("tuple added to block %u (level %u) as data item %d (%s): %d items, %d bytes free",
                             e.page.block, e.page.level, e.offset + 1, e.rule, e.page.nitems, e.page.free_space);
    case BtStep::kSplit: {
      const postgres::SplitDecision& d = e.split;
      return absl::StrFormat(
          "block %u (level %u) split (%s, %s: %s): %d legal split points, fillfactor %d%%, interval %d, penalty %d "
          "(perfect %d); first right item %d, the new item goes %s; left block %u: %d items, %d bytes free; right "
          "block %u (new: the relation extends by one block, _bt_allocbuf): %d items, %d bytes free%s; new high key "
          "of block %u: %s, %d key attribute%s%s, %d bytes (_bt_truncate)",
          e.page.block, e.page.level, e.rule, "_bt_findsplitloc", postgres::SplitKindName(d.kind), d.candidates,
          d.fillfactor, d.interval, d.penalty, d.perfectpenalty, d.firstoldonright + 1,
          d.newitemonleft ? "left" : "right", e.page.block, e.after.nitems, e.after.free_space, e.right_block,
          e.right.nitems, e.right.free_space,
          e.old_next != postgres::kPNone ? absl::StrFormat("; block %u's btpo_prev now points at it", e.old_next) : "",
          e.page.block, key_text(e.hikey), e.hikey_natts, e.hikey_natts == 1 ? "" : "s",
          e.hikey_heap_tid ? " and a heap TID" : "", e.hikey_size);
    }
    case BtStep::kInsertParent:
      return absl::StrFormat("downlink to block %u into parent block %u (level %u) as item %d (%s)", e.child,
                             e.page.block, e.page.level, e.offset + 1, e.rule);
    case BtStep::kNewRoot:
      return absl::StrFormat(
          "new root block %u (level %u) above blocks %u and %u; the metapage points at it (%s)", e.page.block,
          e.page.level, e.left_child, e.child, e.rule);
    case BtStep::kLeafReached:
      break;
  }
  return absl::StrFormat("%s: block %u (%s)", BtStepName(e.step), e.page.block, e.rule);
}

nlohmann::ordered_json PageJson(const BtPageView& p) {
  nlohmann::ordered_json j;
  j["block"] = p.block;
  j["level"] = p.level;
  j["items"] = p.nitems;
  j["rightmost"] = p.rightmost;
  j["btpo_next"] = p.next;
  j["PageGetFreeSpace"] = p.free_space;
  j["PageGetExactFreeSpace"] = p.exact_free;
  j["posting_lists"] = p.posting_lists;
  j["fill"] = Fill(p);
  return j;
}

nlohmann::ordered_json KindsJson(const uint64_t (&by_kind)[5]) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (SplitKind k : kSplitKinds) j[postgres::SplitKindName(k)] = by_kind[static_cast<int>(k)];
  return j;
}

uint64_t Total(const uint64_t (&by_kind)[5]) {
  uint64_t n = 0;
  for (uint64_t v : by_kind) n += v;
  return n;
}

}  // namespace

absl::StatusOr<PgExplainResult> PgExplain(const ExplainSpec& spec) {
  OwnKeys own;
  if (!spec.keys.empty()) {
    own.keys = &spec.keys;
    own.width = spec.key_width;
  }
  absl::StatusOr<std::unique_ptr<Load>> prepared = Load::Prepare(spec.run, own);
  if (!prepared.ok()) return prepared.status();
  Load& load = **prepared;
  auto* driver = dynamic_cast<PostgresDriver*>(&load.driver());
  if (driver == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("--profile ", spec.run.profile, " is not a PostgreSQL profile"));
  }
  postgres::PgTable& table = driver->mutable_pg_engine().mutable_table();
  PgExplainResult result;
  result.spec = spec;
  result.spec.run = load.spec();
  result.key_width = load.result().key_width;
  result.table = load.result().table;
  std::vector<std::unique_ptr<IndexCollector>> collectors;
  for (size_t i = 0; i < table.index_count(); ++i) {
    collectors.push_back(std::make_unique<IndexCollector>());
    table.set_index_trace(i, collectors.back().get());
    const postgres::BtIndex& ix = table.index(i);
    PgIndexExplained x;
    x.name = ix.desc().name;
    x.unique = ix.desc().unique;
    for (const postgres::BtKeyColumn& c : ix.desc().columns) x.key_bytes += c.key_bytes;
    result.indexes.push_back(std::move(x));
  }
  PgExplainObserver observer(spec, table, collectors, result);
  absl::Status s = load.Insert(load.stream(), load.spec().rows, 0, {}, &observer);
  if (s.ok()) s = load.engine().EndLoad();
  for (size_t i = 0; i < table.index_count(); ++i) table.set_index_trace(i, nullptr);
  if (!s.ok()) return s;
  result.rows = load.spec().rows;
  result.report = table.Report();
  for (size_t i = 0; i < table.index_count(); ++i) {
    PgIndexExplained& x = result.indexes[i];
    double sum = 0, frozen_sum = 0;
    for (uint32_t b : table.index(i).LeavesInKeyOrder()) {
      const double f = Fill(table.index(i).View(b));
      ++x.leaves;
      sum += f;
      ++x.fill_histogram[std::min<size_t>(9, static_cast<size_t>(f * 10))];
      if (observer.life(i).Frozen(b)) {
        ++x.frozen;
        frozen_sum += f;
      }
    }
    x.receiving = x.leaves - x.frozen;
    x.mean_leaf_fill = x.leaves > 0 ? sum / static_cast<double>(x.leaves) : 0;
    x.frozen_mean_fill = x.frozen > 0 ? frozen_sum / static_cast<double>(x.frozen) : 0;
    x.receiving_mean_fill = x.receiving > 0 ? (sum - frozen_sum) / static_cast<double>(x.receiving) : 0;
  }
  return result;
}

std::string PgExplainText(const PgExplainResult& r) {
  std::string out = absl::StrCat(
      "explain: ", r.rows, " rows of ", r.spec.keys.empty() ? r.spec.run.stream.name : "the keys given", ", ",
      postgres::kBlckSz, "-byte blocks (BLCKSZ; ", kBTPageSpace, " for line pointers and tuples), ", r.spec.run.profile,
      "\n  table: ", r.table, "\n  pages: '#' used (tuples, high key, line pointers), '.' free\n\n");
  for (const PgExplainedInsert& x : r.inserts) {
    const BtTraceEvent& leaf = x.steps.front();
    std::string path;
    for (int i = 0; i < leaf.path_length; ++i) absl::StrAppend(&path, i > 0 ? " > " : "", leaf.path[i]);
    absl::StrAppend(&out, "row ", x.row, "  ", r.indexes[x.index].name, "  key ", KeyText(r, x), "\n");
    absl::StrAppendFormat(&out, "  leaf block %u (path %s), data item %d; %s\n", leaf.page.block, path,
                          leaf.offset + 1, FastpathWhy(leaf.fastpath));
    absl::StrAppendFormat(&out, "  before: %s; the tuple needs %d bytes\n", PageText(leaf.page), leaf.itemsz);
    absl::StrAppend(&out, "  ", x.decision, " (", x.rule, ")\n    why: ", x.why, "\n");
    const auto key_text = [&](const Key& k) { return HikeyText(r, x, k); };
    for (size_t i = 1; i < x.steps.size(); ++i) absl::StrAppend(&out, "    - ", StepText(x.steps[i], key_text), "\n");
    for (const BtPageView& p : x.pages_after) {
      absl::StrAppendFormat(&out, "    block %6u L%u %s %4d items %5.1f%%%s\n", p.block, p.level, Bar(p, 40),
                            p.nitems, 100.0 * Fill(p), p.rightmost ? "  rightmost" : "");
    }
    out += "\n";
  }
  for (size_t i = 0; i < r.indexes.size(); ++i) {
    const PgIndexExplained& x = r.indexes[i];
    absl::StrAppendFormat(&out, "summary of %s%s: %u index tuples, %u leaves, mean leaf fill %.1f%%\n", x.name,
                          x.unique ? " (unique)" : "", x.inserts, x.leaves, 100 * x.mean_leaf_fill);
    absl::StrAppendFormat(&out,
                          "  %u frozen (split, never reached by an insert after their last split), mean fill %.1f%%; "
                          "%u reached again after their last split (or never split), mean fill %.1f%%\n",
                          x.frozen, 100 * x.frozen_mean_fill, x.receiving, 100 * x.receiving_mean_fill);
    out += "  fill      leaves\n";
    for (int b = 0; b < 10; ++b) {
      absl::StrAppendFormat(&out, "  %3d-%3d%% %7u\n", b * 10, b * 10 + 10, x.fill_histogram[b]);
    }
    std::string kinds;
    for (SplitKind k : kSplitKinds) {
      const uint64_t n = x.leaf_splits[static_cast<int>(k)];
      if (n > 0) absl::StrAppend(&kinds, kinds.empty() ? "" : ", ", postgres::SplitKindName(k), " ", n);
    }
    absl::StrAppendFormat(&out,
                          "  leaf splits %u (%s), internal splits %u, new roots %u, dedup passes %u, fastpath "
                          "inserts %u\n",
                          Total(x.leaf_splits), kinds.empty() ? "none" : kinds, Total(x.internal_splits), x.new_roots,
                          x.dedup_passes, x.fastpath_inserts);
    if (i < r.report.indexes.size()) {
      const postgres::PgStatIndex& s = r.report.indexes[i].stat;
      absl::StrAppendFormat(&out,
                            "  pgstatindex: tree_level %d, root_block_no %u, internal_pages %u, leaf_pages %u, "
                            "avg_leaf_density %.2f, leaf_fragmentation %.2f\n",
                            s.tree_level, s.root_block_no, s.internal_pages, s.leaf_pages, s.avg_leaf_density,
                            s.leaf_fragmentation);
    }
  }
  absl::StrAppendFormat(&out, "heap relpages %u, pg_relation_size %u\n", r.report.heap_relpages,
                        r.report.heap_pg_relation_size);
  return out;
}

std::string PgExplainJsonLines(const PgExplainResult& r) {
  std::string out;
  for (const PgExplainedInsert& x : r.inserts) {
    const BtTraceEvent& leaf = x.steps.front();
    nlohmann::ordered_json j;
    j["row"] = x.row;
    j["index"] = r.indexes[x.index].name;
    j["key"] = KeyText(r, x);
    j["leaf"] = leaf.page.block;
    j["path"] = std::vector<uint32_t>(leaf.path, leaf.path + leaf.path_length);
    j["offset"] = leaf.offset + 1;
    j["fastpath"] = BtFastpathName(leaf.fastpath);
    j["before"] = PageJson(leaf.page);
    j["tuple_bytes"] = leaf.itemsz;
    j["decision"] = x.decision;
    j["rule"] = x.rule;
    j["why"] = x.why;
    j["split"] = x.split;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (size_t i = 1; i < x.steps.size(); ++i) {
      const BtTraceEvent& e = x.steps[i];
      nlohmann::ordered_json s;
      s["step"] = BtStepName(e.step);
      s["rule"] = e.rule;
      s["block"] = e.page.block;
      s["level"] = e.page.level;
      if (e.step == BtStep::kSplit) {
        const postgres::SplitDecision& d = e.split;
        s["strategy"] = postgres::SplitKindName(d.kind);
        s["before"] = PageJson(e.page);
        s["candidates"] = d.candidates;
        s["fillfactor"] = d.fillfactor;
        s["interval"] = d.interval;
        s["penalty"] = d.penalty;
        s["perfectpenalty"] = d.perfectpenalty;
        s["firstoldonright"] = d.firstoldonright + 1;
        s["newitemonleft"] = d.newitemonleft;
        s["leftfree"] = d.leftfree;
        s["rightfree"] = d.rightfree;
        s["right_block"] = e.right_block;
        s["old_right_sibling"] = e.old_next;
        s["left_after"] = PageJson(e.after);
        s["right_after"] = PageJson(e.right);
        s["hikey"] = HikeyText(r, x, e.hikey);
        s["hikey_natts"] = e.hikey_natts;
        s["hikey_heap_tid"] = e.hikey_heap_tid;
        s["hikey_bytes"] = e.hikey_size;
      } else if (e.step == BtStep::kDedupPass) {
        s["before"] = PageJson(e.page);
        s["after"] = PageJson(e.after);
        s["nintervals"] = e.nintervals;
        s["single_value"] = e.singlevalue;
        s["tuple_fits"] = e.split_avoided;
      } else if (e.step == BtStep::kInserted) {
        s["offset"] = e.offset + 1;
      } else if (e.step == BtStep::kInsertParent) {
        s["child"] = e.child;
        s["offset"] = e.offset + 1;
      } else if (e.step == BtStep::kNewRoot) {
        s["left_child"] = e.left_child;
        s["right_child"] = e.child;
      }
      steps.push_back(std::move(s));
    }
    j["steps"] = std::move(steps);
    nlohmann::ordered_json pages = nlohmann::ordered_json::array();
    for (const BtPageView& p : x.pages_after) pages.push_back(PageJson(p));
    j["pages_after"] = std::move(pages);
    absl::StrAppend(&out, j.dump(), "\n");
  }
  nlohmann::ordered_json sum;
  sum["summary"] = true;
  sum["rows"] = r.rows;
  nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.indexes.size(); ++i) {
    const PgIndexExplained& x = r.indexes[i];
    nlohmann::ordered_json j;
    j["name"] = x.name;
    j["unique"] = x.unique;
    j["inserts"] = x.inserts;
    j["leaves"] = x.leaves;
    j["mean_leaf_fill"] = x.mean_leaf_fill;
    j["fill_histogram"] = x.fill_histogram;
    j["frozen"] = x.frozen;
    j["frozen_mean_fill"] = x.frozen_mean_fill;
    j["receiving"] = x.receiving;
    j["receiving_mean_fill"] = x.receiving_mean_fill;
    j["leaf_splits"] = KindsJson(x.leaf_splits);
    j["internal_splits"] = KindsJson(x.internal_splits);
    j["new_roots"] = x.new_roots;
    j["dedup_passes"] = x.dedup_passes;
    j["fastpath_inserts"] = x.fastpath_inserts;
    if (i < r.report.indexes.size()) {
      const postgres::PgStatIndex& s = r.report.indexes[i].stat;
      j["tree_level"] = s.tree_level;
      j["root_block_no"] = s.root_block_no;
      j["internal_pages"] = s.internal_pages;
      j["leaf_pages"] = s.leaf_pages;
      j["avg_leaf_density"] = s.avg_leaf_density;
      j["leaf_fragmentation"] = s.leaf_fragmentation;
    }
    indexes.push_back(std::move(j));
  }
  sum["indexes"] = std::move(indexes);
  sum["heap_relpages"] = r.report.heap_relpages;
  sum["heap_pg_relation_size"] = r.report.heap_pg_relation_size;
  absl::StrAppend(&out, sum.dump(), "\n");
  return out;
}

absl::StatusOr<std::string> PostgresExplain(const ExplainSpec& spec, bool json) {
  absl::StatusOr<PgExplainResult> r = PgExplain(spec);
  if (!r.ok()) return r.status();
  return json ? PgExplainJsonLines(*r) : PgExplainText(*r);
}

}  // namespace innosim
