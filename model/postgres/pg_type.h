// The column types innosim::postgres sizes, with typlen and typalign as
// the pg_type catalog gives them (src/include/catalog/pg_type.dat), and
// whether their default btree operator class is "equal image"
// (btequalimage support function 4, nbtutils.c _bt_allequalimage), which
// nbtree deduplication requires.
//
// Value types; no state.
#ifndef INNOSIM_MODEL_POSTGRES_PG_TYPE_H_
#define INNOSIM_MODEL_POSTGRES_PG_TYPE_H_

#include <cstdint>
#include <string_view>

namespace innosim::postgres {

enum class PgType : uint8_t {
  kBool,         // bool: typlen 1, typalign c
  kInt2,         // smallint: 2, s
  kInt4,         // integer: 4, i
  kInt8,         // bigint: 8, d
  kFloat4,       // real: 4, i
  kFloat8,       // double precision: 8, d
  kDate,         // date: 4, i
  kTimestamp,    // timestamp: 8, d
  kTimestamptz,  // timestamptz: 8, d
  kUuid,         // uuid: 16, c
  kText,         // text: varlena (-1), i, storage x
  kVarchar,      // varchar: varlena (-1), i, storage x
  kBytea,        // bytea: varlena (-1), i, storage x
};

struct PgTypeInfo {
  std::string_view name;
  int typlen;      // bytes, or -1 for varlena
  char typalign;   // 'c' 1, 's' 2, 'i' 4, 'd' 8
  bool equalimage; // default btree opclass has btequalimage (dedup allowed)
};

// pg_type.dat rows. float4/float8 have no equalimage routine (their
// btree opclasses treat -0 and +0 as equal while their images differ), so
// an index on them never deduplicates (_bt_allequalimage returns false).
// text and varchar: equal image under a deterministic collation (the
// default), via btvarstrequalimage.
constexpr PgTypeInfo TypeInfo(PgType t) {
  switch (t) {
    case PgType::kBool: return {"bool", 1, 'c', true};
    case PgType::kInt2: return {"int2", 2, 's', true};
    case PgType::kInt4: return {"int4", 4, 'i', true};
    case PgType::kInt8: return {"int8", 8, 'd', true};
    case PgType::kFloat4: return {"float4", 4, 'i', false};
    case PgType::kFloat8: return {"float8", 8, 'd', false};
    case PgType::kDate: return {"date", 4, 'i', true};
    case PgType::kTimestamp: return {"timestamp", 8, 'd', true};
    case PgType::kTimestamptz: return {"timestamptz", 8, 'd', true};
    case PgType::kUuid: return {"uuid", 16, 'c', true};
    case PgType::kText: return {"text", -1, 'i', true};
    case PgType::kVarchar: return {"varchar", -1, 'i', true};
    case PgType::kBytea: return {"bytea", -1, 'i', true};
  }
  return {"?", 0, 'c', false};
}

// c.h alignment of a typalign code.
constexpr int AlignOf(char typalign) {
  return typalign == 'd' ? 8 : typalign == 'i' ? 4 : typalign == 's' ? 2 : 1;
}

// access/tupmacs.h / postgres.h: a varlena datum of `data_bytes` payload
// bytes is stored with a 1-byte header when it fits one
// (VARATT_CAN_MAKE_SHORT: data + 1 <= VARATT_SHORT_MAX = 127) and the
// attribute is packable (attstorage != 'p'); then it is not aligned
// (heap_compute_data_size / heap_fill_tuple). Otherwise a 4-byte header,
// aligned by typalign. Values larger than TOAST_TUPLE_THRESHOLD (~2 kB)
// would be compressed or toasted: not modelled (callers keep them small).
inline constexpr int kVarattShortMax = 127;  // postgres.h VARATT_SHORT_MAX
constexpr bool VarlenaIsShort(int data_bytes) { return data_bytes + 1 <= kVarattShortMax; }

// Adds one attribute to a tuple's data area that is `offset` bytes long
// (from a MAXALIGNed start) and returns the new length, as
// heap_compute_data_size (heaptuple.c) and index_form_tuple's
// heap_compute_data_size call do. `data_bytes` is the varlena payload
// (ignored for fixed-length types).
constexpr int AddAttribute(int offset, PgType t, int data_bytes) {
  const PgTypeInfo info = TypeInfo(t);
  if (info.typlen > 0) return TypeAlign(AlignOf(info.typalign), offset) + info.typlen;
  if (VarlenaIsShort(data_bytes)) return offset + 1 + data_bytes;
  return TypeAlign(AlignOf(info.typalign), offset) + 4 + data_bytes;
}

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PG_TYPE_H_
