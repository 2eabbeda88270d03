// ExplainHtml: the trace of `innosim explain` as one self-contained page that
// replays it (sim/explain.h). Everything is inline: the styles, the script
// and the trace as JSON; the page makes no network request.
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "sim/explain.h"
#include "sim/uuid.h"

namespace innosim {
namespace {

const char* ShortKind(SplitDecision::Kind k) {
  switch (k) {
    case SplitDecision::Kind::kToRight:
      return "right";
    case SplitDecision::Kind::kToLeft:
      return "left";
    case SplitDecision::Kind::kMiddle:
      return "middle";
    case SplitDecision::Kind::kSure:
      return "sure";
  }
  return "";
}

// The key as lowercase hex of its head, and of its tail when it has one
// (model/key.h): ordered as the key is, a zero tail sorting first as the
// shorter string does.
std::string KeyHex(const Key& k) {
  const bool tail = k.tail() != KeyHalf{};
  return absl::BytesToHexString(KeyBytes(k, static_cast<int>(tail ? Key::kMaxBytes : Key::kHeadBytes)));
}

std::string StepLine(const TraceEvent& e) {
  switch (e.step) {
    case TraceStep::kSplit:
      return absl::StrCat(StepName(e.step), " of page ", e.page.page_no, " (level ", e.page.level, "): ", e.moved,
                          " records to page ", e.new_page, "; ", e.rule);
    case TraceStep::kNodePointer:
      return absl::StrCat("node pointer to page ", e.child, " into page ", e.page.page_no, "; ", e.rule);
    case TraceStep::kPageAllocated:
      return absl::StrCat("page ", e.page.page_no, " allocated from the ", e.leaf_segment ? "leaf" : "non-leaf",
                          " segment; ", e.rule);
    case TraceStep::kRightSiblingInsert:
      return absl::StrCat("inserted into page ", e.new_page, " (right sibling); ", e.rule);
    case TraceStep::kMerged:
      return absl::StrCat("page ", e.page.page_no, " merged into page ", e.into, "; ", e.rule);
    default:
      return absl::StrCat(StepName(e.step), ": page ", e.page.page_no, " (level ", e.page.level, "); ", e.rule);
  }
}

nlohmann::json TraceJson(const ExplainResult& r) {
  nlohmann::json meta = {{"stream", r.spec.keys.empty() ? r.spec.run.stream.name : "the keys given"},
                         {"rows", r.rows},
                         {"page_size", r.page_size},
                         {"profile", r.spec.run.profile},
                         {"table", r.table},
                         {"flush", r.flush},
                         {"frames", r.buffer_pool_frames},
                         {"rows_per_sec", r.spec.run.rows_per_sec}};
  nlohmann::json events = nlohmann::json::array();
  for (const ExplainedInsert& x : r.inserts) {
    const TraceEvent& leaf = x.steps.front();
    nlohmann::json kinds = nlohmann::json::array();
    nlohmann::json steps = nlohmann::json::array();
    nlohmann::json gone = nlohmann::json::array();
    for (size_t i = 1; i < x.steps.size(); ++i) {
      const TraceEvent& e = x.steps[i];
      if (e.step == TraceStep::kSplit) kinds.push_back(ShortKind(e.split_kind));
      if (e.step == TraceStep::kMerged) gone.push_back(e.page.page_no);
      steps.push_back(StepLine(e));
    }
    nlohmann::json pages = nlohmann::json::array();
    for (const PageAfter& p : x.pages_after) {
      pages.push_back(
          {p.page_no, p.level, p.n_recs, static_cast<double>(static_cast<int>(p.fill() * 1000)) / 1000,
           p.usable == 0 ? 0.0 : static_cast<double>(static_cast<int>(1000.0 * p.reserve / p.usable)) / 1000,
           KeyHex(p.first_key)});
    }
    // The flush model's state after the row, in FlushAfter's order (the
    // script names them): dirty pages, oldest modification, LSN,
    // checkpoint LSN, checkpoint age, Innodb_pages_written, seconds.
    const nlohmann::json flush =
        x.has_flush ? nlohmann::json::array({x.flush.dirty_pages, x.flush.oldest_modification, x.flush.lsn,
                                             x.flush.checkpoint_lsn, x.flush.checkpoint_age, x.flush.pages_written,
                                             x.flush.seconds})
                    : nlohmann::json(nullptr);
    events.push_back({{"f", flush},
                      {"r", x.row},
                      {"k", FormatKey(x.key, r.key_width)},
                      {"d", x.decision},
                      {"u", x.rule},
                      {"w", x.why},
                      {"l", leaf.page.page_no},
                      {"h",
                       {{"PAGE_N_RECS", leaf.page.n_recs},
                        {"PAGE_LAST_INSERT", leaf.page.last_insert},
                        {"PAGE_DIRECTION", DirectionName(leaf.page.direction)},
                        {"PAGE_N_DIRECTION", leaf.page.n_direction},
                        {"free", leaf.page.max_insert}}},
                      {"s", kinds},
                      {"st", steps},
                      {"p", pages},
                      {"x", gone}});
  }
  return {{"meta", meta}, {"events", events}};
}

constexpr const char* kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>innosim explain</title>
<style>
body{font:14px/1.4 sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:8px 14px;background:#263238;color:#eceff1}
header h1{font-size:17px;margin:0}
header .meta{font-size:12px;color:#b0bec5}
#controls{padding:8px 14px;display:flex;gap:6px;align-items:center;flex-wrap:wrap;border-bottom:1px solid #ddd;background:#fff}
#controls button{font-size:14px;padding:3px 9px}
#slider{flex:1;min-width:200px}
#main{display:flex;gap:12px;padding:12px 14px;align-items:flex-start}
#tree{flex:3;min-width:0}
#side{flex:2;min-width:280px;max-width:460px;background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 12px}
.level{margin-bottom:14px}
.level h3{font-size:12px;margin:0 0 4px;color:#555;font-weight:normal}
.pages{display:flex;flex-wrap:wrap;gap:4px}
.page{width:58px;border:1px solid #90a4ae;border-radius:3px;background:#fff;font-size:10px;text-align:center;padding:2px}
.page.touched{border-color:#e65100;box-shadow:0 0 0 2px #ffcc80}
.page.leaf{border-width:2px;border-color:#bf360c}
.bar{display:flex;height:10px;border:1px solid #cfd8dc;margin-top:2px}
.used{background:#1e88e5}.res{background:#ffe082}.free{background:#eceff1;flex:1}
#decision{font-size:16px;font-weight:bold;color:#bf360c;margin:4px 0}
#why{margin:4px 0 8px}
#rule{font-family:monospace}
#steps{font-size:12px;color:#444;padding-left:18px;margin:4px 0}
table.counters{border-collapse:collapse;font-size:12px;margin-top:8px}
table.counters td{padding:1px 8px 1px 0}
.legend span{display:inline-block;width:12px;height:10px;vertical-align:middle;margin:0 3px 0 8px}
.hdr{font-family:monospace;font-size:12px}
#side h4{font-size:12px;margin:10px 0 0;color:#555}
#flush td:last-child{font-family:monospace}
</style></head><body>
<header><h1>innosim explain: how InnoDB splits its pages</h1><div class="meta" id="meta"></div></header>
<div id="controls">
<button id="first" title="first insert (Home)">first</button>
<button id="prev" title="previous insert (left arrow)">&#x25C0;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next insert (right arrow)">&#x25B6;</button>
<button id="nextsplit" title="next insert that splits a page (s)">next split</button>
<input type="range" id="slider" min="1" value="1">
<span id="pos"></span>
<span class="legend"><span class="used"></span>used<span class="res"></span>1/16 reserve<span class="free" style="flex:none"></span>free</span>
</div>
<div id="main"><div id="tree"></div>
<div id="side">
<div id="row"></div>
<div id="decision"></div>
<div>rule: <span id="rule"></span></div>
<div id="why"></div>
<div class="hdr" id="header"></div>
<ol id="steps"></ol>
<table class="counters" id="counters"></table>
<h4 id="flushhead">flushing</h4>
<table class="counters" id="flush"></table>
</div></div>
<script type="application/json" id="trace">)HTML";

constexpr const char* kTail = R"HTML(</script>
<script>
"use strict";
window.addEventListener("error", function (e) { document.body.setAttribute("data-js-error", String(e.message)); });
const T = JSON.parse(document.getElementById("trace").textContent);
const E = T.events;
const $ = (id) => document.getElementById(id);
let pages = new Map();
let applied = 0;
let counts = {};
function reset() { pages = new Map(); applied = 0; counts = {right: 0, left: 0, middle: 0, sure: 0, splits: 0}; }
function apply(ev) {
  for (const p of ev.p) pages.set(p[0], {level: p[1], recs: p[2], fill: p[3], res: p[4], key: p[5]});
  for (const g of ev.x) pages.delete(g);
  for (const k of ev.s) { counts[k] += 1; counts.splits += 1; }
}
function showStep(n) {
  n = Math.max(1, Math.min(E.length, n));
  if (n < applied) reset();
  while (applied < n) { apply(E[applied]); applied += 1; }
  render(n);
}
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function render(n) {
  const ev = E[n - 1];
  const touched = new Set(ev.p.map((p) => p[0]));
  const levels = new Map();
  for (const [no, p] of pages) { if (!levels.has(p.level)) levels.set(p.level, []); levels.get(p.level).push([no, p]); }
  const tree = $("tree");
  tree.textContent = "";
  let leaves = 0, fill = 0;
  for (const level of [...levels.keys()].sort((a, b) => b - a)) {
    const list = levels.get(level).sort((a, b) => (a[1].key < b[1].key ? -1 : a[1].key > b[1].key ? 1 : a[0] - b[0]));
    const box = el("div", "level");
    box.appendChild(el("h3", null, (level === 0 ? "leaf level" : "level " + level) + ": " + list.length + " page" + (list.length === 1 ? "" : "s")));
    const row = el("div", "pages");
    for (const [no, p] of list) {
      if (level === 0) { leaves += 1; fill += p.fill; }
      const pg = el("div", "page" + (touched.has(no) ? " touched" : "") + (no === ev.l ? " leaf" : ""));
      pg.title = "page " + no + ", level " + level + ", " + p.recs + " records, " + (100 * p.fill).toFixed(1) + "% full";
      pg.appendChild(el("div", null, "p" + no));
      const bar = el("div", "bar");
      const used = el("div", "used"); used.style.width = (100 * p.fill).toFixed(1) + "%";
      const res = el("div", "res"); res.style.width = (100 * Math.min(p.res, Math.max(0, 1 - p.fill))).toFixed(1) + "%";
      bar.appendChild(used); bar.appendChild(res); bar.appendChild(el("div", "free"));
      pg.appendChild(bar);
      pg.appendChild(el("div", null, p.recs + " rec"));
      row.appendChild(pg);
    }
    box.appendChild(row);
    tree.appendChild(box);
  }
  $("row").textContent = "insert " + ev.r + " of " + E.length + ": key " + ev.k + ", leaf page " + ev.l;
  $("decision").textContent = ev.d;
  $("rule").textContent = ev.u;
  $("why").textContent = ev.w;
  const h = ev.h;
  $("header").textContent = "before: PAGE_N_RECS " + h.PAGE_N_RECS + ", PAGE_LAST_INSERT " + (h.PAGE_LAST_INSERT < 0 ? "none" : "record " + h.PAGE_LAST_INSERT) +
    ", " + h.PAGE_DIRECTION + ", PAGE_N_DIRECTION " + h.PAGE_N_DIRECTION + ", " + h.free + " bytes free";
  const steps = $("steps");
  steps.textContent = "";
  for (const s of ev.st) steps.appendChild(el("li", null, s));
  const c = $("counters");
  c.textContent = "";
  const rows = [["inserts so far", ev.r], ["page splits", counts.splits], ["  to the right", counts.right], ["  to the left", counts.left],
    ["  at the middle", counts.middle], ["  sure splits", counts.sure], ["leaf pages", leaves], ["mean leaf fill", leaves ? (100 * fill / leaves).toFixed(1) + "%" : "-"]];
  for (const [k, v] of rows) { const tr = el("tr"); tr.appendChild(el("td", null, k)); tr.appendChild(el("td", null, String(v))); c.appendChild(tr); }
  const f = $("flush");
  f.textContent = "";
  const frows = ev.f ? [["dirty pages (on the flush list)", ev.f[0] + " of " + T.meta.frames + " frames", "f-dirty"],
    ["oldest modification (LSN)", ev.f[1], "f-oldest"], ["current LSN", ev.f[2], "f-lsn"], ["last checkpoint (LSN)", ev.f[3], "f-ckpt"],
    ["checkpoint age (bytes)", ev.f[4], "f-age"], ["Innodb_pages_written", ev.f[5], "f-written"],
    ["simulated clock (s)", ev.f[6].toFixed(4), "f-clock"]]
    : [["flush model", "off (--no-flush)", "f-off"]];
  for (const [k, v, id] of frows) { const tr = el("tr"); tr.appendChild(el("td", null, k)); const td = el("td", null, String(v)); td.id = id; tr.appendChild(td); f.appendChild(tr); }
  $("slider").value = n;
  $("pos").textContent = n + " / " + E.length;
  if (location.hash !== "#step=" + n) history.replaceState(null, "", "#step=" + n);
  current = n;
}
let current = 1;
let timer = null;
function play() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
  $("play").textContent = "pause";
  timer = setInterval(() => { if (current >= E.length) { play(); return; } showStep(current + 1); }, 250);
}
function nextSplit() { for (let i = current; i < E.length; i++) { if (E[i].s.length > 0) { showStep(i + 1); return; } } }
function fromHash() { const m = /step=(\d+)/.exec(location.hash); return m ? parseInt(m[1], 10) : 1; }
$("meta").textContent = T.meta.rows + " rows of " + T.meta.stream + ", " + T.meta.page_size + "-byte pages, " + T.meta.profile + " — " + T.meta.table;
$("slider").max = E.length;
$("flushhead").textContent = T.meta.flush ? "flushing after this row (flush model at " + T.meta.rows_per_sec + " rows/s)" : "flushing";
$("slider").addEventListener("input", (e) => showStep(parseInt(e.target.value, 10)));
$("first").onclick = () => showStep(1);
$("prev").onclick = () => showStep(current - 1);
$("next").onclick = () => showStep(current + 1);
$("nextsplit").onclick = nextSplit;
$("play").onclick = play;
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") showStep(current + 1);
  else if (e.key === "ArrowLeft") showStep(current - 1);
  else if (e.key === " ") { e.preventDefault(); play(); }
  else if (e.key === "s") nextSplit();
  else if (e.key === "Home") showStep(1);
  else if (e.key === "End") showStep(E.length);
});
window.addEventListener("hashchange", () => { if (fromHash() !== current) showStep(fromHash()); });
reset();
showStep(fromHash());
</script></body></html>
)HTML";

}  // namespace

std::string ExplainHtml(const ExplainResult& r) {
  // Inside a <script> element only "</" can end it early.
  const std::string data = absl::StrReplaceAll(TraceJson(r).dump(), {{"</", "<\\/"}});
  return absl::StrCat(kHead, data, kTail);
}

}  // namespace innosim
