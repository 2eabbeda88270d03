// An nbtree index as PostgreSQL builds it by single inserts: block 0 the
// metapage, then leaf and internal pages in allocation order (relation
// extension one block at a time), the insert path of nbtinsert.c
// (_bt_search_insert with its rightmost-leaf fastpath, _bt_findinsertloc,
// _bt_insertonpg, _bt_split with _bt_findsplitloc and _bt_truncate,
// _bt_insert_parent, _bt_newlevel) and deduplication (nbtdedup.c
// _bt_dedup_pass) for non-unique indexes.
//
// Keys are innosim::Key values whose unsigned byte order is the index's
// order (the caller encodes each column so). Each leaf tuple also carries
// the heap TID of its row; heap TIDs are expected to ascend in insert order
// (the heap appends), so a new duplicate always sorts after its equals and
// no posting list ever needs to split (_bt_swap_posting is not modelled;
// an out-of-order TID makes status() an error).
//
// Report() gives pgstatindex's figures as pgstattuple's pgstatindex.c
// computes them, plus split counters. Verify() checks the invariants.
// Not thread-safe.
#ifndef INNOSIM_MODEL_POSTGRES_NBTREE_H_
#define INNOSIM_MODEL_POSTGRES_NBTREE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/key.h"
#include "model/postgres/buffer_manager.h"
#include "model/postgres/indexfsm.h"
#include "model/postgres/nbtree_trace.h"
#include "model/postgres/page_layout.h"
#include "model/postgres/pg_type.h"
#include "model/postgres/profile.h"
#include "model/postgres/split_point.h"
#include "model/postgres/wal.h"

namespace innosim::postgres {

// A heap TID packed as block << 16 | offset (ItemPointerData order).
using HeapTid = uint64_t;
constexpr HeapTid MakeHeapTid(uint32_t block, uint16_t offset) { return (uint64_t{block} << 16) | offset; }

// One key column of an index: its type, the bytes it takes in the Key
// (its order-preserving encoding), and for a varlena its payload bytes in
// the index tuple.
struct BtKeyColumn {
  PgType type = PgType::kInt8;
  int key_bytes = 8;
  int varlena_bytes = 0;
};

struct BtIndexDesc {
  std::string name;
  std::vector<BtKeyColumn> columns;  // 1..8 key columns
  bool unique = false;
  int fillfactor = kBtreeDefaultFillfactor;  // index reloption fillfactor (10..100)
  bool deduplicate_items = true;             // index reloption deduplicate_items (PG13+ default on)
};

// pgstatindex's columns (pgstattuple/pgstatindex.c), plus the model's own
// counters.
struct PgStatIndex {
  int version = 4;             // BTREE_VERSION
  int tree_level = 0;          // metapage btm_level
  uint64_t index_size = 0;     // bytes: (1 + leaf + internal + empty + deleted) * BLCKSZ
  uint32_t root_block_no = 0;  // metapage btm_root
  uint64_t internal_pages = 0;
  uint64_t leaf_pages = 0;
  uint64_t empty_pages = 0;
  uint64_t deleted_pages = 0;
  double avg_leaf_density = 0;    // 100 - free_space / max_avail * 100 (pgstatindex prints %.2f)
  double leaf_fragmentation = 0;  // fragments / leaf_pages * 100
  uint64_t relpages = 0;          // blocks of the relation, metapage included
};

struct BtCounters {
  uint64_t leaf_splits[5] = {};      // by SplitKind
  uint64_t internal_splits[5] = {};  // by SplitKind
  uint64_t new_roots = 0;            // _bt_newlevel
  uint64_t dedup_passes = 0;         // _bt_dedup_pass that rewrote the page
  uint64_t dedup_split_avoided = 0;  // ... after which the new tuple fitted
  uint64_t fastpath_inserts = 0;     // _bt_search_insert's rightmost-leaf fastpath
  uint64_t inserts = 0;
};

class BtIndex {
 public:
  BtIndex(const PgProfile& profile, const BtIndexDesc& desc);

  // _bt_doinsert: one index tuple for `key` pointing at heap TID `tid`.
  // A duplicate in a unique index is an error (unique_violation).
  void Insert(const Key& key, HeapTid tid);

  // From now on every change writes its WAL record into `wal` (relation
  // `relation` of it): nbtinsert.c's and nbtpage.c's XLogInsert calls.
  void AttachWal(Wal* wal, int relation) {
    wal_ = wal;
    wal_rel_ = relation;
  }

  // From now on every page the insert path reads, extends or holds goes
  // through `buffers` (relation `relation` of it): ReadBuffer on the
  // descent (and the cached rightmost leaf, the old right sibling and the
  // parent a split changes, the metapage when the root changes),
  // ExtendBuffer for each new block; the pins are released at the insert's
  // end. nullptr: none.
  void AttachBuffers(BufferManager* buffers, int relation) {
    buffers_ = buffers;
    buf_rel_ = relation;
  }

  PgStatIndex StatIndex() const;
  const BtCounters& counters() const { return counters_; }
  const BtIndexDesc& desc() const { return desc_; }
  absl::Status status() const { return status_; }
  // "" or the first violated invariant.
  std::string Verify() const;

  // Reports every step of every insert to `sink` (nullptr: none); the
  // sink must outlive the inserts (model/postgres/nbtree_trace.h).
  void set_trace(BtTraceSink* sink) { trace_ = sink; }
  // Block `block` as it stands (an empty view for the metapage or a block
  // out of range).
  BtPageView View(uint32_t block) const;
  // The leaf level from left to right (along btpo_next).
  std::vector<uint32_t> LeavesInKeyOrder() const;

  // The model's own bytes for one index tuple (a leaf item in its page's
  // vector): what each row costs in memory, per index.
  static constexpr size_t ModelTupleBytes();
  // Size of a plain leaf tuple of this index (MAXALIGNed IndexTupleSize).
  int leaf_tuple_size() const { return plain_size_[nkeyatts_]; }
  uint32_t nblocks() const { return static_cast<uint32_t>(pages_.size()); }
  // The index's free space map (indexfsm.c): recyclable deleted pages
  // that VACUUM recorded, handed out again by AllocBlock.
  const IndexFsm& fsm() const { return fsm_; }

 private:
  // VACUUM's page deletion (vacuum.h) and REINDEX's sorted build
  // (nbtsort.h) work on the pages directly.
  friend class BtVacuum;
  friend class BtSortBuild;

  // An index tuple. Leaf: a plain tuple (count 1) or a posting list
  // (count > 1 heap TIDs, tid lowest, aux highest). Pivot (internal page
  // or high key): aux is the downlink block, count the key attributes
  // kept (0: minus infinity), tid the heap TID when kPivotHeapTid is set.
  struct Item {
    Key key;
    uint64_t tid : 48;
    uint64_t size : 16;
    uint64_t aux : 48;
    uint64_t count : 16;
  };
  // The model's flag bit in a pivot's `count`, playing the part of
  // nbtree.h's BT_PIVOT_HEAP_TID_ATTR (0x1000 in the pivot's t_tid offset):
  // any bit above the largest key-attribute count (INDEX_MAX_KEYS 32) does.
  static constexpr uint64_t kPivotHeapTid = 0x8000;

  struct Page {
    std::vector<Item> items;  // data items in offset order (high key apart)
    Item hikey{};
    bool has_hikey = false;  // !P_RIGHTMOST
    uint32_t prev = kPNone;  // btpo_prev
    uint32_t next = kPNone;  // btpo_next
    uint32_t level = 0;      // btpo_level
    int tuple_bytes = 0;     // MAXALIGNed sizes of all tuples, high key included
    bool half_dead = false;  // BTP_HALF_DEAD: a leaf whose downlink is gone (hikey.aux: the top parent)
    bool deleted = false;    // BTP_DELETED: unlinked from its siblings, waiting to be recycled
    uint64_t safexid = 0;    // BTPageSetDeleted: ReadNextFullTransactionId() when it was deleted
    int lower() const { return kSizeOfPageHeaderData + kSizeOfItemIdData * (static_cast<int>(items.size()) + has_hikey); }
    int upper() const { return kBlckSz - MaxAlign(kSizeOfBTPageOpaqueData) - tuple_bytes; }
  };
  struct StackEntry {
    uint32_t block;
    int offset;  // index of the downlink followed
  };

  uint32_t AllocBlock();  // _bt_allocbuf / _bt_getbuf(P_NEW): a recycled page, else extend by one block
  int KeepNattsFast(const Item& a, const Item& b) const;
  int ComparePivot(const Key& key, HeapTid tid, const Item& pivot) const;
  int CompareLeaf(const Key& key, HeapTid tid, const Item& item) const;
  Key MaskKey(const Key& key, int natts) const;
  Item Truncate(const Item& lastleft, const Item& firstright) const;
  uint32_t Search(const Key& key, HeapTid tid);
  bool DedupPass(Page& page, const Item& newitem);
  // `child`: the left child whose split this downlink finishes (kPNone
  // for a leaf insert).
  void InsertOnPage(uint32_t block, int pos, const Item& item, int stack_depth, uint32_t child);
  void Split(uint32_t block, int pos, const Item& item, int stack_depth, uint32_t child);
  void LogBlock(WalRecord& r, uint32_t block, int flags, int data_bytes) const;
  void NewLevel(uint32_t left, uint32_t right, const Item& left_hikey);
  // REINDEX's new relfilenode once nbtsort.c wrote it: the old file's
  // buffers dropped at commit, each new page WAL-logged as an image
  // (Wal::LogNewPages), the metapage last (_bt_uppershutdown).
  void NewRelfilenodeWritten();
  static void AddTuple(Page& page, int pos, const Item& item);
  static void Recount(Page& page);

  PgProfile profile_;
  BtIndexDesc desc_;
  int nkeyatts_;
  bool allequalimage_;
  std::vector<int> plain_size_;    // [k]: IndexTupleSize of a tuple keeping the first k key columns
  std::vector<Key> natts_mask_;    // [k]: the Key bytes of the first k key columns
  std::vector<Page> pages_;        // by block number; block 0 is the metapage (unused here)
  IndexFsm fsm_;
  uint64_t last_cleanup_num_delpages_ = 0;  // metapage btm_last_cleanup_num_delpages
  uint32_t root_ = kPNone;         // metapage btm_root
  uint32_t root_level_ = 0;        // metapage btm_level
  uint32_t cached_block_ = kPNone; // RelationGetTargetBlock: the fastpath's rightmost leaf
  HeapTid last_tid_ = 0;
  std::vector<StackEntry> stack_;  // BTStack of the current descent, root first
  SplitPointFinder finder_;
  std::vector<uint16_t> split_sizes_;
  std::vector<uint16_t> split_posting_;
  std::vector<Item> scratch_;
  BtCounters counters_;
  Wal* wal_ = nullptr;
  int wal_rel_ = 0;
  BufferManager* buffers_ = nullptr;
  int buf_rel_ = 0;
  uint32_t amcache_root_ = kPNone;  // the root the relcache's metapage copy names (rd_amcache)
  void Fetch(uint32_t block) {
    if (buffers_ != nullptr) buffers_->ReadBuffer(buf_rel_, block);
  }
  absl::Status status_;
  BtTraceSink* trace_ = nullptr;
  // The last _bt_dedup_pass: posting lists formed, single-value strategy.
  int dedup_nintervals_ = 0;
  bool dedup_singleval_ = false;
};

constexpr size_t BtIndex::ModelTupleBytes() { return sizeof(Item); }

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_NBTREE_H_
