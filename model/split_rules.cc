#include "model/split_rules.h"

namespace innosim {

bool SplitRecToRight(const IndexPage& page, int cursor, int* split_rec) {
  if (cursor < 0 || page.last_insert() != cursor) return false;
  const int n = page.n_recs();
  // next(insert_point) or next(next(insert_point)) is the supremum: split at
  // the new record. Otherwise keep one record after the insert point.
  *split_rec = (cursor + 1 >= n || cursor + 2 >= n) ? kNoSplitRec : cursor + 2;
  return true;
}

bool SplitRecToLeft(const IndexPage& page, int cursor, int* split_rec) {
  if (page.last_insert() < 0 || page.last_insert() != cursor + 1) return false;
  *split_rec = (cursor != -1 && cursor != 0) ? cursor : cursor + 1;
  return true;
}

int MiddleRec(const IndexPage& page) { return (page.n_recs() + 2) / 2 - 1; }

int SureSplitRec(const IndexPage& page, int cursor, uint32_t tuple_size) {
  const uint32_t rec_size = page.rec_size();
  const int n_recs = page.n_recs();
  const uint32_t free_space = FreeSpaceOfEmpty(page.page_size());
  const uint32_t total_data = page.DataSize() + tuple_size;
  const uint32_t total_space = total_data + DirReservedSpace(static_cast<uint32_t>(n_recs) + 1);
  // Walk from the infimum through the records with the tuple spliced in
  // after `cursor`, until the included bytes reach half of the total.
  int rec = -1;          // last included record (when !is_tuple)
  bool is_tuple = false; // the last included item is the tuple
  uint32_t incl_data = 0;
  uint32_t n = 0;
  do {
    if (!is_tuple && rec == cursor) {
      is_tuple = true;
    } else if (is_tuple) {
      is_tuple = false;
      rec = cursor + 1;
    } else {
      ++rec;
    }
    incl_data += is_tuple ? tuple_size : rec_size;
    ++n;
  } while (incl_data + DirReservedSpace(n) < total_space / 2);
  if (incl_data + DirReservedSpace(n) <= free_space) {
    // The next item starts the upper half, unless it is the supremum.
    if (!is_tuple && rec == cursor) return kNoSplitRec;
    const int next = is_tuple ? cursor + 1 : rec + 1;
    if (next < n_recs) return next;
  }
  return is_tuple ? kNoSplitRec : rec;
}

SplitDecision DecideSplit(const IndexPage& page, int cursor, int n_iterations, uint32_t tuple_size) {
  SplitDecision d;
  int split_rec = kNoSplitRec;
  if (n_iterations > 0) {
    d.direction = FspDirection::kUp;
    d.kind = SplitDecision::Kind::kSure;
    d.split_rec = SureSplitRec(page, cursor, tuple_size);
    // btr_page_tuple_smaller: the tuple sorts before the first record.
    if (d.split_rec == kNoSplitRec) d.insert_left = cursor < 0;
  } else if (SplitRecToRight(page, cursor, &split_rec)) {
    d.direction = FspDirection::kUp;
    d.kind = SplitDecision::Kind::kToRight;
    d.split_rec = split_rec;
  } else if (SplitRecToLeft(page, cursor, &split_rec)) {
    d.direction = FspDirection::kDown;
    d.kind = SplitDecision::Kind::kToLeft;
    d.split_rec = split_rec;
  } else {
    d.direction = FspDirection::kUp;
    d.kind = SplitDecision::Kind::kMiddle;
    if (page.n_recs() > 1) {
      d.split_rec = MiddleRec(page);
    } else if (cursor < 0) {
      d.split_rec = 0;  // the tuple is smaller than the only record
    } else {
      d.split_rec = kNoSplitRec;
    }
  }
  // With a split record, the tuple goes left iff it sorts before it.
  if (d.split_rec != kNoSplitRec) d.insert_left = cursor + 1 <= d.split_rec;
  return d;
}

}  // namespace innosim
