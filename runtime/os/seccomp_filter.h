// The BPF program a service runs under: SCMP_ACT_NOTIFY for exactly the
// given syscall numbers, SCMP_ACT_ALLOW for everything else. libseccomp
// builds it in the supervisor, before fork, and the child installs the
// finished instructions with one seccomp(2) call: the child then needs no
// allocation (which is unsafe after fork in a threaded process) and no
// libseccomp state.
//
// The program looks at the architecture and the syscall number, and at
// arguments only for the conditional traps of observed entries (mmap of a
// shared writable file, an addressed sendto, a raw socket: see
// unmediated_io.h). The kernel's per-syscall action cache still allows
// every other untrapped syscall without running the filter at all:
// untrapped syscalls stay at native speed.
#pragma once

#include <linux/filter.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fbc::rt {

// (args[arg] & mask) == value, or != value when `equal` is false.
struct ArgTest {
  unsigned arg = 0;
  bool equal = true;
  uint64_t mask = ~uint64_t(0);
  uint64_t value = 0;
};

// Syscall `nr` is trapped when any alternative holds (all its tests).
struct ConditionalTrap {
  int nr = -1;
  std::vector<std::vector<ArgTest>> anyOf;
};

// `nrs` are trapped unconditionally (a conditional trap on one of them is
// dropped: the call is trapped anyway).
bool buildNotifyFilter(std::span<const int> nrs, std::span<const ConditionalTrap> conditional,
                       std::vector<sock_filter> &out, std::string &error);
// Unconditional traps only.
inline bool buildNotifyFilter(std::span<const int> nrs, std::vector<sock_filter> &out,
                              std::string &error) {
  return buildNotifyFilter(nrs, {}, out, error);
}

} // namespace fbc::rt
