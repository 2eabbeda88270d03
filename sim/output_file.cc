#include "sim/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"

namespace innosim {
namespace {

std::atomic<bool> g_named_only{false};

// ---------------------------------------------------------------------------
// Named temporaries and the signals that must remove them. The handler may
// only call async-signal-safe functions: the names live in fixed buffers.
constexpr int kSlots = 32;
constexpr size_t kNameMax = 4096;
char g_names[kSlots][kNameMax];
std::atomic<bool> g_used[kSlots];
std::once_flag g_handlers_once;

extern "C" void RemoveTemporariesAndDie(int sig) {
  for (int i = 0; i < kSlots; ++i) {
    if (g_used[i].load()) ::unlink(g_names[i]);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void InstallHandlers() {
  std::call_once(g_handlers_once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // ignored or taken: leave it
      struct sigaction sa {};
      sa.sa_handler = RemoveTemporariesAndDie;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// Claims a slot for `name` (-1 when all are taken: the name is then not
// removed on a signal).
int Register(const std::string& name) {
  if (name.size() >= kNameMax) return -1;
  InstallHandlers();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    // Claimed before the name is written; the handler may unlink a
    // half-written name, which names nothing.
    if (g_used[i].compare_exchange_strong(expected, true)) {
      std::memcpy(g_names[i], name.c_str(), name.size() + 1);
      return i;
    }
  }
  return -1;
}

void Unregister(int slot) {
  if (slot >= 0) g_used[slot].store(false);
}

// ---------------------------------------------------------------------------
// Inputs.
std::mutex g_inputs_mu;
std::vector<std::string>& Inputs() {
  static std::vector<std::string>* v = new std::vector<std::string>;
  return *v;
}

// The process's umask, read without changing it (umask(2) can only be read
// by setting it, which races with other threads creating files).
mode_t CurrentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  const mode_t m = ::umask(022);
  ::umask(m);
  return m;
}

// The folder a file of `path` lives in ("." for a bare name).
std::string FolderOf(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

// How to mend an errno met while creating a file in `folder`.
std::string FolderProblem(int err, const std::string& folder) {
  switch (err) {
    case ENOENT:
      return absl::StrCat("folder ", folder, " does not exist: create it or name a file in another folder");
    case ENOTDIR:
      return absl::StrCat(folder, " is not a folder: name a file in an existing folder");
    case EACCES:
    case EPERM:
    case EROFS:
      return absl::StrCat("folder ", folder, " is not writable (", std::strerror(err),
                          "): name a file in another folder");
    default:
      return absl::StrCat("cannot create a file in ", folder, ": ", std::strerror(err));
  }
}

// The file a write to `path` replaces: a symbolic link is followed, as a
// shell's `>` would (renaming over the link would replace the link itself).
std::string ResolveTarget(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_symlink(path, ec)) {
    std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
    if (!ec) return resolved.string();
  }
  return path;
}

// An error when `path` names something other than a regular file (a
// directory, a device, a FIFO): a rename would replace it.
absl::Status CheckTarget(const std::string& path, const std::string& shown) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return absl::OkStatus();  // a new file; the folder is checked on creation
  if (S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(shown, ": is a directory: name a file, e.g. ", (std::filesystem::path(path) / "out").string()));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(shown, ": is not a regular file: name a file to write"));
  }
  return absl::OkStatus();
}

// Creates a unique named temporary beside `target` ("TARGET.tmp.XXXXXX"),
// registered for removal on SIGINT/SIGTERM: its descriptor, name and slot,
// or -1 and errno.
int MakeNamedTemporary(const std::string& target, std::string* name, int* slot) {
  std::vector<char> templ(target.begin(), target.end());
  for (char c : std::string_view(".tmp.XXXXXX")) templ.push_back(c);
  templ.push_back('\0');
  // Blocking the signals between creation and registration closes the
  // window in which a SIGINT would leave the name behind.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  InstallHandlers();
  ::pthread_sigmask(SIG_BLOCK, &block, &old);
  const int fd = ::mkstemp(templ.data());
  const int err = errno;
  if (fd >= 0) {
    *name = templ.data();
    *slot = Register(*name);
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = err;
  return fd;
}

// An unnamed temporary in `folder` (O_TMPFILE), or -1 and errno.
int MakeUnnamedTemporary(const std::string& folder) {
  if (g_named_only.load()) {
    errno = EOPNOTSUPP;
    return -1;
  }
  return ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

bool TmpfileRefused(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL; }

// Gives the unnamed file `fd` the name `name` (which must not exist).
int LinkUnnamed(int fd, const std::string& name) {
  const std::string proc = absl::StrCat("/proc/self/fd/", fd);
  if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
  if (errno != ENOENT) return -1;
  // No /proc: AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH).
  return ::linkat(fd, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH);
}

bool SameFile(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

}  // namespace

void UseNamedTemporariesForTest(bool on) { g_named_only.store(on); }

void NoteInputFile(const std::string& path) {
  if (path.empty()) return;
  std::lock_guard<std::mutex> lock(g_inputs_mu);
  Inputs().push_back(path);
}

absl::Status CheckNotAnInput(const std::string& path, const std::string& what) {
  std::vector<std::string> inputs;
  {
    std::lock_guard<std::mutex> lock(g_inputs_mu);
    inputs = Inputs();
  }
  if (inputs.empty()) return absl::OkStatus();
  const std::string shown = what.empty() ? path : absl::StrCat(what, " ", path);
  struct stat out;
  const bool out_exists = ::stat(path.c_str(), &out) == 0;
  std::error_code ec;
  const std::filesystem::path out_real = std::filesystem::weakly_canonical(path, ec);
  for (const std::string& in : inputs) {
    struct stat st;
    bool same = false;
    if (out_exists && ::stat(in.c_str(), &st) == 0) {
      same = SameFile(out, st);
    } else {
      std::error_code ec2;
      const std::filesystem::path in_real = std::filesystem::weakly_canonical(in, ec2);
      same = !ec && !ec2 && in_real == out_real;
    }
    if (same) {
      return absl::InvalidArgumentError(absl::StrCat(shown, ": is also an input (", in,
                                                     "); writing it would replace what is read: name another file"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutputPath(const std::string& path, const std::string& what) {
  const std::string shown = what.empty() ? path : absl::StrCat(what, " ", path);
  if (path.empty()) return absl::InvalidArgumentError(absl::StrCat(what.empty() ? "output" : what, ": no file named"));
  const std::string target = ResolveTarget(path);
  if (absl::Status s = CheckTarget(target, shown); !s.ok()) return s;
  if (absl::Status s = CheckNotAnInput(target, what); !s.ok()) return s;
  // The one sure test that the folder takes a new file is to make one: an
  // unnamed one, which leaves nothing even if the process dies here.
  int fd = MakeUnnamedTemporary(FolderOf(target));
  if (fd < 0 && TmpfileRefused(errno)) {
    std::string probe;
    int slot = -1;
    fd = MakeNamedTemporary(target, &probe, &slot);
    if (fd >= 0) {
      ::unlink(probe.c_str());
      Unregister(slot);
    }
  }
  if (fd < 0) {
    return absl::InvalidArgumentError(absl::StrCat(shown, ": ", FolderProblem(errno, FolderOf(target))));
  }
  ::close(fd);
  return absl::OkStatus();
}

absl::Status CheckRoomFor(const std::string& path, uint64_t bytes, const std::string& what) {
  const std::string target = ResolveTarget(path);
  const std::string folder = FolderOf(target);
  struct statvfs vfs;
  if (::statvfs(folder.c_str(), &vfs) != 0) return absl::OkStatus();  // unknown: the writes will tell
  const unsigned __int128 free_bytes = static_cast<unsigned __int128>(vfs.f_bavail) * vfs.f_frsize;
  if (bytes <= free_bytes) return absl::OkStatus();
  const auto gb = [](double b) { return b / 1e9; };
  char line[256];
  std::snprintf(line, sizeof line, "needs about %llu bytes (%.1f GB) but %s has %llu bytes (%.1f GB) free",
                static_cast<unsigned long long>(bytes), gb(static_cast<double>(bytes)), folder.c_str(),
                static_cast<unsigned long long>(free_bytes), gb(static_cast<double>(free_bytes)));
  return absl::InvalidArgumentError(absl::StrCat(what.empty() ? path : absl::StrCat(what, " ", path), ": ", line,
                                                 ": write fewer rows or name a file on a disk with room"));
}

absl::Status WriteFileAtomically(const std::string& path, const std::string& content) {
  AtomicFileWriter out;
  if (absl::Status st = out.Open(path); !st.ok()) return st;
  if (absl::Status st = out.Append(content); !st.ok()) return st;
  return out.Commit();
}

AtomicFileWriter::~AtomicFileWriter() { Discard(); }

void AtomicFileWriter::Discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  Unregister(slot_);
  slot_ = -1;
}

absl::Status AtomicFileWriter::Fail(int err, const std::string& doing) {
  Discard();
  std::string mend = "check the disk and try again";
  if (err == ENOSPC || err == EDQUOT || err == EFBIG) mend = "free space or name a file on another disk";
  if (err == EISDIR) mend = "name a file, not a directory";
  return absl::InternalError(absl::StrCat(doing, " ", path_, " failed: ", std::strerror(err), " (", mend, ")"));
}

absl::Status AtomicFileWriter::Open(const std::string& path) {
  if (fd_ >= 0) return absl::FailedPreconditionError("AtomicFileWriter::Open called twice");
  if (path.empty()) return absl::InvalidArgumentError("no output file named");
  path_ = path;
  target_ = ResolveTarget(path);
  if (absl::Status s = CheckTarget(target_, path); !s.ok()) return s;
  if (absl::Status s = CheckNotAnInput(target_, ""); !s.ok()) return s;
  int fd = MakeUnnamedTemporary(FolderOf(target_));
  unnamed_ = fd >= 0;
  if (fd < 0 && TmpfileRefused(errno)) {
    fd = MakeNamedTemporary(target_, &tmp_, &slot_);
    // mkstemp makes the file 0600; give it the mode open(2) would have.
    if (fd >= 0 && ::fchmod(fd, 0666 & ~CurrentUmask()) != 0) {
      fd_ = fd;
      return Fail(errno, "setting the mode of");
    }
  }
  if (fd < 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot write ", path, ": ", FolderProblem(errno, FolderOf(target_))));
  }
  fd_ = fd;
  return absl::OkStatus();
}

absl::Status AtomicFileWriter::Append(std::string_view data) {
  if (fd_ < 0) return absl::FailedPreconditionError("AtomicFileWriter::Append without Open");
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Fail(n < 0 ? errno : EIO, "writing");
    p += n;
    left -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status AtomicFileWriter::Commit() {
  if (fd_ < 0) return absl::FailedPreconditionError("AtomicFileWriter::Commit without Open");
  // The data reaches the disk before the name does: a crash leaves the old
  // file or the new one, never an empty new one.
  if (::fsync(fd_) != 0) return Fail(errno, "writing");
  if (unnamed_) {
    // A new file takes the name at once; an existing one is replaced by a
    // link to a unique name renamed over it (linkat never replaces). That
    // name is registered for the signal handlers while it exists.
    if (LinkUnnamed(fd_, target_) != 0) {
      if (errno != EEXIST) return Fail(errno, "naming");
      for (int attempt = 0;; ++attempt) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, ".tmp.%d.%d", static_cast<int>(::getpid()), attempt);
        const std::string name = target_ + suffix;
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        InstallHandlers();
        ::pthread_sigmask(SIG_BLOCK, &block, &old);
        const int rc = LinkUnnamed(fd_, name);
        const int err = errno;
        if (rc == 0) {
          tmp_ = name;
          slot_ = Register(name);
        }
        ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
        if (rc == 0) break;
        if (err != EEXIST || attempt > 100) return Fail(err, "naming");
      }
    }
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return Fail(errno, "writing");
  if (!tmp_.empty()) {
    if (::rename(tmp_.c_str(), target_.c_str()) != 0) return Fail(errno, "renaming into");
    tmp_.clear();
    Unregister(slot_);
    slot_ = -1;
  }
  const int dir = ::open(FolderOf(target_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return absl::OkStatus();
}

}  // namespace innosim
