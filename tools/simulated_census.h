// SimulatedCensus: the IbdCensus (tools/ibd_reader.h) of a simulated
// tablespace, as ReadIbdFile would report it had the engine's pages been
// written to a .ibd file: so that the same page map (tools/page_map.h)
// draws a simulated tree and a real file.
//
// Every page of the file, 0 .. FSP_SIZE - 1 (Tablespace::size_in_pages):
//   - a page of a live tree (PRIMARY, index id 1, and secondary index i,
//     id 2 + i, as the engine numbers them; each walked from its root level
//     by level along FIL_PAGE_NEXT, as the reader walks a file): kIndexLive,
//     with PAGE_LEVEL, PAGE_N_RECS, page_get_data_size and the sibling links
//     from the engine's PageStore;
//   - a page the extent descriptors mark used that no tree holds: kSystem,
//     named by its place: FSP_HDR (page 0), XDES (every page_size-th page),
//     IBUF_BITMAP (the page after each), SDI (page 3 under MySQL 8.4, whose
//     SDI root the model allocates but does not fill), else INODE;
//   - any other page: kUnused (free, reserved by a segment but not used, or
//     past FSP_FREE_LIMIT: all zero in a real file).
// A page freed by a merge is unused here: the model releases what it held,
// whereas InnoDB leaves it in the file as a stale INDEX page. The census
// therefore has no stale pages; raw_index_pages == live_index_pages.
//
// Thread safety: a pure function of a const Engine.
#ifndef INNOSIM_TOOLS_SIMULATED_CENSUS_H_
#define INNOSIM_TOOLS_SIMULATED_CENSUS_H_

#include <map>
#include <string>

#include "model/engine.h"
#include "tools/ibd_reader.h"

namespace innosim {

// `path` becomes the census's path (a label such as "simulated uuidv4").
IbdCensus SimulatedCensus(const Engine& engine, const std::string& path);

// Index id -> index name ("PRIMARY", the secondary indexes' names), for the
// page map's legend (PageMapSvgOptions::index_names).
std::map<uint64_t, std::string> SimulatedIndexNames(const Engine& engine);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_SIMULATED_CENSUS_H_
