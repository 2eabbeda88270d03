#include "model/postgres/split_point.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "model/postgres/page_layout.h"

namespace innosim::postgres {
namespace {

// nbtsplitloc.c: limits on the split interval (default strategy only).
constexpr int kMaxLeafInterval = 9;       // MAX_LEAF_INTERVAL
constexpr int kMaxInternalInterval = 18;  // MAX_INTERNAL_INTERVAL

enum Strat { kSplitDefault, kSplitManyDuplicates, kSplitSingleValue };

}  // namespace

const char* SplitKindName(SplitKind kind) {
  switch (kind) {
    case SplitKind::kRightmostFillfactor: return "rightmost_fillfactor";
    case SplitKind::kFiftyFifty: return "fifty_fifty";
    case SplitKind::kAfterNewItem: return "split_after_new_item";
    case SplitKind::kManyDuplicates: return "many_duplicates";
    case SplitKind::kSingleValue: return "single_value";
  }
  return "?";
}

// nbtsplitloc.c FindSplitData, the part the helpers read.
struct SplitPointFinder::State {
  const SplitPageDesc* page;
  int n;  // data items on the original page
  int newitemsz;  // includes the line pointer, as in _bt_findsplitloc
  int leftspace;
  int rightspace;
  int olddataitemstotal;
  int minfirstrightsz;
  int interval;
};

// _bt_recsplitloc: records the split before data item `firstoldonright`
// (or before the new item) when both halves fit. The first item on the
// right becomes the left page's high key, so it is charged to the left; on
// a leaf assume suffix truncation cannot avoid appending a heap TID to it
// (MAXALIGN(sizeof(ItemPointerData))). On an internal page the right
// page's first item becomes minus infinity (key data dropped).
void SplitPointFinder::RecSplitLoc(State& s, int firstoldonright, bool newitemonleft, int olddataitemstoleft,
                                   int firstoldonrightsz) {
  const bool newitemisfirstright = firstoldonright == s.page->newitemoff && !newitemonleft;
  const int firstrightsz = newitemisfirstright ? s.newitemsz : firstoldonrightsz;
  // (PG13+ subtracts a posting list's size from the charge when firstright
  // is a posting-list tuple over 64 bytes: the truncated high key drops it.)
  int postingsz = 0;
  if (!newitemisfirstright && s.page->is_leaf && firstrightsz > 64 &&
      firstoldonright < static_cast<int>(s.page->posting_bytes.size())) {
    postingsz = s.page->posting_bytes[firstoldonright];
  }

  int leftfree = s.leftspace - olddataitemstoleft;
  int rightfree = s.rightspace - (s.olddataitemstotal - olddataitemstoleft);
  if (s.page->is_leaf) {
    leftfree -= firstrightsz + MaxAlign(kSizeOfItemPointerData) - postingsz;
  } else {
    leftfree -= firstrightsz;
  }
  if (newitemonleft) {
    leftfree -= s.newitemsz;
  } else {
    rightfree -= s.newitemsz;
  }
  if (!s.page->is_leaf) rightfree += firstrightsz - (MaxAlign(kSizeOfIndexTupleData) + kSizeOfItemIdData);

  if (leftfree >= 0 && rightfree >= 0) {
    s.minfirstrightsz = std::min(s.minfirstrightsz, firstrightsz);
    splits_.push_back(SplitPoint{0, static_cast<int16_t>(leftfree), static_cast<int16_t>(rightfree), firstoldonright,
                                 newitemonleft, static_cast<int32_t>(splits_.size())});
  }
}

// _bt_deltasortsplits: each split's distance from the wanted balance, as an
// int16 (the double is truncated toward zero as C's conversion does), then
// the candidates sorted by it. PostgreSQL sorts with pg_qsort, which is not
// stable; here equal deltas keep their offset order. Equal deltas are rare
// at the front of the order, and only there does the order matter.
void SplitPointFinder::DeltaSortSplits(double fillfactormult, bool usemult) {
  for (SplitPoint& split : splits_) {
    int16_t delta;
    if (usemult) {
      delta = static_cast<int16_t>(fillfactormult * split.leftfree - (1.0 - fillfactormult) * split.rightfree);
    } else {
      delta = static_cast<int16_t>(split.leftfree - split.rightfree);
    }
    if (delta < 0) delta = static_cast<int16_t>(-delta);
    split.curdelta = delta;
  }
  std::sort(splits_.begin(), splits_.end(), [](const SplitPoint& a, const SplitPoint& b) {
    return a.curdelta != b.curdelta ? a.curdelta < b.curdelta : a.ordinal < b.ordinal;
  });
}

// _bt_afternewitemoff: the "split after new item" optimization for
// composite indexes with localized ascending insertions. Never for
// single-key-column indexes.
bool SplitPointFinder::AfterNewItemOff(const State& s, int leaffillfactor, bool* usemult,
                                       absl::FunctionRef<int(int, int)> keep_natts,
                                       absl::FunctionRef<bool(int)> adjacent_htid) const {
  const SplitPageDesc& p = *s.page;
  if (p.nkeyatts == 1) return false;
  if (p.newitemoff == 0) return false;  // new item first: P_FIRSTKEY
  // Only pages of equisized tuples (ordinal keys are fixed-width).
  if (s.newitemsz != s.minfirstrightsz) return false;
  if (s.newitemsz * s.n != s.olddataitemstotal) return false;
  // Not for tuples wider than two int8 attributes.
  if (s.newitemsz > MaxAlign(kSizeOfIndexTupleData + 2 * 8) + kSizeOfItemIdData) return false;
  if (p.newitemoff == s.n) {
    const int keepnatts = keep_natts(s.n - 1, kNewItem);
    if (keepnatts > 1 && keepnatts <= p.nkeyatts) {
      *usemult = true;
      return true;
    }
    return false;
  }
  if (!adjacent_htid(p.newitemoff - 1)) return false;
  const int keepnatts = keep_natts(p.newitemoff - 1, kNewItem);
  if (keepnatts > 1 && keepnatts <= p.nkeyatts) {
    // OffsetNumbers are 1-based with the high key at 1: newitemoff + 2
    // and maxoff = n + 1.
    const double interp = static_cast<double>(p.newitemoff + 2) / (static_cast<double>(s.n + 1) + 1);
    const double leaffillfactormult = static_cast<double>(leaffillfactor) / 100.0;
    *usemult = interp > leaffillfactormult;
    return true;
  }
  return false;
}

// _bt_split_penalty: on a leaf, the attributes the new high key must keep
// (_bt_keep_natts_fast of lastleft and firstright); on an internal page,
// the size of the first item on the right (the left page's new high key).
int SplitPointFinder::SplitPenalty(const State& s, const SplitPoint& split,
                                   absl::FunctionRef<int(int, int)> keep_natts) const {
  const SplitPageDesc& p = *s.page;
  if (!p.is_leaf) {
    if (!split.newitemonleft && split.firstoldonright == p.newitemoff) return s.newitemsz;
    return p.item_size[split.firstoldonright] + kSizeOfItemIdData;
  }
  // _bt_split_lastleft / _bt_split_firstright.
  const int lastleft =
      (split.newitemonleft && split.firstoldonright == p.newitemoff) ? kNewItem : split.firstoldonright - 1;
  const int firstright =
      (!split.newitemonleft && split.firstoldonright == p.newitemoff) ? kNewItem : split.firstoldonright;
  return keep_natts(lastleft, firstright);
}

// _bt_interval_edges: the leftmost and rightmost splits of the interval.
void SplitPointFinder::IntervalEdges(const State& s, const SplitPoint** left, const SplitPoint** right) const {
  const int highsplit = std::min<int>(s.interval, static_cast<int>(splits_.size()));
  const SplitPoint* deltaoptimal = &splits_[0];
  *left = nullptr;
  *right = nullptr;
  for (int i = highsplit - 1; i >= 0; --i) {
    const SplitPoint* distant = &splits_[i];
    if (distant->firstoldonright < deltaoptimal->firstoldonright) {
      if (*left == nullptr) *left = distant;
    } else if (distant->firstoldonright > deltaoptimal->firstoldonright) {
      if (*right == nullptr) *right = distant;
    } else if (!distant->newitemonleft && deltaoptimal->newitemonleft) {
      if (*left == nullptr) *left = distant;
    } else if (distant->newitemonleft && !deltaoptimal->newitemonleft) {
      if (*right == nullptr) *right = distant;
    } else {
      if (*left == nullptr) *left = distant;
      if (*right == nullptr) *right = distant;
    }
    if (*left != nullptr && *right != nullptr) return;
  }
}

// _bt_strategy: stay with the default interval when it holds a split whose
// high key needs no heap TID; else many duplicates (the page is not all
// one value) or single value (it is, and this page is the rightmost for
// that value).
int SplitPointFinder::Strategy(const State& s, const SplitPoint& leftpage, const SplitPoint& rightpage, int* strategy,
                               absl::FunctionRef<int(int, int)> keep_natts) const {
  const SplitPageDesc& p = *s.page;
  *strategy = kSplitDefault;
  if (!p.is_leaf) return s.minfirstrightsz;

  auto lastleft = [&](const SplitPoint& sp) {
    return (sp.newitemonleft && sp.firstoldonright == p.newitemoff) ? kNewItem : sp.firstoldonright - 1;
  };
  auto firstright = [&](const SplitPoint& sp) {
    return (!sp.newitemonleft && sp.firstoldonright == p.newitemoff) ? kNewItem : sp.firstoldonright;
  };
  const SplitPoint* leftinterval;
  const SplitPoint* rightinterval;
  IntervalEdges(s, &leftinterval, &rightinterval);
  int perfectpenalty = keep_natts(lastleft(*leftinterval), firstright(*rightinterval));
  if (perfectpenalty <= p.nkeyatts) return perfectpenalty;

  perfectpenalty = keep_natts(lastleft(leftpage), firstright(rightpage));
  if (perfectpenalty <= p.nkeyatts) {
    *strategy = kSplitManyDuplicates;
    return p.nkeyatts;
  }
  if (p.is_rightmost) {
    *strategy = kSplitSingleValue;
  } else {
    perfectpenalty = keep_natts(kHighKey, kNewItem);
    if (perfectpenalty <= p.nkeyatts) *strategy = kSplitSingleValue;
  }
  return perfectpenalty;
}

SplitDecision SplitPointFinder::FindSplitLoc(const SplitPageDesc& page, absl::FunctionRef<int(int, int)> keep_natts,
                                             absl::FunctionRef<bool(int)> adjacent_htid) {
  SplitDecision out;
  State s{};
  s.page = &page;
  s.n = static_cast<int>(page.item_size.size());
  s.leftspace = s.rightspace = kBTPageSpace;
  if (!page.is_rightmost) s.rightspace -= MaxAlign(page.hikey_size) + kSizeOfItemIdData;
  int total = 0;
  for (uint16_t sz : page.item_size) total += MaxAlign(sz) + kSizeOfItemIdData;
  s.olddataitemstotal = total;
  s.newitemsz = page.newitemsz + kSizeOfItemIdData;
  s.minfirstrightsz = INT_MAX;

  splits_.clear();
  int olddataitemstoleft = 0;
  for (int i = 0; i < s.n; ++i) {
    const int itemsz = MaxAlign(page.item_size[i]) + kSizeOfItemIdData;
    if (i < page.newitemoff) {
      RecSplitLoc(s, i, false, olddataitemstoleft, itemsz);
    } else if (i > page.newitemoff) {
      RecSplitLoc(s, i, true, olddataitemstoleft, itemsz);
    } else {
      RecSplitLoc(s, i, false, olddataitemstoleft, itemsz);
      RecSplitLoc(s, i, true, olddataitemstoleft, itemsz);
    }
    olddataitemstoleft += itemsz;
  }
  if (page.newitemoff >= s.n) RecSplitLoc(s, page.newitemoff, false, s.olddataitemstotal, 0);
  if (splits_.empty()) return out;  // "could not find a feasible split point"
  out.candidates = static_cast<int>(splits_.size());

  double fillfactormult = 0.50;
  bool usemult = false;
  out.kind = SplitKind::kFiftyFifty;
  if (!page.is_leaf) {
    usemult = page.is_rightmost;
    fillfactormult = kBtreeNonleafFillfactor / 100.0;
    if (usemult) out.kind = SplitKind::kRightmostFillfactor;
  } else if (page.is_rightmost) {
    usemult = true;
    fillfactormult = page.leaffillfactor / 100.0;
    out.kind = SplitKind::kRightmostFillfactor;
  } else if (AfterNewItemOff(s, page.leaffillfactor, &usemult, keep_natts, adjacent_htid)) {
    out.kind = SplitKind::kAfterNewItem;
    if (usemult) {
      fillfactormult = page.leaffillfactor / 100.0;
    } else {
      for (const SplitPoint& split : splits_) {
        if (split.newitemonleft && split.firstoldonright == page.newitemoff) {
          out.fillfactor = 0;
          out.firstoldonright = page.newitemoff;
          out.newitemonleft = true;
          out.leftfree = split.leftfree;
          out.rightfree = split.rightfree;
          out.ok = true;
          return out;
        }
      }
      fillfactormult = 0.50;
    }
  }

  // Initial split interval: 5% of the candidates, within [1, 9] on a leaf
  // or [1, 18] on an internal page (the double truncated to int).
  s.interval = static_cast<int>(std::min(std::max(1.0, splits_.size() * 0.05),
                                         static_cast<double>(page.is_leaf ? kMaxLeafInterval : kMaxInternalInterval)));
  const SplitPoint leftpage = splits_.front();
  const SplitPoint rightpage = splits_.back();
  DeltaSortSplits(fillfactormult, usemult);

  int strategy;
  const int perfectpenalty = Strategy(s, leftpage, rightpage, &strategy, keep_natts);
  if (strategy == kSplitManyDuplicates) {
    s.interval = static_cast<int>(splits_.size());
    out.kind = SplitKind::kManyDuplicates;
  } else if (strategy == kSplitSingleValue) {
    DeltaSortSplits(kBtreeSinglevalFillfactor / 100.0, true);
    s.interval = 1;
    out.kind = SplitKind::kSingleValue;
  }
  out.fillfactor = strategy == kSplitSingleValue ? kBtreeSinglevalFillfactor
                   : usemult                     ? static_cast<int>(fillfactormult * 100.0 + 0.5)
                                                 : 50;
  out.interval = s.interval;
  out.perfectpenalty = perfectpenalty;

  // _bt_bestsplitloc: the lowest penalty within the interval; stop at the
  // first perfect one.
  const int highsplit = std::min<int>(s.interval, static_cast<int>(splits_.size()));
  int bestpenalty = INT_MAX;
  int lowsplit = 0;
  for (int i = 0; i < highsplit; ++i) {
    const int penalty = SplitPenalty(s, splits_[i], keep_natts);
    if (penalty <= perfectpenalty) {
      lowsplit = i;
      bestpenalty = penalty;
      break;
    }
    if (penalty < bestpenalty) {
      bestpenalty = penalty;
      lowsplit = i;
    }
  }
  out.penalty = bestpenalty;
  const SplitPoint* final_split = &splits_[lowsplit];
  // Many duplicates with ever-decreasing insertions just right of the
  // group: split 50:50 instead (the delta-optimal split).
  if (strategy == kSplitManyDuplicates && !page.is_rightmost && !final_split->newitemonleft &&
      final_split->firstoldonright >= page.newitemoff &&
      final_split->firstoldonright < page.newitemoff + kMaxLeafInterval) {
    final_split = &splits_[0];
    out.duplicates_fallback = true;
    out.penalty = SplitPenalty(s, *final_split, keep_natts);
  }
  out.firstoldonright = final_split->firstoldonright;
  out.newitemonleft = final_split->newitemonleft;
  out.leftfree = final_split->leftfree;
  out.rightfree = final_split->rightfree;
  out.ok = true;
  return out;
}

}  // namespace innosim::postgres
