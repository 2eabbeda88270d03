// libFuzzer harness: the .ibd reader over arbitrary file images.
//
// The input is a whole tablespace file. It is read twice: without checksum
// verification (so mutated pages get past the CRC-32C and reach the page and
// tree checks, where the interesting code is) and with it. A census that
// parses is also rendered (text, JSON, page map, SVG), since those walk the same
// fields. Contract checked: no crash, no sanitizer report, and a census
// consistent with the file (one IbdPage per page).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "tools/ibd_reader.h"
#include "tools/page_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  for (bool verify : {false, true}) {
    innosim::IbdReadOptions options;
    options.verify_checksums = verify;
    absl::StatusOr<innosim::IbdCensus> census = innosim::ReadIbdBytes(bytes, options);
    if (!census.ok()) continue;
    if (census->pages.size() != census->n_pages || census->page_size == 0 ||
        census->n_pages * census->page_size != size) {
      std::abort();  // a census that does not describe the file it read
    }
    (void)innosim::IbdCensusText(*census);
    (void)innosim::IbdCensusJson(*census);
    (void)innosim::PageMapText(*census);
    (void)innosim::PageMapSvg(*census);
  }
  return 0;
}
