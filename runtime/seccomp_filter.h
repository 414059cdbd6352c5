// The BPF program a service runs under: SCMP_ACT_NOTIFY for exactly the
// given syscall numbers, SCMP_ACT_ALLOW for everything else. libseccomp
// builds it in the supervisor, before fork, and the child installs the
// finished instructions with one seccomp(2) call: the child then needs no
// allocation (which is unsafe after fork in a threaded process) and no
// libseccomp state.
//
// The program only looks at the architecture and the syscall number, never
// at arguments, so the kernel's per-syscall action cache allows every
// untrapped syscall without running the filter at all: untrapped syscalls
// stay at native speed.
#pragma once

#include <linux/filter.h>

#include <span>
#include <string>
#include <vector>

namespace fbc::rt {

bool buildNotifyFilter(std::span<const int> nrs, std::vector<sock_filter> &out, std::string &error);

} // namespace fbc::rt
