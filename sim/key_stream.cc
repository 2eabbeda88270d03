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
#include "sim/stream_registry.h"
#include "sim/uuid_streams.h"
#include "sim/writers.h"

namespace innosim {
namespace {

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

}  // namespace

std::vector<std::string> GeneratorStreamNames() {
  std::vector<std::string> names;
  for (const StreamInfo& s : Streams()) names.push_back(s.name);
  return names;
}

std::string ValidStreamNames() {
  std::string s;
  for (const StreamInfo& info : Streams()) absl::StrAppend(&s, info.name, ", ");
  absl::StrAppend(&s, "file:PATH, file16:PATH, file8:PATH, fileN:PATH (N = 1..32), file:- (stdin)");
  return s;
}

bool IsKnownStreamName(const std::string& name) {
  return FindStream(name) != nullptr || FindFilePrefix(name).has_value();
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
  if (const StreamInfo* info = FindStream(spec.name); info != nullptr && info->server_assigned) {
    return spec.autoinc_bytes;
  }
  return StreamKeyWidth(spec.name);
}

int StreamKeyWidth(const std::string& name) {
  if (const StreamInfo* info = FindStream(name)) return info->key_width;
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
  if (const StreamInfo* info = FindStream(name); info != nullptr && info->check_clock != nullptr) {
    return info->check_clock(spec);
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
  const StreamInfo* info = FindStream(name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown key stream '", name, "'; valid names: ", ValidStreamNames()));
  }
  // AUTO_INCREMENT is assigned by the server, in arrival order: several
  // writers make the same keys as one.
  if (info->server_assigned) {
    if (spec.autoinc_bytes < 1) {
      return absl::InvalidArgumentError("autoinc: the integer column has 0 bytes; give 1 to 8");
    }
    return info->make(spec, spec.seed, nullptr);
  }
  if (info->uses_clock) {
    if (absl::Status s = CheckClock(spec); !s.ok()) return s;
  }
  if (!HasWriters(spec)) return info->make(spec, spec.seed, nullptr);
  if (spec.rows_per_ms == 0) {
    return absl::InvalidArgumentError("rows_per_ms is 0; it must be at least 1 (the rows of all writers per ms)");
  }
  std::vector<std::unique_ptr<KeyStream>> writers;
  writers.reserve(spec.writers);
  for (uint32_t w = 0; w < spec.writers; ++w) writers.push_back(MakeWriterStream(spec, w));
  return NewWritersStream(spec, std::move(writers));
}

std::unique_ptr<KeyStream> NewAutoIncStream(int bytes, bool is_unsigned, uint64_t start) {
  if (bytes < 8) return std::make_unique<NarrowAutoIncStream>(bytes, is_unsigned, start);
  return std::make_unique<AutoIncStream>(start);
}

}  // namespace innosim
