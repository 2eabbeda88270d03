// Output files: written whole or not at all, never over an input, nothing
// left behind after a signal.
//
// Every file innosim writes (--series, --page-map, --svg, --html,
// --markdown, keys --output) goes through AtomicFileWriter: the data goes
// into an unnamed temporary in the target's folder (Linux O_TMPFILE),
// fsync, then linkat("/proc/self/fd/N") gives it the target's name; an
// existing target is replaced by linking to a unique name and renaming it
// over the target. A process killed at any moment (even SIGKILL) leaves the
// old file or the whole new one, and no temporary. Where the file system
// refuses O_TMPFILE (EOPNOTSUPP, EISDIR, EINVAL) a named temporary
// "TARGET.tmp.XXXXXX" is used, removed by SIGINT/SIGTERM handlers (not by
// SIGKILL). A symbolic link given as the output is written through: its
// target is replaced, the link stays, as a shell's `>` would.
//
// Outputs over inputs: NoteInputFile records each file the process reads
// (key files, tablespaces, option and experiment files); an output that is
// one of them (same st_dev/st_ino, or the same real path for a file not yet
// there) is refused by CheckOutputPath and AtomicFileWriter::Open.
#ifndef INNOSIM_SIM_OUTPUT_FILE_H_
#define INNOSIM_SIM_OUTPUT_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace innosim {

// Records `path` as an input of this process. Thread-safe.
void NoteInputFile(const std::string& path);
// InvalidArgument naming `what` and the path when writing `path` would
// replace a noted input; OK otherwise.
absl::Status CheckNotAnInput(const std::string& path, const std::string& what);

// Writes `content` to `path` (AtomicFileWriter: Open, Append, Commit). The
// file gets the mode a new file would (0666 & ~umask). On any failure
// `path` is left as it was and the error names the path and how to mend
// it. A directory or device at `path` is refused. Thread-safe.
absl::Status WriteFileAtomically(const std::string& path, const std::string& content);

// WriteFileAtomically filled piece by piece, for output too large to hold
// in memory. A writer destroyed (or an Append failing) before Commit leaves
// `path` as it was and nothing else. One writer per thread.
class AtomicFileWriter {
 public:
  AtomicFileWriter() = default;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  absl::Status Open(const std::string& path);
  absl::Status Append(std::string_view data);
  absl::Status Commit();
  // Whether Open got an unnamed temporary (O_TMPFILE), for tests.
  bool unnamed() const { return unnamed_; }

 private:
  absl::Status Fail(int err, const std::string& doing);
  void Discard();

  std::string path_;    // as given, for messages
  std::string target_;  // a symbolic link resolved
  std::string tmp_;     // the named temporary, when O_TMPFILE was refused
  int slot_ = -1;       // its place in the signal handlers' list
  int fd_ = -1;
  bool unnamed_ = false;
};

// Checks that the folder of `path` has room for `bytes` more (statvfs:
// blocks available to this user): InvalidArgument with one line giving the
// estimate and the free space otherwise, prefixed by `what` and the path.
absl::Status CheckRoomFor(const std::string& path, uint64_t bytes, const std::string& what);

// Tests: true makes AtomicFileWriter act as if O_TMPFILE were refused.
void UseNamedTemporariesForTest(bool on);

// Checks, before a long run, that WriteFileAtomically(path, ...) can
// succeed: the folder exists and takes a new file, `path` is not a
// directory, and not an input. InvalidArgument with one line otherwise,
// prefixed by `what` (the option, e.g. "--series") and the path:
//   "--series /nonexistent/x.csv: folder /nonexistent does not exist: ..."
absl::Status CheckOutputPath(const std::string& path, const std::string& what = "");

}  // namespace innosim

#endif  // INNOSIM_SIM_OUTPUT_FILE_H_
