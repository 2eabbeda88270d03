#include "tools/bench.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>

#include "absl/container/btree_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/engine.h"
#include "nlohmann/json.hpp"
#include "sim/metrics.h"
#include "sim/load.h"

namespace innosim {
namespace {

// Resets the high-water mark of the resident set (Linux clear_refs "5").
void ResetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

// A field of /proc/self/status in bytes (VmRSS, VmHWM).
uint64_t StatusBytes(const std::string& field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(field + ":", 0) == 0) {
      std::istringstream in(line.substr(field.size() + 1));
      uint64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
  }
  return 0;
}

template <typename Fn>
absl::StatusOr<BenchSide> Measure(Fn&& fn) {
  malloc_trim(0);
  ResetPeakRss();
  const uint64_t base = StatusBytes("VmRSS");
  const auto t0 = std::chrono::steady_clock::now();
  absl::Status s = fn();
  BenchSide side;
  side.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t peak = StatusBytes("VmHWM");
  side.peak_rss_bytes = peak > base ? peak - base : 0;
  if (!s.ok()) return s;
  return side;
}

absl::StatusOr<BenchSide> RunInnosimSide(const RunSpec& spec, uint64_t* index_page_splits) {
  return Measure([&]() -> absl::Status {
    // Through the run's own path (sim/load.h): the structure only unless
    // spec.flush (bench --flush: the buffer pool, redo log and page cleaner
    // too, what a default `run` simulates).
    absl::StatusOr<std::unique_ptr<Load>> load = Load::Prepare(spec);
    if (!load.ok()) return load.status();
    if (absl::Status s = (*load)->Insert((*load)->stream(), spec.rows, 0); !s.ok()) return s;
    if (absl::Status s = (*load)->engine().EndLoad(); !s.ok()) return s;
    (*load)->driver().Finish(&(*load)->result());
    *index_page_splits = (*load)->result().report.primary.counters.index_page_splits;
    return absl::OkStatus();
  });
}

absl::StatusOr<BenchSide> RunBtreeSetSide(const RunSpec& spec) {
  return Measure([&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec.stream);
    if (!ks.ok()) return ks.status();
    // The streams' keys are 16 bytes: their heads (model/key.h).
    auto set = std::make_unique<absl::btree_set<KeyHalf>>();
    Key k;
    for (uint64_t i = 0; i < spec.rows && (*ks)->Next(&k); ++i) set->insert(k.head());
    return absl::OkStatus();
  });
}

// Median time (the lower middle one of an even count) and largest peak.
BenchSide Summary(std::vector<BenchSide> runs) {
  BenchSide s;
  for (const BenchSide& r : runs) s.peak_rss_bytes = std::max(s.peak_rss_bytes, r.peak_rss_bytes);
  std::sort(runs.begin(), runs.end(), [](const BenchSide& a, const BenchSide& b) { return a.seconds < b.seconds; });
  s.seconds = runs[(runs.size() - 1) / 2].seconds;
  return s;
}

}  // namespace

absl::StatusOr<BenchResult> RunBench(const RunSpec& spec, int repetitions) {
  if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
  if (repetitions < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--repetitions must be at least 1 (got ", repetitions, ")"));
  }
  BenchResult r;
  r.spec = spec;
  for (int rep = 0; rep < repetitions; ++rep) {
    // Even repetitions run innosim first, odd ones btree_set.
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (rep % 2 == 0)) {
        uint64_t splits = 0;
        absl::StatusOr<BenchSide> a = RunInnosimSide(spec, &splits);
        if (!a.ok()) return a.status();
        // The engine is deterministic: every repetition does the same work.
        if (rep > 0 && splits != r.index_page_splits) {
          return absl::InternalError(absl::StrCat("repetition ", rep + 1, " made ", splits,
                                                  " page splits where the first made ", r.index_page_splits));
        }
        r.index_page_splits = splits;
        r.innosim_runs.push_back(*a);
      } else {
        absl::StatusOr<BenchSide> b = RunBtreeSetSide(spec);
        if (!b.ok()) return b.status();
        r.btree_set_runs.push_back(*b);
      }
    }
  }
  r.innosim = Summary(r.innosim_runs);
  r.btree_set = Summary(r.btree_set_runs);
  return r;
}

std::string BenchReport(const BenchResult& r) {
  const double rows = static_cast<double>(r.spec.rows);
  std::string s;
  const size_t reps = r.innosim_runs.size();
  absl::StrAppendFormat(&s, "bench: %s, %d rows, rows_per_ms %d, seed %d%s", r.spec.stream.name, r.spec.rows,
                        r.spec.stream.rows_per_ms, r.spec.stream.seed,
                        r.spec.flush ? ", innosim with the flush model" : "");
  if (reps > 1) {
    absl::StrAppendFormat(&s, ", %d repetitions (the sides take turns going first)\n\n", reps);
    absl::StrAppendFormat(&s, "%-12s %10s %10s %8s\n", "repetition", "innosim", "btree_set", "ratio");
    for (size_t i = 0; i < reps; ++i) {
      const double a = r.innosim_runs[i].seconds;
      const double b = r.btree_set_runs[i].seconds;
      absl::StrAppendFormat(&s, "%-12d %9.2fs %9.2fs %7.2fx\n", i + 1, a, b, b > 0 ? a / b : 0.0);
    }
    absl::StrAppendFormat(&s, "\nmedian time, largest peak RSS:\n");
  } else {
    absl::StrAppendFormat(&s, "\n");
  }
  absl::StrAppendFormat(&s, "\n");
  absl::StrAppendFormat(&s, "%-24s %10s %14s %12s\n", "", "time", "peak RSS", "bytes/row");
  absl::StrAppendFormat(&s, "%-24s %9.2fs %11.1f MB %12.1f\n", "innosim", r.innosim.seconds,
                        r.innosim.peak_rss_bytes / 1e6, r.innosim.peak_rss_bytes / rows);
  absl::StrAppendFormat(&s, "%-24s %9.2fs %11.1f MB %12.1f\n", "absl::btree_set<KeyHalf>", r.btree_set.seconds,
                        r.btree_set.peak_rss_bytes / 1e6, r.btree_set.peak_rss_bytes / rows);
  absl::StrAppendFormat(&s, "\ntime ratio innosim / btree_set:   %.2fx\n",
                        r.btree_set.seconds > 0 ? r.innosim.seconds / r.btree_set.seconds : 0.0);
  absl::StrAppendFormat(&s, "memory ratio innosim / btree_set: %.2fx\n",
                        r.btree_set.peak_rss_bytes > 0
                            ? static_cast<double>(r.innosim.peak_rss_bytes) / r.btree_set.peak_rss_bytes
                            : 0.0);
  absl::StrAppendFormat(&s, "(innosim %s: %d)\n", counters::kIndexPageSplits.name, r.index_page_splits);
  return s;
}

namespace {

nlohmann::ordered_json SideJson(const BenchSide& summary, const std::vector<BenchSide>& runs) {
  nlohmann::ordered_json j;
  j["seconds"] = summary.seconds;
  j["peak_rss_bytes"] = summary.peak_rss_bytes;
  nlohmann::ordered_json each = nlohmann::ordered_json::array();
  for (const BenchSide& r : runs) each.push_back({{"seconds", r.seconds}, {"peak_rss_bytes", r.peak_rss_bytes}});
  j["runs"] = std::move(each);
  return j;
}

}  // namespace

std::string BenchJson(const BenchResult& r) {
  nlohmann::ordered_json j;
  j["stream"] = r.spec.stream.name;
  j["rows"] = r.spec.rows;
  j["rows_per_ms"] = r.spec.stream.rows_per_ms;
  j["seed"] = r.spec.stream.seed;
  j["flush"] = r.spec.flush;
  j["repetitions"] = r.innosim_runs.size();
  j["innosim"] = SideJson(r.innosim, r.innosim_runs);
  j["btree_set"] = SideJson(r.btree_set, r.btree_set_runs);
  j["time_ratio"] = r.btree_set.seconds > 0 ? r.innosim.seconds / r.btree_set.seconds : 0.0;
  j["memory_ratio"] = r.btree_set.peak_rss_bytes > 0
                          ? static_cast<double>(r.innosim.peak_rss_bytes) / r.btree_set.peak_rss_bytes
                          : 0.0;
  j[counters::kIndexPageSplits.name] = r.index_page_splits;
  return j.dump() + "\n";
}

}  // namespace innosim
