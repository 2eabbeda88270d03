#include "sim/printable.h"

#include <cstdint>
#include <cstdio>

namespace innosim {
namespace {

void Escape(uint8_t b, std::string* out) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", b);
  *out += buf;
}

// The length of the valid UTF-8 sequence at s[i] that is not a control
// (overlong forms, surrogates and C1 controls excluded), or 0.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto at = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b = at(i);
  size_t n;
  uint32_t cp;
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2, cp = b & 0x1f;
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3, cp = b & 0x0f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4, cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((at(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (at(i + k) & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  if (cp >= 0x80 && cp <= 0x9f) return 0;
  return n;
}

}  // namespace

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const uint8_t b = static_cast<uint8_t>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    const size_t n = b >= 0x80 ? Utf8Length(text, i) : 0;
    if (n == 0) {
      Escape(b, &out);
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace innosim
