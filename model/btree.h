// BTree: one InnoDB index (clustered or secondary) and its insert path.
//
// Insert() follows row_ins -> btr_cur_optimistic_insert ->
// btr_cur_pessimistic_insert -> btr_root_raise_and_insert /
// btr_page_split_and_insert (btr/btr0cur.cc, btr/btr0btr.cc): descend with
// PAGE_CUR_LE, insert if the page has room (with the 1/16 reserve on
// clustered leaves that look sequential), reorganize when the record fits
// only after a reorganize, otherwise try the right sibling, then split by the
// heuristics of split_rules.h; node pointers go into the parent through the
// same code, and a full root is raised. The right-sibling shortcut deletes and
// re-inserts the parent's node pointer, which may merge (btr_compress) an
// under-filled parent into a sibling, reorganizing the sibling first when
// needed: the only merges and reorganizations of an insert-only load.
//
// Pages come from a Tablespace through two file segments (leaf, non-leaf)
// and live in a PageStore shared by the table's indexes. Every page the tree
// fixes or changes is reported to an optional PageEventSink.
//
// The simulator's speed devices (a leaf route cache, a lookahead of
// announced keys, block storage modes) sit behind the seams of FastPath
// (fast/fast_path.h), called at four points of the insert path; no result
// depends on them.
//
// Not thread-safe: one engine per thread.
#ifndef INNOSIM_MODEL_BTREE_H_
#define INNOSIM_MODEL_BTREE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "model/engine_profile.h"
#include "model/index_page.h"
#include "model/insert_trace.h"
#include "model/key.h"
#include "model/fast/fast_path.h"
#include "model/fast/leaf_route_cache.h"
#include "model/page_events.h"
#include "model/fast/page_pool.h"
#include "model/fast/page_store.h"
#include "model/record_format.h"
#include "model/redo_format.h"
#include "model/split_rules.h"
#include "model/tablespace.h"

namespace innosim {

// INNODB_METRICS counters of the index module, under their own names, plus
// the events behind them.
struct IndexCounters {
  uint64_t index_page_splits = 0;
  uint64_t index_page_reorg_attempts = 0;
  uint64_t index_page_reorg_successful = 0;
  uint64_t index_page_merge_attempts = 0;
  uint64_t index_page_merge_successful = 0;
  // Not INNODB_METRICS counters; what the splits were.
  uint64_t splits_to_right = 0;       // btr_page_get_split_rec_to_right fired
  uint64_t splits_to_left = 0;        // btr_page_get_split_rec_to_left fired
  uint64_t splits_middle = 0;         // page_get_middle_rec
  uint64_t splits_sure = 0;           // btr_page_get_split_rec (retry)
  uint64_t right_sibling_inserts = 0; // btr_insert_into_right_sibling succeeded
  uint64_t root_raises = 0;           // btr_root_raise_and_insert
  uint64_t pages_allocated = 0;
  uint64_t pages_freed = 0;
};

// What one level of the tree holds.
struct LevelCensus {
  uint32_t level = 0;
  uint64_t pages = 0;
  uint64_t records = 0;
  uint64_t data_bytes = 0;    // sum of page_get_data_size
  uint64_t usable_bytes = 0;  // pages x page_get_free_space_of_empty
  std::vector<uint64_t> records_histogram;  // index: records on a page
};

class BTree {
 public:
  // Takes over an index created by btr_create (see CreateFilePerTableLayout
  // in tablespace.h): its segments and its empty root page.
  BTree(const EngineProfile& profile, Tablespace* space, PageStore* store, const IndexSegments& segs,
        const RecordSizes& sizes, bool clustered, uint32_t space_id, PageEventSink* sink);

  // Makes every mini-transaction report its redo bytes, computed by `redo`
  // (not owned), to the sink. `index_id` is written in page headers.
  void SetRedo(const RedoFormat* redo, uint64_t index_id) {
    redo_ = redo;
    index_id_ = index_id;
  }

  // Inserts one entry. Returns AlreadyExists for a duplicate key
  // (DB_DUPLICATE_KEY); the tree is unchanged then.
  absl::Status Insert(const Key& key);

  // btr_store_big_rec_extern_fields (MariaDB) / lob::insert (MySQL) for
  // the clustered record with `key`, just inserted: a search to its leaf
  // (row_ins_index_entry_big_rec's btr_pcur_open, the pages fixed), then,
  // value by value, the pages of `extern_bytes[i]` bytes (model/big_rec.h
  // ExternPagesFor), each after fsp_reserve_free_extents(1, FSP_BLOB) and
  // allocated by btr_page_alloc at level 0 (the leaf segment) with the
  // server's hint (MariaDB: the previous page + 1, the record's page + 1
  // first; MySQL: FIL_NULL), FSP_NO_DIR; each created and written in an
  // mtr of its own. Then the record's references written on its leaf.
  // NotFound if no record has `key` (nothing is stored then).
  absl::Status StoreExtern(const Key& key, const std::vector<uint32_t>& extern_bytes);
  // Pages of off-page columns allocated so far (in the leaf segment, so in
  // n_leaf_pages and size, as the server counts them).
  uint64_t extern_pages() const { return extern_pages_; }
  // A hint that `key` will be inserted two Inserts from now (the caller
  // reads its keys ahead): FastPath's lookahead may find its leaf now and
  // load it into the CPU cache meanwhile. Changes no result.
  void Prefetch(const Key& key) { fast_.Announce(key, root_); }

  // The sorted index build of this (new, empty) index: `keys`, strictly
  // ascending, appended by BtrBulk / PageBulk (btr/btr0bulk.cc): pages
  // filled as model/bulk_load.h says, node-pointer levels built bottom-up
  // as pages are committed, each page allocated with fsp_reserve_free_
  // extents(1) + btr_page_alloc(hint 0, FSP_UP), and the last page of the
  // top level copied into the root (BtrBulk::finish) and freed.
  // With a sink: each page allocated in an mtr of its own, each page built
  // modified (with the new sibling's back link) in PageBulk::commit's mtr
  // and its redo (RedoFormat::BulkPage), the root's copy and the last
  // page's free in BtrBulk::finish's. Counts pages_allocated and
  // pages_freed; no split, reorganization or merge.
  absl::Status BulkLoad(absl::Span<const Key> keys, uint32_t fill_factor);
  // With a sink: the pages BulkLoad built (the root included, the page it
  // freed not), which MySQL's Flush_observer writes at the build's end.
  const std::vector<uint32_t>& bulk_built_pages() const { return bulk_built_; }
  // DELETE's delete mark on the record with `key` (row_upd_del_mark_clust_rec
  // -> btr_cur_del_mark_set_clust_rec, row_upd_sec_index_entry ->
  // btr_cur_del_mark_set_sec_rec), in an mtr of its own: the search path
  // fixed, the leaf modified, the redo logged. The tree does not change
  // shape (a delete-marked record keeps its place until purge). NotFound if
  // the index holds no such record.
  absl::Status DeleteMark(const Key& key);
  // Purge of one delete-marked record (row_purge_remove_clust_if_poss /
  // row_purge_remove_sec_if_poss): btr_cur_optimistic_delete when
  // btr_cur_can_delete_without_compress allows it, else (its mtr ended, a
  // new search in BTR_MODIFY_TREE mode) btr_cur_pessimistic_delete:
  // btr_discard_page for the last record of a non-root page, or
  // page_cur_delete_rec then btr_cur_compress_if_useful (btr_compress at
  // MERGE_THRESHOLD, counted in index_page_merge_*). With a sink, every page
  // fixed, changed, allocated or freed is reported, with the redo.
  // NotFound if `key` is not in the index (the tree is unchanged then).
  absl::Status Purge(const Key& key);
  // Forgets the routes the speed devices remember (after purges, whose
  // merges and discards they do not follow). Changes no result.
  void ResetFastPath() { fast_.set_devices(fast_.devices()); }
  // Adds `before` to the counters: a rebuilt index carries the
  // server-global INNODB_METRICS counts of the index it replaces.
  void AddCounters(const IndexCounters& before);

  // Reports every step of every insert to `trace` (not owned; nullptr: no
  // trace), for `innosim explain`. Changes no result.
  void set_trace(InsertTraceSink* trace) { trace_ = trace; }

  // Turns the speed devices on or off (all on by default). Results are the
  // same either way; tests/*_equivalence_test.cc compare.
  void set_fast_path(const FastPath::Devices& d) { fast_.set_devices(d); }
  const FastPath& fast_path() const { return fast_; }

  uint32_t root() const { return root_; }
  uint32_t height() const;                 // levels, 1 for a lone root
  const IndexCounters& counters() const { return counters_; }
  SegmentUsage leaf_segment() const { return space_->Usage(leaf_seg_); }
  SegmentUsage top_segment() const { return space_->Usage(top_seg_); }
  // mysql.innodb_index_stats: size = reserved pages of both segments,
  // n_leaf_pages = used pages of the leaf segment.
  uint64_t size() const;
  uint64_t n_leaf_pages() const;
  const RecordSizes& record_sizes() const { return sizes_; }
  // Whether its pages keep key tails (keys past 16 bytes; model/key.h).
  bool wide_keys() const { return wide_keys_; }

  // Walks each level from its leftmost page along FIL_PAGE_NEXT.
  std::vector<LevelCensus> Census() const;
  // Calls f for every key in order (leaf level, left to right).
  void ForEachKey(const std::function<void(const Key&)>& f) const;
  // Checks every invariant; "" if all hold, else the first violation.
  std::string Verify() const;

 private:
  // The most levels a tree of the model has: 16 levels of the smallest
  // pages already hold more rows than any run (a modelling bound, not an
  // InnoDB one: BTR_MAX_LEVELS in include/btr0btr.h is 100).
  static constexpr int kMaxHeight = 16;
  struct Path {
    uint32_t pages[kMaxHeight];
    int height = 0;
  };

  // btr_cur_search_to_nth_level with PAGE_CUR_LE: the page at `level` whose
  // key range holds k. Fixes every page on the way.
  // With `route`, also records the pages fixed and the key range that
  // leads to the same page (for FastPath's route cache).
  uint32_t SearchToLevel(const Key& k, uint32_t level, LeafRouteCache::Route* route = nullptr);
  // SearchToLevel(k, 0), or the same route from FastPath (seam 1): the same
  // pages fixed in the same order, without searching them. Inline: a known
  // route is most rows' whole descent.
  uint32_t SearchLeaf(const Key& k) {
    const FastPath::Found f = fast_.FindLeaf(k);
    if (f.pages != nullptr) {
      if (sink_ != nullptr) {
        for (int i = 0; i < f.height; ++i) Access(f.pages[i]);
      }
      return f.leaf;
    }
    if (!f.remember) return SearchToLevel(k, 0);
    return DescendAndRemember(k);
  }
  // SearchToLevel(k, 0), its route handed to FastPath.
  uint32_t DescendAndRemember(const Key& k);
  // Cursor on a page for inserting k: last record < k on a leaf; last
  // record <= k on a non-leaf page, the leftmost page's first record
  // standing for minus infinity (REC_INFO_MIN_REC_FLAG).
  int NonLeafCursor(const IndexPage& p, const Key& k) const;

  // btr_cur_optimistic_insert; false for DB_FAIL.
  bool OptimisticInsert(uint32_t page_no, int cursor, const Key& key, uint32_t child);
  // btr_cur_pessimistic_insert.
  void PessimisticInsert(uint32_t page_no, int cursor, const Key& key, uint32_t child);
  // btr_insert_on_non_leaf_level.
  void InsertOnNonLeafLevel(uint32_t level, const Key& key, uint32_t child);
  // btr_root_raise_and_insert.
  void RootRaiseAndInsert(const Key& key, uint32_t child);
  // btr_page_split_and_insert.
  void SplitAndInsert(uint32_t page_no, int cursor, const Key& key, uint32_t child);
  // btr_insert_into_right_sibling; false if it did not apply or fit.
  bool InsertIntoRightSibling(uint32_t page_no, int cursor, const Key& key, uint32_t child);
  // The position of the record with `key` on its leaf (*leaf), or -1: a
  // search to the leaf, its pages fixed.
  int FindRecord(const Key& key, uint32_t* leaf);
  // btr_page_get_father: the parent page and the position of the node
  // pointer to `page_no` in it.
  void GetFather(uint32_t page_no, uint32_t* parent, int* pos);
  // btr_cur_pessimistic_delete of a node pointer; true if the page was
  // compressed (merged away).
  bool PessimisticDeleteNodePtr(uint32_t page_no, int pos);
  // btr_node_ptr_delete: removes the parent's pointer to page_no.
  void NodePtrDelete(uint32_t page_no);
  // btr_discard_page: unlinks and frees a page whose last record goes,
  // with its node pointer.
  void DiscardPage(uint32_t page_no);
  // btr_lift_page_up: `page_no`, not the root, is the only page of its
  // level (so every page above it is too, with one node pointer each). Its
  // records go to its father, emptied to its level (btr_page_empty, then
  // page_copy_rec_list_end onto the empty page), the pages above the father
  // go down a level, and the page is freed: the tree is a level lower. A
  // leaf whose father is not the root lifts its father instead, into the
  // grandfather (a leaf's records only ever go up into the root). Returns
  // the page that holds the records now.
  uint32_t LiftPageUp(uint32_t page_no);
  // btr_cur_compress_if_useful / btr_cur_compress_recommendation / btr_compress.
  bool CompressIfUseful(uint32_t page_no);
  bool Compress(uint32_t page_no);
  // btr_can_merge_with_page; may reorganize the merge page.
  bool CanMergeWithPage(uint32_t page_no, uint32_t merge_page_no);
  // BulkLoad's state: per level, the page being filled and its records
  // so far (a scratch page: PageBulk::insert's appends).
  struct BulkLevel {
    uint32_t page_no = kFilNull;
    IndexPage scratch;
  };
  // BtrBulk::insert of one record at `level`.
  void BulkInsert(std::vector<BulkLevel>& lv, const Key& key, uint32_t child, uint16_t level, uint32_t reserved);
  // BtrBulk::pageCommit: PageBulk::finish (the directory as
  // page_copy_rec_list_end_to_created_page lays it), the sibling links,
  // and the node pointer into the parent level when `insert_father`.
  void BulkCommit(std::vector<BulkLevel>& lv, uint16_t level, uint32_t next, bool insert_father, uint32_t reserved);
  // PageBulk::init for a new page: fsp_reserve_free_extents(1), then
  // btr_page_alloc(index, 0, FSP_UP, level).
  uint32_t BulkAllocPage(uint16_t level);
  // The trace's events (only called with a trace sink; out of the insert
  // path's way).
  [[gnu::cold, gnu::noinline]] void TraceLeafReached(const Key& key, uint32_t leaf, int cursor);
  // kInserted, with the page's header after the insert.
  [[gnu::cold, gnu::noinline]] void TraceInserted(uint32_t page_no);
  [[gnu::cold, gnu::noinline]] void TraceStepOn(TraceStep step, const char* rule, const PageHeaderView& header);
  // btr_page_reorganize_low with its counters.
  void Reorganize(uint32_t page_no);
  // btr_page_alloc + btr_page_create / btr_page_free.
  uint32_t AllocPage(uint32_t hint, FspDirection dir, uint16_t level);
  void FreePage(uint32_t page_no);
  // With a sink: the XDES page and inode page an allocation or free of
  // `page_no` changes, fixed and modified in the current mtr.
  void TouchAllocationPages(uint32_t page_no);

  uint32_t RecSizeAt(uint16_t level) const { return level == 0 ? sizes_.leaf : sizes_.node_ptr; }
  IndexPage& P(uint32_t page_no) { return store_->page(page_no); }
  const IndexPage& P(uint32_t page_no) const { return store_->page(page_no); }

  // Page traffic for the buffer pool and the redo log.
  void Access(uint32_t page_no) {
    if (sink_ != nullptr) sink_->OnPageAccess(space_id_, page_no);
  }
  // A page this mtr has fixed (Access, or created) is changed by it.
  void Modify(uint32_t page_no) {
    if (sink_ != nullptr) sink_->OnPageModify(space_id_, page_no);
  }
  void CommitMtr() {
    if (sink_ != nullptr) {
      if (redo_ != nullptr && mtr_records_ > 0) mtr_redo_ += redo_->MtrEnd(mtr_records_);
      sink_->OnMtrCommit(mtr_redo_);
    }
    mtr_redo_ = 0;
    mtr_records_ = 0;
  }
  // Redo of the current mtr (only computed when a RedoFormat is set).
  void Log(uint32_t bytes) {
    mtr_redo_ += bytes;
    ++mtr_records_;
  }
  bool logging() const { return redo_ != nullptr && sink_ != nullptr; }
  // MLOG_COMP_REC_INSERT for the record just inserted after `cursor`.
  void LogInsert(uint32_t page_no, int cursor, const Key& key);
  // Mismatch bytes summed over consecutive records [from, to) of a page.
  uint64_t MismatchTotal(const IndexPage& p, int from, int to) const;

  EngineProfile profile_;
  Tablespace* space_;
  PageStore* store_;
  RecordSizes sizes_;
  bool clustered_;
  // Pages keep key tails (entries longer than 16 bytes; model/key.h).
  bool wide_keys_;
  uint32_t space_id_;
  PageEventSink* sink_;
  std::vector<uint32_t> bulk_built_;  // BulkLoad's pages, with a sink
  uint64_t mtr_redo_ = 0;
  uint32_t mtr_records_ = 0;
  const RedoFormat* redo_ = nullptr;
  uint64_t index_id_ = 0;

  Tablespace::SegmentId top_seg_ = 0;
  Tablespace::SegmentId leaf_seg_ = 0;
  uint32_t root_ = kFilNull;
  uint32_t page_size_;
  uint32_t space_reserve_;       // dict_index_get_space_reserve
  uint32_t reorganize_limit_;    // BTR_CUR_PAGE_REORGANIZE_LIMIT
  uint32_t compress_limit_;      // BTR_CUR_PAGE_COMPRESS_LIMIT
  IndexCounters counters_;
  uint64_t extern_pages_ = 0;  // StoreExtern's pages
  FastPath fast_;
  InsertTraceSink* trace_ = nullptr;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_BTREE_H_
