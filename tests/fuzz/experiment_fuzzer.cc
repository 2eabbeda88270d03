// libFuzzer harness: experiment files (TOML).
//
// The input is the text of an experiment file. It is parsed and checked
// (ParseExperiment validates each run's settings) but never run. Contract
// checked: no crash, no sanitizer report (toml++ included).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/experiment.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)innosim::ParseExperiment(text, "fuzz.toml");
  return 0;
}
