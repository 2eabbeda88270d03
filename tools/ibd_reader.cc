// tools/ibd_reader.cc: see ibd_reader.h. Offsets follow InnoDB's
// fil0fil.h, fsp0fsp.h, page0types.h and rem0rec.h; names are InnoDB's.
#include "tools/ibd_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/page_format.h"
#include "nlohmann/json.hpp"

namespace innosim {
namespace {

// The page format's offsets and constants (FIL header, FSP header, extent
// descriptors, index page header, COMPACT records) are model/page_format.h's,
// shared with the model.
constexpr uint32_t kFirstUserOrigin = kPageNewSupremumEnd + kRecNewExtraBytes;
// REC_STATUS_* (rem0rec.h): the 3 low bits of the record header's byte 3.
constexpr uint32_t kRecStatusOrdinary = 0;
constexpr uint32_t kRecStatusNodePtr = 1;
constexpr uint32_t kRecStatusInfimum = 2;
constexpr uint32_t kRecStatusSupremum = 3;

uint16_t Be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t Be32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | p[3];
}
uint64_t Be64(const uint8_t* p) {
  return static_cast<uint64_t>(Be32(p)) << 32 | Be32(p + 4);
}

std::string PageRef(uint64_t page_no) { return absl::StrCat("page ", page_no); }

absl::Status Corrupt(uint64_t page_no, const std::string& what) {
  return absl::DataLossError(absl::StrCat(PageRef(page_no), ": ", what));
}

// Random access to the pages of the file.
class PageSource {
 public:
  virtual ~PageSource() = default;
  virtual uint64_t size() const = 0;
  // Reads `len` bytes at `offset` (within size()) into `buf`.
  virtual absl::Status Read(uint64_t offset, size_t len, uint8_t* buf) const = 0;
};

class MemorySource : public PageSource {
 public:
  explicit MemorySource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t size() const override { return bytes_.size(); }
  absl::Status Read(uint64_t offset, size_t len, uint8_t* buf) const override {
    std::memcpy(buf, bytes_.data() + offset, len);
    return absl::OkStatus();
  }

 private:
  std::span<const uint8_t> bytes_;
};

class FileSource : public PageSource {
 public:
  FileSource(int fd, uint64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  ~FileSource() override { ::close(fd_); }
  uint64_t size() const override { return size_; }
  absl::Status Read(uint64_t offset, size_t len, uint8_t* buf) const override {
    size_t done = 0;
    while (done < len) {
      ssize_t n = ::pread(fd_, buf + done, len - done,
                          static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        return absl::DataLossError(absl::StrFormat(
            "%s: read of %d bytes at offset %d failed: %s", path_, len,
            offset + done, n < 0 ? std::strerror(errno) : "unexpected end of file"));
      }
      done += static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

 private:
  int fd_;
  uint64_t size_;
  std::string path_;
};

// CRC-32C table (reflected polynomial 0x82F63B78).
const std::array<uint32_t, 256>& Crc32cTable() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

// What pass 1 learns about an INDEX page beyond IbdPage.
struct IndexAux {
  bool has_seg_headers = false;  // PAGE_BTR_SEG_LEAF and _TOP look valid
  bool all_zero = false;         // never written
};

struct Layout {
  uint32_t page_size = 0;
  uint32_t space_id = 0;
  uint64_t n_pages = 0;
  bool full_crc32 = false;
  bool verify_checksums = false;
};

uint32_t NextOrigin(const uint8_t* p, uint32_t origin, uint32_t page_size) {
  uint16_t rel = Be16(p + origin - 2);
  if (rel == 0) return 0;
  return (origin + rel) & (page_size - 1);
}

bool SegHeaderValid(const uint8_t* seg, const Layout& layout) {
  uint32_t space = Be32(seg);
  uint32_t page = Be32(seg + 4);
  uint16_t offset = Be16(seg + 8);
  return space == layout.space_id && page < layout.n_pages &&
         offset >= kFilPageData && offset < layout.page_size - kFilPageDataEnd;
}

// Checks the index page header, record list and directory of one COMPACT
// INDEX page and fills `page`.
absl::Status CheckIndexPage(const uint8_t* p, const Layout& layout,
                            IbdPage& page, IndexAux& aux) {
  const uint32_t ps = layout.page_size;
  const uint64_t no = page.page_no;
  const uint16_t n_dir_slots = Be16(p + kPageNDirSlots);
  const uint16_t heap_top = Be16(p + kPageHeapTop);
  const uint16_t n_heap_raw = Be16(p + kPageNHeap);
  const uint32_t n_heap = n_heap_raw & 0x7FFF;
  const uint16_t free_head = Be16(p + kPageFree);
  const uint16_t garbage = Be16(p + kPageGarbage);
  const uint16_t n_recs = Be16(p + kPageNRecs);
  const uint16_t level = Be16(p + kPageLevel);

  if ((n_heap_raw & 0x8000) == 0) {
    return absl::UnimplementedError(absl::StrCat(
        PageRef(no), ": ROW_FORMAT=REDUNDANT index page (only COMPACT and "
                     "DYNAMIC pages are supported)"));
  }
  const uint32_t dir_end = ps - kFilPageDataEnd;
  const uint32_t max_slots = (dir_end - kPageNewSupremumEnd) / 2;
  if (n_dir_slots < 2 || n_dir_slots > max_slots) {
    return Corrupt(no, absl::StrFormat("PAGE_N_DIR_SLOTS %d out of range [2, %d]",
                                       n_dir_slots, max_slots));
  }
  const uint32_t dir_start = dir_end - 2u * n_dir_slots;
  if (heap_top < kPageNewSupremumEnd || heap_top > dir_start) {
    return Corrupt(no, absl::StrFormat("PAGE_HEAP_TOP %d out of range [%d, %d]",
                                       heap_top, kPageNewSupremumEnd, dir_start));
  }
  const uint32_t heap_bytes = heap_top - kPageNewSupremumEnd;
  if (n_heap < 2 || n_heap - 2 > heap_bytes / (kRecNewExtraBytes + 1)) {
    return Corrupt(no, absl::StrFormat(
                           "PAGE_N_HEAP %d out of range for PAGE_HEAP_TOP %d",
                           n_heap, heap_top));
  }
  if (garbage > heap_bytes) {
    return Corrupt(no, absl::StrFormat(
                           "PAGE_GARBAGE %d exceeds the heap (%d bytes)",
                           garbage, heap_bytes));
  }
  if (n_recs > n_heap - 2) {
    return Corrupt(no, absl::StrFormat("PAGE_N_RECS %d exceeds PAGE_N_HEAP - 2 = %d",
                                       n_recs, n_heap - 2));
  }
  if (level >= kBtrMaxLevels) {
    return Corrupt(no, absl::StrFormat("PAGE_LEVEL %d out of range", level));
  }
  if (std::memcmp(p + kPageNewInfimum, "infimum\0", 8) != 0 ||
      std::memcmp(p + kPageNewSupremum, "supremum", 8) != 0) {
    return Corrupt(no, "infimum/supremum records missing at 99/112");
  }
  if ((p[kPageNewInfimum - 3] & 7) != kRecStatusInfimum ||
      (p[kPageNewSupremum - 3] & 7) != kRecStatusSupremum) {
    return Corrupt(no, "infimum/supremum record status wrong");
  }

  // The record list, from the infimum along the next pointers.
  const uint32_t want_status = level == 0 ? kRecStatusOrdinary : kRecStatusNodePtr;
  uint32_t owned = p[kPageNewInfimum - 5] & 0x0F;
  uint32_t count = 0;
  uint32_t cur = kPageNewInfimum;
  for (;;) {
    uint32_t next = NextOrigin(p, cur, ps);
    if (next == kPageNewSupremum) break;
    if (next == 0) {
      return Corrupt(no, absl::StrFormat(
                             "record list ends at offset %d before the supremum", cur));
    }
    if (next < kFirstUserOrigin || next >= heap_top) {
      return Corrupt(no, absl::StrFormat(
                             "record list out of range: record at offset %d points "
                             "to offset %d, outside the heap [%d, %d)",
                             cur, next, kFirstUserOrigin, heap_top));
    }
    if (++count > n_heap - 2) {
      return Corrupt(no, absl::StrFormat(
                             "record list loop (more than PAGE_N_HEAP - 2 = %d records)",
                             n_heap - 2));
    }
    if ((p[next - 3] & 7u) != want_status) {
      return Corrupt(no, absl::StrFormat(
                             "record at offset %d has status %d, expected %d on "
                             "level %d",
                             next, p[next - 3] & 7, want_status, level));
    }
    owned += p[next - 5] & 0x0F;
    cur = next;
  }
  owned += p[kPageNewSupremum - 5] & 0x0F;
  if (Be16(p + kPageNewSupremum - 2) != 0) {
    return Corrupt(no, "supremum has a next record");
  }
  if (count != n_recs) {
    return Corrupt(no, absl::StrFormat(
                           "PAGE_N_RECS %d but the record list has %d records",
                           n_recs, count));
  }
  if (owned != count + 2u) {
    return Corrupt(no, absl::StrFormat(
                           "directory: records owned by slots sum to %d, expected %d",
                           owned, count + 2));
  }
  // The directory: slot 0 owns the infimum, the last slot the supremum, and
  // every slot points at an owner inside the heap.
  for (uint32_t i = 0; i < n_dir_slots; ++i) {
    uint32_t off = Be16(p + dir_end - 2 * (i + 1));
    bool ok = (i == 0) ? off == kPageNewInfimum
              : (i + 1 == n_dir_slots)
                  ? off == kPageNewSupremum
                  : off >= kFirstUserOrigin && off < heap_top &&
                        (p[off - 5] & 0x0F) != 0;
    if (!ok) {
      return Corrupt(no, absl::StrFormat("directory slot %d points to offset %d", i,
                                         off));
    }
  }
  // The free list (PAGE_FREE, absolute offsets) stays inside the heap.
  uint32_t n_free = 0;
  for (uint32_t f = free_head; f != 0; f = NextOrigin(p, f, ps)) {
    if (f < kFirstUserOrigin || f >= heap_top) {
      return Corrupt(no, absl::StrFormat("free list record at offset %d out of range",
                                         f));
    }
    if (++n_free > n_heap - 2 - n_recs) {
      return Corrupt(no, "free list loop or longer than PAGE_N_HEAP allows");
    }
  }

  page.level = level;
  page.n_recs = n_recs;
  page.data_size = heap_bytes - garbage;
  page.index_id = Be64(p + kPageIndexId);
  aux.has_seg_headers = SegHeaderValid(p + kPageBtrSegLeaf, layout) &&
                        SegHeaderValid(p + kPageBtrSegTop, layout);
  return absl::OkStatus();
}

absl::Status CheckPage(const uint8_t* p, const Layout& layout, IbdPage& page,
                       IndexAux& aux) {
  const uint32_t ps = layout.page_size;
  const uint64_t no = page.page_no;
  if (std::all_of(p, p + ps, [](uint8_t b) { return b == 0; })) {
    page.state = IbdPageState::kUnused;
    aux.all_zero = true;
    return absl::OkStatus();
  }
  if (layout.full_crc32 && layout.verify_checksums) {
    uint32_t stored = Be32(p + ps - 4);
    uint32_t computed = Crc32c({p, ps - 4});
    if (stored != computed) {
      return Corrupt(no, absl::StrFormat(
                             "CRC-32C checksum mismatch (stored 0x%08x, computed 0x%08x)",
                             stored, computed));
    }
  }
  page.fil_type = Be16(p + kFilPageType);
  if (page.fil_type == kFilPageTypeAllocated) {
    page.state = IbdPageState::kUnused;
    return absl::OkStatus();
  }
  uint32_t offset_field = Be32(p + kFilPageOffset);
  if (offset_field != no) {
    return Corrupt(no, absl::StrFormat("FIL_PAGE_OFFSET is %d (page number mismatch)",
                                       offset_field));
  }
  uint32_t space_field = Be32(p + kFilPageSpaceId);
  if (space_field != layout.space_id) {
    return Corrupt(no, absl::StrFormat("space id %d, but page 0 says %d", space_field,
                                       layout.space_id));
  }
  page.lsn = Be64(p + kFilPageLsn);
  uint32_t trailer_lsn = Be32(p + ps - (layout.full_crc32 ? 8 : 4));
  if (trailer_lsn != static_cast<uint32_t>(page.lsn)) {
    return Corrupt(no, absl::StrFormat(
                           "torn page: FIL_PAGE_LSN low bits 0x%08x, trailer 0x%08x",
                           static_cast<uint32_t>(page.lsn), trailer_lsn));
  }
  page.prev = Be32(p + kFilPagePrev);
  page.next = Be32(p + kFilPageNext);
  if (page.fil_type != kFilPageIndex) {
    page.state = IbdPageState::kSystem;
    return absl::OkStatus();
  }
  page.state = IbdPageState::kIndexStale;  // until the tree walk finds it
  return CheckIndexPage(p, layout, page, aux);
}

// Reads the page size and format from page 0 and checks the file size.
absl::Status ReadLayout(const PageSource& src, const IbdReadOptions& options,
                        Layout& layout, IbdCensus& census) {
  constexpr uint32_t kHeaderBytes = kFspSpaceFlags + 4;
  if (src.size() < kHeaderBytes) {
    return Corrupt(0, absl::StrFormat("file of %d bytes is too short for a "
                                      "tablespace header",
                                      src.size()));
  }
  uint8_t head[kHeaderBytes];
  if (absl::Status s = src.Read(0, kHeaderBytes, head); !s.ok()) return s;
  const uint32_t flags = Be32(head + kFspSpaceFlags);
  const uint32_t ps = PageSizeFromFspFlags(flags);
  if (ps == 0) {
    return Corrupt(0, absl::StrFormat("invalid FSP_SPACE_FLAGS 0x%x", flags));
  }
  const bool fcrc32 = (flags & 0x10) != 0;
  if (fcrc32 && ((flags >> 5) & 7) != 0) {
    return absl::UnimplementedError(absl::StrFormat(
        "page 0: page_compressed tablespace (FSP_SPACE_FLAGS 0x%x) is not supported",
        flags));
  }
  if (!fcrc32) {
    if (((flags >> 1) & 0xF) != 0) {
      return absl::UnimplementedError(absl::StrFormat(
          "page 0: ROW_FORMAT=COMPRESSED tablespace (FSP_SPACE_FLAGS 0x%x) is not "
          "supported",
          flags));
    }
    if (flags & (1u << 16)) {
      return absl::UnimplementedError(absl::StrFormat(
          "page 0: page_compressed tablespace (FSP_SPACE_FLAGS 0x%x) is not supported",
          flags));
    }
    if (flags & (1u << 13)) {
      return absl::UnimplementedError(absl::StrFormat(
          "page 0: encrypted tablespace (FSP_SPACE_FLAGS 0x%x) is not supported",
          flags));
    }
  }
  if (src.size() < ps || src.size() % ps != 0) {
    uint64_t last = src.size() / ps;
    return Corrupt(last, absl::StrFormat(
                             "truncated: file size %d is not a multiple of the page "
                             "size %d (%d bytes of the page present)",
                             src.size(), ps, src.size() % ps));
  }
  layout.page_size = ps;
  layout.space_id = Be32(head + kFspSpaceId);
  layout.n_pages = src.size() / ps;
  layout.full_crc32 = fcrc32;
  layout.verify_checksums = options.verify_checksums;
  census.page_size = ps;
  census.extent_size = ExtentSizeInPages(ps);
  census.fsp_flags = flags;
  census.full_crc32 = fcrc32;
  census.checksums_verified = fcrc32 && options.verify_checksums;
  census.space_id = layout.space_id;
  census.fsp_size = Be32(head + kFspSize);
  census.fsp_free_limit = Be32(head + kFspFreeLimit);
  census.n_pages = layout.n_pages;
  census.usable_bytes_per_page = ps - kPageNewSupremumEnd - kFilPageDataEnd - 4;
  // InnoDB extends the file before it raises FSP_SIZE: a file shorter than
  // FSP_SIZE lost its end (a partial copy), and its census would miss pages.
  if (census.fsp_size > layout.n_pages) {
    const std::string what = absl::StrFormat(
        "truncated: FSP_SIZE on page 0 is %d pages (%d bytes) but the file has %d pages (%d bytes)",
        census.fsp_size, uint64_t{census.fsp_size} * ps, layout.n_pages, src.size());
    if (!options.allow_truncated) return absl::OutOfRangeError(absl::StrCat("page 0: ", what, "; copy the whole file"));
    census.warnings.push_back(absl::StrCat(what, "; the census covers the pages present"));
  }
  return absl::OkStatus();
}

// Result of following FIL_PAGE_NEXT from a leftmost page.
struct ChainWalk {
  std::vector<uint32_t> pages;
  bool consistent = true;
  std::string broken;  // why not, if !consistent
};

ChainWalk WalkChain(const IbdCensus& census, uint32_t head, uint64_t index_id,
                    uint16_t level) {
  ChainWalk walk;
  uint32_t cur = head;
  walk.pages.push_back(cur);
  while (census.pages[cur].next != kFilNull) {
    uint32_t next = census.pages[cur].next;
    auto fail = [&](std::string why) {
      walk.consistent = false;
      walk.broken = absl::StrFormat("FIL_PAGE_NEXT of page %d is %d: %s", cur, next, why);
      return walk;
    };
    if (next >= census.n_pages) return fail("beyond the end of the file");
    const IbdPage& np = census.pages[next];
    if (np.fil_type != kFilPageIndex || np.state == IbdPageState::kUnused) {
      return fail("not an INDEX page");
    }
    if (np.index_id != index_id || np.level != level) {
      return fail(absl::StrFormat("index %d level %d, expected index %d level %d",
                                  np.index_id, np.level, index_id, level));
    }
    if (np.prev != cur) {
      return fail(absl::StrFormat("its FIL_PAGE_PREV is %d", np.prev));
    }
    if (walk.pages.size() >= census.n_pages) return fail("page list loop");
    walk.pages.push_back(next);
    cur = next;
  }
  return walk;
}

// Tie-break between page lists that all fit: which candidate is the child of
// the first node pointer on `parent`? The child page number is the last 4
// bytes of the node pointer's data; the record's end is not known without the
// table definition, so take the last position inside the first record's
// bytes (up to the next record in the heap) that holds a candidate's number.
absl::StatusOr<uint32_t> FirstChildAmong(const PageSource& src, const Layout& layout,
                                         uint32_t parent,
                                         const std::vector<uint32_t>& candidates) {
  const uint32_t ps = layout.page_size;
  std::vector<uint8_t> buf(ps);
  if (absl::Status s = src.Read(uint64_t{parent} * ps, ps, buf.data()); !s.ok()) {
    return s;
  }
  const uint8_t* p = buf.data();
  const uint32_t heap_top = Be16(p + kPageHeapTop);
  const uint32_t first = NextOrigin(p, kPageNewInfimum, ps);
  // The next record in the heap: the smallest origin above `first`, over
  // the record list and the free list (both checked in pass 1).
  uint32_t bound = heap_top;
  uint32_t limit = Be16(p + kPageNHeap) & 0x7FFF;
  for (uint32_t r = NextOrigin(p, first, ps), n = 0;
       r != kPageNewSupremum && r != 0 && n < limit; r = NextOrigin(p, r, ps), ++n) {
    if (r > first) bound = std::min(bound, r - kRecNewExtraBytes);
  }
  for (uint32_t r = Be16(p + kPageFree), n = 0; r != 0 && n < limit;
       r = NextOrigin(p, r, ps), ++n) {
    if (r > first) bound = std::min(bound, r - kRecNewExtraBytes);
  }
  for (uint32_t end = bound; end >= first + 4; --end) {
    uint32_t v = Be32(p + end - 4);
    if (std::find(candidates.begin(), candidates.end(), v) != candidates.end()) {
      return v;
    }
  }
  return Corrupt(parent, "no candidate child page number in the first node pointer");
}

absl::Status WalkIndex(const PageSource& src, const Layout& layout, IbdCensus& census,
                       const std::vector<IndexAux>& aux, uint64_t index_id, const std::vector<uint32_t>& index_pages,
                       IbdIndexCensus& out) {
  // The root: prev = next = FIL_NULL and file-segment headers present.
  std::vector<uint32_t> roots;
  for (uint32_t no : index_pages) {
    const IbdPage& pg = census.pages[no];
    if (pg.prev == kFilNull && pg.next == kFilNull && aux[no].has_seg_headers) {
      roots.push_back(no);
    }
  }
  out.index_id = index_id;
  if (roots.empty()) return absl::OkStatus();
  uint32_t root = roots.front();
  for (uint32_t r : roots) {
    const IbdPage& a = census.pages[r];
    const IbdPage& b = census.pages[root];
    if (a.level > b.level || (a.level == b.level && a.lsn > b.lsn)) root = r;
  }
  if (roots.size() > 1) {
    census.warnings.push_back(absl::StrFormat(
        "index %d: %d root candidates; using page %d (highest level, newest LSN)",
        index_id, roots.size(), root));
  }
  out.root_page = root;
  const uint16_t root_level = census.pages[root].level;
  out.height = root_level + 1;
  out.levels.resize(out.height);

  // Candidates for the leftmost page of each level.
  std::vector<std::vector<uint32_t>> heads(out.height);
  for (uint32_t no : index_pages) {
    const IbdPage& pg = census.pages[no];
    if (pg.prev == kFilNull && pg.level < root_level) heads[pg.level].push_back(no);
  }

  std::vector<uint32_t> level_pages{root};
  for (int level = root_level; level >= 0; --level) {
    if (level < root_level) {
      uint64_t expected = 0;
      for (uint32_t no : level_pages) expected += census.pages[no].n_recs;
      std::vector<ChainWalk> fits;
      std::string why;
      for (uint32_t head : heads[level]) {
        ChainWalk walk = WalkChain(census, head, index_id, static_cast<uint16_t>(level));
        if (walk.consistent && walk.pages.size() == expected) {
          fits.push_back(std::move(walk));
        } else if (why.empty()) {
          why = walk.consistent
                    ? absl::StrFormat("the list from page %d has %d pages", head,
                                      walk.pages.size())
                    : absl::StrFormat("the list from page %d breaks: %s", head,
                                      walk.broken);
        }
      }
      if (fits.empty()) {
        return Corrupt(level_pages.front(), absl::StrFormat(
            "index %d level %d: no page list from a leftmost page matches the %d node "
            "pointers on level %d (%s)",
            index_id, level, expected, level + 1,
            why.empty() ? "no page of the level has FIL_PAGE_PREV = FIL_NULL" : why));
      }
      size_t pick = 0;
      if (fits.size() > 1) {
        std::vector<uint32_t> cands;
        for (const ChainWalk& w : fits) cands.push_back(w.pages.front());
        absl::StatusOr<uint32_t> child =
            FirstChildAmong(src, layout, level_pages.front(), cands);
        if (!child.ok()) return child.status();
        pick = std::find(cands.begin(), cands.end(), *child) - cands.begin();
        census.warnings.push_back(absl::StrFormat(
            "index %d level %d: %d page lists fit; the first node pointer chose page %d",
            index_id, level, fits.size(), *child));
      }
      level_pages = std::move(fits[pick].pages);
    }
    IbdLevelCensus& lc = out.levels[level];
    lc.level = static_cast<uint16_t>(level);
    lc.leftmost_page = level_pages.front();
    for (uint32_t no : level_pages) {
      IbdPage& pg = census.pages[no];
      pg.state = IbdPageState::kIndexLive;
      ++lc.pages;
      lc.records += pg.n_recs;
      lc.used_bytes += pg.data_size;
      ++lc.records_per_page[pg.n_recs];
    }
    lc.usable_bytes = lc.pages * census.usable_bytes_per_page;
    out.live_pages += lc.pages;
  }
  return absl::OkStatus();
}

// Records, from the extent descriptors of the FSP_HDR/XDES page `p` (page
// `base`, a multiple of the page size), which pages of the extents it
// describes are allocated: used[no] = 1 allocated, 0 free; pages of extents
// not in use by a fragment list or segment are left as they are (-1).
void ReadExtentDescriptors(const uint8_t* p, const Layout& layout, uint32_t extent_size, uint64_t base,
                           std::vector<int8_t>& used) {
  const uint32_t ps = layout.page_size;
  const uint32_t entry = kXdesBitmap + 2 * extent_size / 8;
  for (uint32_t e = 0; e < ps / extent_size; ++e) {
    const uint32_t off = kXdesArrOffset + e * entry;
    if (off + entry > ps - kFilPageDataEnd) break;
    const uint32_t state = Be32(p + off + kXdesState);
    if (state < kXdesFreeFrag || state > kXdesLastState) continue;
    for (uint32_t i = 0; i < extent_size; ++i) {
      const uint64_t no = base + uint64_t{e} * extent_size + i;
      if (no >= used.size()) return;
      const uint32_t bit = 2 * i;  // XDES_FREE_BIT of page i
      const bool free = (p[off + kXdesBitmap + bit / 8] >> (bit % 8)) & 1;
      used[no] = free ? 0 : 1;
    }
  }
}

// Signs in the pages alone that the file mixes page versions of different
// moments (docs/ibd-reader.md, "Unflushed files").
void FindUnflushedPages(const IbdCensus& census, const std::vector<IndexAux>& aux,
                        const std::vector<int8_t>& used, std::vector<std::string>& signs) {
  // Page 0 is written in the same mini-transaction that extends the file
  // (FSP_SIZE) or initializes extents (FSP_FREE_LIMIT): no page past either
  // can have been written before page 0 says so.
  uint64_t limit = census.fsp_size;
  if (census.fsp_free_limit > 0) limit = std::min<uint64_t>(limit, census.fsp_free_limit);
  uint64_t past = 0, first_past = 0;
  for (uint64_t no = limit; no < census.n_pages; ++no) {
    if (aux[no].all_zero) continue;
    if (past++ == 0) first_past = no;
  }
  if (past > 0) {
    signs.push_back(absl::StrFormat(
        "%d written pages from page %d on, past what page 0 describes (FSP_SIZE %d, FSP_FREE_LIMIT %d): page 0 "
        "is older than they are",
        past, first_past, census.fsp_size, census.fsp_free_limit));
  }
  // A page is initialized in the mini-transaction that allocates it: an
  // allocated page that is all zero was never written.
  uint64_t zero = 0, first_zero = 0;
  for (uint64_t no = 0; no < std::min<uint64_t>(census.n_pages, limit); ++no) {
    if (used[no] != 1 || !aux[no].all_zero) continue;
    if (zero++ == 0) first_zero = no;
  }
  if (zero > 0) {
    signs.push_back(absl::StrFormat(
        "%d pages the extent descriptors mark as allocated are all zero (never written), the first page %d", zero,
        first_zero));
  }
}

// Freeing a page of a B-tree changes its parent or siblings in the same
// mini-transaction, and the page itself is not written afterwards, so in a
// file whose every page was written, each stale page is older than some live
// page of its index. A stale page newer than the whole live tree means the
// tree's pages on disk are older than the ones they replaced.
void FindStaleNewerThanTree(const IbdCensus& census, const IbdIndexCensus& index,
                            const std::vector<uint32_t>& pages, std::vector<std::string>& signs) {
  uint64_t newest_live = 0;
  for (uint32_t no : pages) {
    if (census.pages[no].state == IbdPageState::kIndexLive) newest_live = std::max(newest_live, census.pages[no].lsn);
  }
  uint64_t newer = 0, newest = 0;
  uint32_t newest_page = 0;
  for (uint32_t no : pages) {
    const IbdPage& pg = census.pages[no];
    if (pg.state != IbdPageState::kIndexStale || pg.lsn <= newest_live) continue;
    ++newer;
    if (pg.lsn > newest) newest = pg.lsn, newest_page = no;
  }
  if (newer > 0) {
    signs.push_back(absl::StrFormat(
        "index %d: %d INDEX pages outside its live tree (%d pages from root page %d) were written after every "
        "page of the tree (page %d: LSN %d, the tree's newest: %d)",
        index.index_id, newer, index.live_pages, index.root_page, newest_page, newest, newest_live));
  }
}

absl::StatusOr<IbdCensus> ReadFrom(const PageSource& src, const IbdReadOptions& options) {
  IbdCensus census;
  Layout layout;
  if (absl::Status s = ReadLayout(src, options, layout, census); !s.ok()) return s;
  const uint32_t ps = layout.page_size;

  // Pass 1: every page, in file order, a few pages at a time.
  census.pages.resize(layout.n_pages);
  std::vector<IndexAux> aux(layout.n_pages);
  std::vector<int8_t> used(layout.n_pages, -1);  // from the extent descriptors
  constexpr uint64_t kBatchBytes = 1u << 20;
  // No bigger than the file: a small file does not pay for a 1 MiB buffer.
  const uint64_t batch_pages =
      std::max<uint64_t>(1, std::min<uint64_t>(kBatchBytes / ps, layout.n_pages));
  std::vector<uint8_t> buf(batch_pages * ps);
  for (uint64_t first = 0; first < layout.n_pages; first += batch_pages) {
    uint64_t n = std::min(batch_pages, layout.n_pages - first);
    if (absl::Status s = src.Read(first * ps, n * ps, buf.data()); !s.ok()) return s;
    for (uint64_t i = 0; i < n; ++i) {
      IbdPage& page = census.pages[first + i];
      page.page_no = static_cast<uint32_t>(first + i);
      if (absl::Status s = CheckPage(buf.data() + i * ps, layout, page, aux[first + i]);
          !s.ok()) {
        return s;
      }
      if ((first + i) % ps == 0 && page.state == IbdPageState::kSystem &&
          (page.fil_type == kFilPageTypeFspHdr || page.fil_type == kFilPageTypeXdes)) {
        ReadExtentDescriptors(buf.data() + i * ps, layout, census.extent_size, first + i, used);
      }
    }
  }
  if (aux[0].all_zero) {
    // InnoDB creates the file and formats page 0 in the buffer pool: a zero
    // page 0 is a new tablespace none of whose pages was written yet.
    return absl::UnavailableError(absl::StrCat(
        "not a consistent image: page 0 (the tablespace header) is all zero, the server has not written it yet (or "
        "the file is no tablespace); ",
        kIbdFlushAdvice));
  }
  if (census.pages[0].state == IbdPageState::kUnused ||
      census.pages[0].fil_type != kFilPageTypeFspHdr) {
    return Corrupt(0, absl::StrFormat("FIL_PAGE_TYPE %d, expected FSP_HDR (8)",
                                      census.pages[0].fil_type));
  }

  FindUnflushedPages(census, aux, used, census.unflushed);

  // Pass 2: walk the live tree of every index found.
  std::map<uint64_t, std::vector<uint32_t>> by_index;
  for (const IbdPage& pg : census.pages) {
    if (pg.state == IbdPageState::kIndexStale) {
      ++census.raw_index_pages;
      by_index[pg.index_id].push_back(pg.page_no);
    } else if (pg.state == IbdPageState::kUnused) {
      ++census.unused_pages;
    }
  }
  for (auto& [index_id, pages] : by_index) {
    IbdIndexCensus index;
    if (absl::Status s = WalkIndex(src, layout, census, aux, index_id, pages, index);
        !s.ok()) {
      if (options.allow_broken_trees) {
        // The levels above the break are counted; the pages below it stay stale.
        census.trees_complete = false;
        census.warnings.push_back(absl::StrCat("index ", index_id, ": live tree broken, counted down to the break: ",
                                               s.message()));
      } else if (!census.unflushed.empty()) {
        return absl::UnavailableError(absl::StrCat("not a consistent image: ", census.unflushed.front(), "; and ",
                                                   s.message(), "; ", kIbdFlushAdvice));
      } else {
        return absl::Status(s.code(), absl::StrCat(s.message(), " (a file read while the server still had dirty "
                                                                "pages of the table looks like this too)"));
      }
    }
    if (index.root_page != kFilNull) FindStaleNewerThanTree(census, index, pages, census.unflushed);
    for (uint32_t no : pages) {
      if (census.pages[no].state == IbdPageState::kIndexStale) ++index.stale_pages;
    }
    if (index.root_page == kFilNull) {
      census.warnings.push_back(absl::StrFormat(
          "index %d: %d INDEX pages but no root page; all counted as stale", index_id,
          pages.size()));
      continue;
    }
    census.live_index_pages += index.live_pages;
    census.indexes.push_back(std::move(index));
  }
  return census;
}

std::string Percent(double x) { return absl::StrFormat("%.1f%%", 100.0 * x); }

}  // namespace

uint32_t PageSizeFromFspFlags(uint32_t flags) {
  uint32_t ssize;
  if (flags & 0x10) {  // full_crc32 marker: PAGE_SSIZE in bits 0..3
    ssize = flags & 0xF;
    if (ssize == 0) return 0;
  } else {  // classic: PAGE_SSIZE in bits 6..9, 0 = 16 KiB
    ssize = (flags >> 6) & 0xF;
    if (ssize == 0) return 16384;
  }
  if (ssize < 3 || ssize > 7) return 0;
  return 512u << ssize;
}

uint32_t Crc32c(std::span<const uint8_t> bytes) {
  const auto& table = Crc32cTable();
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t b : bytes) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string IbdCensus::format() const {
  if (full_crc32) return "full_crc32";
  if (fsp_flags & (1u << 14)) return "mysql-8";
  return "classic";
}

double PageFill(const IbdCensus& census, const IbdPage& page) {
  if (page.fil_type != kFilPageIndex || census.usable_bytes_per_page == 0) return 0.0;
  return static_cast<double>(page.data_size) / census.usable_bytes_per_page;
}

absl::StatusOr<IbdCensus> ReadIbdBytes(std::span<const uint8_t> bytes,
                                       const IbdReadOptions& options) {
  MemorySource src(bytes);
  return ReadFrom(src, options);
}

absl::StatusOr<IbdCensus> ReadIbdFile(const std::string& path,
                                      const IbdReadOptions& options) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(
        absl::StrFormat("%s: cannot open: %s", path, std::strerror(errno)));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  FileSource src(fd, static_cast<uint64_t>(st.st_size), path);
  absl::StatusOr<IbdCensus> census = ReadFrom(src, options);
  if (!census.ok()) {
    return absl::Status(census.status().code(),
                        absl::StrCat(path, ": ", census.status().message()));
  }
  census->path = path;
  return census;
}

std::string IbdUnflushedMessage(const IbdCensus& c) {
  if (c.unflushed.empty()) return "";
  std::string more = c.unflushed.size() > 1 ? absl::StrFormat(" (and %d more signs)", c.unflushed.size() - 1) : "";
  return absl::StrCat(c.path.empty() ? "" : c.path + ": ",
                      "not a consistent image, pages of it were still unwritten in the server: ", c.unflushed.front(),
                      more, "; its census would be wrong: ", kIbdFlushAdvice);
}

std::string IbdCensusText(const IbdCensus& c) {
  std::string out;
  absl::StrAppendFormat(&out, "%s%spage size %d, %s, extent %d pages, %d pages (%.1f MiB), "
                        "space id %d, FSP_SIZE %d\n",
                        c.path, c.path.empty() ? "" : ": ", c.page_size, c.format(),
                        c.extent_size, c.n_pages,
                        c.n_pages * double(c.page_size) / (1 << 20), c.space_id,
                        c.fsp_size);
  absl::StrAppendFormat(&out,
                        "INDEX pages: %d live, %d in the file (%d stale); %d unused "
                        "pages; usable bytes per page %d\n",
                        c.live_index_pages, c.raw_index_pages,
                        c.raw_index_pages - c.live_index_pages, c.unused_pages,
                        c.usable_bytes_per_page);
  for (const IbdIndexCensus& ix : c.indexes) {
    absl::StrAppendFormat(&out,
                          "\nindex %d: root page %d, height %d, %d live pages, %d "
                          "stale\n",
                          ix.index_id, ix.root_page, ix.height, ix.live_pages,
                          ix.stale_pages);
    absl::StrAppendFormat(&out, "  %5s %10s %12s %9s %7s %14s\n", "level", "pages",
                          "records", "rec/page", "fill", "used bytes");
    for (auto it = ix.levels.rbegin(); it != ix.levels.rend(); ++it) {
      const IbdLevelCensus& l = *it;
      absl::StrAppendFormat(&out, "  %5d %10d %12d %9.1f %7s %14d\n", l.level, l.pages,
                            l.records,
                            l.pages ? double(l.records) / double(l.pages) : 0.0,
                            Percent(l.fill()), l.used_bytes);
    }
    if (ix.levels.empty() || ix.levels[0].records_per_page.empty()) continue;
    // Leaf records-per-page histogram, in at most 12 buckets.
    const auto& h = ix.levels[0].records_per_page;
    uint32_t lo = h.begin()->first, hi = h.rbegin()->first;
    uint32_t width = h.size() <= 12 ? 1 : std::max<uint32_t>(1, (hi - lo + 12) / 12);
    std::map<uint32_t, uint64_t> buckets;
    uint64_t most = 0;
    for (auto [n, pages] : h) {
      uint32_t start = width == 1 ? n : lo + (n - lo) / width * width;
      most = std::max(most, buckets[start] += pages);
    }
    out += "  leaf records per page:\n";
    for (auto [start, pages] : buckets) {
      std::string label = width == 1 ? absl::StrCat(start)
                                     : absl::StrCat(start, "-", start + width - 1);
      int bar = most ? static_cast<int>((pages * 40 + most - 1) / most) : 0;
      absl::StrAppendFormat(&out, "  %11s %8d %s\n", label, pages, std::string(bar, '#'));
    }
  }
  for (const std::string& w : c.warnings) absl::StrAppend(&out, "warning: ", w, "\n");
  for (const std::string& w : c.unflushed) absl::StrAppend(&out, "warning: not a consistent image: ", w, "\n");
  return out;
}

std::string IbdCensusJson(const IbdCensus& c) {
  nlohmann::ordered_json j;
  j["path"] = c.path;
  j["page_size"] = c.page_size;
  j["extent_size"] = c.extent_size;
  j["format"] = c.format();
  j["fsp_flags"] = c.fsp_flags;
  j["space_id"] = c.space_id;
  j["fsp_size"] = c.fsp_size;
  j["fsp_free_limit"] = c.fsp_free_limit;
  j["n_pages"] = c.n_pages;
  j["raw_index_pages"] = c.raw_index_pages;
  j["live_index_pages"] = c.live_index_pages;
  j["stale_index_pages"] = c.raw_index_pages - c.live_index_pages;
  j["unused_pages"] = c.unused_pages;
  j["usable_bytes_per_page"] = c.usable_bytes_per_page;
  j["checksums_verified"] = c.checksums_verified;
  nlohmann::ordered_json indexes = nlohmann::ordered_json::array();
  for (const IbdIndexCensus& ix : c.indexes) {
    nlohmann::ordered_json ji;
    ji["index_id"] = ix.index_id;
    ji["root_page"] = ix.root_page;
    ji["height"] = ix.height;
    ji["live_pages"] = ix.live_pages;
    ji["stale_pages"] = ix.stale_pages;
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const IbdLevelCensus& l : ix.levels) {
      nlohmann::ordered_json jl;
      jl["level"] = l.level;
      jl["pages"] = l.pages;
      jl["records"] = l.records;
      jl["used_bytes"] = l.used_bytes;
      jl["usable_bytes"] = l.usable_bytes;
      jl["fill"] = l.fill();
      jl["leftmost_page"] = l.leftmost_page;
      nlohmann::ordered_json hist = nlohmann::ordered_json::object();
      for (auto [n, pages] : l.records_per_page) hist[std::to_string(n)] = pages;
      jl["records_per_page"] = std::move(hist);
      levels.push_back(std::move(jl));
    }
    ji["levels"] = std::move(levels);
    indexes.push_back(std::move(ji));
  }
  j["indexes"] = std::move(indexes);
  j["warnings"] = c.warnings;
  j["consistent"] = c.consistent();
  j["trees_complete"] = c.trees_complete;
  j["unflushed"] = c.unflushed;
  return j.dump();
}

}  // namespace innosim
