// The split point of an nbtree page: PostgreSQL's _bt_findsplitloc
// (src/backend/access/nbtree/nbtsplitloc.c) and its helpers, alone in one
// file so that the rule reads in one place.
//
// The caller describes the page about to split (its data items' sizes, the
// new item's size and position, whether it is a leaf and the rightmost page
// of its level) and answers two questions about tuples: _bt_keep_natts_fast
// (how many key attributes a pivot between two tuples must keep; nkeyatts+1
// means the keys are equal and a heap TID would be appended) and
// _bt_adjacenthtid. FindSplitLoc returns what _bt_findsplitloc returns: the
// first old item that goes to the right page and whether the new item goes
// left.
//
// A SplitPointFinder keeps its candidate array between calls (no allocation
// once warm). Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_SPLIT_POINT_H_
#define INNOSIM_MODEL_POSTGRES_SPLIT_POINT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"

namespace innosim::postgres {

// nbtsplitloc.c FindSplitStrat, plus how the default strategy weighed the
// two halves (which fillfactor it applied), for the split counters.
enum class SplitKind : uint8_t {
  kRightmostFillfactor,  // rightmost page: leaf fillfactor, or BTREE_NONLEAF_FILLFACTOR
  kFiftyFifty,           // SPLIT_DEFAULT on any other page: equal free space
  kAfterNewItem,         // _bt_afternewitemoff: composite-key localized ascent
  kManyDuplicates,       // SPLIT_MANY_DUPLICATES
  kSingleValue,          // SPLIT_SINGLE_VALUE (BTREE_SINGLEVAL_FILLFACTOR)
};

// Names as the counters report them.
const char* SplitKindName(SplitKind kind);

// The page that splits. Items are the page's data items in offset order,
// from P_FIRSTDATAKEY (the high key is not among them). On an internal
// page item 0 is the minus-infinity downlink.
struct SplitPageDesc {
  bool is_leaf = true;
  bool is_rightmost = true;
  int hikey_size = 0;                   // MAXALIGNed high key size; 0 on the rightmost page
  std::span<const uint16_t> item_size;  // MAXALIGNed tuple sizes (no line pointer)
  // Per data item, the bytes of its posting list (IndexTupleSize minus
  // BTreeTupleGetPostingOffset), 0 for a plain tuple; may be empty.
  std::span<const uint16_t> posting_bytes;
  int newitemoff = 0;                   // 0-based: the new item goes before item_size[newitemoff]
  int newitemsz = 0;                    // MAXALIGNed tuple size of the new item
  int leaffillfactor = 90;              // RelationGetFillFactor(rel, BTREE_DEFAULT_FILLFACTOR)
  int nkeyatts = 1;                     // IndexRelationGetNumberOfKeyAttributes
};

// Tuple references in the callbacks: 0..n-1 are data items, kNewItem the
// incoming tuple, kHighKey the page's high key.
inline constexpr int kNewItem = -1;
inline constexpr int kHighKey = -2;

struct SplitDecision {
  int firstoldonright = 0;  // 0-based; == item count: only the new item goes right
  bool newitemonleft = false;
  SplitKind kind = SplitKind::kFiftyFifty;
  int leftfree = 0;   // _bt_recsplitloc's estimate for the chosen split
  int rightfree = 0;
  bool ok = false;    // false: no legal split (elog ERROR in PostgreSQL)
  // How the choice was made (for explain; no rule reads these): the legal
  // split points _bt_recsplitloc recorded, the weight the delta sort gave
  // the left page's free space in percent (fillfactormult: 50 for 50:50,
  // the leaf fillfactor or BTREE_NONLEAF_FILLFACTOR on a rightmost page,
  // BTREE_SINGLEVAL_FILLFACTOR for single value; 0 when split-after-new-item
  // took the split at the new item without sorting), the interval
  // _bt_bestsplitloc searched, the perfect penalty _bt_strategy set and the
  // chosen split's penalty (_bt_split_penalty: key attributes its high key
  // keeps on a leaf, nkeyatts + 1 meaning a heap TID; the first right
  // item's size on an internal page), and whether the many-duplicates rule
  // fell back to the delta-optimal (50:50) split.
  int candidates = 0;
  int fillfactor = 50;
  int interval = 0;
  int perfectpenalty = 0;
  int penalty = 0;
  bool duplicates_fallback = false;
};

class SplitPointFinder {
 public:
  // keep_natts(a, b): _bt_keep_natts_fast(rel, a, b).
  // adjacent_htid(a): _bt_adjacenthtid(&a->t_tid, &newitem->t_tid).
  SplitDecision FindSplitLoc(const SplitPageDesc& page, absl::FunctionRef<int(int, int)> keep_natts,
                             absl::FunctionRef<bool(int)> adjacent_htid);

 private:
  // nbtsplitloc.c SplitPoint.
  struct SplitPoint {
    int16_t curdelta;
    int16_t leftfree;
    int16_t rightfree;
    int32_t firstoldonright;  // 0-based
    bool newitemonleft;
    int32_t ordinal;  // position before sorting (see DeltaSortSplits)
  };
  struct State;

  void RecSplitLoc(State& s, int firstoldonright, bool newitemonleft, int olddataitemstoleft, int firstoldonrightsz);
  void DeltaSortSplits(double fillfactormult, bool usemult);
  bool AfterNewItemOff(const State& s, int leaffillfactor, bool* usemult, absl::FunctionRef<int(int, int)> keep_natts,
                       absl::FunctionRef<bool(int)> adjacent_htid) const;
  int Strategy(const State& s, const SplitPoint& leftpage, const SplitPoint& rightpage, int* strategy,
               absl::FunctionRef<int(int, int)> keep_natts) const;
  void IntervalEdges(const State& s, const SplitPoint** left, const SplitPoint** right) const;
  int SplitPenalty(const State& s, const SplitPoint& split, absl::FunctionRef<int(int, int)> keep_natts) const;

  std::vector<SplitPoint> splits_;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_SPLIT_POINT_H_
