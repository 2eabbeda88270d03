// libFuzzer harness: one `--set NAME=VALUE`.
//
// The input is split at its first '=' (no '=': the whole input is a name
// with an empty value, as a my.cnf flag is) and applied to the defaults of
// both servers. Contract checked: no crash, no sanitizer report; a variable
// that is refused leaves the settings' printout unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/server_settings.h"
#include "sim/defaults_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t eq = input.find('=');
  const std::string_view name = input.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? std::string_view() : input.substr(eq + 1);
  for (innosim::ServerFlavor flavor :
       {innosim::ServerFlavor::kMySql84, innosim::ServerFlavor::kMariaDb1011}) {
    innosim::ServerSettings settings = innosim::ServerSettings::Defaults(flavor);
    const auto before = settings.Describe();
    const absl::Status status = innosim::ApplyServerVariable(&settings, name, value);
    const auto after = settings.Describe();
    if (!status.ok() && before != after) std::abort();  // a refusal changed something
    (void)settings.BufferPoolPages();
    (void)settings.EffectiveIoCapacityMax();
    (void)settings.EffectiveBufferPoolInstances();
    (void)settings.EffectiveRedoLogCapacity();
  }
  return 0;
}
