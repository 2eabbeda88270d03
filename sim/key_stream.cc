// MakeKeyStream: the stream names, spec validation, and the auto-increment
// stream. The generators live in uuid_streams.cc, file reading in
// file_key_stream.cc.
#include "sim/key_stream.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "sim/file_key_stream.h"
#include "sim/uuid_streams.h"
#include "sim/writers.h"

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
  explicit AutoIncStream(uint64_t start) : last_(start) {}
  bool Next(Key* out) override {
    *out = Key::FromU64(++last_);
    return true;
  }
  int key_width() const override { return 8; }

 private:
  uint64_t last_ = 0;
};

// INT / MEDIUMINT / SMALLINT / TINYINT [UNSIGNED] AUTO_INCREMENT: 1, 2, 3,
// ... as the stored bytes, until the type's maximum.
class NarrowAutoIncStream final : public KeyStream {
 public:
  NarrowAutoIncStream(int bytes, bool is_unsigned, uint64_t start)
      : bytes_(bytes), unsigned_(is_unsigned), max_(IntegerTypeMax(bytes, is_unsigned)), last_(std::min(start, max_)) {}
  bool Next(Key* out) override {
    if (last_ == max_) {
      if (status_.ok()) {
        status_ = absl::InvalidArgumentError(absl::StrCat(
            "autoinc: row ", max_ + 1, " is above ", IntegerTypeName(bytes_, unsigned_), "'s largest value ", max_,
            " (the server refuses the insert); lower --rows or use a wider type (e.g. INT UNSIGNED or BIGINT)"));
      }
      return false;
    }
    *out = IntegerKey(static_cast<int64_t>(++last_), bytes_, unsigned_);
    return true;
  }
  int key_width() const override { return bytes_; }
  absl::Status status() const override { return status_; }

 private:
  int bytes_;
  bool unsigned_;
  uint64_t max_;
  uint64_t last_ = 0;
  absl::Status status_;
};

// A "file:" or "fileN:" spelling: its format, record width and prefix length.
struct FilePrefix {
  KeyFileFormat format = KeyFileFormat::kAuto;
  int width = 0;           // kBinaryN's N (possibly out of 1..32: OpenKeyFile says so)
  size_t prefix_size = 0;  // "file:" = 5, "file16:" = 7
};

// "file:" or "file" + 1 to 3 digits + ":"; nullopt for anything else.
std::optional<FilePrefix> FindFilePrefix(std::string_view name) {
  if (name.substr(0, 4) != "file") return std::nullopt;
  size_t i = 4;
  int width = 0;
  while (i < name.size() && i < 7 && name[i] >= '0' && name[i] <= '9') width = width * 10 + (name[i++] - '0');
  if (i >= name.size() || name[i] != ':') return std::nullopt;
  FilePrefix p;
  p.prefix_size = i + 1;
  if (i == 4) return p;  // file:
  p.width = width;
  p.format = width == 16 ? KeyFileFormat::kBinary16 : width == 8 ? KeyFileFormat::kBinary8 : KeyFileFormat::kBinaryN;
  return p;
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
  absl::StrAppend(&s, "file:PATH, file16:PATH, file8:PATH, fileN:PATH (N = 1..32), file:- (stdin)");
  return s;
}

bool IsKnownStreamName(const std::string& name) {
  return IsGenerator(name) || FindFilePrefix(name).has_value();
}

std::string IntegerTypeName(int bytes, bool is_unsigned) {
  const char* base = bytes == 1 ? "TINYINT" : bytes == 2 ? "SMALLINT" : bytes == 3 ? "MEDIUMINT" : bytes == 4 ? "INT" : "BIGINT";
  return absl::StrCat(base, is_unsigned ? " UNSIGNED" : "");
}

uint64_t IntegerTypeMax(int bytes, bool is_unsigned) {
  const int bits = 8 * bytes - (is_unsigned ? 0 : 1);
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

Key IntegerKey(int64_t v, int bytes, bool is_unsigned) {
  if (bytes >= 8) return Key::FromU64(static_cast<uint64_t>(v));
  // InnoDB's stored form (row_mysql_store_col_in_innobase_format): the
  // integer big-endian in `bytes` bytes, the sign bit flipped for a signed
  // type, so that memcmp order is integer order.
  uint64_t stored = static_cast<uint64_t>(v) & ((uint64_t{1} << (8 * bytes)) - 1);
  if (!is_unsigned) stored ^= uint64_t{1} << (8 * bytes - 1);
  return Key{stored << (64 - 8 * bytes), 0};
}

int StreamKeyWidth(const StreamSpec& spec) {
  if (spec.name == "autoinc") return spec.autoinc_bytes;
  return StreamKeyWidth(spec.name);
}

int StreamKeyWidth(const std::string& name) {
  if (name == "autoinc" || name == "snowflake") return 8;
  if (const std::optional<FilePrefix> p = FindFilePrefix(name)) return p->format == KeyFileFormat::kAuto ? 16 : p->width;
  return 16;
}

namespace {

// The clock-reading generators' spec checks (rows_per_ms, start_ms).
absl::Status CheckClock(const StreamSpec& spec) {
  const std::string& name = spec.name;
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
  if (name == "snowflake" && spec.start_ms < kSnowflakeEpochMs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "start_ms ", spec.start_ms, " is before the Snowflake epoch ", kSnowflakeEpochMs,
        " (Twitter's, 2010-11-04T01:42:54.657Z); use a later Unix time in ms"));
  }
  if ((name == "uuidv1" || name == "uuidv1-swap" || name == "uuidv6") && spec.start_ms > kUuidV1MaxStartMs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "start_ms ", spec.start_ms, " does not fit the 60-bit timestamp of ", name,
        " (100-ns ticks since 1582-10-15); use a Unix time in ms up to ", kUuidV1MaxStartMs));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<KeyStream>> MakeKeyStream(const StreamSpec& spec) {
  const std::string& name = spec.name;
  if (absl::Status s = ValidateWriters(spec); !s.ok()) return s;
  if (const std::optional<FilePrefix> p = FindFilePrefix(name)) {
    if (HasWriters(spec)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--writers applies to generated streams, not to the key file '", name,
          "' (a file already holds the order the server sees): drop --writers"));
    }
    return OpenKeyFile(name.substr(p->prefix_size), p->format, p->width);
  }
  // AUTO_INCREMENT is assigned by the server, in arrival order: several
  // writers make the same keys as one.
  if (name == "autoinc") {
    if (spec.autoinc_bytes < 8) {
      if (spec.autoinc_bytes < 1) {
        return absl::InvalidArgumentError("autoinc: the integer column has 0 bytes; give 1 to 8");
      }
      return std::unique_ptr<KeyStream>(
          std::make_unique<NarrowAutoIncStream>(spec.autoinc_bytes, spec.autoinc_unsigned, spec.autoinc_start));
    }
    return std::unique_ptr<KeyStream>(std::make_unique<AutoIncStream>(spec.autoinc_start));
  }
  if (!IsGenerator(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown key stream '", name, "'; valid names: ", ValidStreamNames()));
  }
  if (UsesClock(name)) {
    if (absl::Status s = CheckClock(spec); !s.ok()) return s;
  }
  if (!HasWriters(spec)) {
    if (name == "uuidv4") return NewUuidV4Stream(spec.seed);
    return NewClockStream(name, spec.seed, spec.rows_per_ms, spec.start_ms);
  }
  if (spec.rows_per_ms == 0) {
    return absl::InvalidArgumentError("rows_per_ms is 0; it must be at least 1 (the rows of all writers per ms)");
  }
  std::vector<std::unique_ptr<KeyStream>> writers;
  writers.reserve(spec.writers);
  for (uint32_t w = 0; w < spec.writers; ++w) {
    const uint64_t seed = WriterSeed(spec.seed, w);
    writers.push_back(name == "uuidv4" ? NewUuidV4Stream(seed) : NewWriterClockStream(name, seed, TimingOf(spec, w)));
  }
  return NewWritersStream(spec, std::move(writers));
}

}  // namespace innosim
