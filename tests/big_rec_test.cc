// Off-page columns (model/big_rec.h), the engine's BLOB pages, and the
// CREATE TABLE rules around them (sim/table_parser.h). Every expected
// figure is worked out by hand from the rules the headers cite:
//   page_get_free_space_of_empty = page size - 132 (1982 bytes half at 4 KiB,
//   8126 at 16 KiB); a DYNAMIC off-page column keeps 20 bytes and 2 length
//   bytes; COMPACT 768 + 20.
#include "model/big_rec.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "model/engine.h"
#include "model/engine_profile.h"
#include "model/server_settings.h"
#include "sim/phases.h"
#include "sim/runner.h"
#include "sim/table_parser.h"

namespace innosim {
namespace {

// The table of issue 29: id BINARY(16), v VARCHAR(3000) utf8mb4 (12000
// bytes at most: DATA_BIG_COL), both NOT NULL.
TableDef WideTable(uint32_t stored, RowFormat format = RowFormat::kDynamic) {
  TableDef t;
  t.name = "t";
  t.columns.push_back({"id", "BINARY(16)", 16, 16, false, false});
  t.columns.push_back({"v", "VARCHAR(3000)", stored, 12000, true, false});
  t.primary = {"PRIMARY", {0}, true};
  t.row_format = format;
  return t;
}

TEST(BigRecTest, RecordOverHalfA4kPageSendsItsLongColumnOffPage) {
  // On the page: 5 + 2 + 16 + 6 + 7 + 3000 = 3036 >= 1982.
  EXPECT_EQ(ClusteredRecordSizes(WideTable(3000)).leaf, 3036u);
  const BigRec b = ConvertBigRec(WideTable(3000), 4096);
  ASSERT_TRUE(b.fits);
  ASSERT_EQ(b.columns.size(), 1u);
  EXPECT_EQ(b.columns[0], 1u);
  EXPECT_EQ(b.extern_bytes[0], 3000u);
  // 5 + 2 (an external field's two length bytes) + 16 + 13 + 20 = 56.
  EXPECT_EQ(b.rec_size, 56u);
  EXPECT_EQ(ClusteredRecordSizes(WideTable(3000), b.columns).leaf, 56u);
}

TEST(BigRecTest, CompactKeepsA768BytePrefix) {
  const BigRec b = ConvertBigRec(WideTable(3000, RowFormat::kCompact), 4096);
  ASSERT_EQ(b.columns.size(), 1u);
  EXPECT_EQ(b.extern_bytes[0], 3000u - 768u);
  EXPECT_EQ(b.rec_size, 5u + 2u + 16u + 13u + 788u);
}

TEST(BigRecTest, TheSameRowStaysOnA16kPage) {
  // 3036 < 8126: nothing moves.
  const BigRec b = ConvertBigRec(WideTable(3000), 16384);
  EXPECT_TRUE(b.columns.empty());
  EXPECT_EQ(b.rec_size, 3036u);
  // 8126 - 36 = 8090 bytes of value make a record of exactly half a page:
  // "at least half" needs the ext (page_zip_rec_needs_ext uses >=).
  EXPECT_TRUE(ConvertBigRec(WideTable(8090), 16384).columns.size() == 1);
  EXPECT_TRUE(ConvertBigRec(WideTable(8089), 16384).columns.empty());
}

TEST(BigRecTest, SixtyFourKPagesStopAtCompressedRecMaxDataSize) {
  // Half an empty 64 KiB page is 32702, but a record of 16384 bytes
  // (COMPRESSED_REC_MAX_DATA_SIZE) already needs the ext.
  EXPECT_TRUE(RecNeedsExt(16384, 65536));
  EXPECT_FALSE(RecNeedsExt(16383, 65536));
  EXPECT_TRUE(RecNeedsExt(1982, 4096));
  EXPECT_FALSE(RecNeedsExt(1981, 4096));
}

TEST(BigRecTest, LongestEligibleFirstThenTheFirstOfEquals) {
  TableDef t;
  t.name = "t";
  t.columns.push_back({"id", "BIGINT", 8, 8, false, false});
  t.columns.push_back({"a", "VARCHAR(1000)", 900, 4000, true, false});
  t.columns.push_back({"b", "VARCHAR(1000)", 1000, 4000, true, false});
  t.columns.push_back({"c", "VARCHAR(1000)", 1000, 4000, true, false});
  // Not DATA_BIG_COL (max 255): never off-page however the record grows.
  t.columns.push_back({"d", "VARCHAR(255)", 255, 255, true, false});
  // At most 40 bytes: stays too.
  ColumnDef text{"e", "TEXT", 40, 65535, true, false};
  text.blob = true;
  t.columns.push_back(text);
  t.primary = {"PRIMARY", {0}, true};
  const BigRec b = ConvertBigRec(t, 4096);
  ASSERT_TRUE(b.fits);
  // 13 + 3216 = 3229 bytes: b (the first of the two longest) out -> 2249,
  // then c (980 saved, a only 880) -> 1269 < 1982.
  ASSERT_EQ(b.columns.size(), 2u);
  EXPECT_EQ(b.columns[0], 2u);
  EXPECT_EQ(b.columns[1], 3u);
}

TEST(BigRecTest, NothingLeftToMoveIsTooBig) {
  TableDef t;
  t.name = "t";
  t.columns.push_back({"id", "BIGINT", 8, 8, false, false});
  for (int i = 0; i < 9; ++i) t.columns.push_back({"c" + std::to_string(i), "VARCHAR(255)", 255, 255, true, false});
  t.primary = {"PRIMARY", {0}, true};
  const BigRec b = ConvertBigRec(t, 4096);  // 9 x 256 + ... > 1982, no DATA_BIG_COL
  EXPECT_FALSE(b.fits);
  EXPECT_TRUE(b.columns.empty());
}

TEST(BigRecTest, PagesPerValue) {
  // MariaDB FIL_PAGE_TYPE_BLOB: 4096 - 38 - 8 - 8 = 4042 bytes a page.
  EXPECT_EQ(BlobPagePayload(ServerFlavor::kMariaDb1011, 4096, true), 4042u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMariaDb1011, 4096, 3000).pages, 1u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMariaDb1011, 4096, 4042).pages, 1u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMariaDb1011, 4096, 4043).pages, 2u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMariaDb1011, 16384, 20000).pages, 2u);  // 16330 a page
  // MySQL: first page 4096 - 96 - 8 - 600 = 3392, data pages 4096 - 57 = 4039.
  EXPECT_EQ(BlobPagePayload(ServerFlavor::kMySql84, 4096, true), 3392u);
  EXPECT_EQ(BlobPagePayload(ServerFlavor::kMySql84, 4096, false), 4039u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMySql84, 4096, 3392).pages, 1u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMySql84, 4096, 3393).pages, 2u);
  // 1 MiB at 16 KiB: first 15680, then ceil(1032896 / 16327) = 64 data
  // pages; 65 index entries, 55 past the first page's 10 -> one index page
  // of (16384 - 47) / 60 = 272 entries.
  const ExternPages mib = ExternPagesFor(ServerFlavor::kMySql84, 16384, 1 << 20);
  EXPECT_EQ(mib.index_pages, 1u);
  EXPECT_EQ(mib.pages, 66u);
  EXPECT_EQ(ExternPagesFor(ServerFlavor::kMySql84, 16384, 0).pages, 0u);
}

// The engine: the BLOB pages come from PRIMARY's leaf segment, so they are in
// n_leaf_pages, size, DATA_LENGTH and the file, and the buffer pool writes
// them.
EngineReport LoadWide(ServerFlavor flavor, uint64_t rows, uint64_t* pages_written = nullptr) {
  ServerSettings settings = ServerSettings::Defaults(flavor);
  EXPECT_TRUE(settings.Set("innodb_page_size", "4096", "test").ok());
  EngineOptions o;
  o.flush = settings;
  Engine e(EngineProfile::ForServer(settings), WideTable(3000), o);
  EXPECT_TRUE(e.status().ok()) << e.status();
  for (uint64_t i = 0; i < rows; ++i) {
    // Keys in a scattered order (a multiplicative hash of i).
    const uint64_t k = (i * 0x9E3779B97F4A7C15ull) >> 8;
    EXPECT_TRUE(e.InsertRow(Key::FromU64(k)).ok());
    EXPECT_TRUE(e.EndRow().ok());
  }
  EXPECT_TRUE(e.EndLoad().ok()) << e.status();
  EXPECT_EQ(e.Verify(), "");
  if (pages_written != nullptr) *pages_written = e.flush_model()->counters().Innodb_pages_written;
  return e.Report();
}

TEST(BigRecTest, EngineStoresOneBlobPagePerRowAt4k) {
  for (ServerFlavor f : {ServerFlavor::kMariaDb1011, ServerFlavor::kMySql84}) {
    uint64_t written = 0;
    const EngineReport r = LoadWide(f, 1000, &written);
    EXPECT_EQ(r.extern_pages, 1000u);
    // The tree itself: 56-byte records (58 with their directory share), at
    // most 3964 / 58 = 68 a leaf, so at least 15 leaves and a few dozen at
    // most, not one a row.
    const uint64_t tree_leaves = r.primary.levels.back().pages;
    EXPECT_LT(tree_leaves, 60u);
    EXPECT_GE(tree_leaves, 15u);
    // n_leaf_pages is the leaf segment's used pages: leaves + BLOB pages.
    EXPECT_EQ(r.primary.n_leaf_pages, tree_leaves + 1000u);
    EXPECT_GE(r.data_length, (tree_leaves + 1000u) * 4096u);
    EXPECT_GE(r.file_size, r.data_length);
    // Every BLOB page is written at the final flush at the latest.
    EXPECT_GE(written, r.primary.used_pages + 1000u);
  }
}

TEST(BigRecTest, EngineWithoutOffPageColumnsStoresNone) {
  ServerSettings settings = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  Engine e(EngineProfile::ForServer(settings), WideTable(3000), nullptr);  // 16 KiB: stays on the page
  for (uint64_t i = 0; i < 100; ++i) ASSERT_TRUE(e.InsertRow(Key::FromU64(i * 7919)).ok());
  EXPECT_EQ(e.Report().extern_pages, 0u);
  EXPECT_EQ(e.Report().primary.n_leaf_pages, e.Report().primary.levels.back().pages);
}

TEST(BigRecTest, DeleteOfOffPageRowsIsRefused) {
  ServerSettings settings = ServerSettings::Defaults(ServerFlavor::kMariaDb1011);
  ASSERT_TRUE(settings.Set("innodb_page_size", "4096", "test").ok());
  Engine e(EngineProfile::ForServer(settings), WideTable(3000), nullptr);
  ASSERT_TRUE(e.InsertRow(Key::FromU64(1)).ok());
  const absl::Status s = e.DeleteRow(Key::FromU64(1));
  EXPECT_TRUE(absl::IsUnimplemented(s)) << s;
}

// A run refuses before its load what it could not finish: a delete phase
// on rows with off-page columns, more off-page pages than a tablespace
// numbers.
TEST(BigRecTest, RunRefusesBeforeTheLoad) {
  RunSpec spec;
  spec.stream.name = "uuidv4";
  spec.rows = 10'000'000;
  spec.page_size = 4096;
  spec.flush = false;
  spec.table = "CREATE TABLE t (id BINARY(16) NOT NULL, v VARCHAR(3000) NOT NULL, PRIMARY KEY (id))";
  spec.payload_bytes = 3000;
  spec.payload_bytes_given = true;
  absl::StatusOr<PhaseSpec> del = ParsePhase("delete:every:2");
  ASSERT_TRUE(del.ok()) << del.status();
  spec.phases = {*del};
  absl::StatusOr<RunResult> r = innosim::Run(spec);  // 10M rows would take a while: refused first
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "DELETE of rows with off-page columns is not modelled"))
      << r.status();
  spec.phases.clear();
  spec.page_size = 16384;
  spec.table = "CREATE TABLE t (id BINARY(16) NOT NULL, v LONGTEXT NOT NULL, PRIMARY KEY (id))";
  spec.payload_bytes = 500'000'000;  // 30,619 BLOB pages a row at 16 KiB (MariaDB)
  spec.profile = "mariadb-10.11";
  r = innosim::Run(spec);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "more pages than a tablespace can number")) << r.status();
}

// The CREATE TABLE side.
absl::StatusOr<TableSchema> Parse(const std::string& sql, uint32_t page_size = 16384, uint32_t payload = 100,
                                  bool payload_given = false) {
  TableOptions o;
  o.page_size = page_size;
  o.payload_bytes = payload;
  o.payload_given = payload_given;
  return ParseCreateTable(sql, o);
}

std::string ManyBigints(int n) {
  std::string sql = "CREATE TABLE t (id BIGINT NOT NULL";
  for (int i = 0; i < n - 1; ++i) sql += ", c" + std::to_string(i) + " BIGINT NOT NULL";
  return sql + ", PRIMARY KEY (id))";
}

TEST(BigRecTest, TooManyColumnsIsTheServersError) {
  const absl::StatusOr<TableSchema> t = Parse(ManyBigints(1100));
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(absl::StartsWith(t.status().message(), "Too many columns")) << t.status();
  // 1017 columns is InnoDB's limit (REC_MAX_N_USER_FIELDS)... but 1017
  // BIGINTs are over half a 16 KiB page: the row size comes next.
  const absl::StatusOr<TableSchema> u = Parse(ManyBigints(1017));
  ASSERT_FALSE(u.ok());
  EXPECT_TRUE(absl::StartsWith(u.status().message(), "Row size too large (> 8126)")) << u.status();
}

TEST(BigRecTest, RowSizeFollowsThePageSize) {
  // 1000 BIGINTs: 5 + 8000 + 13 = 8018 < 8126 at 16 KiB, over 1982 at 4 KiB.
  EXPECT_TRUE(Parse(ManyBigints(1000)).ok()) << Parse(ManyBigints(1000)).status();
  const absl::StatusOr<TableSchema> t = Parse(ManyBigints(1000), 4096);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            "Row size too large (> 1982). Changing some columns to TEXT or BLOB may help. In current row format, "
            "BLOB prefix of 0 bytes is stored inline. (ER_TOO_BIG_ROWSIZE at innodb_page_size=4096)");
  const absl::StatusOr<TableSchema> c = Parse(ManyBigints(1000) + " ROW_FORMAT=COMPACT", 4096);
  ASSERT_FALSE(c.ok());
  EXPECT_TRUE(absl::StrContains(c.status().message(), "or using ROW_FORMAT=DYNAMIC")) << c.status();
  EXPECT_TRUE(absl::StrContains(c.status().message(), "BLOB prefix of 768 bytes")) << c.status();
  // 64 KiB: REC_MAX_DATA_SIZE - 1.
  const absl::StatusOr<TableSchema> big = Parse(ManyBigints(1017), 65536);
  EXPECT_TRUE(big.ok()) << big.status();  // 8154 bytes < 16383
}

TEST(BigRecTest, BindingAStreamReadsOnlyTheKeyType) {
  // 1017 BIGINTs fit a 64 KiB page, not a 16 KiB one: binding an autoinc
  // stream to the table, before the run's page size is known, must not
  // apply the row-size rule.
  StreamSpec stream;
  stream.name = "autoinc";
  EXPECT_TRUE(BindStreamToTable(ManyBigints(1017), &stream).ok());
  EXPECT_EQ(stream.autoinc_bytes, 8u);
}

TEST(BigRecTest, LongColumnsPassAsFortyBytesAndGoOffPage) {
  // Four VARCHAR(3000)s count 40 each at CREATE (they may go off-page).
  const std::string sql =
      "CREATE TABLE t (id BINARY(16) NOT NULL, a VARCHAR(3000), b VARCHAR(3000), c TEXT, d MEDIUMBLOB, "
      "PRIMARY KEY (id))";
  const absl::StatusOr<TableSchema> t = Parse(sql, 4096, 3000, true);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->def.columns[3].blob);
  EXPECT_EQ(t->def.columns[3].max_bytes, 65535u);
  EXPECT_EQ(t->def.columns[3].stored_bytes, 3000u);
  const BigRec b = ConvertBigRec(t->def, 4096);
  EXPECT_TRUE(b.fits);
  EXPECT_EQ(b.columns.size(), 4u);
}

TEST(BigRecTest, PayloadCapFollowsTheColumn) {
  const std::string sql = "CREATE TABLE t (id BINARY(16) NOT NULL, v VARCHAR(3000) NOT NULL, PRIMARY KEY (id))";
  EXPECT_TRUE(Parse(sql, 4096, 3000, true).ok());
  const absl::StatusOr<TableSchema> over = Parse(sql, 4096, 3001, true);
  ASSERT_FALSE(over.ok());
  EXPECT_TRUE(absl::StrContains(over.status().message(), "give at most 3000")) << over.status();
  const std::string text = "CREATE TABLE t (id BINARY(16) NOT NULL, v TEXT NOT NULL, PRIMARY KEY (id))";
  EXPECT_TRUE(Parse(text, 16384, 65535, true).ok());
  const absl::StatusOr<TableSchema> t = Parse(text, 16384, 65536, true);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(absl::StrContains(t.status().message(), "ER_DATA_TOO_LONG); give at most 65535")) << t.status();
  EXPECT_TRUE(
      Parse("CREATE TABLE t (id BINARY(16) NOT NULL, v MEDIUMTEXT NOT NULL, PRIMARY KEY (id))", 16384, 100000, true)
          .ok());
}

TEST(BigRecTest, ServerLimitsOnColumnsAndKeys) {
  const absl::StatusOr<TableSchema> v =
      Parse("CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(20000) CHARACTER SET utf8mb4, PRIMARY KEY (id))");
  ASSERT_FALSE(v.ok());
  EXPECT_TRUE(absl::StartsWith(v.status().message(), "Column length too big for column 'v' (max = 16383)"))
      << v.status();
  EXPECT_TRUE(Parse("CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(20000) CHARACTER SET latin1, PRIMARY KEY (id))")
                  .ok());
  const absl::StatusOr<TableSchema> row = Parse(
      "CREATE TABLE t (id BIGINT NOT NULL, a VARCHAR(40000) CHARACTER SET latin1, b VARCHAR(30000) CHARACTER SET "
      "latin1, PRIMARY KEY (id))");
  ASSERT_FALSE(row.ok());
  EXPECT_TRUE(absl::StartsWith(row.status().message(), "Row size too large. The maximum row size for the used "
                                                       "table type, not counting BLOBs, is 65535."))
      << row.status();
  const absl::StatusOr<TableSchema> key =
      Parse("CREATE TABLE t (id BIGINT NOT NULL, v TEXT, PRIMARY KEY (id), KEY k_v (v))");
  ASSERT_FALSE(key.ok());
  EXPECT_TRUE(absl::StartsWith(key.status().message(),
                               "BLOB/TEXT column 'v' used in key specification without a key length"))
      << key.status();
  // Key lengths: 3072 bytes at 16 KiB, 768 at 4 KiB; 767 a column in COMPACT.
  const std::string keyed =
      "CREATE TABLE t (id BIGINT NOT NULL, v VARCHAR(200) CHARACTER SET utf8mb4, PRIMARY KEY (id), KEY k_v (v))";
  EXPECT_TRUE(Parse(keyed).ok()) << Parse(keyed).status();  // 800 bytes
  const absl::StatusOr<TableSchema> at4k = Parse(keyed, 4096);
  ASSERT_FALSE(at4k.ok());
  EXPECT_TRUE(absl::StartsWith(at4k.status().message(), "Specified key was too long; max key length is 768 bytes"))
      << at4k.status();
  const absl::StatusOr<TableSchema> compact = Parse(keyed + " ROW_FORMAT=COMPACT");
  ASSERT_FALSE(compact.ok());
  EXPECT_TRUE(absl::StartsWith(compact.status().message(), "Index column size too large. The maximum column size "
                                                           "is 767 bytes."))
      << compact.status();
  // Too many short non-big columns: the CREATE passes (each counts 40), the
  // rows could never be stored.
  std::string many = "CREATE TABLE t (id BIGINT NOT NULL";
  for (int i = 0; i < 9; ++i) many += ", c" + std::to_string(i) + " VARCHAR(255) CHARACTER SET latin1 NOT NULL";
  many += ", PRIMARY KEY (id))";
  const absl::StatusOr<TableSchema> rows = Parse(many, 4096, 255, true);
  ASSERT_FALSE(rows.ok());
  EXPECT_TRUE(absl::StrContains(rows.status().message(), "DB_TOO_BIG_RECORD at INSERT")) << rows.status();
}

}  // namespace
}  // namespace innosim
