// PageBulk's space rule: how full the sorted index build (OPTIMIZE TABLE =
// ALTER TABLE ... FORCE, CREATE INDEX) fills a page before it starts the
// next one.
//
// Source: MariaDB 10.11 btr/btr0bulk.cc PageBulk::init / isSpaceAvailable /
// insert; MySQL 8.4 ddl's btr0load.cc Page_load::init / is_space_available
// state the same rule. A page starts with page_get_free_space_of_empty
// bytes; each record takes its size plus the growth of
// page_dir_calc_reserved_space; a record goes on the page if it fits and,
// once the page holds 2 records ("to avoid B-tree level growing too
// high"), if at least m_reserved_space bytes stay free after it:
//   innodb_fill_factor == 100 on a clustered index: dict_index_get_space_
//     reserve() = page size / 16 ("compatible with 5.6");
//   otherwise: page size x (100 - innodb_fill_factor) / 100 (so 0 for a
//     secondary index at the default 100).
// The rule applies to leaf and non-leaf pages alike. Pure computation.
#ifndef INNOSIM_MODEL_BULK_LOAD_H_
#define INNOSIM_MODEL_BULK_LOAD_H_

#include <cstdint>

#include "model/index_page.h"
#include "model/space_reserve.h"

namespace innosim {

// innodb_fill_factor's default (MariaDB/MySQL system variable, 10..100);
// a run takes ServerSettings::innodb_fill_factor.
constexpr uint32_t kDefaultFillFactor = 100;

// PageBulk::init's m_reserved_space.
constexpr uint32_t BulkReservedSpace(uint32_t page_size, uint32_t fill_factor, bool clustered) {
  if (fill_factor == 100 && clustered) return SpaceReserve(page_size);
  return page_size * (100 - fill_factor) / 100;
}

// PageBulk::isSpaceAvailable for one more record of `rec_size` bytes on a
// page that holds `n_recs` records of that size (uncompressed pages).
constexpr bool BulkSpaceAvailable(uint32_t n_recs, uint32_t rec_size, uint32_t page_size, uint32_t reserved) {
  const uint32_t free_space = FreeSpaceOfEmpty(page_size) - n_recs * rec_size - DirReservedSpace(n_recs);
  const uint32_t required = rec_size + DirReservedSpace(n_recs + 1) - DirReservedSpace(n_recs);
  if (required > free_space) return false;
  return n_recs < 2 || free_space - required >= reserved;
}

// Records a bulk-built page of `rec_size`-byte records holds.
constexpr uint32_t BulkRecordsPerPage(uint32_t rec_size, uint32_t page_size, uint32_t reserved) {
  uint32_t n = 0;
  while (BulkSpaceAvailable(n, rec_size, page_size, reserved)) ++n;
  return n;
}

}  // namespace innosim

#endif  // INNOSIM_MODEL_BULK_LOAD_H_
