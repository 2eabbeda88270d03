// tools/simulated_census.cc: see simulated_census.h.
#include "tools/simulated_census.h"

#include <algorithm>
#include <vector>

#include "model/fast/page_store.h"
#include "model/index_page.h"

namespace innosim {
namespace {

// The fil type of a used page that no tree holds, from its place in the
// file (the model keeps no page type for them).
uint16_t SystemPageType(uint32_t page_no, uint32_t page_size, AllocationPolicy policy) {
  if (page_no == 0) return kFilPageTypeFspHdr;
  if (page_no % page_size == 0) return kFilPageTypeXdes;
  if (page_no % page_size == 1) return kFilPageIbufBitmap;
  if (page_no == 3 && policy == AllocationPolicy::kMySQL84) return kFilPageSdi;
  return kFilPageInode;
}

// Walks one live tree as the reader walks a file: from the root down the
// leftmost child pointers, each level along FIL_PAGE_NEXT.
IbdIndexCensus WalkTree(const BTree& tree, uint64_t index_id, const PageStore& store, IbdCensus& c) {
  IbdIndexCensus ix;
  ix.index_id = index_id;
  ix.root_page = tree.root();
  uint32_t leftmost = tree.root();
  for (;;) {
    const IndexPage& first = store.page(leftmost);
    IbdLevelCensus lc;
    lc.level = first.level();
    lc.leftmost_page = leftmost;
    for (uint32_t pn = leftmost; pn != kFilNull; pn = store.page(pn).next()) {
      const IndexPage& p = store.page(pn);
      IbdPage& pg = c.pages.at(pn);
      pg.page_no = pn;
      pg.fil_type = kFilPageIndex;
      pg.state = IbdPageState::kIndexLive;
      pg.level = p.level();
      pg.n_recs = static_cast<uint16_t>(p.n_recs());
      pg.data_size = p.DataSize();
      pg.prev = p.prev();
      pg.next = p.next();
      pg.index_id = index_id;
      ++lc.pages;
      lc.records += pg.n_recs;
      lc.used_bytes += pg.data_size;
      lc.usable_bytes += c.usable_bytes_per_page;
      ++lc.records_per_page[pg.n_recs];
    }
    ix.live_pages += lc.pages;
    ix.levels.push_back(std::move(lc));
    if (first.level() == 0) break;
    leftmost = first.child(0);
  }
  // The census lists levels leaf first.
  std::reverse(ix.levels.begin(), ix.levels.end());
  ix.height = static_cast<uint16_t>(ix.levels.size());
  return ix;
}

}  // namespace

IbdCensus SimulatedCensus(const Engine& engine, const std::string& path) {
  const Tablespace& ts = engine.tablespace();
  IbdCensus c;
  c.path = path;
  c.page_size = ts.page_size();
  c.extent_size = ts.extent_size();
  c.fsp_size = ts.size_in_pages();
  c.fsp_free_limit = ts.free_limit();
  c.n_pages = ts.size_in_pages();
  c.usable_bytes_per_page = FreeSpaceOfEmpty(ts.page_size());
  c.pages.resize(c.n_pages);
  for (uint32_t i = 0; i < c.n_pages; ++i) c.pages[i].page_no = i;

  c.indexes.push_back(WalkTree(engine.primary(), 1, engine.page_store(), c));
  for (size_t i = 0; i < engine.n_secondary(); ++i) {
    c.indexes.push_back(WalkTree(engine.secondary(i), 2 + i, engine.page_store(), c));
  }
  for (const IbdIndexCensus& ix : c.indexes) c.live_index_pages += ix.live_pages;
  c.raw_index_pages = c.live_index_pages;

  for (uint32_t i = 0; i < c.n_pages; ++i) {
    IbdPage& pg = c.pages[i];
    if (pg.state == IbdPageState::kIndexLive) continue;
    if (ts.IsPageUsed(i)) {
      pg.state = IbdPageState::kSystem;
      pg.fil_type = SystemPageType(i, c.page_size, ts.policy());
    } else {
      ++c.unused_pages;
    }
  }
  return c;
}

std::map<uint64_t, std::string> SimulatedIndexNames(const Engine& engine) {
  const EngineReport r = engine.Report();
  std::map<uint64_t, std::string> names;
  names[1] = r.primary.name;
  for (size_t i = 0; i < r.secondary.size(); ++i) names[2 + i] = r.secondary[i].name;
  return names;
}

}  // namespace innosim
