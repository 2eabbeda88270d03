// Entries of a PostgreSQL secondary index for synthetic rows, as ordered
// Keys: the key columns' bytes only. An nbtree leaf tuple is ordered by its
// key columns, then by the heap TID (nbtree.h BTScanInsertData heapkeyspace),
// which model/postgres/nbtree.h adds itself; so no primary key is appended
// (unlike InnoDB's secondary entries, sim/secondary_keys.h).
//
// Row i (0-based) holds in each column the value of its source
// (sim/column_values.h: --column NAME=SOURCE, else the default by type:
// PgSourceOf):
//   integers (smallint, integer, bigint, serial, identity)
//             rownum i + 1 by default (what a sequence gives an insert-only
//             load); const 1; random; pk; stream:S (bigint, 8-byte streams);
//             time / key-time in a bigint: ms since the Unix epoch
//   uuid      random by default (gen_random_uuid(): version 4); pk;
//             stream:S (16-byte streams: seed 002's parent ids); const
//   text, varchar(n), char(n), bytea
//             const by default ('x' repeated, char(n) blank-padded);
//             random (hex digits; bytes for bytea); rownum (decimal,
//             zero-padded to the column's bytes, 10 or more)
//   timestamptz, timestamp(p), date
//             time by default: the row's synthetic wall time, start_ms +
//             i / rows_per_sec s (or the source's time:R); key-time: start_ms
//             + i / rows_per_ms ms; rounded to p digits as
//             AdjustTimestampForTypmod does; const: start_ms
//   boolean   const true; random
//   real, double precision   const 1; rownum (as the type rounds it); random
// Each column's bytes order as PostgreSQL's default btree operator class
// orders the values (the Key's unsigned byte order; the model's table.cc
// MakeIndexDesc gives a fixed-length column typlen bytes, a varlena its
// payload bytes):
//   integers, date, timestamp[tz]: the value (int64 microseconds / int32
//   days since 2000-01-01 for the temporal types, timestamp.h / date.h)
//   big-endian with the sign bit flipped; uuid: its 16 bytes (uuid_cmp is
//   memcmp); text/varchar/char/bytea: the bytes (C-collation order; the
//   workload's values, 'x' runs, digits and hex digits, sort the same under
//   any deterministic collation); boolean: 0/1; float: IEEE bits, sign bit
//   flipped for positive values, all bits inverted for negative ones.
// A pk or stream:S integer is the stream key's value (an 8-byte Key is the
// value itself, a narrower one the stored form sim/key_stream.h IntegerKey
// gives), so its bytes are the value's, as above.
//
// Encode() allocates nothing. With a stream:S column, rows must be encoded
// in ascending order (each encoder reads its own copy of S). Not
// thread-safe (one per run).
#ifndef INNOSIM_SIM_PG_ENTRY_ENCODER_H_
#define INNOSIM_SIM_PG_ENTRY_ENCODER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "model/key.h"
#include "sim/entry_encoder.h"
#include "model/postgres/page_layout.h"  // pg_type.h uses TypeAlign without including it
#include "model/postgres/pg_type.h"
#include "sim/column_values.h"
#include "sim/key_stream.h"
#include "sim/pg_table_parser.h"

namespace innosim {

// Each source names a column of the table other than the primary key, at
// most once, and the column can hold it (the list in the header comment);
// errors are one line naming the column, its type and what would fit.
absl::Status CheckPgColumnSources(const PgSchema& schema, const std::vector<ColumnSource>& sources);

// The source column `column` takes: its entry in `sources`, or the default
// for its type (never kDefault).
ValueSource PgSourceOf(const PgSchema& schema, size_t column, const std::vector<ColumnSource>& sources);

class PgEntryEncoder final : public EntryEncoder {
 public:
  // `index` is a position in schema.spec.secondary; `sources` as checked by
  // CheckPgColumnSources; `rows_per_ms` is the key stream's clock (key-time).
  PgEntryEncoder(const PgSchema& schema, size_t index, uint64_t start_ms, double rows_per_sec,
                 const std::vector<ColumnSource>& sources = {}, uint64_t rows_per_ms = 1);

  // The entry key of row `row` (0-based) whose primary key is `pk`.
  Key Encode(uint64_t row, const Key& pk) const override;

  // Bytes of the entry (the sum of its columns' key_bytes).
  uint32_t key_bytes() const { return key_bytes_; }

 private:
  struct Part {
    postgres::PgType type = postgres::PgType::kInt8;
    ValueSource source = ValueSource::kConstant;
    uint32_t width = 0;       // key bytes
    uint32_t fill = 0;        // char(n): leading 'x' bytes of a const (the rest blanks)
    uint32_t column = 0;
    int32_t typmod = -1;      // timestamp precision
    double rows_per_sec = 0;  // kRowTime (0: time stands still)
    int stream = -1;          // kStream: index into streams_
    uint32_t pk_width = 0;    // kPrimaryKey: the primary key's bytes
  };
  struct ColumnStream {
    std::unique_ptr<KeyStream> keys;
    Key current;
    uint64_t next_row = 0;
  };
  int64_t TimeUs(const Part& p, uint64_t row) const;
  const Key& StreamKey(int stream, uint64_t row) const;

  std::vector<Part> parts_;
  uint32_t key_bytes_ = 0;
  int64_t start_us_ = 0;
  uint64_t rows_per_ms_ = 1;
  mutable std::vector<ColumnStream> streams_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_PG_ENTRY_ENCODER_H_
