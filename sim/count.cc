#include "sim/count.h"

#include <cmath>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace innosim {

namespace {

// Digits with at most one '.' between digits: no sign, space, exponent or
// hex, which strtod would take ("0x10" = 16, " 10", "1e3").
bool PlainDecimal(std::string_view t) {
  if (t.empty() || t.front() == '.' || t.back() == '.') return false;
  int dots = 0;
  for (char c : t) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      return false;
    }
  }
  return dots <= 1;
}

}  // namespace

absl::StatusOr<uint64_t> ParseCount(std::string_view text) {
  std::string t(text);
  const std::string original = t;
  double mult = 1;
  if (!t.empty()) {
    switch (t.back()) {
      case 'k': case 'K': mult = 1e3; t.pop_back(); break;
      case 'm': case 'M': mult = 1e6; t.pop_back(); break;
      case 'g': case 'G': mult = 1e9; t.pop_back(); break;
      default: break;
    }
  }
  double v = 0;
  if (!PlainDecimal(t) || !absl::SimpleAtod(t, &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", original, "' is not a count: write a whole number, optionally with k, M or G (e.g. 10M)"));
  }
  const double n = v * mult;
  if (n < 1 || n != std::floor(n) || n > 1e15) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", original, "' is not a positive whole count: use a value of at least 1 (e.g. 200k)"));
  }
  return static_cast<uint64_t>(n);
}

absl::StatusOr<std::vector<uint64_t>> ParseCountList(std::string_view text) {
  std::vector<uint64_t> out;
  for (absl::string_view part : absl::StrSplit(absl::string_view(text.data(), text.size()), ',')) {
    absl::StatusOr<uint64_t> v = ParseCount(std::string_view(part.data(), part.size()));
    if (!v.ok()) return v.status();
    out.push_back(*v);
  }
  return out;
}

}  // namespace innosim
