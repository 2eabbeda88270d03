// The model on the keys of a measurement made by hand on real servers:
// PostgreSQL 15 here (initdb in a temp folder, INSERT ... SELECT of 1M rows
// into a one-column table, pgstatindex, pg_relation_size), and seed 002's
// published PostgreSQL 18 figures. Ascending keys leave nothing to chance,
// so the figures must come out exact.
#include <gtest/gtest.h>

#include "model/postgres/table.h"

namespace innosim::postgres {
namespace {

struct Figures {
  uint64_t leaf_pages, internal_pages;
  double avg_leaf_density;
  uint32_t root_block_no, heap_relpages;
};

Figures Load(PgType type, bool primary, int64_t from, int64_t to, PgTable* t) {
  for (int64_t g = from; g <= to; ++g) {
    // bigint: big-endian with the sign bit flipped; uuid from a sequence
    // (lpad(to_hex(g), 32, '0')::uuid): the number in the last 8 bytes.
    const Key k = type == PgType::kInt8 ? Key::FromU64(static_cast<uint64_t>(g) ^ (uint64_t{1} << 63))
                                        : Key{0, static_cast<uint64_t>(g)};
    if (primary) {
      t->InsertRow(k);
    } else {
      t->InsertRow(Key{});
      t->InsertIndexEntry(0, Key::FromU64(static_cast<uint64_t>(g % 1000) ^ (uint64_t{1} << 63)));
    }
    t->EndRow();
  }
  const PgTableReport r = t->Report();
  const PgStatIndex& s = r.indexes[0].stat;
  return Figures{s.leaf_pages, s.internal_pages, s.avg_leaf_density, s.root_block_no, r.heap_relpages};
}

PgTableSpec OneColumn(PgType type, bool primary) {
  PgTableSpec spec;
  spec.columns = {PgColumn{"id", type}};
  if (primary) {
    spec.primary_key = {0};
  } else {
    spec.secondary = {PgIndexSpec{"tnu_idx", {0}, false}};
  }
  return spec;
}

// PostgreSQL 15.x, `CREATE TABLE tb(id bigint primary key); INSERT INTO tb
// SELECT g FROM generate_series(1,1000000) g;` pgstatindex('tb_pkey'):
// tree_level 2, index_size 22487040, root_block_no 412, internal_pages 11,
// leaf_pages 2733, avg_leaf_density 90.06; pg_relation_size('tb') / 8192 =
// 4425. After 10,000 more rows: 2760 leaf pages, 2772 blocks, heap 4470.
// Seed 002 (PostgreSQL 18): 2733 leaf pages, 90.01; 2772 blocks after.
TEST(PostgresMeasured, BigintPrimaryKeyAscending) {
  PgTable t(kPostgresql15, OneColumn(PgType::kInt8, true));
  Figures f = Load(PgType::kInt8, true, 1, 1000000, &t);
  EXPECT_EQ(f.leaf_pages, 2733u);
  EXPECT_EQ(f.internal_pages, 11u);
  EXPECT_EQ(f.root_block_no, 412u);
  EXPECT_EQ(f.heap_relpages, 4425u);
  EXPECT_NEAR(f.avg_leaf_density, 90.06, 0.005);
  EXPECT_EQ(t.Report().indexes[0].stat.index_size, 22487040u);
  f = Load(PgType::kInt8, true, 1000001, 1010000, &t);
  EXPECT_EQ(f.leaf_pages, 2760u);
  EXPECT_EQ(t.Report().indexes[0].stat.relpages, 2772u);
  EXPECT_EQ(f.heap_relpages, 4470u);

  PgTable t18(kPostgresql18, OneColumn(PgType::kInt8, true));
  f = Load(PgType::kInt8, true, 1, 1000000, &t18);
  EXPECT_EQ(f.leaf_pages, 2733u);
  EXPECT_NEAR(f.avg_leaf_density, 90.01, 0.005);
  EXPECT_EQ(t18.Verify(), "");
}

// PostgreSQL 15, uuid primary key from lpad(to_hex(g),32,'0')::uuid, 1M
// rows: root 295, 20 internal, 3832 leaf pages, 90.03, heap 5406 blocks;
// after 10,000 more 3870 leaf pages, 3891 blocks, heap 5460. Seed 002's
// uuidv7 (PostgreSQL 18): 3832 leaf pages, 89.98; 3891 blocks after.
TEST(PostgresMeasured, UuidPrimaryKeyAscending) {
  PgTable t(kPostgresql15, OneColumn(PgType::kUuid, true));
  Figures f = Load(PgType::kUuid, true, 1, 1000000, &t);
  EXPECT_EQ(f.leaf_pages, 3832u);
  EXPECT_EQ(f.internal_pages, 20u);
  EXPECT_EQ(f.root_block_no, 295u);
  EXPECT_EQ(f.heap_relpages, 5406u);
  EXPECT_NEAR(f.avg_leaf_density, 90.03, 0.005);
  f = Load(PgType::kUuid, true, 1000001, 1010000, &t);
  EXPECT_EQ(f.leaf_pages, 3870u);
  EXPECT_EQ(t.Report().indexes[0].stat.relpages, 3891u);
  EXPECT_EQ(f.heap_relpages, 5460u);

  PgTable t18(kPostgresql18, OneColumn(PgType::kUuid, true));
  f = Load(PgType::kUuid, true, 1, 1000000, &t18);
  EXPECT_NEAR(f.avg_leaf_density, 89.98, 0.005);
}

// PostgreSQL 15, `CREATE TABLE tnu(id bigint); CREATE INDEX tnu_idx ON
// tnu(id); INSERT INTO tnu SELECT g % 1000 FROM generate_series(1,1000000)
// g;` pgstatindex('tnu_idx'): root 412, 4 internal, 1000 leaf pages,
// avg_leaf_density 96.64, leaf_fragmentation 40.2 (deduplication: posting
// lists of 222 heap TIDs, single value strategy).
TEST(PostgresMeasured, NonUniqueIndexDeduplicates) {
  PgTable t(kPostgresql15, OneColumn(PgType::kInt8, false));
  const Figures f = Load(PgType::kInt8, false, 1, 1000000, &t);
  EXPECT_EQ(f.leaf_pages, 1000u);
  EXPECT_EQ(f.internal_pages, 4u);
  EXPECT_EQ(f.root_block_no, 412u);
  EXPECT_NEAR(f.avg_leaf_density, 96.64, 0.005);
  EXPECT_NEAR(t.Report().indexes[0].stat.leaf_fragmentation, 40.20, 0.005);
  EXPECT_GT(t.Report().indexes[0].counters.dedup_passes, 0u);
  EXPECT_EQ(t.Verify(), "");
}

}  // namespace
}  // namespace innosim::postgres
