// The browser explainer (`innosim explain --html`) in a real browser:
// Debian's chromium, headless. The page must load without a script error,
// open at the step its URL names (#step=N) with that insert's decision in
// the DOM, draw something (a screenshot that is not blank), and reference
// nothing on the network.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

namespace fs = std::filesystem;

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(p)) return p;
  }
  return "";
}

// Runs a shell command, returning its stdout.
std::string Capture(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// Headless chromium as root in a sandbox-less container, with the flags
// that keep it off the network.
std::string ChromiumCommand(const std::string& profile_dir) {
  return Chromium() +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
         "--disable-component-update --disable-sync --user-data-dir=" +
         profile_dir;
}

uint32_t Be32(const std::string& s, size_t at) {
  return (uint32_t{static_cast<uint8_t>(s[at])} << 24) | (uint32_t{static_cast<uint8_t>(s[at + 1])} << 16) |
         (uint32_t{static_cast<uint8_t>(s[at + 2])} << 8) | uint32_t{static_cast<uint8_t>(s[at + 3])};
}

// The fraction of pixels of an 8-bit RGB or RGBA PNG that differ from its
// top-left pixel; -1 if the file is not such a PNG.
double NonBackgroundFraction(const std::string& png) {
  if (png.size() < 33 || png.compare(1, 3, "PNG") != 0) return -1;
  uint32_t width = 0, height = 0;
  int channels = 0;
  std::string idat;
  for (size_t at = 8; at + 12 <= png.size();) {
    const uint32_t len = Be32(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      width = Be32(png, at + 8);
      height = Be32(png, at + 12);
      const int depth = static_cast<uint8_t>(png[at + 16]);
      const int color = static_cast<uint8_t>(png[at + 17]);
      if (depth != 8 || (color != 2 && color != 6)) return -1;
      channels = color == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat.append(png, at + 8, len);
    }
    at += 12 + len;
  }
  if (width == 0 || channels == 0) return -1;
  const size_t stride = size_t{width} * channels;
  std::vector<uint8_t> raw((stride + 1) * height);
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK) return -1;
  std::vector<uint8_t> img(stride * height), prev(stride, 0);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = &raw[y * (stride + 1) + 1];
    uint8_t* out = &img[y * stride];
    for (size_t x = 0; x < stride; ++x) {
      const int a = x >= static_cast<size_t>(channels) ? out[x - channels] : 0;
      const int b = prev[x];
      const int c = x >= static_cast<size_t>(channels) ? prev[x - channels] : 0;
      int pred = 0;
      switch (filter) {
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) / 2;
          break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          break;
      }
      out[x] = static_cast<uint8_t>(in[x] + pred);
    }
    std::copy(out, out + stride, prev.begin());
  }
  uint64_t differ = 0;
  for (size_t i = 0; i < img.size(); i += channels) {
    bool same = true;
    for (int ch = 0; ch < 3; ++ch) same &= img[i + ch] == img[ch];
    differ += !same;
  }
  return static_cast<double>(differ) / (static_cast<double>(width) * height);
}

TEST(PngCheckTest, ABlankImageHasNoForeground) {
  // A 2x1 RGB PNG, both pixels white, filter 0: made by hand.
  const std::vector<uint8_t> rows = {0, 255, 255, 255, 255, 255, 255};
  uLongf len = compressBound(rows.size());
  std::vector<uint8_t> z(len);
  ASSERT_EQ(compress(z.data(), &len, rows.data(), rows.size()), Z_OK);
  auto be = [](uint32_t v) {
    return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                       static_cast<char>(v)};
  };
  std::string png = "\x89PNG\r\n\x1a\n";
  png += be(13) + "IHDR" + be(2) + be(1) + std::string{8, 2, 0, 0, 0} + be(0);
  png += be(static_cast<uint32_t>(len)) + "IDAT" + std::string(z.begin(), z.begin() + len) + be(0);
  EXPECT_EQ(NonBackgroundFraction(png), 0.0);
  png[png.find("IDAT") + 4] ^= 0;  // unchanged: still blank
  EXPECT_EQ(NonBackgroundFraction(png), 0.0);
}

// The DOM of `html` opened at #step=N, as chromium leaves it after its scripts.
std::string DomAt(const std::string& html, int step, const fs::path& profile) {
  return Capture(ChromiumCommand(profile.string()) + " --dump-dom 'file://" + html + "#step=" + std::to_string(step) +
                 "' 2>/dev/null");
}

// Insert `row` of `innosim explain ARGS --json`, parsed.
nlohmann::json JsonOfRow(std::vector<std::string> args, int row, const fs::path& dir) {
  for (const std::string& a :
       {std::string("--json"), std::string("--from"), std::to_string(row), std::string("--to"), std::to_string(row)}) {
    args.push_back(a);
  }
  const Output json = RunInnosim(args, (dir / "err_json.txt").string());
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out.substr(0, json.out.find('\n')), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << json.out;
  return j;
}

// The flush panel's cell `id` as the DOM has it.
std::string Cell(const std::string& id, const std::string& text) { return "<td id=\"" + id + "\">" + text + "</td>"; }

TEST(ExplainBrowserTest, OpensAtTheStepItsUrlNamesAndDrawsTheTree) {
  const std::string chromium = Chromium();
  ASSERT_FALSE(chromium.empty()) << "chromium not found: install it (apt-get install chromium; tools/install-deps.sh "
                                    "does) to test the browser explainer";
  const fs::path dir = fs::temp_directory_path() / ("innosim_explain_browser_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string html = (dir / "trace.html").string();
  const std::vector<std::string> args = {"explain", "--stream",    "uuidv7-random", "--rows",
                                         "400",     "--page-size", "4096"};
  std::vector<std::string> make = args;
  make.insert(make.end(), {"--html", html});
  const Output made = RunInnosim(make, (dir / "err.txt").string());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string page = ReadWholeFile(html);
  ASSERT_GT(page.size(), 1000u);
  for (const char* net : {"http://", "https://", "src=", "href=", "url(", "@import", "fetch("}) {
    EXPECT_EQ(page.find(net), std::string::npos) << "the page references the network: " << net;
  }
  // What step 200 must show: its decision and the flush model's state after
  // it, from the JSON of the same run.
  const nlohmann::json step200 = JsonOfRow(args, 200, dir);
  ASSERT_EQ(step200["row"], 200);
  const std::string url = "file://" + html + "#step=200";
  const std::string dom = DomAt(html, 200, dir / "profile");
  ASSERT_FALSE(dom.empty()) << "chromium printed no DOM";
  // window.onerror marks the body: <body data-js-error="...">.
  EXPECT_EQ(dom.find("data-js-error=\""), std::string::npos) << "a script error on the page";
  EXPECT_NE(dom.find("insert 200 of 400"), std::string::npos);
  EXPECT_NE(dom.find("<div id=\"decision\">" + step200["decision"].get<std::string>() + "</div>"), std::string::npos)
      << "step 200's decision '" << step200["decision"] << "' is not in the DOM";
  // The flush model runs by default: the side panel shows its state after row 200.
  const nlohmann::json& f = step200["flush"];
  ASSERT_TRUE(f.is_object()) << step200.dump();
  for (const auto& [id, field] :
       std::vector<std::pair<std::string, std::string>>{{"f-oldest", "oldest_modification"},
                                                        {"f-lsn", "lsn"},
                                                        {"f-ckpt", "checkpoint_lsn"},
                                                        {"f-age", "checkpoint_age"},
                                                        {"f-written", "Innodb_pages_written"}}) {
    EXPECT_NE(dom.find(Cell(id, std::to_string(f[field].get<uint64_t>()))), std::string::npos)
        << field << " " << f[field] << " is not in the panel";
  }
  EXPECT_NE(dom.find("<td id=\"f-dirty\">" + std::to_string(f["dirty_pages"].get<uint64_t>()) + " of "),
            std::string::npos)
      << "dirty pages " << f["dirty_pages"] << " are not in the panel";
  const std::string png = (dir / "shot.png").string();
  Capture(ChromiumCommand((dir / "profile2").string()) + " --window-size=1200,800 --screenshot=" + png + " '" + url +
          "' 2>/dev/null");
  const double drawn = NonBackgroundFraction(ReadWholeFile(png));
  EXPECT_GT(drawn, 0.02) << "the screenshot is blank (or not a PNG: " << drawn << ")";
  fs::remove_all(dir);
}

// A small pool with a low dirty-page limit: the page cleaner writes while
// the rows go in, and the panel at #step=N shows step N's count, not the
// final one. Without the flush model the panel says so.
TEST(ExplainBrowserTest, TheFlushPanelFollowsTheSteps) {
  ASSERT_FALSE(Chromium().empty()) << "chromium not found: apt-get install chromium";
  const fs::path dir = fs::temp_directory_path() / ("innosim_explain_flush_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::vector<std::string> args = {"explain",
                                         "--stream",
                                         "uuidv4",
                                         "--rows",
                                         "400",
                                         "--page-size",
                                         "4096",
                                         "--rows-per-sec",
                                         "50",
                                         "--set",
                                         "innodb_buffer_pool_size=5M",
                                         "--set",
                                         "innodb_max_dirty_pages_pct=1",
                                         "--set",
                                         "innodb_max_dirty_pages_pct_lwm=0.5"};
  const std::string html = (dir / "flush.html").string();
  std::vector<std::string> make = args;
  make.insert(make.end(), {"--html", html});
  const Output made = RunInnosim(make, (dir / "err.txt").string());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  for (int step : {120, 330}) {
    const nlohmann::json f = JsonOfRow(args, step, dir)["flush"];
    ASSERT_TRUE(f.is_object());
    const uint64_t written = f["Innodb_pages_written"].get<uint64_t>();
    EXPECT_GT(written, 0u) << "the page cleaner wrote nothing by row " << step;
    const std::string dom = DomAt(html, step, dir / ("profile" + std::to_string(step)));
    EXPECT_EQ(dom.find("data-js-error=\""), std::string::npos) << "a script error on the page";
    EXPECT_NE(dom.find(Cell("f-written", std::to_string(written))), std::string::npos)
        << "row " << step << ": Innodb_pages_written " << written << " is not in the panel";
    EXPECT_NE(dom.find(Cell("f-age", std::to_string(f["checkpoint_age"].get<uint64_t>()))), std::string::npos);
  }
  const std::string plain = (dir / "plain.html").string();
  std::vector<std::string> no_flush = {"explain", "--stream", "uuidv4", "--rows", "50", "--no-flush", "--html", plain};
  ASSERT_EQ(RunInnosim(no_flush, (dir / "err2.txt").string()).exit_code, 0);
  const std::string dom = DomAt(plain, 20, dir / "profile_plain");
  EXPECT_NE(dom.find(Cell("f-off", "off (--no-flush)")), std::string::npos);
  EXPECT_EQ(dom.find("id=\"f-written\""), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace innosim
