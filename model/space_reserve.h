// The 1/16 reserve: the free space InnoDB keeps on a clustered index page.
//
// dict_index_get_space_reserve (include/dict0dict.ic) returns
// UNIV_PAGE_SIZE / 16. btr_cur_optimistic_insert keeps it free on a leaf
// whose inserts look sequential (model/split_rules.h), and the sorted index
// build (PageBulk::init) leaves it free on every clustered page at
// innodb_fill_factor = 100 (model/bulk_load.h). One function, so that every
// use reads the same rule.
#ifndef INNOSIM_MODEL_SPACE_RESERVE_H_
#define INNOSIM_MODEL_SPACE_RESERVE_H_

#include <cstdint>

namespace innosim {

constexpr uint32_t SpaceReserve(uint32_t page_size) { return page_size / 16; }

}  // namespace innosim

#endif  // INNOSIM_MODEL_SPACE_RESERVE_H_
