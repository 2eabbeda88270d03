// innosim explain: every insert of a small run, step by step (sim/explain.h).
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "sim/cli/commands.h"
#include "sim/cli/memory_check.h"
#include "sim/cli/run_options.h"
#include "sim/count.h"
#include "sim/engines.h"
#include "sim/explain.h"
#include "sim/report.h"
#include "sim/scenario.h"
#include "sim/uuid.h"

namespace innosim::cli {
namespace {

// Inserts a --html page embeds at most: the page replays them in the
// browser, and a few thousand keep it quick to load and to step through.
constexpr uint64_t kMaxHtmlRows = 5000;

}  // namespace

void AddExplain(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("explain", "Every insert step by step: the leaf, its header, the split rule and why");
  auto opts = std::make_shared<CommonRunOptions>();
  LoadHelp help = RunLoadHelp();
  help.phase.clear();  // explain shows the --stream/--rows insert alone
  opts->Register(sub, help);
  // A learner's --keys replaces the stream.
  sub->get_option("--stream")->required(false);
  sub->get_option("--rows")->required(false);
  struct Extra {
    std::string keys;
    std::string from = "1";
    std::string to;
    std::string only;
    std::string page;
    std::string html;
    std::string scenario;
    bool force = false;
  };
  auto extra = std::make_shared<Extra>();
  sub->add_option("--keys", extra->keys, "your own keys instead of a stream: 10,20,15 or UUIDs, comma-separated");
  sub->add_option("--from", extra->from, "first row to print (1-based)")->capture_default_str();
  sub->add_option("--to", extra->to, "last row to print");
  sub->add_option("--only", extra->only, "splits: print only the inserts that split a page");
  sub->add_option("--explain-page", extra->page, "print only the inserts that touch this page number");
  sub->add_option("--scenario", extra->scenario,
                  "a learner's scenario file (experiments/scenarios/*.toml): its keys, table and what to see, checked");
  sub->add_option("--html", extra->html,
                  "write a self-contained page that replays every insert (at most 5000 rows; open FILE.html#step=N)");
  sub->add_flag("--force", extra->force, kForceMemoryHelp);
  reg.Add(sub, [opts, extra]() {
    ExplainSpec e;
    std::optional<Scenario> scenario;
    if (!extra->scenario.empty()) {
      if (!extra->keys.empty() || !opts->stream.empty()) {
        return Fail(2, "--scenario brings its own keys: drop --keys and --stream");
      }
      absl::StatusOr<Scenario> sc = LoadScenario(extra->scenario);
      if (!sc.ok()) return Fail(2, std::string(sc.status().message()));
      scenario = *std::move(sc);
    } else if (!extra->keys.empty()) {
      if (!opts->stream.empty()) return Fail(2, "give --keys or --stream, not both");
      if (absl::Status s = ParseKeyList(extra->keys, &e.keys, &e.key_width); !s.ok()) {
        return Fail(2, std::string(s.message()));
      }
      opts->stream = e.key_width == 8 ? "autoinc" : "uuidv4";  // validation only: the keys replace it
      opts->rows = absl::StrCat(e.keys.size());
    } else if (opts->stream.empty() || opts->rows.empty()) {
      return Fail(2, "give --stream S --rows N, or your own --keys 10,20,15");
    }
    if (!extra->only.empty() && extra->only != "splits") {
      return Fail(2, absl::StrCat("--only '", extra->only, "': the one filter is --only splits"));
    }
    e.only_splits = extra->only == "splits";
    absl::StatusOr<uint64_t> from = ParseCount(extra->from);
    if (!from.ok() || *from == 0) return Fail(2, "--from: a row number from 1 (e.g. --from 100)");
    e.from = *from;
    if (!extra->to.empty()) {
      absl::StatusOr<uint64_t> to = ParseCount(extra->to);
      if (!to.ok() || *to < e.from) return Fail(2, "--to: a row number at or after --from (e.g. --to 200)");
      e.to = *to;
    }
    if (!extra->page.empty()) {
      uint32_t p = 0;
      if (!absl::SimpleAtoi(extra->page, &p)) return Fail(2, "--explain-page: a page number (e.g. --explain-page 4)");
      e.page = p;
    }
    if (!extra->html.empty()) {
      // The page replays the tree from the first insert: it needs them all.
      if (extra->from != "1" || !extra->to.empty() || e.only_splits || e.page != kFilNull) {
        return Fail(2, "--html replays every insert: drop --from, --to, --only and --explain-page");
      }
      if (absl::Status s = CheckOutputPath(extra->html, "--html"); !s.ok()) return Fail(2, std::string(s.message()));
    }
    absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(opts->rows_per_ms);
    if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
    if (absl::Status s = opts->LoadDefaults(); !s.ok()) return Fail(2, std::string(s.message()));
    if (scenario) {
      const ExplainSpec filters = e;
      e = scenario->spec;
      e.run.flush = !opts->no_flush;  // --no-flush: structure only, as for `run`
      e.from = filters.from;
      e.to = filters.to;
      e.only_splits = filters.only_splits;
      e.page = filters.page;
    } else {
      absl::StatusOr<RunSpec> spec = opts->Spec(*rpms);
      if (!spec.ok()) return Fail(2, std::string(spec.status().message()));
      e.run = *spec;
    }
    WarnSettingsOf(e.run);
    if (absl::Status s = CheckMemoryFor({e.run}, 1, extra->force); !s.ok()) return Fail(2, std::string(s.message()));
    if (!extra->html.empty() && e.run.rows > kMaxHtmlRows) {
      return Fail(2, absl::StrCat("--html holds at most ", kMaxHtmlRows, " inserts: lower --rows"));
    }
    // The engine explains itself (sim/engines.h); the browser explainer and
    // the scenarios' checks read InnoDB's pages.
    const EngineKind* kind = EngineKindFor(e.run.profile);  // Spec() and LoadScenario checked the profile
    if (kind == nullptr || kind->explain == nullptr) {
      return Fail(2, absl::StrCat("explain: profile '", e.run.profile, "' has no explain: use one of ",
                                  absl::StrJoin(ProfileNames(), ", ")));
    }
    if (!extra->html.empty() && !kind->explain_html) {
      return Fail(2, absl::StrCat("--html: the browser explainer draws InnoDB's pages; the ", e.run.profile,
                                  " profile is explained as text or --json: drop --html"));
    }
    if (scenario && !kind->explain_scenarios) {
      return Fail(2, absl::StrCat("--scenario: the scenarios check InnoDB's pages; profile ", e.run.profile,
                                  " is explained with --stream or --keys"));
    }
    if (extra->html.empty() && !scenario) {
      absl::StatusOr<std::string> text = kind->explain(e, opts->json);
      if (!text.ok()) return Fail(2, std::string(text.status().message()));
      std::cout << *text;
      return 0;
    }
    absl::StatusOr<ExplainResult> r = Explain(e);
    if (!r.ok()) return Fail(2, std::string(r.status().message()));
    if (!extra->html.empty()) {
      if (absl::Status s = WriteFileAtomically(extra->html, ExplainHtml(*r)); !s.ok()) {
        return Fail(3, std::string(s.message()));
      }
      std::cout << "wrote " << extra->html << ": " << r->inserts.size() << " inserts (open " << extra->html
                << "#step=N at insert N)\n";
      return 0;
    }
    if (scenario && !opts->json) {
      std::cout << "scenario: " << scenario->title << (scenario->source.empty() ? "" : " (" + scenario->source + ")")
                << "\n  what to see: " << scenario->see << "\n\n";
    }
    std::cout << (opts->json ? ExplainJsonLines(*r) : ExplainText(*r));
    if (!scenario) return 0;
    const std::vector<std::string> failed = CheckScenario(*scenario, *r);
    if (!opts->json) {
      std::cout << (failed.empty() ? "check: innosim shows what the scenario says\n" : "");
      for (const std::string& f : failed) std::cout << "check FAILED: " << f << "\n";
    }
    return failed.empty() ? 0 : 1;
  });
}

}  // namespace innosim::cli
