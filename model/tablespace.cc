// The file-space page allocator. Every rule names the server function it
// models; [M] is MySQL 8.x storage/innobase/fsp/fsp0fsp.cc (8.0.26+ with
// fseg_reserve_pct, the same code in 8.4), [Ma] is MariaDB 10.6.18+/10.11.8+
// storage/innobase/fsp/fsp0fsp.cc (after MDEV-33542). Behaviour shared by both
// carries no tag.
#include "model/tablespace.h"

#include <algorithm>
#include <bit>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace innosim {
namespace {

// FSEG_FREE_LIST_LIMIT = 40 (include/fsp0fsp.h): a segment may keep extents
// on its FSEG_FREE list only once it reserves this many extents.
constexpr uint32_t kFsegFreeListLimit = 40;
// FSEG_FREE_LIST_MAX_LEN = 4 (include/fsp0fsp.h): fseg_fill_free_list adds at
// most this many extents.
constexpr uint32_t kFsegFreeListMaxLen = 4;
// FSP_FREE_ADD = 4 (include/fsp0fsp.h): fsp_fill_free_list initialises at most
// this many extents above FSP_FREE_LIMIT per call, and big files grow by this
// many extents (fsp_get_pages_to_extend_ibd).
constexpr uint32_t kFspFreeAdd = 4;
// XDES_FRAG_N_USED = 2 (include/fsp0fsp.h): the descriptor page and the ibuf
// bitmap page at the start of every extent whose first page is a multiple of
// the page size (FSP_XDES_OFFSET = 0, FSP_IBUF_BITMAP_OFFSET = 1 in
// include/fsp0types.h).
constexpr uint32_t kXdesFragNUsed = 2;
// FSP_FIRST_INODE_PAGE_NO = 2 (include/fsp0types.h) is where the first INODE
// page lands; it is not forced, fsp_alloc_seg_inode_page takes the first free
// fragment page with hint 0, which is page 2 in a fresh space.
// FSEG_ARR_OFFSET (kFsegArrOffset, model/page_format.h), FSEG_INODE_SIZE = 16 + 3 * FLST_BASE_NODE_SIZE (16) +
// 4 * FSEG_FRAG_ARR_N_SLOTS, FSP_SEG_INODES_PER_PAGE = (physical -
// FSEG_ARR_OFFSET - 10) / FSEG_INODE_SIZE ([Ma] fsp0fsp.cc, the same in [M]
// fsp0fsp.h): 85 inodes per page at 16 KiB.
// FSP_NORMAL reserve in fsp_reserve_free_extents and
// fsp_get_available_space_in_free_extents: 2 extents + 1% of the space
// ("1 extent + 0.5 % ... to undo logs and 1 extent + 0.5 % to cleaning").
uint32_t NormalReserve(uint32_t size, uint32_t extent_size) {
  return 2 + ((size / extent_size) * 2) / 200;
}
// The "n_pages" default of fsp_reserve_free_extents (include/fsp0fsp.h,
// `page_no_t n_pages = 2`): free pages that a file under one extent must have.
constexpr uint32_t kSmallSpaceReservePages = 2;

// UNIV_PAGE_SIZE_DEF: what a Tablespace asked for an unsupported page size
// runs with (after recording the failure).
constexpr uint32_t kDefaultPageSize = 16384;

}  // namespace

void Tablespace::Fail(const char* function, const std::string& what) const {
  if (status_.ok()) status_ = absl::InternalError(absl::StrCat("tablespace: ", function, ": ", what));
}

uint32_t Tablespace::SparePage() { return size_++; }

uint32_t InitialFilePerTableSize(AllocationPolicy policy) {
  // FIL_IBD_FILE_INITIAL_SIZE: MySQL 8.x include/fil0fil.h `constexpr size_t
  // FIL_IBD_FILE_INITIAL_SIZE = 7;` MariaDB include/fil0fil.h `#define
  // FIL_IBD_FILE_INITIAL_SIZE 4U`.
  return policy == AllocationPolicy::kMySQL84 ? 7 : 4;
}

Tablespace::Tablespace(uint32_t page_size, AllocationPolicy policy,
                       double segment_reserve_pct)
    : page_size_(IsSupportedPageSize(page_size) ? page_size : kDefaultPageSize),
      extent_size_(ExtentSizeInPages(page_size_)),
      words_(extent_size_ / 64),
      policy_(policy),
      reserve_pct_(segment_reserve_pct) {
  if (page_size_ != page_size) {
    Fail("fsp_header_init",
         absl::StrCat("innodb_page_size ", page_size, " is not supported (running with ", kDefaultPageSize, ")"));
  }
  // innodb_segment_reserve_factor: FSEG_RESERVE_PCT_MIN 0.03 .. MAX 40.00
  // (include/fsp0fsp.h).
  if (!(segment_reserve_pct >= 0.03 && segment_reserve_pct <= 40.0)) {
    reserve_pct_ = 12.5;
    Fail("fseg_alloc_free_page_low", absl::StrCat("innodb_segment_reserve_factor ", segment_reserve_pct,
                                                  " is outside 0.03 .. 40 (running with 12.5)"));
  }
  const uint32_t slots = extent_size_ / 2;  // FSEG_FRAG_ARR_N_SLOTS
  inodes_per_page_ = (page_size_ - kFsegArrOffset - 10) /
                     (16 + 3 * kFlstBaseNodeSize + 4 * slots);
  // fil_ibd_create(size = FIL_IBD_FILE_INITIAL_SIZE) and fsp_header_init:
  // FSP_SIZE = size, FSP_FREE_LIMIT = 0, then fsp_fill_free_list(init_space =
  // true), which initialises only the first extent.
  size_ = InitialFilePerTableSize(policy);
  FillFreeList(/*init_space=*/true);
}

// ---------------------------------------------------------------- bitmaps

void Tablespace::SetUsedBit(Extent& e, uint32_t off) {
  uint64_t bit = uint64_t{1} << (off & 63);
  if (off >= extent_size_ || (e.used[off >> 6] & bit) != 0) {
    return Fail("xdes_set_bit", absl::StrCat("page ", off, " of an extent is already used"));
  }
  e.used[off >> 6] |= bit;
  ++e.n_used;
}

void Tablespace::ClearUsedBit(Extent& e, uint32_t off) {
  uint64_t bit = uint64_t{1} << (off & 63);
  if (off >= extent_size_ || (e.used[off >> 6] & bit) == 0) {
    return Fail("xdes_set_bit", absl::StrCat("page ", off, " of an extent is already free"));
  }
  e.used[off >> 6] &= ~bit;
  --e.n_used;
}

// xdes_find_bit(XDES_FREE_BIT, true, hint) / xdes_find_free: the first free
// page at or after `hint`, wrapping round to the start of the extent.
uint32_t Tablespace::FindFree(const Extent& e, uint32_t hint) const {
  const uint32_t hw = hint >> 6;
  const uint32_t hb = hint & 63;
  uint64_t m = ~e.used[hw] & (~uint64_t{0} << hb);
  if (m) return hw * 64 + std::countr_zero(m);
  for (uint32_t w = hw + 1; w < words_; ++w) {
    if (~e.used[w]) return w * 64 + std::countr_zero(~e.used[w]);
  }
  for (uint32_t w = 0; w <= hw; ++w) {
    m = ~e.used[w];
    if (w == hw) m &= hb ? ((uint64_t{1} << hb) - 1) : 0;
    if (m) return w * 64 + std::countr_zero(m);
  }
  return kNil;
}

bool Tablespace::IsPageUsed(uint32_t page_no) const {
  uint32_t x = ExtentOf(page_no);
  if (x >= extents_.size()) return false;
  return !IsFreeBit(extents_[x], page_no % extent_size_);
}

// ---------------------------------------------------------------- lists

Tablespace::ListBase& Tablespace::BaseOf(ListTag tag, uint32_t owner) {
  const bool seg_list = tag == ListTag::kSegFree || tag == ListTag::kSegNotFull || tag == ListTag::kSegFull;
  if (seg_list && (owner == 0 || owner > segments_.size())) {
    Fail("flst_get_base", absl::StrCat("an extent of segment ", owner, " of ", segments_.size()));
    no_list_ = ListBase{};
    return no_list_;
  }
  switch (tag) {
    case ListTag::kFspFree: return fsp_free_;
    case ListTag::kFspFreeFrag: return fsp_free_frag_;
    case ListTag::kFspFullFrag: return fsp_full_frag_;
    case ListTag::kSegFree: return segments_[owner - 1].free;
    case ListTag::kSegNotFull: return segments_[owner - 1].not_full;
    case ListTag::kSegFull: return segments_[owner - 1].full;
    case ListTag::kNone: break;
  }
  Fail("flst_get_base", "an extent on no list");
  no_list_ = ListBase{};
  return no_list_;
}

// flst_add_last
void Tablespace::ListAddLast(ListTag tag, uint32_t owner, uint32_t x) {
  Extent& e = extents_[x];
  if (e.list != ListTag::kNone) return Fail("flst_add_last", absl::StrCat("extent ", x, " is on a list already"));
  ListBase& b = BaseOf(tag, owner);
  e.prev = b.last;
  e.next = kNil;
  if (b.last != kNil) extents_[b.last].next = x; else b.first = x;
  b.last = x;
  ++b.len;
  e.list = tag;
}

// flst_remove
void Tablespace::ListRemove(uint32_t x) {
  Extent& e = extents_[x];
  if (e.list == ListTag::kNone) return Fail("flst_remove", absl::StrCat("extent ", x, " is on no list"));
  ListBase& b = BaseOf(e.list, e.owner);
  if (e.prev != kNil) extents_[e.prev].next = e.next; else b.first = e.next;
  if (e.next != kNil) extents_[e.next].prev = e.prev; else b.last = e.prev;
  --b.len;
  e.prev = e.next = kNil;
  e.list = ListTag::kNone;
}

// ---------------------------------------------------------------- space

uint32_t Tablespace::DescriptorOf(uint32_t page) const {
  // xdes_get_descriptor_with_space_hdr: "if ((offset >= size) || (offset >=
  // limit)) return nullptr".
  if (page >= size_ || page >= free_limit_) return kNil;
  return ExtentOf(page);
}

void Tablespace::EnsureExtentSlots(uint32_t n_extents) {
  if (extents_.size() < n_extents) extents_.resize(n_extents);
}

// xdes_init: all pages free, state XDES_FREE, no owner.
void Tablespace::XdesInit(uint32_t x) {
  Extent& e = extents_[x];
  if (e.list != ListTag::kNone) return Fail("xdes_init", absl::StrCat("extent ", x, " is still on a list"));
  e.used.fill(0);
  e.n_used = 0;
  e.owner = 0;
  e.state = XdesState::kFree;
}

// fsp_init_xdes_free_frag: the descriptor and ibuf bitmap pages are marked
// used, the extent goes to the end of FSP_FREE_FRAG and FSP_FRAG_N_USED += 2.
void Tablespace::InitXdesFreeFrag(uint32_t x) {
  Extent& e = extents_[x];
  SetUsedBit(e, 0);  // FSP_XDES_OFFSET
  SetUsedBit(e, 1);  // FSP_IBUF_BITMAP_OFFSET
  e.state = XdesState::kFreeFrag;
  e.owner = 0;
  ListAddLast(ListTag::kFspFreeFrag, 0, x);
  frag_n_used_ += kXdesFragNUsed;
}

// fsp_fill_free_list: if fewer than FSP_FREE_ADD extents remain above the
// free limit, try to extend the file (not while initialising a new
// file-per-table space); then initialise up to FSP_FREE_ADD extents above the
// limit. An extent starting at a multiple of the physical page size holds a
// descriptor page and goes to FSP_FREE_FRAG; the others go to FSP_FREE.
void Tablespace::FillFreeList(bool init_space) {
  if (size_ < free_limit_ + extent_size_ * kFspFreeAdd && !init_space) {
    TryExtendDataFile();
  }
  uint32_t count = 0;
  for (uint32_t i = free_limit_;
       (init_space && i < 1) ||
       (i + extent_size_ <= size_ && count < kFspFreeAdd);
       i += extent_size_) {
    const bool init_xdes = (i % page_size_) == 0;
    free_limit_ = i + extent_size_;
    const uint32_t x = ExtentOf(i);
    EnsureExtentSlots(x + 1);
    XdesInit(x);
    if (init_xdes) {
      InitXdesFreeFrag(x);
    } else {
      ListAddLast(ListTag::kFspFree, 0, x);
      ++count;
    }
  }
}

// fsp_try_extend_data_file_with_pages: grow a file that is still under one
// extent so that `page_no` exists.
void Tablespace::ExtendWithPages(uint32_t page_no) {
  if (page_no < size_) {
    return Fail("fsp_try_extend_data_file_with_pages", absl::StrCat("page ", page_no, " is below FSP_SIZE ", size_));
  }
  size_ = page_no + 1;
}

// fsp_get_pages_to_extend_ibd (both servers): one extent at a time below
// min(32 extents, page_size) pages (32 MiB at 16 KiB), then FSP_FREE_ADD
// extents at a time.
uint32_t Tablespace::PagesToExtend(uint32_t size) const {
  const uint32_t threshold = std::min(32 * extent_size_, page_size_);
  return size < threshold ? extent_size_ : kFspFreeAdd * extent_size_;
}

// fsp_try_extend_data_file for a file-per-table space (no AUTOEXTEND_SIZE):
// first up to one whole extent, then PagesToExtend. [M] stores the size
// rounded down to whole MiB ("We ignore any fragments of a full megabyte");
// [Ma] stores it as is for tablespaces other than the system tablespace.
bool Tablespace::TryExtendDataFile() {
  uint32_t size = size_;
  if (size < extent_size_) {
    ExtendWithPages(extent_size_ - 1);
    size = extent_size_;
  }
  size += PagesToExtend(size);
  if (policy_ == AllocationPolicy::kMySQL84) {
    const uint32_t mib = (1024 * 1024) / page_size_;
    size = size / mib * mib;
  }
  size_ = size;
  return true;
}

// fsp_reserve_free_extents(FSP_NORMAL). A file under one extent only needs
// n_pages free pages in its first extent (fsp_reserve_free_pages). Otherwise
// the free extents (FSP_FREE plus whole extents above FSP_FREE_LIMIT, less
// one and less one per descriptor page) must exceed n_ext + the reserve; the
// file is extended until they do.
bool Tablespace::ReserveFreeExtentsLow(uint32_t n_ext, uint32_t n_pages, bool blob) {
  for (;;) {
    if (size_ < extent_size_ && n_pages < extent_size_ / 2) {
      const uint32_t n_used = extents_[0].n_used;
      if (size_ < n_used + n_pages) ExtendWithPages(n_used + n_pages - 1);
      return true;
    }
    uint32_t n_free_up = 0;
    if (size_ >= free_limit_) {
      n_free_up = (size_ - free_limit_) / extent_size_;
      if (n_free_up > 0) {
        --n_free_up;
        n_free_up -= n_free_up / (page_size_ / extent_size_);
      }
    }
    const uint32_t n_free = fsp_free_.len + n_free_up;
    // FSP_NORMAL keeps its reserve free; FSP_BLOB keeps none (reserve = 0)
    // and only needs n_ext free extents (fil_space_t::reserve_free_extents).
    if (blob ? n_free >= n_ext : n_free > NormalReserve(size_, extent_size_) + n_ext) return true;
    TryExtendDataFile();
  }
}

bool Tablespace::ReserveFreeExtents(uint32_t n_ext) {
  if (!status_.ok()) return true;  // nothing more is allocated from the descriptors
  return ReserveFreeExtentsLow(n_ext, kSmallSpaceReservePages, false);
}

bool Tablespace::ReserveFreeExtentsForBlob() {
  if (!status_.ok()) return true;
  // fsp_reserve_free_extents(&r, space, 1, FSP_BLOB, mtr, 1): one extent,
  // one page for a file under one extent.
  return ReserveFreeExtentsLow(1, 1, true);
}

// fsp_alloc_free_extent: the hinted extent if it is XDES_FREE, else the head
// of FSP_FREE (filling the list from above the free limit if it is empty).
// The extent is removed from FSP_FREE; the caller gives it a state.
uint32_t Tablespace::AllocFreeExtent(uint32_t hint) {
  uint32_t x = DescriptorOf(hint);
  if (x == kNil || extents_[x].state != XdesState::kFree) {
    if (fsp_free_.len == 0) FillFreeList(false);
    if (fsp_free_.len == 0) {
      // Any initialised extent keeps the callers in bounds; the status
      // voids what they do with it.
      Fail("fsp_alloc_free_extent", "no free extent after fsp_fill_free_list");
      return 0;
    }
    x = fsp_free_.first;
  }
  ListRemove(x);
  return x;
}

// fsp_alloc_free_page: a fragment page. The hinted extent if it is
// XDES_FREE_FRAG; else the head of FSP_FREE_FRAG; else a new extent (the
// hinted one if it is free) becomes FREE_FRAG. The page is the first free one
// at or after hint % FSP_EXTENT_SIZE. [M] resets the hint to 0 whenever the
// hinted extent was not used; [Ma] only when it took the FSP_FREE_FRAG head.
uint32_t Tablespace::AllocFragPage(uint32_t hint) {
  uint32_t x = DescriptorOf(hint);
  if (x == kNil || extents_[x].state != XdesState::kFreeFrag) {
    if (fsp_free_frag_.len == 0) {
      x = AllocFreeExtent(hint);
      extents_[x].state = XdesState::kFreeFrag;
      extents_[x].owner = 0;
      ListAddLast(ListTag::kFspFreeFrag, 0, x);
      if (policy_ == AllocationPolicy::kMySQL84) hint = 0;
    } else {
      x = fsp_free_frag_.first;
      hint = 0;
    }
  }
  Extent& e = extents_[x];
  const uint32_t off = FindFree(e, hint % extent_size_);
  if (off == kNil) {
    Fail("fsp_alloc_free_page", absl::StrCat("extent ", x, " on FSP_FREE_FRAG has no free page"));
    return kNil;
  }
  const uint32_t page = FirstPage(x) + off;
  if (size_ <= page) {
    // "It must be that we are extending a single-table tablespace whose size
    // is still < 64 pages".
    if (page >= extent_size_) {
      Fail("fsp_alloc_free_page", absl::StrCat("page ", page, " is beyond FSP_SIZE ", size_));
      return kNil;
    }
    ExtendWithPages(page);
  }
  // fsp_alloc_from_free_frag
  SetUsedBit(e, off);
  ++frag_n_used_;
  if (IsFull(e)) {
    ListRemove(x);
    e.state = XdesState::kFullFrag;
    ListAddLast(ListTag::kFspFullFrag, 0, x);
    frag_n_used_ -= extent_size_;
  }
  return page;
}

// fsp_free_extent: back to FSP_FREE, except that a leased descriptor extent
// ([M] XDES_FSEG_FRAG) goes back to FSP_FREE_FRAG with its 2 system pages.
void Tablespace::FreeExtent(uint32_t x) {
  Extent& e = extents_[x];
  const XdesState state = e.state;
  if (state == XdesState::kFree || state == XdesState::kNotInited) {
    return Fail("fsp_free_extent", absl::StrCat("extent ", x, " is free already"));
  }
  XdesInit(x);
  if (state == XdesState::kFsegFrag) {
    InitXdesFreeFrag(x);
  } else {
    ListAddLast(ListTag::kFspFree, 0, x);
  }
}

// fsp_free_page: frees a fragment page. A FULL_FRAG extent returns to
// FREE_FRAG; an extent left with no used page returns to FSP_FREE.
void Tablespace::FreeFragPage(uint32_t page) {
  const uint32_t x = ExtentOf(page);
  Extent& e = extents_[x];
  if (e.state != XdesState::kFreeFrag && e.state != XdesState::kFullFrag) {
    return Fail("fsp_free_page", absl::StrCat("page ", page, " is not in a fragment extent"));
  }
  ClearUsedBit(e, page % extent_size_);
  if (e.state == XdesState::kFullFrag) {
    ListRemove(x);
    e.state = XdesState::kFreeFrag;
    ListAddLast(ListTag::kFspFreeFrag, 0, x);
    frag_n_used_ += extent_size_ - 1;
  } else if (frag_n_used_ == 0) {
    return Fail("fsp_free_page", "FSP_FRAG_N_USED is 0");
  } else {
    --frag_n_used_;
  }
  if (e.n_used == 0) {
    ListRemove(x);
    FreeExtent(x);
  }
}

// fsp_alloc_seg_inode: a free inode slot on the first INODE page with room,
// allocating a new INODE page (a fragment page, hint 0) when there is none.
uint32_t Tablespace::AllocInodeSlot() {
  if (inodes_used_ == inode_pages_.size() * inodes_per_page_) {
    inode_pages_.push_back(AllocFragPage(0));  // fsp_alloc_seg_inode_page
  }
  return inodes_used_++;
}

// ---------------------------------------------------------------- segments

uint32_t Tablespace::UsedOf(const Segment& s) const {
  return s.n_frag + extent_size_ * s.full.len + s.not_full_n_used;
}

uint32_t Tablespace::ReservedOf(const Segment& s) const {
  return s.n_frag + extent_size_ * (s.full.len + s.not_full.len + s.free.len);
}

SegmentUsage Tablespace::Usage(SegmentId seg) const {
  if (seg >= segments_.size()) {
    Fail("fseg_n_reserved_pages", absl::StrCat("unknown segment ", seg, " of ", segments_.size()));
    return SegmentUsage{};
  }
  const Segment& s = segments_[seg];
  return SegmentUsage{ReservedOf(s), UsedOf(s)};
}

Tablespace::SegmentId Tablespace::CreateSegment(bool with_header_page,
                                                uint32_t* header_page) {
  // [M] fseg_create_general reserves 2 extents first (it may extend the
  // file). [Ma] fseg_create reserves only after an allocation failed, which
  // cannot happen in the model, so it never reserves.
  // Once status_ is not OK the segment is an empty one (its id valid, its
  // header page a spare one), outside the descriptors.
  const bool sound = status_.ok();
  if (sound && policy_ == AllocationPolicy::kMySQL84) ReserveFreeExtents(2);
  if (sound) AllocInodeSlot();
  const SegmentId id = static_cast<SegmentId>(segments_.size());
  Segment s;
  s.frag.assign(extent_size_ / 2, kNil);  // FSEG_FRAG_ARR_N_SLOTS, FIL_NULL
  segments_.push_back(std::move(s));
  if (with_header_page) {
    // fseg_alloc_free_page_low(inode, hint 0, FSP_UP), no extra reservation.
    uint32_t page = status_.ok() ? AllocLow(id, 0, FspDirection::kUp) : kNil;
    if (!status_.ok()) page = SparePage();
    if (header_page != nullptr) *header_page = page;
  } else if (header_page != nullptr) {
    *header_page = kNullPage;
  }
  return id;
}

// fseg_fill_free_list: pre-reserves up to FSEG_FREE_LIST_MAX_LEN consecutive
// free extents from `hint` on, but only for a segment of at least
// FSEG_FREE_LIST_LIMIT extents whose FSEG_FREE list is empty. Both callers
// have just put an extent on FSEG_FREE, so in practice it returns at once;
// it is kept so that the model runs the same steps as the server.
void Tablespace::SegFillFreeList(SegmentId seg, uint32_t hint) {
  Segment& s = segments_[seg];
  if (ReservedOf(s) < kFsegFreeListLimit * extent_size_) return;
  if (s.free.len > 0) return;
  for (uint32_t i = 0; i < kFsegFreeListMaxLen; ++i, hint += extent_size_) {
    const uint32_t x = DescriptorOf(hint);
    if (x == kNil || extents_[x].state != XdesState::kFree) return;
    AllocFreeExtent(hint);
    extents_[x].state = XdesState::kFseg;
    extents_[x].owner = seg + 1;
    ListAddLast(ListTag::kSegFree, seg + 1, x);
  }
}

// [M] fsp_alloc_xdes_free_frag: lease the *last* FSP_FREE_FRAG extent if it
// is a descriptor extent with only its 2 system pages used. It becomes
// XDES_FSEG_FRAG, goes straight to FSEG_NOT_FULL, and its 2 system pages
// count in FSEG_NOT_FULL_N_USED.
uint32_t Tablespace::LeaseXdesFreeFrag(SegmentId seg) {
  if (fsp_free_frag_.len == 0) return kNil;
  const uint32_t x = fsp_free_frag_.last;
  const Extent& e = extents_[x];
  // xdes_is_leasable
  if (FirstPage(x) % page_size_ != 0) return kNil;
  if (IsFreeBit(e, 0) || IsFreeBit(e, 1) || e.n_used != kXdesFragNUsed) {
    return kNil;
  }
  ListRemove(x);
  frag_n_used_ -= kXdesFragNUsed;
  extents_[x].state = XdesState::kFsegFrag;
  extents_[x].owner = seg + 1;
  ListAddLast(ListTag::kSegNotFull, seg + 1, x);
  segments_[seg].not_full_n_used += kXdesFragNUsed;
  return x;
}

// fseg_alloc_free_extent: the head of FSEG_FREE (left on that list); else
// [M] a leased descriptor extent; else a free extent of the space
// (fsp_alloc_free_extent with hint 0) put on FSEG_FREE.
uint32_t Tablespace::SegAllocFreeExtent(SegmentId seg) {
  Segment& s = segments_[seg];
  if (s.free.len > 0) return s.free.first;
  if (policy_ == AllocationPolicy::kMySQL84) {
    const uint32_t x = LeaseXdesFreeFrag(seg);
    if (x != kNil) return x;
  }
  const uint32_t x = AllocFreeExtent(0);
  extents_[x].state = XdesState::kFseg;
  extents_[x].owner = seg + 1;
  ListAddLast(ListTag::kSegFree, seg + 1, x);
  SegFillFreeList(seg, FirstPage(x) + extent_size_);
  return x;
}

// fseg_mark_page_used: an empty extent moves FSEG_FREE -> FSEG_NOT_FULL, the
// page bit is set and FSEG_NOT_FULL_N_USED incremented; a full extent moves to
// FSEG_FULL and FSEG_NOT_FULL_N_USED drops by FSP_EXTENT_SIZE.
void Tablespace::SegMarkPageUsed(SegmentId seg, uint32_t page) {
  const uint32_t x = ExtentOf(page);
  Extent& e = extents_[x];
  if (e.owner != seg + 1) {
    return Fail("fseg_mark_page_used", absl::StrCat("page ", page, " is not in an extent of segment ", seg));
  }
  Segment& s = segments_[seg];
  if (e.n_used == 0) {
    ListRemove(x);
    ListAddLast(ListTag::kSegNotFull, seg + 1, x);
  }
  SetUsedBit(e, page % extent_size_);
  ++s.not_full_n_used;
  if (IsFull(e)) {
    ListRemove(x);
    ListAddLast(ListTag::kSegFull, seg + 1, x);
    if (s.not_full_n_used < extent_size_) {
      return Fail("fseg_mark_page_used", absl::StrCat("FSEG_NOT_FULL_N_USED ", s.not_full_n_used, " of segment ", seg,
                                                      " is below a full extent"));
    }
    s.not_full_n_used -= extent_size_;
  }
}

// The tail of fseg_alloc_free_page_low: a page beyond FSP_SIZE can only be in
// the first extent of a small file, which then grows page by page; then the
// page is marked used in its extent.
uint32_t Tablespace::FinishAlloc(SegmentId seg, uint32_t page) {
  if (size_ <= page) {
    if (page >= extent_size_) {
      Fail("fseg_alloc_free_page_low", absl::StrCat("page ", page, " is beyond FSP_SIZE ", size_));
      return kNil;
    }
    ExtendWithPages(page);
  }
  SegMarkPageUsed(seg, page);
  return page;
}

uint32_t Tablespace::AllocPage(SegmentId seg, uint32_t hint, FspDirection dir,
                               bool has_done_reservation) {
  if (seg >= segments_.size()) {
    Fail("fseg_alloc_free_page_general", absl::StrCat("unknown segment ", seg, " of ", segments_.size()));
  }
  if (!status_.ok()) return SparePage();
  // fseg_alloc_free_page_general: fsp_reserve_free_extents(2, FSP_NORMAL)
  // unless the caller (btr_cur_pessimistic_insert) has reserved already.
  if (!has_done_reservation) ReserveFreeExtents(2);
  const uint32_t page = AllocLow(seg, hint, dir);
  // A step refused on the way leaves `page` meaningless (perhaps kNil).
  return status_.ok() ? page : SparePage();
}

uint32_t Tablespace::AllocLow(SegmentId seg, uint32_t hint, FspDirection dir) {
  return policy_ == AllocationPolicy::kMySQL84 ? AllocLowMySQL(seg, hint, dir)
                                               : AllocLowMariaDB(seg, hint, dir);
}

// Both servers' fseg_alloc_free_page_low: "hint outside space or too high
// above free limit: reset hint" to page 0; returns the hint's extent.
uint32_t Tablespace::HintExtent(uint32_t* hint) const {
  const uint32_t x = DescriptorOf(*hint);
  if (x != kNil) return x;
  *hint = 0;
  return 0;
}

// Both servers: the hinted extent is free; the segment claims it (onto its
// FREE list, filling the free list from the next extent on) and takes the
// hinted page.
uint32_t Tablespace::ClaimHintedExtent(SegmentId seg, uint32_t hint) {
  const uint32_t x = DescriptorOf(hint);
  const uint32_t got = AllocFreeExtent(hint);
  if (got != x) {
    Fail("fseg_alloc_free_page_low", absl::StrCat("the hinted free extent ", x, " was not the one allocated"));
    return kNil;
  }
  Extent& e = extents_[x];
  e.state = XdesState::kFseg;
  e.owner = seg + 1;
  ListAddLast(ListTag::kSegFree, seg + 1, x);
  SegFillFreeList(seg, hint + extent_size_);
  SegMarkPageUsed(seg, hint);
  return hint;
}

// Both servers: any unused page of the segment, in the first NOT_FULL
// extent, else the first FREE one.
uint32_t Tablespace::AllocUnusedSegPage(SegmentId seg) {
  const Segment& s = segments_[seg];
  const uint32_t nx = s.not_full.len > 0 ? s.not_full.first : s.free.first;
  if (nx == kNil) {
    Fail("fseg_alloc_free_page_low", absl::StrCat("segment ", seg, " reserves more than it uses but has no extent"));
    return kNil;
  }
  return FinishAlloc(seg, FirstPage(nx) + FindFree(extents_[nx], 0));
}

// Both servers: a fragment page from the space (fsp_alloc_free_page), into
// the segment's first empty FSEG_FRAG_ARR slot.
uint32_t Tablespace::AllocSegFragPage(SegmentId seg, uint32_t hint) {
  const uint32_t page = AllocFragPage(hint);
  Segment& s = segments_[seg];
  auto slot = std::find(s.frag.begin(), s.frag.end(), kNil);
  if (page == kNil) return kNil;
  if (slot == s.frag.end()) {
    Fail("fseg_alloc_free_page_low", absl::StrCat("segment ", seg, " has no free FSEG_FRAG_ARR slot"));
    return kNil;
  }
  *slot = page;
  ++s.n_frag;
  return page;
}

// [M] fseg_alloc_free_page_low (called fseg_alloc_page_no in some copies).
uint32_t Tablespace::AllocLowMySQL(SegmentId seg, uint32_t hint,
                                   FspDirection dir) {
  Segment& s = segments_[seg];
  const uint32_t reserved = ReservedOf(s);
  const uint32_t used = UsedOf(s);
  const uint32_t x = HintExtent(&hint);
  Extent* e = &extents_[x];
  const uint32_t off = hint % extent_size_;
  const bool in_seg = (e->state == XdesState::kFseg ||
                       e->state == XdesState::kFsegFrag) &&
                      e->owner == seg + 1;  // xdes_in_segment
  // `reserved - used < reserved * (fseg_reserve_pct / 100) && used >=
  // FSEG_FRAG_LIMIT`: the segment may take a new extent.
  const bool low =
      static_cast<double>(reserved - used) <
          static_cast<double>(reserved) * (reserve_pct_ / 100.0) &&
      used >= frag_limit();

  // 1. The hinted page is a free page of this segment.
  if (in_seg && IsFreeBit(*e, off)) {
    SegMarkPageUsed(seg, hint);
    return hint;
  }
  // 2. The hinted extent is free: claim it and take the hinted page.
  if (e->state == XdesState::kFree && low) return ClaimHintedExtent(seg, hint);
  // 3. Any free extent of the segment (or a new or leased one): its lowest
  // page (its first free one if leased) going up, its highest going down.
  if (dir != FspDirection::kNoDir && low) {
    const uint32_t nx = SegAllocFreeExtent(seg);
    uint32_t page = FirstPage(nx);
    if (dir == FspDirection::kDown) {
      page += extent_size_ - 1;
    } else if (extents_[nx].state == XdesState::kFsegFrag) {
      page += FindFree(extents_[nx], 0);
    }
    return FinishAlloc(seg, page);
  }
  // 4. A free page in the hinted extent of this segment, at or after the hint.
  if (in_seg && !IsFull(*e)) {
    return FinishAlloc(seg, FirstPage(x) + FindFree(*e, off));
  }
  // 5. Any unused page of the segment: the first NOT_FULL extent, else the
  // first FREE one.
  if (used < reserved) {
    return AllocUnusedSegPage(seg);
  }
  // 6. A fragment page from the space.
  if (used < frag_limit()) {
    return AllocSegFragPage(seg, hint);
  }
  // 7. A new extent and its first page (first free one if leased).
  const uint32_t nx = SegAllocFreeExtent(seg);
  uint32_t page = FirstPage(nx);
  if (extents_[nx].state == XdesState::kFsegFrag) {
    page += FindFree(extents_[nx], 0);
  }
  return FinishAlloc(seg, page);
}

// [Ma] fseg_alloc_free_page_low after MDEV-33542.
uint32_t Tablespace::AllocLowMariaDB(SegmentId seg, uint32_t hint,
                                     FspDirection dir) {
  Segment& s = segments_[seg];
  const uint32_t reserved = ReservedOf(s);
  const uint32_t used = UsedOf(s);
  const uint32_t x = HintExtent(&hint);
  Extent* e = &extents_[x];
  const uint32_t off = hint % extent_size_;
  // A. The hinted extent belongs to this segment: the hinted page if free,
  // else the first free page at or after it (wrapping).
  if (e->state == XdesState::kFseg && e->owner == seg + 1) {
    if (IsFreeBit(*e, off)) {
      SegMarkPageUsed(seg, hint);
      return hint;
    }
    if (!IsFull(*e)) return FinishAlloc(seg, FirstPage(x) + FindFree(*e, off));
  }
  // B. A new extent only if `!(used < extent_size / 2 || reserved - used >=
  // reserved / 8 || reserved - used >= extent_size * 4)` (integer division).
  const uint32_t f = reserved - used;
  const bool may_add = !(used < extent_size_ / 2 || f >= reserved / 8 ||
                         f >= extent_size_ * 4);
  // B1. Claim the hinted free extent and take the hinted page.
  if (may_add && e->state == XdesState::kFree) return ClaimHintedExtent(seg, hint);
  if (may_add && dir != FspDirection::kNoDir) {
    // B2. Any free extent: its first page (FSP_UP) or last page (FSP_DOWN).
    const uint32_t nx = SegAllocFreeExtent(seg);
    uint32_t page = FirstPage(nx);
    if (dir == FspDirection::kDown) page += extent_size_ - 1;
    return FinishAlloc(seg, page);
  }
  // C. Any unused page of the segment.
  if (f > 0) {
    return AllocUnusedSegPage(seg);
  }
  // D. A fragment page.
  if (used < extent_size_ / 2) {
    return AllocSegFragPage(seg, hint);
  }
  // E. A new extent, its first page.
  const uint32_t nx = SegAllocFreeExtent(seg);
  return FinishAlloc(seg, FirstPage(nx));
}

// fseg_free_page_low. Its assertions (ib::fatal "trying to free page ...
// which does not belong to segment", "... already free") are all checked
// before the first change.
void Tablespace::FreePage(SegmentId seg, uint32_t page_no) {
  if (!status_.ok()) return;
  constexpr const char* kFn = "fseg_free_page_low";
  if (seg >= segments_.size()) {
    return Fail(kFn, absl::StrCat("page ", page_no, " of unknown segment ", seg, " of ", segments_.size()));
  }
  const uint32_t x = ExtentOf(page_no);
  if (x >= extents_.size() || IsFreeBit(extents_[x], page_no % extent_size_)) {
    return Fail(kFn, absl::StrCat("page ", page_no, " of segment ", seg, " is not allocated"));
  }
  Extent& e = extents_[x];
  const uint32_t off = page_no % extent_size_;
  Segment& s = segments_[seg];
  if (e.state == XdesState::kFreeFrag || e.state == XdesState::kFullFrag) {
    // A fragment page of the segment.
    auto slot = std::find(s.frag.begin(), s.frag.end(), page_no);
    if (slot == s.frag.end()) {
      return Fail(kFn, absl::StrCat("fragment page ", page_no, " does not belong to segment ", seg));
    }
    *slot = kNil;
    --s.n_frag;
    FreeFragPage(page_no);
    return;
  }
  if ((e.state != XdesState::kFseg && e.state != XdesState::kFsegFrag) || e.owner != seg + 1) {
    return Fail(kFn, absl::StrCat("page ", page_no, " does not belong to segment ", seg));
  }
  if (e.state == XdesState::kFsegFrag && off < kXdesFragNUsed) {
    return Fail(kFn, absl::StrCat("page ", page_no, " is a system page of a leased extent"));
  }
  if (!IsFull(e) && s.not_full_n_used == 0) {
    return Fail(kFn, absl::StrCat("FSEG_NOT_FULL_N_USED of segment ", seg, " is 0"));
  }
  uint32_t not_full_n_used = s.not_full_n_used;
  if (IsFull(e)) {
    ListRemove(x);
    ListAddLast(ListTag::kSegNotFull, seg + 1, x);
    not_full_n_used += extent_size_ - 1;
  } else {
    --not_full_n_used;
  }
  ClearUsedBit(e, off);
  uint32_t n_used = e.n_used;
  // [M] "A leased fragment extent might have no more pages belonging to the
  // segment": only its 2 system pages are left.
  if (e.state == XdesState::kFsegFrag && n_used == kXdesFragNUsed) {
    n_used = 0;
    not_full_n_used -= kXdesFragNUsed;
  }
  if (n_used == 0) {
    ListRemove(x);
    FreeExtent(x);
  }
  s.not_full_n_used = not_full_n_used;
}

// fsp_get_available_space_in_free_extents ([M]; DATA_FREE in
// ha_innobase::info_low is this * 1024): free extents on FSP_FREE plus those
// above the free limit (less one, less one per descriptor page), minus the
// FSP_NORMAL reserve, in KiB; 0 for a file under one extent.
uint64_t Tablespace::data_free_bytes() const {
  if (size_ < extent_size_) return 0;
  uint64_t n_free_up = size_ >= free_limit_
                           ? (size_ - free_limit_) / extent_size_ : 0;
  if (n_free_up > 0) {
    --n_free_up;
    n_free_up -= n_free_up / (page_size_ / extent_size_);
  }
  const uint64_t reserve = NormalReserve(size_, extent_size_);
  const uint64_t n_free = fsp_free_.len + n_free_up;
  if (reserve > n_free) return 0;
  const uint64_t kib = (n_free - reserve) * extent_size_ * (page_size_ / 1024);
  return kib * 1024;
}

// ---------------------------------------------------------------- Verify

std::string Tablespace::Verify() const {
  std::string out;
  int n_errors = 0;
  auto err = [&](const std::string& msg) {
    if (n_errors++ < 8) out += msg + "\n";
  };
  auto sx = [](uint64_t v) { return std::to_string(v); };
  // The broken precondition first: what follows may be its consequence.
  // (BTree::Verify says "tablespace: " already.)
  if (!status_.ok()) err(std::string(absl::StripPrefix(status_.message(), "tablespace: ")));

  const uint32_t n_init = (free_limit_ + extent_size_ - 1) / extent_size_;
  // Walk every list and check linkage, tags and length.
  std::vector<uint8_t> seen(extents_.size(), 0);
  auto walk = [&](const ListBase& b, ListTag tag, uint32_t owner,
                  const char* name) {
    uint32_t n = 0, prev = kNil;
    for (uint32_t x = b.first; x != kNil; x = extents_[x].next) {
      if (x >= extents_.size() || n > extents_.size()) {
        err(std::string(name) + ": broken link");
        return;
      }
      const Extent& e = extents_[x];
      if (e.list != tag || e.owner != owner || e.prev != prev) {
        err(std::string(name) + ": extent " + sx(x) + " has wrong tag/owner/prev");
      }
      if (seen[x]++) err("extent " + sx(x) + " on two lists");
      prev = x;
      ++n;
    }
    if (prev != b.last) err(std::string(name) + ": last mismatch");
    if (n != b.len) err(std::string(name) + ": length " + sx(b.len) +
                        " but " + sx(n) + " linked");
  };
  walk(fsp_free_, ListTag::kFspFree, 0, "FSP_FREE");
  walk(fsp_free_frag_, ListTag::kFspFreeFrag, 0, "FSP_FREE_FRAG");
  walk(fsp_full_frag_, ListTag::kFspFullFrag, 0, "FSP_FULL_FRAG");
  for (uint32_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    walk(s.free, ListTag::kSegFree, i + 1, "FSEG_FREE");
    walk(s.not_full, ListTag::kSegNotFull, i + 1, "FSEG_NOT_FULL");
    walk(s.full, ListTag::kSegFull, i + 1, "FSEG_FULL");
  }

  // Per extent: bitmap vs count, state vs list, pages within FSP_SIZE.
  uint64_t frag_used = 0;
  std::vector<uint64_t> seg_not_full_used(segments_.size(), 0);
  for (uint32_t x = 0; x < extents_.size(); ++x) {
    const Extent& e = extents_[x];
    uint32_t pop = 0;
    for (uint32_t w = 0; w < words_; ++w) pop += std::popcount(e.used[w]);
    for (uint32_t w = words_; w < e.used.size(); ++w) {
      if (e.used[w]) err("extent " + sx(x) + ": bits beyond the extent");
    }
    if (pop != e.n_used) err("extent " + sx(x) + ": n_used mismatch");
    if (x >= n_init) {
      if (e.state != XdesState::kNotInited || e.list != ListTag::kNone) {
        err("extent " + sx(x) + " above FSP_FREE_LIMIT is initialised");
      }
      continue;
    }
    if (e.n_used > 0) {
      const uint32_t last_used =
          FirstPage(x) + extent_size_ - 1 -
          [&] {
            for (uint32_t w = words_; w-- > 0;) {
              if (e.used[w]) return (words_ - 1 - w) * 64 +
                                    static_cast<uint32_t>(std::countl_zero(e.used[w]));
            }
            return 0u;
          }();
      if (last_used >= size_) err("page " + sx(last_used) + " used beyond FSP_SIZE");
    }
    const bool xdes_extent = FirstPage(x) % page_size_ == 0;
    switch (e.state) {
      case XdesState::kNotInited:
        err("extent " + sx(x) + " below FSP_FREE_LIMIT not initialised");
        break;
      case XdesState::kFree:
        if (e.list != ListTag::kFspFree || e.n_used != 0 || e.owner != 0) {
          err("XDES_FREE extent " + sx(x) + " inconsistent");
        }
        if (xdes_extent) err("descriptor extent " + sx(x) + " on FSP_FREE");
        break;
      case XdesState::kFreeFrag:
        if (e.list != ListTag::kFspFreeFrag || IsFull(e) || e.n_used == 0) {
          err("XDES_FREE_FRAG extent " + sx(x) + " inconsistent");
        }
        frag_used += e.n_used;
        break;
      case XdesState::kFullFrag:
        if (e.list != ListTag::kFspFullFrag || !IsFull(e)) {
          err("XDES_FULL_FRAG extent " + sx(x) + " inconsistent");
        }
        break;
      case XdesState::kFseg:
      case XdesState::kFsegFrag: {
        if (e.owner == 0 || e.owner > segments_.size()) {
          err("segment extent " + sx(x) + " has no owner");
          break;
        }
        const ListTag want = e.n_used == 0 ? ListTag::kSegFree
                             : IsFull(e)   ? ListTag::kSegFull
                                           : ListTag::kSegNotFull;
        if (e.list != want) err("segment extent " + sx(x) + " on wrong list");
        if (e.list == ListTag::kSegNotFull) {
          seg_not_full_used[e.owner - 1] += e.n_used;
        }
        if (e.state == XdesState::kFsegFrag &&
            (!xdes_extent || policy_ != AllocationPolicy::kMySQL84 ||
             IsFreeBit(e, 0) || IsFreeBit(e, 1) || e.n_used <= 2)) {
          err("XDES_FSEG_FRAG extent " + sx(x) + " inconsistent");
        }
        if (e.state == XdesState::kFseg && xdes_extent) {
          err("descriptor extent " + sx(x) + " is XDES_FSEG");
        }
        break;
      }
    }
    if (xdes_extent && e.state != XdesState::kNotInited &&
        (IsFreeBit(e, 0) || IsFreeBit(e, 1))) {
      err("descriptor extent " + sx(x) + ": system pages not used");
    }
  }
  if (frag_used != frag_n_used_) {
    err("FSP_FRAG_N_USED " + sx(frag_n_used_) + " != " + sx(frag_used));
  }

  // Page ownership: every used page of a fragment extent is a system page,
  // an inode page, or a fragment page of exactly one segment.
  std::vector<uint8_t> claimed;  // per page of fragment extents
  auto claim = [&](uint32_t page, const char* what) {
    const uint32_t x = ExtentOf(page);
    if (x >= extents_.size() || IsFreeBit(extents_[x], page % extent_size_)) {
      err(std::string(what) + " page " + sx(page) + " is not marked used");
      return;
    }
    const XdesState st = extents_[x].state;
    if (st != XdesState::kFreeFrag && st != XdesState::kFullFrag &&
        !(st == XdesState::kFsegFrag && page % extent_size_ < 2 &&
          std::string(what) == "system")) {
      err(std::string(what) + " page " + sx(page) + " not in a fragment extent");
      return;
    }
    if (claimed.size() <= page) claimed.resize(page + 1, 0);
    if (claimed[page]++) err("page " + sx(page) + " owned twice");
  };
  for (uint32_t x = 0; x < n_init && x < extents_.size(); ++x) {
    if (FirstPage(x) % page_size_ == 0) {
      claim(FirstPage(x), "system");
      claim(FirstPage(x) + 1, "system");
    }
  }
  for (uint32_t p : inode_pages_) claim(p, "inode");
  for (uint32_t i = 0; i < segments_.size(); ++i) {
    const Segment& s = segments_[i];
    uint32_t n = 0;
    for (uint32_t p : s.frag) {
      if (p == kNil) continue;
      ++n;
      claim(p, "fragment");
    }
    if (n != s.n_frag) err("segment " + sx(i) + ": n_frag mismatch");
    if (seg_not_full_used[i] != s.not_full_n_used) {
      err("segment " + sx(i) + ": FSEG_NOT_FULL_N_USED " +
          sx(s.not_full_n_used) + " != " + sx(seg_not_full_used[i]));
    }
    if (ReservedOf(s) < UsedOf(s)) err("segment " + sx(i) + ": reserved < used");
  }
  for (uint32_t x = 0; x < n_init && x < extents_.size(); ++x) {
    const Extent& e = extents_[x];
    if (e.state != XdesState::kFreeFrag && e.state != XdesState::kFullFrag) {
      continue;
    }
    for (uint32_t off = 0; off < extent_size_; ++off) {
      const uint32_t p = FirstPage(x) + off;
      if (!IsFreeBit(e, off) && (claimed.size() <= p || claimed[p] == 0)) {
        err("fragment extent page " + sx(p) + " used but owned by nobody");
      }
    }
  }
  if (inodes_used_ > inode_pages_.size() * inodes_per_page_ ||
      inodes_used_ != segments_.size()) {
    err("inode count mismatch");
  }
  if (n_errors > 8) out += "... " + sx(n_errors - 8) + " more\n";
  return out;
}

// ---------------------------------------------------------------- helpers

IndexSegments CreateIndexSegments(Tablespace& ts) {
  // btr_create: fseg_create(space, 0, PAGE_HEADER + PAGE_BTR_SEG_TOP) allocates
  // the root as the top segment's header page; then fseg_create(space,
  // root, PAGE_HEADER + PAGE_BTR_SEG_LEAF) puts the leaf segment's header in
  // the root and allocates nothing.
  IndexSegments idx;
  idx.top = ts.CreateSegment(/*with_header_page=*/true, &idx.root_page);
  idx.leaf = ts.CreateSegment(/*with_header_page=*/false, nullptr);
  return idx;
}

FilePerTableLayout CreateFilePerTableLayout(Tablespace& ts,
                                            uint32_t n_indexes) {
  FilePerTableLayout layout;
  // MySQL 8.x: the SDI index (btr_sdi_create_index -> btr_create) is created
  // before the table's indexes, so its root is page 3.
  if (ts.policy() == AllocationPolicy::kMySQL84) {
    layout.sdi = CreateIndexSegments(ts);
  }
  for (uint32_t i = 0; i < n_indexes; ++i) {
    layout.indexes.push_back(CreateIndexSegments(ts));
  }
  return layout;
}

}  // namespace innosim
