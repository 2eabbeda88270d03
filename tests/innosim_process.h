// Runs the built innosim binary (INNOSIM_BINARY) as a user would, for the
// tests of the command line.
#ifndef INNOSIM_TESTS_INNOSIM_PROCESS_H_
#define INNOSIM_TESTS_INNOSIM_PROCESS_H_

#include <stdio.h>
#include <sys/wait.h>

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

}  // namespace innosim

#endif  // INNOSIM_TESTS_INNOSIM_PROCESS_H_
