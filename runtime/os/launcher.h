// Starts one service process under a seccomp user-notification filter and
// hands its listener fd to the supervisor without a race.
//
// The child (clone, then only raw syscalls: the parent may be threaded; it
// shares our memory until its exec, and launch() returns only after that
// exec, unless it switches user or its filter traps exec: then it gets a
// copy, as with fork; launcher.cpp, spawnChild):
//   write "0" to each cgroup.procs fd  joins the leaf's service cgroups
//   setpgid(0, 0)                     its own process group, killed as a whole
//   PR_SET_PDEATHSIG(SIGKILL)         dies with the supervisor's thread
//   default signal dispositions and mask; stdin /dev/null, stdout/stderr pipes
//   chdir; every inherited fd >= 3 marked close-on-exec
//   with a user: setgroups, setresgid, setresuid (raw syscalls; the account
//     was looked up by the parent), then PR_SET_PDEATHSIG again (a
//     credential change clears it)
//   PR_SET_NO_NEW_PRIVS
//   send the number the listener will get (the lowest free fd) on the
//     control socket: after the filter is in, any syscall may be trapped,
//     and nobody would answer yet
//   getpid()                          (cached: after the filter it may be trapped)
//   seccomp(SET_MODE_FILTER, NEW_LISTENER | WAIT_KILLABLE_RECV)
//   kill(self, SIGSTOP)               `kill` is never trapped (see below)
// Between the filter and the parent's SIGCONT nobody serves the listener,
// so the child makes no syscall there but `kill`, on its failure path too
// (an unexpected listener fd number: kill(self, SIGKILL), no dup3, no
// exit_group).
// The parent waits for the stop (waitid WSTOPPED on the pidfd), copies the
// listener with pidfd_getfd, sets SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on it,
// and sends SIGCONT; the child execs. The listener is close-on-exec in the
// child, but the parent's copy holds it open, and the parent took it while
// the child was stopped, before the exec that closes it: no race.
//
// An exec failure is reported on the control socket (whose child end is
// close-on-exec, so EOF means the exec succeeded). With a filter that
// report may itself be a trapped syscall: a child sharing our memory
// leaves its errno there and kills itself instead (launch() reads it); one
// with a copy reports on the socket, so the caller serves the listener
// before awaitExec().
//
// `kill` is reserved: a filter that trapped it would stop the handshake, so
// buildNotifyFilter's callers never get it in a trap set (launch refuses).
#pragma once

#include "runtime/os/seccomp_filter.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace fbc::rt {

struct LaunchSpec {
  std::string binary;            // a path, or a name looked up in PATH
  std::vector<std::string> args; // argv[1..]
  std::vector<std::string> env;  // KEY=VALUE, added to (or replacing in) the inherited env
  bool inheritEnv = true;
  std::string cwd;          // empty: the supervisor's
  std::vector<int> trapped; // syscall numbers
  // Traps on some calls only, by argument (observed entries: unmediated_io.h).
  std::vector<ConditionalTrap> conditional;
  // Neither: no filter at all.
  bool filtered() const { return !trapped.empty() || !conditional.empty(); }
  // cgroup.procs files (opened by the caller) the child joins first; empty:
  // no cgroup (process groups only).
  std::vector<int> joinCgroups;
  // The account to run as (service(user=)): its uid, primary group and
  // supplementary groups, with HOME, USER and LOGNAME set from it (env=
  // still wins). Empty: fbc's own.
  std::string user;
};

struct LaunchError {
  enum class Kind { None, MissingBinary, Spawn, Filter, Exec, Resources };
  Kind kind = Kind::None;
  std::string message;
};

struct Launched {
  pid_t pid = -1;
  int pidfd = -1;
  int listener = -1; // -1 when nothing is trapped
  int stdoutFd = -1; // read ends, non-blocking
  int stderrFd = -1;
  int ctrlFd = -1;         // until awaitExec()
  bool syncWakeUp = false; // SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP is set
  // SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV took (Linux 5.19+): once the
  // supervisor has received a trapped syscall, only a fatal signal can end
  // its wait, so it is never interrupted and restarted (decided twice).
  bool killableWait = false;
  std::string resolvedBinary;
};

// Starts the child, installs the filter, takes the listener and lets the
// child go on to exec. On failure nothing is left running and every fd is
// closed.
bool launch(const LaunchSpec &spec, Launched &out, LaunchError &err);
// Blocks until the child has exec'd (true) or reported an exec failure.
bool awaitExec(Launched &l, LaunchError &err);
// Closes every fd in `l` (not the process).
void closeLaunched(Launched &l);

// Resolves `binary` like execvp: a name without '/' through PATH. Empty
// when nothing executable is found.
std::string resolveBinary(const std::string &binary);

} // namespace fbc::rt
