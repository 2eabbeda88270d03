// PgNbtreeFile: the census of a PostgreSQL nbtree index's relation file read
// from disk, without a server: what pageinspect's bt_metap and
// bt_page_stats show per block, and pgstatindex's totals, computed as
// pgstattuple/pgstatindex.c pgstatindex_impl computes them.
//
// Contract:
//   - ReadPgNbtreeFile(path, profile) reads `path` and its 1 GB segment files
//     (path.1, path.2, ... while they exist), BLCKSZ 8192 blocks. Block 0
//     must be the metapage (BTP_META, btm_magic 0x053162); otherwise, or for
//     a length that is not whole blocks, an InvalidArgument / DataLoss one
//     line naming the file.
//   - Per block (after the metapage): the BTPageOpaqueData fields (btpo_prev,
//     btpo_next, btpo_level, btpo_flags), the line pointers (items: pd_lower's
//     count, the high key included, as bt_page_stats' live + dead items),
//     PageGetFreeSpace (bt_page_stats' free_size) and, on a page with a right
//     sibling, its high key's bytes.
//   - Totals as pgstatindex: deleted (BTP_DELETED) and half-dead pages
//     counted apart, leaf density from the leaves' free space
//     (PageGetFreeSpace in REL_15, PageGetExactFreeSpace in REL_18: the
//     profile's pgstatindex_exact_free_space), fragments where a leaf's right
//     sibling has a lower block number. A page all zeros (PageIsNew) falls
//     where pgstatindex puts it: its flags are 0, so it counts as internal.
//   - The file is read as it is on disk: a server's dirty buffers are not in
//     it until a CHECKPOINT (or a stopped server). Checksums are not checked.
//
// Pure function of the file's bytes; thread-safe.
#ifndef INNOSIM_TOOLS_PG_NBTREE_FILE_H_
#define INNOSIM_TOOLS_PG_NBTREE_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "model/postgres/profile.h"

namespace innosim {

// access/nbtree.h btpo_flags bits.
inline constexpr uint16_t kBtpLeaf = 1 << 0;
inline constexpr uint16_t kBtpRoot = 1 << 1;
inline constexpr uint16_t kBtpDeleted = 1 << 2;
inline constexpr uint16_t kBtpMeta = 1 << 3;
inline constexpr uint16_t kBtpHalfDead = 1 << 4;
inline constexpr uint16_t kBtpSplitEnd = 1 << 5;
inline constexpr uint16_t kBtpHasGarbage = 1 << 6;
inline constexpr uint16_t kBtpIncompleteSplit = 1 << 7;
inline constexpr uint16_t kBtpHasFullXid = 1 << 8;

struct PgNbtreeBlock {
  uint32_t blkno = 0;
  bool is_new = false;  // PageIsNew: pd_upper 0
  uint32_t btpo_prev = 0;
  uint32_t btpo_next = 0;  // 0: P_NONE (the rightmost page of its level)
  uint32_t btpo_level = 0;
  uint16_t btpo_flags = 0;
  uint32_t items = 0;      // line pointers: (pd_lower - SizeOfPageHeaderData) / sizeof(ItemIdData)
  uint32_t free_size = 0;  // PageGetFreeSpace
  std::string high_key_hex;  // the high key's bytes after IndexTupleData; "" on a rightmost page
  // bt_page_stats' type: 'd' deleted, 'e' half-dead ("empty"), 'l' leaf,
  // 'r' root, 'i' internal.
  char type() const;
};

struct PgNbtreeLevel {
  uint32_t level = 0;
  uint64_t pages = 0;
  uint64_t items = 0;
};

struct PgNbtreeCensus {
  std::string path;
  uint64_t blocks = 0;  // metapage included
  // bt_metap.
  uint32_t magic = 0;
  uint32_t version = 0;
  uint32_t root = 0;
  uint32_t level = 0;
  uint32_t fastroot = 0;
  uint32_t fastlevel = 0;
  // pgstatindex's columns.
  uint64_t index_size = 0;
  uint64_t internal_pages = 0;
  uint64_t leaf_pages = 0;
  uint64_t empty_pages = 0;
  uint64_t deleted_pages = 0;
  double avg_leaf_density = 0;    // NaN without leaves, as pgstatindex
  double leaf_fragmentation = 0;  // NaN without leaves
  std::vector<PgNbtreeLevel> levels;  // live pages by btpo_level, from the root's level down
  std::vector<PgNbtreeBlock> pages;   // blocks 1..blocks-1
};

absl::StatusOr<PgNbtreeCensus> ReadPgNbtreeFile(const std::string& path, const postgres::PgProfile& profile);

// The flag names of `flags`, "leaf,root" (empty for none).
std::string BtpoFlagNames(uint16_t flags);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_PG_NBTREE_FILE_H_
