#include "tools/bench.h"

#include <malloc.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>

#include "absl/container/btree_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/engine.h"

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

}  // namespace

absl::StatusOr<BenchResult> RunBench(const RunSpec& spec) {
  if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
  BenchResult r;
  r.spec = spec;
  absl::StatusOr<BenchSide> a = Measure([&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec.stream);
    if (!ks.ok()) return ks.status();
    EngineProfile profile = *EngineProfile::ByName(spec.profile);
    profile.page_size = spec.page_size;
    auto engine = std::make_unique<Engine>(profile, Seed000Table((*ks)->key_width()));
    Key k;
    for (uint64_t i = 0; i < spec.rows && (*ks)->Next(&k); ++i) {
      if (absl::Status s = engine->InsertRow(k); !s.ok()) return s;
    }
    r.index_page_splits = engine->primary().counters().index_page_splits;
    return absl::OkStatus();
  });
  if (!a.ok()) return a.status();
  r.innosim = *a;
  absl::StatusOr<BenchSide> b = Measure([&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<KeyStream>> ks = MakeKeyStream(spec.stream);
    if (!ks.ok()) return ks.status();
    auto set = std::make_unique<absl::btree_set<Key>>();
    Key k;
    for (uint64_t i = 0; i < spec.rows && (*ks)->Next(&k); ++i) set->insert(k);
    return absl::OkStatus();
  });
  if (!b.ok()) return b.status();
  r.btree_set = *b;
  return r;
}

std::string BenchReport(const BenchResult& r) {
  const double rows = static_cast<double>(r.spec.rows);
  std::string s;
  absl::StrAppendFormat(&s, "bench: %s, %d rows, rows_per_ms %d, seed %d\n\n", r.spec.stream.name, r.spec.rows,
                        r.spec.stream.rows_per_ms, r.spec.stream.seed);
  absl::StrAppendFormat(&s, "%-22s %10s %14s %12s\n", "", "time", "peak RSS", "bytes/row");
  absl::StrAppendFormat(&s, "%-22s %9.2fs %11.1f MB %12.1f\n", "innosim", r.innosim.seconds,
                        r.innosim.peak_rss_bytes / 1e6, r.innosim.peak_rss_bytes / rows);
  absl::StrAppendFormat(&s, "%-22s %9.2fs %11.1f MB %12.1f\n", "absl::btree_set<Key>", r.btree_set.seconds,
                        r.btree_set.peak_rss_bytes / 1e6, r.btree_set.peak_rss_bytes / rows);
  absl::StrAppendFormat(&s, "\ntime ratio innosim / btree_set:   %.2fx\n",
                        r.btree_set.seconds > 0 ? r.innosim.seconds / r.btree_set.seconds : 0.0);
  absl::StrAppendFormat(&s, "memory ratio innosim / btree_set: %.2fx\n",
                        r.btree_set.peak_rss_bytes > 0
                            ? static_cast<double>(r.innosim.peak_rss_bytes) / r.btree_set.peak_rss_bytes
                            : 0.0);
  absl::StrAppendFormat(&s, "(innosim index_page_splits: %d)\n", r.index_page_splits);
  return s;
}

}  // namespace innosim
