#include "model/btree.h"

#include <algorithm>
#include <iterator>

#include "model/big_rec.h"
#include "model/bulk_load.h"
#include "model/space_reserve.h"

#include "absl/strings/str_format.h"

namespace innosim {

BTree::BTree(const EngineProfile& profile, Tablespace* space, PageStore* store, const IndexSegments& segs,
             const RecordSizes& sizes, bool clustered, uint32_t space_id, PageEventSink* sink)
    : profile_(profile),
      space_(space),
      store_(store),
      sizes_(sizes),
      clustered_(clustered),
      // Keys past 16 bytes: a fileN: key of a BINARY(17..32) column, or a
      // secondary entry (its columns, then the PK).
      wide_keys_(sizes.model_key_bytes > Key::kHeadBytes),
      space_id_(space_id),
      sink_(sink),
      page_size_(space->page_size()),
      space_reserve_(SpaceReserve(space->page_size())),
      // BTR_CUR_PAGE_REORGANIZE_LIMIT (btr/btr0cur.cc): UNIV_PAGE_SIZE / 32.
      reorganize_limit_(space->page_size() / 32),
      // BTR_CUR_PAGE_COMPRESS_LIMIT (include/btr0cur.h):
      // UNIV_PAGE_SIZE * merge_threshold / 100.
      compress_limit_(space->page_size() * profile.merge_threshold_pct / 100),
      fast_(store, sink, space_id) {
  top_seg_ = segs.top;
  leaf_seg_ = segs.leaf;
  root_ = segs.root_page;
  store_->Grow(root_);
  P(root_).Create(root_, 0, sizes_.leaf, page_size_, store_->pool(), wide_keys_, profile_.delete_reclaims_heap_top);
  counters_.pages_allocated = 1;
}

void BTree::LogInsert(uint32_t page_no, int cursor, const Key& key) {
  if (!logging()) return;
  const IndexPage& p = P(page_no);
  // The record is logged from its first byte that differs from the cursor
  // record (page_cur_insert_rec_write_log): the fixed header counts as
  // equal, then the common prefix of the keys (nothing against the infimum).
  const uint32_t prefix =
      cursor >= 0 ? RedoFormat::KeyCommonPrefix(p.key(cursor), key, sizes_.key_bytes) : 0;
  Log(redo_->RecInsert(page_no, p.rec_size(), RedoFormat::Mismatch(kRecNewExtraBytes, prefix), true));
}

uint64_t BTree::MismatchTotal(const IndexPage& p, int from, int to) const {
  uint64_t total = 0;
  for (int i = from + 1; i < to; ++i) {
    total += RedoFormat::Mismatch(kRecNewExtraBytes,
                                  RedoFormat::KeyCommonPrefix(p.key(i - 1), p.key(i), sizes_.key_bytes));
  }
  return total;
}

uint32_t BTree::height() const { return static_cast<uint32_t>(P(root_).level()) + 1; }

uint64_t BTree::size() const {
  return space_->Usage(leaf_seg_).reserved + space_->Usage(top_seg_).reserved;
}

uint64_t BTree::n_leaf_pages() const {
  // dict_stats_analyze_index promotes 0 to 1.
  return std::max<uint64_t>(1, space_->Usage(leaf_seg_).used);
}

int BTree::NonLeafCursor(const IndexPage& p, const Key& k) const {
  int c = p.SearchLE(k);
  // The first record of the leftmost page of a non-leaf level carries
  // REC_INFO_MIN_REC_FLAG and compares smaller than any key.
  if (c < 0 && p.prev() == kFilNull && p.n_recs() > 0) c = 0;
  return c;
}

uint32_t BTree::SearchToLevel(const Key& k, uint32_t level, LeafRouteCache::Route* route) {
  uint32_t page_no = root_;
  Access(page_no);
  if (route != nullptr) {
    route->low = Key{};
    route->high = LeafRouteCache::kNoUpperBound;
    route->pages[0] = page_no;
    route->height = 1;
  }
  for (;;) {
    const IndexPage& p = P(page_no);
    if (p.level() <= level) return page_no;
    // max(NonLeafCursor, 0) is max(SearchLE, 0): the min-rec adjustment
    // only ever turns -1 into 0.
    const int le = p.SearchLE(k);
    page_no = p.child(std::max(le, 0));
    if (p.level() == 1) P(page_no).PrefetchKeys();
    Access(page_no);
    if (route != nullptr) {
      // Narrow [low, high) to the keys that choose the same node pointer.
      if (le >= 0 && route->low < p.key(le)) route->low = p.key(le);
      if (le + 1 < p.n_recs() && p.key(le + 1) < route->high) route->high = p.key(le + 1);
      if (route->height < LeafRouteCache::kMaxHeight) route->pages[route->height] = page_no;
      ++route->height;
    }
  }
}

uint32_t BTree::DescendAndRemember(const Key& k) {
  LeafRouteCache::Route r;
  const uint32_t leaf = SearchToLevel(k, 0, &r);
  fast_.Remember(r);
  return leaf;
}

void BTree::TraceLeafReached(const Key& key, uint32_t leaf, int cursor) {
  TraceEvent e = TraceEvent::At(TraceStep::kLeafReached, "btr_cur_search_to_nth_level", PageHeaderView::Of(P(leaf)));
  e.cursor = cursor;
  // The pages a descent fixes, root first (read again here: the leaf may
  // have come from a speed device's remembered route).
  uint32_t page_no = root_;
  for (;;) {
    if (e.path_length < static_cast<int>(std::size(e.path))) e.path[e.path_length++] = page_no;
    const IndexPage& p = P(page_no);
    if (p.is_leaf()) break;
    page_no = p.child(std::max(p.SearchLE(key), 0));
  }
  trace_->OnStep(e);
}

void BTree::TraceInserted(uint32_t page_no) {
  TraceStepOn(TraceStep::kInserted, "btr_cur_optimistic_insert", PageHeaderView::Of(P(page_no)));
}

void BTree::TraceStepOn(TraceStep step, const char* rule, const PageHeaderView& before) {
  trace_->OnStep(TraceEvent::At(step, rule, before));
}

absl::Status BTree::Insert(const Key& key) {
  if (__builtin_expect(trace_ != nullptr, 0)) trace_->OnInsertStart(key);
  const uint32_t leaf = SearchLeaf(key);
  bool duplicate = false;
  const IndexPage& page = P(leaf);
  const int last_insert = page.last_insert();
  const int cursor = page.SearchInsertCursor(key, &duplicate, fast_.TryShortcutFirst());
  fast_.CursorFound(cursor == last_insert);
  if (__builtin_expect(trace_ != nullptr, 0)) TraceLeafReached(key, leaf, cursor);
  if (duplicate) {
    CommitMtr();
    return absl::AlreadyExistsError("duplicate key");
  }
  if (!OptimisticInsert(leaf, cursor, key, 0)) {
    CommitMtr();  // the BTR_MODIFY_LEAF mtr ends with DB_FAIL
    // row_ins_clust_index_entry retries in BTR_MODIFY_TREE mode: the same
    // search, the same optimistic attempt (failing the same way), then the
    // pessimistic insert. fsp_reserve_free_extents(tree_height / 16 + 3)
    // comes first for an undo-logged insert (btr_cur_pessimistic_insert).
    // The repeated search changes nothing but the pages it fixes, which
    // only a page-event sink sees.
    if (sink_ != nullptr) SearchToLevel(key, 0);
    fast_.BeginShapeChange();
    space_->ReserveFreeExtents(height() / 16 + 3);
    PessimisticInsert(leaf, cursor, key, 0);
    fast_.EndShapeChange(leaf);
  }
  CommitMtr();
  return absl::OkStatus();
}

// OptimisticInsert is the per-row path of Insert: inlined there, it costs
// no call. (SearchLeaf is left to the compiler: forced inline, UUIDv4 ran
// 1.7x slower, its leaf prefetch apparently no longer ahead of the search.)
[[gnu::always_inline]] inline bool BTree::OptimisticInsert(uint32_t page_no, int cursor, const Key& key,
                                                           uint32_t child) {
  IndexPage& p = P(page_no);
  const uint32_t rec_size = p.rec_size();
  const uint32_t max_size = p.MaxInsertSizeAfterReorganize(1);
  // With garbage on the page: DB_FAIL if the record fits neither as it is
  // nor well enough to be worth a reorganize (and the page has more than
  // one record). Without: DB_FAIL if it does not fit after a reorganize.
  // The conditions are combined without branching: which of them holds is
  // close to random on pages that split in the middle.
  const bool garbage = p.HasGarbage();
  const bool too_big = max_size < rec_size;
  const bool fails = garbage ? ((too_big | (max_size < reorganize_limit_)) & (p.n_recs() > 1) &
                                (p.MaxInsertSize(1) < rec_size))
                             : too_big;
  if (fails) {
    if (__builtin_expect(trace_ != nullptr, 0)) {
      TraceStepOn(TraceStep::kRefusedNoRoom, "btr_cur_optimistic_insert", PageHeaderView::Of(p));
    }
    return false;
  }
  // The 1/16 reserve for future updates: only on clustered leaves, only when
  // the insert looks sequential to the split heuristics.
  int dummy = 0;
  const bool in_reserve =
      p.is_leaf() & clustered_ & (p.n_recs() >= 2) & (space_reserve_ + rec_size > max_size);
  if (in_reserve && (SplitRecToRight(p, cursor, &dummy) || SplitRecToLeft(p, cursor, &dummy))) {
    if (trace_ != nullptr) {
      TraceStepOn(TraceStep::kRefusedByReserve, "btr_cur_optimistic_insert", PageHeaderView::Of(p));
    }
    return false;
  }
  if (!p.InsertAfterInline(cursor, key, child, store_->pool())) {
    // page_cur_tuple_insert found no room at the heap top and no reusable
    // free record, but the checks above say it fits after a reorganize.
    Reorganize(page_no);
    P(page_no).InsertAfter(cursor, key, child, store_->pool());
  }
  Modify(page_no);
  LogInsert(page_no, cursor, key);
  if (__builtin_expect(trace_ != nullptr, 0)) TraceInserted(page_no);
  return true;
}

void BTree::Reorganize(uint32_t page_no) {
  if (trace_ != nullptr) {
    TraceStepOn(TraceStep::kReorganized, "btr_page_reorganize_low", PageHeaderView::Of(P(page_no)));
  }
  if (profile_.reorg_counting == ReorgCounting::kAttemptAtStart) ++counters_.index_page_reorg_attempts;
  P(page_no).Reorganize();
  if (logging()) {
    const IndexPage& p = P(page_no);
    Log(redo_->Reorganize(page_no, p.DataSize(), kPageDirSlotSize * p.n_dir_slots()));
  }
  if (profile_.reorg_counting == ReorgCounting::kBothOnSuccess) ++counters_.index_page_reorg_attempts;
  ++counters_.index_page_reorg_successful;
  Modify(page_no);
}

void BTree::PessimisticInsert(uint32_t page_no, int cursor, const Key& key, uint32_t child) {
  if (page_no == root_) {
    RootRaiseAndInsert(key, child);
  } else {
    SplitAndInsert(page_no, cursor, key, child);
  }
}

void BTree::InsertOnNonLeafLevel(uint32_t level, const Key& key, uint32_t child) {
  const uint32_t page_no = SearchToLevel(key, level);
  const int cursor = NonLeafCursor(P(page_no), key);
  if (trace_ != nullptr) {
    TraceEvent e = TraceEvent::At(TraceStep::kNodePointer, "btr_insert_on_non_leaf_level",
                                  PageHeaderView::Of(P(page_no)));
    e.cursor = cursor;
    e.child = child;
    trace_->OnStep(e);
  }
  if (!OptimisticInsert(page_no, cursor, key, child)) {
    PessimisticInsert(page_no, cursor, key, child);
  }
}

uint32_t BTree::AllocPage(uint32_t hint, FspDirection dir, uint16_t level) {
  // btr_page_alloc: leaf pages from the leaf segment, the others from the
  // non-leaf segment; the caller has reserved (has_done_reservation = TRUE).
  const Tablespace::SegmentId seg = level == 0 ? leaf_seg_ : top_seg_;
  const uint64_t reserved_before = logging() ? space_->Usage(seg).reserved : 0;
  const uint32_t page_no = space_->AllocPage(seg, hint, dir, true);
  store_->Grow(page_no).Create(page_no, level, RecSizeAt(level), page_size_, store_->pool(), wide_keys_,
                               profile_.delete_reclaims_heap_top);
  ++counters_.pages_allocated;
  fast_.PageAllocated();
  if (trace_ != nullptr) {
    TraceEvent e = TraceEvent::At(TraceStep::kPageAllocated, "fseg_alloc_free_page_general",
                                  PageHeaderView::Of(P(page_no)));
    e.hint = hint;
    e.leaf_segment = level == 0;
    trace_->OnStep(e);
  }
  if (sink_ != nullptr) {
    // fseg_alloc_free_page: the extent descriptor's free bit and the
    // segment's inode (used count or fragment slot) change with the page.
    TouchAllocationPages(page_no);
    sink_->OnPageCreate(space_id_, page_no);
  }
  Modify(page_no);
  if (logging()) {
    // fseg_mark_page_used moves an extent between segment lists when it
    // takes its first or last page; a claimed extent grows `reserved`.
    const SegmentUsage after = space_->Usage(seg);
    const bool new_extent = after.reserved > reserved_before;
    const bool list_move = new_extent || after.used % space_->extent_size() == 0;
    Log(redo_->PageAllocate(page_no, list_move, new_extent));
    Log(redo_->PageCreate(page_no, level, index_id_));
  }
  return page_no;
}

absl::Status BTree::StoreExtern(const Key& key, const std::vector<uint32_t>& extern_bytes) {
  uint32_t leaf = 0;
  if (FindRecord(key, &leaf) < 0) {
    CommitMtr();
    return absl::NotFoundError("no such record");
  }
  CommitMtr();  // the search's mtr; the record stays latched in the server
  const ServerFlavor flavor = profile_.flavor();
  for (uint32_t bytes : extern_bytes) {
    const ExternPages pages = ExternPagesFor(flavor, page_size_, bytes);
    uint32_t prev = kFilNull;
    uint32_t first = kFilNull;
    uint32_t left = bytes;
    for (uint32_t i = 0; i < pages.pages; ++i) {
      space_->ReserveFreeExtentsForBlob();
      // MariaDB: hint_prev + 1, hint_prev being the previous BLOB page or
      // the record's page. MySQL lob::alloc_lob_page: hint FIL_NULL (an
      // out-of-range hint, which fseg_alloc_free_page_low resets to 0).
      const uint32_t hint = flavor == ServerFlavor::kMariaDb1011 ? (prev == kFilNull ? leaf : prev) + 1 : kFilNull;
      const uint64_t reserved_before = logging() ? space_->Usage(leaf_seg_).reserved : 0;
      const uint32_t page_no = space_->AllocPage(leaf_seg_, hint, FspDirection::kNoDir, true);
      ++extern_pages_;
      // The data this page holds: MySQL's index pages hold none; its first
      // page and MariaDB's pages hold up to their payload.
      const bool index_page = flavor == ServerFlavor::kMySql84 && i + pages.index_pages >= pages.pages &&
                              pages.index_pages > 0 && i > 0;
      uint32_t data = 0;
      if (!index_page) {
        data = std::min(left, BlobPagePayload(flavor, page_size_, i == 0));
        left -= data;
      }
      if (sink_ != nullptr) {
        TouchAllocationPages(page_no);
        sink_->OnPageCreate(space_id_, page_no);
        // MariaDB: the page before in the chain gets its next-page link
        // (BTR_BLOB_HDR_NEXT_PAGE_NO). MySQL: the first page gets the new
        // page's index entry (first_page_t::alloc_index_entry).
        const uint32_t linked = flavor == ServerFlavor::kMariaDb1011 ? prev : first;
        if (linked != kFilNull) {
          Access(linked);
          Modify(linked);
          if (logging()) Log(redo_->Write4(linked, page_no));
        }
      }
      Modify(page_no);
      if (logging()) {
        const SegmentUsage after = space_->Usage(leaf_seg_);
        const bool new_extent = after.reserved > reserved_before;
        const bool list_move = new_extent || after.used % space_->extent_size() == 0;
        Log(redo_->PageAllocate(page_no, list_move, new_extent));
        Log(redo_->BlobPage(page_no, data));
      }
      CommitMtr();
      prev = page_no;
      if (first == kFilNull) first = page_no;
    }
  }
  // The references in the record (and, MariaDB, its length): the leaf
  // again, modified.
  if (sink_ != nullptr) {
    Access(leaf);
    Modify(leaf);
    if (logging()) {
      for (size_t i = 0; i < extern_bytes.size(); ++i) Log(redo_->ExternFieldRef(leaf));
    }
    CommitMtr();
  }
  return absl::OkStatus();
}

void BTree::TouchAllocationPages(uint32_t page_no) {
  const uint32_t xdes = space_->XdesPageOf(page_no);
  if (space_->FirstUseOfXdesPage(xdes)) sink_->OnPageCreate(space_id_, xdes);
  // fsp0fsp.cc fixes them without making them young (OnPageFixOnly).
  sink_->OnPageFixOnly(space_id_, xdes);
  sink_->OnPageModify(space_id_, xdes);
  sink_->OnPageFixOnly(space_id_, Tablespace::kFirstInodePage);
  sink_->OnPageModify(space_id_, Tablespace::kFirstInodePage);
}

void BTree::FreePage(uint32_t page_no) {
  IndexPage& p = P(page_no);
  space_->FreePage(p.level() == 0 ? leaf_seg_ : top_seg_, page_no);
  // fseg_free_page: the same bitmap and list writes as an allocation.
  if (sink_ != nullptr) {
    TouchAllocationPages(page_no);
    // buf_page_free / the freed page's fate in the buffer pool
    // (PageEventSink::OnPageFree).
    sink_->OnPageFree(space_id_, page_no);
  }
  if (logging()) Log(redo_->PageAllocate(page_no, false, false));
  p.Release(store_->pool());
  ++counters_.pages_freed;
  fast_.PageFreed();
}

void BTree::RootRaiseAndInsert(const Key& key, uint32_t child) {
  ++counters_.root_raises;
  if (trace_ != nullptr) TraceStepOn(TraceStep::kRootRaise, "btr_root_raise_and_insert", PageHeaderView::Of(P(root_)));
  IndexPage& root = P(root_);
  const uint16_t level = root.level();
  // A new page at the root's level takes all the root's records
  // (page_copy_rec_list_end onto an empty page: the bulk path).
  const uint32_t new_no = AllocPage(0, FspDirection::kNoDir, level);
  IndexPage& np = P(new_no);
  np.CopyEndToCreated(P(root_), 0, store_->pool());
  if (logging()) {
    const IndexPage& src = P(root_);
    Log(redo_->SplitMoveEnd(new_no, root_, static_cast<uint32_t>(src.n_recs()),
                            static_cast<uint64_t>(src.n_recs()) * src.rec_size(), MismatchTotal(src, 0, src.n_recs())));
    Log(redo_->PageCreate(root_, level + 1u, index_id_));
  }
  // btr_page_empty, one level up, then the node pointer to the new page
  // (carrying REC_INFO_MIN_REC_FLAG) through page_cur_tuple_insert.
  IndexPage& r = P(root_);
  r.Empty(static_cast<uint16_t>(level + 1), sizes_.node_ptr, store_->pool());
  r.InsertAfter(-1, Key{}, new_no, store_->pool());
  r.SetMinRecMark();
  Modify(root_);
  LogInsert(root_, -1, Key{});
  if (logging()) Log(redo_->MinRecMark(root_));
  // Reposition on the new page and split it: LAST_INSERT is NULL after the
  // bulk copy, so this is always a middle split.
  const IndexPage& n2 = P(new_no);
  int cursor;
  if (level == 0) {
    bool dup = false;
    cursor = n2.SearchInsertCursor(key, &dup);
  } else {
    cursor = NonLeafCursor(n2, key);
  }
  SplitAndInsert(new_no, cursor, key, child);
}

void BTree::GetFather(uint32_t page_no, uint32_t* parent, int* pos) {
  const IndexPage& p = P(page_no);
  // btr_page_get_father_node_ptr: search level + 1 with the child's first
  // record, PAGE_CUR_LE.
  const Key& first = p.key(0);
  const uint32_t parent_no = SearchToLevel(first, p.level() + 1u);
  const IndexPage& pp = P(parent_no);
  // The node pointer's key is at most the child's first key and the next
  // pointer's key is above it, so the search lands on it.
  const int c = std::max(NonLeafCursor(pp, first), 0);
  *parent = parent_no;
  *pos = c;
}

bool BTree::InsertIntoRightSibling(uint32_t page_no, int cursor, const Key& key, uint32_t child) {
  const IndexPage& p = P(page_no);
  const uint32_t next_no = p.next();
  if (next_no == kFilNull || cursor != p.n_recs() - 1) return false;
  Access(next_no);
  uint32_t father = 0;
  int father_pos = 0;
  GetFather(next_no, &father, &father_pos);
  IndexPage& next = P(next_no);
  // The key is above everything on this page, so below everything on the
  // next one: page_cur_search(PAGE_CUR_LE) stops at its infimum. Then
  // page_cur_tuple_insert: free-list head or heap top, no reorganize, no
  // reserve test.
  if (!next.InsertAfter(-1, key, child, store_->pool())) return false;
  Modify(next_no);
  LogInsert(next_no, -1, key);
  ++counters_.right_sibling_inserts;
  fast_.RightSiblingInsert();
  if (trace_ != nullptr) {
    TraceEvent e = TraceEvent::At(TraceStep::kRightSiblingInsert, "btr_insert_into_right_sibling",
                                  PageHeaderView::Of(P(page_no)));
    e.new_page = next_no;
    trace_->OnStep(e);
  }
  const uint16_t level = next.level();
  // The parent's node pointer to the next page must now carry the new first
  // key: delete it (which may compress the parent), then insert a new one.
  const bool compressed = PessimisticDeleteNodePtr(father, father_pos);
  if (!compressed) {
    // btr_cur_compress_if_useful on the father cursor: the page that held
    // the deleted node pointer, wherever a merge attempt left it.
    CompressIfUseful(father);
  }
  InsertOnNonLeafLevel(level + 1u, key, next_no);
  return true;
}

bool BTree::PessimisticDeleteNodePtr(uint32_t page_no, int pos) {
  IndexPage& p = P(page_no);
  if (p.n_recs() < 2 && page_no != root_) {
    // btr_discard_page: not reached by insert-only loads (a parent page
    // always keeps more than one node pointer there); purges reach it.
    DiscardPage(page_no);
    return true;
  }
  if (pos == 0 && p.level() > 0 && p.prev() != kFilNull && p.n_recs() > 1) {
    // Deleting the first node pointer of a page that is not the leftmost:
    // the grandparent's pointer to this page must take the new first key.
    const Key next_key = p.key(1);
    NodePtrDelete(page_no);
    InsertOnNonLeafLevel(P(page_no).level() + 1u, next_key, page_no);
  }
  P(page_no).DeleteRec(pos);
  // MLOG_COMP_REC_DELETE: header + index info + offset, the size of a list
  // delete record.
  if (logging()) Log(redo_->ListDelete(page_no));
  // On the leftmost page the next record inherits the min-rec mark.
  if (pos == 0 && P(page_no).level() > 0 && P(page_no).prev() == kFilNull && P(page_no).n_recs() > 0) {
    P(page_no).SetMinRecMark();
    if (logging()) Log(redo_->MinRecMark(page_no));
  }
  Modify(page_no);
  return CompressIfUseful(page_no);
}

void BTree::NodePtrDelete(uint32_t page_no) {
  uint32_t father = 0;
  int pos = 0;
  GetFather(page_no, &father, &pos);
  const bool compressed = PessimisticDeleteNodePtr(father, pos);
  if (!compressed) CompressIfUseful(father);
}

bool BTree::CompressIfUseful(uint32_t page_no) {
  const IndexPage& p = P(page_no);
  if (!p.in_use()) return false;
  // btr_cur_compress_recommendation: under MERGE_THRESHOLD, or alone on its
  // level; never the root.
  if (p.DataSize() < compress_limit_ || (p.next() == kFilNull && p.prev() == kFilNull)) {
    if (page_no == root_) return false;
    return Compress(page_no);
  }
  return false;
}

uint32_t BTree::LiftPageUp(uint32_t page_no) {
  // Every page above this one, searched before the tree changes (it cannot
  // be searched once the first level is replaced): the father, then its
  // ancestors up to the root (btr_lift_page_up's blocks[]).
  uint32_t blocks[kMaxHeight];
  int n_blocks = 0;
  uint32_t father = 0;
  int pos = 0;
  GetFather(page_no, &father, &pos);
  for (uint32_t b = father; b != root_ && n_blocks < kMaxHeight;) {
    uint32_t up = 0;
    int up_pos = 0;
    GetFather(b, &up, &up_pos);
    blocks[n_blocks++] = b = up;
  }
  uint32_t block = page_no;
  uint16_t level = P(page_no).level();
  // lift_father_up: a leaf whose father is not the root. The father (alone
  // on its level too) goes up instead, so that a page freed keeps the level
  // whose segment it came from.
  const bool lift_father_up = n_blocks > 0 && level == 0;
  if (lift_father_up) {
    block = father;
    level = P(block).level();
    father = blocks[0];
  }
  Access(block);
  // btr_page_empty of the father at the lifted page's level, then the
  // records copied onto the empty page (page_copy_rec_list_end, which takes
  // page_copy_rec_list_end_to_created_page's path on an empty page). The
  // leftmost node pointer keeps REC_INFO_MIN_REC_FLAG.
  IndexPage& fp = P(father);
  fp.Empty(level, RecSizeAt(level), store_->pool());
  fp.CopyEndToCreated(P(block), 0, store_->pool());
  Modify(father);
  // The pages above the father go down a level (btr_page_set_level).
  ++level;
  for (int i = lift_father_up ? 1 : 0; i < n_blocks; ++i, ++level) {
    P(blocks[i]).set_non_leaf_level(level);
    Modify(blocks[i]);
  }
  FreePage(block);
  return lift_father_up ? page_no : father;
}

bool BTree::CanMergeWithPage(uint32_t page_no, uint32_t merge_no) {
  if (merge_no == kFilNull) return false;
  Access(merge_no);
  const IndexPage& p = P(page_no);
  const uint32_t n_recs = static_cast<uint32_t>(p.n_recs());
  const uint32_t data_size = p.DataSize();
  if (data_size > P(merge_no).MaxInsertSizeAfterReorganize(n_recs)) return false;
  if (data_size > P(merge_no).MaxInsertSize(n_recs)) {
    // The records fit only after reorganizing the merge page.
    Reorganize(merge_no);
    if (data_size > P(merge_no).MaxInsertSize(n_recs)) return false;
  }
  return true;
}

bool BTree::Compress(uint32_t page_no) {
  ++counters_.index_page_merge_attempts;
  const uint32_t left_no = P(page_no).prev();
  const uint32_t right_no = P(page_no).next();
  if (left_no == kFilNull && right_no == kFilNull) {
    // The only page of a level below the root (purge leaves such pages; an
    // insert-only load never does): btr_compress lifts its records into the
    // father (btr_lift_page_up) and counts that as a successful merge.
    LiftPageUp(page_no);
    ++counters_.index_page_merge_successful;
    return true;
  }
  uint32_t father = 0;
  int father_pos = 0;
  GetFather(page_no, &father, &father_pos);
  const bool is_left = CanMergeWithPage(page_no, left_no);
  if (!is_left && !CanMergeWithPage(page_no, right_no)) return false;
  IndexPage& p = P(page_no);
  if (is_left) {
    // page_copy_rec_list_start onto the left page, unlink, drop the node
    // pointer of this page.
    P(left_no).AppendAllFrom(p, store_->pool());
    Modify(left_no);
    if (logging()) {
      Log(redo_->SplitMoveStart(left_no, page_no, static_cast<uint32_t>(p.n_recs()),
                                static_cast<uint64_t>(p.n_recs()) * p.rec_size(), MismatchTotal(p, 0, p.n_recs())));
    }
    P(left_no).set_next(p.next());
    if (p.next() != kFilNull) {
      Access(p.next());
      P(p.next()).set_prev(left_no);
      Modify(p.next());
    }
    NodePtrDelete(page_no);
  } else {
    uint32_t father2 = 0;
    int father2_pos = 0;
    GetFather(right_no, &father2, &father2_pos);
    P(right_no).PrependAllFrom(p, store_->pool());
    Modify(right_no);
    if (logging()) {
      Log(redo_->SplitMoveStart(right_no, page_no, static_cast<uint32_t>(p.n_recs()),
                                static_cast<uint64_t>(p.n_recs()) * p.rec_size(), MismatchTotal(p, 0, p.n_recs())));
      Log(redo_->Write4(father, right_no));
    }
    P(right_no).set_prev(p.prev());
    if (p.prev() != kFilNull) {
      Access(p.prev());
      P(p.prev()).set_next(right_no);
      Modify(p.prev());
    }
    // This page's node pointer now points at the right page; the right
    // page's own node pointer goes.
    P(father).set_child(father_pos, right_no);
    Modify(father);
    const bool compressed = PessimisticDeleteNodePtr(father2, father2_pos);
    if (!compressed) CompressIfUseful(father2);
  }
  if (trace_ != nullptr) {
    TraceEvent e = TraceEvent::At(TraceStep::kMerged, "btr_compress", PageHeaderView::Of(P(page_no)));
    e.into = is_left ? left_no : right_no;
    trace_->OnStep(e);
  }
  FreePage(page_no);
  ++counters_.index_page_merge_successful;
  return true;
}

void BTree::SplitAndInsert(uint32_t page_no, int cursor, const Key& key, uint32_t child) {
  if (profile_.split_counting == SplitCounting::kAtEntryWithShortcut) ++counters_.index_page_splits;
  int n_iterations = 0;
  for (;;) {
    // Try the right sibling first (every iteration starts at func_start).
    if (InsertIntoRightSibling(page_no, cursor, key, child)) return;

    IndexPage& page = P(page_no);
    const uint16_t level = page.level();
    const SplitDecision d = DecideSplit(page, cursor, n_iterations, RecSizeAt(level));
    PageHeaderView split_before;
    if (trace_ != nullptr) split_before = PageHeaderView::Of(page);
    switch (d.kind) {
      case SplitDecision::Kind::kToRight: ++counters_.splits_to_right; break;
      case SplitDecision::Kind::kToLeft: ++counters_.splits_to_left; break;
      case SplitDecision::Kind::kMiddle: ++counters_.splits_middle; break;
      case SplitDecision::Kind::kSure: ++counters_.splits_sure; break;
    }
    const uint32_t hint = d.direction == FspDirection::kDown ? page_no - 1 : page_no + 1;
    const uint32_t new_no = AllocPage(hint, d.direction, level);

    // First record of the upper half (its key goes into the parent) and the
    // first record that moves.
    Key first_key;
    int move_limit;
    if (d.split_rec != kNoSplitRec) {
      first_key = P(page_no).key(d.split_rec);
      move_limit = d.split_rec;
    } else if (!d.insert_left) {
      first_key = key;
      move_limit = cursor + 1;
    } else {
      first_key = P(page_no).key(0);
      move_limit = cursor + 1;
    }

    // btr_attach_half_pages.
    const uint32_t lower = d.direction == FspDirection::kDown ? new_no : page_no;
    const uint32_t upper = d.direction == FspDirection::kDown ? page_no : new_no;
    if (d.direction == FspDirection::kDown) {
      uint32_t father = 0;
      int pos = 0;
      GetFather(page_no, &father, &pos);
      P(father).set_child(pos, new_no);
      Modify(father);
      if (logging()) Log(redo_->Write4(father, new_no));
    }
    InsertOnNonLeafLevel(level + 1u, first_key, upper);
    const uint32_t prev_no = P(page_no).prev();
    const uint32_t next_no = P(page_no).next();
    if (prev_no != kFilNull && d.direction == FspDirection::kDown) {
      Access(prev_no);
      P(prev_no).set_next(lower);
      Modify(prev_no);
    }
    if (next_no != kFilNull && d.direction == FspDirection::kUp) {
      Access(next_no);
      P(next_no).set_prev(upper);
      Modify(next_no);
    }
    P(lower).set_prev(d.direction == FspDirection::kDown ? prev_no : P(lower).prev());
    P(lower).set_next(upper);
    P(upper).set_prev(lower);
    P(upper).set_next(d.direction == FspDirection::kDown ? P(upper).next() : next_no);
    if (logging()) {
      // btr_page_set_prev/next on the two halves (the new page gets both
      // links), and on the neighbour outside the split.
      const bool neighbour = d.direction == FspDirection::kDown ? prev_no != kFilNull : next_no != kFilNull;
      for (int w = 0; w < 3 + (neighbour ? 1 : 0); ++w) Log(redo_->Write4(new_no, upper));
    }

    // Move the records.
    if (logging()) {
      const IndexPage& src = P(page_no);
      const int from = d.direction == FspDirection::kDown ? 0 : move_limit;
      const int to = d.direction == FspDirection::kDown ? move_limit : src.n_recs();
      const uint32_t n = static_cast<uint32_t>(std::max(0, to - from));
      const uint64_t bytes = uint64_t{n} * src.rec_size();
      const uint64_t mismatch = MismatchTotal(src, from, to);
      Log(d.direction == FspDirection::kDown ? redo_->SplitMoveStart(new_no, page_no, n, bytes, mismatch)
                                             : redo_->SplitMoveEnd(new_no, page_no, n, bytes, mismatch));
    }
    if (d.direction == FspDirection::kDown) {
      P(new_no).AppendStartFrom(P(page_no), move_limit, store_->pool());
      P(page_no).DeleteStart(move_limit, store_->pool());
    } else {
      P(new_no).CopyEndToCreated(P(page_no), move_limit, store_->pool());
      P(page_no).DeleteEnd(move_limit, store_->pool());
    }
    Modify(page_no);
    if (level == 0) fast_.LeafSplit(page_no, lower, upper, first_key);
    if (trace_ != nullptr) {
      TraceEvent e = TraceEvent::At(TraceStep::kSplit, "btr_page_split_and_insert", split_before);
      e.cursor = cursor;
      e.split_kind = d.kind;
      e.split_rec = d.split_rec;
      e.insert_left = d.insert_left;
      e.new_page = new_no;
      e.lower = lower;
      e.upper = upper;
      e.moved = static_cast<uint32_t>(P(new_no).n_recs());
      trace_->OnStep(e);
    }

    // Insert the tuple on its half; reorganize once if needed, else retry
    // with the sure split on that page.
    const uint32_t target = d.insert_left ? lower : upper;
    IndexPage& t = P(target);
    int c;
    if (t.is_leaf()) {
      bool dup = false;
      c = t.SearchInsertCursor(key, &dup);
    } else {
      c = NonLeafCursor(t, key);
    }
    bool ok = t.InsertAfter(c, key, child, store_->pool());
    if (!ok) {
      Reorganize(target);
      ok = P(target).InsertAfter(c, key, child, store_->pool());
    }
    if (ok) {
      Modify(target);
      LogInsert(target, c, key);
      break;
    }
    ++n_iterations;
    page_no = target;
    cursor = c;
  }
  if (profile_.split_counting == SplitCounting::kAtExitWithoutShortcut) ++counters_.index_page_splits;
}

std::vector<LevelCensus> BTree::Census() const {
  std::vector<LevelCensus> out;
  uint32_t leftmost = root_;
  for (;;) {
    const IndexPage& first = P(leftmost);
    LevelCensus lc;
    lc.level = first.level();
    for (uint32_t pn = leftmost; pn != kFilNull; pn = P(pn).next()) {
      const IndexPage& p = P(pn);
      ++lc.pages;
      lc.records += static_cast<uint64_t>(p.n_recs());
      lc.data_bytes += p.DataSize();
      lc.usable_bytes += FreeSpaceOfEmpty(page_size_);
      const size_t n = static_cast<size_t>(p.n_recs());
      if (lc.records_histogram.size() <= n) lc.records_histogram.resize(n + 1, 0);
      ++lc.records_histogram[n];
    }
    out.push_back(std::move(lc));
    if (first.level() == 0) break;
    leftmost = first.child(0);
  }
  return out;
}

void BTree::ForEachKey(const std::function<void(const Key&)>& f) const {
  uint32_t pn = root_;
  while (P(pn).level() > 0) pn = P(pn).child(0);
  for (; pn != kFilNull; pn = P(pn).next()) {
    const IndexPage& p = P(pn);
    for (int i = 0; i < p.n_recs(); ++i) f(p.key(i));
  }
}

std::string BTree::Verify() const {
  // Every page, level by level, along the sibling links.
  uint32_t leftmost = root_;
  for (;;) {
    const IndexPage& first = P(leftmost);
    const uint16_t level = first.level();
    if (first.prev() != kFilNull) return absl::StrFormat("level %u: leftmost page %u has a prev", level, leftmost);
    uint32_t prev = kFilNull;
    bool have_last = false;
    Key last_key;
    for (uint32_t pn = leftmost; pn != kFilNull; pn = P(pn).next()) {
      const IndexPage& p = P(pn);
      if (p.level() != level) return absl::StrFormat("page %u: level %u on level %u", pn, p.level(), level);
      if (p.prev() != prev) return absl::StrFormat("page %u: prev %u, expected %u", pn, p.prev(), prev);
      if (p.page_no() != pn) return absl::StrFormat("page %u: page number %u", pn, p.page_no());
      if (std::string e = p.Verify(); !e.empty()) return e;
      if (p.n_recs() == 0 && pn != root_) return absl::StrFormat("page %u: empty non-root page", pn);
      if (p.rec_size() != RecSizeAt(level)) return absl::StrFormat("page %u: record size %u", pn, p.rec_size());
      if (p.n_recs() > 0) {
        // Keys sorted across pages.
        if (have_last && !(last_key < p.key(0))) return absl::StrFormat("page %u: first key not above previous page", pn);
        last_key = p.key(p.n_recs() - 1);
        have_last = true;
      }
      if (level > 0) {
        // Parent separators: each node pointer's key is <= its child's first
        // key (the leftmost page's first one stands for minus infinity), and
        // the child's last key is below the next node pointer's key.
        for (int i = 0; i < p.n_recs(); ++i) {
          const IndexPage& c = P(p.child(i));
          if (c.level() + 1 != level) return absl::StrFormat("page %u: child %u at level %u", pn, p.child(i), c.level());
          if (c.n_recs() == 0) return absl::StrFormat("page %u: child %u is empty", pn, p.child(i));
          const bool min_rec = i == 0 && p.prev() == kFilNull;
          if (!min_rec && c.key(0) < p.key(i)) {
            return absl::StrFormat("page %u: node pointer %d above child %u's first key", pn, i, p.child(i));
          }
          if (i + 1 < p.n_recs() && !(c.key(c.n_recs() - 1) < p.key(i + 1))) {
            return absl::StrFormat("page %u: child %u reaches past node pointer %d", pn, p.child(i), i + 1);
          }
          if (i + 1 < p.n_recs() && c.next() != p.child(i + 1)) {
            return absl::StrFormat("page %u: child %u's next is not child %d", pn, p.child(i), i + 1);
          }
        }
      }
      prev = pn;
    }
    if (level == 0) break;
    leftmost = first.child(0);
  }
  // Segments: what the tree uses is what the segments say is used.
  const SegmentUsage leaf = space_->Usage(leaf_seg_);
  const SegmentUsage top = space_->Usage(top_seg_);
  if (leaf.reserved < leaf.used || top.reserved < top.used) return "a segment has reserved < used pages";
  if (std::string e = space_->Verify(); !e.empty()) return "tablespace: " + e;
  return "";
}

absl::Status BTree::BulkLoad(absl::Span<const Key> keys, uint32_t fill_factor) {
  if (P(root_).n_recs() != 0 || P(root_).level() != 0) {
    return absl::FailedPreconditionError("the sorted index build needs a new, empty index");
  }
  if (fill_factor < 10 || fill_factor > 100) {
    return absl::InvalidArgumentError("innodb_fill_factor must be from 10 to 100");
  }
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!(keys[i - 1] < keys[i])) return absl::InvalidArgumentError("the sorted index build needs ascending keys");
  }
  // BtrBulk::finish: an empty table keeps its empty root.
  if (keys.empty()) return absl::OkStatus();
  const uint32_t reserved = BulkReservedSpace(page_size_, fill_factor, clustered_);
  std::vector<BulkLevel> lv;
  lv.reserve(16);  // a tree of 16 levels is beyond any page size's reach; no reallocation
  for (const Key& k : keys) BulkInsert(lv, k, 0, 0, reserved);
  // BtrBulk::finish: commit the last page of every level, bottom-up; a
  // commit may add a level above (m_root_level grows), which the loop then
  // commits too. The top level's last page is the only page of its level.
  uint32_t last = kFilNull;
  for (size_t level = 0; level < lv.size(); ++level) {
    last = lv[level].page_no;
    BulkCommit(lv, static_cast<uint16_t>(level), kFilNull, level + 1 < lv.size(), reserved);
  }
  const uint16_t root_level = static_cast<uint16_t>(lv.size() - 1);
  for (BulkLevel& l : lv) l.scratch.Release(store_->pool());
  // Copy the last page into the root page (index->page, created by
  // btr_create in the top segment), then free it (btr_page_free_low).
  Access(root_);
  IndexPage& root = P(root_);
  root.Empty(root_level, RecSizeAt(root_level), store_->pool());
  root.CopyEndToCreated(P(last), 0, store_->pool());
  root.set_prev(kFilNull);
  root.set_next(kFilNull);
  Modify(root_);
  if (logging()) {
    Log(redo_->BulkPage(root_, static_cast<uint32_t>(root.n_recs()), uint64_t{root.rec_size()} * root.n_recs()));
  }
  FreePage(last);
  CommitMtr();
  if (sink_ != nullptr) {
    // The freed page is not the observer's to write (MySQL's
    // load_root_page); the root is.
    bulk_built_.erase(std::remove(bulk_built_.begin(), bulk_built_.end(), last), bulk_built_.end());
    bulk_built_.push_back(root_);
  }
  return space_->status();
}

void BTree::AddCounters(const IndexCounters& b) {
  IndexCounters& c = counters_;
  c.index_page_splits += b.index_page_splits;
  c.index_page_reorg_attempts += b.index_page_reorg_attempts;
  c.index_page_reorg_successful += b.index_page_reorg_successful;
  c.index_page_merge_attempts += b.index_page_merge_attempts;
  c.index_page_merge_successful += b.index_page_merge_successful;
  c.splits_to_right += b.splits_to_right;
  c.splits_to_left += b.splits_to_left;
  c.splits_middle += b.splits_middle;
  c.splits_sure += b.splits_sure;
  c.right_sibling_inserts += b.right_sibling_inserts;
  c.root_raises += b.root_raises;
  c.pages_allocated += b.pages_allocated;
  c.pages_freed += b.pages_freed;
}

uint32_t BTree::BulkAllocPage(uint16_t level) {
  space_->ReserveFreeExtents(1);
  // btr_page_alloc in an mtr of its own (PageBulk::init's alloc_mtr).
  const uint32_t page_no = AllocPage(0, FspDirection::kUp, level);
  CommitMtr();
  return page_no;
}

void BTree::BulkInsert(std::vector<BulkLevel>& lv, const Key& key, uint32_t child, uint16_t level,
                       uint32_t reserved) {
  bool left_most = false;
  if (level == lv.size()) {
    // A new level: its first page (BtrBulk::insert's new PageBulk).
    const uint32_t pn = BulkAllocPage(level);
    lv.emplace_back();
    lv[level].page_no = pn;
    lv[level].scratch.Create(kFilNull, level, RecSizeAt(level), page_size_, store_->pool(), wide_keys_,
                             profile_.delete_reclaims_heap_top);
    left_most = true;
  }
  if (!BulkSpaceAvailable(static_cast<uint32_t>(lv[level].scratch.n_recs()), RecSizeAt(level), page_size_,
                          reserved)) {
    // The sibling is allocated before the full page is committed (and its
    // node pointer inserted above), as BtrBulk::insert does.
    const uint32_t sibling = BulkAllocPage(level);
    BulkCommit(lv, level, sibling, true, reserved);
    lv[level].page_no = sibling;
  }
  IndexPage& s = lv[level].scratch;
  s.InsertAfter(s.n_recs() - 1, key, child, store_->pool());
  // REC_INFO_MIN_REC_FLAG on the first node pointer of a level's leftmost page.
  if (left_most && level > 0 && s.n_recs() == 1) s.SetMinRecMark();
}

void BTree::BulkCommit(std::vector<BulkLevel>& lv, uint16_t level, uint32_t next, bool insert_father,
                       uint32_t reserved) {
  const uint32_t pn = lv[level].page_no;
  {
    IndexPage& p = P(pn);
    p.CopyEndToCreated(lv[level].scratch, 0, store_->pool());
    p.set_next(next);
  }
  if (next != kFilNull) P(next).set_prev(pn);
  if (sink_ != nullptr) {
    // PageBulk::commit's mtr: the page built (and its redo: MariaDB logs
    // it, MySQL's build logs none), the new sibling's FIL_PAGE_PREV.
    const IndexPage& p = P(pn);
    Modify(pn);
    if (logging()) Log(redo_->BulkPage(pn, static_cast<uint32_t>(p.n_recs()), uint64_t{p.rec_size()} * p.n_recs()));
    if (next != kFilNull) Modify(next);
    CommitMtr();
    bulk_built_.push_back(pn);
  }
  lv[level].scratch.Empty(level, RecSizeAt(level), store_->pool());
  if (insert_father) {
    const Key first = P(pn).key(0);
    BulkInsert(lv, first, pn, static_cast<uint16_t>(level + 1), reserved);
  }
}

int BTree::FindRecord(const Key& key, uint32_t* leaf) {
  *leaf = SearchToLevel(key, 0);
  const int pos = P(*leaf).SearchLE(key);
  return pos >= 0 && P(*leaf).key(pos) == key ? pos : -1;
}

absl::Status BTree::DeleteMark(const Key& key) {
  uint32_t leaf = 0;
  if (FindRecord(key, &leaf) < 0) {
    CommitMtr();
    return absl::NotFoundError("no such record");
  }
  // The record keeps its place and size: only its info bits (and, in the
  // clustered index, DB_TRX_ID and DB_ROLL_PTR) change.
  Modify(leaf);
  if (logging()) Log(redo_->DeleteMark(leaf, clustered_));
  CommitMtr();
  return absl::OkStatus();
}

absl::Status BTree::Purge(const Key& key) {
  // btr_pcur_restore_position: the leaf holding the record.
  uint32_t leaf = 0;
  const int pos = FindRecord(key, &leaf);
  if (pos < 0) {
    CommitMtr();
    return absl::NotFoundError("no such record");
  }
  const IndexPage& p = P(leaf);
  // btr_cur_can_delete_without_compress: a page that keeps siblings, two
  // records and MERGE_THRESHOLD of data after the delete; the root always.
  const bool siblings = p.prev() != kFilNull || p.next() != kFilNull;
  const bool optimistic =
      leaf == root_ || (siblings && p.n_recs() >= 2 && p.DataSize() - p.rec_size() >= compress_limit_);
  if (optimistic) {
    P(leaf).DeleteRec(pos);  // page_cur_delete_rec
    Modify(leaf);
    if (logging()) Log(redo_->RecDelete(leaf, P(leaf).rec_size()));
    CommitMtr();
    return absl::OkStatus();
  }
  // btr_cur_optimistic_delete returned DB_FAIL: its BTR_MODIFY_LEAF mtr
  // ends, and the purge searches again in BTR_MODIFY_TREE mode for
  // btr_cur_pessimistic_delete (row_purge_remove_clust_if_poss,
  // row_purge_remove_sec_if_poss).
  CommitMtr();
  if (sink_ != nullptr) SearchToLevel(key, 0);
  if (P(leaf).n_recs() < 2) {
    DiscardPage(leaf);
    CommitMtr();
    return absl::OkStatus();
  }
  P(leaf).DeleteRec(pos);
  Modify(leaf);
  if (logging()) Log(redo_->RecDelete(leaf, P(leaf).rec_size()));
  CompressIfUseful(leaf);
  CommitMtr();
  return absl::OkStatus();
}

void BTree::DiscardPage(uint32_t page_no) {
  const IndexPage& p = P(page_no);
  const uint32_t left = p.prev();
  const uint32_t right = p.next();
  const uint16_t level = p.level();
  if (left == kFilNull && right == kFilNull) {
    // btr_discard_only_page_on_level: the page and every page above it up
    // to the root are alone on their levels; they are freed and the root
    // becomes an empty leaf (btr_page_empty).
    std::vector<uint32_t> chain;
    for (uint32_t pn = P(root_).child(0); P(pn).level() >= level; pn = P(pn).child(0)) {
      chain.push_back(pn);
      if (P(pn).level() == level) break;
    }
    for (uint32_t pn : chain) FreePage(pn);
    P(root_).Empty(0, RecSizeAt(0), store_->pool());
    Modify(root_);
    if (logging()) Log(redo_->PageCreate(root_, 0, index_id_));
    return;
  }
  // btr_discard_page: the node pointer goes (btr_node_ptr_delete, which may
  // compress the parent), the page leaves its level's list (the siblings'
  // FIL_PAGE_NEXT / FIL_PAGE_PREV), and on a non-leaf level the new
  // leftmost page's first record takes the min-rec mark
  // (btr_set_min_rec_mark).
  uint32_t parent = 0;
  int parent_pos = 0;
  GetFather(page_no, &parent, &parent_pos);
  NodePtrDelete(page_no);
  if (left != kFilNull) {
    Access(left);
    P(left).set_next(right);
    Modify(left);
    if (logging()) Log(redo_->Write4(left, right));
  }
  if (right != kFilNull) {
    Access(right);
    P(right).set_prev(left);
    Modify(right);
    if (logging()) Log(redo_->Write4(right, left));
    if (left == kFilNull && level > 0) {
      P(right).SetMinRecMark();
      if (logging()) Log(redo_->MinRecMark(right));
    }
  }
  FreePage(page_no);
  // The page that inherits the locks (the left sibling, else the right)
  // is now the only child of a root left with one node pointer: its
  // records go up into the root (btr_discard_page's btr_lift_page_up).
  const uint32_t merge = left != kFilNull ? left : right;
  if (parent == root_ && P(root_).n_recs() == 1 && P(root_).level() == level + 1u) LiftPageUp(merge);
}

}  // namespace innosim
