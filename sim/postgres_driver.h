// PostgresDriver: PostgreSQL's table (model/postgres/pg_engine.h) as the
// runner drives it (sim/engine_driver.h), and the EngineKind functions of
// the profiles postgresql-15 and postgresql-18 (sim/engines.h): what a run
// of them may ask, the table read as PostgreSQL's CREATE TABLE and CREATE
// INDEX (sim/pg_table_parser.h), one entry encoder per secondary index
// (sim/pg_entry_encoder.h), and the figures under pgstatindex's and
// pg_class's names (PgRunResult, an EngineResult).
//
// The model is nbtree's and the heap's pages and the WAL their changes
// write (model/postgres/wal.h), and with flush on (the default; not with
// --no-flush) shared buffers, the checkpointer and the background writer
// on the --rows-per-sec clock (model/postgres/pg_io.h), set by --set in
// PostgreSQL's names and units (model/postgres/pg_settings.h); --phase
// checkpoint is a requested CHECKPOINT, a delete phase the DELETE then a
// VACUUM, optimize a REINDEX TABLE (model/postgres/vacuumlazy.h); an
// insert phase after a delete phase is refused in one line before any work.
// Each phase reports its own WAL (pg_stat_wal's wal_records, wal_fpi,
// wal_bytes across it, and the pg_wal_lsn_diff of the insert position) and
// the dirty-block census of each relation at its end (pg_buffercache).
#ifndef INNOSIM_SIM_POSTGRES_DRIVER_H_
#define INNOSIM_SIM_POSTGRES_DRIVER_H_

#include <memory>

#include "model/postgres/pg_engine.h"
#include "model/postgres/pg_settings.h"
#include "sim/engine_driver.h"
#include "sim/engines.h"
#include "sim/runner.h"

namespace innosim {

absl::Status PostgresCheck(const RunSpec& spec);
// The run's PostgreSQL settings: the profile's GUC defaults, then each
// --set (or server value) in order (model/postgres/pg_settings.h).
absl::StatusOr<postgres::PgSettings> PostgresSettings(const RunSpec& spec);
absl::StatusOr<RunConfig> PostgresConfigure(const RunSpec& spec);
absl::Status PostgresBindStream(std::string_view table, StreamSpec* stream);
absl::Status PostgresCheckTable(const RunSpec& spec, int key_width);
absl::StatusOr<std::vector<std::string>> PostgresMetricNames(const RunSpec& spec);
// EngineKind::phase_figure: the figures of the tree and the heap (an
// index's pgstatindex() and split counts, relpages, pg_relation_size, rows),
// which the run's end (its last transaction's commit record) leaves alone;
// not the WAL's, the buffers' or the dirty blocks'.
bool PostgresPhaseFigure(const RunSpec& spec, std::string_view metric);
// EngineKind::result_at_phase: PgRunResult::AtPhase.
bool PostgresResultAtPhase(const RunResult& longer, size_t phases, RunResult* out);
// The primary key's index and the sizes, for `innosim compare`.
TreeFigures PostgresTreeFigures(const RunResult& run);
absl::StatusOr<PreparedEngine> PostgresPrepare(const RunSpec& spec, RunConfig* config, int key_width);

// One phase's figures: its WAL and I/O (the counters' change across it)
// and the table at its end (dirty blocks per relation among them).
struct PgPhaseResult {
  PhaseSpec phase;
  postgres::WalCounters wal;
  postgres::PgTableReport report;
  postgres::PgTableReport io_delta;  // report's I/O counters less the previous phase's
};

// The figures of a PostgreSQL run: pgstatindex() of each index (the
// primary key first), the heap's relpages and pg_relation_size, the split
// counters by kind, pg_stat_wal's counters and the dirty-block census; with
// phases, each phase's.
class PgRunResult final : public EngineResult {
 public:
  explicit PgRunResult(postgres::PgTableReport report, std::vector<PgPhaseResult> phases = {})
      : report_(std::move(report)), phases_(std::move(phases)) {}
  std::string engine() const override { return "postgresql"; }
  nlohmann::ordered_json ToJson() const override;
  std::string Summary() const override;
  std::optional<double> Metric(std::string_view name) const override;
  std::vector<std::string> MetricNames() const override;
  std::vector<std::string> SweepColumns() const override;
  // The table as phase `phases` left it (its record's report), with the
  // records up to it (none for a run of one phase, as such a run keeps).
  std::shared_ptr<const EngineResult> AtPhase(size_t phases) const override;
  const postgres::PgTableReport& report() const { return report_; }
  const std::vector<PgPhaseResult>& phases() const { return phases_; }

 private:
  postgres::PgTableReport report_;
  std::vector<PgPhaseResult> phases_;
};

class PostgresDriver final : public EngineDriver {
 public:
  // `io`: shared buffers and the writers (a run with flush on); nullptr:
  // pages and WAL only (--no-flush).
  PostgresDriver(const postgres::PgProfile& profile, const postgres::PgTableSpec& spec, uint64_t trx_rows,
                 const postgres::PgIoOptions* io = nullptr)
      : engine_(profile, spec, trx_rows, io) {}
  TableEngine& engine() override { return engine_; }
  // A --series point (sim/series_writer.h's PostgreSQL columns); none
  // without shared buffers.
  void Sample(uint64_t rows, RunResult* result) override;
  // The phase's WAL and the table at its end, kept for Finish (PgRunResult
  // carries them; RunResult::phases is InnoDB's).
  void RecordPhase(const PhaseSpec& phase, RunResult* result) override;
  void Finish(RunResult* result) override;
  const postgres::PgEngine& pg_engine() const { return engine_; }
  postgres::PgEngine& mutable_pg_engine() { return engine_; }

 private:
  postgres::PgEngine engine_;
  std::vector<PgPhaseResult> phases_;
  postgres::WalCounters wal_before_;  // at the previous phase's end
  postgres::PgTableReport io_before_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_POSTGRES_DRIVER_H_
