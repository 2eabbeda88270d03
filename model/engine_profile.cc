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
  p.delete_reclaims_heap_top = true;
  return p;
}

std::optional<EngineProfile> EngineProfile::ByName(std::string_view name) {
  if (name == "mysql-8.4") return MySQL84();
  if (name == "mariadb-10.11") return MariaDB1011();
  return std::nullopt;
}

EngineProfile EngineProfile::ForServer(const ServerSettings& settings) {
  EngineProfile p = settings.flavor == ServerFlavor::kMySql84 ? MySQL84() : MariaDB1011();
  p.page_size = static_cast<uint32_t>(settings.innodb_page_size);
  // MariaDB has no innodb_segment_reserve_factor: its 1/8 stays.
  if (settings.flavor == ServerFlavor::kMySql84) p.segment_reserve_pct = settings.innodb_segment_reserve_factor;
  return p;
}

std::vector<std::string> EngineProfile::Names() { return {"mysql-8.4", "mariadb-10.11"}; }

}  // namespace innosim
