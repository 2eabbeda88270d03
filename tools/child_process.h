// SpawnLogged: start a server program (mariadbd, initdb, pg_ctl) as a child
// with its stdout and stderr appended to a log file and stdin from
// /dev/null, so the private servers of the tests and of `measure
// --private-server` never write over innosim's own output or wait on its
// terminal. `in_child` runs in the child between fork and exec (switch
// user, change folder) and returns false to make the child exit 126; it
// must only make async-signal-safe calls. A failed exec exits 127.
#ifndef INNOSIM_TOOLS_CHILD_PROCESS_H_
#define INNOSIM_TOOLS_CHILD_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace innosim {

// Returns the child's pid; argv[0] is the program's full path.
absl::StatusOr<pid_t> SpawnLogged(
    const std::vector<std::string>& argv, const std::string& log,
    absl::FunctionRef<bool()> in_child = [] { return true; });

// Waits for `pid` (through EINTR): its exit status, or 128 + the signal
// that killed it.
int WaitForExit(pid_t pid);

}  // namespace innosim

#endif  // INNOSIM_TOOLS_CHILD_PROCESS_H_
