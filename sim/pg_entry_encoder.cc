#include "sim/pg_entry_encoder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/nearest_name.h"

namespace innosim {
namespace {

using postgres::PgType;

// datatype/timestamp.h: POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE days
// (2000-01-01 is 10957 days after 1970-01-01), the zero of timestamp,
// timestamptz and date.
constexpr int64_t kPostgresEpochUnixUs = int64_t{10957} * 86400 * 1000000;
constexpr int64_t kUsPerDay = int64_t{86400} * 1000000;

// A signed integer of `width` bytes as bytes that order as the numbers do.
void PutSigned(int64_t v, uint32_t width, uint8_t* out) {
  PutBigEndian(static_cast<uint64_t>(v) ^ (uint64_t{1} << (8 * width - 1)), width, out);
}

// The integer a stream or primary key Key holds in a `width`-byte column:
// an 8-byte Key is the value (Key::FromU64), a narrower one the stored form
// of sim/key_stream.h IntegerKey (big-endian, sign bit flipped).
int64_t IntegerOfKey(const Key& k, uint32_t width) {
  if (width >= 8) return static_cast<int64_t>(k.hi);
  const uint32_t bits = 8 * width;
  const uint64_t stored = k.hi >> (64 - bits);
  const uint64_t twos = stored ^ (uint64_t{1} << (bits - 1));
  const uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((twos ^ sign) - sign);  // sign-extend
}

// IEEE bits that order as the numbers do (positive: sign bit flipped;
// negative: all bits inverted).
uint64_t OrderedFloatBits(uint64_t bits, uint32_t width) {
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  const uint64_t mask = width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  return (bits & sign) ? (~bits & mask) : (bits | sign);
}

void PutFloat(double v, PgType t, uint8_t* out) {
  if (t == PgType::kFloat4) {
    PutBigEndian(OrderedFloatBits(std::bit_cast<uint32_t>(static_cast<float>(v)), 4), 4, out);
  } else {
    PutBigEndian(OrderedFloatBits(std::bit_cast<uint64_t>(v), 8), 8, out);
  }
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t RandomWord(uint64_t row, uint32_t column, uint32_t i) {
  return SplitMix64(row * 0x100000001b3ull + column * 131 + i);
}

bool IsInteger(PgType t) { return t == PgType::kInt2 || t == PgType::kInt4 || t == PgType::kInt8; }
bool IsTemporal(PgType t) { return t == PgType::kTimestamp || t == PgType::kTimestamptz || t == PgType::kDate; }
bool IsText(PgType t) { return t == PgType::kText || t == PgType::kVarchar; }
bool IsFloat(PgType t) { return t == PgType::kFloat4 || t == PgType::kFloat8; }

// timestamp.c AdjustTimestampForTypmod: round half away from zero to
// `typmod` fractional digits (0..6; -1 keeps microseconds).
int64_t RoundToTypmod(int64_t t, int32_t typmod) {
  if (typmod < 0 || typmod >= 6) return t;
  static constexpr int64_t kScales[] = {1000000, 100000, 10000, 1000, 100, 10};
  const int64_t scale = kScales[typmod];
  const int64_t offset = scale / 2;
  return t >= 0 ? (t + offset) / scale * scale : -(((-t) + offset) / scale * scale);
}

// The key bytes of column c (table.cc MakeIndexDesc).
uint32_t KeyBytesOf(const postgres::PgColumn& c) {
  const int typlen = postgres::TypeInfo(c.type).typlen;
  return static_cast<uint32_t>(typlen > 0 ? typlen : c.varlena_bytes);
}

std::string Describe(const PgSchema& s, size_t c) {
  return absl::StrCat(s.values[c].type_name, " column '", s.spec.columns[c].name, "'");
}

absl::Status Refuse(const PgSchema& s, size_t c, const ColumnSource& src, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("--column ", src.column, "=", ColumnSourceText(src), ": the ",
                                                 Describe(s, c), " cannot hold it: ", why));
}

// Row numbers in text take up to 10 digits for runs below 10^10 rows.
constexpr uint32_t kMinRownumTextBytes = 10;

}  // namespace

absl::Status CheckPgColumnSources(const PgSchema& schema, const std::vector<ColumnSource>& sources) {
  std::vector<std::string> names;
  for (const postgres::PgColumn& c : schema.spec.columns) names.push_back(c.name);
  const bool one_pk = schema.spec.primary_key.size() == 1;
  std::vector<bool> seen(names.size(), false);
  for (const ColumnSource& s : sources) {
    size_t c = 0;
    while (c < names.size() && names[c] != s.column) ++c;
    if (c == names.size()) {  // unquoted names fold to lower case
      c = 0;
      while (c < names.size() && !absl::EqualsIgnoreCase(names[c], s.column)) ++c;
    }
    if (c == names.size()) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", s.column, ": the table has no such column",
                                                     DidYouMean(s.column, names), ": its columns are ",
                                                     absl::StrJoin(names, ", ")));
    }
    if (std::find(schema.spec.primary_key.begin(), schema.spec.primary_key.end(), c) !=
        schema.spec.primary_key.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--column ", s.column,
                                                     ": that is the primary key, whose values are the key stream "
                                                     "(choose them with --stream)"));
    }
    if (seen[c]) return absl::InvalidArgumentError(absl::StrCat("--column ", s.column, " is given twice: keep one"));
    seen[c] = true;
    const PgType t = schema.spec.columns[c].type;
    const uint32_t width = KeyBytesOf(schema.spec.columns[c]);
    switch (s.source) {
      case ValueSource::kDefault:
      case ValueSource::kConstant:
        break;
      case ValueSource::kRowTime:
      case ValueSource::kKeyTime:
        if (!IsTemporal(t) && t != PgType::kInt8) {
          return Refuse(schema, c, s, "a time needs timestamptz, timestamp, date or bigint (ms since the epoch)");
        }
        break;
      case ValueSource::kRowNumber:
        if (IsText(t) && width < kMinRownumTextBytes) {
          return Refuse(schema, c, s, absl::StrCat("row numbers in text need ", kMinRownumTextBytes,
                                                   " or more bytes (--payload-bytes, varchar(n))"));
        }
        if (!IsInteger(t) && !IsFloat(t) && !IsText(t)) {
          return Refuse(schema, c, s, "row numbers need an integer, real, double precision or text column");
        }
        break;
      case ValueSource::kRandom:
        if (IsTemporal(t)) return Refuse(schema, c, s, "random values need a uuid, integer, text, bytea, boolean or float column");
        break;
      case ValueSource::kPrimaryKey: {
        if (!one_pk) return Refuse(schema, c, s, "the table has no one-column primary key");
        const postgres::PgColumn& pk = schema.spec.columns[schema.spec.primary_key[0]];
        if (t != pk.type) {
          return Refuse(schema, c, s, absl::StrCat("it must have the primary key's type, ",
                                                   schema.values[schema.spec.primary_key[0]].type_name));
        }
        break;
      }
      case ValueSource::kStream: {
        const int w = StreamKeyWidth(s.stream);
        const bool fits = (w == 16 && t == PgType::kUuid) || (w == 8 && t == PgType::kInt8);
        if (!fits) {
          return Refuse(schema, c, s, absl::StrCat("stream ", s.stream, " has ", w, "-byte keys: use ",
                                                   w == 16 ? "a uuid column" : w == 8 ? "a bigint column"
                                                                                      : "a 16- or 8-byte stream"));
        }
        break;
      }
    }
  }
  return absl::OkStatus();
}

ValueSource PgSourceOf(const PgSchema& schema, size_t column, const std::vector<ColumnSource>& sources) {
  const std::string& name = schema.spec.columns[column].name;
  for (const ColumnSource& s : sources) {
    if (s.source != ValueSource::kDefault && (s.column == name || absl::EqualsIgnoreCase(s.column, name))) {
      return s.source;
    }
  }
  const PgType t = schema.spec.columns[column].type;
  if (IsInteger(t)) return ValueSource::kRowNumber;
  if (t == PgType::kUuid) return ValueSource::kRandom;
  if (IsTemporal(t)) return ValueSource::kRowTime;
  return ValueSource::kConstant;
}

PgEntryEncoder::PgEntryEncoder(const PgSchema& schema, size_t index, uint64_t start_ms, double rows_per_sec,
                               const std::vector<ColumnSource>& sources, uint64_t rows_per_ms)
    : start_us_(static_cast<int64_t>(start_ms) * 1000), rows_per_ms_(rows_per_ms == 0 ? 1 : rows_per_ms) {
  const postgres::PgIndexSpec& ix = schema.spec.secondary[index];
  for (size_t c : ix.columns) {
    const postgres::PgColumn& col = schema.spec.columns[c];
    Part p;
    p.type = col.type;
    p.column = static_cast<uint32_t>(c);
    p.typmod = schema.values[c].typmod;
    p.width = std::min<uint32_t>(KeyBytesOf(col), Key::kMaxBytes - key_bytes_);
    const bool is_pk = schema.spec.primary_key.size() == 1 && schema.spec.primary_key[0] == c;
    p.source = is_pk ? ValueSource::kPrimaryKey : PgSourceOf(schema, c, sources);
    p.pk_width = schema.pk_key_bytes;
    // char(n) holds the payload's 'x's, blank-padded to n (bpchar.c bpchar).
    p.fill = schema.values[c].blank_padded ? std::min(p.width, schema.values[c].value_bytes) : p.width;
    double rate = rows_per_sec;
    for (const ColumnSource& s : sources) {
      if (s.column != col.name && !absl::EqualsIgnoreCase(s.column, col.name)) continue;
      if (s.source == ValueSource::kRowTime && s.rows_per_sec > 0) rate = s.rows_per_sec;
      if (s.source == ValueSource::kStream && !is_pk) {
        ColumnStream cs;
        StreamSpec spec;
        spec.name = s.stream;
        spec.seed = s.seed;
        spec.rows_per_ms = rows_per_ms_;
        spec.start_ms = start_ms;
        // CheckPgColumnSources accepted the name: a generator, which cannot fail.
        cs.keys = *MakeKeyStream(spec);
        p.stream = static_cast<int>(streams_.size());
        streams_.push_back(std::move(cs));
      }
    }
    p.rows_per_sec = rate > 0 ? rate : 0;
    if (p.source == ValueSource::kStream && p.stream < 0) p.source = ValueSource::kConstant;
    key_bytes_ += p.width;
    parts_.push_back(p);
  }
}

int64_t PgEntryEncoder::TimeUs(const Part& p, uint64_t row) const {
  int64_t t = start_us_;
  if (p.source == ValueSource::kKeyTime) {
    // ms(i) = start_ms + i / rows_per_ms, the rows of one ms spread over it
    // as the generators' SyntheticClock does.
    t += static_cast<int64_t>(row / rows_per_ms_) * 1000 +
         static_cast<int64_t>(row % rows_per_ms_ * 1000 / rows_per_ms_);
  } else if (p.source == ValueSource::kRowTime) {
    // row * 1e6 / rate rather than row * (1e6 / rate): row 3 at 3000 rows/s
    // is 1000 us, not 999.
    if (p.rows_per_sec > 0) t += static_cast<int64_t>(std::floor(static_cast<double>(row) * 1e6 / p.rows_per_sec));
  }
  return t;
}

const Key& PgEntryEncoder::StreamKey(int stream, uint64_t row) const {
  ColumnStream& cs = streams_[static_cast<size_t>(stream)];
  while (cs.next_row <= row) {
    cs.keys->Next(&cs.current);
    ++cs.next_row;
  }
  return cs.current;
}

Key PgEntryEncoder::Encode(uint64_t row, const Key& pk) const {
  // Fixed-length parts write their whole width (at most 16 bytes) even
  // where the last one was cut to fit the Key: room for that.
  uint8_t buf[Key::kMaxBytes + 16] = {};
  uint32_t n = 0;
  for (const Part& p : parts_) {
    uint8_t* out = buf + n;
    n += p.width;
    if (p.width == 0) continue;
    // A key taken from the stream or the primary key.
    const Key* src_key = nullptr;
    if (p.source == ValueSource::kPrimaryKey) src_key = &pk;
    if (p.source == ValueSource::kStream) src_key = &StreamKey(p.stream, row);
    if (IsInteger(p.type)) {
      int64_t v = 1;
      switch (p.source) {
        case ValueSource::kPrimaryKey:
        case ValueSource::kStream:
          v = IntegerOfKey(*src_key, p.source == ValueSource::kPrimaryKey ? p.pk_width : 8);
          break;
        case ValueSource::kRowNumber:
          v = static_cast<int64_t>(row + 1);
          break;
        case ValueSource::kRandom:
          v = static_cast<int64_t>(RandomWord(row, p.column, 0));
          break;
        case ValueSource::kRowTime:
        case ValueSource::kKeyTime: {  // bigint: ms since the Unix epoch
          const int64_t us = TimeUs(p, row);
          v = us >= 0 ? us / 1000 : (us - 999) / 1000;
          break;
        }
        default:
          break;
      }
      PutSigned(v, p.width, out);
    } else if (p.type == PgType::kUuid) {
      if (src_key != nullptr) {
        src_key->ToBytes(out, p.width);
      } else if (p.source == ValueSource::kRandom) {
        PutBigEndian(RandomWord(row, p.column, 0), 8, out);
        PutBigEndian(RandomWord(row, p.column, 8), 8, out + 8);
        // uuid.c gen_random_uuid: version 4, RFC 4122 variant.
        out[6] = static_cast<uint8_t>((out[6] & 0x0F) | 0x40);
        out[8] = static_cast<uint8_t>((out[8] & 0x3F) | 0x80);
      }  // const: the nil uuid (buf is zeroed)
    } else if (IsTemporal(p.type)) {
      const int64_t us = RoundToTypmod(TimeUs(p, row) - kPostgresEpochUnixUs, p.typmod);
      if (p.type == PgType::kDate) {
        const int64_t days = us >= 0 ? us / kUsPerDay : (us - kUsPerDay + 1) / kUsPerDay;
        PutSigned(days, 4, out);
      } else {
        PutSigned(us, 8, out);
      }
    } else if (IsText(p.type) || p.type == PgType::kBytea) {
      switch (p.source) {
        case ValueSource::kRandom:
          for (uint32_t i = 0; i < p.width; ++i) {
            const uint64_t r = RandomWord(row, p.column, i / 8) >> (8 * (i % 8));
            out[i] = p.type == PgType::kBytea ? static_cast<uint8_t>(r)
                                               : static_cast<uint8_t>("0123456789abcdef"[r & 0x0F]);
          }
          break;
        case ValueSource::kRowNumber: {
          uint64_t v = row + 1;
          for (uint32_t i = p.width; i > 0; --i) {
            out[i - 1] = static_cast<uint8_t>('0' + v % 10);
            v /= 10;
          }
          break;
        }
        default:  // const: the payload's 'x's (char(n): blank-padded)
          std::memset(out, 'x', p.fill);
          std::memset(out + p.fill, ' ', p.width - p.fill);
          break;
      }
    } else if (p.type == PgType::kBool) {
      out[0] = p.source == ValueSource::kRandom ? static_cast<uint8_t>(RandomWord(row, p.column, 0) & 1) : 1;
    } else if (IsFloat(p.type)) {
      double v = 1;
      if (p.source == ValueSource::kRowNumber) v = static_cast<double>(row + 1);
      if (p.source == ValueSource::kRandom) v = static_cast<double>(RandomWord(row, p.column, 0) >> 11) * 0x1.0p-53;
      PutFloat(v, p.type, out);
    }
  }
  return Key::FromBytes(buf, n);
}

}  // namespace innosim
