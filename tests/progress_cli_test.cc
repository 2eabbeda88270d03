// The progress line as a user meets it: drawn on a terminal (a
// pseudo-terminal here, forkpty), never into a pipe, silenced by --quiet.
// INNOSIM_PROGRESS_AFTER_S=0.3 lets a run of a few seconds show it (the
// default waits 2 s, which a fast machine may not reach).
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/innosim_process.h"

namespace innosim {
namespace {

struct TerminalOutput {
  int exit_code = -1;
  std::string text;  // stdout and stderr, as the terminal received them
};

// Runs INNOSIM_BINARY with `args` on a new pseudo-terminal (stdin, stdout
// and stderr) with INNOSIM_PROGRESS_AFTER_S=0.3.
TerminalOutput OnTerminal(const std::vector<std::string>& args) {
  std::vector<std::string> argv_s = {INNOSIM_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    ::setenv("INNOSIM_PROGRESS_AFTER_S", "0.3", 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  TerminalOutput o;
  if (pid < 0) return o;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n > 0) {
      o.text.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO: the child closed the terminal
    }
  }
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

const std::vector<std::string> kLongRun = {"run", "--stream", "uuidv4", "--rows", "3M", "--no-flush"};

TEST(ProgressCliTest, DrawnOnATerminalAndClearedBeforeTheResults) {
  const TerminalOutput o = OnTerminal(kLongRun);
  ASSERT_EQ(o.exit_code, 0) << o.text;
  const size_t line = o.text.find("\rinnosim: ");
  ASSERT_NE(line, std::string::npos) << o.text;
  EXPECT_NE(o.text.find("/3.00M rows, ", line), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(" rows/s, ", line), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(" elapsed, ETA ", line), std::string::npos) << o.text;
  // Cleared, then the results.
  const size_t clear = o.text.rfind("\r\x1b[K");
  ASSERT_NE(clear, std::string::npos) << o.text;
  EXPECT_GT(o.text.find("index_page_splits", clear), clear) << o.text;
}

TEST(ProgressCliTest, QuietOnATerminalDrawsNothing) {
  std::vector<std::string> args = kLongRun;
  args.push_back("--quiet");
  const TerminalOutput o = OnTerminal(args);
  ASSERT_EQ(o.exit_code, 0) << o.text;
  EXPECT_EQ(o.text.find("rows/s"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("\x1b[K"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("index_page_splits"), std::string::npos) << o.text;
}

TEST(ProgressCliTest, NeverDrawnIntoAPipe) {
  ::setenv("INNOSIM_PROGRESS_AFTER_S", "0", 1);
  const Output o = RunInnosim(kLongRun, ::testing::TempDir() + "/progress_cli_err");
  ::unsetenv("INNOSIM_PROGRESS_AFTER_S");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err.find('\r'), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("rows/s"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find('\r'), std::string::npos);
  EXPECT_NE(o.out.find("index_page_splits"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace innosim
