#include "model/postgres/nbtree.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace innosim::postgres {
namespace {

// access/itup.h: INDEX_SIZE_MASK, the largest size t_info can hold.
constexpr int kIndexSizeMask = 0x1FFF;

int CompareKeys(const Key& a, const Key& b) {
  if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
  if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
  if (a.tail_hi != b.tail_hi) return a.tail_hi < b.tail_hi ? -1 : 1;
  if (a.tail_lo != b.tail_lo) return a.tail_lo < b.tail_lo ? -1 : 1;
  return 0;
}

int CompareTids(uint64_t a, uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

}  // namespace

BtIndex::BtIndex(const PgProfile& profile, const BtIndexDesc& desc)
    : profile_(profile), desc_(desc), nkeyatts_(static_cast<int>(desc.columns.size())) {
  if (desc_.columns.empty() || desc_.columns.size() > 32) {
    status_ = absl::InvalidArgumentError(absl::StrCat("index ", desc_.name, ": needs 1 to 32 key columns"));
    nkeyatts_ = 1;
    desc_.columns = {BtKeyColumn{}};
  }
  if (desc_.fillfactor < kBtreeMinFillfactor || desc_.fillfactor > 100) {
    // nbtree.h / reloptions.c: fillfactor of a btree is 10..100.
    status_ = absl::InvalidArgumentError(
        absl::StrCat("index ", desc_.name, ": fillfactor ", desc_.fillfactor, " is outside 10..100"));
    desc_.fillfactor = kBtreeDefaultFillfactor;
  }
  // _bt_allequalimage: deduplication needs every key column's opclass to
  // be "equal image".
  allequalimage_ = true;
  int key_bytes = 0;
  plain_size_.assign(nkeyatts_ + 1, 0);
  natts_mask_.assign(nkeyatts_ + 1, Key{});
  int data = 0;
  plain_size_[0] = IndexTupleSize(0);
  for (int k = 0; k < nkeyatts_; ++k) {
    const BtKeyColumn& c = desc_.columns[k];
    allequalimage_ = allequalimage_ && TypeInfo(c.type).equalimage;
    data = AddAttribute(data, c.type, c.varlena_bytes);
    plain_size_[k + 1] = IndexTupleSize(data);
    key_bytes += c.key_bytes;
    if (key_bytes > static_cast<int>(Key::kMaxBytes)) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat("index ", desc_.name, ": key columns take more than ", Key::kMaxBytes, " bytes"));
      key_bytes = Key::kMaxBytes;
    }
    uint8_t bytes[Key::kMaxBytes] = {};
    for (int i = 0; i < key_bytes; ++i) bytes[i] = 0xFF;
    natts_mask_[k + 1] = Key::FromBytes(bytes, Key::kMaxBytes);
  }
  if (plain_size_[nkeyatts_] > kBTMaxItemSize) {
    status_ = absl::InvalidArgumentError(absl::StrCat("index ", desc_.name, ": index row size ",
                                                      plain_size_[nkeyatts_], " exceeds btree maximum ",
                                                      kBTMaxItemSize));
  }
  // _bt_initmetapage: block 0, an empty metapage (btm_root = P_NONE). The
  // first insert creates the root leaf (_bt_getroot).
  pages_.reserve(1024);
  pages_.emplace_back();
  stack_.reserve(16);
}

uint32_t BtIndex::AllocBlock() {
  // REL_15 _bt_getbuf(rel, P_NEW, BT_WRITE), REL_18 _bt_allocbuf: first ask
  // the FSM for a recycled page (GetFreeIndexPage; VACUUM records only
  // pages BTPageIsRecyclable passed, and the xid horizon only advances, so
  // the recheck here passes too) and _bt_pageinit it; else extend the
  // relation by one block, which becomes the new block number.
  if (const uint32_t reused = fsm_.GetFreeIndexPage(); reused != kPNone && reused < pages_.size()) {
    pages_[reused] = Page{};
    return reused;
  }
  pages_.emplace_back();
  const uint32_t block = static_cast<uint32_t>(pages_.size() - 1);
  if (buffers_ != nullptr) buffers_->ExtendBuffer(buf_rel_, block);
  return block;
}

Key BtIndex::MaskKey(const Key& key, int natts) const {
  const Key& m = natts_mask_[natts];
  return Key{key.hi & m.hi, key.lo & m.lo, key.tail_hi & m.tail_hi, key.tail_lo & m.tail_lo};
}

// nbtutils.c _bt_keep_natts_fast: 1 + the number of leading key columns
// that are equal (bitwise, which is what equal image means); nkeyatts + 1
// when all are, i.e. a pivot between them would need a heap TID.
int BtIndex::KeepNattsFast(const Item& a, const Item& b) const {
  if (nkeyatts_ == 1) return CompareKeys(a.key, b.key) == 0 ? 2 : 1;
  int keepnatts = 1;
  for (int k = 1; k <= nkeyatts_; ++k) {
    if (CompareKeys(MaskKey(a.key, k), MaskKey(b.key, k)) != 0) break;
    ++keepnatts;
  }
  return keepnatts;
}

// nbtsearch.c _bt_compare against a pivot tuple: key columns the pivot
// kept, then truncated columns and a truncated heap TID count as minus
// infinity; the minus-infinity item (no key columns) is below everything.
int BtIndex::ComparePivot(const Key& key, HeapTid tid, const Item& pivot) const {
  const int natts = static_cast<int>(pivot.count & ~kPivotHeapTid);
  if (natts == 0) return 1;
  const int c = CompareKeys(natts == nkeyatts_ ? key : MaskKey(key, natts), pivot.key);
  if (c != 0) return c;
  if (nkeyatts_ > natts) return 1;
  if ((pivot.count & kPivotHeapTid) == 0) return 1;
  return CompareTids(tid, pivot.tid);
}

// _bt_compare against a leaf tuple: the key, then the heap TID (the
// lowest of a posting list: BTreeTupleGetHeapTID).
int BtIndex::CompareLeaf(const Key& key, HeapTid tid, const Item& item) const {
  const int c = CompareKeys(key, item.key);
  if (c != 0) return c;
  return CompareTids(tid, item.tid);
}

// nbtutils.c _bt_truncate: the new high key of a splitting leaf, built
// from firstright with only the key columns needed to tell it from
// lastleft (_bt_keep_natts). When every key column is equal, all are
// kept and lastleft's heap TID is appended (MAXALIGN(sizeof
// (ItemPointerData)) more). A posting list never goes into a pivot. So a
// single-column unique index's pivot keeps the whole key, at the plain
// tuple's size.
BtIndex::Item BtIndex::Truncate(const Item& lastleft, const Item& firstright) const {
  const int keepnatts = KeepNattsFast(lastleft, firstright);
  Item pivot = firstright;
  pivot.aux = kPNone;
  if (keepnatts <= nkeyatts_) {
    pivot.key = MaskKey(firstright.key, keepnatts);
    pivot.size = plain_size_[keepnatts];
    pivot.count = keepnatts;
    pivot.tid = 0;
  } else {
    pivot.size = MaxAlign(plain_size_[nkeyatts_]) + MaxAlign(kSizeOfItemPointerData);
    pivot.count = nkeyatts_ | kPivotHeapTid;
    pivot.tid = lastleft.aux;  // BTreeTupleGetMaxHeapTID(lastleft)
  }
  return pivot;
}

void BtIndex::AddTuple(Page& page, int pos, const Item& item) {
  page.items.insert(page.items.begin() + pos, item);
  page.tuple_bytes += MaxAlign(item.size);
}

void BtIndex::Recount(Page& page) {
  int bytes = page.has_hikey ? MaxAlign(page.hikey.size) : 0;
  for (const Item& it : page.items) bytes += MaxAlign(it.size);
  page.tuple_bytes = bytes;
}

// nbtsearch.c _bt_search (as called by _bt_search_insert): from the root
// down to the leaf, on each internal page the last downlink whose pivot is
// below the scan key (_bt_binsrch), remembering the path (BTStack).
// _bt_moveright never moves: no concurrent split can intervene here.
uint32_t BtIndex::Search(const Key& key, HeapTid tid) {
  stack_.clear();
  uint32_t block = root_;
  if (amcache_root_ != root_) {
    // _bt_getroot: the relcache's copy of the metapage names an old root
    // (it split): that page is read, found no longer the root, and the
    // metapage read again (_bt_getmeta) before the true root.
    if (amcache_root_ != kPNone) Fetch(amcache_root_);
    Fetch(kBtreeMetapage);
    amcache_root_ = root_;
  }
  Fetch(block);
  while (pages_[block].level > 0) {
    const Page& page = pages_[block];
    // First item the scan key is not above; its predecessor is the downlink.
    int lo = 1, hi = static_cast<int>(page.items.size());  // item 0 is minus infinity
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (ComparePivot(key, tid, page.items[mid]) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const int off = lo - 1;
    stack_.push_back(StackEntry{block, off});
    block = static_cast<uint32_t>(page.items[off].aux);
    Fetch(block);  // _bt_relandgetbuf
  }
  return block;
}

void BtIndex::Insert(const Key& key, HeapTid tid) {
  if (!status_.ok()) return;
  ++counters_.inserts;
  if (tid <= last_tid_ && counters_.inserts > 1) {
    status_ = absl::FailedPreconditionError(absl::StrCat(
        "index ", desc_.name, ": heap TIDs must ascend in insert order (a posting-list split is not modelled)"));
    return;
  }
  last_tid_ = tid;
  if (trace_ != nullptr) [[unlikely]] trace_->OnInsertStart(key);
  Item item{};
  item.key = key;
  item.tid = tid;
  item.aux = tid;
  item.size = static_cast<uint64_t>(plain_size_[nkeyatts_]);
  item.count = 1;
  const int itemsz = MaxAlign(static_cast<int>(item.size));

  if (root_ == kPNone) {
    // _bt_getroot with BT_WRITE on an empty index: the metapage read, a new
    // root leaf, then the metapage points at it (and _bt_getrootheight
    // caches it in the relcache).
    Fetch(kBtreeMetapage);
    root_ = AllocBlock();
    amcache_root_ = root_;
    root_level_ = 0;
    if (wal_ != nullptr) {
      // nbtpage.c _bt_getroot: XLOG_BTREE_NEWROOT, the empty root leaf
      // (block 0, REGBUF_WILL_INIT, no data) and the metapage (block 2,
      // REGBUF_WILL_INIT | REGBUF_STANDARD, xl_btree_metadata).
      WalRecord r;
      LogBlock(r, root_, kRegbufWillInit, 0);
      LogBlock(r, kBtreeMetapage, kRegbufWillInit | kRegbufStandard, kSizeOfBtreeMetadata);
      r.MainData(kSizeOfBtreeNewroot);
      wal_->Insert(r);
    }
  }

  // _bt_search_insert's fastpath: the cached rightmost leaf, when it is
  // still a rightmost leaf, has room (> itemsz, strictly), holds an item,
  // and the key sorts after its last item. It lands where a descent would.
  uint32_t block = kPNone;
  BtFastpath fastpath = root_level_ < kBtreeFastpathMinLevel ? BtFastpath::kTreeTooLow : BtFastpath::kNotCached;
  if (cached_block_ != kPNone) {
    Fetch(cached_block_);  // ReadBuffer of RelationGetTargetBlock, kept or released
    const Page& page = pages_[cached_block_];
    if (page.level != 0 || page.has_hikey) {
      fastpath = BtFastpath::kNotCached;
    } else if (PageGetFreeSpace(page.lower(), page.upper()) <= itemsz) {
      fastpath = BtFastpath::kNoRoom;
    } else if (page.items.empty() || CompareLeaf(key, tid, page.items.back()) <= 0) {
      fastpath = BtFastpath::kNotAfterLast;
    } else {
      fastpath = BtFastpath::kTaken;
      block = cached_block_;
      ++counters_.fastpath_inserts;
      stack_.clear();
    }
    cached_block_ = kPNone;  // RelationSetTargetBlock(rel, InvalidBlockNumber)
  }
  if (block == kPNone) block = Search(key, tid);

  Page* page = &pages_[block];
  // _bt_binsrch_insert: the first item not below (key, heap TID).
  int pos = static_cast<int>(std::lower_bound(page->items.begin(), page->items.end(), item,
                                              [&](const Item& a, const Item& b) {
                                                return CompareLeaf(b.key, b.tid, a) > 0;
                                              }) -
                             page->items.begin());
  // _bt_check_unique: a unique index refuses an equal key (no MVCC here:
  // every earlier row is live).
  if (desc_.unique) {
    const bool dup = (pos > 0 && CompareKeys(page->items[pos - 1].key, key) == 0) ||
                     (pos < static_cast<int>(page->items.size()) && CompareKeys(page->items[pos].key, key) == 0);
    if (dup) {
      status_ = absl::AlreadyExistsError(
          absl::StrCat("duplicate key value violates unique constraint \"", desc_.name, "\""));
      return;
    }
  }
  if (trace_ != nullptr) [[unlikely]] {
    BtTraceEvent e = BtTraceEvent::At(BtStep::kLeafReached,
                                      fastpath == BtFastpath::kTaken ? "_bt_search_insert" : "_bt_search", View(block));
    e.fastpath = fastpath;
    for (const StackEntry& se : stack_) {
      if (e.path_length < 15) e.path[e.path_length++] = se.block;
    }
    e.path[e.path_length++] = block;
    e.offset = pos;
    e.itemsz = itemsz;
    trace_->OnStep(e);
  }

  // _bt_findinsertloc: when the leaf cannot take the tuple, try
  // _bt_delete_or_dedup_one_page first. There is nothing to delete
  // (no LP_DEAD items, no version churn: simple and bottom-up deletion
  // find nothing). Deduplication then runs only when the index
  // deduplicates (deduplicate_items, allequalimage) and it is not a
  // unique-checking insert that saw no duplicate: _bt_delete_or_dedup_one_page
  // returns before _bt_dedup_pass when checkingunique && !uniquedup. So a
  // unique index without duplicates never deduplicates (and, having no
  // equal keys, would gain nothing from it).
  if (PageGetFreeSpace(page->lower(), page->upper()) < itemsz && !desc_.unique && desc_.deduplicate_items &&
      allequalimage_) {
    BtPageView before;
    if (trace_ != nullptr) [[unlikely]] before = View(block);
    const bool changed = DedupPass(*page, item);
    if (trace_ != nullptr) [[unlikely]] {
      BtTraceEvent e = BtTraceEvent::At(BtStep::kDedupPass, "_bt_dedup_pass", before);
      e.after = View(block);
      e.nintervals = changed ? dedup_nintervals_ : 0;
      e.singlevalue = dedup_singleval_;
      e.itemsz = itemsz;
      e.split_avoided = changed && e.after.free_space >= itemsz;
      trace_->OnStep(e);
    }
    if (changed) {
      pos = static_cast<int>(std::lower_bound(page->items.begin(), page->items.end(), item,
                                              [&](const Item& a, const Item& b) {
                                                return CompareLeaf(b.key, b.tid, a) > 0;
                                              }) -
                             page->items.begin());
      if (PageGetFreeSpace(page->lower(), page->upper()) >= itemsz) ++counters_.dedup_split_avoided;
    }
  }
  const bool fastpath_ok = !page->has_hikey;
  InsertOnPage(block, pos, item, static_cast<int>(stack_.size()), kPNone);
  // _bt_insertonpg: cache the rightmost leaf for the next insert when the
  // tree is at least BTREE_FASTPATH_MIN_LEVEL high and no split happened.
  if (fastpath_ok && status_.ok() && !pages_[block].has_hikey && root_level_ >= kBtreeFastpathMinLevel) {
    cached_block_ = block;
  }
  if (buffers_ != nullptr) buffers_->UnpinAll();
}

// nbtdedup.c _bt_dedup_pass: merge runs of equal keys into posting-list
// tuples (at most maxpostingsize = BTMaxItemSize / 2 bytes each), with
// the "single value" strategy when the whole page and the new tuple share
// one value (stop after the sixth capped tuple, the fifth lowering the cap
// by the left page's BTREE_SINGLEVAL_FILLFACTOR free space). Returns true
// when the page changed (nintervals > 0).
bool BtIndex::DedupPass(Page& page, const Item& newitem) {
  if (page.items.empty()) return false;
  const int newitemsz = MaxAlign(static_cast<int>(newitem.size)) + kSizeOfItemIdData;
  int maxpostingsize = std::min(kBTMaxItemSize / 2, kIndexSizeMask);
  // _bt_do_singleval.
  bool singlevalstrat = KeepNattsFast(newitem, page.items.front()) > nkeyatts_ &&
                        KeepNattsFast(newitem, page.items.back()) > nkeyatts_;
  dedup_singleval_ = singlevalstrat;
  bool deduplicate = true;
  int nmaxitems = 0;
  int nintervals = 0;
  const int basetupsize = plain_size_[nkeyatts_];  // BTreeTupleGetPostingOffset, or IndexTupleSize of a plain base

  scratch_.clear();
  Item base{};
  int nhtids = 0;
  int nitems = 0;
  auto start_pending = [&](const Item& it) {
    base = it;
    nhtids = static_cast<int>(it.count);
    nitems = 1;
  };
  auto finish_pending = [&]() {
    if (nitems == 1) {
      scratch_.push_back(base);
    } else {
      Item posting = base;
      posting.count = static_cast<uint64_t>(nhtids);
      posting.size = static_cast<uint64_t>(PostingTupleSize(basetupsize, nhtids));
      scratch_.push_back(posting);
      ++nintervals;
    }
  };
  start_pending(page.items[0]);
  for (size_t i = 1; i < page.items.size(); ++i) {
    const Item& itup = page.items[i];
    bool merged = false;
    if (deduplicate && KeepNattsFast(base, itup) > nkeyatts_) {
      // _bt_dedup_save_htid.
      const int mergedtupsz = MaxAlign(basetupsize + (nhtids + static_cast<int>(itup.count)) * kSizeOfItemPointerData);
      if (mergedtupsz > maxpostingsize) {
        if (nhtids > 50) ++nmaxitems;
      } else {
        ++nitems;
        nhtids += static_cast<int>(itup.count);
        base.aux = itup.aux;  // highest heap TID so far
        merged = true;
      }
    }
    if (merged) continue;
    finish_pending();
    if (singlevalstrat) {
      if (nmaxitems == 5) {
        // _bt_singleval_fillfactor.
        int leftfree = kBTPageSpace;
        leftfree -= newitemsz + MaxAlign(kSizeOfItemPointerData);
        const int reduction = static_cast<int>(leftfree * ((100 - kBtreeSinglevalFillfactor) / 100.0));
        maxpostingsize = maxpostingsize > reduction ? maxpostingsize - reduction : 0;
      } else if (nmaxitems == 6) {
        deduplicate = false;
        singlevalstrat = false;
      }
    }
    start_pending(itup);
  }
  finish_pending();
  dedup_nintervals_ = nintervals;
  if (nintervals == 0) return false;
  page.items.swap(scratch_);
  Recount(page);
  if (wal_ != nullptr) {
    // XLOG_BTREE_DEDUP: the page (REGBUF_STANDARD) with its intervals
    // (BTDedupInterval each), xl_btree_dedup as main data.
    WalRecord r;
    r.Block(wal_rel_, static_cast<uint32_t>(&page - pages_.data()), kRegbufStandard, page.lower(), page.upper(),
            nintervals * kSizeOfBTDedupInterval);
    r.MainData(kSizeOfBtreeDedup);
    wal_->Insert(r);
  }
  ++counters_.dedup_passes;
  return true;
}

// _bt_insertonpg: add the tuple when PageGetFreeSpace allows, else split.
void BtIndex::LogBlock(WalRecord& r, uint32_t block, int flags, int data_bytes) const {
  const Page& p = pages_[block];
  r.Block(wal_rel_, block, flags, p.lower(), p.upper(), data_bytes);
}

void BtIndex::InsertOnPage(uint32_t block, int pos, const Item& item, int stack_depth, uint32_t child) {
  Page& page = pages_[block];
  if (PageGetFreeSpace(page.lower(), page.upper()) < MaxAlign(static_cast<int>(item.size))) {
    Split(block, pos, item, stack_depth, child);
    return;
  }
  AddTuple(page, pos, item);
  if (wal_ != nullptr) {
    // _bt_insertonpg: XLOG_BTREE_INSERT_LEAF, or XLOG_BTREE_INSERT_UPPER
    // with the child whose INCOMPLETE_SPLIT flag it clears as block 1;
    // the tuple (IndexTupleSize) is block 0's data, xl_btree_insert the
    // main data. (INSERT_META needs a split of a lone non-root page,
    // which only concurrent splits make.)
    WalRecord r;
    LogBlock(r, block, kRegbufStandard, static_cast<int>(item.size));
    if (child != kPNone) LogBlock(r, child, kRegbufStandard, 0);
    r.MainData(kSizeOfBtreeInsert);
    wal_->Insert(r);
  }
  if (trace_ != nullptr) [[unlikely]] {
    BtTraceEvent e = BtTraceEvent::At(BtStep::kInserted, "_bt_insertonpg", View(block));
    e.offset = pos;
    e.itemsz = MaxAlign(static_cast<int>(item.size));
    trace_->OnStep(e);
  }
}

// _bt_split, then _bt_insert_parent.
void BtIndex::Split(uint32_t block, int pos, const Item& item, int stack_depth, uint32_t child) {
  const bool is_leaf = pages_[block].level == 0;
  BtPageView before;
  if (trace_ != nullptr) [[unlikely]] before = View(block);
  {
    const Page& page = pages_[block];
    split_sizes_.clear();
    split_posting_.clear();
    for (const Item& it : page.items) {
      split_sizes_.push_back(static_cast<uint16_t>(it.size));
      split_posting_.push_back(
          static_cast<uint16_t>(is_leaf && it.count > 1 ? it.size - plain_size_[nkeyatts_] : 0));
    }
  }
  const Page& page = pages_[block];
  SplitPageDesc desc;
  desc.is_leaf = is_leaf;
  desc.is_rightmost = !page.has_hikey;
  desc.hikey_size = page.has_hikey ? static_cast<int>(page.hikey.size) : 0;
  desc.item_size = split_sizes_;
  desc.posting_bytes = split_posting_;
  desc.newitemoff = pos;
  desc.newitemsz = MaxAlign(static_cast<int>(item.size));
  desc.leaffillfactor = desc_.fillfactor;
  desc.nkeyatts = nkeyatts_;
  auto ref = [&](int i) -> const Item& { return i == kNewItem ? item : i == kHighKey ? page.hikey : page.items[i]; };
  const SplitDecision d = finder_.FindSplitLoc(
      desc, [&](int a, int b) { return KeepNattsFast(ref(a), ref(b)); },
      [&](int a) {
        // _bt_adjacenthtid: same heap block, or the next block's first offset.
        const uint64_t low = ref(a).tid, high = item.tid;
        return (low >> 16) == (high >> 16) || ((low >> 16) + 1 == (high >> 16) && (high & 0xFFFF) == 1);
      });
  if (!d.ok) {
    status_ = absl::InternalError(absl::StrCat("could not find a feasible split point for index \"", desc_.name, "\""));
    return;
  }
  (is_leaf ? counters_.leaf_splits : counters_.internal_splits)[static_cast<int>(d.kind)]++;

  // The halves, with the new item in place.
  scratch_.clear();
  const int n = static_cast<int>(page.items.size());
  std::vector<Item> right;
  right.reserve(n + 1 - d.firstoldonright + 1);
  for (int i = 0; i < d.firstoldonright; ++i) {
    if (i == pos && d.newitemonleft) scratch_.push_back(item);
    scratch_.push_back(page.items[i]);
  }
  if (pos == d.firstoldonright && d.newitemonleft) scratch_.push_back(item);
  for (int i = d.firstoldonright; i <= n; ++i) {
    if (i == pos && !d.newitemonleft) right.push_back(item);
    if (i < n) right.push_back(page.items[i]);
  }
  // The left page's new high key: _bt_truncate on a leaf; on an internal
  // page firstright itself (already a pivot).
  Item lefthikey = is_leaf ? Truncate(scratch_.back(), right.front()) : right.front();
  lefthikey.aux = kPNone;
  if (!is_leaf) {
    // _bt_pgaddtup: the first data item of an internal page is stored
    // truncated to no key attributes (minus infinity), keeping its downlink.
    Item& first = right.front();
    first.key = Key{};
    first.tid = 0;
    first.count = 0;
    first.size = static_cast<uint64_t>(MaxAlign(kSizeOfIndexTupleData));
  }

  const uint32_t rblock = AllocBlock();  // after which `page` may have moved
  // _bt_split: the old right sibling, whose btpo_prev changes, read after
  // the new page was allocated.
  if (pages_[block].next != kPNone) Fetch(pages_[block].next);
  Page& left = pages_[block];
  Page& rightpage = pages_[rblock];
  rightpage.level = left.level;
  rightpage.has_hikey = left.has_hikey;  // the right page inherits the old high key
  rightpage.hikey = left.hikey;
  rightpage.items.swap(right);
  rightpage.prev = block;
  rightpage.next = left.next;
  if (left.next != kPNone) pages_[left.next].prev = rblock;  // the old right sibling's back link
  left.next = rblock;
  left.has_hikey = true;
  left.hikey = lefthikey;
  left.items.swap(scratch_);
  Recount(left);
  Recount(rightpage);
  if (left.lower() > left.upper() || rightpage.lower() > rightpage.upper()) {
    status_ = absl::InternalError(absl::StrCat("index ", desc_.name, ": a split half overflows its page"));
    return;
  }
  if (wal_ != nullptr) {
    // _bt_split: XLOG_BTREE_SPLIT_L/_R. Block 0 the left (original) page,
    // REGBUF_STANDARD, its data the new item when it went left and the
    // left page's new high key (MAXALIGNed), left out with an image;
    // block 1 the new right page, REGBUF_WILL_INIT, its data every tuple
    // of it (pd_special - pd_upper); block 2 the old right sibling whose
    // btpo_prev changed (REGBUF_STANDARD, no data); block 3 on an internal
    // level the child whose split this finishes. xl_btree_split as main data.
    WalRecord r;
    LogBlock(r, block, kRegbufStandard,
             (d.newitemonleft ? MaxAlign(static_cast<int>(item.size)) : 0) + MaxAlign(static_cast<int>(lefthikey.size)));
    LogBlock(r, rblock, kRegbufWillInit, rightpage.tuple_bytes);
    if (rightpage.next != kPNone) LogBlock(r, rightpage.next, kRegbufStandard, 0);
    if (!is_leaf) LogBlock(r, child, kRegbufStandard, 0);
    r.MainData(kSizeOfBtreeSplit);
    wal_->Insert(r);
  }
  if (trace_ != nullptr) [[unlikely]] {
    BtTraceEvent e = BtTraceEvent::At(BtStep::kSplit, "_bt_split", before);
    e.offset = pos;
    e.itemsz = MaxAlign(static_cast<int>(item.size));
    e.split = d;
    e.right_block = rblock;
    e.old_next = rightpage.next;
    e.after = View(block);
    e.right = View(rblock);
    e.hikey = lefthikey.key;
    e.hikey_natts = static_cast<int>(lefthikey.count & ~kPivotHeapTid);
    e.hikey_size = MaxAlign(static_cast<int>(lefthikey.size));
    e.hikey_heap_tid = (lefthikey.count & kPivotHeapTid) != 0;
    trace_->OnStep(e);
  }

  // _bt_insert_parent: a downlink to the right page, keyed by the left
  // page's new high key, just after the downlink to the left page; or a
  // new root when the root split (_bt_newlevel).
  if (stack_depth == 0) {
    NewLevel(block, rblock, lefthikey);
    return;
  }
  const StackEntry parent = stack_[stack_depth - 1];
  if (trace_ != nullptr) [[unlikely]] {
    BtTraceEvent e = BtTraceEvent::At(BtStep::kInsertParent, "_bt_insert_parent", View(parent.block));
    e.child = rblock;
    e.left_child = block;
    e.offset = parent.offset + 1;
    trace_->OnStep(e);
  }
  Item downlink = lefthikey;
  downlink.aux = rblock;
  Fetch(parent.block);  // _bt_getstackbuf
  InsertOnPage(parent.block, parent.offset + 1, downlink, stack_depth - 1, block);
}

// nbtpage.c/nbtinsert.c _bt_newlevel: a new root above the two halves:
// a minus-infinity downlink to the left page and the left page's high key
// as the downlink to the right; the metapage then points at it.
void BtIndex::NewLevel(uint32_t left, uint32_t right, const Item& left_hikey) {
  const uint32_t rootblk = AllocBlock();
  Fetch(kBtreeMetapage);  // _bt_newlevel: the metapage, BT_WRITE
  Page& root = pages_[rootblk];
  root.level = pages_[left].level + 1;
  Item minus_infinity{};
  minus_infinity.size = static_cast<uint64_t>(MaxAlign(kSizeOfIndexTupleData));
  minus_infinity.aux = left;
  Item downlink = left_hikey;
  downlink.aux = right;
  root.items.push_back(minus_infinity);
  root.items.push_back(downlink);
  Recount(root);
  root_ = rootblk;
  root_level_ = root.level;
  ++counters_.new_roots;
  if (wal_ != nullptr) {
    // _bt_newroot (REL_18 _bt_newlevel): XLOG_BTREE_NEWROOT, the root
    // (block 0, REGBUF_WILL_INIT, its tuples), the left child whose split
    // it finishes (block 1), the metapage (block 2, REGBUF_WILL_INIT |
    // REGBUF_STANDARD, xl_btree_metadata); xl_btree_newroot as main data.
    WalRecord r;
    LogBlock(r, rootblk, kRegbufWillInit, pages_[rootblk].tuple_bytes);
    LogBlock(r, left, kRegbufStandard, 0);
    LogBlock(r, kBtreeMetapage, kRegbufWillInit | kRegbufStandard, kSizeOfBtreeMetadata);
    r.MainData(kSizeOfBtreeNewroot);
    wal_->Insert(r);
  }
  if (trace_ != nullptr) [[unlikely]] {
    BtTraceEvent e = BtTraceEvent::At(BtStep::kNewRoot, "_bt_newlevel", View(rootblk));
    e.left_child = left;
    e.child = right;
    trace_->OnStep(e);
  }
}

BtPageView BtIndex::View(uint32_t block) const {
  BtPageView v;
  if (block == kBtreeMetapage || block >= pages_.size()) return v;
  const Page& p = pages_[block];
  v.block = block;
  v.level = p.level;
  v.nitems = static_cast<int>(p.items.size());
  v.rightmost = !p.has_hikey;
  v.free_space = PageGetFreeSpace(p.lower(), p.upper());
  v.exact_free = PageGetExactFreeSpace(p.lower(), p.upper());
  v.next = p.next;
  if (p.level == 0) {
    for (const Item& it : p.items) v.posting_lists += it.count > 1;
  }
  return v;
}

std::vector<uint32_t> BtIndex::LeavesInKeyOrder() const {
  std::vector<uint32_t> out;
  if (root_ == kPNone) return out;
  uint32_t blk = root_;
  while (pages_[blk].level > 0) blk = static_cast<uint32_t>(pages_[blk].items[0].aux);
  for (; blk != kPNone; blk = pages_[blk].next) out.push_back(blk);
  return out;
}

PgStatIndex BtIndex::StatIndex() const {
  // pgstattuple/pgstatindex.c pgstatindex_impl: every block after the
  // metapage; a leaf adds max_avail (pd_special - SizeOfPageHeaderData) and
  // its free space, and counts a fragment when its right sibling has a
  // lower block number.
  PgStatIndex s;
  s.tree_level = static_cast<int>(root_level_);
  s.root_block_no = root_;
  uint64_t max_avail = 0, free_space = 0, fragments = 0;
  for (uint32_t blk = 1; blk < pages_.size(); ++blk) {
    const Page& p = pages_[blk];
    if (p.deleted) {
      ++s.deleted_pages;  // P_ISDELETED, recycled or not
    } else if (p.half_dead) {
      ++s.empty_pages;  // P_IGNORE: half-dead
    } else if (p.level == 0) {
      ++s.leaf_pages;
      max_avail += kBlckSz - MaxAlign(kSizeOfBTPageOpaqueData) - kSizeOfPageHeaderData;
      free_space += profile_.pgstatindex_exact_free_space ? PageGetExactFreeSpace(p.lower(), p.upper())
                                                          : PageGetFreeSpace(p.lower(), p.upper());
      if (p.next != kPNone && p.next < blk) ++fragments;
    } else {
      ++s.internal_pages;
    }
  }
  s.relpages = pages_.size();
  s.index_size = (1 + s.leaf_pages + s.internal_pages + s.deleted_pages + s.empty_pages) * uint64_t{kBlckSz};
  s.avg_leaf_density = max_avail > 0 ? 100.0 - static_cast<double>(free_space) / static_cast<double>(max_avail) * 100.0 : 0;
  s.leaf_fragmentation = s.leaf_pages > 0 ? static_cast<double>(fragments) / static_cast<double>(s.leaf_pages) * 100.0 : 0;
  return s;
}

std::string BtIndex::Verify() const {
  if (!status_.ok()) return std::string(status_.message());
  if (root_ == kPNone) return pages_.size() == 1 ? "" : "blocks without a root";
  auto where = [&](uint32_t blk) { return absl::StrCat("index ", desc_.name, " block ", blk, ": "); };
  // Each page: accounting, order, high key bound.
  for (uint32_t blk = 1; blk < pages_.size(); ++blk) {
    const Page& p = pages_[blk];
    if (p.deleted || p.half_dead) continue;  // out of the tree (vacuum.h checks them)
    int bytes = p.has_hikey ? MaxAlign(p.hikey.size) : 0;
    for (const Item& it : p.items) bytes += MaxAlign(it.size);
    if (bytes != p.tuple_bytes) return where(blk) + "tuple bytes out of step";
    if (p.lower() > p.upper()) return where(blk) + "pd_lower above pd_upper";
    const bool leaf = p.level == 0;
    // A leaf VACUUM emptied but could not delete (the rightmost, or the
    // rightmost child of its parent) stays empty; internal pages never are.
    if (p.items.empty() && !leaf) return where(blk) + "no data items";
    for (size_t i = 0; i < p.items.size(); ++i) {
      const Item& it = p.items[i];
      if (leaf) {
        if (it.size != static_cast<uint64_t>(it.count > 1 ? PostingTupleSize(plain_size_[nkeyatts_], it.count)
                                                           : plain_size_[nkeyatts_])) {
          return where(blk) + "leaf tuple size";
        }
        if (i > 0) {
          const Item& prev = p.items[i - 1];
          const int c = CompareKeys(prev.key, it.key);
          if (c > 0 || (c == 0 && prev.aux >= it.tid)) return where(blk) + "leaf items out of order";
          if (c == 0 && desc_.unique) return where(blk) + "duplicate in a unique index";
        }
        // The high key bounds the page from above.
        if (p.has_hikey && ComparePivot(it.key, it.aux, p.hikey) > 0) return where(blk) + "item above the high key";
      } else {
        if (i == 0 && (it.count & ~kPivotHeapTid) != 0) return where(blk) + "first internal item is not minus infinity";
        if (it.aux == kPNone || it.aux >= pages_.size()) return where(blk) + "downlink out of range";
        if (pages_[it.aux].level + 1 != p.level || pages_[it.aux].deleted) return where(blk) + "downlink to the wrong level";
      }
    }
    if (p.next != kPNone && pages_[p.next].prev != blk) return where(blk) + "sibling links disagree";
    if (p.has_hikey == (p.next == kPNone)) return where(blk) + "high key on the rightmost page, or missing";
  }
  // Parent downlinks: the pivot keyed downlink to a child equals the high
  // key of the child's left sibling, and children are linked in order.
  for (uint32_t blk = 1; blk < pages_.size(); ++blk) {
    const Page& p = pages_[blk];
    if (p.level == 0 || p.deleted) continue;
    for (size_t i = 1; i < p.items.size(); ++i) {
      const Page& lp = pages_[p.items[i - 1].aux];
      const Item& d = p.items[i];
      if (lp.next != d.aux) return where(blk) + "downlinks not siblings";
      if (!lp.has_hikey || CompareKeys(lp.hikey.key, d.key) != 0 || lp.hikey.count != d.count ||
          lp.hikey.size != d.size) {
        return where(blk) + "downlink key differs from the left child's high key";
      }
    }
  }
  // Keys ascend across the leaf level, left to right.
  uint32_t leftmost = root_;
  while (pages_[leftmost].level > 0) leftmost = static_cast<uint32_t>(pages_[leftmost].items[0].aux);
  const Item* prev = nullptr;
  for (uint32_t blk = leftmost; blk != kPNone; blk = pages_[blk].next) {
    for (const Item& it : pages_[blk].items) {
      if (prev != nullptr) {
        const int c = CompareKeys(prev->key, it.key);
        if (c > 0 || (c == 0 && prev->aux >= it.tid)) return where(blk) + "keys descend across leaf pages";
      }
      prev = &it;
    }
  }
  return "";
}

void BtIndex::NewRelfilenodeWritten() {
  if (buffers_ != nullptr) buffers_->DropRelationBuffers(buf_rel_);
  if (wal_ == nullptr) return;
  wal_->NewRelfilenode(wal_rel_);
  // The pages in the order the build finishes them does not change the
  // records' sizes (one relation, every page an image): block order here,
  // the metapage (pd_lower past BTMetaPageData, the special space after
  // pd_upper) written last.
  std::vector<WalNewPage> written;
  written.reserve(pages_.size());
  for (uint32_t b = 1; b < pages_.size(); ++b) written.push_back({b, pages_[b].lower(), pages_[b].upper()});
  written.push_back({kBtreeMetapage, kBtMetapageLower, kBlckSz - MaxAlign(kSizeOfBTPageOpaqueData)});
  wal_->LogNewPages(wal_rel_, written);
}

}  // namespace innosim::postgres
