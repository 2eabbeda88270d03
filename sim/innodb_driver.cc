#include "sim/innodb_driver.h"

#include <utility>

namespace innosim {
namespace {

EngineOptions OptionsOf(const RunSpec& spec, const RunConfig& config) {
  EngineOptions options;
  if (spec.flush) options.flush = config.server;
  options.trx_rows = spec.trx_rows;
  options.rows_per_sec = spec.rows_per_sec;
  // OPTIMIZE TABLE's sorted build fills pages to innodb_fill_factor
  // (model/bulk_load.h), whether or not the flush model runs.
  options.fill_factor = static_cast<uint32_t>(config.server.innodb_fill_factor);
  return options;
}

}  // namespace

InnodbDriver::InnodbDriver(const RunSpec& spec, const RunConfig& config, const TableDef& table)
    : engine_(config.profile, table, OptionsOf(spec, config)) {}

void InnodbDriver::Sample(uint64_t rows, RunResult* result) {
  if (const FlushModel* fm = engine_.flush_model(); fm != nullptr) result->series.push_back({rows, fm->Snapshot()});
}

void InnodbDriver::RecordPhase(const PhaseSpec& phase, RunResult* result) {
  PhaseResult pr;
  pr.phase = phase;
  pr.report = engine_.Report();
  if (const FlushModel* fm = engine_.flush_model(); fm != nullptr) {
    pr.flush = fm->counters();
    pr.dirty_pages = fm->Snapshot().dirty_pages;
    pr.table_dirty_pages = fm->DirtyPagesOf(engine_.table_space());
  }
  result->phases.push_back(std::move(pr));
}

void InnodbDriver::Finish(RunResult* result) {
  if (const FlushModel* fm = engine_.flush_model(); fm != nullptr) result->flush = fm->counters();
  result->report = engine_.Report();
}

}  // namespace innosim
