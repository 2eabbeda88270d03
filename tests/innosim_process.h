// Runs the built innosim binary (INNOSIM_BINARY) as a user would, for the
// tests of the command line.
#ifndef INNOSIM_TESTS_INNOSIM_PROCESS_H_
#define INNOSIM_TESTS_INNOSIM_PROCESS_H_

#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace innosim {

struct Output {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs INNOSIM_BINARY with `args` (every argument single-quoted, so no shell
// word splitting surprises) and captures stdout, stderr (through
// `err_file`) and the exit code.
inline Output RunInnosim(const std::vector<std::string>& args, const std::string& err_file) {
  std::string cmd = std::string("'") + INNOSIM_BINARY + "'";
  for (const std::string& a : args) {
    std::string q;
    for (char c : a) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    cmd += " '" + q + "'";
  }
  cmd += " 2>'" + err_file + "'";
  Output o;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return o;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) o.out.append(buf, n);
  const int status = ::pclose(p);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (FILE* f = std::fopen(err_file.c_str(), "r")) {
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) o.err.append(buf, n);
    std::fclose(f);
  }
  std::remove(err_file.c_str());
  return o;
}

// Starts INNOSIM_BINARY with `args` as a child process (no shell), stdout
// to `out_file` and stderr to `err_file`; returns its pid (-1 on failure).
// For tests that signal the process while it runs; reap it with WaitInnosim.
inline pid_t SpawnInnosim(const std::vector<std::string>& args, const std::string& out_file,
                          const std::string& err_file) {
  std::vector<std::string> argv_s = {INNOSIM_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0 || err < 0) ::_exit(127);
  ::dup2(out, STDOUT_FILENO);
  ::dup2(err, STDERR_FILENO);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// Waits for `pid`; its exit code, or 1000 + the signal that ended it.
inline int WaitInnosim(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 1000 + WTERMSIG(status);
  return -1;
}

// The whole content of a file ("" when it cannot be read).
inline std::string ReadWholeFile(const std::string& path) {
  std::string s;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
  }
  return s;
}

}  // namespace innosim

#endif  // INNOSIM_TESTS_INNOSIM_PROCESS_H_
