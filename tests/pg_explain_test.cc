// innosim explain for PostgreSQL (sim/pg_explain.h, model/postgres/
// nbtree_trace.h): the trace of the rightmost-leaf fillfactor split, the
// 50:50 split of random keys, a deduplication pass, the trace's counts
// against the model's own, and explain's one-line refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "model/postgres/nbtree.h"
#include "nlohmann/json.hpp"
#include "sim/column_values.h"
#include "sim/pg_explain.h"
#include "sim/postgres_driver.h"
#include "sim/runner.h"
#include "tests/innosim_process.h"
#include "tests/test_util.h"

namespace innosim {
namespace {

using postgres::BtStep;
using postgres::BtTraceEvent;
using postgres::SplitKind;

ExplainSpec PgSpec(const std::string& stream, uint64_t rows, const std::string& table,
                   const std::string& profile = "postgresql-18") {
  ExplainSpec e;
  e.run.profile = profile;
  e.run.stream.name = stream;
  e.run.rows = rows;
  e.run.table = table;
  return e;
}

PgExplainResult MustPgExplain(const ExplainSpec& e) {
  absl::StatusOr<PgExplainResult> r = PgExplain(e);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : PgExplainResult{};
}

const BtTraceEvent* FirstLeafSplit(const PgExplainedInsert& x) {
  for (const BtTraceEvent& e : x.steps) {
    if (e.step == BtStep::kSplit && e.page.level == 0) return &e;
  }
  return nullptr;
}

// Ascending bigint keys into `id bigint PRIMARY KEY`. The page layout
// (storage/bufpage.h, access/nbtree.h): an 8192-byte block keeps 8192 - 24
// (PageHeaderData) - 16 (BTPageOpaqueData) = 8152 bytes for line pointers and
// tuples; a bigint index tuple is MAXALIGN(8 IndexTupleData + 8) = 16 bytes
// and its line pointer 4, so 20 bytes an item. The only leaf is the
// rightmost: no high key. An insert fits while PageGetFreeSpace (8152 -
// 20 n - 4) >= 16, so n = 407 items fit (8152 - 8140 - 4 = 8 < 16 refuses
// the 408th) and row 408 splits. _bt_findsplitloc: with k old items on the
// left, leftfree = 8152 - 20 k - (20 + 8: the first right item becomes the
// high key, charged a heap TID's MAXALIGN(6) = 8), rightfree = 8152 -
// 20 (407 - k) - 20 (the new item goes right) = 20 k - 8; both >= 0 for
// k = 1..406: 406 candidates. Fillfactor 90 (BTREE_DEFAULT_FILLFACTOR) on
// the rightmost leaf minimises |0.9 leftfree - 0.1 rightfree| = |7312.4 -
// 20 k|: k = 366 (7.6; k = 365 gives 12.4). So the left leaf keeps 366
// items (90.04% of 8152 with its 16-byte high key) and the right 41 + 1.
TEST(PgExplainTest, AscendingBigintSplitsTheRightmostLeafAtFillfactor90) {
  const PgExplainResult r = MustPgExplain(PgSpec("autoinc", 2000, "CREATE TABLE t (id bigint PRIMARY KEY)"));
  ASSERT_EQ(r.inserts.size(), 2000u);
  const PgExplainedInsert* first = nullptr;
  for (const PgExplainedInsert& x : r.inserts) {
    if (x.split) {
      first = &x;
      break;
    }
  }
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->row, 408u);
  const BtTraceEvent* s = FirstLeafSplit(*first);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->page.nitems, 407);
  EXPECT_TRUE(s->page.rightmost);
  EXPECT_EQ(s->page.free_space, 8);
  EXPECT_EQ(s->itemsz, 16);
  EXPECT_EQ(s->split.kind, SplitKind::kRightmostFillfactor);
  EXPECT_EQ(s->split.candidates, 406);
  EXPECT_EQ(s->split.fillfactor, 90);
  EXPECT_EQ(s->split.firstoldonright, 366);
  EXPECT_FALSE(s->split.newitemonleft);
  EXPECT_EQ(s->after.nitems, 366);
  EXPECT_EQ(s->right.nitems, 42);
  EXPECT_EQ(s->hikey_natts, 1);
  EXPECT_FALSE(s->hikey_heap_tid);
  EXPECT_EQ(first->decision, "rightmost fillfactor split, new root");
  EXPECT_EQ(first->rule, "_bt_findsplitloc");
  EXPECT_NE(first->why.find("rightmost"), std::string::npos) << first->why;
  EXPECT_NE(first->why.find("90"), std::string::npos) << first->why;
  // The root split makes a new root; every later leaf split is rightmost
  // too, leaves the left page 366 items and puts a downlink in the root.
  EXPECT_NE(std::find_if(first->steps.begin(), first->steps.end(),
                         [](const BtTraceEvent& e) { return e.step == BtStep::kNewRoot; }),
            first->steps.end());
  int later = 0;
  for (const PgExplainedInsert& x : r.inserts) {
    if (!x.split || x.row == 408) continue;
    const BtTraceEvent* ls = FirstLeafSplit(x);
    ASSERT_NE(ls, nullptr);
    EXPECT_EQ(ls->split.kind, SplitKind::kRightmostFillfactor) << x.row;
    EXPECT_EQ(ls->after.nitems, 366) << x.row;
    EXPECT_NE(std::find_if(x.steps.begin(), x.steps.end(),
                           [](const BtTraceEvent& e) { return e.step == BtStep::kInsertParent; }),
              x.steps.end())
        << x.row;
    ++later;
  }
  // 2000 keys: 366 per frozen leaf, so leaves end after 5 splits (5 * 366 =
  // 1830; the sixth would come at 5 * 366 + 408 = 2238).
  EXPECT_EQ(later, 4);
  EXPECT_EQ(r.indexes[0].leaves, 6u);
  EXPECT_EQ(r.indexes[0].fill_histogram[9], 5u);  // the frozen ones, 90% full
}

// Random keys land in leaves that have a right sibling: those split 50:50
// (the most even of the candidates), each half about half the items.
TEST(PgExplainTest, Uuidv4SplitsFiftyFifty) {
  const PgExplainResult r = MustPgExplain(PgSpec("uuidv4", 4000, "CREATE TABLE t (id uuid PRIMARY KEY)"));
  int fifty = 0;
  for (const PgExplainedInsert& x : r.inserts) {
    const BtTraceEvent* s = FirstLeafSplit(x);
    if (s == nullptr || s->page.rightmost) continue;
    EXPECT_EQ(s->split.kind, SplitKind::kFiftyFifty) << x.row;
    EXPECT_EQ(s->split.fillfactor, 50) << x.row;
    EXPECT_LE(std::abs(s->split.leftfree - s->split.rightfree), 2 * 28) << x.row;  // within an item or so
    EXPECT_LE(std::abs(s->after.nitems - s->right.nitems), 2) << x.row;
    EXPECT_NE(x.decision.find("50:50 split"), std::string::npos) << x.decision;
    ++fifty;
  }
  EXPECT_GT(fifty, 10);
  EXPECT_GT(r.indexes[0].leaf_splits[static_cast<int>(SplitKind::kFiftyFifty)], 10u);
}

// A non-unique index whose entries are all one value deduplicates before
// it splits; the unique primary key never does.
TEST(PgExplainTest, NonUniqueIndexWithDuplicatesShowsADedupPass) {
  ExplainSpec e = PgSpec("autoinc", 3000,
                         "CREATE TABLE c (id bigint PRIMARY KEY, parent_id bigint); CREATE INDEX ON c (parent_id)");
  absl::StatusOr<ColumnSource> c = ParseColumnSource("parent_id=const");
  ASSERT_TRUE(c.ok()) << c.status();
  e.run.columns.push_back(*c);
  const PgExplainResult r = MustPgExplain(e);
  ASSERT_EQ(r.indexes.size(), 2u);
  EXPECT_EQ(r.indexes[1].name, "c_parent_id_idx");
  int passes = 0;
  for (const PgExplainedInsert& x : r.inserts) {
    for (const BtTraceEvent& s : x.steps) {
      if (s.step != BtStep::kDedupPass) continue;
      EXPECT_EQ(x.index, 1u);
      EXPECT_EQ(s.rule, std::string("_bt_dedup_pass"));
      if (s.nintervals == 0) continue;
      ++passes;
      EXPECT_LT(s.after.nitems, s.page.nitems);
      EXPECT_GT(s.after.free_space, s.page.free_space);
      EXPECT_GT(s.after.posting_lists, 0);
      EXPECT_TRUE(s.singlevalue);  // every entry is the one value
    }
    if (x.index == 1 && x.steps.size() > 1 && x.steps[1].step == BtStep::kDedupPass && !x.split) {
      EXPECT_EQ(x.decision, "deduplication pass, then inserted");
    }
  }
  EXPECT_GT(passes, 0);
  EXPECT_EQ(static_cast<uint64_t>(passes), r.indexes[1].dedup_passes);
  EXPECT_EQ(r.indexes[0].dedup_passes, 0u);
}

// The trace's counts equal the model's counters, and explaining changes no
// figure of the run.
TEST(PgExplainTest, TheTraceCountsWhatTheModelCountsAndChangesNothing) {
  struct Case {
    std::string stream, table;
  } cases[] = {{"autoinc", "CREATE TABLE t (id bigint PRIMARY KEY)"},
               {"uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY)"},
               {"uuidv7-subms", "CREATE TABLE t (id uuid PRIMARY KEY)"},
               {"uuidv4", "CREATE TABLE t (id uuid PRIMARY KEY, k int); CREATE INDEX ON t (k, id)"}};
  for (const Case& c : cases) {
    ExplainSpec e = PgSpec(c.stream, 200000, c.table);
    e.only_splits = true;
    const PgExplainResult x = MustPgExplain(e);
    const RunResult run = MustRun(e.run);
    const auto* pg = dynamic_cast<const PgRunResult*>(run.engine_result.get());
    ASSERT_NE(pg, nullptr);
    ASSERT_EQ(x.indexes.size(), pg->report().indexes.size());
    for (size_t i = 0; i < x.indexes.size(); ++i) {
      const PgIndexExplained& t = x.indexes[i];
      const postgres::BtCounters& m = pg->report().indexes[i].counters;
      for (int k = 0; k < 5; ++k) {
        EXPECT_EQ(t.leaf_splits[k], m.leaf_splits[k]) << c.stream << " " << t.name << " kind " << k;
        EXPECT_EQ(t.internal_splits[k], m.internal_splits[k]) << c.stream << " " << t.name << " kind " << k;
      }
      EXPECT_EQ(t.new_roots, m.new_roots) << c.stream;
      EXPECT_EQ(t.dedup_passes, m.dedup_passes) << c.stream;
      EXPECT_EQ(t.fastpath_inserts, m.fastpath_inserts) << c.stream;
      EXPECT_EQ(t.inserts, m.inserts) << c.stream;
      const postgres::PgStatIndex& a = x.report.indexes[i].stat;
      const postgres::PgStatIndex& b = pg->report().indexes[i].stat;
      EXPECT_EQ(a.leaf_pages, b.leaf_pages) << c.stream;
      EXPECT_EQ(a.internal_pages, b.internal_pages) << c.stream;
      EXPECT_EQ(a.root_block_no, b.root_block_no) << c.stream;
      EXPECT_DOUBLE_EQ(a.avg_leaf_density, b.avg_leaf_density) << c.stream;
      EXPECT_EQ(t.leaves, a.leaf_pages) << c.stream;
    }
    // Every split printed is one the counters hold (only splits selected).
    uint64_t printed = 0, counted = 0;
    for (const PgExplainedInsert& p : x.inserts) {
      for (const BtTraceEvent& s : p.steps) printed += s.step == BtStep::kSplit;
    }
    for (const auto& ix : pg->report().indexes) {
      for (int k = 0; k < 5; ++k) counted += ix.counters.leaf_splits[k] + ix.counters.internal_splits[k];
    }
    EXPECT_EQ(printed, counted) << c.stream;
  }
}

// The learner's two questions, in the frozen leaves (split, never reached
// again): UUIDv7 keys alone leave them at the leaf fillfactor, 90%; UUIDv7
// keys appended into a UUIDv4 index land between old keys, on leaves with a
// right sibling, which split 50:50 and leave each left half at 50%.
TEST(PgExplainTest, FrozenLeavesEndAt90ForV7AndAtHalfForV7IntoV4) {
  const PgExplainResult v7 = MustPgExplain(PgSpec("uuidv7-subms", 5000, "CREATE TABLE t (id uuid PRIMARY KEY)"));
  EXPECT_GE(v7.indexes[0].frozen, 15u);
  EXPECT_NEAR(v7.indexes[0].frozen_mean_fill, 0.90, 0.005);

  ExplainSpec e = PgSpec("uuidv4", 0, "CREATE TABLE t (id uuid PRIMARY KEY)");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 3000; ++i) e.keys.push_back(Key{rng(), rng(), 0, 0});  // random: v4's order
  // Then ascending keys inside the v4 keys' range (a v7 key's 48-bit ms
  // prefix 0x019b...: about 1/160 of the way through a v4 index).
  for (uint64_t i = 0; i < 2000; ++i) e.keys.push_back(Key{0x019B76DAA8000000ull + (i << 8), rng(), 0, 0});
  e.key_width = 16;
  e.run.rows = e.keys.size();
  e.from = 3001;
  e.only_splits = true;
  const PgExplainResult mixed = MustPgExplain(e);
  EXPECT_GE(mixed.indexes[0].frozen, 10u);
  EXPECT_NEAR(mixed.indexes[0].frozen_mean_fill, 0.50, 0.02);
  // Every split of the ascending keys is 50:50; after the first (where the
  // keys may start in the left half of an old leaf) the new key goes right
  // and its why says what that does.
  int right_half = 0;
  for (const PgExplainedInsert& x : mixed.inserts) {
    const BtTraceEvent* s = FirstLeafSplit(x);
    ASSERT_NE(s, nullptr);
    EXPECT_FALSE(s->page.rightmost) << x.row;
    EXPECT_EQ(s->split.kind, SplitKind::kFiftyFifty) << x.row;
    if (x.why.find("The new key goes to the right half") != std::string::npos) ++right_half;
  }
  EXPECT_GE(right_half, static_cast<int>(mixed.inserts.size()) - 1);
  EXPECT_GE(mixed.inserts.size(), 10u);
}

// An ascending stream into a tree of 3 levels takes the fastpath: no
// descent, and the trace says why when it does not.
TEST(PgExplainTest, TheFastpathIsTakenOnceTheTreeHasThreeLevels) {
  ExplainSpec e = PgSpec("autoinc", 200000, "CREATE TABLE t (id bigint PRIMARY KEY)");
  e.from = 199990;
  const PgExplainResult r = MustPgExplain(e);
  ASSERT_FALSE(r.inserts.empty());
  int taken = 0;
  for (const PgExplainedInsert& x : r.inserts) {
    const BtTraceEvent& leaf = x.steps.front();
    if (leaf.fastpath == postgres::BtFastpath::kTaken) {
      ++taken;
      EXPECT_EQ(leaf.path_length, 1);
      EXPECT_EQ(leaf.rule, std::string("_bt_search_insert"));
    }
  }
  EXPECT_GT(taken, 0);
  EXPECT_GE(r.report.indexes[0].stat.tree_level, 2);
}

TEST(PgExplainCliTest, TextAndJsonLines) {
  const std::vector<std::string> base = {"explain", "--profile", "postgresql-18", "--stream", "autoinc", "--rows",
                                         "700", "--table", "CREATE TABLE t (id bigint PRIMARY KEY)"};
  Output o = RunInnosim(base, "/tmp/innosim_pg_explain_err.txt");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("rightmost fillfactor split, new root (_bt_findsplitloc)"), std::string::npos);
  EXPECT_NE(o.out.find("left keeps 366 items"), std::string::npos);
  std::vector<std::string> json = base;
  json.push_back("--json");
  o = RunInnosim(json, "/tmp/innosim_pg_explain_err.txt");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  std::istringstream in(o.out);
  std::string line;
  int tuples = 0;
  bool summary = false;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.contains("summary")) {
      summary = true;
      EXPECT_EQ(j["indexes"][0]["name"], "t_pkey");
      EXPECT_EQ(j["indexes"][0]["leaf_splits"]["rightmost_fillfactor"], 1);
      continue;
    }
    ++tuples;
    for (const char* f : {"row", "index", "key", "leaf", "path", "fastpath", "before", "tuple_bytes", "decision",
                          "rule", "why", "split", "steps", "pages_after"}) {
      EXPECT_TRUE(j.contains(f)) << f;
    }
    if (j["split"] == true) {
      EXPECT_EQ(j["row"], 408);
      EXPECT_EQ(j["steps"][0]["strategy"], "rightmost_fillfactor");
      EXPECT_EQ(j["steps"][0]["left_after"]["items"], 366);
    }
  }
  EXPECT_EQ(tuples, 700);
  EXPECT_TRUE(summary);
  // --keys: a learner's own keys.
  o = RunInnosim({"explain", "--profile", "postgresql-15", "--keys", "10,20,15"}, "/tmp/innosim_pg_explain_err.txt");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("key 15"), std::string::npos) << o.out;
}

TEST(PgExplainCliTest, WhatItCannotDoIsOneLineAndExitCodeTwo) {
  const std::string scenario = "/tmp/innosim_pg_explain_scenario.toml";
  {
    std::ofstream f(scenario);
    f << "title = \"t\"\nsee = \"s\"\nkeys = \"1,2,3\"\nprofile = \"postgresql-18\"\n";
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"explain", "--profile", "postgresql-18", "--stream", "uuidv4", "--rows", "10", "--html", "/tmp/x.html"},
           {"explain", "--no-flush", "--scenario", scenario},
           {"explain", "--profile", "postgresql-18", "--stream", "uuidv4", "--rows", "10", "--page-size", "4k"},
           {"explain", "--profile", "postgresql-18", "--stream", "uuidv4", "--rows", "10", "--set",
            "innodb_fill_factor=80"}}) {
    const Output o = RunInnosim(args, "/tmp/innosim_pg_explain_bad_err.txt");
    EXPECT_EQ(o.exit_code, 2) << args.back();
    EXPECT_TRUE(o.out.empty()) << o.out;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    // The line names the option to drop.
    const std::string& option = args[args.size() - 2];
    EXPECT_NE(o.err.find(option), std::string::npos) << o.err;
  }
}

}  // namespace
}  // namespace innosim
