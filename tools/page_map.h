// tools/page_map.h: a picture of a tablespace, one row per extent (64 pages
// at 16 KiB; 256 at 4 KiB, 128 at 8 KiB), one cell per page, shaded by how
// full the page is. Drawn from an IbdCensus (tools/ibd_reader.h).
//
// Text (PageMapText), one character per page:
//   ' '  unused page (all zero, or allocated and never written)
//   leaf page of a live index, by fill (used bytes over usable bytes):
//        '.' < 25%   ':' < 50%   '-' < 75%   '=' < 90%   '#' >= 90%
//        (with `unicode`: '▁'..'█', eight heights, fill 0..100%)
//   '1'..'9'  live non-leaf page, its PAGE_LEVEL ('9' for 9 and above)
//   'x'  stale INDEX page (freed, not part of any live tree)
//   'F' FSP_HDR/XDES, 'B' IBUF_BITMAP, 'I' INODE, 'S' SDI, 'b' BLOB,
//   'u' undo log, 'o' any other page type
// Each row starts with its first page number and ends with '|'.
//
// SVG (PageMapSvg): a self-contained SVG document, the same grid with
// cells coloured by index (one hue per index) and shaded by the same five
// fill ranges as the text map, darker the fuller the page; non-leaf pages
// are outlined in black, stale INDEX pages are pink, system pages grey,
// unused pages white. A legend names each shade's range ("<25%" ..
// ">=90%") and the other cell kinds; the title wraps to the map's width.
// Each cell carries a <title> (page number, type, index, level, records,
// fill) when the map has at most 65536 cells.
//
// Order (PageMapOrder): kFile draws every page of the file, page 0 first,
// one row per extent (where InnoDB put the pages). kKey draws the live
// INDEX pages only, per index: the leaf level in key order (from the
// leftmost leaf along FIL_PAGE_NEXT), then each non-leaf level up to the
// root, each level under a heading of its own (how full the tree is along
// its key range: a random key stream and a time-ordered one with random
// sub-millisecond bits look alike in file order, not in key order).
//
// Thread safety: pure functions.
#ifndef INNOSIM_TOOLS_PAGE_MAP_H_
#define INNOSIM_TOOLS_PAGE_MAP_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tools/ibd_reader.h"

namespace innosim {

struct PageMapOptions {
  bool unicode = false;  // eighth blocks for leaf fill instead of ASCII
  bool legend = true;    // print the legend above the map
};

// The text page map, ending with a newline.
std::string PageMapText(const IbdCensus& census, const PageMapOptions& options = {});

enum class PageMapOrder : uint8_t { kFile, kKey };

// The five leaf-fill ranges of both maps, lightest first; a page's range is
// LeafFillBand(fill). The SVG legend writes these labels beside the shades.
inline constexpr const char* kLeafFillBandLabels[5] = {"<25%", "25-50%", "50-75%", "75-90%", ">=90%"};
int LeafFillBand(double fill);  // 0..4

// One run of cells under an optional heading, drawn `census.extent_size`
// cells per row; each row is labelled with the ordinal of its first cell
// in the section (in file order, that is its page number).
struct PageMapSection {
  std::string heading;          // "" in file order
  std::vector<uint32_t> pages;  // page numbers, in drawing order
};

// The cells of the map in `order`: in kFile one section holding 0 ..
// n_pages - 1; in kKey one section per level of each index, leaf first.
std::vector<PageMapSection> PageMapSections(const IbdCensus& census, PageMapOrder order,
                                            const std::map<uint64_t, std::string>& index_names = {});

struct PageMapSvgOptions {
  // First line of the title; "" = the census's path.
  std::string title;
  PageMapOrder order = PageMapOrder::kFile;
  // Index id -> name for the legend and headings ("PRIMARY"); an index not
  // named is "index <id>".
  std::map<uint64_t, std::string> index_names;
  // When set (indexed by page number): live index pages are shaded by how
  // often each was written instead of by fill (`run --page-map --shade
  // writes`), in the bands of kPageWriteBandLabels.
  const std::vector<uint32_t>* page_writes = nullptr;
};

// The write-count bands of a map shaded by writes, lightest first.
inline constexpr const char* kPageWriteBandLabels[5] = {"0-1 writes", "2-3", "4-7", "8-15", ">=16"};
// The band of a page written `writes` times.
int PageWriteBand(uint32_t writes);

// The SVG page map as a complete document.
std::string PageMapSvg(const IbdCensus& census, const PageMapSvgOptions& options = {});

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PAGE_MAP_H_
