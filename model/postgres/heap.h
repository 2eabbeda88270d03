// A heap relation filled by heap_insert, one tuple at a time: tuple sizes
// from the columns (heaptuple.c heap_compute_data_size, htup_details.h),
// the page chosen by hio.c RelationGetBufferForTuple (the target block if
// the tuple and the fillfactor's saveFreeSpace fit, else a new block at the
// end), line pointers and MAXALIGNed tuples as PageAddItem stores them.
//
// Not modelled: the free space map handing out an earlier page. In an
// insert-only load every earlier page was left because a tuple did not
// fit, so with rows of one size no earlier page can take one; rows of
// varying size could reuse an earlier page in PostgreSQL (through
// RecordAndGetPageWithFreeSpace) and do not here. TOAST (values over
// ~2 kB) is not modelled either.
//
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_HEAP_H_
#define INNOSIM_MODEL_POSTGRES_HEAP_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/pg_type.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {

struct PgColumn {
  std::string name;
  PgType type = PgType::kInt8;
  bool nullable = false;
  int varlena_bytes = 0;  // payload of a varlena column when a row does not say
};

// One row's shape: which columns are null (bit i for column i) and, for
// varlena columns, the payload bytes (indexed by column; empty: each
// column's varlena_bytes).
struct PgRow {
  uint64_t nulls = 0;
  std::span<const uint32_t> varlena_bytes = {};
};

// heap_form_tuple's t_len for `row` of a table with `columns`:
// MAXALIGN(SizeofHeapTupleHeader + null bitmap when any column is null),
// then each non-null attribute aligned by its typalign.
int HeapTupleLength(std::span<const PgColumn> columns, const PgRow& row);

class Heap {
 public:
  // `fillfactor`: the table's reloption (10..100, HEAP_DEFAULT_FILLFACTOR 100).
  explicit Heap(int fillfactor = kHeapDefaultFillfactor);

  // heap_insert of a tuple of t_len `tuple_len`: returns its TID
  // (block << 16 | offset), or 0 with status() an error when it cannot fit
  // a page (MaxHeapTupleSize; TOAST is not modelled).
  uint64_t Insert(int tuple_len);
  // From now on each heap_insert writes its XLOG_HEAP_INSERT into `wal`
  // (relation `relation` of it).
  void AttachWal(Wal* wal, int relation) {
    wal_ = wal;
    wal_rel_ = relation;
  }

  // RelationGetNumberOfBlocks: pg_class.relpages after VACUUM/ANALYZE, and
  // pg_relation_size / BLCKSZ.
  uint32_t relpages() const { return static_cast<uint32_t>(pages_.size()); }
  uint64_t pg_relation_size() const { return uint64_t{relpages()} * kBlckSz; }
  uint64_t tuples() const { return tuples_; }
  absl::Status status() const { return status_; }
  std::string Verify() const;

 private:
  struct Page {
    uint16_t nline = 0;       // line pointers
    uint16_t tuple_bytes = 0; // MAXALIGNed tuples
    int lower() const { return kSizeOfPageHeaderData + kSizeOfItemIdData * nline; }
    int upper() const { return kBlckSz - tuple_bytes; }
  };
  // bufpage.c PageGetHeapFreeSpace: PageGetFreeSpace, but 0 once the page
  // has MaxHeapTuplesPerPage line pointers (none is unused here).
  static int HeapFreeSpace(const Page& p);

  int save_free_space_;
  std::vector<Page> pages_;
  uint64_t tuples_ = 0;
  Wal* wal_ = nullptr;
  int wal_rel_ = 0;
  absl::Status status_;
};

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_HEAP_H_
