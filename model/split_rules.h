// Split rules: where btr_page_split_and_insert (btr/btr0btr.cc) cuts a full
// page, and the "looks sequential" test that the 1/16 reserve of
// btr_cur_optimistic_insert shares with it.
//
// The heuristics look only at PAGE_LAST_INSERT: an insert right after the
// last inserted record splits "to the right" at the new record (keeping one
// record after the insert point on the old page); an insert right before it
// splits "to the left"; anything else splits at the middle record. There is
// no run length, no history: one out-of-order insert is enough to fall back
// to the middle (docs/how-page-splits-work.md explains the consequences).
//
// Records are ordinals on the page (-1 = infimum, n_recs = supremum).
// Pure functions; thread-compatible.
#ifndef INNOSIM_MODEL_SPLIT_RULES_H_
#define INNOSIM_MODEL_SPLIT_RULES_H_

#include <cstdint>

#include "model/index_page.h"
#include "model/tablespace.h"

namespace innosim {

inline constexpr int kNoSplitRec = -2;  // split_rec == NULL: split at the tuple

// btr_page_get_split_rec_to_right: PAGE_LAST_INSERT == insert point.
// On true, *split_rec is kNoSplitRec when the insert point is the last or
// second-to-last record, else the record two after the insert point.
bool SplitRecToRight(const IndexPage& page, int cursor, int* split_rec);

// btr_page_get_split_rec_to_left: PAGE_LAST_INSERT == next(insert point).
// On true, *split_rec is the insert point, or the record after it when the
// insert point is the infimum or the first record.
bool SplitRecToLeft(const IndexPage& page, int cursor, int* split_rec);

// page_get_middle_rec: the record at list position (n_recs + 2) / 2,
// counting the infimum as 0.
int MiddleRec(const IndexPage& page);

// btr_page_get_split_rec: the "sure split" of a retry, cutting where the
// bytes of the records plus the new tuple reach half of the total. Returns
// kNoSplitRec when the tuple itself starts the upper half.
int SureSplitRec(const IndexPage& page, int cursor, uint32_t tuple_size);

struct SplitDecision {
  FspDirection direction = FspDirection::kUp;
  int split_rec = kNoSplitRec;  // first record of the upper half, or kNoSplitRec
  bool insert_left = false;     // the tuple goes to the lower half
  enum class Kind : uint8_t { kToRight, kToLeft, kMiddle, kSure } kind = Kind::kMiddle;
};

// Step 1 of btr_page_split_and_insert for iteration `n_iterations`, for a
// tuple that would be inserted after `cursor`.
SplitDecision DecideSplit(const IndexPage& page, int cursor, int n_iterations, uint32_t tuple_size);

}  // namespace innosim

#endif  // INNOSIM_MODEL_SPLIT_RULES_H_
