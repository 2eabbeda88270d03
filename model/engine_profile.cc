#include "model/engine_profile.h"

namespace innosim {

EngineProfile EngineProfile::MySQL84() {
  EngineProfile p;
  p.name = "mysql-8.4";
  p.split_counting = SplitCounting::kAtExitWithoutShortcut;
  p.reorg_counting = ReorgCounting::kAttemptAtStart;
  p.allocation = AllocationPolicy::kMySQL84;
  return p;
}

EngineProfile EngineProfile::MariaDB1011() {
  EngineProfile p;
  p.name = "mariadb-10.11";
  p.split_counting = SplitCounting::kAtEntryWithShortcut;
  p.reorg_counting = ReorgCounting::kBothOnSuccess;
  p.allocation = AllocationPolicy::kMariaDB1011;
  return p;
}

std::optional<EngineProfile> EngineProfile::ByName(std::string_view name) {
  if (name == "mysql-8.4") return MySQL84();
  if (name == "mariadb-10.11") return MariaDB1011();
  return std::nullopt;
}

std::vector<std::string> EngineProfile::Names() { return {"mysql-8.4", "mariadb-10.11"}; }

bool IsSupportedPageSize(uint64_t page_size) {
  return page_size == 4096 || page_size == 8192 || page_size == 16384 || page_size == 32768 ||
         page_size == 65536;
}

}  // namespace innosim
