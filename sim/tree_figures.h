// TreeFigures: what `innosim compare` holds side by side for runs of
// different engines on the same keys: the primary key's leaves, their fill,
// the tree's levels, the sizes on disk and the splits by kind, each with the
// name its engine gives it, so the comparison never hides whose figure is
// whose. An engine's EngineKind (sim/engines.h) makes them from its run.
//
// Value type.
#ifndef INNOSIM_SIM_TREE_FIGURES_H_
#define INNOSIM_SIM_TREE_FIGURES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace innosim {

struct TreeFigures {
  uint64_t rows = 0;
  // The primary key's tree (InnoDB: the clustered index, which holds the
  // rows; PostgreSQL: the primary key's nbtree beside the heap).
  uint64_t leaf_pages = 0;
  std::string leaf_pages_name;  // "n_leaf_pages", "leaf_pages"
  double leaf_fill = 0;         // 0..1
  std::string leaf_fill_name;   // "leaf_fill", "avg_leaf_density"
  uint32_t levels = 0;          // leaf level included
  uint32_t page_size = 0;
  // Bytes on disk: the primary key's tree, where the rows live (InnoDB:
  // the clustered index, DATA_LENGTH; PostgreSQL: the heap), the other
  // indexes, and all of it.
  uint64_t primary_key_bytes = 0;
  uint64_t rows_bytes = 0;
  uint64_t secondary_bytes = 0;
  uint64_t total_bytes = 0;
  std::string sizes_note;  // how the sizes are named, e.g. "DATA_LENGTH + INDEX_LENGTH"
  // Splits of the primary key's tree by kind, the engine's names.
  std::vector<std::pair<std::string, uint64_t>> splits;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_TREE_FIGURES_H_
