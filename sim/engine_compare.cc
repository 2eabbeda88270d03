#include "sim/engine_compare.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "sim/engines.h"

namespace innosim {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Megabytes(uint64_t bytes) { return absl::StrFormat("%.2f MB", bytes / 1e6); }

}  // namespace

std::string CompareTableSql(const std::string& table, int key_width) {
  if (table != "seed000") return table;
  return absl::StrCat("CREATE TABLE t (id ", key_width == 16 ? "uuid" : "bigint", " PRIMARY KEY)");
}

absl::StatusOr<std::vector<RunSpec>> CompareSpecs(const RunSpec& base, const std::vector<std::string>& profiles) {
  std::set<std::string> seen;
  for (const std::string& p : profiles) {
    if (!seen.insert(p).second) {
      return absl::InvalidArgumentError(absl::StrCat("--profiles names ", p, " twice: give each profile once"));
    }
  }
  if (profiles.size() < 2) {
    return absl::InvalidArgumentError(
        "--profiles needs two profiles or more to compare, e.g. --profiles mysql-8.4,postgresql-18");
  }
  std::vector<RunSpec> specs;
  for (const std::string& p : profiles) {
    RunSpec spec = base;
    spec.profile = p;
    spec.flush = false;  // the trees: what compare shows does not depend on flushing
    const EngineKind* kind = EngineKindFor(p);
    if (kind == nullptr) {
      // ValidateRunSpec words it, with the nearest name and every profile.
      absl::Status s = ValidateRunSpec(spec);
      return absl::InvalidArgumentError(absl::StrCat("--profiles: ", s.message()));
    }
    absl::StatusOr<std::string> sql = kind->from_portable_sql(base.table);
    if (!sql.ok()) return absl::InvalidArgumentError(absl::StrCat(p, ": --table: ", sql.status().message()));
    spec.table = *sql;
    if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return absl::InvalidArgumentError(absl::StrCat(p, ": ", s.message()));
    if (absl::Status s = CheckRunTable(spec); !s.ok()) return absl::InvalidArgumentError(absl::StrCat(p, ": ", s.message()));
    specs.push_back(std::move(spec));
  }
  return specs;
}

ComparedRun Compared(RunResult result) {
  ComparedRun c;
  c.figures = EngineKindFor(result.spec.profile)->tree_figures(result);
  c.result = std::move(result);
  return c;
}

std::string CompareTable(const std::vector<ComparedRun>& runs) {
  if (runs.empty()) return "";
  const RunSpec& s = runs[0].result.spec;
  std::string out = absl::StrFormat("innosim compare: %s, %d rows, rows_per_ms %d, seed %d\n", s.stream.name, s.rows,
                                    s.stream.rows_per_ms, s.stream.seed);
  for (const ComparedRun& r : runs) absl::StrAppendFormat(&out, "%-15s %s\n", r.result.spec.profile + ":", r.result.table);
  absl::StrAppendFormat(&out, "\n%-30s", "");
  for (const ComparedRun& r : runs) absl::StrAppendFormat(&out, " %20s", r.result.spec.profile);
  out += "\n";
  auto row = [&](const std::string& label, auto cell) {
    absl::StrAppendFormat(&out, "%-30s", label);
    for (const ComparedRun& r : runs) absl::StrAppendFormat(&out, " %20s", cell(r.figures));
    out += "\n";
  };
  row("primary key leaf pages", [](const TreeFigures& f) { return absl::StrCat(f.leaf_pages); });
  row("  (named)", [](const TreeFigures& f) { return f.leaf_pages_name; });
  row("leaf fill", [](const TreeFigures& f) { return absl::StrFormat("%.2f%%", 100 * f.leaf_fill); });
  row("  (named)", [](const TreeFigures& f) { return f.leaf_fill_name; });
  row("levels", [](const TreeFigures& f) { return absl::StrCat(f.levels); });
  row("page size", [](const TreeFigures& f) { return absl::StrCat(f.page_size); });
  row("primary key", [](const TreeFigures& f) { return Megabytes(f.primary_key_bytes); });
  row("rows (clustered index / heap)", [](const TreeFigures& f) { return Megabytes(f.rows_bytes); });
  row("other indexes", [](const TreeFigures& f) { return Megabytes(f.secondary_bytes); });
  row("on disk", [](const TreeFigures& f) { return Megabytes(f.total_bytes); });
  out += "\nsplits of the primary key's tree, by each engine's kinds:\n";
  for (const ComparedRun& r : runs) {
    std::vector<std::string> kinds;
    for (const auto& [name, n] : r.figures.splits) kinds.push_back(absl::StrCat(name, " ", n));
    absl::StrAppendFormat(&out, "  %-15s %s\n", r.result.spec.profile + ":", absl::StrJoin(kinds, ", "));
  }
  out += "sizes:\n";
  for (const ComparedRun& r : runs) {
    absl::StrAppendFormat(&out, "  %-15s %s\n", r.result.spec.profile + ":", r.figures.sizes_note);
  }
  return out;
}

nlohmann::ordered_json CompareJson(const std::vector<ComparedRun>& runs, const std::string& portable_table) {
  nlohmann::ordered_json j;
  if (runs.empty()) return j;
  const RunSpec& s = runs[0].result.spec;
  j["stream"] = s.stream.name;
  j["rows"] = s.rows;
  j["rows_per_ms"] = s.stream.rows_per_ms;
  j["seed"] = s.stream.seed;
  j["table"] = portable_table;
  nlohmann::ordered_json engines = nlohmann::ordered_json::array();
  for (const ComparedRun& r : runs) {
    const TreeFigures& f = r.figures;
    nlohmann::ordered_json e;
    e["profile"] = r.result.spec.profile;
    e["engine"] = EngineKindFor(r.result.spec.profile)->name;
    e["table"] = r.result.table;
    e["leaf_pages"] = f.leaf_pages;
    e["leaf_pages_name"] = f.leaf_pages_name;
    e["leaf_fill"] = f.leaf_fill;
    e["leaf_fill_name"] = f.leaf_fill_name;
    e["levels"] = f.levels;
    e["page_size"] = f.page_size;
    e["primary_key_bytes"] = f.primary_key_bytes;
    e["rows_bytes"] = f.rows_bytes;
    e["secondary_bytes"] = f.secondary_bytes;
    e["total_bytes"] = f.total_bytes;
    nlohmann::ordered_json splits = nlohmann::ordered_json::object();
    for (const auto& [name, n] : f.splits) splits[name] = n;
    e["splits"] = splits;
    engines.push_back(e);
  }
  j["engines"] = engines;
  return j;
}

std::string CompareSvg(const std::vector<ComparedRun>& runs, const std::string& portable_table) {
  // Three panels (leaf pages, leaf fill, bytes on disk), one bar per
  // profile in each, its value written above it.
  constexpr int kPanelW = 260, kPanelH = 270, kTop = 70, kLeft = 20, kBarArea = 180;
  const int width = kLeft * 2 + 3 * kPanelW;
  const int height = kTop + kPanelH + 60;
  static const char* kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"};
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
      width, height, width, height);
  if (runs.empty()) return svg + "</svg>\n";
  const RunSpec& s = runs[0].result.spec;
  absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"28\" font-size=\"18\">%s</text>\n", kLeft,
                        Escape(absl::StrFormat("innosim compare: %s, %d rows, the same keys in each engine",
                                               s.stream.name, s.rows)));
  absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"50\" font-size=\"12\" fill=\"#555\">%s</text>\n", kLeft,
                        Escape(portable_table.size() > 120 ? portable_table.substr(0, 117) + "..." : portable_table));
  struct Panel {
    std::string title;
    double (*value)(const TreeFigures&);
    std::string (*label)(const TreeFigures&);
  };
  const Panel panels[] = {
      {"primary key leaf pages", [](const TreeFigures& f) { return static_cast<double>(f.leaf_pages); },
       [](const TreeFigures& f) { return absl::StrCat(f.leaf_pages); }},
      {"leaf fill", [](const TreeFigures& f) { return 100 * f.leaf_fill; },
       [](const TreeFigures& f) { return absl::StrFormat("%.1f%%", 100 * f.leaf_fill); }},
      {"on disk (table and indexes)", [](const TreeFigures& f) { return f.total_bytes / 1e6; },
       [](const TreeFigures& f) { return Megabytes(f.total_bytes); }},
  };
  const int n = static_cast<int>(runs.size());
  for (int p = 0; p < 3; ++p) {
    const Panel& panel = panels[p];
    const int x0 = kLeft + p * kPanelW;
    const int base_y = kTop + 40 + kBarArea;
    double top = p == 1 ? 100.0 : 0;
    for (const ComparedRun& r : runs) top = std::max(top, panel.value(r.figures));
    if (top <= 0) top = 1;
    absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">%s</text>\n",
                          x0 + kPanelW / 2, kTop + 10, Escape(panel.title));
    absl::StrAppendFormat(&svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x0 + 15, base_y,
                          x0 + kPanelW - 15, base_y);
    const int slot = (kPanelW - 30) / n;
    for (int i = 0; i < n; ++i) {
      const TreeFigures& f = runs[i].figures;
      const double h = kBarArea * panel.value(f) / top;
      const int bx = x0 + 15 + i * slot + slot / 6;
      const int bw = slot * 2 / 3;
      absl::StrAppendFormat(&svg, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>\n", bx,
                            base_y - h, bw, h, kColors[i % 6]);
      absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
                            bx + bw / 2, base_y - h - 5, Escape(panel.label(f)));
    }
  }
  // The legend: one colour per profile.
  for (int i = 0; i < n; ++i) {
    const int lx = kLeft + i * 260;
    const int ly = kTop + kPanelH + 20;
    absl::StrAppendFormat(&svg, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", lx, ly - 12,
                          kColors[i % 6]);
    absl::StrAppendFormat(&svg, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>\n", lx + 20, ly,
                          Escape(absl::StrCat(runs[i].result.spec.profile, " (", runs[i].figures.page_size,
                                              "-byte pages)")));
  }
  return svg + "</svg>\n";
}

}  // namespace innosim
