// Every process group the supervisor started and has not reaped yet, in a
// fixed lock-free table, so a signal handler (or an exit path that cannot
// allocate) can kill them all: no service process may outlive fbc.
// Children also get PR_SET_PDEATHSIG(SIGKILL), which covers a supervisor
// killed with SIGKILL; this table covers the orderly and signalled exits.
#pragma once

#include <sys/types.h>

namespace fbc::rt {

void registerProcessGroup(pid_t pgid);
void unregisterProcessGroup(pid_t pgid);
// Async-signal-safe: sends `sig` to every registered group.
void signalAllProcessGroups(int sig);

// Installs SIGINT/SIGTERM/SIGHUP handlers that SIGKILL every registered
// group and then re-raise the signal with its default action (or, with
// exitCode >= 0, _exit(exitCode)). For programs that have no handler of
// their own; the CLI may instead call signalAllProcessGroups() itself.
void installKillOnSignal(int exitCode = -1);

} // namespace fbc::rt
