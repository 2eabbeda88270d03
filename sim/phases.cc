#include "sim/phases.h"

#include "absl/strings/str_cat.h"
#include "sim/count.h"

namespace innosim {

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
      "--phase '", p.text, "' is not a phase: use insert:STREAM:ROWS, delete:every:K, optimize or checkpoint (docs/phases.md)"));
}

}  // namespace innosim
