#include "model/postgres/heap.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace innosim::postgres {
namespace {

// htup_details.h: MaxHeapTupleSize = BLCKSZ - MAXALIGN(SizeOfPageHeaderData
// + sizeof(ItemIdData)).
constexpr int kMaxHeapTupleSize = kBlckSz - MaxAlign(kSizeOfPageHeaderData + kSizeOfItemIdData);

}  // namespace

int HeapTupleLength(std::span<const PgColumn> columns, const PgRow& row) {
  const int natts = static_cast<int>(columns.size());
  const bool hasnull = (row.nulls & ((natts >= 64) ? ~uint64_t{0} : ((uint64_t{1} << natts) - 1))) != 0;
  // htup_details.h BITMAPLEN(NATTS) = (NATTS + 7) / 8; heap_form_tuple:
  // t_hoff = MAXALIGN(SizeofHeapTupleHeader + bitmap).
  const int hoff = MaxAlign(kSizeofHeapTupleHeader + (hasnull ? (natts + 7) / 8 : 0));
  int data = 0;
  for (int i = 0; i < natts; ++i) {
    if (i < 64 && (row.nulls >> i) & 1) continue;
    const int payload = i < static_cast<int>(row.varlena_bytes.size()) ? static_cast<int>(row.varlena_bytes[i])
                                                                        : columns[i].varlena_bytes;
    data = AddAttribute(data, columns[i].type, payload);
  }
  return hoff + data;
}

Heap::Heap(int fillfactor) {
  if (fillfactor < kHeapMinFillfactor || fillfactor > 100) {
    status_ = absl::InvalidArgumentError(absl::StrCat("heap fillfactor ", fillfactor, " is outside 10..100"));
    fillfactor = kHeapDefaultFillfactor;
  }
  // utils/rel.h RelationGetTargetPageFreeSpace: BLCKSZ * (100 - fillfactor) / 100.
  save_free_space_ = kBlckSz * (100 - fillfactor) / 100;
  pages_.reserve(1024);
}

int Heap::HeapFreeSpace(const Page& p) {
  if (p.nline >= kMaxHeapTuplesPerPage) return 0;
  return PageGetFreeSpace(p.lower(), p.upper());
}

uint64_t Heap::Insert(int tuple_len) {
  if (!status_.ok()) return 0;
  // hio.c RelationGetBufferForTuple: len = MAXALIGN(t_len); "nearly empty"
  // pages spare the fillfactor for big tuples.
  const int len = MaxAlign(tuple_len);
  if (len > kMaxHeapTupleSize) {
    status_ = absl::InvalidArgumentError(
        absl::StrCat("row is too big: size ", len, ", maximum size ", kMaxHeapTupleSize, " (TOAST is not modelled)"));
    return 0;
  }
  const int nearly_empty = kMaxHeapTupleSize - (kMaxHeapTuplesPerPage / 8 * kSizeOfItemIdData);
  const int target_free_space =
      len + save_free_space_ > nearly_empty ? std::max(len, nearly_empty) : len + save_free_space_;
  // The target block is the last one (RelationGetTargetBlock, or nblocks-1).
  if (pages_.empty() || target_free_space > HeapFreeSpace(pages_.back())) {
    // RelationAddBlocks (REL_16+) / ReadBufferBI(P_NEW) (REL_15): a new
    // block at the end, used whatever the fillfactor says.
    pages_.emplace_back();
  }
  Page& p = pages_.back();
  // RelationPutHeapTuple -> PageAddItem: a line pointer, the tuple MAXALIGNed.
  ++p.nline;
  p.tuple_bytes = static_cast<uint16_t>(p.tuple_bytes + len);
  ++tuples_;
  if (wal_ != nullptr) {
    // heapam.c heap_insert: XLOG_HEAP_INSERT, xl_heap_insert as main data;
    // the page (REGBUF_STANDARD) with xl_heap_header and the tuple past its
    // header (t_len - SizeofHeapTupleHeader) as its data. The page's first
    // tuple (offnum 1, one line pointer) adds XLOG_HEAP_INIT_PAGE and
    // REGBUF_WILL_INIT: redo rebuilds the page, so no image is taken.
    WalRecord r;
    const int flags = kRegbufStandard | (p.nline == 1 ? kRegbufWillInit : 0);
    r.Block(wal_rel_, static_cast<uint32_t>(pages_.size() - 1), flags, p.lower(), p.upper(),
            kSizeOfHeapHeader + tuple_len - kSizeofHeapTupleHeader);
    r.MainData(kSizeOfHeapInsert);
    wal_->Insert(r);
  }
  return (uint64_t{static_cast<uint32_t>(pages_.size() - 1)} << 16) | p.nline;
}

std::string Heap::Verify() const {
  if (!status_.ok()) return std::string(status_.message());
  uint64_t n = 0;
  for (size_t b = 0; b < pages_.size(); ++b) {
    const Page& p = pages_[b];
    if (p.lower() > p.upper()) return absl::StrCat("heap block ", b, ": pd_lower above pd_upper");
    if (p.nline == 0 || p.nline > kMaxHeapTuplesPerPage) return absl::StrCat("heap block ", b, ": line pointers");
    n += p.nline;
  }
  if (n != tuples_) return "heap tuple count out of step";
  return "";
}

}  // namespace innosim::postgres
