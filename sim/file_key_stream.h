// Key streams read from a file, streamed in 1 MiB chunks (a 160 MB file is
// never held in memory at once).
//
// Stream names (docs/key-streams.md has the full rules):
//   file:PATH    auto-detect. Text when the first 4096 bytes (or the whole
//                file, if smaller) are all printable ASCII, tab, CR or LF (a
//                UTF-8 byte order mark is skipped); otherwise binary with
//                16-byte records.
//   file16:PATH  binary, 16-byte big-endian records (BINARY(16) keys).
//   file8:PATH   binary, 8-byte big-endian records (BIGINT UNSIGNED keys).
//   fileN:PATH   binary, N-byte big-endian records, N = 1..32 (BINARY(N),
//                INT = 4, MEDIUMINT = 3, SMALLINT = 2: the column's stored
//                bytes, docs/key-streams.md).
//   PATH "-"     standard input (file:-, file16:-, fileN:-).
//
// Text: one UUID per line, 36-character 8-4-4-4-12 or 32 hex digits, any
// case; spaces and tabs around it, a trailing CR (CRLF files) and blank lines
// are ignored. A malformed line stops the stream: Next() returns false and
// status() is InvalidArgument("PATH:LINE: malformed UUID '...': expected
// 8-4-4-4-12 hex digits").
//
// Open() fails (one-line message saying how to mend it) when the file cannot
// be opened, is empty, or a binary file's size is not a multiple of its
// record width.
//
// Not thread-safe. Next() never allocates (except to build an error status).
#ifndef INNOSIM_SIM_FILE_KEY_STREAM_H_
#define INNOSIM_SIM_FILE_KEY_STREAM_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "sim/key_stream.h"

namespace innosim {

enum class KeyFileFormat {
  kAuto,      // file:
  kBinary16,  // file16:
  kBinary8,   // file8:
  kBinaryN,   // fileN: for any N in 1..32 (the width argument)
};

// `path` "-" reads standard input (to its end; a short last record is an
// error found when the stream reaches it). `width` is the record width of
// kBinaryN (1..32; InvalidArgument otherwise) and ignored for the others.
absl::StatusOr<std::unique_ptr<KeyStream>> OpenKeyFile(const std::string& path,
                                                       KeyFileFormat format, int width = 0);

}  // namespace innosim

#endif  // INNOSIM_SIM_FILE_KEY_STREAM_H_
