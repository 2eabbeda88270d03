// Specification tests for the file-space allocator (model/tablespace.h).
#include "model/tablespace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

constexpr uint32_t k16K = 16384;

uint64_t RoundUp(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

// What a B-tree split does to a segment: the hint is page_no + 1 of an
// existing page, FSP_UP.
uint32_t SplitAlloc(Tablespace& ts, Tablespace::SegmentId seg,
                    uint32_t page_no) {
  return ts.AllocPage(seg, page_no + 1, FspDirection::kUp);
}

TEST(TablespaceTest, ExtentSizesFollowFsp0types) {
  EXPECT_EQ(ExtentSizeInPages(4096), 256u);
  EXPECT_EQ(ExtentSizeInPages(8192), 128u);
  EXPECT_EQ(ExtentSizeInPages(16384), 64u);
  EXPECT_EQ(ExtentSizeInPages(32768), 64u);
  EXPECT_EQ(ExtentSizeInPages(65536), 64u);
}

TEST(TablespaceTest, FreshMySQLTableLayout) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  EXPECT_EQ(ts.size_in_pages(), 7u);  // FIL_IBD_FILE_INITIAL_SIZE
  EXPECT_EQ(ts.free_limit(), 64u);    // first extent initialised
  EXPECT_TRUE(ts.IsPageUsed(0));
  EXPECT_TRUE(ts.IsPageUsed(1));
  EXPECT_FALSE(ts.IsPageUsed(2));
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  ASSERT_TRUE(l.sdi.has_value());
  EXPECT_EQ(l.sdi->root_page, 3u);
  ASSERT_EQ(l.indexes.size(), 1u);
  EXPECT_EQ(l.indexes[0].root_page, 4u);
  EXPECT_TRUE(ts.IsPageUsed(2));  // the INODE page
  EXPECT_FALSE(ts.IsPageUsed(5));
  EXPECT_EQ(ts.size_in_pages(), 7u);  // 112 KiB, as an empty 8.x table
  EXPECT_EQ(ts.data_free_bytes(), 0u);
  // The root belongs to the top segment; the leaf segment has no page.
  EXPECT_EQ(ts.Usage(l.indexes[0].top).reserved, 1u);
  EXPECT_EQ(ts.Usage(l.indexes[0].top).used, 1u);
  EXPECT_EQ(ts.Usage(l.indexes[0].leaf).reserved, 0u);
  EXPECT_EQ(ts.segment_count(), 4u);
  EXPECT_EQ(ts.Verify(), "");
}

TEST(TablespaceTest, FreshMySQLTableWithSecondaryIndex) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 2);
  EXPECT_EQ(l.indexes[0].root_page, 4u);
  EXPECT_EQ(l.indexes[1].root_page, 5u);
  // fseg_create's fsp_reserve_free_extents wants 2 free pages in a file
  // under one extent: 6 pages used + 2 > 7, so the file grew to 8 pages.
  EXPECT_EQ(ts.size_in_pages(), 8u);
  EXPECT_EQ(ts.Verify(), "");
}

TEST(TablespaceTest, FreshMariaDBTableLayout) {
  Tablespace ts(k16K, AllocationPolicy::kMariaDB1011);
  EXPECT_EQ(ts.size_in_pages(), 4u);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 2);
  EXPECT_FALSE(l.sdi.has_value());
  EXPECT_EQ(l.indexes[0].root_page, 3u);
  EXPECT_EQ(l.indexes[1].root_page, 4u);
  EXPECT_TRUE(ts.IsPageUsed(2));
  EXPECT_EQ(ts.size_in_pages(), 5u);  // grew page by page for root 4
  EXPECT_EQ(ts.segment_count(), 4u);
  EXPECT_EQ(ts.Verify(), "");
}

// The first FSEG_FRAG_LIMIT (32) pages of a segment are single fragment
// pages: reserved == used. The 33rd takes a whole extent.
TEST(TablespaceTest, FirstThirtyTwoPagesAreFragments) {
  for (AllocationPolicy policy :
       {AllocationPolicy::kMySQL84, AllocationPolicy::kMariaDB1011}) {
    Tablespace ts(k16K, policy);
    FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
    const auto leaf = l.indexes[0].leaf;
    uint32_t last = l.indexes[0].root_page;
    for (int i = 1; i <= 32; ++i) {
      last = SplitAlloc(ts, leaf, last);
      SegmentUsage u = ts.Usage(leaf);
      EXPECT_EQ(u.used, static_cast<uint64_t>(i));
      EXPECT_EQ(u.reserved, u.used);
      ASSERT_EQ(ts.Verify(), "");
    }
    last = SplitAlloc(ts, leaf, last);
    SegmentUsage u = ts.Usage(leaf);
    EXPECT_EQ(u.used, 33u);
    EXPECT_EQ(u.reserved, 32u + 64u);
    EXPECT_EQ(last % 64, 0u);  // the first page of the new extent
    EXPECT_EQ(ts.Verify(), "");
  }
}

// Sequential (auto-increment) splits: the hint page_no + 1 is the next page
// of the same extent, so reserved == used rounded up to whole extents beyond
// the 32 fragments, and the pages of an extent are consecutive.
TEST(TablespaceTest, SequentialAllocationReservesWholeExtents) {
  for (AllocationPolicy policy :
       {AllocationPolicy::kMySQL84, AllocationPolicy::kMariaDB1011}) {
    Tablespace ts(k16K, policy);
    FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
    const auto leaf = l.indexes[0].leaf;
    const uint32_t n = 88496;
    uint32_t last = l.indexes[0].root_page;
    uint32_t in_extent_breaks = 0;
    for (uint32_t i = 1; i <= n; ++i) {
      const uint32_t page = SplitAlloc(ts, leaf, last);
      if (i > 33 && page % 64 != 0 && page != last + 1) {
        // only a leased descriptor extent may start at page 2 of an extent
        if (!(page % 16384 == 2)) ++in_extent_breaks;
      }
      last = page;
      if (i <= 32) {
        ASSERT_EQ(ts.Usage(leaf).reserved, ts.Usage(leaf).used);
      } else {
        const SegmentUsage u = ts.Usage(leaf);
        ASSERT_EQ(u.reserved, 32 + RoundUp(u.used - 32, 64)) << "at " << i;
      }
    }
    EXPECT_EQ(in_extent_breaks, 0u);
    const SegmentUsage u = ts.Usage(leaf);
    // MySQL leases the descriptor extents at 16384, 32768, ... and counts
    // their 2 system pages as used; MariaDB skips them.
    EXPECT_GE(u.used, n);
    EXPECT_EQ(u.reserved, 88544u);  // 32 + 1383 * 64
    EXPECT_EQ(ts.Verify(), "");
  }
}

// The published autoinc figure: 88,496 leaf + 97 non-leaf pages give
// size = 88,704 (leaf 32 + 1383 extents, top 32 + 2 extents).
TEST(TablespaceTest, SequentialIndexSizeMatchesPublishedFigure) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const IndexSegments idx = l.indexes[0];
  uint32_t last_leaf = idx.root_page, last_top = idx.root_page;
  const uint32_t n_leaf = 88496, n_top = 96;  // + the root = 97
  for (uint32_t i = 0; i < n_leaf; ++i) {
    last_leaf = SplitAlloc(ts, idx.leaf, last_leaf);
    // interleave non-leaf pages as the tree grows
    if (i % (n_leaf / n_top) == 0 && ts.Usage(idx.top).used < n_top + 1) {
      last_top = SplitAlloc(ts, idx.top, last_top);
    }
  }
  while (ts.Usage(idx.top).used < n_top + 1) {
    last_top = SplitAlloc(ts, idx.top, last_top);
  }
  const SegmentUsage leaf = ts.Usage(idx.leaf), top = ts.Usage(idx.top);
  EXPECT_EQ(top.used, 97u);
  EXPECT_EQ(top.reserved, 32u + 2 * 64u);
  EXPECT_EQ(leaf.reserved, 32u + 1383 * 64u);
  EXPECT_EQ(leaf.reserved + top.reserved, 88704u);
  EXPECT_EQ(ts.Verify(), "");
}

// Random splits on MySQL: reserved settles at used * 8/7, because a new
// extent is claimed (case 3) whenever free < 12.5% of reserved, before the
// free pages of the hinted extent are considered (case 4).
TEST(TablespaceTest, MySQLRandomSplitsReserveEightSevenths) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const auto leaf = l.indexes[0].leaf;
  std::mt19937_64 rng(42);
  std::vector<uint32_t> pages = {l.indexes[0].root_page};
  const uint32_t n = 100000;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t hint_from = pages[rng() % pages.size()];
    pages.push_back(SplitAlloc(ts, leaf, hint_from));
  }
  const SegmentUsage u = ts.Usage(leaf);
  // used = our pages + 2 system pages per leased descriptor extent
  EXPECT_GE(u.used, n);
  EXPECT_LE(u.used, n + 2 * (ts.size_in_pages() / k16K + 1));
  const double ratio = static_cast<double>(u.reserved) / u.used;
  EXPECT_NEAR(ratio, 8.0 / 7.0, 0.01 * 8.0 / 7.0) << u.reserved << " " << u.used;
  // free pages stay within [R/8, R/8 + one extent)
  const double f = static_cast<double>(u.reserved - u.used);
  EXPECT_GE(f + 1, u.reserved / 8.0);
  EXPECT_LT(f, u.reserved / 8.0 + 64);
  std::set<uint32_t> distinct(pages.begin(), pages.end());
  EXPECT_EQ(distinct.size(), pages.size());
  EXPECT_EQ(ts.Verify(), "");
}

// MariaDB after MDEV-33542: a new extent only while free < min(R/8, 256), and
// the hinted extent's free pages are used first, so a large segment keeps
// roughly 4-5 extents free whatever its size.
TEST(TablespaceTest, MariaDBRandomSplitsKeepAboutFourExtentsFree) {
  Tablespace ts(k16K, AllocationPolicy::kMariaDB1011);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const auto leaf = l.indexes[0].leaf;
  std::mt19937_64 rng(7);
  std::vector<uint32_t> pages = {l.indexes[0].root_page};
  uint64_t min_f = UINT64_MAX, max_f = 0;
  const uint32_t n = 100000;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t hint_from = pages[rng() % pages.size()];
    pages.push_back(SplitAlloc(ts, leaf, hint_from));
    if (i > 20000) {
      const SegmentUsage u = ts.Usage(leaf);
      min_f = std::min<uint64_t>(min_f, u.reserved - u.used);
      max_f = std::max<uint64_t>(max_f, u.reserved - u.used);
    }
  }
  EXPECT_GE(min_f, 192u);
  EXPECT_LE(max_f, 320u);
  const SegmentUsage u = ts.Usage(leaf);
  EXPECT_EQ(u.used, n);
  EXPECT_LT(u.reserved, u.used + 320);
  EXPECT_EQ(ts.Verify(), "");
}

// Extents that hold a descriptor page (first page a multiple of the page
// size) start with their XDES and ibuf bitmap pages used. MySQL leases such
// an extent to a segment (XDES_FSEG_FRAG) and counts the 2 pages as used.
TEST(TablespaceTest, DescriptorExtentsAndLeasing) {
  for (AllocationPolicy policy :
       {AllocationPolicy::kMySQL84, AllocationPolicy::kMariaDB1011}) {
    Tablespace ts(k16K, policy);
    FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
    const auto leaf = l.indexes[0].leaf;
    uint32_t last = l.indexes[0].root_page;
    std::set<uint32_t> got;
    while (ts.free_limit() <= 16384 + 64 || ts.Usage(leaf).used < 16500) {
      last = SplitAlloc(ts, leaf, last);
      ASSERT_TRUE(got.insert(last).second);
    }
    EXPECT_TRUE(ts.IsPageUsed(16384));
    EXPECT_TRUE(ts.IsPageUsed(16385));
    EXPECT_EQ(got.count(16384), 0u);
    EXPECT_EQ(got.count(16385), 0u);
    const SegmentUsage u = ts.Usage(leaf);
    if (policy == AllocationPolicy::kMySQL84) {
      // The descriptor extent was leased: pages 16386.. belong to the leaf
      // and the 2 system pages count as its used pages.
      EXPECT_EQ(got.count(16386), 1u);
      EXPECT_EQ(u.used, got.size() + 2);
      // Freeing every leaf page of the leased extent returns it to
      // FSP_FREE_FRAG with its system pages still used.
      for (uint32_t p = 16386; p < 16448; ++p) {
        ts.FreePage(leaf, p);
        ASSERT_EQ(ts.Verify(), "") << p;
      }
      EXPECT_TRUE(ts.IsPageUsed(16384));
      EXPECT_TRUE(ts.IsPageUsed(16385));
      EXPECT_FALSE(ts.IsPageUsed(16386));
      EXPECT_EQ(ts.Usage(leaf).used, got.size() - 62);
    } else {
      EXPECT_EQ(got.count(16386), 0u);  // no leasing: the extent is skipped
      EXPECT_EQ(u.used, got.size());
    }
    EXPECT_EQ(ts.Verify(), "");
  }
}

// File growth: under 64 pages page by page, then to one extent + one extent,
// one extent at a time up to 32 MiB, then 4 MiB at a time; DATA_FREE counts
// only free extents of the space.
TEST(TablespaceTest, FileGrowthAndDataFree) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const auto leaf = l.indexes[0].leaf;
  uint32_t last = l.indexes[0].root_page;
  std::set<uint32_t> sizes;
  for (int i = 0; i < 20000; ++i) {
    last = SplitAlloc(ts, leaf, last);
    sizes.insert(ts.size_in_pages());
    ASSERT_GT(ts.size_in_pages(), last);
  }
  for (uint32_t s : sizes) {
    if (s < 64) continue;
    if (s <= 2048) {
      EXPECT_EQ(s % 64, 0u) << s;
    } else {
      EXPECT_EQ((s - 2048) % 256, 0u) << s;
    }
  }
  EXPECT_GT(ts.data_free_bytes(), 0u);
  EXPECT_EQ(ts.data_free_bytes() % (1024 * 1024), 0u);
  EXPECT_EQ(ts.Verify(), "");
}

// Every operation keeps all invariants: random allocations in several
// segments with random hints and directions, interleaved with frees.
TEST(TablespaceTest, RandomOperationsKeepInvariants) {
  for (AllocationPolicy policy :
       {AllocationPolicy::kMySQL84, AllocationPolicy::kMariaDB1011}) {
    for (uint32_t page_size : {4096u, 16384u}) {
      Tablespace ts(page_size, policy);
      FilePerTableLayout l = CreateFilePerTableLayout(ts, 2);
      std::vector<Tablespace::SegmentId> segs = {
          l.indexes[0].leaf, l.indexes[0].top, l.indexes[1].leaf,
          l.indexes[1].top};
      std::vector<std::vector<uint32_t>> owned(ts.segment_count());
      for (const auto& idx : l.indexes) owned[idx.top].push_back(idx.root_page);
      std::mt19937_64 rng(page_size + static_cast<int>(policy));
      for (int op = 0; op < 6000; ++op) {
        const auto seg = segs[rng() % segs.size()];
        auto& mine = owned[seg];
        const bool do_free = !mine.empty() && rng() % 100 < 35;
        if (do_free) {
          const size_t k = rng() % mine.size();
          ts.FreePage(seg, mine[k]);
          mine[k] = mine.back();
          mine.pop_back();
        } else {
          uint32_t hint = 0;
          FspDirection dir = FspDirection::kNoDir;
          switch (rng() % 3) {
            case 0:
              if (!mine.empty()) hint = mine[rng() % mine.size()] + 1;
              dir = FspDirection::kUp;
              break;
            case 1:
              if (!mine.empty()) hint = mine[rng() % mine.size()];
              hint = hint > 0 ? hint - 1 : 0;
              dir = FspDirection::kDown;
              break;
            default:
              hint = static_cast<uint32_t>(rng() % (ts.size_in_pages() + 10));
              break;
          }
          if (rng() % 2) {
            ts.ReserveFreeExtents(3);
            mine.push_back(ts.AllocPage(seg, hint, dir, true));
          } else {
            mine.push_back(ts.AllocPage(seg, hint, dir));
          }
        }
        ASSERT_EQ(ts.Verify(), "") << "op " << op;
        const SegmentUsage u = ts.Usage(seg);
        ASSERT_GE(u.reserved, u.used);
        ASSERT_EQ(u.used, mine.size());
      }
    }
  }
}

// Other page sizes: FSP_EXTENT_SIZE and FSEG_FRAG_ARR_N_SLOTS = extent / 2;
// descriptor extents at multiples of the page size.
TEST(TablespaceTest, OtherPageSizes) {
  for (uint32_t ps : {4096u, 8192u, 32768u, 65536u}) {
    Tablespace ts(ps, AllocationPolicy::kMySQL84);
    const uint32_t ext = ExtentSizeInPages(ps);
    EXPECT_EQ(ts.extent_size(), ext);
    EXPECT_EQ(ts.frag_limit(), ext / 2);
    FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
    EXPECT_EQ(l.indexes[0].root_page, 4u);
    const auto leaf = l.indexes[0].leaf;
    uint32_t last = l.indexes[0].root_page;
    for (uint32_t i = 1; i <= ext / 2; ++i) {
      last = SplitAlloc(ts, leaf, last);
      ASSERT_EQ(ts.Usage(leaf).reserved, i);
    }
    last = SplitAlloc(ts, leaf, last);
    EXPECT_EQ(ts.Usage(leaf).reserved, ext / 2 + ext);
    EXPECT_EQ(last % ext, 0u);
    // run past the first descriptor extent where it is cheap to do so
    const uint32_t target = ps <= 8192 ? ps + 4 * ext : 20000;
    while (ts.Usage(leaf).used < target) last = SplitAlloc(ts, leaf, last);
    if (ps <= 8192) {
      EXPECT_TRUE(ts.IsPageUsed(ps));
      EXPECT_TRUE(ts.IsPageUsed(ps + 1));
    }
    const SegmentUsage u = ts.Usage(leaf);
    EXPECT_EQ(u.reserved, ext / 2 + RoundUp(u.used - ext / 2, ext));
    EXPECT_EQ(ts.Verify(), "");
  }
}

// A broken precondition is what the server would assert on; the model
// records it (sticky, naming the fsp function), leaves the space as it was,
// and does not abort.
TEST(TablespaceTest, FreeingAPageThatIsNotAllocatedIsAStatusNotACrash) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const auto leaf = l.indexes[0].leaf;
  const uint32_t page = SplitAlloc(ts, leaf, l.indexes[0].root_page);
  ASSERT_TRUE(ts.status().ok()) << ts.status();
  const SegmentUsage before = ts.Usage(leaf);

  ts.FreePage(leaf, page + 1);  // never allocated
  EXPECT_EQ(ts.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(ts.status().message(),
            absl::StrCat("tablespace: fseg_free_page_low: page ", page + 1, " of segment ", leaf, " is not allocated"));
  // Nothing changed, and Verify names the broken precondition first.
  EXPECT_EQ(ts.Usage(leaf).used, before.used);
  EXPECT_TRUE(ts.IsPageUsed(page));
  EXPECT_EQ(ts.Verify(),
            absl::StrCat("fseg_free_page_low: page ", page + 1, " of segment ", leaf, " is not allocated\n"));
}

TEST(TablespaceTest, FreeingAPageTwiceKeepsTheFirstFailure) {
  Tablespace ts(k16K, AllocationPolicy::kMariaDB1011);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const auto leaf = l.indexes[0].leaf;
  const uint32_t page = SplitAlloc(ts, leaf, l.indexes[0].root_page);
  ts.FreePage(leaf, page);
  ASSERT_TRUE(ts.status().ok()) << ts.status();
  EXPECT_FALSE(ts.IsPageUsed(page));
  ts.FreePage(leaf, page);
  EXPECT_EQ(ts.status().message(),
            absl::StrCat("tablespace: fseg_free_page_low: page ", page, " of segment ", leaf, " is not allocated"));
  // Sticky: a later misuse does not replace the first.
  const absl::Status first = ts.status();
  ts.FreePage(leaf + 100, page);
  EXPECT_EQ(ts.status(), first);
}

// A page of another segment is not this segment's to free.
TEST(TablespaceTest, FreeingAnotherSegmentsPageIsAStatus) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const uint32_t root = l.indexes[0].root_page;  // the top segment's
  ts.FreePage(l.indexes[0].leaf, root);
  EXPECT_EQ(ts.status().message(), absl::StrCat("tablespace: fseg_free_page_low: fragment page ", root,
                                                " does not belong to segment ", l.indexes[0].leaf));
  EXPECT_TRUE(ts.IsPageUsed(root));
}

// An unknown segment: AllocPage records it and hands out a spare page that
// nobody has (above FSP_SIZE, outside the descriptors), and so does every
// later allocation; Usage answers "no pages".
TEST(TablespaceTest, AnUnknownSegmentIsAStatusAndAllocationsGoToSparePages) {
  Tablespace ts(k16K, AllocationPolicy::kMySQL84);
  FilePerTableLayout l = CreateFilePerTableLayout(ts, 1);
  const Tablespace::SegmentId unknown = static_cast<Tablespace::SegmentId>(ts.segment_count() + 3);
  const uint32_t size = ts.size_in_pages();
  const uint32_t spare = ts.AllocPage(unknown, 0, FspDirection::kUp);
  EXPECT_EQ(ts.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(ts.status().message(), absl::StrCat("tablespace: fseg_alloc_free_page_general: unknown segment ", unknown,
                                                " of ", ts.segment_count()));
  EXPECT_GE(spare, size);
  EXPECT_FALSE(ts.IsPageUsed(spare));
  // Later allocations, even for a known segment, never hand out a page twice.
  const uint32_t next = ts.AllocPage(l.indexes[0].leaf, 0, FspDirection::kUp);
  EXPECT_GT(next, spare);
  EXPECT_EQ(ts.Usage(l.indexes[0].leaf).used, 0u);

  Tablespace other(k16K, AllocationPolicy::kMariaDB1011);
  EXPECT_EQ(other.Usage(7).reserved, 0u);
  EXPECT_EQ(other.status().message(), "tablespace: fseg_n_reserved_pages: unknown segment 7 of 0");
}

// Settings out of range are reported, and the space runs with the defaults.
TEST(TablespaceTest, AnUnsupportedPageSizeIsAStatus) {
  Tablespace ts(12345, AllocationPolicy::kMySQL84);
  EXPECT_EQ(ts.status().message(),
            "tablespace: fsp_header_init: innodb_page_size 12345 is not supported (running with 16384)");
  EXPECT_EQ(ts.page_size(), k16K);
  EXPECT_EQ(ts.extent_size(), 64u);
}

}  // namespace
}  // namespace innosim
