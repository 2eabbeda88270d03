// Parsing of the counts users type: "10M", "200k", "1000", "1.5M".
//
// Digits, at most one decimal point, then an optional suffix; nothing else
// (no spaces, signs, exponents or hex). Suffixes are decimal (k/K = 1e3, m/M = 1e6, g/G = 1e9) because they count
// rows, not bytes. Pure functions.
#ifndef INNOSIM_SIM_COUNT_H_
#define INNOSIM_SIM_COUNT_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace innosim {

// A positive row count. Errors name the text and the accepted forms.
absl::StatusOr<uint64_t> ParseCount(std::string_view text);
// A comma-separated list of counts: "50,110,250".
absl::StatusOr<std::vector<uint64_t>> ParseCountList(std::string_view text);

}  // namespace innosim

#endif  // INNOSIM_SIM_COUNT_H_
