// Every process group the supervisor started and has not reaped yet, in a
// fixed lock-free table, so a signal handler (or an exit path that cannot
// allocate) can kill them all: no service process may outlive fbc.
// Children also get PR_SET_PDEATHSIG(SIGKILL); a leaf's cgroups and their
// watchdog (cgroups.h) cover a supervisor killed with SIGKILL and services
// that leave their group; this table covers the orderly and signalled exits.
#pragma once

#include <sys/types.h>

namespace fbc::rt {

inline constexpr int kMaxProcessGroups = 512;

// False when the table is full (kMaxProcessGroups groups running): the
// launch then fails rather than start a group no signal handler could kill.
bool registerProcessGroup(pid_t pgid);
void unregisterProcessGroup(pid_t pgid);
// Async-signal-safe: sends `sig` to every registered group.
void signalAllProcessGroups(int sig);

// Installs SIGINT/SIGTERM/SIGHUP handlers that SIGKILL every registered
// group and then re-raise the signal with its default action (or, with
// exitCode >= 0, _exit(exitCode)). For programs that have no handler of
// their own; the CLI may instead call signalAllProcessGroups() itself.
void installKillOnSignal(int exitCode = -1);

// SIGKILLs and reaps every child of this process, and again for those that
// get reparented to it meanwhile (fbc is a child subreaper), until none is
// left or `waitMs` passes. For the end of a leaf, when every service's main
// process has been reaped: what is left are orphans that left their process
// group (setsid()) and, without cgroups, would outlive the test.
void killOrphans(int waitMs);

// Whether process `pid` is on its way out or gone: the kernel marks a task
// exiting (PF_EXITING in /proc/<pid>/stat) before it closes its files, so
// a client that saw the connection close on a crash already sees this,
// where the exit notification (the pidfd, waitid) may come a moment later.
bool processExiting(pid_t pid);

} // namespace fbc::rt
