// Syscall names and numbers on the native architecture (through
// libseccomp, so the numbers come from the kernel headers it was built
// with, not from a hand-written table), and where each syscall keeps
// the argument a rule looks at.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

// Numbers at or above this are not tabulated (no native syscall is there).
inline constexpr int kMaxSyscall = 1024;

// -1 when the name is not a syscall of the native architecture.
int syscallNumber(std::string_view name);
// The name of a native syscall number; "syscall_<n>" when it has none.
std::string_view syscallName(int nr);

// The kind of destination argument a network syscall carries.
enum class DestArg : uint8_t {
  None,
  Sockaddr, // connect(fd, addr, len): addr is args[1]
  SendTo,   // sendto(fd, buf, len, flags, addr, len): addr is args[4], may be NULL
  MsgHdr,   // sendmsg(fd, msghdr*, flags): msg_name inside, may be NULL
  MMsgHdr,  // sendmmsg(fd, mmsghdr*, n, flags): the first message's msg_name
};

// Where a syscall keeps what a rule filters on.
struct SyscallShape {
  int8_t pathArg = -1;  // index of a `const char *` path
  int8_t dirfdArg = -1; // index of the dirfd the path is relative to
  int8_t fdArg = -1;    // index of a file descriptor resolved via /proc/<pid>/fd
  DestArg dest = DestArg::None;
};

// The shape of a native syscall (all -1/None for syscalls with nothing to read).
const SyscallShape &syscallShape(int nr);

// True for the syscalls whose rules on a service B also reach other services'
// calls to B's ports (connect and the sendto family).
bool isDestinationSyscall(int nr);

} // namespace fbc::rt
