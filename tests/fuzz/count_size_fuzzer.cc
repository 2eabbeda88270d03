// libFuzzer harness: counts and sizes as users type them ("10M", "1.5G",
// "50,110,250").
//
// The input goes to ParseCount, ParseCountList and ParseSize. Contract
// checked: no crash, no sanitizer report; a count is positive, and a list
// that parses has as many counts as comma-separated pieces.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/server_settings.h"
#include "sim/count.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<uint64_t> count = innosim::ParseCount(text);
  if (count.ok() && *count == 0) std::abort();
  absl::StatusOr<std::vector<uint64_t>> list = innosim::ParseCountList(text);
  if (list.ok() && list->size() != static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1) {
    std::abort();
  }
  (void)innosim::ParseSize(text);
  return 0;
}
