#include "sim/uuid.h"

#include <array>
#include <cstdint>

namespace innosim {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Value of a hex digit, or -1.
constexpr int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string FormatUuid(const Key& key) {
  const auto b = key.Bytes();
  std::string s;
  s.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s.push_back('-');
    s.push_back(kHexDigits[b[i] >> 4]);
    s.push_back(kHexDigits[b[i] & 0x0f]);
  }
  return s;
}

std::string FormatKey(const Key& key, int width) {
  if (width == 8) return std::to_string(key.hi);
  if (width == 16) return FormatUuid(key);
  // Another width: the stored bytes in hex (an INT key's sign bit flipped).
  static constexpr char kHex[] = "0123456789abcdef";
  uint8_t b[Key::kMaxBytes];
  key.ToBytes(b, static_cast<size_t>(width));
  std::string s = "0x";
  for (int i = 0; i < width; ++i) {
    s += kHex[b[i] >> 4];
    s += kHex[b[i] & 0xF];
  }
  return s;
}

bool ParseUuid(std::string_view text, Key* key) {
  const bool hyphenated = text.size() == 36;
  if (!hyphenated && text.size() != 32) return false;
  uint64_t half[2] = {0, 0};
  int nibbles = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (hyphenated && (i == 8 || i == 13 || i == 18 || i == 23)) {
      if (text[i] != '-') return false;
      continue;
    }
    const int v = HexValue(text[i]);
    if (v < 0) return false;
    uint64_t& h = half[nibbles / 16];
    h = (h << 4) | static_cast<uint64_t>(v);
    ++nibbles;
  }
  key->hi = half[0];
  key->lo = half[1];
  return true;
}

std::string KeyBytes(const Key& key, int width) {
  std::string s(static_cast<size_t>(width), '\0');
  key.ToBytes(reinterpret_cast<uint8_t*>(s.data()), static_cast<size_t>(width));
  return s;
}

}  // namespace innosim
