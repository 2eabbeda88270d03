// The stream table: one row per generator (sim/stream_registry.h).
#include "sim/stream_registry.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "sim/uuid_streams.h"

namespace innosim {
namespace {

// The generators that run on a clock (sim/uuid_streams.h): the single
// writer's synthetic clock, or writer timing->index's own.
std::unique_ptr<KeyStream> MakeClockStream(const StreamSpec& spec, uint64_t seed, const WriterTiming* timing) {
  if (timing != nullptr) return NewWriterClockStream(spec.name, seed, *timing);
  return NewClockStream(spec.name, seed, spec.rows_per_ms, spec.start_ms);
}

std::unique_ptr<KeyStream> MakeUuidV4(const StreamSpec&, uint64_t seed, const WriterTiming*) {
  return NewUuidV4Stream(seed);
}

// AUTO_INCREMENT (a sequence on PostgreSQL): the server assigns 1, 2, 3, ...
// in arrival order, in the table's integer width (StreamSpec::autoinc_bytes).
std::unique_ptr<KeyStream> MakeAutoInc(const StreamSpec& spec, uint64_t, const WriterTiming*) {
  return NewAutoIncStream(spec.autoinc_bytes, spec.autoinc_unsigned, spec.autoinc_start);
}

absl::Status SnowflakeClock(const StreamSpec& spec) {
  if (spec.start_ms >= kSnowflakeEpochMs) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "start_ms ", spec.start_ms, " is before the Snowflake epoch ", kSnowflakeEpochMs,
      " (Twitter's, 2010-11-04T01:42:54.657Z); use a later Unix time in ms"));
}

absl::Status UuidV1Clock(const StreamSpec& spec) {
  if (spec.start_ms <= kUuidV1MaxStartMs) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "start_ms ", spec.start_ms, " does not fit the 60-bit timestamp of ", spec.name,
      " (100-ns ticks since 1582-10-15); use a Unix time in ms up to ", kUuidV1MaxStartMs));
}

StreamInfo Generator(std::string name, std::string help) {
  StreamInfo s;
  s.name = std::move(name);
  s.make = MakeClockStream;
  s.help = std::move(help);
  return s;
}

std::vector<StreamInfo> BuiltinStreams() {
  std::vector<StreamInfo> t;
  StreamInfo v4;
  v4.name = "uuidv4";
  v4.uses_clock = false;
  v4.scattered = true;
  v4.make = MakeUuidV4;
  v4.help = "RFC 9562 version 4: 122 random bits (PostgreSQL's gen_random_uuid())";
  t.push_back(v4);
  t.push_back(Generator("uuidv7-random", "version 7: 48-bit ms from the synthetic clock, the other 74 bits random"));
  t.push_back(Generator("uuidv7-counter", "version 7, RFC 9562 method 2: a 12-bit counter reset each ms"));
  t.push_back(Generator("uuidv7-subms",
                        "version 7, RFC 9562 method 3: the sub-ms fraction in rand_a (PostgreSQL 18's uuidv7())"));
  StreamInfo v1 = Generator("uuidv1", "MySQL's UUID() stored by UUID_TO_BIN(x): time_low first, restarts every 429.5 s");
  v1.check_clock = UuidV1Clock;
  t.push_back(v1);
  StreamInfo swap = Generator("uuidv1-swap", "MySQL's UUID() stored by UUID_TO_BIN(x, 1): ascending");
  swap.version_nibble = false;  // the version nibble moves with time_high to byte 0
  swap.check_clock = UuidV1Clock;
  t.push_back(swap);
  StreamInfo v6 = Generator("uuidv6", "RFC 9562 version 6: the v1 timestamp most significant first");
  v6.check_clock = UuidV1Clock;
  t.push_back(v6);
  StreamInfo ulid = Generator("ulid", "48-bit ms + 80 random bits");
  ulid.version_nibble = false;
  t.push_back(ulid);
  StreamInfo ulid_mono = Generator("ulid-monotonic", "ULID's monotonic mode: +1 within a ms");
  ulid_mono.version_nibble = false;
  t.push_back(ulid_mono);
  StreamInfo snowflake = Generator("snowflake", "Twitter's BIGINT: 41-bit ms, 10-bit machine, 12-bit sequence");
  snowflake.key_width = 8;
  snowflake.version_nibble = false;
  snowflake.check_clock = SnowflakeClock;
  t.push_back(snowflake);
  StreamInfo autoinc;
  autoinc.name = "autoinc";
  autoinc.key_width = 8;
  autoinc.uses_clock = false;
  autoinc.server_assigned = true;
  autoinc.version_nibble = false;
  autoinc.make = MakeAutoInc;
  autoinc.help = "BIGINT AUTO_INCREMENT / a sequence: 1, 2, 3, ... (the table's integer width)";
  t.push_back(autoinc);
  return t;
}

std::vector<StreamInfo>& Table() {
  static std::vector<StreamInfo>* table = new std::vector<StreamInfo>(BuiltinStreams());
  return *table;
}

}  // namespace

const std::vector<StreamInfo>& Streams() { return Table(); }

const StreamInfo* FindStream(std::string_view name) {
  for (const StreamInfo& s : Table()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

absl::Status RegisterStream(StreamInfo info) {
  if (info.name.empty() || info.make == nullptr) {
    return absl::InvalidArgumentError("a stream needs a name and a factory");
  }
  if (FindStream(info.name) != nullptr) {
    return absl::AlreadyExistsError(absl::StrCat("stream '", info.name, "' is registered already"));
  }
  Table().push_back(std::move(info));
  return absl::OkStatus();
}

std::string StreamOptionHelp() {
  std::string s;
  for (const StreamInfo& info : Table()) absl::StrAppend(&s, info.name, ", ");
  absl::StrAppend(&s, "file:PATH (docs/key-streams.md)");
  return s;
}

std::unique_ptr<KeyStream> MakeWriterStream(const StreamSpec& spec, uint32_t w) {
  const StreamInfo* info = FindStream(spec.name);
  if (info == nullptr) return nullptr;
  const WriterTiming timing = TimingOf(spec, w);
  return info->make(spec, WriterSeed(spec.seed, w), &timing);
}

}  // namespace innosim
