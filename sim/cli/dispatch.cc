// Registry::Dispatch, Fail and Warn: what every subcommand ends with.
//
// Dispatch runs the chosen subcommand, then flushes and closes stdout and
// checks that every write to it reached its destination: a full disk
// (`> /dev/full`) or a closed descriptor is exit 3 with one line, never
// exit 0 with the output lost. Fail prints one line, user input in it made
// printable (sim/printable.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <set>
#include <string>

#include "sim/cli/commands.h"
#include "sim/printable.h"
#include "sim/runner.h"

namespace innosim::cli {
namespace {

// Exit code after the handler returned `code`: 3 when stdout lost output
// and the handler had not already failed.
int FinishStdout(int code) {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  int err = errno;
  const bool clean = flushed && !std::ferror(stdout) && !std::cout.fail();
  errno = 0;
  const bool closed = std::fclose(stdout) == 0;
  if (err == 0) err = errno;
  if ((clean && closed) || (code != 0 && code != 1)) return code;
  return Fail(3, std::string("writing the output to stdout failed") +
                     (err != 0 ? std::string(": ") + std::strerror(err) : std::string()) +
                     " (is the disk full or the pipe closed? write to a file with room)");
}

// An option given an empty value (--page-size "", keys --output "") is an
// error, not the option left out: "" is never a value innosim takes.
int CheckNoEmptyValue(const CLI::App& sub) {
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->count() == 0 || opt->get_expected_min() == 0) continue;  // not given, or a flag
    for (const std::string& v : opt->results()) {
      if (v.empty()) {
        return Fail(2, opt->get_name() + " is empty: give a value or leave the option out (" + sub.get_name() +
                           " --help)");
      }
    }
  }
  return 0;
}

}  // namespace

int Registry::Dispatch(CLI::App& app) {
  for (auto& [sub, handler] : handlers_) {
    if (!sub->parsed()) continue;
    if (int code = CheckNoEmptyValue(*sub); code != 0) return FinishStdout(code);
    return FinishStdout(handler());
  }
  return Fail(2, "no subcommand given: use one of " + SubcommandNames(app) + " (innosim --help)");
}

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "innosim: %s\n", Printable(message).c_str());
  return code;
}

void Warn(const std::string& message) {
  static std::mutex mu;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mu);
  if (!said.insert(message).second) return;
  std::fprintf(stderr, "innosim: warning: %s\n", Printable(message).c_str());
}

void WarnSettingsOf(const RunSpec& spec) {
  absl::StatusOr<RunConfig> config = ConfigFor(spec);
  if (!config.ok()) return;
  for (const std::string& w : config->server.warnings) Warn(w);
}

}  // namespace innosim::cli
