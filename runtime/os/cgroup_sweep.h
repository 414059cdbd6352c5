// Killing everything in a cgroup tree and removing its directories, with
// raw syscalls only (no allocation, no locks), so the same code serves the
// supervisor, the sweep of a dead run's leftovers at start, and the
// watchdog process that fbc forks from a possibly multi-threaded parent.
//
// The watchdog is what makes `kill -9` of fbc leave nothing behind: it
// holds the read end of a pipe whose write end only fbc holds (close-on-
// exec, never inherited by a service); when fbc dies for any reason the
// read returns EOF and the watchdog sweeps the run's cgroups.
#pragma once

#include <sys/types.h>

namespace fbc::rt {

// The roots of one run (or one leaf) in each hierarchy; "" where absent.
struct CgroupRoots {
  static constexpr int kPathMax = 512;
  char v2[kPathMax] = {};      // a cgroup2 directory (cgroup.kill, cgroup.events)
  char freezer[kPathMax] = {}; // a cgroup v1 freezer directory
  char pids[kPathMax] = {};    // a cgroup v1 pids directory
};

// Kills every process in the trees (cgroup.kill where the kernel has it,
// else freeze-kill-thaw on the v1 freezer, else repeated kills from
// cgroup.procs), waits up to `waitMs` for them to be gone, then removes the
// directories bottom-up (the roots too when `removeRoots`). Returns the
// number of processes still there (0: all gone). Async-signal-safe.
int sweepCgroups(const CgroupRoots &roots, bool removeRoots, int waitMs);

// Whether any process is left in the tree rooted at `dir` (cgroup.procs of
// it and its descendants). Async-signal-safe.
bool cgroupTreePopulated(const char *dir);

// Forks the watchdog (double fork, new session, every signal ignored but
// SIGKILL) that sweeps `roots` when the returned fd, the write end of its
// pipe, is closed, which happens only when this process ends. -1 on failure.
// Call before PR_SET_CHILD_SUBREAPER, so the watchdog is not our child.
int startCgroupWatchdog(const CgroupRoots &roots);

} // namespace fbc::rt
