#include "tools/pg_nbtree_file.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/postgres/page_layout.h"

namespace innosim {
namespace {

using postgres::kBlckSz;
using postgres::kSizeOfItemIdData;
using postgres::kSizeOfPageHeaderData;

// nbtree.h BTREE_MAGIC.
constexpr uint32_t kBtreeMagic = 0x053162;
// md.c: RELSEG_SIZE blocks per segment file (1 GB at BLCKSZ 8192).
constexpr uint64_t kRelSegBlocks = (uint64_t{1} << 30) / kBlckSz;

// The integers are stored in the machine's order; PostgreSQL's files are
// read on the kind of machine that wrote them (little-endian here).
uint16_t U16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
uint32_t U32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// bufpage.h PageHeaderData: pd_lsn 8, pd_checksum 2, pd_flags 2, pd_lower
// 2, pd_upper 2, pd_special 2, pd_pagesize_version 2, pd_prune_xid 4.
struct PageHeader {
  uint16_t lower, upper, special;
};
PageHeader Header(const uint8_t* page) { return {U16(page + 12), U16(page + 14), U16(page + 16)}; }

// bufpage.c PageGetFreeSpace: pd_upper - pd_lower less one line pointer
// (the new tuple's), 0 when that does not fit.
uint32_t PageGetFreeSpace(const PageHeader& h) {
  const int space = static_cast<int>(h.upper) - static_cast<int>(h.lower);
  return space < kSizeOfItemIdData ? 0 : static_cast<uint32_t>(space - kSizeOfItemIdData);
}
// bufpage.c PageGetExactFreeSpace: pd_upper - pd_lower.
uint32_t PageGetExactFreeSpace(const PageHeader& h) {
  const int space = static_cast<int>(h.upper) - static_cast<int>(h.lower);
  return space < 0 ? 0 : static_cast<uint32_t>(space);
}

absl::StatusOr<std::string> ReadAll(const std::string& path) {
  std::string data;
  for (uint64_t seg = 0;; ++seg) {
    const std::string p = seg == 0 ? path : absl::StrCat(path, ".", seg);
    std::ifstream in(p, std::ios::binary);
    if (!in) {
      if (seg == 0) return absl::NotFoundError(absl::StrCat(path, ": cannot open the file (check the path)"));
      break;
    }
    const size_t before = data.size();
    data.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    // md.c: a segment holds RELSEG_SIZE blocks before the next one starts.
    if (data.size() - before < kRelSegBlocks * kBlckSz) break;
  }
  return data;
}

}  // namespace

char PgNbtreeBlock::type() const {
  // pageinspect btreefuncs.c GetBTPageStatistics' letters.
  if (btpo_flags & kBtpDeleted) return ((btpo_flags & kBtpLeaf) || !(btpo_flags & kBtpHasFullXid)) ? 'd' : 'D';
  if (btpo_flags & kBtpHalfDead) return 'e';
  if (btpo_flags & kBtpLeaf) return 'l';
  if (btpo_flags & kBtpRoot) return 'r';
  return 'i';
}

std::string BtpoFlagNames(uint16_t flags) {
  static constexpr std::pair<uint16_t, const char*> kNames[] = {
      {kBtpLeaf, "leaf"},           {kBtpRoot, "root"},          {kBtpDeleted, "deleted"},
      {kBtpMeta, "meta"},           {kBtpHalfDead, "half_dead"}, {kBtpSplitEnd, "split_end"},
      {kBtpHasGarbage, "has_garbage"}, {kBtpIncompleteSplit, "incomplete_split"}, {kBtpHasFullXid, "has_fullxid"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) absl::StrAppend(&out, out.empty() ? "" : ",", name);
  }
  return out;
}

absl::StatusOr<PgNbtreeCensus> ReadPgNbtreeFile(const std::string& path, const postgres::PgProfile& profile) {
  absl::StatusOr<std::string> data = ReadAll(path);
  if (!data.ok()) return data.status();
  if (data->empty()) return absl::DataLossError(absl::StrCat(path, ": the file is empty (no metapage)"));
  if (data->size() % kBlckSz != 0) {
    return absl::DataLossError(absl::StrCat(path, ": ", data->size(), " bytes is not a whole number of ", kBlckSz,
                                            "-byte blocks (a file being written, or not a relation file)"));
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(data->data());
  PgNbtreeCensus c;
  c.path = path;
  c.blocks = data->size() / kBlckSz;
  // nbtree.h BTMetaPageData at PageGetContents (MAXALIGN(SizeOfPageHeaderData)):
  // btm_magic, btm_version, btm_root, btm_level, btm_fastroot, btm_fastlevel.
  const uint8_t* meta = bytes + postgres::MaxAlign(kSizeOfPageHeaderData);
  const PageHeader mh = Header(bytes);
  const uint16_t meta_flags = mh.special + 12 <= kBlckSz ? U16(bytes + mh.special + 12) : 0;
  c.magic = U32(meta);
  if (c.magic != kBtreeMagic || !(meta_flags & kBtpMeta)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: block 0 is not an nbtree metapage (btm_magic 0x%06x, not 0x%06x): give a B-tree index's file, e.g. "
        "$PGDATA/$(psql -Atc \"SELECT pg_relation_filepath('t_pkey')\")",
        path, c.magic, kBtreeMagic));
  }
  c.version = U32(meta + 4);
  c.root = U32(meta + 8);
  c.level = U32(meta + 12);
  c.fastroot = U32(meta + 16);
  c.fastlevel = U32(meta + 20);

  uint64_t max_avail = 0, free_space = 0, fragments = 0;
  std::map<uint32_t, PgNbtreeLevel> levels;
  for (uint32_t blk = 1; blk < c.blocks; ++blk) {
    const uint8_t* page = bytes + uint64_t{blk} * kBlckSz;
    const PageHeader h = Header(page);
    PgNbtreeBlock b;
    b.blkno = blk;
    b.is_new = h.upper == 0;
    // nbtree.h BTPageOpaqueData at pd_special: btpo_prev, btpo_next,
    // btpo_level, btpo_flags, btpo_cycleid. A new page's are all zero.
    if (!b.is_new && h.special + 16 <= kBlckSz) {
      const uint8_t* op = page + h.special;
      b.btpo_prev = U32(op);
      b.btpo_next = U32(op + 4);
      b.btpo_level = U32(op + 8);
      b.btpo_flags = U16(op + 12);
    }
    b.items = h.lower > kSizeOfPageHeaderData ? (h.lower - kSizeOfPageHeaderData) / kSizeOfItemIdData : 0;
    b.free_size = b.is_new ? 0 : PageGetFreeSpace(h);
    // P_HIKEY (offset 1) is the high key on a page with a right sibling.
    if (!b.is_new && b.btpo_next != 0 && b.items > 0) {
      const uint32_t lp = U32(page + kSizeOfPageHeaderData);
      const uint32_t off = lp & 0x7fff, len = lp >> 17;  // itemid.h: lp_off 15 bits, lp_flags 2, lp_len 15
      if (off + len <= kBlckSz && len > postgres::kSizeOfIndexTupleData) {
        for (uint32_t i = off + postgres::kSizeOfIndexTupleData; i < off + len; ++i) {
          absl::StrAppendFormat(&b.high_key_hex, "%02x", page[i]);
        }
      }
    }
    // pgstatindex_impl's buckets.
    if (b.btpo_flags & kBtpDeleted) {
      ++c.deleted_pages;
    } else if (b.btpo_flags & kBtpHalfDead) {
      ++c.empty_pages;
    } else if (b.btpo_flags & kBtpLeaf) {
      max_avail += h.special - kSizeOfPageHeaderData;  // BLCKSZ - (BLCKSZ - pd_special + SizeOfPageHeaderData)
      free_space += profile.pgstatindex_exact_free_space ? PageGetExactFreeSpace(h) : PageGetFreeSpace(h);
      ++c.leaf_pages;
      if (b.btpo_next != 0 && b.btpo_next < blk) ++fragments;
    } else {
      ++c.internal_pages;
    }
    if (!(b.btpo_flags & (kBtpDeleted | kBtpHalfDead)) && !b.is_new) {
      PgNbtreeLevel& l = levels[b.btpo_level];
      l.level = b.btpo_level;
      ++l.pages;
      l.items += b.items;
    }
    c.pages.push_back(std::move(b));
  }
  c.index_size = (1 + c.internal_pages + c.leaf_pages + c.deleted_pages + c.empty_pages) * uint64_t{kBlckSz};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  c.avg_leaf_density = max_avail > 0 ? 100.0 - static_cast<double>(free_space) / static_cast<double>(max_avail) * 100.0
                                     : nan;
  c.leaf_fragmentation =
      c.leaf_pages > 0 ? static_cast<double>(fragments) / static_cast<double>(c.leaf_pages) * 100.0 : nan;
  for (auto it = levels.rbegin(); it != levels.rend(); ++it) c.levels.push_back(it->second);
  return c;
}

}  // namespace innosim
