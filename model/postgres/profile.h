// The PostgreSQL versions innosim models, as data: what differs between
// REL_15 and REL_18 in the rules model/postgres/ follows, each with its
// source. Everything not listed here is the same in both versions for
// the paths modelled (page layout, _bt_findsplitloc, _bt_truncate,
// _bt_dedup_pass and its trigger in _bt_delete_or_dedup_one_page,
// relation extension of an index one block at a time, heap fillfactor).
//
// Value type; no state.
#ifndef INNOSIM_MODEL_POSTGRES_PROFILE_H_
#define INNOSIM_MODEL_POSTGRES_PROFILE_H_

#include <optional>
#include <string_view>

namespace innosim::postgres {

struct PgProfile {
  std::string_view name;  // "postgresql-15", "postgresql-18"
  int major = 15;
  // pgstattuple/pgstatindex.c, leaf pages: REL_15 adds PageGetFreeSpace
  // (pd_upper - pd_lower - sizeof(ItemIdData)) to free_space; REL_18 adds
  // PageGetExactFreeSpace (pd_upper - pd_lower). So REL_18 reports
  // avg_leaf_density about 4/8152 = 0.05 points lower for the same pages
  // (measured here: bigint PK, 1M ascending rows, PG15 90.06 against
  // seed 002's PG18 90.01 on the same 2,733 leaf pages).
  bool pgstatindex_exact_free_space = false;
  // access/heap/hio.c: REL_18 (since 16) extends a heap through
  // RelationAddBlocks, by more than one block when a BulkInsertState is in
  // use (COPY) or other backends wait for the extension lock; REL_15's
  // RelationGetBufferForTuple extends by one block (or by a lock-waiters
  // multiple via RelationAddExtraBlocks). A single session's INSERT extends
  // one block at a time in both, which is what the model does.
  bool heap_bulk_extension = false;
  // nbtree.h: BTMaxItemSize(page) in REL_15, BTMaxItemSize (no argument)
  // in REL_18: the same 2712 bytes at BLCKSZ 8192.
};

inline constexpr PgProfile kPostgresql15{"postgresql-15", 15, false, false};
inline constexpr PgProfile kPostgresql18{"postgresql-18", 18, true, true};

// The profile called `name`, or nullopt.
inline std::optional<PgProfile> FindPgProfile(std::string_view name) {
  if (name == kPostgresql15.name) return kPostgresql15;
  if (name == kPostgresql18.name) return kPostgresql18;
  return std::nullopt;
}

}  // namespace innosim::postgres

#endif  // INNOSIM_MODEL_POSTGRES_PROFILE_H_
