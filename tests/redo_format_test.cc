#include "model/redo_format.h"

#include "model/page_format.h"

#include "gtest/gtest.h"

namespace innosim {
namespace {

TEST(RedoFormatTest, CompressedSizes) {
  EXPECT_EQ(RedoFormat::CompressedSize(0x7F), 1u);
  EXPECT_EQ(RedoFormat::CompressedSize(0x80), 2u);
  EXPECT_EQ(RedoFormat::CompressedSize(16383), 2u);
  EXPECT_EQ(RedoFormat::CompressedSize(16384), 3u);
  EXPECT_EQ(RedoFormat::CompressedSize(0xFFFFFFFFu), 2u);  // FIL_NULL
  EXPECT_EQ(RedoFormat::CompressedSize(0x20000000u), 5u);
  EXPECT_EQ(RedoFormat::MuchCompressedSize(1ull << 33), 1u + 1u + 1u);
  EXPECT_EQ(RedoFormat::VarintSize(0x407F), 2u);
  EXPECT_EQ(RedoFormat::VarintSize(0x4080), 3u);
}

TEST(RedoFormatTest, KeyCommonPrefix) {
  const Key a{0x0102030405060708ull, 0};
  const Key b{0x0102030405060709ull, 0};
  EXPECT_EQ(RedoFormat::KeyCommonPrefix(a, b, 8), 7u);
  EXPECT_EQ(RedoFormat::KeyCommonPrefix(a, a, 8), 8u);
  const Key c{1, 0x10};
  const Key d{1, 0x20};
  EXPECT_EQ(RedoFormat::KeyCommonPrefix(c, d, 16), 15u);
}

// The seed-000 table: id BINARY(16) PK, payload CHAR(100) ascii, created
// BIGINT: 5 fields, record 5 + 16 + 6 + 7 + 100 + 8 = 142 bytes.
TEST(RedoFormatTest, MySqlSeed000RowInsert) {
  const RedoFormat r(ServerFlavor::kMySql84, 10, 5);
  EXPECT_EQ(r.IndexInfo(), 16u);
  EXPECT_EQ(r.RecordHeader(100000), 1u + 1u + 3u);
  // Random UUID, 2 bytes in common with the predecessor: 142 - 7 = 135
  // bytes, end_seg_len 270 (2 bytes): 5 + 16 + 2 + 2 + 135 = 160.
  EXPECT_EQ(r.RecInsert(100000, 142, RedoFormat::Mismatch(5, 2), true), 160u);
  // Sequential BIGINT (record 134 bytes), 7 bytes common: 134 - 12 = 122
  // bytes: 5 + 16 + 2 + 2 + 122 = 147 (docs/innodb-rules.md, 'Redo volume': 145-150).
  EXPECT_EQ(r.RecInsert(50000, 134, RedoFormat::Mismatch(5, 7), true), 147u);
  // After the infimum: sizes differ, extra info (3 bytes).
  EXPECT_EQ(r.RecInsert(100000, 142, 5, false), 5u + 16 + 2 + 2 + 3 + 137);
  // Undo: header (1 + 2 + 2) + len (2) + type 1 + undo_no (2) + table_id (2)
  // + len 1 + 16 = 29.
  EXPECT_EQ(r.UndoInsert(16, 500, 1500), 29u);
  EXPECT_EQ(r.MtrEnd(1), 0u);
  EXPECT_EQ(r.MtrEnd(3), 1u);
}

// An extent-descriptor page every page-size pages (XDES_DESCRIBED_PER_PAGE,
// fsp0types.h), at every page size: the allocation records name that page,
// and MySQL writes its number compressed (0: 1 byte, 4096: 2, 16384 and
// 65536: 3), MariaDB as a varint (0: 1, 4096 and 16384: 2, 65536: 3).
TEST(RedoFormatTest, XdesPageEveryPageSizePages) {
  for (uint32_t ps : kSupportedPageSizes) {
    const RedoFormat r(ServerFlavor::kMySql84, 10, 5, ps);
    EXPECT_EQ(r.XdesPageOf(0), 0u) << ps;
    EXPECT_EQ(r.XdesPageOf(ps - 1), 0u) << ps;
    EXPECT_EQ(r.XdesPageOf(ps), ps) << ps;
    EXPECT_EQ(r.XdesPageOf(3 * ps + 5), 3 * ps) << ps;
  }
  for (ServerFlavor f : {ServerFlavor::kMySql84, ServerFlavor::kMariaDb1011}) {
    const RedoFormat r4(f, 10, 5, 4096), r16(f, 10, 5, 16384), r64(f, 10, 5, 65536);
    auto size = [f](uint32_t page_no) {
      return f == ServerFlavor::kMySql84 ? RedoFormat::CompressedSize(page_no) : RedoFormat::VarintSize(page_no);
    };
    // 4k pages: page 5000 is described by XDES page 4096, not page 0.
    EXPECT_EQ(r4.XdesPageOf(5000), 4096u);
    EXPECT_EQ(r16.XdesPageOf(5000), 0u);
    EXPECT_EQ(r4.PageAllocate(5000, false, false), r16.PageAllocate(5000, false, false) + size(4096) - size(0));
    // 64k pages: page 20000 is described by page 0, not 16384.
    EXPECT_EQ(r64.XdesPageOf(20000), 0u);
    EXPECT_EQ(r16.XdesPageOf(20000), 16384u);
    EXPECT_EQ(r64.PageAllocate(20000, false, false) + size(16384) - size(0), r16.PageAllocate(20000, false, false));
    // A new extent writes its descriptor (state, id, list nodes) on the XDES
    // page too: more bytes where the XDES page number is longer.
    EXPECT_GT(r4.PageAllocate(5000, false, true), r16.PageAllocate(5000, false, true));
    EXPECT_LT(r64.PageAllocate(20000, false, true), r16.PageAllocate(20000, false, true));
  }
}

TEST(RedoFormatTest, MySqlMiddleSplitIsAboutTheBytesMoved) {
  const RedoFormat r(ServerFlavor::kMySql84, 10, 5);
  // 57 records of 142 bytes, 2 common key bytes each.
  const uint32_t move = r.SplitMoveEnd(100001, 100000, 57, 57 * 142, 57 * 7);
  EXPECT_GT(move, 57u * 135);
  EXPECT_LT(move, 57u * 142 + 200);
  // FSP_DOWN pays a full record header and index info per record.
  const uint32_t move_down = r.SplitMoveStart(100001, 100000, 57, 57 * 142, 57 * 7);
  EXPECT_GT(move_down, move + 57u * 20);
  EXPECT_EQ(r.Reorganize(100000), 5u + 16u);
}

TEST(RedoFormatTest, MariaDbPhysicalRecords) {
  const RedoFormat r(ServerFlavor::kMariaDb1011, 5, 5);
  EXPECT_EQ(r.IndexInfo(), 0u);
  EXPECT_EQ(r.MtrEnd(1), 5u);
  // 'Redo volume': ~148-150 bytes for the random-UUID row (plus 5 per mtr).
  const uint32_t ins = r.RecInsert(100000, 142, 5, true);
  EXPECT_GE(ins, 143u);
  EXPECT_LE(ins, 152u);
  // Undo ~35-40 with its mtr end.
  const uint32_t undo = r.UndoInsert(16, 500, 1500) + r.MtrEnd(1);
  EXPECT_GE(undo, 33u);
  EXPECT_LE(undo, 42u);
  // Reorganize writes the changed heap: up to a page.
  EXPECT_GT(r.Reorganize(100000, 15000, 200), 15000u);
}

// Prints the per-operation table quoted in docs/flushing.md.
}  // namespace
}  // namespace innosim
