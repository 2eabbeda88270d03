#include "sim/nearest_name.h"

#include <algorithm>
#include <cctype>

namespace innosim {
namespace {

char Fold(char c) {
  if (c == '-') return '_';
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

}  // namespace

namespace {

// The distance, or `limit` + 1 as soon as a whole row of the table exceeds
// `limit` (every later row can only be larger).
size_t BoundedDistance(std::string_view a_in, std::string_view b_in, size_t limit) {
  std::string a(a_in), b(b_in);
  for (char& c : a) c = Fold(c);
  for (char& c : b) c = Fold(c);
  // Three rows of the optimal-string-alignment table in one buffer, on the
  // stack for the names users type (a heap one for longer text).
  const size_t w = b.size() + 1;
  constexpr size_t kStackWidth = 128;
  size_t stack_rows[3 * kStackWidth];
  std::vector<size_t> heap_rows;
  if (w > kStackWidth) heap_rows.resize(3 * w);
  size_t* prev2 = w > kStackWidth ? heap_rows.data() : stack_rows;
  size_t* prev = prev2 + w;
  size_t* cur = prev + w;
  for (size_t j = 0; j < w; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j < w; ++j) {
      size_t d = std::min(prev[j] + 1, cur[j - 1] + 1);
      d = std::min(d, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
    if (*std::min_element(cur, cur + w) > limit) return limit + 1;
    size_t* t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.size()];
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  return BoundedDistance(a, b, static_cast<size_t>(-2));
}

std::string NearestName(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = static_cast<size_t>(-1);
  for (const std::string& c : candidates) {
    // The lengths alone rule most candidates out (each edit changes the
    // length by at most one), before the quadratic distance.
    const size_t gap = name.size() > c.size() ? name.size() - c.size() : c.size() - name.size();
    if (gap > 3) continue;
    const size_t d = BoundedDistance(name, c, 3);
    const size_t longer = std::max(name.size(), c.size());
    if (d == 0 || d > 3 || 3 * d > longer) continue;
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string n = NearestName(name, candidates);
  return n.empty() ? std::string() : " (did you mean '" + n + "'?)";
}

}  // namespace innosim
