// tools/page_map.cc: see page_map.h.
#include "tools/page_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace innosim {

int LeafFillBand(double fill) {
  if (fill < 0.25) return 0;
  if (fill < 0.50) return 1;
  if (fill < 0.75) return 2;
  if (fill < 0.90) return 3;
  return 4;
}

namespace {

char SystemGlyph(uint16_t fil_type) {
  switch (fil_type) {
    case kFilPageTypeFspHdr:
    case kFilPageTypeXdes:
      return 'F';
    case kFilPageIbufBitmap:
      return 'B';
    case kFilPageInode:
      return 'I';
    case kFilPageSdi:
      return 'S';
    case kFilPageTypeBlob:
      return 'b';
    case kFilPageUndoLog:
      return 'u';
    default:
      return 'o';
  }
}

std::string SystemName(uint16_t fil_type) {
  switch (fil_type) {
    case kFilPageTypeFspHdr:
      return "FSP_HDR";
    case kFilPageTypeXdes:
      return "XDES";
    case kFilPageIbufBitmap:
      return "IBUF_BITMAP";
    case kFilPageInode:
      return "INODE";
    case kFilPageSdi:
      return "SDI";
    case kFilPageTypeBlob:
      return "BLOB";
    case kFilPageUndoLog:
      return "UNDO_LOG";
    default:
      return absl::StrCat("type ", fil_type);
  }
}

std::string LeafGlyph(double fill, bool unicode) {
  if (unicode) {
    static const char* const kBlocks[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    int i = static_cast<int>(fill * 8);
    return kBlocks[std::clamp(i, 0, 7)];
  }
  static const char* const kGlyphs[5] = {".", ":", "-", "=", "#"};
  return kGlyphs[LeafFillBand(fill)];
}

std::string Glyph(const IbdCensus& c, const IbdPage& pg, bool unicode) {
  switch (pg.state) {
    case IbdPageState::kUnused:
      return " ";
    case IbdPageState::kSystem:
      return std::string(1, SystemGlyph(pg.fil_type));
    case IbdPageState::kIndexStale:
      return "x";
    case IbdPageState::kIndexLive:
      if (pg.level > 0) return std::string(1, static_cast<char>('0' + std::min<int>(pg.level, 9)));
      return LeafGlyph(PageFill(c, pg), unicode);
  }
  return "?";
}

// Hue per index, in index order.
int Hue(size_t index_ordinal) {
  static const int kHues[] = {215, 135, 30, 280, 0, 180, 55, 320};
  return kHues[index_ordinal % (sizeof(kHues) / sizeof(kHues[0]))];
}

// One lightness per fill range, so that a shade in the map is a range in
// the legend (a continuous scale could not be labelled truthfully).
std::string BandColour(int hue, int band) {
  static const int kLight[5] = {90, 76, 62, 47, 30};
  return absl::StrFormat("hsl(%d,70%%,%d%%)", hue, kLight[std::clamp(band, 0, 4)]);
}

}  // namespace

int PageWriteBand(uint32_t writes) {
  if (writes <= 1) return 0;
  if (writes <= 3) return 1;
  if (writes <= 7) return 2;
  if (writes <= 15) return 3;
  return 4;
}

namespace {

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string IndexLabel(uint64_t index_id, const std::map<uint64_t, std::string>& names) {
  auto it = names.find(index_id);
  if (it == names.end() || it->second.empty()) return absl::StrCat("index ", index_id);
  return absl::StrCat(it->second, " (index ", index_id, ")");
}

// `text` broken at spaces into lines of at most `max_chars` (a word longer
// than that, such as a long path, is cut).
std::vector<std::string> Wrap(const std::string& text, size_t max_chars) {
  max_chars = std::max<size_t>(max_chars, 8);
  std::vector<std::string> lines;
  std::string line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    while (word.size() > max_chars) {
      if (!line.empty()) lines.push_back(std::exchange(line, ""));
      lines.emplace_back(word.data(), max_chars);
      word.remove_prefix(max_chars);
    }
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > max_chars) lines.push_back(std::exchange(line, ""));
    if (!line.empty()) line += ' ';
    line.append(word.data(), word.size());
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string PageMapText(const IbdCensus& c, const PageMapOptions& options) {
  std::string out;
  const uint32_t per_row = std::max<uint32_t>(1, c.extent_size);
  if (options.legend) {
    absl::StrAppendFormat(&out, "page map: one row per extent (%d pages), one "
                                "character per page\n",
                          per_row);
    if (options.unicode) {
      out += "  leaf fill ▁ 0-12% ▂ ▃ ▄ ▅ ▆ ▇ █ 88-100%";
    } else {
      out += "  leaf fill '.' <25% ':' <50% '-' <75% '=' <90% '#' >=90%";
    }
    out += "; '1'-'9' non-leaf level; 'x' stale INDEX page; ' ' unused\n";
    out += "  'F' FSP_HDR/XDES 'B' IBUF_BITMAP 'I' INODE 'S' SDI 'b' BLOB 'u' undo "
           "'o' other\n";
  }
  const int width = static_cast<int>(absl::StrCat(c.n_pages).size());
  for (uint64_t row = 0; row < c.n_pages; row += per_row) {
    absl::StrAppendFormat(&out, "%*d ", width, row);
    uint64_t end = std::min<uint64_t>(row + per_row, c.n_pages);
    for (uint64_t i = row; i < end; ++i) out += Glyph(c, c.pages[i], options.unicode);
    out += std::string(per_row - (end - row), ' ');
    out += "|\n";
  }
  return out;
}

std::vector<PageMapSection> PageMapSections(const IbdCensus& c, PageMapOrder order,
                                            const std::map<uint64_t, std::string>& index_names) {
  std::vector<PageMapSection> out;
  if (order == PageMapOrder::kFile) {
    PageMapSection all;
    all.pages.resize(c.pages.size());
    std::iota(all.pages.begin(), all.pages.end(), 0u);
    out.push_back(std::move(all));
    return out;
  }
  for (const IbdIndexCensus& ix : c.indexes) {
    for (const IbdLevelCensus& lv : ix.levels) {  // leaf level first
      PageMapSection s;
      const char* what = lv.level == 0 ? " (leaf)" : lv.level + 1 == ix.height ? " (root)" : "";
      s.heading = absl::StrFormat("%s level %d%s: %d page%s in key order", IndexLabel(ix.index_id, index_names),
                                  lv.level, what, lv.pages, lv.pages == 1 ? "" : "s");
      // Bounded by the level's page count: a census is data, and a loop in
      // its links must not hang the drawing.
      for (uint32_t pn = lv.leftmost_page; pn != kFilNull && pn < c.pages.size() && s.pages.size() < lv.pages;
           pn = c.pages[pn].next) {
        s.pages.push_back(pn);
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::string PageMapSvg(const IbdCensus& c, const PageMapSvgOptions& o) {
  constexpr int kCell = 10, kGap = 1, kLabel = 60, kMargin = 10, kLine = 14;
  // Advance of one monospace character at font-size 11 and 9 (0.6 em),
  // rounded up: what the wrapping and the legend's flow count with.
  constexpr double kTitleChar = 6.7, kSmallChar = 5.5;
  const uint32_t per_row = std::max<uint32_t>(1, c.extent_size);
  const std::vector<PageMapSection> sections = PageMapSections(c, o.order, o.index_names);
  size_t n_cells = 0;
  for (const PageMapSection& s : sections) n_cells += s.pages.size();
  const bool titles = n_cells <= 65536;
  const int width = std::max(kLabel + static_cast<int>(per_row) * kCell + kMargin, 480);

  std::map<uint64_t, size_t> ordinal;  // index id -> colour ordinal
  for (const IbdIndexCensus& ix : c.indexes) ordinal.emplace(ix.index_id, ordinal.size());
  auto hue_of = [&](uint64_t index_id) {
    auto it = ordinal.find(index_id);
    return Hue(it == ordinal.end() ? 0 : it->second);
  };

  std::string body;  // below the <svg> element, whose height comes last
  int y = kMargin;   // top of the next line

  // Title: what was drawn, then the file's figures, then how to read it,
  // each wrapped to the width of the map.
  const size_t title_chars = static_cast<size_t>((width - 2 * kMargin) / kTitleChar);
  std::vector<std::string> title;
  std::string first = !o.title.empty() ? o.title : !c.path.empty() ? c.path : "tablespace";
  std::string facts = absl::StrFormat("page size %d, %d pages: %d live INDEX pages, %d stale, %d unused", c.page_size,
                                      c.n_pages, c.live_index_pages, c.raw_index_pages - c.live_index_pages,
                                      c.unused_pages);
  if (o.title.empty()) facts = absl::StrCat(c.format(), ", ", facts);
  std::string how =
      o.order == PageMapOrder::kFile
          ? absl::StrFormat("file order: one row per extent of %d pages, one cell per page, page 0 top left", per_row)
          : absl::StrFormat("key order: live INDEX pages only, %d per row, each level from its leftmost page along "
                            "FIL_PAGE_NEXT; system, stale and unused pages left out",
                            per_row);
  for (const std::string& part : {first, facts, how}) {
    for (std::string& line : Wrap(part, title_chars)) title.push_back(std::move(line));
  }
  for (const std::string& line : title) {
    absl::StrAppendFormat(&body, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n", kMargin, y + 11,
                          XmlEscape(line));
    y += kLine;
  }
  y += 4;

  // Legend: swatches with their meaning written beside them, flowing onto
  // a new line where the next one would leave the map's width.
  int x = kMargin;
  auto new_line = [&]() {
    x = kMargin;
    y += kLine;
  };
  auto make_room = [&](int w) {
    if (x > kMargin && x + w > width - kMargin) new_line();
  };
  auto text = [&](const std::string& label) {
    const int w = static_cast<int>(label.size() * kSmallChar) + 8;
    make_room(w);
    absl::StrAppendFormat(&body, "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y + 10, XmlEscape(label));
    x += w;
  };
  auto swatch = [&](const std::string& fillc, const std::string& stroke, const std::string& label) {
    const int w = kCell + 3 + static_cast<int>(label.size() * kSmallChar) + 12;
    make_room(w);
    absl::StrAppendFormat(&body, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\"/>\n",
                          x, y + 2, kCell - kGap, kCell - kGap, fillc, stroke);
    absl::StrAppendFormat(&body, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + kCell + 3, y + 10, XmlEscape(label));
    x += w;
  };
  for (const IbdIndexCensus& ix : c.indexes) {
    const int hue = hue_of(ix.index_id);
    if (o.page_writes != nullptr) {
      text(absl::StrCat(IndexLabel(ix.index_id, o.index_names), ", times each page was written:"));
      for (int band = 0; band < 5; ++band) swatch(BandColour(hue, band), "none", kPageWriteBandLabels[band]);
      swatch(BandColour(hue, 2), "black", "non-leaf page (outlined, shaded by its writes)");
    } else {
      text(absl::StrCat(IndexLabel(ix.index_id, o.index_names), ", page fill:"));
      for (int band = 0; band < 5; ++band) swatch(BandColour(hue, band), "none", kLeafFillBandLabels[band]);
      swatch(BandColour(hue, 2), "black", "non-leaf page (outlined, shaded by its fill)");
    }
    new_line();
  }
  swatch("#f2b8b8", "none", "stale INDEX page (freed, not in a live tree)");
  swatch("#888888", "none", "system page (FSP_HDR, XDES, IBUF_BITMAP, INODE, SDI, ...)");
  swatch("white", "#cccccc", "unused page (free or never written)");
  new_line();
  y += 4;

  // The cells, section by section, rows labelled by their first ordinal.
  for (const PageMapSection& s : sections) {
    if (!s.heading.empty()) {
      for (const std::string& line : Wrap(s.heading, static_cast<size_t>((width - 2 * kMargin) / kSmallChar))) {
        absl::StrAppendFormat(&body, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", kMargin, y + 10,
                              XmlEscape(line));
        y += kLine;
      }
    }
    for (size_t row = 0; row * per_row < s.pages.size(); ++row) {
      absl::StrAppendFormat(&body, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", kLabel - 4, y + 8,
                            row * per_row);
      const size_t end = std::min<size_t>((row + 1) * per_row, s.pages.size());
      for (size_t k = row * per_row; k < end; ++k) {
        const uint32_t i = s.pages[k];
        const IbdPage& pg = c.pages[i];
        const int cx = kLabel + static_cast<int>(k - row * per_row) * kCell;
        std::string fillc = "white", stroke = "#dddddd", what = "unused";
        const double fill = PageFill(c, pg);
        switch (pg.state) {
          case IbdPageState::kUnused:
            break;
          case IbdPageState::kSystem:
            fillc = "#888888";
            stroke = "none";
            what = SystemName(pg.fil_type);
            break;
          case IbdPageState::kIndexStale:
            fillc = "#f2b8b8";
            stroke = "none";
            what = absl::StrFormat("stale INDEX, %s level %d, %d records, fill %.1f%%",
                                   IndexLabel(pg.index_id, o.index_names), pg.level, pg.n_recs, 100 * fill);
            break;
          case IbdPageState::kIndexLive: {
            const uint32_t writes =
                o.page_writes != nullptr && i < o.page_writes->size() ? (*o.page_writes)[i] : 0;
            fillc = BandColour(hue_of(pg.index_id),
                               o.page_writes != nullptr ? PageWriteBand(writes) : LeafFillBand(fill));
            stroke = pg.level > 0 ? "black" : "none";
            what = absl::StrFormat("%s level %d, %d records, fill %.1f%%", IndexLabel(pg.index_id, o.index_names),
                                   pg.level, pg.n_recs, 100 * fill);
            if (o.page_writes != nullptr) absl::StrAppend(&what, absl::StrFormat(", written %u times", writes));
            break;
          }
        }
        absl::StrAppendFormat(&body, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\"",
                              cx, y, kCell - kGap, kCell - kGap, fillc, stroke);
        if (titles) {
          absl::StrAppendFormat(&body, "><title>page %d: %s</title></rect>\n", i, what);
        } else {
          body += "/>\n";
        }
      }
      y += kCell;
    }
    y += 6;
  }
  const int height = y + kMargin;

  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"monospace\" font-size=\"9\">\n",
      width, height, width, height);
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += body;
  out += "</svg>\n";
  return out;
}

}  // namespace innosim
