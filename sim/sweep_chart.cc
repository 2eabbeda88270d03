#include "sim/sweep_chart.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace innosim {
namespace {

void SortByRate(std::vector<SweepPoint>* points) {
  std::stable_sort(points->begin(), points->end(),
                   [](const SweepPoint& a, const SweepPoint& b) { return a.rows_per_ms < b.rows_per_ms; });
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A "nice" axis step for a span: 1, 2 or 5 times a power of ten.
double NiceStep(double span, int ticks) {
  const double raw = span / ticks;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10 * mag;
}

// Geometry shared by both panels.
constexpr double kWidth = 720;
constexpr double kLeft = 80;
constexpr double kRight = 30;
constexpr double kPanelHeight = 220;
constexpr double kTop = 84;
constexpr double kGap = 70;

struct Panel {
  std::string label;  // y axis
  double scale = 1;   // value -> shown unit
  std::string unit;
  bool fill = true;  // leaf_fill, else data_length
};

// A tick's value with as many decimals as its step needs.
std::string TickLabel(double v, double step) {
  if (step < 1) return absl::StrFormat("%.2f", v);
  if (step < 10) return absl::StrFormat("%.1f", v);
  return absl::StrFormat("%.0f", v);
}

}  // namespace

std::vector<SweepPoint> SweepPointsOf(const std::vector<RunResult>& results) {
  std::vector<SweepPoint> points;
  for (const RunResult& r : results) {
    points.push_back({static_cast<double>(r.spec.stream.rows_per_ms), r.report.primary.leaf_fill,
                      static_cast<double>(r.report.data_length)});
  }
  SortByRate(&points);
  return points;
}

bool ExperimentSweep(const ExperimentResult& r, std::string* title, std::vector<SweepPoint>* simulated,
                     std::vector<SweepPoint>* published) {
  using Group = std::tuple<std::string, std::string, uint32_t, std::string>;
  std::map<Group, std::vector<size_t>> groups;
  for (size_t i = 0; i < r.results.size() && i < r.experiment.runs.size(); ++i) {
    const RunSpec& s = r.results[i].spec;
    groups[{s.stream.name, s.profile, s.page_size, s.table}].push_back(i);
  }
  const std::vector<size_t>* best = nullptr;
  size_t best_rates = 0;
  for (const auto& [g, runs] : groups) {
    std::set<uint64_t> rates;
    for (size_t i : runs) rates.insert(r.results[i].spec.stream.rows_per_ms);
    if (rates.size() >= 3 && rates.size() > best_rates) {
      best = &runs;
      best_rates = rates.size();
    }
  }
  if (best == nullptr) return false;
  std::vector<RunResult> results;
  std::set<uint64_t> seen;
  for (size_t i : *best) {
    const RunResult& res = r.results[i];
    // One point per rate: a configuration listed twice (e.g. the main
    // table's 482/ms and the sweep's) is the same run.
    if (!seen.insert(res.spec.stream.rows_per_ms).second) continue;
    results.push_back(res);
    SweepPoint p;
    p.rows_per_ms = static_cast<double>(res.spec.stream.rows_per_ms);
    for (const auto& [metric, value] : r.experiment.runs[i].published) {
      if (std::isnan(value)) continue;  // shown (show = [...]), not published
      if (metric == "data_length") p.data_length = value;
      if (metric == "leaf_fill") p.leaf_fill = value;
    }
    if (p.data_length || p.leaf_fill) published->push_back(p);
  }
  *simulated = SweepPointsOf(results);
  SortByRate(published);
  const RunSpec& s = r.results[(*best)[0]].spec;
  *title = absl::StrCat(r.experiment.name, ": ", s.stream.name, ", ", s.rows, " rows, ", s.profile, ", ",
                        s.page_size / 1024, " KiB pages");
  return true;
}

std::string SweepChartSvg(const std::string& title, const std::vector<SweepPoint>& simulated,
                          const std::vector<SweepPoint>& published) {
  const double height = kTop + 2 * kPanelHeight + kGap + 70;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%.0f\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
      kWidth, height, kWidth, height, 20.0, Escape(title));
  // Legend.
  absl::StrAppendFormat(&out,
                        "<line x1=\"%.0f\" y1=\"42\" x2=\"%.0f\" y2=\"42\" stroke=\"#1e88e5\" stroke-width=\"2\"/>"
                        "<circle cx=\"%.0f\" cy=\"42\" r=\"3.5\" fill=\"#1e88e5\"/>"
                        "<text x=\"%.0f\" y=\"46\">innosim (simulated)</text>\n",
                        kLeft, kLeft + 30, kLeft + 15, kLeft + 38);
  if (!published.empty()) {
    absl::StrAppendFormat(&out,
                          "<rect x=\"%.0f\" y=\"37\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#e65100\" "
                          "stroke-width=\"2\"/><text x=\"%.0f\" y=\"46\">published</text>\n",
                          kLeft + 190, kLeft + 206);
  }
  std::vector<double> rates;
  for (const SweepPoint& p : simulated) rates.push_back(p.rows_per_ms);
  for (const SweepPoint& p : published) rates.push_back(p.rows_per_ms);
  if (rates.empty()) return out + "</svg>\n";
  const double lo = std::log10(*std::min_element(rates.begin(), rates.end()));
  const double hi = std::log10(*std::max_element(rates.begin(), rates.end()));
  const double x_span = hi > lo ? hi - lo : 1;
  const double plot_w = kWidth - kLeft - kRight;
  auto x_of = [&](double rate) { return kLeft + 20 + (std::log10(rate) - lo) / x_span * (plot_w - 40); };
  const Panel panels[2] = {{"leaf fill", 100, "%", true}, {"DATA_LENGTH", 1e-9, " GB", false}};
  for (int pi = 0; pi < 2; ++pi) {
    const Panel& panel = panels[pi];
    const double top = kTop + pi * (kPanelHeight + kGap);
    auto value = [&](const SweepPoint& p) -> std::optional<double> {
      const std::optional<double>& v = panel.fill ? p.leaf_fill : p.data_length;
      if (!v) return std::nullopt;
      return *v * panel.scale;
    };
    double vmin = 1e300, vmax = -1e300;
    for (const auto* list : {&simulated, &published}) {
      for (const SweepPoint& p : *list) {
        if (std::optional<double> v = value(p)) {
          vmin = std::min(vmin, *v);
          vmax = std::max(vmax, *v);
        }
      }
    }
    if (vmin > vmax) continue;
    const double step = NiceStep(std::max(vmax - vmin, std::abs(vmax) * 0.02 + 1e-9), 4);
    const double y0 = std::floor(vmin / step) * step;
    const double y1 = std::ceil(vmax / step) * step + (std::ceil(vmax / step) * step == vmax ? step : 0);
    auto y_of = [&](double v) { return top + kPanelHeight - (v - y0) / (y1 - y0) * kPanelHeight; };
    absl::StrAppendFormat(&out,
                          "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
                          "stroke=\"#90a4ae\"/>\n<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">%s</text>\n",
                          kLeft, top, plot_w, kPanelHeight, kLeft, top - 8, panel.label);
    for (double v = y0; v <= y1 + step / 2; v += step) {
      const double y = y_of(v);
      absl::StrAppendFormat(&out,
                            "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eceff1\"/>"
                            "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s%s</text>\n",
                            kLeft, y, kLeft + plot_w, y, kLeft - 6, y + 4,
                            TickLabel(v, step),
                            panel.unit);
    }
    // Rate labels; one too close to the one before drops a line.
    double last_x = -1e9;
    bool dropped = false;
    for (double rate : std::set<double>(rates.begin(), rates.end())) {
      const double x = x_of(rate);
      dropped = x - last_x < 34 && !dropped;
      absl::StrAppendFormat(&out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>\n", x,
                            top + kPanelHeight + (dropped ? 30 : 16), rate);
      last_x = x;
    }
    std::string path;
    for (const SweepPoint& p : simulated) {
      if (std::optional<double> v = value(p)) {
        absl::StrAppendFormat(&path, "%s%.1f,%.1f", path.empty() ? "M" : " L", x_of(p.rows_per_ms), y_of(*v));
        absl::StrAppendFormat(&out,
                              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#1e88e5\"><title>%.0f rows/ms: "
                              "%.3f%s</title></circle>\n",
                              x_of(p.rows_per_ms), y_of(*v), p.rows_per_ms, *v, panel.unit);
      }
    }
    if (!path.empty()) {
      absl::StrAppendFormat(&out, "<path d=\"%s\" fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"2\"/>\n", path);
    }
    for (const SweepPoint& p : published) {
      if (std::optional<double> v = value(p)) {
        absl::StrAppendFormat(&out,
                              "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"#e65100\" "
                              "stroke-width=\"2\"><title>published, %.0f rows/ms: %.3f%s</title></rect>\n",
                              x_of(p.rows_per_ms) - 4.5, y_of(*v) - 4.5, p.rows_per_ms, *v, panel.unit);
      }
    }
  }
  absl::StrAppendFormat(&out,
                        "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">rows per millisecond (log scale)</text>\n",
                        kLeft + plot_w / 2, height - 18);
  return out + "</svg>\n";
}

}  // namespace innosim
