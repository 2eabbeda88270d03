#include "model/postgres/vacuum.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace innosim::postgres {

// BTVacState: the scan's position (scanblkno), its statistics, the pages
// it deleted with their safexid (_bt_pendingfsm_add, in safexid order).
struct BtVacuum::Scan {
  uint32_t scanblkno = 0;
  uint64_t next_xid = 0;
  BtVacuumStats* stats = nullptr;
  std::span<const BtDeadTuple> dead;
  std::vector<std::pair<uint32_t, uint64_t>> pending;
};

namespace {

// GlobalVisCheckRemovableFullXid on a quiet server: the xid precedes every
// snapshot's xmin, i.e. ReadNextFullTransactionId() has moved past it.
bool Removable(uint64_t xid, uint64_t next_xid) { return xid < next_xid; }

}  // namespace

BtVacuumStats BtVacuum::BulkDelete(BtIndex& ix, std::span<const BtDeadTuple> dead, uint64_t next_xid) {
  BtVacuumStats stats;
  VacuumScan(ix, dead, /*cleanuponly=*/false, next_xid, &stats);
  return stats;
}

BtVacuumStats BtVacuum::VacuumCleanup(BtIndex& ix, const BtVacuumStats* stats, uint64_t next_xid) {
  BtVacuumStats out;
  if (stats == nullptr) {
    // _bt_vacuum_needs_cleanup: a cleanup-only scan when the deleted pages
    // the last VACUUM could not put in the FSM exceed 5% of the index's
    // blocks (RelationGetNumberOfBlocks / 20); else btvacuumcleanup returns
    // NULL and the metapage is left alone.
    const uint64_t prev_num_delpages = ix.last_cleanup_num_delpages_;
    if (!(prev_num_delpages > 0 && prev_num_delpages > ix.pages_.size() / 20)) return out;
    VacuumScan(ix, {}, /*cleanuponly=*/true, next_xid, &out);
  } else {
    out = *stats;
  }
  // btvacuumcleanup: num_delpages = pages_deleted - pages_free, kept in
  // the metapage by _bt_set_cleanup_info.
  ix.last_cleanup_num_delpages_ = out.pages_deleted - out.pages_free;
  return out;
}

bool BtVacuum::FindTid(const BtIndex& ix, const Key& key, HeapTid* tid) {
  if (ix.root_ == kPNone) return false;
  // _bt_search with the lowest heap TID: equal pivots that carry a heap
  // TID lead left, truncated ones right (their TID is minus infinity).
  uint32_t blk = ix.root_;
  while (ix.pages_[blk].level > 0) {
    const BtIndex::Page& p = ix.pages_[blk];
    int lo = 1, hi = static_cast<int>(p.items.size());
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (ix.ComparePivot(key, 0, p.items[mid]) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    blk = static_cast<uint32_t>(p.items[lo - 1].aux);
  }
  // _bt_binsrch on the leaf; an empty leaf's key space may continue right.
  for (; blk != kPNone; blk = ix.pages_[blk].next) {
    const BtIndex::Page& p = ix.pages_[blk];
    const auto it = std::lower_bound(p.items.begin(), p.items.end(), key,
                                     [](const BtIndex::Item& a, const Key& k) { return a.key < k; });
    if (it != p.items.end()) {
      if (!(it->key == key)) return false;
      *tid = it->tid;
      return true;
    }
    if (p.has_hikey && ix.ComparePivot(key, 0, p.hikey) <= 0) return false;
  }
  return false;
}

void BtVacuum::ForEachLeafTuple(const BtIndex& ix, const std::function<void(const Key&, HeapTid)>& f) {
  for (uint32_t blk : ix.LeavesInKeyOrder()) {
    for (const BtIndex::Item& it : ix.pages_[blk].items) f(it.key, it.tid);
  }
}

uint64_t BtVacuum::LastCleanupNumDelpages(const BtIndex& ix) { return ix.last_cleanup_num_delpages_; }

// btvacuumscan: every block after the metapage in block order (no split
// can add blocks meanwhile here, so one pass), then _bt_pendingfsm_finalize
// and IndexFreeSpaceMapVacuum (the FSM here needs no upper levels updated).
void BtVacuum::VacuumScan(BtIndex& ix, std::span<const BtDeadTuple> dead, bool cleanuponly, uint64_t next_xid,
                          BtVacuumStats* stats) {
  Scan scan;
  scan.next_xid = next_xid;
  scan.stats = stats;
  scan.dead = dead;
  const uint32_t num_pages = static_cast<uint32_t>(ix.pages_.size());
  stats->num_pages = num_pages;
  for (uint32_t blk = 1; blk < num_pages && ix.status_.ok(); ++blk) {
    scan.scanblkno = blk;
    VacuumPage(ix, scan, blk);
  }
  // _bt_pendingfsm_finalize (not for a cleanup-only scan: _bt_pendingfsm_init
  // skips the optimization then, and the pages wait for the next scan).
  // The pages are in safexid order: stop at the first one still needed.
  if (!cleanuponly) {
    for (const auto& [target, safexid] : scan.pending) {
      if (!Removable(safexid, next_xid)) break;
      ix.fsm_.RecordFreeIndexPage(target);
      ++stats->pages_free;
    }
  }
}

// btvacuumpage for block `blkno`.
void BtVacuum::VacuumPage(BtIndex& ix, Scan& scan, uint32_t blkno) {
  BtIndex::Page& page = ix.pages_[blkno];
  if (page.deleted) {
    // BTPageIsRecyclable: a deleted page whose safexid no snapshot can
    // still need goes (again) into the FSM; either way it counts as deleted.
    if (Removable(page.safexid, scan.next_xid)) {
      ix.fsm_.RecordFreeIndexPage(blkno);
      ++scan.stats->pages_free;
    }
    ++scan.stats->pages_deleted;
    return;
  }
  bool attempt_pagedel = false;
  if (page.half_dead) {
    attempt_pagedel = true;  // a half-dead leaf: finish deleting it
  } else if (page.level == 0) {
    if (!scan.dead.empty()) RemoveDead(ix, blkno, scan.dead, scan.stats);
    // minoff > maxoff: the leaf is empty (also in a cleanup-only scan).
    attempt_pagedel = ix.pages_[blkno].items.empty();
  }
  if (attempt_pagedel) PageDelAt(ix, scan, blkno);
}

// btvacuumpage's callback loop and _bt_delitems_vacuum: plain tuples whose
// heap TID is dead go; a posting list loses its dead TIDs
// (btreevacuumposting) and goes when none is left. The model keeps a
// posting list's lowest and highest TID only: when one of those goes, the
// new bound is the next TID not known dead (an order-keeping bound; the
// page's bytes do not depend on it).
void BtVacuum::RemoveDead(BtIndex& ix, uint32_t blkno, std::span<const BtDeadTuple> dead, BtVacuumStats* stats) {
  BtIndex::Page& page = ix.pages_[blkno];
  const int plain = ix.plain_size_[ix.nkeyatts_];
  size_t out = 0;
  bool changed = false;
  for (size_t i = 0; i < page.items.size(); ++i) {
    BtIndex::Item it = page.items[i];
    const BtDeadTuple lo{it.key, it.tid};
    const BtDeadTuple hi{it.key, it.aux};
    const auto first = std::lower_bound(dead.begin(), dead.end(), lo);
    const auto last = std::upper_bound(first, dead.end(), hi);
    const uint64_t ndead = static_cast<uint64_t>(last - first);
    if (ndead == 0) {
      page.items[out++] = it;
      continue;
    }
    changed = true;
    const uint64_t removed = std::min<uint64_t>(ndead, it.count);
    stats->tuples_removed += removed;
    if (removed >= it.count) continue;  // every TID dead: the tuple goes
    // A posting list keeps count - removed TIDs.
    auto is_dead = [&](HeapTid t) { return std::binary_search(first, last, BtDeadTuple{it.key, t}); };
    const bool low_dead = is_dead(it.tid);
    const bool high_dead = is_dead(it.aux);
    uint64_t low = it.tid, high = it.aux;
    while (is_dead(low) && low < high) ++low;
    while (is_dead(high) && high > low) --high;
    it.count -= removed;
    if (it.count == 1) {
      // The one TID left: an exact bound when it is one of the two known.
      const HeapTid only = !low_dead ? it.tid : !high_dead ? it.aux : low;
      it.tid = only;
      it.aux = only;
      it.size = static_cast<uint64_t>(plain);
    } else {
      it.tid = low;
      it.aux = high;
      it.size = static_cast<uint64_t>(PostingTupleSize(plain, static_cast<int>(it.count)));
    }
    page.items[out++] = it;
  }
  if (!changed) return;
  page.items.resize(out);
  BtIndex::Recount(page);
}

// The internal page at level(child) + 1 holding the downlink to `child`,
// and the downlink's offset (0-based among the data items). _bt_pagedel
// finds it by a search for the leaf's high key (_bt_search with
// pivotsearch, then _bt_getstackbuf moving right); here: the same descent,
// then a walk right along the level, then the whole level from its left.
uint32_t BtVacuum::ParentOf(const BtIndex& ix, uint32_t child, int* offset) {
  const BtIndex::Page& c = ix.pages_[child];
  const uint32_t level = c.level + 1;
  if (ix.root_ == kPNone || ix.root_level_ < level) return kPNone;
  auto find_in = [&](uint32_t blk) -> bool {
    const BtIndex::Page& p = ix.pages_[blk];
    for (size_t i = 0; i < p.items.size(); ++i) {
      if (p.items[i].aux == child) {
        *offset = static_cast<int>(i);
        return true;
      }
    }
    return false;
  };
  uint32_t blk = ix.root_;
  if (c.has_hikey && !c.half_dead) {
    // Descend by the child's high key: the last downlink whose pivot is
    // below it (an equal pivot leads left: pivotsearch).
    const BtIndex::Item& hk = c.hikey;
    while (ix.pages_[blk].level > level) {
      const BtIndex::Page& p = ix.pages_[blk];
      int lo = 1, hi = static_cast<int>(p.items.size());
      while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (ix.ComparePivot(hk.key, hk.tid, p.items[mid]) > 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      blk = static_cast<uint32_t>(p.items[lo - 1].aux);
    }
    for (uint32_t b = blk; b != kPNone; b = ix.pages_[b].next) {
      if (find_in(b)) return b;
    }
  }
  blk = ix.root_;
  while (ix.pages_[blk].level > level) blk = static_cast<uint32_t>(ix.pages_[blk].items[0].aux);
  for (uint32_t b = blk; b != kPNone; b = ix.pages_[b].next) {
    if (find_in(b)) return b;
  }
  return kPNone;
}

// _bt_lock_subtree_parent: the parent of `child` and the downlink's
// offset when the downlink is not the parent's last; when it is the last,
// only if it is also the parent's only downlink and the parent is not the
// rightmost page of its level, the parent joins the subtree to delete and
// the question moves one level up.
bool BtVacuum::LockSubtreeParent(const BtIndex& ix, uint32_t child, uint32_t* subtreeparent, int* poffset,
                                 uint32_t* topparent, uint32_t* topparentrightsib) {
  int parentoffset = 0;
  const uint32_t parent = ParentOf(ix, child, &parentoffset);
  if (parent == kPNone) return false;  // "failed to re-find parent key"
  const BtIndex::Page& p = ix.pages_[parent];
  const int maxoff = static_cast<int>(p.items.size()) - 1;
  if (parentoffset < maxoff) {
    *subtreeparent = parent;
    *poffset = parentoffset;
    return true;
  }
  // The child is the parent's rightmost child.
  if (parentoffset != 0 || !p.has_hikey) return false;  // not the only child, or the parent is rightmost
  *topparent = parent;
  *topparentrightsib = p.next;
  return LockSubtreeParent(ix, parent, subtreeparent, poffset, topparent, topparentrightsib);
}

bool BtVacuum::MarkPageHalfDead(BtIndex& ix, uint32_t leaf) {
  if (leaf == kBtreeMetapage || leaf >= ix.pages_.size()) return false;
  BtIndex::Page& page = ix.pages_[leaf];
  // _bt_pagedel's checks: never the rightmost page of the level, never the
  // root, only an empty leaf.
  if (page.deleted || page.half_dead || page.level != 0 || !page.has_hikey || leaf == ix.root_ || !page.items.empty()) {
    return false;
  }
  // _bt_mark_page_halfdead.
  const uint32_t leafrightsib = page.next;
  // _bt_rightsib_halfdeadflag: a half-dead right sibling has no downlink.
  if (ix.pages_[leafrightsib].half_dead) return false;
  uint32_t topparent = leaf;
  uint32_t topparentrightsib = leafrightsib;
  uint32_t subtreeparent = kPNone;
  int poffset = 0;
  if (!LockSubtreeParent(ix, leaf, &subtreeparent, &poffset, &topparent, &topparentrightsib)) return false;
  BtIndex::Page& parent = ix.pages_[subtreeparent];
  if (parent.items[poffset + 1].aux != topparentrightsib) {
    ix.status_ = absl::InternalError(absl::StrCat("right sibling ", topparentrightsib, " of block ", topparent,
                                                  " is not next child of block ", subtreeparent, " in index \"",
                                                  ix.desc_.name, "\""));
    return false;
  }
  // The key space moves right: the downlink to the top parent now leads
  // to its right sibling, and the right sibling's own pivot goes.
  parent.items[poffset].aux = topparentrightsib;
  parent.items.erase(parent.items.begin() + poffset + 1);
  BtIndex::Recount(parent);
  // The leaf: BTP_HALF_DEAD, its high key a bare IndexTupleData whose TID
  // links to the top parent (InvalidBlockNumber when the leaf is the top).
  BtIndex::Page& lp = ix.pages_[leaf];
  lp.half_dead = true;
  BtIndex::Item trunc{};
  trunc.size = static_cast<uint64_t>(kSizeOfIndexTupleData);
  trunc.aux = topparent != leaf ? topparent : kPNone;
  lp.hikey = trunc;
  BtIndex::Recount(lp);
  return true;
}

// _bt_unlink_halfdead_page: the top page of the half-dead leaf's subtree
// (the leaf itself at last) leaves its level: its left sibling's right
// link and its right sibling's left link skip it; it is marked deleted
// with safexid = ReadNextFullTransactionId() and counted.
bool BtVacuum::UnlinkStep(BtIndex& ix, Scan& scan, uint32_t leaf, bool* rightsib_empty) {
  BtIndex::Page& lp = ix.pages_[leaf];
  if (!lp.half_dead) return false;
  uint32_t target = static_cast<uint32_t>(lp.hikey.aux);
  if (target == kPNone) target = leaf;
  BtIndex::Page& t = ix.pages_[target];
  const uint32_t leftsib = t.prev;
  const uint32_t rightsib = t.next;
  if (rightsib == kPNone || target == ix.root_ || t.deleted) {
    ix.status_ = absl::InternalError(
        absl::StrCat("target page changed status unexpectedly in block ", target, " of index \"", ix.desc_.name, "\""));
    return false;
  }
  uint32_t leaftopparent = kPNone;
  if (target != leaf) {
    if (t.items.size() != 1 || t.level == 0) {
      ix.status_ = absl::InternalError(
          absl::StrCat("target internal page on level ", t.level, " changed status unexpectedly in block ", target));
      return false;
    }
    leaftopparent = static_cast<uint32_t>(t.items[0].aux);
    if (leaftopparent == leaf) leaftopparent = kPNone;
  }
  if (leftsib != kPNone) ix.pages_[leftsib].next = rightsib;
  ix.pages_[rightsib].prev = leftsib;
  *rightsib_empty = ix.pages_[rightsib].items.empty() && !ix.pages_[rightsib].half_dead;
  if (target != leaf) lp.hikey.aux = leaftopparent;  // the next page of the subtree
  // BTPageSetDeleted: the page's tuples are gone, its side links stay.
  t.deleted = true;
  t.half_dead = false;
  t.safexid = scan.next_xid;
  t.items.clear();
  t.has_hikey = false;
  t.hikey = BtIndex::Item{};
  t.tuple_bytes = 0;
  ++scan.stats->pages_newly_deleted;
  if (target <= scan.scanblkno) ++scan.stats->pages_deleted;  // else btvacuumpage counts it when it gets there
  scan.pending.emplace_back(target, scan.next_xid);
  return true;
}

// _bt_pagedel: both stages for the leaf, then, while the page to its right
// is an empty leaf too (it may have waited for this one, being its
// parent's rightmost child), the same for that one.
void BtVacuum::PageDelAt(BtIndex& ix, Scan& scan, uint32_t leaf) {
  uint32_t cur = leaf;
  for (;;) {
    const BtIndex::Page& page = ix.pages_[cur];
    if (page.deleted || page.level != 0) return;
    if (!page.half_dead) {
      if (!page.items.empty()) return;
      if (!MarkPageHalfDead(ix, cur)) {
        ++scan.stats->pagedel_refused;
        return;
      }
      ++scan.stats->pages_half_dead;
    }
    bool rightsib_empty = false;
    while (ix.pages_[cur].half_dead) {
      if (!UnlinkStep(ix, scan, cur, &rightsib_empty)) return;
    }
    if (!rightsib_empty) return;
    cur = ix.pages_[cur].next;
  }
}

bool BtVacuum::PageDel(BtIndex& ix, uint32_t leaf, uint64_t next_xid) {
  BtVacuumStats stats;
  Scan scan;
  scan.next_xid = next_xid;
  scan.stats = &stats;
  scan.scanblkno = leaf;
  PageDelAt(ix, scan, leaf);
  return stats.pages_newly_deleted > 0;
}

uint64_t BtVacuum::DelItemsVacuum(BtIndex& ix, uint32_t blkno, std::span<const BtDeadTuple> dead) {
  if (blkno == kBtreeMetapage || blkno >= ix.pages_.size() || ix.pages_[blkno].level != 0 || ix.pages_[blkno].deleted) {
    return 0;
  }
  BtVacuumStats stats;
  RemoveDead(ix, blkno, dead, &stats);
  return stats.tuples_removed;
}

bool BtVacuum::UnlinkHalfDeadPage(BtIndex& ix, uint32_t leaf, uint64_t next_xid) {
  if (leaf == kBtreeMetapage || leaf >= ix.pages_.size() || !ix.pages_[leaf].half_dead) return false;
  BtVacuumStats stats;
  Scan scan;
  scan.next_xid = next_xid;
  scan.stats = &stats;
  scan.scanblkno = leaf;
  bool rightsib_empty = false;
  return UnlinkStep(ix, scan, leaf, &rightsib_empty);
}

}  // namespace innosim::postgres
