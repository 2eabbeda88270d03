// tools/page_map.cc: see page_map.h.
#include "tools/page_map.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace innosim {
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
  if (fill < 0.25) return ".";
  if (fill < 0.50) return ":";
  if (fill < 0.75) return "-";
  if (fill < 0.90) return "=";
  return "#";
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

std::string Hsl(int hue, double fill) {
  double light = 92.0 - 60.0 * std::clamp(fill, 0.0, 1.0);
  return absl::StrFormat("hsl(%d,70%%,%.0f%%)", hue, light);
}

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

std::string PageMapSvg(const IbdCensus& c) {
  constexpr int kCell = 10, kGap = 1, kLabel = 60, kMargin = 10, kLine = 14;
  const uint32_t per_row = std::max<uint32_t>(1, c.extent_size);
  const uint64_t rows = (c.n_pages + per_row - 1) / per_row;
  const bool titles = c.n_pages <= 65536;
  // Title line, one legend line per index, one for the other page kinds.
  const int kTop = 26 + kLine * static_cast<int>(c.indexes.size() + 1) + 8;
  const int width = std::max(kLabel + static_cast<int>(per_row) * kCell + kMargin, 480);
  const uint64_t height = kTop + rows * kCell + kMargin;

  std::map<uint64_t, size_t> ordinal;  // index id -> colour ordinal
  for (const IbdIndexCensus& ix : c.indexes) ordinal.emplace(ix.index_id, ordinal.size());

  std::string out;
  absl::StrAppendFormat(&out,
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                        "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"monospace\" "
                        "font-size=\"9\">\n",
                        width, height, width, height);
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  absl::StrAppendFormat(&out,
                        "<text x=\"%d\" y=\"14\" font-size=\"11\">%s page size %d, %s, "
                        "%d pages, %d live / %d INDEX pages; one row per extent of %d "
                        "pages</text>\n",
                        kMargin, XmlEscape(c.path), c.page_size, c.format(), c.n_pages,
                        c.live_index_pages, c.raw_index_pages, per_row);
  // Legend.
  int x = kMargin, y = 26;
  auto swatch = [&](const std::string& fillc, const std::string& stroke,
                    const std::string& label) {
    absl::StrAppendFormat(&out,
                          "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                          "fill=\"%s\" stroke=\"%s\"/>\n",
                          x, y, kCell - kGap, kCell - kGap, fillc, stroke);
    x += kCell;
    if (!label.empty()) {
      absl::StrAppendFormat(&out, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 2, y + 8,
                            label);
      x += 8 + 6 * static_cast<int>(label.size());
    }
  };
  for (const IbdIndexCensus& ix : c.indexes) {
    int hue = Hue(ordinal[ix.index_id]);
    for (double f : {0.1, 0.3, 0.5, 0.7, 0.9}) swatch(Hsl(hue, f), "none", "");
    swatch(Hsl(hue, 0.5), "black",
           absl::StrFormat("index %d: leaf fill 10..90%%, outlined = non-leaf", ix.index_id));
    x = kMargin;
    y += kLine;
  }
  swatch("#f2b8b8", "none", "stale INDEX");
  swatch("#888888", "none", "system");
  swatch("white", "#cccccc", "unused");

  for (uint64_t row = 0; row < rows; ++row) {
    uint64_t ry = kTop + row * kCell;
    absl::StrAppendFormat(&out,
                          "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n",
                          kLabel - 4, ry + 8, row * per_row);
    uint64_t end = std::min<uint64_t>((row + 1) * per_row, c.n_pages);
    for (uint64_t i = row * per_row; i < end; ++i) {
      const IbdPage& pg = c.pages[i];
      int cx = kLabel + static_cast<int>(i - row * per_row) * kCell;
      std::string fillc = "white", stroke = "#dddddd", what = "unused";
      double fill = PageFill(c, pg);
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
          what = absl::StrFormat("stale INDEX, index %d level %d, %d records, fill "
                                 "%.1f%%",
                                 pg.index_id, pg.level, pg.n_recs, 100 * fill);
          break;
        case IbdPageState::kIndexLive: {
          auto it = ordinal.find(pg.index_id);
          fillc = Hsl(Hue(it == ordinal.end() ? 0 : it->second), fill);
          stroke = pg.level > 0 ? "black" : "none";
          what = absl::StrFormat("index %d level %d, %d records, fill %.1f%%",
                                 pg.index_id, pg.level, pg.n_recs, 100 * fill);
          break;
        }
      }
      absl::StrAppendFormat(&out,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                            "fill=\"%s\" stroke=\"%s\"",
                            cx, ry, kCell - kGap, kCell - kGap, fillc, stroke);
      if (titles) {
        absl::StrAppendFormat(&out, "><title>page %d: %s</title></rect>\n", i, what);
      } else {
        out += "/>\n";
      }
    }
  }
  out += "</svg>\n";
  return out;
}

}  // namespace innosim
