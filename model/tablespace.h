// Tablespace: the file-space page allocator of one file-per-table .ibd file,
// as InnoDB's fsp layer (fsp/fsp0fsp.cc) runs it.
//
// The tablespace is a sequence of pages grouped into extents (FSP_EXTENT_SIZE
// pages, 1 MiB at 16 KiB). Each extent has a descriptor (XDES) with a state, a
// page bitmap and a place on one list: the space's FSP_FREE, FSP_FREE_FRAG or
// FSP_FULL_FRAG, or a segment's FSEG_FREE, FSEG_NOT_FULL or FSEG_FULL. A file
// segment (an inode) owns up to FSEG_FRAG_ARR_N_SLOTS single "fragment" pages
// taken from FREE_FRAG extents, and then whole extents. A B-tree index owns
// two segments: leaf pages come from the leaf segment, all other levels from
// the non-leaf ("top") segment, whose first fragment page is the root.
//
// Page allocation follows the server's decision list exactly:
//   AllocationPolicy::kMySQL84     fseg_alloc_free_page_low, cases 1-7, with
//                                  the innodb_segment_reserve_factor test and
//                                  leasing of descriptor extents
//                                  (XDES_FSEG_FRAG);
//   AllocationPolicy::kMariaDB1011 the MDEV-33542 rewrite (10.6.18 / 10.11.8+):
//                                  the hinted extent first, and a new extent
//                                  only while free < min(reserved/8, 4 extents).
// File growth (FSP_SIZE), FSP_FREE_LIMIT and DATA_FREE follow
// fsp_reserve_free_extents, fsp_try_extend_data_file and
// fsp_get_available_space_in_free_extents. See docs/page-allocation.md.
//
// Pure computation, no I/O. AllocPage and FreePage are O(1) apart from a scan
// of at most FSP_EXTENT_SIZE/64 bitmap words, and allocate no memory.
// Not thread-safe: one Tablespace is driven by one thread.
//
// A broken precondition (freeing a page that is not in use, an unknown
// segment, a list or bitmap out of step) is what the server would assert
// on (ut_a). The model records the first one in status() (sticky Internal,
// naming the fsp function) and leaves the step undone instead, so memory
// stays sound; from then on AllocPage hands out spare pages above FSP_SIZE
// and FreePage does nothing. The space's figures mean nothing then: callers
// check status() (Engine::status() does) and stop.
#ifndef INNOSIM_MODEL_TABLESPACE_H_
#define INNOSIM_MODEL_TABLESPACE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/page_format.h"

namespace innosim {

// FSP_UP / FSP_DOWN / FSP_NO_DIR (include/fsp0types.h): the direction hint of
// fseg_alloc_free_page_general. Splits pass kUp with hint page_no + 1 or kDown
// with hint page_no - 1; btr_root_raise_and_insert passes kNoDir with hint 0.
enum class FspDirection : uint8_t { kNoDir, kUp, kDown };

// Which server's fseg_alloc_free_page_low to run.
enum class AllocationPolicy : uint8_t { kMySQL84, kMariaDB1011 };

// fseg_n_reserved_pages(_low): `reserved` = fragment pages + every page of the
// segment's FREE, NOT_FULL and FULL extents; `used` = fragment pages + used
// pages of those extents. `size` in mysql.innodb_index_stats is
// reserved(leaf) + reserved(top); n_leaf_pages is used(leaf).
struct SegmentUsage {
  uint64_t reserved = 0;
  uint64_t used = 0;
};

// ExtentSizeInPages (FSP_EXTENT_SIZE): model/page_format.h.

// FIL_IBD_FILE_INITIAL_SIZE: MySQL 8.x include/fil0fil.h has 7 pages (page 3
// is the SDI root); MariaDB include/fil0fil.h has 4.
uint32_t InitialFilePerTableSize(AllocationPolicy policy);

class Tablespace {
 public:
  using SegmentId = uint32_t;
  static constexpr uint32_t kNullPage = kFilNull;
  // fsp0fsp.h FSP_FIRST_INODE_PAGE_NO: the inode page of a file-per-table
  // tablespace's segments (each allocation or free writes its segment's
  // FSEG_NOT_FULL_N_USED or fragment slot there).
  static constexpr uint32_t kFirstInodePage = 2;
  // The XDES page describing `page_no` (xdes_calc_descriptor_page: one
  // every page_size pages, page 0 being the FSP header's): the page whose
  // free bit an allocation or free of `page_no` writes.
  uint32_t XdesPageOf(uint32_t page_no) const { return page_no / page_size_ * page_size_; }
  // True once per XDES page after page 0: the first allocation or free that
  // writes it. fsp_fill_free_list initialises each descriptor page beyond
  // the first (init_xdes: buf_page_create + fsp_init_file_page) as the file
  // grows past it, so the buffer pool creates that page rather than read
  // it; the model marks the creation at its first use. Page 0 exists from
  // fsp_header_init (CREATE TABLE).
  bool FirstUseOfXdesPage(uint32_t xdes_page) {
    if (xdes_page == 0) return false;
    const size_t i = xdes_page / page_size_;
    if (i >= xdes_used_.size()) xdes_used_.resize(i + 1, false);  // once per page_size pages
    if (xdes_used_[i]) return false;
    xdes_used_[i] = true;
    return true;
  }

  // fil_ibd_create + fsp_header_init: a new .ibd of
  // InitialFilePerTableSize(policy) pages whose first extent is initialised
  // (page 0 FSP_HDR/XDES and page 1 IBUF_BITMAP used, FSP_FREE_LIMIT = one
  // extent). `page_size` is innodb_page_size (4096..65536);
  // `segment_reserve_pct` is innodb_segment_reserve_factor (MySQL 8.0.26+,
  // default 12.5; only the MySQL policy reads it, MariaDB uses 1/8 fixed).
  Tablespace(uint32_t page_size, AllocationPolicy policy,
             double segment_reserve_pct = 12.5);

  // fseg_create: a new segment inode (allocating an INODE page when none has a
  // free slot). If `with_header_page`, also allocates the page that holds the
  // segment header as the segment's first page (fseg_alloc_free_page_low,
  // hint 0, FSP_UP: a fragment page) and stores it in *header_page; this is
  // how btr_create allocates an index root from the top segment.
  SegmentId CreateSegment(bool with_header_page, uint32_t* header_page);

  // fsp_reserve_free_extents(n_ext, FSP_NORMAL, n_pages = 2): makes sure the
  // space has more than n_ext + 2 + 1% free extents, extending the file as
  // needed (files under one extent grow page by page). btr_cur_pessimistic_
  // insert calls it with tree_height / 16 + 3 before a split or root raise,
  // and then allocates with has_done_reservation = true. Always succeeds in
  // the model (the disk never fills); returns true.
  bool ReserveFreeExtents(uint32_t n_ext);
  // fsp_reserve_free_extents(1, FSP_BLOB, n_pages = 1), before each page of
  // an off-page column (btr_store_big_rec_extern_fields, lob::alloc_lob_page):
  // no reserve kept back, one free extent needed (one free page in a file
  // under one extent). Always succeeds in the model; returns true.
  bool ReserveFreeExtentsForBlob();

  // fseg_alloc_free_page_general(hint, direction, has_done_reservation): when
  // `has_done_reservation` is false it first runs ReserveFreeExtents(2).
  // Returns the allocated page number; once status() is not OK, a spare page
  // above FSP_SIZE that no descriptor knows of (never a page in use).
  uint32_t AllocPage(SegmentId seg, uint32_t hint, FspDirection dir,
                     bool has_done_reservation = false);

  // fseg_free_page: frees a used page of `seg` (fragment or extent page). An
  // extent left empty goes back to FSP_FREE (a leased descriptor extent back
  // to FSP_FREE_FRAG); a fragment extent left empty goes to FSP_FREE.
  // `page_no` must be a used page of `seg`, else status() says so and
  // nothing changes.
  void FreePage(SegmentId seg, uint32_t page_no);

  // fseg_n_reserved_pages; an unknown segment has none (and is recorded in
  // status()).
  SegmentUsage Usage(SegmentId seg) const;
  uint32_t size_in_pages() const { return size_; }  // FSP_SIZE
  uint32_t free_limit() const { return free_limit_; }  // FSP_FREE_LIMIT
  // fsp_get_available_space_in_free_extents (KiB) * 1024: DATA_FREE.
  uint64_t data_free_bytes() const;

  uint32_t page_size() const { return page_size_; }
  uint32_t extent_size() const { return extent_size_; }  // FSP_EXTENT_SIZE
  uint32_t frag_limit() const { return extent_size_ / 2; }  // FSEG_FRAG_LIMIT
  AllocationPolicy policy() const { return policy_; }
  size_t segment_count() const { return segments_.size(); }
  bool IsPageUsed(uint32_t page_no) const;  // XDES_FREE_BIT clear
  // FSP_FREE length, FSP_FREE_FRAG length, FSP_FULL_FRAG length.
  uint32_t n_free_extents() const { return fsp_free_.len; }
  uint32_t n_free_frag_extents() const { return fsp_free_frag_.len; }
  uint32_t n_full_frag_extents() const { return fsp_full_frag_.len; }

  // OK, or the first broken precondition: Internal("tablespace: FUNCTION:
  // what"), FUNCTION being the fsp function that would have asserted.
  // Sticky; cheap (ask once per transaction).
  const absl::Status& status() const { return status_; }

  // "" if every invariant holds, else a description of the first few
  // violations: status() when not OK (first), bitmaps vs per-extent and
  // per-list counts, list membership vs extent state and owner,
  // FSP_FRAG_N_USED, FSEG_NOT_FULL_N_USED, reserved >= used, every used
  // page owned exactly once (system page, inode page, or one segment), no
  // used page at or beyond FSP_SIZE.
  std::string Verify() const;

 private:
  std::vector<bool> xdes_used_;  // FirstUseOfXdesPage, by XDES page / page size
  static constexpr uint32_t kNil = kFilNull;
  // xdes_state_t (fsp0fsp.h). kFsegFrag exists in MySQL 8.0 only.
  enum class XdesState : uint8_t {
    kNotInited, kFree, kFreeFrag, kFullFrag, kFseg, kFsegFrag
  };
  enum class ListTag : uint8_t {
    kNone, kFspFree, kFspFreeFrag, kFspFullFrag, kSegFree, kSegNotFull,
    kSegFull
  };
  struct ListBase {  // flst_base_node_t: first, last, length
    uint32_t first = kNil;
    uint32_t last = kNil;
    uint32_t len = 0;
  };
  struct Extent {  // one extent descriptor (xdes_t)
    std::array<uint64_t, 4> used{};  // bit set = page used (!XDES_FREE_BIT)
    uint32_t prev = kNil;            // XDES_FLST_NODE
    uint32_t next = kNil;
    uint32_t owner = 0;              // XDES_ID: segment index + 1, 0 = none
    uint16_t n_used = 0;
    XdesState state = XdesState::kNotInited;
    ListTag list = ListTag::kNone;
  };
  struct Segment {  // fseg_inode_t
    std::vector<uint32_t> frag;  // FSEG_FRAG_ARR, kNil = unused slot
    uint32_t n_frag = 0;
    ListBase free, not_full, full;  // FSEG_FREE, FSEG_NOT_FULL, FSEG_FULL
    uint32_t not_full_n_used = 0;   // FSEG_NOT_FULL_N_USED
  };

  // Records the first broken precondition of `function` (status_).
  void Fail(const char* function, const std::string& what) const;
  // A page number no one has: FSP_SIZE, which then grows by one (outside
  // every descriptor). What AllocPage returns once status_ is not OK.
  uint32_t SparePage();

  uint32_t ExtentOf(uint32_t page) const { return page / extent_size_; }
  uint32_t FirstPage(uint32_t x) const { return x * extent_size_; }
  bool IsFreeBit(const Extent& e, uint32_t off) const {
    return ((e.used[off >> 6] >> (off & 63)) & 1) == 0;
  }
  void SetUsedBit(Extent& e, uint32_t off);
  void ClearUsedBit(Extent& e, uint32_t off);
  uint32_t FindFree(const Extent& e, uint32_t hint) const;  // xdes_find_bit
  bool IsFull(const Extent& e) const { return e.n_used == extent_size_; }

  ListBase& BaseOf(ListTag tag, uint32_t owner);
  void ListAddLast(ListTag tag, uint32_t owner, uint32_t x);
  void ListRemove(uint32_t x);

  // xdes_get_descriptor_with_space_hdr: extent index, or kNil if the page is
  // at or beyond FSP_SIZE or FSP_FREE_LIMIT.
  uint32_t DescriptorOf(uint32_t page) const;
  void EnsureExtentSlots(uint32_t n_extents);
  void XdesInit(uint32_t x);
  void InitXdesFreeFrag(uint32_t x);  // fsp_init_xdes_free_frag
  void FillFreeList(bool init_space);  // fsp_fill_free_list
  void ExtendWithPages(uint32_t page_no);  // fsp_try_extend_data_file_with_pages
  bool TryExtendDataFile();                // fsp_try_extend_data_file
  uint32_t PagesToExtend(uint32_t size) const;  // fsp_get_pages_to_extend_ibd
  bool ReserveFreeExtentsLow(uint32_t n_ext, uint32_t n_pages, bool blob);
  uint32_t AllocFreeExtent(uint32_t hint);  // fsp_alloc_free_extent
  uint32_t AllocFragPage(uint32_t hint);    // fsp_alloc_free_page
  void FreeFragPage(uint32_t page);         // fsp_free_page
  void FreeExtent(uint32_t x);              // fsp_free_extent
  uint32_t AllocInodeSlot();                // fsp_alloc_seg_inode(_page)
  uint32_t LeaseXdesFreeFrag(SegmentId seg);  // fsp_alloc_xdes_free_frag
  uint32_t SegAllocFreeExtent(SegmentId seg);  // fseg_alloc_free_extent
  void SegFillFreeList(SegmentId seg, uint32_t hint);  // fseg_fill_free_list
  void SegMarkPageUsed(SegmentId seg, uint32_t page);  // fseg_mark_page_used
  uint32_t HintExtent(uint32_t* hint) const;  // resets an out-of-range hint
  uint32_t AllocLow(SegmentId seg, uint32_t hint, FspDirection dir);
  uint32_t AllocLowMySQL(SegmentId seg, uint32_t hint, FspDirection dir);
  uint32_t AllocLowMariaDB(SegmentId seg, uint32_t hint, FspDirection dir);
  uint32_t FinishAlloc(SegmentId seg, uint32_t page);
  // Steps both servers' fseg_alloc_free_page_low share.
  uint32_t ClaimHintedExtent(SegmentId seg, uint32_t hint);
  uint32_t AllocUnusedSegPage(SegmentId seg);
  uint32_t AllocSegFragPage(SegmentId seg, uint32_t hint);
  uint32_t UsedOf(const Segment& s) const;
  uint32_t ReservedOf(const Segment& s) const;

  uint32_t page_size_;
  uint32_t extent_size_;
  uint32_t words_;  // bitmap words per extent
  AllocationPolicy policy_;
  double reserve_pct_;
  uint32_t size_ = 0;        // FSP_SIZE
  uint32_t free_limit_ = 0;  // FSP_FREE_LIMIT
  uint32_t frag_n_used_ = 0;  // FSP_FRAG_N_USED
  ListBase fsp_free_, fsp_free_frag_, fsp_full_frag_;
  std::vector<Extent> extents_;
  std::vector<Segment> segments_;
  std::vector<uint32_t> inode_pages_;  // pages of type FIL_PAGE_INODE
  uint32_t inodes_used_ = 0;
  uint32_t inodes_per_page_;
  // Mutable: a const query (Usage) with a broken precondition records it too.
  mutable absl::Status status_;
  // What BaseOf returns for an extent on no list, so that a broken list
  // operation writes here rather than out of bounds.
  ListBase no_list_;
};

// One B-tree's segments, as btr_create makes them: the top (non-leaf)
// segment is created first and allocates the root as its header page; the
// leaf segment's header lives inside the root and allocates no page.
struct IndexSegments {
  Tablespace::SegmentId leaf = 0;
  Tablespace::SegmentId top = 0;
  uint32_t root_page = Tablespace::kNullPage;
};
IndexSegments CreateIndexSegments(Tablespace& ts);

// The tablespace after CREATE TABLE with `n_indexes` indexes (the clustered
// index first). MySQL 8.x: pages 0 FSP_HDR, 1 IBUF_BITMAP, 2 INODE, 3 the SDI
// root (the SDI index has its own two segments), then one root per index
// (4, 5, ...). MariaDB 10.11: pages 0, 1, 2, then the roots from page 3.
struct FilePerTableLayout {
  std::optional<IndexSegments> sdi;  // MySQL only
  std::vector<IndexSegments> indexes;
};
FilePerTableLayout CreateFilePerTableLayout(Tablespace& ts, uint32_t n_indexes);

}  // namespace innosim

#endif  // INNOSIM_MODEL_TABLESPACE_H_
