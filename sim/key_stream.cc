// MakeKeyStream: the stream names, spec validation, and the auto-increment
// stream. The generators live in uuid_streams.cc, file reading in
// file_key_stream.cc.
#include "sim/key_stream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/file_key_stream.h"
#include "sim/uuid_streams.h"

namespace innosim {
namespace {

constexpr char kValidNames[] =
    "uuidv4, uuidv7-random, uuidv7-counter, uuidv7-subms, autoinc, file:PATH, "
    "file16:PATH, file8:PATH";

// BIGINT AUTO_INCREMENT: 8-byte keys 1, 2, 3, ...
class AutoIncStream final : public KeyStream {
 public:
  bool Next(Key* out) override {
    *out = Key::FromU64(++last_);
    return true;
  }
  int key_width() const override { return 8; }

 private:
  uint64_t last_ = 0;
};

struct FilePrefix {
  std::string_view prefix;
  KeyFileFormat format;
};
constexpr FilePrefix kFilePrefixes[] = {
    {"file:", KeyFileFormat::kAuto},
    {"file16:", KeyFileFormat::kBinary16},
    {"file8:", KeyFileFormat::kBinary8},
};

const FilePrefix* FindFilePrefix(std::string_view name) {
  for (const FilePrefix& p : kFilePrefixes) {
    if (name.substr(0, p.prefix.size()) == p.prefix) return &p;
  }
  return nullptr;
}

bool IsUuidV7(std::string_view name) {
  return name == "uuidv7-random" || name == "uuidv7-counter" || name == "uuidv7-subms";
}

}  // namespace

bool IsKnownStreamName(const std::string& name) {
  return name == "uuidv4" || name == "autoinc" || IsUuidV7(name) ||
         FindFilePrefix(name) != nullptr;
}

absl::StatusOr<std::unique_ptr<KeyStream>> MakeKeyStream(const StreamSpec& spec) {
  const std::string& name = spec.name;
  if (const FilePrefix* p = FindFilePrefix(name)) {
    return OpenKeyFile(name.substr(p->prefix.size()), p->format);
  }
  if (name == "uuidv4") return NewUuidV4Stream(spec.seed);
  if (name == "autoinc") return std::unique_ptr<KeyStream>(std::make_unique<AutoIncStream>());
  if (IsUuidV7(name)) {
    if (spec.rows_per_ms == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rows_per_ms is 0 for ", name,
          "; it must be at least 1 (the synthetic clock gives row i the ms start_ms + i / "
          "rows_per_ms)"));
    }
    constexpr uint64_t kMaxMs = (uint64_t{1} << 48) - 1;
    if (spec.start_ms > kMaxMs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "start_ms ", spec.start_ms, " does not fit the 48-bit UUIDv7 timestamp; use a Unix "
          "time in ms below ", kMaxMs + 1, " (e.g. 1767225600000 = 2026-01-01T00:00:00Z)"));
    }
    if (name == "uuidv7-random") {
      return NewUuidV7RandomStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    }
    if (name == "uuidv7-counter") {
      return NewUuidV7CounterStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    }
    return NewUuidV7SubmsStream(spec.seed, spec.rows_per_ms, spec.start_ms);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown key stream '", name, "'; valid names: ", kValidNames));
}

}  // namespace innosim
