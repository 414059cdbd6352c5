// What `fbc run` needs from the kernel and its privileges, checked once at
// start so a missing feature is one clear message instead of every launch
// failing with EPERM or ENOSYS.
//
// Required: seccomp user notification with FLAG_CONTINUE (Linux 5.5),
// pidfd_open (5.3), pidfd_getfd (5.6), and ptrace access to our own
// children under Yama (ptrace_scope 3 forbids it, 2 needs CAP_SYS_PTRACE).
// Optional, reported as the containment mode: cgroups (cgroups.h) and
// SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (5.19).
#pragma once

#include <string>
#include <vector>

namespace fbc::rt {

struct Requirements {
  std::vector<std::string> missing; // each one stops the run: "seccomp user notification: ..."
  std::string containment;          // RunCgroups::description()
  bool cgroups = false;
  bool killableWait = false; // SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
};

// Checks everything (and sets up the run's cgroups and their watchdog: call
// it early, from the main thread).
Requirements checkRequirements();

// Whether the kernel takes SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (5.19+).
bool seccompKillableWaitSupported();

} // namespace fbc::rt
