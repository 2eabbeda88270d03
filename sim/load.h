// Load: the one place a run is set up and its rows driven.
//
// Prepare checks a RunSpec and builds everything a run needs: the server's
// settings and profile (ConfigFor), the key stream bound to the table, the
// table, the secondary entries' encoders and the engine's driver (all three
// from the profile's engine, sim/engines.h). Insert then drives rows through the engine seam
// (model/table_engine.h) in the runner's order: the primary key, each
// secondary entry in index order, the row's end. run, sweep and experiment
// (sim/runner.h), explain (sim/explain.h) and bench (tools/bench.h) all
// come through here; the phases after the first insert are
// sim/phase_runner.h's.
//
//   absl::StatusOr<std::unique_ptr<Load>> load = Load::Prepare(spec);
//   load->Insert(load->stream(), spec.rows, 0);
//   load->engine().EndLoad();
//   load->driver().Finish(&load->result());
//
// Not thread-safe: one Load per run (RunMany runs one per thread).
#ifndef INNOSIM_SIM_LOAD_H_
#define INNOSIM_SIM_LOAD_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "model/key.h"
#include "model/table_engine.h"
#include "sim/engine_driver.h"
#include "sim/engines.h"
#include "sim/key_stream.h"
#include "sim/runner.h"
#include "sim/entry_encoder.h"
#include "sim/table_parser.h"

namespace innosim {

// What an insert phase keeps of its rows, for a later phase.
struct InsertKeeping {
  // Each row's key, in insert order (delete:phase:N).
  std::vector<Key>* keys = nullptr;
  // Each row's key and row number, for a DELETE's secondary entries
  // (Encode(row, key)).
  std::vector<std::pair<Key, uint64_t>>* rows = nullptr;
};

// Sees each row as Insert drives it (explain's step-by-step view). The run
// path passes none.
class RowObserver {
 public:
  virtual ~RowObserver() = default;
  // After the primary key's insert, before the secondary entries.
  virtual absl::Status RowInserted(uint64_t row, const Key& key) = 0;
  // After the row's end (its commit and clock).
  virtual absl::Status RowEnded(uint64_t row, const Key& key) = 0;
};

// Keys given by the caller instead of the spec's stream (explain --keys):
// `width` bytes each, in insert order.
struct OwnKeys {
  const std::vector<Key>* keys = nullptr;
  int width = 0;
};

class Load {
 public:
  // Checks `spec` and builds the run; one-line errors saying how to mend
  // the input.
  static absl::StatusOr<std::unique_ptr<Load>> Prepare(const RunSpec& spec, OwnKeys own = {});
  // Several configurations of one load sharing the engine's trees
  // (sim/shared_tree.h): each spec checked as Prepare checks it, the stream
  // and table of specs[0], one driver for all (EngineKind::prepare_shared).
  // FailedPrecondition when they cannot share (the caller runs them one by
  // one); a spec's own error as Prepare gives it.
  static absl::StatusOr<std::unique_ptr<Load>> PrepareShared(const std::vector<RunSpec>& specs);
  // The configurations the load runs: 1, or PrepareShared's.
  size_t n_instances() const { return shared_specs_.empty() ? 1 : shared_specs_.size(); }
  // After EndLoad: configuration i's result, its engine's figures included
  // (for a plain load, i = 0: result() after driver().Finish).
  RunResult FinishInstance(size_t i);

  // Inserts `rows` rows of `source`, the first being the run's row `base`
  // (secondary entries and errors count rows over the whole run). A stream
  // that ends early is an error naming the row.
  absl::Status Insert(KeyStream& source, uint64_t rows, uint64_t base, const InsertKeeping& keep = {},
                      RowObserver* observer = nullptr);

  // Fits `stream` to the table as the run's engine reads it (an autoinc
  // stream takes an integer key's width).
  absl::Status BindStream(StreamSpec* stream) const;

  const RunSpec& spec() const { return spec_; }
  const RunConfig& config() const { return config_; }
  // The spec's stream (or the caller's keys), bound to the table.
  KeyStream& stream() { return *stream_; }
  EngineDriver& driver() { return *driver_; }
  TableEngine& engine() { return driver_->engine(); }
  // One per secondary index, in the engine's index order.
  const std::vector<std::unique_ptr<EntryEncoder>>& encoders() const { return encoders_; }
  // The result being filled: spec (page size resolved), key width, table,
  // warnings; the driver adds the engine's figures.
  RunResult& result() { return result_; }
  // True while each primary key inserted was above the one before it (an
  // ordered stream): the table's rows then went in as appending them in key
  // order would put them, so the run's tree is that appended tree.
  bool keys_ascending() const { return keys_ascending_; }

 private:
  Load() = default;
  // The stream and the result's first fields, before the engine.
  static absl::StatusOr<std::unique_ptr<Load>> Begin(const RunSpec& spec, OwnKeys own, RunConfig config);
  // The engine's preparation: its table, encoders and driver.
  void Adopt(PreparedEngine prepared);

  RunSpec spec_;
  RunConfig config_;
  std::unique_ptr<KeyStream> stream_;
  std::vector<std::unique_ptr<EntryEncoder>> encoders_;
  std::unique_ptr<EngineDriver> driver_;
  RunResult result_;
  // PrepareShared's configurations (specs[0] is spec_); empty otherwise.
  std::vector<RunSpec> shared_specs_;
  std::vector<RunConfig> shared_configs_;
  bool keys_ascending_ = true;
  uint64_t keys_inserted_ = 0;
  Key last_key_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_LOAD_H_
