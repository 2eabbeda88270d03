#include "sim/engines.h"

#include "absl/strings/str_cat.h"
#include "sim/innodb_driver.h"

namespace innosim {
namespace {

absl::StatusOr<std::unique_ptr<EngineDriver>> MakeInnodb(const RunSpec& spec, const RunConfig& config,
                                                         const TableDef& table) {
  return std::unique_ptr<EngineDriver>(std::make_unique<InnodbDriver>(spec, config, table));
}

std::vector<EngineKind> Kinds() {
  std::vector<EngineKind> kinds;
  kinds.push_back({"innodb", EngineProfile::Names(), MakeInnodb});
  return kinds;
}

}  // namespace

const std::vector<EngineKind>& EngineKinds() {
  static const std::vector<EngineKind>* kinds = new std::vector<EngineKind>(Kinds());
  return *kinds;
}

const EngineKind* EngineKindFor(std::string_view profile) {
  for (const EngineKind& k : EngineKinds()) {
    for (const std::string& p : k.profiles) {
      if (p == profile) return &k;
    }
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<EngineDriver>> MakeEngineDriver(const RunSpec& spec, const RunConfig& config,
                                                               const TableDef& table) {
  const EngineKind* kind = EngineKindFor(spec.profile);
  if (kind == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown profile '", spec.profile, "'"));
  return kind->make(spec, config, table);
}

}  // namespace innosim
