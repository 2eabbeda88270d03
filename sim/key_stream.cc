// MakeKeyStream: the stream names, spec validation, and the auto-increment
// stream. The generators live in uuid_streams.cc, file reading in
// file_key_stream.cc.
#include "sim/key_stream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/file_key_stream.h"
#include "sim/uuid_streams.h"

namespace innosim {
namespace {

// The generators, in the order messages and help list them.
constexpr const char* kGeneratorNames[] = {
    "uuidv4",      "uuidv7-random", "uuidv7-counter", "uuidv7-subms",   "uuidv1",    "uuidv1-swap",
    "uuidv6",      "ulid",          "ulid-monotonic", "snowflake",      "autoinc",
};

// Generators that read the synthetic clock (rows_per_ms, start_ms).
bool UsesClock(std::string_view name) {
  return name != "uuidv4" && name != "autoinc";
}

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

bool IsGenerator(std::string_view name) {
  for (const char* n : kGeneratorNames) {
    if (name == n) return true;
  }
  return false;
}

}  // namespace

const std::vector<std::string>& GeneratorStreamNames() {
  static const std::vector<std::string> names(std::begin(kGeneratorNames), std::end(kGeneratorNames));
  return names;
}

std::string ValidStreamNames() {
  std::string s;
  for (const char* n : kGeneratorNames) absl::StrAppend(&s, n, ", ");
  absl::StrAppend(&s, "file:PATH, file16:PATH, file8:PATH");
  return s;
}

bool IsKnownStreamName(const std::string& name) {
  return IsGenerator(name) || FindFilePrefix(name) != nullptr;
}

int StreamKeyWidth(const std::string& name) {
  if (name == "autoinc" || name == "snowflake") return 8;
  if (const FilePrefix* p = FindFilePrefix(name)) return p->format == KeyFileFormat::kBinary8 ? 8 : 16;
  return 16;
}

absl::StatusOr<std::unique_ptr<KeyStream>> MakeKeyStream(const StreamSpec& spec) {
  const std::string& name = spec.name;
  if (const FilePrefix* p = FindFilePrefix(name)) {
    return OpenKeyFile(name.substr(p->prefix.size()), p->format);
  }
  if (name == "uuidv4") return NewUuidV4Stream(spec.seed);
  if (name == "autoinc") return std::unique_ptr<KeyStream>(std::make_unique<AutoIncStream>());
  if (IsGenerator(name) && UsesClock(name)) {
    if (spec.rows_per_ms == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rows_per_ms is 0 for ", name,
          "; it must be at least 1 (the synthetic clock gives row i the ms start_ms + i / "
          "rows_per_ms)"));
    }
    constexpr uint64_t kMaxMs = (uint64_t{1} << 48) - 1;
    if (spec.start_ms > kMaxMs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "start_ms ", spec.start_ms, " does not fit the 48-bit timestamp of ", name, "; use a Unix "
          "time in ms below ", kMaxMs + 1, " (e.g. 1767225600000 = 2026-01-01T00:00:00Z)"));
    }
    if (name == "uuidv7-random") {
      return NewUuidV7RandomStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    }
    if (name == "uuidv7-counter") {
      return NewUuidV7CounterStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    }
    if (name == "uuidv7-subms") return NewUuidV7SubmsStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    if (name == "ulid") return NewUlidStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    if (name == "ulid-monotonic") return NewUlidMonotonicStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    if (name == "snowflake") {
      if (spec.start_ms < kSnowflakeEpochMs) {
        return absl::InvalidArgumentError(absl::StrCat(
            "start_ms ", spec.start_ms, " is before the Snowflake epoch ", kSnowflakeEpochMs,
            " (Twitter's, 2010-11-04T01:42:54.657Z); use a later Unix time in ms"));
      }
      return NewSnowflakeStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    }
    if (spec.start_ms > kUuidV1MaxStartMs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "start_ms ", spec.start_ms, " does not fit the 60-bit timestamp of ", name,
          " (100-ns ticks since 1582-10-15); use a Unix time in ms up to ", kUuidV1MaxStartMs));
    }
    if (name == "uuidv1") return NewUuidV1Stream(spec.seed, spec.rows_per_ms, spec.start_ms);
    if (name == "uuidv1-swap") return NewUuidV1SwapStream(spec.seed, spec.rows_per_ms, spec.start_ms);
    return NewUuidV6Stream(spec.seed, spec.rows_per_ms, spec.start_ms);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown key stream '", name, "'; valid names: ", ValidStreamNames()));
}

}  // namespace innosim
