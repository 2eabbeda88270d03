// libFuzzer harness: my.cnf defaults files.
//
// The input is the text of a defaults file, parsed for both servers; the
// entries CheckDefaultsEntries keeps are then applied to the server's
// defaults, as `innosim run --defaults-file` does, and the settings are
// described (the printout's data). Contract checked: no crash, no sanitizer
// report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "model/server_settings.h"
#include "sim/defaults_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string_view path = "fuzz.cnf";
  for (innosim::ServerFlavor flavor :
       {innosim::ServerFlavor::kMySql84, innosim::ServerFlavor::kMariaDb1011}) {
    absl::StatusOr<innosim::DefaultsFile> file = innosim::ParseDefaultsFile(text, path, flavor);
    if (!file.ok()) continue;
    std::vector<std::string> warnings;
    absl::StatusOr<std::vector<innosim::VariableAssignment>> entries =
        innosim::CheckDefaultsEntries(*file, path, flavor, &warnings);
    if (!entries.ok()) continue;
    innosim::ServerSettings settings = innosim::ServerSettings::Defaults(flavor);
    for (const innosim::VariableAssignment& e : *entries) {
      // CheckDefaultsEntries kept only what applies: it must apply again.
      if (!innosim::ApplyServerVariable(&settings, e.name, e.value, e.origin).ok()) std::abort();
    }
    (void)settings.Describe();
    (void)settings.BufferPoolPages();
    (void)settings.EffectiveIoCapacityMax();
    (void)settings.EffectiveBufferPoolInstances();
    (void)settings.EffectiveRedoLogCapacity();
  }
  return 0;
}
