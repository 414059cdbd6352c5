// One fbc command run as a child process for `fbc mcp`: every tool call runs
// the same `fbc` binary with --format=json, so the server answers with what
// the command line prints (one source for each output), and a command that
// fails, or a run that forks services and installs signal handlers, cannot
// take the server down with it.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace fbc::tools::mcp {

struct ChildResult {
  int exit = -1;          // the exit status; 128 + N when killed by signal N
  std::string out;        // stdout, whole
  std::string err;        // stderr, whole
  std::string spawnError; // non-empty: the child did not start
};

// Runs `argv` (argv[0] a path) with stdin on /dev/null. `onStarted` gets
// the child's pid (to signal it on cancellation); `onErrLine` each complete
// line of stderr as it arrives (without the newline).
ChildResult runChild(const std::vector<std::string> &argv,
                     const std::function<void(pid_t)> &onStarted,
                     const std::function<void(const std::string &)> &onErrLine);

// This process's executable (/proc/self/exe), for re-running fbc.
std::string selfExecutable();

} // namespace fbc::tools::mcp
