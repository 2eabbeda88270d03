#include "model/fast/huge_pages.h"

#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "model/engine.h"
#include "model/fast/page_pool.h"
#include "sim/xoshiro256.h"

namespace innosim {
namespace {

uintptr_t Addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

TEST(HugePagesTest, LargeRegionsAreHugePageAlignedAndUsable) {
  for (size_t bytes : {kHugePageBytes, kHugePageBytes + 1, 3 * kHugePageBytes + 4096}) {
    auto* p = static_cast<unsigned char*>(AllocateHuge(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(Addr(p) % kHugePageBytes, 0u) << bytes;
    // Every byte is there to be written and read back.
    std::memset(p, 0xA5, bytes);
    EXPECT_EQ(p[0], 0xA5);
    EXPECT_EQ(p[bytes - 1], 0xA5);
    FreeHuge(p, bytes);
  }
}

TEST(HugePagesTest, SmallRegionsAre64ByteAligned) {
  for (size_t bytes : {size_t{1}, size_t{64}, size_t{1000}, kHugePageBytes - 1}) {
    void* p = AllocateHuge(bytes);
    EXPECT_EQ(Addr(p) % 64, 0u) << bytes;
    std::memset(p, 1, bytes);
    FreeHuge(p, bytes);
  }
}

TEST(HugePagesTest, RegionsComeZeroFilledEvenWhenMemoryIsReused) {
  // A page's search may read the unused slot after its last key
  // (index_page.h): no byte of the pool may be uninitialised. Each size is
  // taken, dirtied and given back first, so that the second allocation
  // likely gets the same, dirty, memory.
  for (size_t bytes : {size_t{64}, size_t{1000}, kHugePageBytes}) {
    void* dirty = AllocateHuge(bytes);
    std::memset(dirty, 0x5A, bytes);
    FreeHuge(dirty, bytes);
    auto* p = static_cast<const unsigned char*>(AllocateHuge(bytes));
    size_t nonzero = 0;
    for (size_t i = 0; i < bytes; ++i) nonzero += p[i] != 0;
    EXPECT_EQ(nonzero, 0u) << bytes;
    FreeHuge(const_cast<unsigned char*>(p), bytes);
  }
}

// A region of one huge page given back is kept and handed to the next
// request (zero-filled, as the test above checks): the runs of one process
// after the first reuse memory the system has already backed. Larger
// regions are kept apart, below.
TEST(HugePagesTest, OneHugePageRegionsAreKeptForTheNextRequest) {
  const size_t before = SpareHugeRegions();
  void* a = AllocateHuge(kHugePageBytes);
  EXPECT_EQ(SpareHugeRegions(), before == 0 ? 0 : before - 1);
  const size_t spare = SpareHugeRegions();
  FreeHuge(a, kHugePageBytes);
  EXPECT_EQ(SpareHugeRegions(), spare + 1);
  void* b = AllocateHuge(kHugePageBytes);
  EXPECT_EQ(b, a);  // the last region kept is the first reused
  EXPECT_EQ(SpareHugeRegions(), spare);
  FreeHuge(b, kHugePageBytes);
  void* big = AllocateHuge(2 * kHugePageBytes);
  FreeHuge(big, 2 * kHugePageBytes);
  EXPECT_EQ(SpareHugeRegions(), spare + 1);  // b's region only
}

// A larger region given back is handed, zero-filled, to the next request of
// the same span only; beyond 256 MiB kept in all, regions go back.
TEST(HugePagesTest, LargerRegionsAreKeptForARequestOfTheSameSpan) {
  // Other tests of the process may have left regions: every figure is
  // measured against what is kept just before.
  const size_t bytes = 3 * kHugePageBytes - 100;
  auto* a = static_cast<unsigned char*>(AllocateHuge(bytes));
  a[12345] = 7;
  void* other = AllocateHuge(2 * kHugePageBytes);
  const size_t before = SpareLargeHugeBytes();
  ASSERT_LE(before + 3 * kHugePageBytes, kSpareLargeHugeBytes) << "left by other tests";
  FreeHuge(a, bytes);
  EXPECT_EQ(SpareLargeHugeBytes(), before + 3 * kHugePageBytes);
  auto* b = static_cast<unsigned char*>(AllocateHuge(3 * kHugePageBytes));  // the same span
  EXPECT_EQ(b, a);
  EXPECT_EQ(b[12345], 0);
  EXPECT_EQ(SpareLargeHugeBytes(), before);
  FreeHuge(b, 3 * kHugePageBytes);
  FreeHuge(other, 2 * kHugePageBytes);
  // Two regions of 130 MiB cannot both be kept under 256 MiB: what passes
  // the bound goes back to the system.
  const size_t huge = size_t{130} << 20;
  void* c = AllocateHuge(huge);
  void* d = AllocateHuge(huge);
  const size_t k0 = SpareLargeHugeBytes();
  FreeHuge(c, huge);
  EXPECT_EQ(SpareLargeHugeBytes(), k0 + huge <= kSpareLargeHugeBytes ? k0 + huge : k0);
  const size_t k1 = SpareLargeHugeBytes();
  FreeHuge(d, huge);
  EXPECT_EQ(SpareLargeHugeBytes(), k1 + huge <= kSpareLargeHugeBytes ? k1 + huge : k1);
  EXPECT_LT(SpareLargeHugeBytes(), k0 + 2 * huge);
  EXPECT_LE(SpareLargeHugeBytes(), kSpareLargeHugeBytes);
}

TEST(HugePagesTest, PagePoolTakesHugeChunksUnlessToldNot) {
  PagePool pool;
  EXPECT_TRUE(pool.huge_chunks());
  void* a = pool.Allocate(100);
  void* b = pool.Allocate(100);
  EXPECT_EQ(Addr(a) % kHugePageBytes, 0u);
  EXPECT_EQ(Addr(b), Addr(a) + 128);  // carved in turn from one chunk
  EXPECT_EQ(pool.reserved_bytes(), kHugePageBytes);
  pool.Free(a, 100);
  EXPECT_EQ(pool.Allocate(128), a);  // same size class: recycled
  PagePool ordinary;
  ordinary.set_huge_chunks(false);
  EXPECT_FALSE(ordinary.huge_chunks());
  (void)ordinary.Allocate(100);
  EXPECT_LT(ordinary.reserved_bytes(), kHugePageBytes);  // a 1 MiB chunk
}

// Scattered or appended, an engine's pages take huge-page chunks; with the
// device off (FastPath::Devices::huge_chunks) they take ordinary ones.
TEST(HugePagesTest, EveryTreeTakesHugeChunksUnlessTheDeviceIsOff) {
  for (bool device : {true, false}) {
    for (bool scatter : {true, false}) {
      const EngineProfile profile = *EngineProfile::ByName("mysql-8.4");
      Engine engine(profile, Seed000Table(16));
      FastPath::Devices devices;
      devices.huge_chunks = device;
      engine.set_fast_path(devices);
      Xoshiro256StarStar rng(7);
      for (uint64_t i = 0; i < 20000; ++i) {
        const Key k = scatter ? Key{rng(), rng()} : Key{i + 1, 0};
        ASSERT_TRUE(engine.InsertRow(k).ok());
      }
      EXPECT_EQ(engine.page_store().pool().huge_chunks(), device) << scatter;
    }
  }
}

}  // namespace
}  // namespace innosim
