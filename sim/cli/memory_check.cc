#include "sim/cli/memory_check.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "absl/strings/str_format.h"
#include "model/key.h"
#include "model/postgres/nbtree.h"
#include "model/postgres/profile.h"

namespace innosim::cli {
namespace {

// The memory this process may count on: MemAvailable of /proc/meminfo (free
// memory plus what the kernel can reclaim), else the physical memory; 0
// when neither is known.
uint64_t AvailableMemory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemAvailable:") return kb * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_bytes > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_bytes) : 0;
}

}  // namespace

uint64_t ModelBytesPerRow(const RunSpec& spec) {
  if (postgres::FindPgProfile(spec.profile)) return postgres::BtIndex::ModelTupleBytes();
  return sizeof(KeyHalf);
}

absl::Status CheckMemoryFor(const std::vector<RunSpec>& specs, uint64_t parallel, bool force,
                            uint64_t extra_per_row) {
  if (force || specs.empty()) return absl::OkStatus();
  struct Need {
    long double bytes;
    uint64_t rows;
    uint64_t per_row;
  };
  std::vector<Need> needs;
  for (const RunSpec& s : specs) {
    const uint64_t n = RowsToInsert(s);
    const uint64_t b = ModelBytesPerRow(s) + extra_per_row;
    needs.push_back({static_cast<long double>(n) * static_cast<long double>(b), n, b});
  }
  // The runs held at once: at worst the largest `parallel` of them.
  std::stable_sort(needs.begin(), needs.end(), [](const Need& x, const Need& y) { return x.bytes > y.bytes; });
  const size_t at_once = static_cast<size_t>(std::min<uint64_t>(std::max<uint64_t>(parallel, 1), needs.size()));
  long double need = 0;
  for (size_t i = 0; i < at_once; ++i) need += needs[i].bytes;
  const uint64_t have = AvailableMemory();
  if (have == 0 || need <= static_cast<long double>(have)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "%d rows need at least %.1f GB of memory in the model (%d bytes a row%s) but %.1f GB is available here: "
      "give fewer rows, or --force to try anyway",
      needs[0].rows, static_cast<double>(need / 1e9), needs[0].per_row,
      at_once > 1 ? absl::StrFormat(" in the largest run, %d runs at once", at_once) : std::string(),
      static_cast<double>(have) / 1e9));
}

}  // namespace innosim::cli
