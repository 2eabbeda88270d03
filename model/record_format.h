// Table and index definitions, and the byte size of their records in the
// COMPACT / DYNAMIC row formats (rec_get_converted_size_comp in
// rem/rem0rec.cc; see docs/record-format.md for worked examples).
//
// Every column the model supports has a fixed stored length: fixed-width
// types by definition, VARCHAR through the payload length the workload
// writes. So every record of one index level has the same size, which the
// index pages rely on.
//
// Value types; no thread-safety concerns.
#ifndef INNOSIM_MODEL_RECORD_FORMAT_H_
#define INNOSIM_MODEL_RECORD_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/page_format.h"  // kRecNewExtraBytes

namespace innosim {

struct ColumnDef {
  std::string name;
  std::string type;          // as written, for display: "BINARY(16)", "BIGINT", ...
  uint32_t stored_bytes = 0; // bytes the column occupies in a record
  uint32_t max_bytes = 0;    // maximum byte length (decides 1- or 2-byte lengths)
  bool variable = false;     // needs a length byte in the record header
  bool nullable = false;
  // A CHAR/VARCHAR(36) key holding a UUID's canonical text, which sorts as
  // the UUID's 16 bytes: the model's Key holds those (sim/table_parser.h).
  bool uuid_text = false;
  // TEXT or BLOB (mtype DATA_BLOB): DATA_BIG_COL whatever its length, so it
  // may be stored off-page (model/big_rec.h) and takes two length bytes
  // once 128 bytes or longer.
  bool blob = false;
};

// ROW_FORMAT of the table (dict_tf_get_rec_format). Both are COMPACT records;
// they differ in what an off-page column leaves in the clustered record
// (dict_table_has_atomic_blobs: DYNAMIC keeps only the 20-byte reference,
// COMPACT a 768-byte prefix before it; model/big_rec.h).
enum class RowFormat : uint8_t { kDynamic, kCompact };

// The bytes of a UUID (RFC 9562), what the model compares for uuid_text.
inline constexpr uint32_t kUuidBytes = 16;

struct IndexDef {
  std::string name;                 // "PRIMARY", "idx_created", ...
  std::vector<uint32_t> columns;    // positions in TableDef::columns, key order
  bool unique = false;
};

struct TableDef {
  std::string name;
  std::vector<ColumnDef> columns;
  IndexDef primary;                 // the clustered index
  std::vector<IndexDef> secondary;  // secondary indexes (entries: key + PK)
  // innodb_default_row_format is DYNAMIC on both servers.
  RowFormat row_format = RowFormat::kDynamic;
  // STATS_PERSISTENT and STATS_AUTO_RECALC (DICT_STATS_PERSISTENT_ON/OFF,
  // DICT_STATS_AUTO_RECALC_ON/OFF in dict0mem.h): unset, the server's
  // innodb_stats_persistent / innodb_stats_auto_recalc decide.
  std::optional<bool> stats_persistent;
  std::optional<bool> stats_auto_recalc;
  // STATS_SAMPLE_PAGES (dict_table_t::stats_sample_pages): 0, the server's
  // innodb_stats_persistent_sample_pages.
  uint32_t stats_sample_pages = 0;
};

// Sizes of the records of one B-tree.
struct RecordSizes {
  uint32_t leaf = 0;          // a leaf record
  uint32_t node_ptr = 0;      // a node pointer (key prefix + 4-byte child)
  uint32_t key_bytes = 0;     // bytes of the key fields compared in the tree
  // Bytes of the model's Key for those fields (model/key.h): key_bytes,
  // but 16 for a UUID text column.
  uint32_t model_key_bytes = 0;
};

// DATA_TRX_ID_LEN and DATA_ROLL_PTR_LEN (include/data0type.h): the hidden
// system columns of every clustered-index leaf record.
inline constexpr uint32_t kDataTrxIdLen = 6;
inline constexpr uint32_t kDataRollPtrLen = 7;
// REC_NODE_PTR_SIZE (include/rem0rec.h): the child page number of a node
// pointer.
inline constexpr uint32_t kRecNodePtrSize = 4;

// Record sizes of the clustered index: leaf = PK columns + DB_TRX_ID +
// DB_ROLL_PTR + other columns; node pointer = PK columns + child page no.
// `off_page` lists the columns stored externally (model/big_rec.h
// ConvertBigRec): each keeps only its local part in the leaf record
// (LocalExternBytes) and takes two length bytes (rec_get_converted_size_comp
// counts 2 for a field with dfield_is_ext).
RecordSizes ClusteredRecordSizes(const TableDef& table, const std::vector<uint32_t>& off_page = {});
// BTR_EXTERN_FIELD_REF_SIZE (include/btr0types.h / lob0lob.h): the
// reference to an off-page column's first page (space, page, offset,
// length).
inline constexpr uint32_t kBtrExternFieldRefSize = 20;
// DICT_ANTELOPE_MAX_INDEX_COL_LEN = REC_ANTELOPE_MAX_INDEX_COL_LEN (768):
// the prefix COMPACT (and REDUNDANT) keep in the record before the
// reference (dtuple_convert_big_rec's local_len - BTR_EXTERN_FIELD_REF_SIZE).
inline constexpr uint32_t kDictAntelopeMaxIndexColLen = 768;
// Bytes an off-page column keeps in the clustered record: the reference,
// after the 768-byte prefix in COMPACT (dtuple_convert_big_rec's
// local_len).
inline constexpr uint32_t LocalExternBytes(RowFormat f) {
  return f == RowFormat::kCompact ? kDictAntelopeMaxIndexColLen + kBtrExternFieldRefSize : kBtrExternFieldRefSize;
}
// Record sizes of a secondary index: leaf = key columns + PK columns not
// already in the key; node pointer = the same fields (for any secondary
// index, unique or not: dict_index_get_n_unique_in_tree_nonleaf) + child
// page no. Node pointers keep the index's whole null bitmap.
RecordSizes SecondaryRecordSizes(const TableDef& table, const IndexDef& index);

// The seed-000 table: id BINARY(16) (or BIGINT AUTO_INCREMENT when
// key_width == 8), payload CHAR(100) CHARACTER SET ascii, created BIGINT, all
// NOT NULL.
TableDef Seed000Table(int key_width);

}  // namespace innosim

#endif  // INNOSIM_MODEL_RECORD_FORMAT_H_
