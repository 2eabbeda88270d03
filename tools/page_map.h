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
// cells coloured by index (one hue per index) and darker the fuller the
// page; non-leaf pages are outlined in black, stale INDEX pages are pink,
// system pages grey, unused pages white. Each cell carries a <title>
// (page number, type, index, level, records, fill) when the file has at
// most 65536 pages.
//
// Thread safety: pure functions.
#ifndef INNOSIM_TOOLS_PAGE_MAP_H_
#define INNOSIM_TOOLS_PAGE_MAP_H_

#include <string>

#include "tools/ibd_reader.h"

namespace innosim {

struct PageMapOptions {
  bool unicode = false;  // eighth blocks for leaf fill instead of ASCII
  bool legend = true;    // print the legend above the map
};

// The text page map, ending with a newline.
std::string PageMapText(const IbdCensus& census, const PageMapOptions& options = {});

// The SVG page map as a complete document.
std::string PageMapSvg(const IbdCensus& census);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PAGE_MAP_H_
