// innosim pgfile FILE: the census of a PostgreSQL nbtree index's relation
// file (tools/pg_nbtree_file.h) from a stopped or checkpointed server:
// pgstatindex's totals, the live pages by level and, with --blocks, each
// block as pageinspect's bt_page_stats shows it. Exit 2 for a file that is
// not an nbtree index or cannot be read.
#include <cmath>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "model/postgres/profile.h"
#include "sim/cli/commands.h"
#include "tools/pg_nbtree_file.h"

namespace innosim::cli {
namespace {

struct PgFileOptions {
  std::string path;
  std::string profile = "postgresql-15";
  bool json = false;
  bool blocks = false;
};

// pgstatindex prints both with "%.2f" (NaN without leaves).
std::string TwoDecimals(double v) { return std::isnan(v) ? "NaN" : absl::StrFormat("%.2f", v); }
nlohmann::ordered_json TwoDecimalsJson(double v) {
  if (std::isnan(v)) return nullptr;
  return std::round(v * 100.0) / 100.0;
}

int RunPgFile(const PgFileOptions& o) {
  const std::optional<postgres::PgProfile> profile = postgres::FindPgProfile(o.profile);
  if (!profile) return Fail(2, absl::StrCat("--profile ", o.profile, ": use postgresql-15 or postgresql-18"));
  absl::StatusOr<PgNbtreeCensus> c = ReadPgNbtreeFile(o.path, *profile);
  if (!c.ok()) return Fail(2, std::string(c.status().message()));
  if (o.json) {
    nlohmann::ordered_json j;
    j["path"] = c->path;
    j["profile"] = o.profile;
    j["blocks"] = c->blocks;
    j["metapage"] = {{"magic", c->magic},   {"version", c->version},     {"root", c->root},
                     {"level", c->level},   {"fastroot", c->fastroot},   {"fastlevel", c->fastlevel}};
    j["pgstatindex"] = {{"version", c->version},
                        {"tree_level", c->level},
                        {"index_size", c->index_size},
                        {"root_block_no", c->root},
                        {"internal_pages", c->internal_pages},
                        {"leaf_pages", c->leaf_pages},
                        {"empty_pages", c->empty_pages},
                        {"deleted_pages", c->deleted_pages},
                        {"avg_leaf_density", TwoDecimalsJson(c->avg_leaf_density)},
                        {"leaf_fragmentation", TwoDecimalsJson(c->leaf_fragmentation)}};
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const PgNbtreeLevel& l : c->levels) levels.push_back({{"level", l.level}, {"pages", l.pages}, {"items", l.items}});
    j["levels"] = levels;
    nlohmann::ordered_json pages = nlohmann::ordered_json::array();
    for (const PgNbtreeBlock& b : c->pages) {
      pages.push_back({{"blkno", b.blkno},
                       {"type", std::string(1, b.type())},
                       {"new", b.is_new},
                       {"btpo_level", b.btpo_level},
                       {"items", b.items},
                       {"free_size", b.free_size},
                       {"btpo_prev", b.btpo_prev},
                       {"btpo_next", b.btpo_next},
                       {"btpo_flags", b.btpo_flags},
                       {"flags", BtpoFlagNames(b.btpo_flags)},
                       {"high_key", b.high_key_hex}});
    }
    j["pages"] = pages;
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::string s;
  absl::StrAppendFormat(&s, "%s: nbtree index, %d blocks of 8192 (metapage included); metapage: version %d, root %d, "
                            "level %d, fastroot %d, fastlevel %d\n",
                        c->path, c->blocks, c->version, c->root, c->level, c->fastroot, c->fastlevel);
  absl::StrAppendFormat(&s, "pgstatindex (%s): version %d, tree_level %d, index_size %d, root_block_no %d, "
                            "internal_pages %d, leaf_pages %d, empty_pages %d, deleted_pages %d, avg_leaf_density %s, "
                            "leaf_fragmentation %s\n",
                        o.profile, c->version, c->level, c->index_size, c->root, c->internal_pages, c->leaf_pages,
                        c->empty_pages, c->deleted_pages, TwoDecimals(c->avg_leaf_density),
                        TwoDecimals(c->leaf_fragmentation));
  absl::StrAppendFormat(&s, "\n  %5s %10s %12s\n", "level", "pages", "items");
  for (const PgNbtreeLevel& l : c->levels) absl::StrAppendFormat(&s, "  %5d %10d %12d\n", l.level, l.pages, l.items);
  if (o.blocks) {
    absl::StrAppendFormat(&s, "\n  %7s %4s %5s %6s %9s %9s %9s  %-24s %s\n", "blkno", "type", "level", "items",
                          "free_size", "btpo_prev", "btpo_next", "flags", "high key");
    for (const PgNbtreeBlock& b : c->pages) {
      absl::StrAppendFormat(&s, "  %7d %4s %5d %6d %9d %9d %9d  %-24s %s\n", b.blkno,
                            b.is_new ? std::string("new") : std::string(1, b.type()), b.btpo_level, b.items,
                            b.free_size, b.btpo_prev, b.btpo_next, BtpoFlagNames(b.btpo_flags),
                            b.high_key_hex.empty() ? "-" : b.high_key_hex);
    }
  }
  std::cout << s;
  return 0;
}

}  // namespace

void AddPgFile(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand(
      "pgfile", "Census of a PostgreSQL B-tree index's relation file (pageinspect's view, pgstatindex's totals)");
  auto o = std::make_shared<PgFileOptions>();
  sub->add_option("file", o->path,
                  "the index's file from a stopped or checkpointed server, e.g. $PGDATA/base/16384/16390")
      ->required();
  sub->add_option("--profile", o->profile,
                  "postgresql-15 or postgresql-18 (pgstatindex's free space of a leaf: PageGetFreeSpace or "
                  "PageGetExactFreeSpace)")
      ->capture_default_str();
  sub->add_flag("--blocks", o->blocks, "also list every block (type, level, items, free space, siblings, flags)");
  sub->add_flag("--json", o->json, "print the census (every block included) as one JSON object");
  reg.Add(sub, [o]() { return RunPgFile(*o); });
}

}  // namespace innosim::cli
