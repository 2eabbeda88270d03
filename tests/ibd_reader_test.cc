// tests/ibd_reader_test.cc: the .ibd reader against tablespaces built byte by
// byte here (FIL header, index page header, infimum/supremum, COMPACT
// records with 5-byte headers and relative next pointers, page directory),
// valid and corrupt.
#include "tools/ibd_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "tools/page_map.h"

namespace innosim {
namespace {

void Put16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
void Put32(uint8_t* p, uint32_t v) {
  Put16(p, v >> 16);
  Put16(p + 2, v & 0xFFFF);
}
void Put64(uint8_t* p, uint64_t v) {
  Put32(p, static_cast<uint32_t>(v >> 32));
  Put32(p + 4, static_cast<uint32_t>(v));
}

constexpr uint32_t kSpaceId = 7;

// A leaf record of the seed-000 table: BIGINT id, DB_TRX_ID, DB_ROLL_PTR,
// CHAR(100), BIGINT: 129 data bytes (134 with the 5-byte header).
std::vector<uint8_t> LeafRecord(uint64_t id) {
  std::vector<uint8_t> d(129, 'p');
  Put64(d.data(), id ^ (uint64_t{1} << 63));
  std::memset(d.data() + 8, 0, 13);
  Put64(d.data() + 121, id);
  return d;
}

// A node pointer: the child's first key and the child page number.
std::vector<uint8_t> NodePointer(uint64_t id, uint32_t child) {
  std::vector<uint8_t> d(12);
  Put64(d.data(), id ^ (uint64_t{1} << 63));
  Put32(d.data() + 8, child);
  return d;
}

// Builds a tablespace image: page 0 FSP_HDR, 1 IBUF_BITMAP, 2 INODE, the
// rest zero until index pages are added. Finish() writes LSNs, trailers and
// (full_crc32) checksums.
class SpaceBuilder {
 public:
  SpaceBuilder(uint32_t page_size, bool full_crc32, uint32_t n_pages = 16)
      : ps_(page_size), full_crc32_(full_crc32), bytes_(size_t{page_size} * n_pages) {
    uint32_t ssize = 0;
    while ((512u << ssize) < page_size) ++ssize;
    uint32_t flags = full_crc32 ? (0x10 | ssize)
                                : (1 | 1 << 5 | (page_size == 16384 ? 0 : ssize << 6) |
                                   1 << 14);
    for (uint32_t no = 0; no < 3; ++no) {
      uint8_t* p = page(no);
      Put32(p + 4, no);
      Put32(p + 8, kFilNull);
      Put32(p + 12, kFilNull);
      Put16(p + 24, no == 0 ? 8 : no == 1 ? 5 : 3);
      Put32(p + 34, kSpaceId);
    }
    Put32(page(0) + 38, kSpaceId);
    Put32(page(0) + 38 + 8, n_pages);
    Put32(page(0) + 38 + 12, n_pages);  // FSP_FREE_LIMIT
    Put32(page(0) + 38 + 16, flags);
  }

  // Gives page `no` this FIL_PAGE_LSN at Finish() (default 1000 + no).
  void SetLsn(uint32_t no, uint64_t lsn) { lsn_[no] = lsn; }

  // Writes the first extent descriptor on page 0 as InnoDB does for a small
  // file: state XDES_FREE_FRAG, the pages in `used` allocated, all others free.
  void DescribeFirstExtent(const std::vector<uint32_t>& used) {
    const uint32_t extent = ps_ <= 16384 ? (1u << 20) / ps_ : ps_ <= 32768 ? (2u << 20) / ps_ : (4u << 20) / ps_;
    uint8_t* e = page(0) + 150;
    Put32(e + 20, 2);  // XDES_FREE_FRAG
    uint8_t* bitmap = e + 24;
    std::memset(bitmap, 0, 2 * extent / 8);
    for (uint32_t i = 0; i < extent; ++i) {
      const bool is_used = std::find(used.begin(), used.end(), i) != used.end();
      // XDES_FREE_BIT (bit 0 of the pair) set = free; XDES_CLEAN_BIT always set.
      const uint32_t bit = 2 * i;
      if (!is_used) bitmap[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      bitmap[(bit + 1) / 8] |= static_cast<uint8_t>(1u << ((bit + 1) % 8));
    }
  }

  uint8_t* page(uint32_t no) { return bytes_.data() + size_t{no} * ps_; }
  std::vector<uint8_t>& bytes() { return bytes_; }
  uint32_t page_size() const { return ps_; }

  // Writes a COMPACT index page holding `recs` in order.
  void AddIndexPage(uint32_t no, uint64_t index_id, uint16_t level,
                    const std::vector<std::vector<uint8_t>>& recs, uint32_t prev,
                    uint32_t next, bool root = false, uint16_t garbage = 0) {
    uint8_t* p = page(no);
    std::memset(p, 0, ps_);
    Put32(p + 4, no);
    Put32(p + 8, prev);
    Put32(p + 12, next);
    Put16(p + 24, kFilPageIndex);
    Put32(p + 34, kSpaceId);
    const uint32_t n = static_cast<uint32_t>(recs.size());
    // Infimum (extra at 94, origin 99) and supremum (extra at 107, origin 112).
    p[94] = 0x01;
    Put16(p + 95, (0 << 3) | 2);
    std::memcpy(p + 99, "infimum\0", 8);
    Put16(p + 108, (1 << 3) | 3);
    std::memcpy(p + 112, "supremum", 8);
    // User records from 120 upwards, in key order.
    std::vector<uint32_t> origins;
    uint32_t top = 120 + garbage;  // garbage: a hole left by moved records
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t origin = top + 5;
      Put16(p + origin - 4, ((2 + i) << 3) | (level == 0 ? 0 : 1));
      std::memcpy(p + origin, recs[i].data(), recs[i].size());
      origins.push_back(origin);
      top = origin + static_cast<uint32_t>(recs[i].size());
    }
    // Next pointers: infimum -> records -> supremum, relative offsets.
    uint32_t prev_origin = 99;
    for (uint32_t o : origins) {
      Put16(p + prev_origin - 2, (o - prev_origin) & 0xFFFF);
      prev_origin = o;
    }
    Put16(p + prev_origin - 2, (112 - prev_origin) & 0xFFFF);
    // Directory: slot 0 owns the infimum; a slot per 4 records while more
    // than 4 remain; the supremum owns the rest and itself.
    std::vector<uint32_t> slots{99};
    uint32_t i = 0;
    while (n - i > 4) {
      uint32_t owner = origins[i + 3];
      p[owner - 5] = 4;
      slots.push_back(owner);
      i += 4;
    }
    p[107] = static_cast<uint8_t>(n - i + 1);
    slots.push_back(112);
    for (size_t s = 0; s < slots.size(); ++s) {
      Put16(p + ps_ - 8 - 2 * (s + 1), slots[s]);
    }
    // Index page header.
    Put16(p + 38, static_cast<uint32_t>(slots.size()));
    Put16(p + 40, top);
    Put16(p + 42, 0x8000 | (2 + n));
    Put16(p + 46, garbage);
    Put16(p + 54, n);
    Put16(p + 64, level);
    Put64(p + 66, index_id);
    if (root) {  // PAGE_BTR_SEG_LEAF and PAGE_BTR_SEG_TOP point at page 2
      Put32(p + 74, kSpaceId);
      Put32(p + 78, 2);
      Put16(p + 82, 50);
      Put32(p + 84, kSpaceId);
      Put32(p + 88, 2);
      Put16(p + 92, 242);
    }
  }

  // LSN, trailer and checksum on every written page.
  const std::vector<uint8_t>& Finish() {
    for (uint32_t no = 0; no < bytes_.size() / ps_; ++no) {
      uint8_t* p = page(no);
      bool zero = true;
      for (uint32_t b = 0; b < ps_ && zero; ++b) zero = p[b] == 0;
      if (zero) continue;
      const uint64_t lsn = lsn_.count(no) ? lsn_[no] : 1000 + no;
      Put64(p + 16, lsn);
      if (full_crc32_) {
        Put32(p + ps_ - 8, static_cast<uint32_t>(lsn));
        Put32(p + ps_ - 4, Crc32c({p, ps_ - 4}));
      } else {
        Put32(p + ps_ - 4, static_cast<uint32_t>(lsn));
      }
    }
    return bytes_;
  }

 private:
  uint32_t ps_;
  bool full_crc32_;
  std::vector<uint8_t> bytes_;
  std::map<uint32_t, uint64_t> lsn_;
};

// A two-level clustered index (id 23): root page 3 over leaves 4, 5, 6 with
// `per_leaf` records each, plus a one-page secondary index (id 24) at page 7.
SpaceBuilder TwoLevelSpace(uint32_t page_size, bool full_crc32, uint32_t per_leaf) {
  SpaceBuilder b(page_size, full_crc32);
  std::vector<std::vector<uint8_t>> ptrs;
  uint64_t id = 1;
  const uint32_t leaves[] = {4, 5, 6};
  for (int i = 0; i < 3; ++i) {
    std::vector<std::vector<uint8_t>> recs;
    ptrs.push_back(NodePointer(id, leaves[i]));
    for (uint32_t r = 0; r < per_leaf; ++r) recs.push_back(LeafRecord(id++));
    b.AddIndexPage(leaves[i], 23, 0, recs, i == 0 ? kFilNull : leaves[i - 1],
                   i == 2 ? kFilNull : leaves[i + 1]);
  }
  b.AddIndexPage(3, 23, 1, ptrs, kFilNull, kFilNull, /*root=*/true);
  b.AddIndexPage(7, 24, 0, {NodePointer(1, 4), NodePointer(2, 4)}, kFilNull,
                 kFilNull, /*root=*/true);
  // NodePointer bytes on a leaf are simply a 12-byte record: fine.
  b.Finish();
  return b;
}

TEST(IbdReaderTest, PageSizeFromFlags) {
  // full_crc32: marker bit 4, PAGE_SSIZE in bits 0..3.
  EXPECT_EQ(PageSizeFromFspFlags(0x13), 4096u);
  EXPECT_EQ(PageSizeFromFspFlags(0x14), 8192u);
  EXPECT_EQ(PageSizeFromFspFlags(0x15), 16384u);
  EXPECT_EQ(PageSizeFromFspFlags(0x16), 32768u);
  EXPECT_EQ(PageSizeFromFspFlags(0x17), 65536u);
  EXPECT_EQ(PageSizeFromFspFlags(0x10), 0u);
  EXPECT_EQ(PageSizeFromFspFlags(0x12), 0u);
  // Classic (MySQL): PAGE_SSIZE in bits 6..9, 0 = 16 KiB.
  EXPECT_EQ(PageSizeFromFspFlags(0x21), 16384u);
  EXPECT_EQ(PageSizeFromFspFlags(3 << 6 | 0x21), 4096u);
  EXPECT_EQ(PageSizeFromFspFlags(4 << 6), 8192u);
  EXPECT_EQ(PageSizeFromFspFlags(6 << 6), 32768u);
  EXPECT_EQ(PageSizeFromFspFlags(7 << 6), 65536u);
  EXPECT_EQ(PageSizeFromFspFlags(1 << 6), 0u);
}

TEST(IbdReaderTest, Crc32cKnownValue) {
  const char* s = "123456789";
  EXPECT_EQ(Crc32c({reinterpret_cast<const uint8_t*>(s), 9}), 0xE3069283u);
}

TEST(IbdReaderTest, CensusOfTwoLevelTree) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 113);
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->page_size, 16384u);
  EXPECT_EQ(c->extent_size, 64u);
  EXPECT_EQ(c->format(), "full_crc32");
  EXPECT_TRUE(c->checksums_verified);
  EXPECT_EQ(c->usable_bytes_per_page, 16252u);
  EXPECT_EQ(c->n_pages, 16u);
  EXPECT_EQ(c->raw_index_pages, 5u);
  EXPECT_EQ(c->live_index_pages, 5u);
  ASSERT_EQ(c->indexes.size(), 2u);
  const IbdIndexCensus& pk = c->indexes[0];
  EXPECT_EQ(pk.index_id, 23u);
  EXPECT_EQ(pk.root_page, 3u);
  EXPECT_EQ(pk.height, 2);
  ASSERT_EQ(pk.levels.size(), 2u);
  EXPECT_EQ(pk.levels[0].pages, 3u);
  EXPECT_EQ(pk.levels[0].records, 339u);
  EXPECT_EQ(pk.levels[0].leftmost_page, 4u);
  EXPECT_EQ(pk.levels[0].used_bytes, 3u * 113 * 134);
  EXPECT_EQ(pk.levels[0].usable_bytes, 3u * 16252);
  EXPECT_NEAR(pk.levels[0].fill(), 113.0 * 134 / 16252, 1e-12);
  EXPECT_EQ(pk.levels[0].records_per_page.at(113), 3u);
  EXPECT_EQ(pk.levels[1].pages, 1u);
  EXPECT_EQ(pk.levels[1].records, 3u);
  EXPECT_EQ(pk.levels[1].used_bytes, 3u * 17);
  EXPECT_EQ(c->indexes[1].index_id, 24u);
  EXPECT_EQ(c->indexes[1].levels[0].records, 2u);
  EXPECT_EQ(c->pages[4].state, IbdPageState::kIndexLive);
  EXPECT_EQ(c->pages[1].state, IbdPageState::kSystem);
  EXPECT_EQ(c->pages[9].state, IbdPageState::kUnused);
}

TEST(IbdReaderTest, GarbageIsNotUsedBytes) {
  SpaceBuilder b(16384, true);
  std::vector<std::vector<uint8_t>> recs;
  for (int i = 0; i < 10; ++i) recs.push_back(LeafRecord(i + 1));
  b.AddIndexPage(3, 30, 0, recs, kFilNull, kFilNull, true, /*garbage=*/500);
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->pages[3].data_size, 10u * 134);
}

TEST(IbdReaderTest, AllPageSizesBothFormats) {
  for (uint32_t ps : {4096u, 8192u, 16384u, 32768u, 65536u}) {
    for (bool fcrc32 : {true, false}) {
      SCOPED_TRACE(testing::Message() << ps << (fcrc32 ? " full_crc32" : " classic"));
      SpaceBuilder b = TwoLevelSpace(ps, fcrc32, 20);
      absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_EQ(c->page_size, ps);
      EXPECT_EQ(c->extent_size, ps <= 16384 ? (1u << 20) / ps : 64u);
      EXPECT_EQ(c->usable_bytes_per_page, ps - 132);
      EXPECT_EQ(c->format(), fcrc32 ? "full_crc32" : "mysql-8");
      ASSERT_EQ(c->indexes.size(), 2u);
      EXPECT_EQ(c->indexes[0].levels[0].records, 60u);
    }
  }
}

TEST(IbdReaderTest, StalePagesAreCountedButNotWalked) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 50);
  // A freed leaf of index 23: it still claims leaf 4 as its neighbour, but
  // leaf 4 does not point back.
  std::vector<std::vector<uint8_t>> recs{LeafRecord(1000), LeafRecord(1001)};
  b.AddIndexPage(10, 23, 0, recs, 4, 5);
  // A freed leaf with no siblings (as after a lift-up).
  b.AddIndexPage(11, 23, 0, recs, kFilNull, kFilNull);
  // Freed before the live pages were last written (as in a flushed file).
  b.SetLsn(10, 900);
  b.SetLsn(11, 901);
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->raw_index_pages, 7u);
  EXPECT_EQ(c->live_index_pages, 5u);
  EXPECT_EQ(c->indexes[0].stale_pages, 2u);
  EXPECT_EQ(c->indexes[0].levels[0].pages, 3u);
  EXPECT_EQ(c->pages[10].state, IbdPageState::kIndexStale);
  EXPECT_EQ(c->pages[11].state, IbdPageState::kIndexStale);
}

TEST(IbdReaderTest, NodePointerBreaksTieBetweenFittingLists) {
  // Root (level 1) with one node pointer to page 5; page 4 is a stale
  // single-page leaf of the same index that fits the count as well.
  SpaceBuilder b(16384, true);
  b.AddIndexPage(3, 23, 1, {NodePointer(1, 5)}, kFilNull, kFilNull, true);
  b.AddIndexPage(4, 23, 0, {LeafRecord(1), LeafRecord(2)}, kFilNull, kFilNull);
  b.AddIndexPage(5, 23, 0, {LeafRecord(1), LeafRecord(2), LeafRecord(3)}, kFilNull,
                 kFilNull);
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->indexes[0].levels[0].leftmost_page, 5u);
  EXPECT_EQ(c->indexes[0].levels[0].records, 3u);
  EXPECT_EQ(c->pages[4].state, IbdPageState::kIndexStale);
  EXPECT_EQ(c->warnings.size(), 1u);
}

TEST(IbdReaderTest, JsonAndTextAndMaps) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 113);
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  nlohmann::json j = nlohmann::json::parse(IbdCensusJson(*c));
  EXPECT_EQ(j["page_size"], 16384);
  ASSERT_EQ(j["indexes"].size(), 2u);
  EXPECT_EQ(j["indexes"][0]["index_id"], 23);
  EXPECT_EQ(j["indexes"][0]["levels"][0]["level"], 0);
  EXPECT_EQ(j["indexes"][0]["levels"][0]["pages"], 3);
  EXPECT_EQ(j["indexes"][0]["levels"][0]["records"], 339);
  EXPECT_NEAR(j["indexes"][0]["levels"][0]["fill"].get<double>(), 113.0 * 134 / 16252,
              1e-9);
  EXPECT_EQ(j["indexes"][0]["levels"][0]["records_per_page"]["113"], 3);

  std::string text = IbdCensusText(*c);
  EXPECT_NE(text.find("index 23: root page 3, height 2"), std::string::npos) << text;

  std::string map = PageMapText(*c, {.legend = false});
  // Row 0: FSP_HDR, IBUF_BITMAP, INODE, root (level 1), three full leaves,
  // a leaf with 2 tiny records, then unused pages.
  EXPECT_EQ(map.substr(0, 12), " 0 FBI1###. ") << map;
  EXPECT_EQ(map.find('\n'), 3u + 64 + 1);
  std::string svg = PageMapSvg(*c);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<title>page 4: index 23 level 0, 113 records"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// --- errors -------------------------------------------------------------

std::string ErrorOf(const std::vector<uint8_t>& bytes, IbdReadOptions o = {}) {
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(bytes, o);
  return c.ok() ? "OK" : std::string(c.status().message());
}

TEST(IbdReaderErrorTest, TruncatedAndEmptyFiles) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  std::vector<uint8_t> bytes = b.bytes();
  bytes.resize(bytes.size() - 100);
  EXPECT_EQ(ErrorOf(bytes),
            "page 15: truncated: file size 262044 is not a multiple of the page size "
            "16384 (16284 bytes of the page present)");
  EXPECT_NE(ErrorOf({}).find("page 0: file of 0 bytes"), std::string::npos);
  bytes.resize(1000);
  EXPECT_NE(ErrorOf(bytes).find("page 0: truncated"), std::string::npos);
}

TEST(IbdReaderErrorTest, BadFlagsAndUnsupportedFormats) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put32(b.page(0) + 54, 0x10);
  EXPECT_EQ(ErrorOf(b.bytes()), "page 0: invalid FSP_SPACE_FLAGS 0x10");
  Put32(b.page(0) + 54, 0x15 | 1 << 5);
  EXPECT_NE(ErrorOf(b.bytes()).find("page_compressed"), std::string::npos);
  Put32(b.page(0) + 54, 0x21 | 2 << 1);
  EXPECT_NE(ErrorOf(b.bytes()).find("ROW_FORMAT=COMPRESSED"), std::string::npos);
}

TEST(IbdReaderErrorTest, BadChecksum) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  b.page(5)[3000] ^= 1;
  EXPECT_NE(ErrorOf(b.bytes()).find("page 5: CRC-32C checksum mismatch"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(b.bytes(), {.verify_checksums = false}), "OK");
}

TEST(IbdReaderErrorTest, PageNumberMismatch) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put32(b.page(5) + 4, 9);
  b.Finish();
  EXPECT_EQ(ErrorOf(b.bytes()), "page 5: FIL_PAGE_OFFSET is 9 (page number mismatch)");
}

TEST(IbdReaderErrorTest, HeapTopOutOfRange) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put16(b.page(4) + 40, 16380);
  b.Finish();
  EXPECT_NE(ErrorOf(b.bytes()).find("page 4: PAGE_HEAP_TOP 16380 out of range"),
            std::string::npos);
  Put16(b.page(4) + 40, 100);
  b.Finish();
  EXPECT_NE(ErrorOf(b.bytes()).find("page 4: PAGE_HEAP_TOP 100 out of range"),
            std::string::npos);
}

TEST(IbdReaderErrorTest, RecordListLoop) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  uint8_t* p = b.page(4);
  // Third record points back to the first (125 + 134 * k are the origins).
  uint32_t first = 125, third = 125 + 2 * 134;
  Put16(p + third - 2, (first - third) & 0xFFFF);
  b.Finish();
  EXPECT_NE(ErrorOf(b.bytes()).find("page 4: record list loop"), std::string::npos)
      << ErrorOf(b.bytes());
}

TEST(IbdReaderErrorTest, RecordListOutOfRange) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  uint8_t* p = b.page(4);
  Put16(p + 125 - 2, 14000);
  b.Finish();
  EXPECT_NE(ErrorOf(b.bytes()).find("page 4: record list out of range"),
            std::string::npos)
      << ErrorOf(b.bytes());
}

TEST(IbdReaderErrorTest, NRecsMismatch) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put16(b.page(6) + 54, 9);
  b.Finish();
  EXPECT_EQ(ErrorOf(b.bytes()), "page 6: PAGE_N_RECS 9 but the record list has 10 records");
}

TEST(IbdReaderErrorTest, BrokenLeafList) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put32(b.page(5) + 12, 1);  // FIL_PAGE_NEXT of leaf 5 -> IBUF_BITMAP page
  b.Finish();
  EXPECT_NE(ErrorOf(b.bytes()).find("FIL_PAGE_NEXT of page 5 is 1: not an INDEX page"),
            std::string::npos)
      << ErrorOf(b.bytes());
}

TEST(IbdReaderErrorTest, MissingFile) {
  absl::StatusOr<IbdCensus> c = ReadIbdFile("/nonexistent/x.ibd");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("/nonexistent/x.ibd: cannot open"),
            std::string::npos);
}

// ---- Files that are not a consistent image, and truncated files.

TEST(IbdReaderTest, FlushedFileShowsNoSignOfUnflushedPages) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 50);
  b.DescribeFirstExtent({0, 1, 2, 3, 4, 5, 6, 7});
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->consistent()) << c->unflushed[0];
  EXPECT_FALSE(c->truncated());
  EXPECT_EQ(IbdUnflushedMessage(*c), "");
  EXPECT_EQ(nlohmann::json::parse(IbdCensusJson(*c))["consistent"], true);
}

TEST(IbdReaderTest, FileShorterThanFspSizeIsRefused) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 50);
  std::vector<uint8_t> bytes = b.bytes();
  bytes.resize(2 * 16384);  // a copy that stopped after two pages
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(bytes);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(c.status().message(),
            "page 0: truncated: FSP_SIZE on page 0 is 16 pages (262144 bytes) but the file has 2 pages (32768 "
            "bytes); copy the whole file");
  // allow_truncated: the census of what is there, flagged.
  c = ReadIbdBytes(bytes, {.allow_truncated = true});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->truncated());
  EXPECT_EQ(c->n_pages, 2u);
  ASSERT_EQ(c->warnings.size(), 1u);
  EXPECT_NE(c->warnings[0].find("FSP_SIZE on page 0 is 16 pages"), std::string::npos);
}

TEST(IbdReaderTest, PageWrittenPastFspFreeLimitIsUnflushed) {
  // Page 0 written before the extent of pages 5.. was initialized, the
  // leaves after it.
  SpaceBuilder b = TwoLevelSpace(16384, true, 50);
  Put32(b.page(0) + 38 + 12, 5);  // FSP_FREE_LIMIT
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_FALSE(c->consistent());
  EXPECT_NE(c->unflushed[0].find("3 written pages from page 5 on"), std::string::npos) << c->unflushed[0];
  const std::string m = IbdUnflushedMessage(*c);
  EXPECT_NE(m.find("Innodb_buffer_pool_pages_dirty"), std::string::npos) << m;
  EXPECT_NE(m.find("FOR EXPORT"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_NE(IbdCensusText(*c).find("warning: not a consistent image"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(IbdCensusJson(*c))["consistent"], false);
}

TEST(IbdReaderTest, AllocatedPageThatIsAllZeroIsUnflushed) {
  // Page 0 says pages 8 and 9 are allocated; the server had not written them.
  SpaceBuilder b = TwoLevelSpace(16384, true, 50);
  b.DescribeFirstExtent({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->unflushed.size(), 1u);
  EXPECT_NE(c->unflushed[0].find("2 pages the extent descriptors mark as allocated are all zero"),
            std::string::npos)
      << c->unflushed[0];
}

TEST(IbdReaderTest, StalePagesNewerThanTheLiveTreeAreUnflushed) {
  // The census that misled: the root on disk is still the empty leaf of the
  // new table (old LSN), the leaves written since hang from a root not yet
  // written: "1 live, 3 stale, 0 records".
  SpaceBuilder b(16384, true);
  b.AddIndexPage(3, 23, 0, {}, kFilNull, kFilNull, /*root=*/true);
  uint64_t id = 1;
  const uint32_t leaves[] = {4, 5, 6};
  for (int i = 0; i < 3; ++i) {
    std::vector<std::vector<uint8_t>> recs;
    for (int r = 0; r < 20; ++r) recs.push_back(LeafRecord(id++));
    b.AddIndexPage(leaves[i], 23, 0, recs, i == 0 ? kFilNull : leaves[i - 1], i == 2 ? kFilNull : leaves[i + 1]);
  }
  b.SetLsn(3, 500);
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->live_index_pages, 1u);
  ASSERT_EQ(c->unflushed.size(), 1u);
  EXPECT_NE(c->unflushed[0].find("index 23: 3 INDEX pages outside its live tree"), std::string::npos)
      << c->unflushed[0];
}

TEST(IbdReaderTest, BrokenTreeWithSignsOfUnflushedPagesIsUnavailable) {
  SpaceBuilder b = TwoLevelSpace(16384, true, 10);
  Put32(b.page(5) + 12, 1);  // a broken leaf list ...
  Put32(b.page(0) + 38 + 12, 5);  // ... and pages past FSP_FREE_LIMIT
  b.Finish();
  absl::StatusOr<IbdCensus> c = ReadIbdBytes(b.bytes());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(c.status().message().find("not a consistent image"), std::string::npos) << c.status();
  EXPECT_NE(c.status().message().find("FIL_PAGE_NEXT of page 5 is 1"), std::string::npos) << c.status();
  // allow_broken_trees (--force): the root level is counted, the leaves stay stale.
  c = ReadIbdBytes(b.bytes(), {.allow_broken_trees = true});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_FALSE(c->trees_complete);
  EXPECT_FALSE(c->consistent());
  ASSERT_GE(c->indexes.size(), 1u);
  EXPECT_EQ(c->indexes[0].levels[1].pages, 1u);
  EXPECT_EQ(c->indexes[0].levels[0].pages, 0u);
  EXPECT_EQ(c->indexes[0].stale_pages, 3u);
  bool warned = false;
  for (const std::string& w : c->warnings) warned = warned || w.find("index 23: live tree broken") != std::string::npos;
  EXPECT_TRUE(warned);
}

// Random corruptions of valid images: each must give an error or a census,
// never a crash (run under -fsanitize=address,undefined).
TEST(IbdReaderFuzzTest, RandomCorruptionsNeverCrash) {
  std::mt19937_64 rng(42);
  int errors = 0, oks = 0;
  for (uint32_t ps : {4096u, 16384u}) {
    const std::vector<uint8_t> good = TwoLevelSpace(ps, true, 12).bytes();
    for (int iter = 0; iter < 1500; ++iter) {
      std::vector<uint8_t> bytes = good;
      // Corrupt 1..8 bytes, biased towards headers and record headers.
      int n = 1 + static_cast<int>(rng() % 8);
      uint32_t page = static_cast<uint32_t>(rng() % 8);
      for (int k = 0; k < n; ++k) {
        uint32_t off = (rng() % 2) ? static_cast<uint32_t>(rng() % 400)
                                   : static_cast<uint32_t>(rng() % ps);
        bytes[size_t{page} * ps + off] = static_cast<uint8_t>(rng());
      }
      if (rng() % 16 == 0) bytes.resize(rng() % bytes.size());
      for (bool verify : {false, true}) {
        absl::StatusOr<IbdCensus> c = ReadIbdBytes(bytes, {.verify_checksums = verify});
        if (c.ok()) {
          ++oks;
          (void)IbdCensusText(*c);
          (void)IbdCensusJson(*c);
          (void)PageMapText(*c);
          (void)PageMapSvg(*c);
        } else {
          ++errors;
          EXPECT_EQ(std::string(c.status().message()).find('\n'), std::string::npos);
          EXPECT_EQ(std::string(c.status().message()).rfind("page ", 0), 0u)
              << c.status().message();
        }
      }
    }
  }
  EXPECT_GT(errors, 1000);
  EXPECT_GT(oks, 10);
}

// What the reader promises on any bytes (tools/ibd_reader.h): an error with a
// message, or a census that accounts for every page of the file: one IbdPage
// per page in page order, each page unused, system or index (live + stale),
// and the indexes' live pages adding up to live_index_pages. Returns "" or
// the first broken promise.
std::string BrokenPromise(const std::vector<uint8_t>& bytes, const absl::StatusOr<IbdCensus>& c) {
  if (!c.ok()) return c.status().message().empty() ? "an error without a message" : "";
  if (c->page_size == 0 || bytes.size() % c->page_size != 0) return "page size does not divide the file";
  if (c->n_pages != bytes.size() / c->page_size) return "n_pages is not the file's pages";
  if (c->pages.size() != c->n_pages) return "not one IbdPage per page";
  uint64_t unused = 0, system = 0, live = 0, stale = 0;
  for (size_t i = 0; i < c->pages.size(); ++i) {
    const IbdPage& p = c->pages[i];
    if (p.page_no != i) return "pages out of order at " + std::to_string(i);
    switch (p.state) {
      case IbdPageState::kUnused: ++unused; break;
      case IbdPageState::kSystem: ++system; break;
      case IbdPageState::kIndexLive: ++live; break;
      case IbdPageState::kIndexStale: ++stale; break;
    }
  }
  if (unused + system + live + stale != c->n_pages) return "page states do not add up to the file's pages";
  if (unused != c->unused_pages) return "unused_pages is not the unused pages";
  if (live != c->live_index_pages) return "live_index_pages is not the live pages";
  if (live + stale != c->raw_index_pages) return "raw_index_pages is not live + stale";
  uint64_t in_indexes = 0;
  for (const IbdIndexCensus& ix : c->indexes) {
    uint64_t by_level = 0;
    for (const IbdLevelCensus& l : ix.levels) by_level += l.pages;
    if (by_level != ix.live_pages) return "an index's levels do not add up to its live pages";
    in_indexes += ix.live_pages;
  }
  if (in_indexes != c->live_index_pages) return "the indexes' live pages do not add up to live_index_pages";
  return "";
}

// Random files, and valid files with a few random bytes changed: no crash,
// and every answer keeps the promise above. Both kinds of answer must occur,
// or the property was not exercised.
TEST(IbdReaderFuzzTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(7);
  const std::vector<uint8_t> valid = TwoLevelSpace(4096, true, 20).bytes();
  int errors = 0, censuses = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<uint8_t> bytes;
    if (iter % 2 == 0) {
      bytes.resize(4096 * (1 + rng() % 4));
      for (auto& b : bytes) b = static_cast<uint8_t>(rng());
      // Sometimes a valid 4 KiB full_crc32 flag word, so the pages get parsed.
      if (iter % 4 == 2) Put32(bytes.data() + 54, 0x13);
    } else {
      bytes = valid;
      const int changes = 1 + static_cast<int>(rng() % 8);
      for (int k = 0; k < changes; ++k) bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    }
    const absl::StatusOr<IbdCensus> c = ReadIbdBytes(bytes, {.verify_checksums = false});
    (c.ok() ? censuses : errors)++;
    EXPECT_EQ(BrokenPromise(bytes, c), "") << "iteration " << iter;
  }
  EXPECT_GT(errors, 0);
  EXPECT_GT(censuses, 0);
}

}  // namespace
}  // namespace innosim
