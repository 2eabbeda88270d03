// Secondary-index entries of synthetic rows, as ordered Keys (up to 32 bytes).
//
// Row i (0-based) of a run holds in the PK column the stream's key, and in
// every other column the value of its source (sim/column_values.h: --column
// NAME=SOURCE, else the default for its type):
//   - time: the row's synthetic wall time, start_ms + i / rows_per_sec
//     seconds (the run's rate, or the source's own time:R), truncated to p
//     digits (seed 004's created_at = SYSDATE(3) at insert); key-time:
//     start_ms + i / rows_per_ms ms, the key stream's synthetic clock. In a
//     BIGINT column a time is ms since the epoch;
//   - rownum: the row number i + 1 (the default of integer columns);
//   - const: 'x' repeated (seed 004's REPEAT('x', 100)) in CHAR / VARCHAR,
//     zero bytes in BINARY, 1 in integers, start_ms in temporal columns;
//   - random: pseudo-random bytes from the row number (the default of a
//     BINARY(n) other than the PK: a token column);
//   - pk: the row's primary key; stream:S: the i-th key of stream S.
//
// An entry of a secondary index is ordered by its columns, then the PK (a
// non-unique index's n_uniq includes the PK). The encoder writes the
// columns' bytes as InnoDB stores them, then the PK's bytes, big-endian and
// left-aligned into the model's Key (up to 32 bytes, model/key.h):
//   - DATETIME(p), MySQL 5.6.4+ format (my_datetime_packed_to_binary): 5
//     bytes big-endian of ((year*13+month) << 22 | day << 17 | hour << 12 |
//     minute << 6 | second) + 0x8000000000 (the sign bit set for positive
//     values), then ceil(p/2) bytes of fraction (p 1-2: 1 byte of
//     usec/10000; 3-4: 2 bytes of usec/100; 5-6: 3 bytes of usec). So byte
//     order is time order. DATETIME(3) = 7 bytes.
//   - TIMESTAMP(p): 4 bytes big-endian of seconds since the epoch, then the
//     same fraction bytes.
//   - integers: big-endian, the sign bit flipped for signed types.
// When these bytes fit in 32 (seed 004 with BINARY(16): 7 + 16 = 23; seed
// 002's child index: 16 + 16), the Key is exact: two entries order as the
// server orders them, to the PK's last byte. Past 32 bytes (two BINARY(16)
// columns and a BINARY(16) PK, or a CHAR(100) column) the encoder switches
// to a compact form with the same order over the run: constant CHAR/VARCHAR
// columns drop out, temporal columns become their offset from the run's
// start in units of 10^-p s (5 bytes; 6 for p >= 5), integers 5 bytes of the
// row number; and the PK keeps as many leading bytes as remain. Entries that
// then tie are counted (RunResult::secondary_ties) and reported.
// Record SIZES still come from the full schema (model/record_format.h).
//
// Encode() allocates nothing. With a stream:S column, rows must be encoded
// in ascending order (each encoder reads its own copy of S). Not
// thread-safe (one per run).
#ifndef INNOSIM_SIM_SECONDARY_KEYS_H_
#define INNOSIM_SIM_SECONDARY_KEYS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "model/key.h"
#include "sim/entry_encoder.h"
#include "sim/column_values.h"
#include "sim/key_stream.h"
#include "sim/table_parser.h"

namespace innosim {

class SecondaryKeyEncoder final : public EntryEncoder {
 public:
  // `index` is a position in schema.def.secondary; `sources` as checked by
  // CheckColumnSources; `rows_per_ms` is the key stream's clock (key-time).
  SecondaryKeyEncoder(const TableSchema& schema, size_t index, uint64_t start_ms, double rows_per_sec,
                      const std::vector<ColumnSource>& sources = {}, uint64_t rows_per_ms = 1);

  // The entry key of row `row` (0-based) whose primary key is `pk`.
  Key Encode(uint64_t row, const Key& pk) const override;

  // True if the entry is the columns' exact bytes and the whole PK.
  bool exact() const { return exact_; }

  // The stored bytes of DATETIME(fsp) / TIMESTAMP(fsp) for a time in
  // microseconds since the Unix epoch (UTC); returns the byte count.
  static int DatetimeBytes(int64_t epoch_us, uint32_t fsp, uint8_t* out);
  static int TimestampBytes(int64_t epoch_us, uint32_t fsp, uint8_t* out);
  // DATETIME's first five bytes (date and time of day, offset) as an
  // integer, for whole seconds since the epoch.
  static uint64_t DatetimeSecondsPacked(int64_t secs);

  // What a source gives row `row`, as Encode stores it and `measure` inserts
  // it (tools/column_literals.h): the time of a time source in microseconds
  // since the epoch, truncated to `fsp` digits (row time: start_us +
  // floor(row * us_per_row), us_per_row = 1e6 / its rows per second; key
  // time: the generators' SyntheticClock), and a random source's bytes.
  static int64_t RowTimeUs(int64_t start_us, double us_per_row, uint64_t row, uint32_t fsp);
  static int64_t KeyTimeUs(int64_t start_us, uint64_t rows_per_ms, uint64_t row, uint32_t fsp);
  static void RandomBytes(uint64_t row, uint32_t column, uint32_t width, uint8_t* out);

 private:
  struct Part {
    ColumnValue value;
    ValueSource source = ValueSource::kConstant;
    uint32_t width = 0;   // bytes written
    bool is_pk = false;
    uint32_t column = 0;
    double us_per_row = 0;  // kRowTime
    int stream = -1;        // kStream: index into streams_
    // DATETIME: the last second encoded and its five bytes.
    mutable int64_t cached_secs = INT64_MIN;
    mutable uint64_t cached_packed = 0;
  };
  // A stream:S column's keys, read as rows advance.
  struct ColumnStream {
    std::unique_ptr<KeyStream> keys;
    Key current;
    uint64_t next_row = 0;  // rows read so far
  };
  // The part's time in microseconds since the epoch, truncated to `fsp`.
  int64_t TimeUs(const Part& p, uint64_t row, uint32_t fsp) const;
  const Key& StreamKey(int stream, uint64_t row) const;

  std::vector<Part> parts_;
  uint32_t pk_width_ = 0;
  uint32_t pk_bytes_kept_ = 0;
  bool exact_ = true;
  int64_t start_us_ = 0;
  uint64_t rows_per_ms_ = 1;
  mutable std::vector<ColumnStream> streams_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_SECONDARY_KEYS_H_
