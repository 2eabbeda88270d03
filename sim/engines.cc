#include "sim/engines.h"

#include "model/postgres/profile.h"
#include "sim/explain.h"
#include "sim/innodb_driver.h"
#include "sim/pg_explain.h"
#include "sim/portable_table.h"
#include "sim/postgres_driver.h"
#include "sim/shared_tree.h"

namespace innosim {
namespace {

std::vector<EngineKind> Kinds() {
  std::vector<EngineKind> kinds;
  kinds.push_back({.name = "innodb",
                   .profiles = EngineProfile::Names(),
                   .configure = InnodbConfigure,
                   .check = InnodbCheck,
                   .bind_stream = BindStreamToTable,
                   .prepare = InnodbPrepare,
                   .shares_tree = InnodbSharesTree,
                   .prepare_shared = InnodbPrepareShared,
                   .check_table = InnodbCheckTable,
                   .metric_names = nullptr,
                   .phase_figure = InnodbPhaseFigure,
                   .result_at_phase = InnodbResultAtPhase,
                   .explain = InnodbExplain,
                   .explain_html = true,
                   .explain_scenarios = true,
                   .draws_page_map = true,
                   .records_series = true,
                   .charts_sweep = true,
                   .from_portable_sql = PortableToInnodbSql,
                   .tree_figures = InnodbTreeFigures});
  kinds.push_back({.name = "postgresql",
                   .profiles = {std::string(postgres::kPostgresql15.name), std::string(postgres::kPostgresql18.name)},
                   .configure = PostgresConfigure,
                   .check = PostgresCheck,
                   .bind_stream = PostgresBindStream,
                   .prepare = PostgresPrepare,
                   .shares_tree = nullptr,
                   .prepare_shared = nullptr,
                   .check_table = PostgresCheckTable,
                   .metric_names = PostgresMetricNames,
                   .phase_figure = PostgresPhaseFigure,
                   .result_at_phase = PostgresResultAtPhase,
                   .explain = PostgresExplain,
                   .explain_html = false,
                   .explain_scenarios = false,
                   .draws_page_map = false,
                   .records_series = true,
                   .charts_sweep = false,
                   .from_portable_sql = PortableToPostgresSql,
                   .tree_figures = PostgresTreeFigures});
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

std::vector<std::string> ProfileNames() {
  std::vector<std::string> names;
  for (const EngineKind& k : EngineKinds()) names.insert(names.end(), k.profiles.begin(), k.profiles.end());
  return names;
}

}  // namespace innosim
