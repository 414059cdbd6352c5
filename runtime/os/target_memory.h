// Reading a trapped syscall's arguments out of the target: strings and
// structs through process_vm_readv (one syscall, no /proc/<pid>/mem open),
// fd paths through /proc/<tid>/fd/<n>, socket peers through pidfd_getfd.
// These reads race with the target (another thread may change the memory,
// the thread may die and its tid be reused), so the caller checks
// SECCOMP_IOCTL_NOTIF_ID_VALID after reading and before acting.
#pragma once

#include "runtime/os/sockaddr.h"

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fbc::rt {

// Reads `len` bytes at `addr`. False on any short read.
bool readTargetMemory(pid_t tid, uint64_t addr, void *buf, size_t len);
// Reads a NUL-terminated string of at most `max` bytes at `addr` into `out`
// (reusing its capacity). False if unreadable or unterminated within `max`.
bool readTargetString(pid_t tid, uint64_t addr, std::string &out, size_t max = 4096);
// readlink("/proc/<tid>/fd/<fd>") into `out`: "/tmp/wal", "socket:[123]".
bool readTargetFdPath(pid_t tid, int fd, std::string &out);
// readlink("/proc/<tid>/cwd").
bool readTargetCwd(pid_t tid, std::string &out);
// The target's descriptor `fd`, duplicated into this process with
// pidfd_getfd (the caller closes it); -1 when it cannot be.
int borrowTargetFd(pid_t tid, int fd);
// The peer address of the target's socket `fd` (for send() on a connected
// socket, which names no address): borrows the fd with borrowTargetFd().
bool readTargetPeer(pid_t tid, int fd, Destination &out);

} // namespace fbc::rt
