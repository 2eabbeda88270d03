// sim/simulated_tree.cc: see simulated_tree.h.
#include "sim/simulated_tree.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "sim/key_stream.h"
#include "sim/secondary_keys.h"
#include "sim/table_parser.h"

namespace innosim {

absl::StatusOr<std::unique_ptr<Engine>> SimulateTree(const RunSpec& spec) {
  if (absl::Status s = ValidateRunSpec(spec); !s.ok()) return s;
  absl::StatusOr<RunConfig> config = ConfigFor(spec);
  if (!config.ok()) return config.status();
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec.stream);
  if (!stream.ok()) return stream.status();
  KeyStream& ks = **stream;
  TableOptions table_options;
  table_options.payload_bytes = spec.payload_bytes;
  table_options.payload_given = spec.payload_bytes_given;
  absl::StatusOr<TableSchema> schema = ResolveTable(spec.table, ks.key_width(), table_options);
  if (!schema.ok()) return schema.status();
  const TableDef& table = schema->def;
  // Secondary entries carry the row's synthetic time at Run's clock rate,
  // whether or not Run flushes: the same rate here gives the same entries.
  std::vector<SecondaryKeyEncoder> encoders;
  for (size_t ix = 0; ix < table.secondary.size(); ++ix) {
    encoders.emplace_back(*schema, ix, spec.stream.start_ms, spec.rows_per_sec > 0 ? spec.rows_per_sec : 100000);
  }
  auto engine = std::make_unique<Engine>(config->profile, table);
  for (uint64_t i = 0; i < spec.rows; ++i) {
    Key key;
    if (!ks.Next(&key)) {
      if (!ks.status().ok()) return ks.status();
      return absl::InvalidArgumentError(absl::StrCat("the stream ended after ", i, " of ", spec.rows,
                                                     " rows: lower --rows or give a longer key file"));
    }
    if (!engine->InsertRow(key).ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("row ", i + 1, ": duplicate primary key in the stream (",
                       "InnoDB would refuse it with ER_DUP_ENTRY): remove it from the key file"));
    }
    // Ties after the compact encoding are skipped, as Run skips them.
    for (size_t ix = 0; ix < encoders.size(); ++ix) (void)engine->InsertSecondary(ix, encoders[ix].Encode(i, key));
  }
  return engine;
}

}  // namespace innosim
