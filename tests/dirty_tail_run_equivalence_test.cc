// The dirty tail run (model/fast/dirty_tail_run.h) only lets the clean-page
// scan skip pages it knows are dirty: a pool with it and a pool without it,
// fed the same random page fixes, changes, creations, frees and flushes,
// evict the same pages, write the same pages and keep the same LRU order,
// step for step, under MySQL's and MariaDB's rules and with pools small
// enough for the midpoint to fall inside the run (the old sublist shorter
// than the run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/buffer_pool.h"
#include "tests/verify_test_peer.h"

namespace innosim {
namespace {

constexpr uint32_t kSpace = 3;

struct Case {
  uint64_t frames;
  uint32_t pages;
  bool mariadb;
  // Whether user threads' scans reach the run here: MariaDB's LRU flush
  // (woken below lru_scan_depth / 2 free frames) keeps a larger pool's
  // free list from running dry.
  bool scans = true;
  // innodb_old_blocks_pct: at 5 the old sublist (the midpoint where pages
  // read enter) lies within the scan's 100 pages from the tail once the
  // LRU holds BUF_LRU_OLD_MIN_LEN (512) pages.
  uint32_t old_pct = 37;
};

BufferPool MakePool(const Case& c, bool device) {
  BufferPool::Options o;
  o.n_frames = c.frames;
  o.old_blocks_pct = c.old_pct;
  o.old_blocks_time_ms = 20;
  o.mariadb = c.mariadb;
  o.lru_scan_depth = 64;
  o.io_capacity_max = 40;
  o.dirty_tail_run = device;
  return BufferPool(o);
}

std::string StateOf(const BufferPool& p, uint32_t pages) {
  const BufferPool::Stats& s = p.stats();
  std::string out = std::to_string(s.reads) + "/" + std::to_string(s.created) + "/" + std::to_string(s.evicted) + "/" +
                    std::to_string(s.pages_written) + "/" + std::to_string(s.single_page_written) + "/" +
                    std::to_string(s.lru_batch_written) + "/" + std::to_string(s.lru_wakeup_written) + "/" +
                    std::to_string(s.made_young) + "/" + std::to_string(p.dirty_pages()) + "/" +
                    std::to_string(p.free_len()) + "/" + std::to_string(p.lru_old_len()) + ":";
  for (uint32_t page = 0; page < pages; ++page) out += std::to_string(p.LruPosition(kSpace, page)) + ",";
  return out;
}

class DirtyTailRunEquivalenceTest : public ::testing::TestWithParam<Case> {};

TEST_P(DirtyTailRunEquivalenceTest, SameEvictionsWritesAndLruOrder) {
  const Case c = GetParam();
  BufferPool with = MakePool(c, true), without = MakePool(c, false);
  std::mt19937_64 rng(17);
  uint64_t lsn = 10, longest_run = 0;
  for (int op = 0; op < 30000; ++op) {
    const uint64_t now_ms = static_cast<uint64_t>(op) / 7;
    // Mostly scattered pages (every read needs a frame), now and then a run
    // of new pages and flushes that turn pages clean anywhere on the list.
    const uint32_t page = static_cast<uint32_t>(rng() % c.pages);
    const uint64_t what = rng() % 100;
    const bool commit = rng() % 3 == 0;
    for (BufferPool* p : {&with, &without}) {
      if (what < 45) {
        p->MarkDirty(kSpace, page, lsn, now_ms);
      } else if (what < 80) {
        p->Fix(kSpace, page, now_ms);
      } else if (what < 88) {
        p->Create(kSpace, c.pages + static_cast<uint32_t>(op), now_ms);
        p->MarkDirty(kSpace, c.pages + static_cast<uint32_t>(op), lsn, now_ms);
      } else if (what < 91) {
        p->Free(kSpace, page, lsn);
      } else if (what < 95) {
        p->FlushListBatch(3, lsn);
      } else if (what < 98) {
        p->LruBatch(8, c.frames / 4);
      } else {
        p->FlushPages(kSpace, {page, page + 1});
      }
      if (commit) p->CommitMtr();
    }
    lsn += 5;
    longest_run = std::max(longest_run, VerifyTestPeer::TailRunLength(with));
    ASSERT_EQ(VerifyTestPeer::TailRunLength(without), 0u);
    if (op % 97 == 0) {
      ASSERT_EQ(with.Verify(), "") << "op " << op;
      ASSERT_EQ(StateOf(with, c.pages), StateOf(without, c.pages)) << "op " << op;
    }
  }
  ASSERT_EQ(with.Verify(), "");
  ASSERT_EQ(without.Verify(), "");
  EXPECT_EQ(StateOf(with, c.pages), StateOf(without, c.pages));
  // The device was at work: the run reached past a few pages.
  // (Where user threads never scan, the case checks only that the pools
  // agree.)
  if (c.scans) EXPECT_GT(longest_run, 20u);
}

INSTANTIATE_TEST_SUITE_P(Pools, DirtyTailRunEquivalenceTest,
                         ::testing::Values(Case{64, 400, false}, Case{300, 3000, false}, Case{64, 400, true},
                                           Case{300, 3000, true, false}, Case{600, 3000, false, true, 5}, Case{1200, 6000, false}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::string(i.param.mariadb ? "MariaDb" : "MySql") + std::to_string(i.param.frames) +
                                  "FramesOld" + std::to_string(i.param.old_pct);
                         });

// Verify holds the device to its invariant: a page of the run unmarked
// behind its back is reported.
TEST(DirtyTailRunTest, VerifyCatchesABrokenRun) {
  BufferPool pool = MakePool(Case{64, 400, false}, true);
  std::mt19937_64 rng(3);
  for (int op = 0; op < 3000 && VerifyTestPeer::TailRunLength(pool) < 5; ++op) {
    pool.MarkDirty(kSpace, static_cast<uint32_t>(rng() % 400), 100 + op, op);
    pool.CommitMtr();
  }
  ASSERT_GE(VerifyTestPeer::TailRunLength(pool), 5u);
  ASSERT_EQ(pool.Verify(), "");
  VerifyTestPeer::UnmarkTail(pool);
  EXPECT_NE(pool.Verify().find("dirty tail run"), std::string::npos) << pool.Verify();
}

}  // namespace
}  // namespace innosim
