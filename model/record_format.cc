#include "model/record_format.h"

#include <algorithm>

namespace innosim {
namespace {

// Header bytes of a record holding `fields`: the fixed 5, the null bitmap
// and one or two length bytes per variable-length field
// (rec_get_converted_size_comp_prefix_low: one byte if the maximum length is
// <= 255 or the actual length < 128). The bitmap has a bit for every
// nullable field of the *index* (index->n_nullable), also in node pointers,
// which hold only the key fields (rec_init_offsets reads it that way).
// A field stored off-page always takes two (its length has the
// external-storage flag, which needs the two-byte form).
uint32_t ExtraBytes(const TableDef& t, const std::vector<uint32_t>& fields, uint32_t n_nullable,
                    const std::vector<bool>& off_page = {}) {
  uint32_t len_bytes = 0;
  for (uint32_t c : fields) {
    const ColumnDef& col = t.columns[c];
    if (c < off_page.size() && off_page[c]) {
      len_bytes += 2;
    } else if (col.variable) {
      // DATA_BIG_COL: a maximum over 255 bytes, or a TEXT/BLOB.
      const bool big_col = col.max_bytes > 255 || col.blob;
      len_bytes += (!big_col || col.stored_bytes < 128) ? 1 : 2;
    }
  }
  return kRecNewExtraBytes + (n_nullable + 7) / 8 + len_bytes;
}

uint32_t NullableCount(const TableDef& t, const std::vector<uint32_t>& fields) {
  uint32_t n = 0;
  for (uint32_t c : fields) n += t.columns[c].nullable ? 1 : 0;
  return n;
}

uint32_t DataBytes(const TableDef& t, const std::vector<uint32_t>& fields, const std::vector<bool>& off_page = {}) {
  uint32_t n = 0;
  for (uint32_t c : fields) {
    const bool ext = c < off_page.size() && off_page[c];
    n += ext ? LocalExternBytes(t.row_format) : t.columns[c].stored_bytes;
  }
  return n;
}

uint32_t ModelKeyBytes(const TableDef& t, const std::vector<uint32_t>& fields) {
  uint32_t n = 0;
  for (uint32_t c : fields) n += t.columns[c].uuid_text ? kUuidBytes : t.columns[c].stored_bytes;
  return n;
}

}  // namespace

RecordSizes ClusteredRecordSizes(const TableDef& t, const std::vector<uint32_t>& off_page) {
  std::vector<uint32_t> leaf_fields = t.primary.columns;
  for (uint32_t c = 0; c < t.columns.size(); ++c) {
    if (std::find(leaf_fields.begin(), leaf_fields.end(), c) == leaf_fields.end()) {
      leaf_fields.push_back(c);
    }
  }
  const uint32_t n_nullable = NullableCount(t, leaf_fields);
  // Membership by position: a row has up to 1017 columns.
  std::vector<bool> ext;
  if (!off_page.empty()) {
    ext.assign(t.columns.size(), false);
    for (uint32_t c : off_page) {
      if (c < ext.size()) ext[c] = true;
    }
  }
  RecordSizes s;
  s.key_bytes = DataBytes(t, t.primary.columns);
  s.model_key_bytes = ModelKeyBytes(t, t.primary.columns);
  s.leaf = ExtraBytes(t, leaf_fields, n_nullable, ext) + DataBytes(t, leaf_fields, ext) + kDataTrxIdLen +
           kDataRollPtrLen;
  s.node_ptr = ExtraBytes(t, t.primary.columns, n_nullable) + s.key_bytes + kRecNodePtrSize;
  return s;
}

RecordSizes SecondaryRecordSizes(const TableDef& t, const IndexDef& index) {
  std::vector<uint32_t> fields = index.columns;
  for (uint32_t c : t.primary.columns) {
    if (std::find(fields.begin(), fields.end(), c) == fields.end()) fields.push_back(c);
  }
  const uint32_t n_nullable = NullableCount(t, fields);
  RecordSizes s;
  // Node pointers of a secondary index carry every field of the index, the
  // PK included, unique or not (dict_index_get_n_unique_in_tree_nonleaf
  // returns dict_index_get_n_fields for a non-clustered index).
  s.key_bytes = DataBytes(t, fields);
  s.model_key_bytes = ModelKeyBytes(t, fields);
  s.leaf = ExtraBytes(t, fields, n_nullable) + DataBytes(t, fields);
  s.node_ptr = ExtraBytes(t, fields, n_nullable) + s.key_bytes + kRecNodePtrSize;
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
