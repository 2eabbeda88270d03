// Textual and raw forms of keys: the 8-4-4-4-12 UUID text that files and
// logs use, and the raw big-endian bytes a server column stores.
//
//   Key k;
//   if (ParseUuid("0190a6b2-7c4e-7d21-9f00-0123456789ab", &k)) {
//     std::string text = FormatUuid(k);   // same text, lowercase
//     std::string raw = KeyBytes(k, 16);  // 16 bytes for a BINARY(16) bind
//   }
//
// Pure functions; thread-safe.
#ifndef INNOSIM_SIM_UUID_H_
#define INNOSIM_SIM_UUID_H_

#include <string>
#include <string_view>

#include "model/key.h"

namespace innosim {

// The 16 bytes of `key` as 8-4-4-4-12 lowercase hex (36 characters).
std::string FormatUuid(const Key& key);

// A key as text for its column width: 16 -> FormatUuid, 8 -> the unsigned
// decimal value of the BIGINT (e.g. "42"), any other width (1..15) -> "0x"
// and the stored bytes in lowercase hex (INT 1 -> "0x80000001").
std::string FormatKey(const Key& key, int width);

// Parses 36-character 8-4-4-4-12 hex or 32 hex digits without hyphens, in
// either case. Nothing else is accepted (no braces, no surrounding blanks).
// Returns false and leaves *key untouched on malformed input.
bool ParseUuid(std::string_view text, Key* key);

// The first `width` (1..32) bytes of `key`, big-endian, as a byte string:
// what the server stores for BINARY(16) or BIGINT UNSIGNED (for a BIGINT
// bind, Key::hi is the integer value itself).
std::string KeyBytes(const Key& key, int width);

}  // namespace innosim

#endif  // INNOSIM_SIM_UUID_H_
