#include "sim/phases.h"

#include "absl/strings/str_cat.h"
#include "sim/count.h"

namespace innosim {

namespace {

// A whole percentage, 0 to 100, digits only.
bool ParsePercent(std::string_view text, uint32_t* out) {
  if (text.empty() || text.size() > 3) return false;
  uint32_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  if (v > 100) return false;
  *out = v;
  return true;
}

}  // namespace

absl::Status CheckDeletePhaseTarget(const std::vector<PhaseSpec>& phases, size_t n) {
  const PhaseSpec& phase = phases[n];
  if (phase.kind != PhaseSpec::Kind::kDeletePhase) return absl::OkStatus();
  const uint64_t self = n + 2;
  if (phase.of_phase >= self ||
      (phase.of_phase >= 2 && phases[phase.of_phase - 2].kind != PhaseSpec::Kind::kInsert)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--phase ", phase.text, " (phase ", self, "): phase ", phase.of_phase,
        " is not an insert before it: name one of the insert phases before it (1 = the run's own --stream/--rows)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<PhaseSpec> ParsePhase(std::string_view text) {
  PhaseSpec p;
  p.text = std::string(text);
  if (text == "optimize") {
    p.kind = PhaseSpec::Kind::kOptimize;
    return p;
  }
  if (text == "checkpoint") {
    p.kind = PhaseSpec::Kind::kCheckpoint;
    return p;
  }
  constexpr std::string_view kDeleteEvery = "delete:every:";
  if (text.substr(0, kDeleteEvery.size()) == kDeleteEvery) {
    absl::StatusOr<uint64_t> k = ParseCount(text.substr(kDeleteEvery.size()));
    if (!k.ok() || *k == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--phase '", p.text, "': write delete:every:K with K at least 1, e.g. delete:every:2"));
    }
    p.kind = PhaseSpec::Kind::kDeleteEvery;
    p.every = *k;
    return p;
  }
  constexpr std::string_view kDeletePhase = "delete:phase:";
  if (text.substr(0, kDeletePhase.size()) == kDeletePhase) {
    absl::StatusOr<uint64_t> n = ParseCount(text.substr(kDeletePhase.size()));
    if (!n.ok() || *n == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--phase '", p.text,
          "': write delete:phase:N with N the number of an earlier insert phase (1 = the run's own), e.g. "
          "delete:phase:1"));
    }
    p.kind = PhaseSpec::Kind::kDeletePhase;
    p.of_phase = *n;
    return p;
  }
  constexpr std::string_view kDeleteRange = "delete:range:";
  if (text.substr(0, kDeleteRange.size()) == kDeleteRange) {
    const std::string_view rest = text.substr(kDeleteRange.size());
    const size_t colon = rest.find(':');
    uint32_t from = 0;
    uint32_t to = 0;
    if (colon == std::string_view::npos || !ParsePercent(rest.substr(0, colon), &from) ||
        !ParsePercent(rest.substr(colon + 1), &to) || from >= to) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--phase '", p.text,
          "': write delete:range:FROM:TO with whole percentages 0 <= FROM < TO <= 100 of the table's rows in key "
          "order, e.g. delete:range:0:50 for the first half"));
    }
    p.kind = PhaseSpec::Kind::kDeleteRange;
    p.from_pct = from;
    p.to_pct = to;
    return p;
  }
  constexpr std::string_view kInsert = "insert:";
  if (text.substr(0, kInsert.size()) == kInsert) {
    const std::string_view rest = text.substr(kInsert.size());
    const size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--phase '", p.text, "': write insert:STREAM:ROWS, e.g. --phase insert:uuidv7-counter:200k"));
    }
    absl::StatusOr<uint64_t> rows = ParseCount(rest.substr(colon + 1));
    if (!rows.ok() || *rows == 0) {
      return absl::InvalidArgumentError(absl::StrCat("--phase '", p.text,
                                                     "': the rows must be a count of at least 1 (e.g. 200k)"));
    }
    p.kind = PhaseSpec::Kind::kInsert;
    p.stream = std::string(rest.substr(0, colon));
    p.rows = *rows;
    return p;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--phase '", p.text, "' is not a phase: use insert:STREAM:ROWS, delete:every:K, delete:phase:N, delete:range:FROM:TO, optimize or checkpoint (docs/phases.md)"));
}

}  // namespace innosim
