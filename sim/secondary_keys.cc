#include "sim/secondary_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/match.h"

namespace innosim {
namespace {

constexpr int64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

// Fraction bytes of the 5.6.4+ temporal formats (my_datetime_packed_to_binary
// and my_timestamp_to_binary in mysys/my_time.cc).
struct FractionField {
  uint64_t value = 0;
  uint32_t width = 0;  // bytes
};
FractionField Fraction(int64_t usec, uint32_t fsp) {
  switch (fsp) {
    case 1: case 2: return {static_cast<uint64_t>(usec / 10000), 1};
    case 3: case 4: return {static_cast<uint64_t>(usec / 100), 2};
    case 5: case 6: return {static_cast<uint64_t>(usec), 3};
    default: return {};
  }
}

int PutFraction(int64_t usec, uint32_t fsp, uint8_t* out) {
  const FractionField f = Fraction(usec, fsp);
  PutBigEndian(f.value, f.width, out);
  return static_cast<int>(f.width);
}

// `t` (microseconds) cut to `fsp` fractional digits: t - t % 10^(6 - fsp),
// with each divisor a constant (a division by a variable costs tens of
// cycles a row).
int64_t TruncateToFsp(int64_t t, uint32_t fsp) {
  switch (fsp) {
    case 0: return t - t % 1000000;
    case 1: return t - t % 100000;
    case 2: return t - t % 10000;
    case 3: return t - t % 1000;
    case 4: return t - t % 100;
    case 5: return t - t % 10;
    default: return t;
  }
}

// The same fraction, appended: `usec` (0..999,999) already cut to `fsp`.
void PutFraction(int64_t usec, uint32_t fsp, KeyBuilder* b) {
  const FractionField f = Fraction(usec, fsp);
  b->Put(f.value, f.width);
}

// Days since 1970-01-01 -> civil date (H. Hinnant's civil_from_days).
void CivilFromDays(int64_t z, int64_t* y, uint32_t* m, uint32_t* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const uint64_t doe = static_cast<uint64_t>(z - era * 146097);
  const uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const uint64_t mp = (5 * doy + 2) / 153;
  *d = static_cast<uint32_t>(doy - (153 * mp + 2) / 5 + 1);
  *m = static_cast<uint32_t>(mp < 10 ? mp + 3 : mp - 9);
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2 ? 1 : 0);
}

uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool IsTemporal(ColumnKind k) { return k == ColumnKind::kDatetime || k == ColumnKind::kTimestamp; }

// Whole seconds since the epoch, rounded down (before 1970 too).
int64_t FloorSeconds(int64_t epoch_us) { return epoch_us >= 0 ? epoch_us / 1000000 : (epoch_us - 999999) / 1000000; }

// DATETIME(fsp)'s bytes of epoch_us, whose whole second `secs` packs to
// `packed` (SecondaryKeyEncoder::DatetimeSecondsPacked).
int PutDatetime(uint64_t packed, int64_t secs, int64_t epoch_us, uint32_t fsp, uint8_t* out) {
  PutBigEndian(packed, 5, out);
  return 5 + PutFraction(TruncateToFsp(epoch_us - secs * 1000000, fsp), fsp, out + 5);
}

}  // namespace

int SecondaryKeyEncoder::DatetimeBytes(int64_t epoch_us, uint32_t fsp, uint8_t* out) {
  const int64_t secs = FloorSeconds(epoch_us);
  return PutDatetime(DatetimeSecondsPacked(secs), secs, epoch_us, fsp, out);
}

uint64_t SecondaryKeyEncoder::DatetimeSecondsPacked(int64_t secs) {
  const int64_t days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
  const int64_t sod = secs - days * 86400;
  int64_t y = 0;
  uint32_t m = 0, d = 0;
  CivilFromDays(days, &y, &m, &d);
  const uint64_t ymd = (static_cast<uint64_t>(y * 13 + m) << 5) | d;
  const uint64_t hms = (static_cast<uint64_t>(sod / 3600) << 12) | (static_cast<uint64_t>(sod / 60 % 60) << 6) |
                       static_cast<uint64_t>(sod % 60);
  return ((ymd << 17) | hms) + 0x8000000000ull;  // DATETIMEF_INT_OFS
}

int SecondaryKeyEncoder::TimestampBytes(int64_t epoch_us, uint32_t fsp, uint8_t* out) {
  const int64_t secs = epoch_us / 1000000;
  const int64_t usec = epoch_us % 1000000;
  PutBigEndian(static_cast<uint64_t>(secs), 4, out);
  return 4 + PutFraction(TruncateToFsp(usec, fsp), fsp, out + 4);
}

SecondaryKeyEncoder::SecondaryKeyEncoder(const TableSchema& schema, size_t index, uint64_t start_ms,
                                         double rows_per_sec, const std::vector<ColumnSource>& sources,
                                         uint64_t rows_per_ms)
    : pk_width_(schema.pk_width), start_us_(static_cast<int64_t>(start_ms) * 1000), rows_per_ms_(rows_per_ms) {
  const IndexDef& ix = schema.def.secondary[index];
  const uint32_t pk_col = schema.def.primary.columns[0];
  uint32_t total = 0;
  for (uint32_t c : ix.columns) {
    Part p;
    p.value = schema.values[c];
    p.column = c;
    p.is_pk = c == pk_col;
    p.source = p.is_pk ? ValueSource::kPrimaryKey : SourceOf(schema, c, sources);
    p.width = schema.def.columns[c].stored_bytes;
    double rate = rows_per_sec;
    for (const ColumnSource& s : sources) {
      if (absl::EqualsIgnoreCase(s.column, schema.def.columns[c].name)) {
        if (s.source == ValueSource::kRowTime && s.rows_per_sec > 0) rate = s.rows_per_sec;
        if (s.source == ValueSource::kStream) {
          ColumnStream cs;
          // CheckColumnSources accepted the name: a generator, which cannot fail.
          StreamSpec spec;
          spec.name = s.stream;
          spec.seed = s.seed;
          spec.rows_per_ms = rows_per_ms;
          spec.start_ms = start_ms;
          cs.keys = *MakeKeyStream(spec);
          p.stream = static_cast<int>(streams_.size());
          streams_.push_back(std::move(cs));
        }
      }
    }
    p.us_per_row = rate > 0 ? 1e6 / rate : 0;
    parts_.push_back(p);
    total += p.width;
  }
  total += pk_width_;
  if (total <= Key::kMaxBytes) {
    pk_bytes_kept_ = pk_width_;
    return;
  }
  // Compact form: the same order over the run in fewer bytes.
  exact_ = false;
  total = 0;
  std::vector<Part> compact;
  for (Part p : parts_) {
    switch (p.source) {
      case ValueSource::kPrimaryKey:
      case ValueSource::kRandom:
      case ValueSource::kStream:
        break;  // keys and random tokens keep their bytes
      case ValueSource::kConstant:
      case ValueSource::kDefault:
        continue;  // a constant orders nothing
      case ValueSource::kRowTime:
      case ValueSource::kKeyTime:
        p.width = IsTemporal(p.value.kind) ? (p.value.fsp >= 5 ? 6 : 5) : std::min<uint32_t>(p.width, 5);
        break;
      case ValueSource::kRowNumber:
        p.width = std::min<uint32_t>(p.width, 5);
        break;
    }
    compact.push_back(p);
    total += p.width;
  }
  parts_ = std::move(compact);
  pk_bytes_kept_ = total >= Key::kMaxBytes ? 0 : std::min<uint32_t>(pk_width_, Key::kMaxBytes - total);
}

int64_t SecondaryKeyEncoder::RowTimeUs(int64_t start_us, double us_per_row, uint64_t row, uint32_t fsp) {
  // floor, without a call for the usual non-negative product (for x >= 0
  // the conversion's truncation is the floor).
  const double x = static_cast<double>(row) * us_per_row;
  const int64_t t = start_us + (x >= 0 ? static_cast<int64_t>(x) : static_cast<int64_t>(std::floor(x)));
  return TruncateToFsp(t, fsp);
}

int64_t SecondaryKeyEncoder::KeyTimeUs(int64_t start_us, uint64_t rows_per_ms, uint64_t row, uint32_t fsp) {
  // ms(i) = start_ms + i / rows_per_ms, with the sub-ms part as the
  // generators' SyntheticClock spreads the rows of one ms.
  const int64_t t = start_us + static_cast<int64_t>(row / rows_per_ms) * 1000 +
                    static_cast<int64_t>(row % rows_per_ms * 1000 / rows_per_ms);
  return TruncateToFsp(t, fsp);
}

void SecondaryKeyEncoder::RandomBytes(uint64_t row, uint32_t column, uint32_t width, uint8_t* out) {
  for (uint32_t i = 0; i < width; i += 8) {
    uint8_t r[8];
    PutBigEndian(SplitMix64(row * 0x100000001b3ull + column * 131 + i), 8, r);
    std::memcpy(out + i, r, std::min<uint32_t>(8, width - i));
  }
}

int64_t SecondaryKeyEncoder::TimeUs(const Part& p, uint64_t row, uint32_t fsp) const {
  return p.source == ValueSource::kKeyTime ? KeyTimeUs(start_us_, rows_per_ms_, row, fsp)
                                           : RowTimeUs(start_us_, p.us_per_row, row, fsp);
}

const Key& SecondaryKeyEncoder::StreamKey(int stream, uint64_t row) const {
  ColumnStream& cs = streams_[static_cast<size_t>(stream)];
  while (cs.next_row <= row) {
    cs.keys->Next(&cs.current);
    ++cs.next_row;
  }
  return cs.current;
}

Key SecondaryKeyEncoder::Encode(uint64_t row, const Key& pk) const {
  // The bytes as InnoDB stores them, left to right, each part taking its
  // width (bytes a part leaves unwritten are zero); past 64 bytes the
  // remaining parts are dropped, and the Key keeps the first 32.
  KeyBuilder b;
  for (const Part& p : parts_) {
    const uint32_t start = b.size();
    if (start + p.width > 64) break;
    const bool is_int = p.value.kind == ColumnKind::kInteger;
    // InnoDB stores a signed integer big-endian with its sign bit flipped
    // (row_mysql_store_col_in_innobase_format), so bytes order as numbers.
    const uint64_t sign = exact_ && is_int && !p.value.is_unsigned ? 1ull << (8 * p.width - 1) : 0;
    switch (p.source) {
      case ValueSource::kPrimaryKey:
        b.PutKey(pk, std::min<uint32_t>(p.width, Key::kMaxBytes));
        break;
      case ValueSource::kStream:
        b.PutKey(StreamKey(p.stream, row), std::min<uint32_t>(p.width, Key::kMaxBytes));
        break;
      case ValueSource::kRandom: {
        uint8_t bytes[64];
        RandomBytes(row, p.column, p.width, bytes);
        b.PutBytes(bytes, p.width);
        break;
      }
      case ValueSource::kDefault:
      case ValueSource::kConstant:
        if (p.value.kind == ColumnKind::kChar || p.value.kind == ColumnKind::kVarchar) {
          for (uint32_t i = 0; i < p.width; i += 8) b.Put(0x7878787878787878ull, std::min<uint32_t>(8, p.width - i));
        } else if (is_int) {
          b.Put(1 ^ sign, p.width);
        } else if (p.value.kind == ColumnKind::kDatetime || p.value.kind == ColumnKind::kTimestamp) {
          uint8_t bytes[16];
          const int64_t t = TruncateToFsp(start_us_, p.value.fsp);
          const int n = p.value.kind == ColumnKind::kDatetime ? DatetimeBytes(t, p.value.fsp, bytes)
                                                              : TimestampBytes(t, p.value.fsp, bytes);
          b.PutBytes(bytes, static_cast<uint32_t>(n));
        }  // else zero bytes
        break;
      case ValueSource::kRowNumber:
        b.Put((row + 1) ^ sign, p.width);
        break;
      case ValueSource::kRowTime:
      case ValueSource::kKeyTime: {
        if (is_int) {  // BIGINT: ms since the epoch
          const int64_t ms = TimeUs(p, row, 3) / 1000;
          const int64_t v = exact_ ? ms : ms - start_us_ / 1000;
          b.Put(static_cast<uint64_t>(v) ^ sign, p.width);
          break;
        }
        const int64_t t = TimeUs(p, row, p.value.fsp);
        if (!exact_) {
          const int64_t unit = kPow10[6 - p.value.fsp];
          b.Put(static_cast<uint64_t>((t - TruncateToFsp(start_us_, p.value.fsp)) / unit), p.width);
        } else if (p.value.kind == ColumnKind::kDatetime) {
          // DatetimeBytes, with the date and time of day computed once per
          // second: consecutive rows mostly share theirs (any other second
          // is computed afresh).
          const int64_t secs = FloorSeconds(t);
          if (secs != p.cached_secs) {
            p.cached_secs = secs;
            p.cached_packed = DatetimeSecondsPacked(secs);
          }
          b.Put(p.cached_packed, 5);
          PutFraction(t - secs * 1000000, p.value.fsp, &b);
        } else {
          const int64_t secs = t / 1000000;
          b.Put(static_cast<uint64_t>(secs), 4);
          PutFraction(t % 1000000, p.value.fsp, &b);
        }
        break;
      }
    }
    b.PadTo(start + p.width);
  }
  b.PutKey(pk, pk_bytes_kept_);
  return b.Build();
}

}  // namespace innosim
