#include "model/record_format.h"

#include <algorithm>

namespace innosim {
namespace {

// Header bytes beyond the fixed 5 for the given fields: the null bitmap
// (one bit per nullable field, rounded up to bytes) and one or two length
// bytes per variable-length field (rec_get_converted_size_comp_prefix_low:
// one byte if the maximum length is <= 255 or the actual length < 128).
uint32_t ExtraBytes(const TableDef& t, const std::vector<uint32_t>& fields) {
  uint32_t n_nullable = 0;
  uint32_t len_bytes = 0;
  for (uint32_t c : fields) {
    const ColumnDef& col = t.columns[c];
    if (col.nullable) ++n_nullable;
    if (col.variable) len_bytes += (col.max_bytes <= 255 || col.stored_bytes < 128) ? 1 : 2;
  }
  return kRecNewExtraBytes + (n_nullable + 7) / 8 + len_bytes;
}

uint32_t DataBytes(const TableDef& t, const std::vector<uint32_t>& fields) {
  uint32_t n = 0;
  for (uint32_t c : fields) n += t.columns[c].stored_bytes;
  return n;
}

}  // namespace

RecordSizes ClusteredRecordSizes(const TableDef& t) {
  std::vector<uint32_t> leaf_fields = t.primary.columns;
  for (uint32_t c = 0; c < t.columns.size(); ++c) {
    if (std::find(leaf_fields.begin(), leaf_fields.end(), c) == leaf_fields.end()) {
      leaf_fields.push_back(c);
    }
  }
  RecordSizes s;
  s.key_bytes = DataBytes(t, t.primary.columns);
  s.leaf = ExtraBytes(t, leaf_fields) + DataBytes(t, leaf_fields) + kDataTrxIdLen + kDataRollPtrLen;
  s.node_ptr = ExtraBytes(t, t.primary.columns) + s.key_bytes + kRecNodePtrSize;
  return s;
}

RecordSizes SecondaryRecordSizes(const TableDef& t, const IndexDef& index) {
  std::vector<uint32_t> fields = index.columns;
  for (uint32_t c : t.primary.columns) {
    if (std::find(fields.begin(), fields.end(), c) == fields.end()) fields.push_back(c);
  }
  RecordSizes s;
  // A unique secondary index compares (and builds node pointers from) its own
  // columns only; a non-unique one needs the PK to make entries unique
  // (dict_index_get_n_unique_in_tree).
  const std::vector<uint32_t>& uniq = index.unique ? index.columns : fields;
  s.key_bytes = DataBytes(t, uniq);
  s.leaf = ExtraBytes(t, fields) + DataBytes(t, fields);
  s.node_ptr = ExtraBytes(t, uniq) + s.key_bytes + kRecNodePtrSize;
  return s;
}

TableDef Seed000Table(int key_width) {
  TableDef t;
  t.name = key_width == 8 ? "t_seq" : "t_uuid";
  if (key_width == 8) {
    t.columns.push_back({"id", "BIGINT AUTO_INCREMENT", 8, 8, false, false});
  } else {
    t.columns.push_back({"id", "BINARY(16)", 16, 16, false, false});
  }
  t.columns.push_back({"payload", "CHAR(100) CHARACTER SET ascii", 100, 100, false, false});
  t.columns.push_back({"created", "BIGINT", 8, 8, false, false});
  t.primary = {"PRIMARY", {0}, true};
  return t;
}

}  // namespace innosim
