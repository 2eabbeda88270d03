// Reading a small text file (a my.cnf, an experiment file, shard output)
// whole, with a bound: a path naming /dev/zero, a FIFO or a huge file is
// refused once more than `limit` bytes have come, instead of growing until
// the machine's memory runs out (issue 29, item 2; docs/limits.md).
#ifndef INNOSIM_SIM_BOUNDED_READ_H_
#define INNOSIM_SIM_BOUNDED_READ_H_

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <istream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace innosim {

// The bounds: a my.cnf or an experiment file is a few KB; shard output is
// one JSON line of a few KB per configuration.
inline constexpr uint64_t kMaxConfigFileBytes = uint64_t{1} << 20;   // 1 MiB
inline constexpr uint64_t kMaxShardFileBytes = uint64_t{256} << 20;  // 256 MiB

// Up to `limit` bytes of `in`; InvalidArgument naming `shown` (e.g.
// "--defaults-file x") and the bound when there are more, or on a read
// error.
inline absl::StatusOr<std::string> ReadBounded(std::istream& in, uint64_t limit, const std::string& shown) {
  std::string text;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    const std::streamsize n = in.gcount();
    if (n <= 0) break;
    if (text.size() + static_cast<uint64_t>(n) > limit) {
      return absl::InvalidArgumentError(absl::StrCat(shown, ": more than ", limit >> 20,
                                                     " MiB: not a file innosim reads whole; give the file itself "
                                                     "(docs/limits.md)"));
    }
    text.append(buf, static_cast<size_t>(n));
  }
  if (in.bad()) return absl::InvalidArgumentError(absl::StrCat(shown, ": could not be read"));
  return text;
}

// The same for the file at `path`.
inline absl::StatusOr<std::string> ReadFileBounded(const std::string& path, uint64_t limit, const std::string& shown) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat(shown, ": ", std::strerror(errno)));
  return ReadBounded(in, limit, shown);
}

}  // namespace innosim

#endif  // INNOSIM_SIM_BOUNDED_READ_H_
