// PostgreSQL's page layout: the byte map of an nbtree block and of a heap
// block, and the size arithmetic every other file of innosim::postgres uses.
//
// An nbtree block (BLCKSZ = 8192 bytes, src/include/access/nbtree.h,
// storage/bufpage.h):
//
//   0        24                 pd_lower            pd_upper         8176   8192
//   +--------+--------------------+---- free ---------+-----------------+------+
//   | Page-  | ItemIdData[n]      |  (hole)           | IndexTuples,    | BTPage|
//   | Header | 4 bytes each:      |                   | each MAXALIGNed,| Opaque|
//   | Data   | lp_off:15 lp_flags:2                   | stored from the | Data  |
//   |        | lp_len:15          |                   | end backwards   | (16)  |
//   +--------+--------------------+-------------------+-----------------+------+
//   PageHeaderData: pd_lsn 8, pd_checksum 2, pd_flags 2, pd_lower 2,
//   pd_upper 2, pd_special 2, pd_pagesize_version 2, pd_prune_xid 4 = 24.
//   BTPageOpaqueData (the special space): btpo_prev 4, btpo_next 4,
//   btpo_level 4, btpo_flags 2, btpo_cycleid 2 = 16.
//   Line pointer 1 (P_HIKEY) is the high key on every page but the
//   rightmost of its level; on the rightmost page line pointer 1 is the
//   first data item (P_FIRSTDATAKEY). On an internal page the first data
//   item is the "minus infinity" downlink: a pivot tuple truncated to zero
//   key attributes, IndexTupleData alone (8 bytes).
//   IndexTupleData: t_tid 6 (ItemPointerData: a heap TID on a leaf, the
//   child block number in a pivot tuple's downlink), t_info 2 (size and
//   flags); the key attributes follow, and index_form_tuple MAXALIGNs the
//   whole tuple. A posting-list tuple (nbtdedup.c) appends its sorted heap
//   TIDs (6 bytes each) at a MAXALIGNed offset after the key.
//   Block 0 of every nbtree index is the metapage (BTMetaPageData: root,
//   level, fast root, ...), never an index page.
//
// A heap block (storage/bufpage.h, access/htup_details.h):
//
//   0        24                 pd_lower            pd_upper                 8192
//   +--------+--------------------+---- free ---------+-------------------------+
//   | Page-  | ItemIdData[n]      |  (hole)           | heap tuples, each        |
//   | Header | 4 bytes each       |                   | MAXALIGNed (no special   |
//   | Data   |                    |                   | space: pd_special=BLCKSZ)|
//   +--------+--------------------+-------------------+-------------------------+
//   A heap tuple: HeapTupleHeaderData (23 bytes: t_xmin 4, t_xmax 4,
//   t_cid/t_xvac 4, t_ctid 6, t_infomask2 2, t_infomask 2, t_hoff 1), then
//   the null bitmap (one bit per attribute, only when some attribute is
//   null), padded to t_hoff = MAXALIGN(23 + bitmap); then the attributes,
//   each aligned by its type's typalign.
//
// Pure arithmetic; no state. Constants carry the header they come from.
#ifndef INNOSIM_MODEL_POSTGRES_PAGE_LAYOUT_H_
#define INNOSIM_MODEL_POSTGRES_PAGE_LAYOUT_H_

#include <cstdint>

namespace innosim::postgres {

// pg_config.h: BLCKSZ, the default block size (configure --with-blocksize).
inline constexpr int kBlckSz = 8192;
// pg_config_manual.h / c.h: MAXIMUM_ALIGNOF on x86-64 and arm64 Linux.
inline constexpr int kMaxAlignOf = 8;
// storage/bufpage.h: SizeOfPageHeaderData = offsetof(PageHeaderData, pd_linp).
inline constexpr int kSizeOfPageHeaderData = 24;
// storage/itemid.h: sizeof(ItemIdData), a line pointer.
inline constexpr int kSizeOfItemIdData = 4;
// storage/itemptr.h: sizeof(ItemPointerData) (block 4 as two uint16, offset 2).
inline constexpr int kSizeOfItemPointerData = 6;
// access/nbtree.h: sizeof(BTPageOpaqueData), the nbtree special space.
inline constexpr int kSizeOfBTPageOpaqueData = 16;
// access/itup.h: sizeof(IndexTupleData) (t_tid 6 + t_info 2).
inline constexpr int kSizeOfIndexTupleData = 8;
// access/htup_details.h: SizeofHeapTupleHeader = offsetof(..., t_bits).
inline constexpr int kSizeofHeapTupleHeader = 23;

// c.h: MAXALIGN / TYPEALIGN.
constexpr int TypeAlign(int alignval, int len) { return (len + alignval - 1) & ~(alignval - 1); }
constexpr int MaxAlign(int len) { return TypeAlign(kMaxAlignOf, len); }
constexpr int MaxAlignDown(int len) { return len & ~(kMaxAlignOf - 1); }

// Bytes of an nbtree page available to line pointers and tuples: what
// _bt_findsplitloc calls leftspace (nbtsplitloc.c), and pgstatindex's
// max_avail (pd_special - SizeOfPageHeaderData): 8192 - 24 - 16 = 8152.
inline constexpr int kBTPageSpace = kBlckSz - kSizeOfPageHeaderData - MaxAlign(kSizeOfBTPageOpaqueData);
// access/heaptoast.h: TOAST_TUPLE_THRESHOLD = MaximumBytesPerTuple(
// TOAST_TUPLES_PER_PAGE = 4) = MAXALIGN_DOWN((BLCKSZ - MAXALIGN(
// SizeOfPageHeaderData + 4 * sizeof(ItemIdData))) / 4) = 2032: heap_insert
// (heap_prepare_insert) hands a longer tuple to the TOAST code, which
// compresses or moves its long values out of line.
inline constexpr int kToastTupleThreshold =
    MaxAlignDown((kBlckSz - MaxAlign(kSizeOfPageHeaderData + 4 * kSizeOfItemIdData)) / 4);
static_assert(kToastTupleThreshold == 2032);
// Bytes of a heap page available to line pointers and tuples: 8168.
inline constexpr int kHeapPageSpace = kBlckSz - kSizeOfPageHeaderData;

// access/nbtree.h: BTMaxItemSize, the largest index tuple a page accepts:
// MAXALIGN_DOWN((BLCKSZ - MAXALIGN(SizeOfPageHeaderData + 3 *
// sizeof(ItemIdData)) - MAXALIGN(sizeof(BTPageOpaqueData))) / 3) = 2712.
// (REL_15 spells it BTMaxItemSize(page); REL_18 as BTMaxItemSize without
// the page argument; same value.)
inline constexpr int kBTMaxItemSize =
    MaxAlignDown((kBlckSz - MaxAlign(kSizeOfPageHeaderData + 3 * kSizeOfItemIdData) -
                  MaxAlign(kSizeOfBTPageOpaqueData)) / 3);

// access/htup_details.h: MaxHeapTuplesPerPage = (BLCKSZ - SizeOfPageHeaderData)
// / (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData)) = 291.
inline constexpr int kMaxHeapTuplesPerPage =
    (kBlckSz - kSizeOfPageHeaderData) / (MaxAlign(kSizeofHeapTupleHeader) + kSizeOfItemIdData);

// access/nbtree.h fillfactors (percent).
inline constexpr int kBtreeMinFillfactor = 10;     // BTREE_MIN_FILLFACTOR
inline constexpr int kBtreeDefaultFillfactor = 90;  // BTREE_DEFAULT_FILLFACTOR
inline constexpr int kBtreeNonleafFillfactor = 70;  // BTREE_NONLEAF_FILLFACTOR
inline constexpr int kBtreeSinglevalFillfactor = 96;  // BTREE_SINGLEVAL_FILLFACTOR
// utils/rel.h: HEAP_DEFAULT_FILLFACTOR; HEAP_MIN_FILLFACTOR is 10.
inline constexpr int kHeapDefaultFillfactor = 100;
inline constexpr int kHeapMinFillfactor = 10;
// access/nbtree.h: BTREE_FASTPATH_MIN_LEVEL, the tree level from which
// _bt_insertonpg caches the rightmost leaf for the next insert.
inline constexpr int kBtreeFastpathMinLevel = 2;
// access/nbtree.h: BTREE_METAPAGE, the block of the metapage.
inline constexpr uint32_t kBtreeMetapage = 0;
// nbtree.h BTMetaPageData: seven uint32 fields, float8
// btm_last_cleanup_num_heap_tuples, bool btm_allequalimage: 48 bytes with
// its alignment. _bt_initmetapage sets pd_lower just past it.
inline constexpr int kSizeOfBTMetaPageData = 48;
inline constexpr int kBtMetapageLower = MaxAlign(kSizeOfPageHeaderData) + kSizeOfBTMetaPageData;
// storage/block.h / nbtree.h: P_NONE, no sibling.
inline constexpr uint32_t kPNone = 0;

// Size of a plain (non-posting) index tuple whose key attributes take
// `data_bytes` (with their own alignment): index_form_tuple MAXALIGNs it.
constexpr int IndexTupleSize(int data_bytes) { return MaxAlign(kSizeOfIndexTupleData + data_bytes); }

// _bt_form_posting (nbtdedup.c): a posting list of n > 1 heap TIDs after a
// MAXALIGNed key part of `keysize` bytes.
constexpr int PostingTupleSize(int keysize, int nhtids) {
  return nhtids > 1 ? MaxAlign(keysize + nhtids * kSizeOfItemPointerData) : keysize;
}

// storage/bufpage.c: PageGetFreeSpace = pd_upper - pd_lower - one line
// pointer, never negative. `lower` and `upper` are pd_lower and pd_upper.
constexpr int PageGetFreeSpace(int lower, int upper) {
  const int space = upper - lower;
  return space < kSizeOfItemIdData ? 0 : space - kSizeOfItemIdData;
}
// storage/bufpage.c: PageGetExactFreeSpace = pd_upper - pd_lower.
constexpr int PageGetExactFreeSpace(int lower, int upper) { return upper - lower < 0 ? 0 : upper - lower; }

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PAGE_LAYOUT_H_
