#include "model/postgres/nbtsort.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"

namespace innosim::postgres {
// BTPageState: one level's page under construction.
struct BtSortBuild::Level {
  uint32_t level = 0;
  uint32_t blkno = 0;      // btps_blkno
  BtIndex::Page page;      // btps_page
  BtIndex::Item lowkey{};  // btps_lowkey
  int full = 0;            // btps_full
  int lastextra = 0;       // btps_lastextra
};

class BtSortBuild::Writer {
 public:
  explicit Writer(BtIndex& ix) : ix_(ix) { pages_.emplace_back(); }  // block 0: the metapage

  // _bt_buildadd.
  void BuildAdd(size_t lvl, BtIndex::Item itup, int truncextra) {
    if (!ix_.status_.ok()) return;
    if (lvl == levels_.size()) PageState(static_cast<uint32_t>(lvl));
    Level& st = *levels_[lvl];
    const bool isleaf = st.level == 0;
    const int itupsz = MaxAlign(static_cast<int>(itup.size));
    if (itupsz > kBTMaxItemSize) {
      ix_.status_ = absl::InvalidArgumentError(absl::StrCat("index row size ", itupsz, " exceeds btree maximum, ",
                                                            kBTMaxItemSize, ", for index \"", ix_.desc_.name, "\""));
      return;
    }
    const int pgspc = PageGetFreeSpace(st.page.lower(), st.page.upper());
    // btps_lastextra: the posting list bytes of the page's last tuple, the
    // one that would become the high key (and lose them) if the page ended.
    const int last_truncextra = st.lastextra;
    st.lastextra = truncextra;
    // Full when the tuple (and, on a leaf, a heap TID that suffix
    // truncation may append to the high key) does not fit, or when the
    // page, counting the last tuple's posting list as free, is past its
    // fillfactor and holds two tuples or more.
    if (pgspc < itupsz + (isleaf ? MaxAlign(kSizeOfItemPointerData) : 0) ||
        (pgspc + last_truncextra < st.full && st.page.items.size() > 1)) {
      BtIndex::Page opage = std::move(st.page);
      const uint32_t oblkno = st.blkno;
      BtIndex::Page npage = NewPage(st.level);
      const uint32_t nblkno = Alloc();
      // The old page's last tuple moves to the new page; on an internal
      // page it becomes the minus-infinity first item there.
      const BtIndex::Item oitup = opage.items.back();
      opage.items.pop_back();
      npage.items.push_back(isleaf ? oitup : MinusInfinity(oitup));
      // Its key becomes the old page's high key: _bt_truncate against the
      // tuple before it on a leaf, the pivot as it is on an internal page.
      BtIndex::Item hikey = isleaf && !opage.items.empty() ? ix_.Truncate(opage.items.back(), oitup) : oitup;
      hikey.aux = kPNone;
      opage.hikey = hikey;
      opage.has_hikey = true;
      BtIndex::Recount(opage);
      BtIndex::Recount(npage);
      // The old page's low key goes one level up as its downlink.
      BtIndex::Item downlink = st.lowkey;
      downlink.aux = oblkno;
      BuildAdd(lvl + 1, downlink, 0);
      Level& st2 = *levels_[lvl];  // levels_ may have grown
      st2.lowkey = hikey;
      opage.next = nblkno;
      npage.prev = oblkno;
      WritePage(oblkno, std::move(opage));
      st2.page = std::move(npage);
      st2.blkno = nblkno;
    }
    Level& s = *levels_[lvl];
    if (s.page.items.empty()) {
      // The level's first tuple: its low key is minus infinity.
      s.lowkey = MinusInfinity(BtIndex::Item{});
    }
    // _bt_sortaddtup: an internal page's first data item is stored truncated.
    const BtIndex::Item add = !isleaf && s.page.items.empty() ? MinusInfinity(itup) : itup;
    s.page.items.push_back(add);
    s.page.tuple_bytes += MaxAlign(static_cast<int>(add.size));
  }

  // _bt_uppershutdown: each level's last page gets its downlink one level
  // up (or, at the top, becomes the root) and loses its high key slot
  // (_bt_slideleft); then the metapage points at the root.
  void UpperShutdown() {
    for (size_t l = 0; l < levels_.size() && ix_.status_.ok(); ++l) {
      if (l + 1 == levels_.size()) {
        root_ = levels_[l]->blkno;
        root_level_ = levels_[l]->level;
      } else {
        BtIndex::Item downlink = levels_[l]->lowkey;
        downlink.aux = levels_[l]->blkno;
        BuildAdd(l + 1, downlink, 0);
      }
      Level& s = *levels_[l];
      s.page.has_hikey = false;
      s.page.hikey = BtIndex::Item{};
      BtIndex::Recount(s.page);
      WritePage(s.blkno, std::move(s.page));
    }
  }

  void Install() {
    ix_.pages_ = std::move(pages_);
    ix_.root_ = root_;
    ix_.root_level_ = root_level_;
    ix_.cached_block_ = kPNone;  // a new relfilenode: no target block cached
    ix_.fsm_.Reset();
    ix_.last_cleanup_num_delpages_ = 0;
    ix_.stack_.clear();
  }

 private:
  // _bt_pagestate: a level's first page takes the next block number.
  void PageState(uint32_t level) {
    auto s = std::make_unique<Level>();
    s->level = level;
    s->page = NewPage(level);
    s->blkno = Alloc();
    // btps_full: leaves BTGetTargetPageFreeSpace (the fillfactor reloption),
    // upper levels BTREE_NONLEAF_FILLFACTOR.
    s->full =
        level > 0 ? kBlckSz * (100 - kBtreeNonleafFillfactor) / 100 : kBlckSz * (100 - ix_.desc_.fillfactor) / 100;
    levels_.push_back(std::move(s));
  }
  // _bt_blnewpage: an empty page with its high key's line pointer reserved.
  static BtIndex::Page NewPage(uint32_t level) {
    BtIndex::Page p;
    p.level = level;
    p.has_hikey = true;
    p.hikey = BtIndex::Item{};
    return p;
  }
  static BtIndex::Item MinusInfinity(BtIndex::Item it) {
    it.key = Key{};
    it.tid = 0;
    it.count = 0;
    it.size = static_cast<uint64_t>(MaxAlign(kSizeOfIndexTupleData));
    return it;
  }
  uint32_t Alloc() {
    pages_.emplace_back();
    return static_cast<uint32_t>(pages_.size() - 1);
  }
  void WritePage(uint32_t blk, BtIndex::Page page) { pages_[blk] = std::move(page); }

  BtIndex& ix_;
  std::vector<BtIndex::Page> pages_;
  std::vector<std::unique_ptr<Level>> levels_;
  uint32_t root_ = kPNone;
  uint32_t root_level_ = 0;
};

void BtSortBuild::Build(BtIndex& ix, std::span<const BtDeadTuple> dead) {
  if (!ix.status_.ok()) return;
  const std::vector<uint32_t> leaves = ix.LeavesInKeyOrder();
  // The heap scan's live tuples, sorted (tuplesort): the index's own
  // entries, each heap TID once, less those of dead tuples. A posting list
  // whose TIDs the model keeps only as lowest, highest and count gives
  // count TIDs within those bounds.
  std::vector<BtDeadTuple> tuples;
  std::vector<BtDeadTuple>* out = &tuples;
  for (uint32_t blk : leaves) {
    for (const BtIndex::Item& it : ix.pages_[blk].items) {
      const BtDeadTuple lo{it.key, it.tid};
      const BtDeadTuple hi{it.key, it.aux};
      const auto first = std::lower_bound(dead.begin(), dead.end(), lo);
      const auto last = std::upper_bound(first, dead.end(), hi);
      const uint64_t ndead = std::min<uint64_t>(static_cast<uint64_t>(last - first), it.count);
      const uint64_t live = it.count - ndead;
      if (live == 0) continue;
      auto is_dead = [&](HeapTid t) { return std::binary_search(first, last, BtDeadTuple{it.key, t}); };
      uint64_t low = it.tid, high = it.aux;
      while (is_dead(low) && low < high) ++low;
      while (is_dead(high) && high > low) --high;
      if (live == 1) {
        out->push_back(BtDeadTuple{it.key, low});
        continue;
      }
      for (uint64_t i = 0; i + 1 < live; ++i) out->push_back(BtDeadTuple{it.key, low + i});
      out->push_back(BtDeadTuple{it.key, std::max<uint64_t>(high, low + live - 1)});
    }
  }

  Writer w(ix);
  const int plain = ix.plain_size_[ix.nkeyatts_];
  auto plain_item = [&](const BtDeadTuple& t) {
    BtIndex::Item it{};
    it.key = t.key;
    it.tid = t.tid;
    it.aux = t.tid;
    it.size = static_cast<uint64_t>(plain);
    it.count = 1;
    return it;
  };
  // _bt_load: deduplication when the index is not unique, deduplicate_items
  // is on and every key column is equal-image.
  const bool deduplicate = !ix.desc_.unique && ix.desc_.deduplicate_items && ix.allequalimage_;
  if (!deduplicate) {
    for (const BtDeadTuple& t : tuples) w.BuildAdd(0, plain_item(t), 0);
  } else {
    // maxpostingsize: a tenth of the page (the space fillfactor 90 leaves
    // behind) less the final item's line pointer.
    const int maxpostingsize = MaxAlignDown(kBlckSz * 10 / 100) - kSizeOfItemIdData;
    BtIndex::Item base{};
    int nhtids = 0;
    auto finish_pending = [&]() {
      // _bt_sort_dedup_finish_pending.
      if (nhtids == 1) {
        w.BuildAdd(0, base, 0);
        return;
      }
      BtIndex::Item posting = base;
      posting.count = static_cast<uint64_t>(nhtids);
      posting.size = static_cast<uint64_t>(PostingTupleSize(plain, nhtids));
      w.BuildAdd(0, posting, static_cast<int>(posting.size) - plain);
    };
    for (size_t i = 0; i < tuples.size(); ++i) {
      const BtIndex::Item itup = plain_item(tuples[i]);
      if (i > 0 && ix.KeepNattsFast(base, itup) > ix.nkeyatts_ &&
          MaxAlign(plain + (nhtids + 1) * kSizeOfItemPointerData) <= maxpostingsize) {
        // _bt_dedup_save_htid: the TID joins the pending posting list.
        ++nhtids;
        base.aux = itup.tid;
        continue;
      }
      if (i > 0) finish_pending();
      base = itup;  // _bt_dedup_start_pending
      nhtids = 1;
    }
    if (!tuples.empty()) finish_pending();
  }
  w.UpperShutdown();
  if (!ix.status_.ok()) return;
  w.Install();
  ix.NewRelfilenodeWritten();
}

uint64_t BtSortBuild::CountTuples(const BtIndex& ix) {
  uint64_t n = 0;
  for (uint32_t blk : ix.LeavesInKeyOrder()) {
    for (const BtIndex::Item& it : ix.pages_[blk].items) n += it.count;
  }
  return n;
}

}  // namespace innosim::postgres
