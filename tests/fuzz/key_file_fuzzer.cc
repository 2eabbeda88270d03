// libFuzzer harness: key files (file:, file16:, file8:).
//
// OpenKeyFile reads from a path (it stats the file for its size and streams
// it in chunks), so the input is written to one temporary file per process
// and opened in each of the three formats, then drained. Contract checked:
// no crash, no sanitizer report; a stream that ends with an OK status read
// exactly size/width keys for binary formats.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "sim/file_key_stream.h"

namespace {

// The temporary file, created on first use and removed at exit.
const std::string& TempPath() {
  static const std::string* path = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string p = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") +
                    "/innosim-keyfile-fuzz-XXXXXX";
    const int fd = mkstemp(p.data());
    if (fd < 0) std::abort();
    close(fd);
    auto* owned = new std::string(p);
    std::atexit([] { unlink(TempPath().c_str()); });
    return owned;
  }();
  return *path;
}

void WriteAll(const std::string& path, const uint8_t* data, size_t size) {
  const int fd = open(path.c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) std::abort();
  size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n <= 0) std::abort();
    done += static_cast<size_t>(n);
  }
  close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = TempPath();
  WriteAll(path, data, size);
  for (innosim::KeyFileFormat format :
       {innosim::KeyFileFormat::kAuto, innosim::KeyFileFormat::kBinary16,
        innosim::KeyFileFormat::kBinary8}) {
    absl::StatusOr<std::unique_ptr<innosim::KeyStream>> stream = innosim::OpenKeyFile(path, format);
    if (!stream.ok()) continue;
    innosim::Key key;
    uint64_t keys = 0;
    while ((*stream)->Next(&key)) ++keys;
    const int width = (*stream)->key_width();
    if (width != 8 && width != 16) std::abort();
    // A binary stream that ends cleanly has read every record of the file.
    if (format != innosim::KeyFileFormat::kAuto && (*stream)->status().ok() &&
        keys != size / static_cast<size_t>(width)) {
      std::abort();
    }
  }
  return 0;
}
