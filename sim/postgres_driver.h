// PostgresDriver: PostgreSQL's table (model/postgres/pg_engine.h) as the
// runner drives it (sim/engine_driver.h), and the EngineKind functions of
// the profiles postgresql-15 and postgresql-18 (sim/engines.h): what a run
// of them may ask, the table read as PostgreSQL's CREATE TABLE and CREATE
// INDEX (sim/pg_table_parser.h), one entry encoder per secondary index
// (sim/pg_entry_encoder.h), and the figures under pgstatindex's and
// pg_class's names (PgRunResult, an EngineResult).
//
// The model is nbtree's and the heap's pages; PostgreSQL's buffers,
// checkpoints and WAL are not simulated yet, so a run of these profiles
// takes no server variable (--set, --defaults-file) and no phase, and says
// so in one line before any work.
#ifndef INNOSIM_SIM_POSTGRES_DRIVER_H_
#define INNOSIM_SIM_POSTGRES_DRIVER_H_

#include <memory>

#include "model/postgres/pg_engine.h"
#include "sim/engine_driver.h"
#include "sim/engines.h"
#include "sim/runner.h"

namespace innosim {

absl::Status PostgresCheck(const RunSpec& spec);
absl::StatusOr<RunConfig> PostgresConfigure(const RunSpec& spec);
absl::Status PostgresBindStream(std::string_view table, StreamSpec* stream);
absl::Status PostgresCheckTable(const RunSpec& spec, int key_width);
absl::StatusOr<std::vector<std::string>> PostgresMetricNames(const RunSpec& spec);
absl::StatusOr<PreparedEngine> PostgresPrepare(const RunSpec& spec, RunConfig* config, int key_width);

// The figures of a PostgreSQL run: pgstatindex() of each index (the
// primary key first), the heap's relpages and pg_relation_size, the split
// counters by kind.
class PgRunResult final : public EngineResult {
 public:
  explicit PgRunResult(postgres::PgTableReport report) : report_(std::move(report)) {}
  std::string engine() const override { return "postgresql"; }
  nlohmann::ordered_json ToJson() const override;
  std::string Summary() const override;
  std::optional<double> Metric(std::string_view name) const override;
  std::vector<std::string> MetricNames() const override;
  std::vector<std::string> SweepColumns() const override;
  const postgres::PgTableReport& report() const { return report_; }

 private:
  postgres::PgTableReport report_;
};

class PostgresDriver final : public EngineDriver {
 public:
  PostgresDriver(const postgres::PgProfile& profile, const postgres::PgTableSpec& spec) : engine_(profile, spec) {}
  TableEngine& engine() override { return engine_; }
  // No time series: the buffers are not simulated yet.
  void Sample(uint64_t, RunResult*) override {}
  // Phases are refused before a run (PostgresCheck).
  void RecordPhase(const PhaseSpec&, RunResult*) override {}
  void Finish(RunResult* result) override;
  const postgres::PgEngine& pg_engine() const { return engine_; }
  postgres::PgEngine& mutable_pg_engine() { return engine_; }

 private:
  postgres::PgEngine engine_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_POSTGRES_DRIVER_H_
