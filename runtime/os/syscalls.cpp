#include "runtime/os/syscalls.h"

#include "ir/syscalls.h"

#include <array>
#include <cstdlib>
#include <memory>

namespace fbc::rt {
namespace {

// Path-carrying syscalls: name, path argument, dirfd argument.
struct PathSpec {
  std::string_view name;
  int8_t path;
  int8_t dirfd;
};
constexpr PathSpec kPathSyscalls[] = {
    {"open", 0, -1},      {"creat", 0, -1},     {"openat", 1, 0},     {"openat2", 1, 0},
    {"mkdir", 0, -1},     {"mkdirat", 1, 0},    {"unlink", 0, -1},    {"unlinkat", 1, 0},
    {"rmdir", 0, -1},     {"rename", 0, -1},    {"renameat", 1, 0},   {"renameat2", 1, 0},
    {"link", 1, -1},      {"linkat", 3, 2},     {"symlink", 1, -1},   {"symlinkat", 2, 1},
    {"access", 0, -1},    {"faccessat", 1, 0},  {"faccessat2", 1, 0}, {"stat", 0, -1},
    {"lstat", 0, -1},     {"newfstatat", 1, 0}, {"statx", 1, 0},      {"readlink", 0, -1},
    {"readlinkat", 1, 0}, {"truncate", 0, -1},  {"chdir", 0, -1},     {"chmod", 0, -1},
    {"fchmodat", 1, 0},   {"chown", 0, -1},     {"lchown", 0, -1},    {"fchownat", 1, 0},
    {"utimensat", 1, 0},  {"mknod", 0, -1},     {"mknodat", 1, 0},
};

// fd-carrying syscalls (the fd is args[0] for all of these).
constexpr std::string_view kFdSyscalls[] = {
    "write",     "writev",   "pwrite64", "pwritev",    "pwritev2",        "read",
    "readv",     "pread64",  "preadv",   "preadv2",    "fsync",           "fdatasync",
    "ftruncate", "fchmod",   "fchown",   "fallocate",  "sync_file_range", "close",
    "flock",     "fstat",    "lseek",    "getdents64", "sendto",          "sendmsg",
    "sendmmsg",  "recvfrom", "recvmsg",  "recvmmsg",   "connect",
};

struct Tables {
  std::array<std::string, kMaxSyscall> names;
  std::array<SyscallShape, kMaxSyscall> shapes{};
  std::array<bool, kMaxSyscall> destination{};

  Tables() {
    for (int nr = 0; nr < kMaxSyscall; ++nr) {
      // Resolved once, so lookups never allocate.
      names[nr] = ir::syscallNameOf(nr);
    }
    for (const PathSpec &p : kPathSyscalls)
      if (SyscallShape *s = shape(p.name)) {
        s->pathArg = p.path;
        s->dirfdArg = p.dirfd;
      }
    for (std::string_view n : kFdSyscalls)
      if (SyscallShape *s = shape(n))
        s->fdArg = 0;
    setDest("connect", DestArg::Sockaddr);
    setDest("sendto", DestArg::SendTo);
    setDest("sendmsg", DestArg::MsgHdr);
    setDest("sendmmsg", DestArg::MMsgHdr);
  }

  SyscallShape *shape(std::string_view name) {
    int nr = syscallNumber(name);
    return nr >= 0 && nr < kMaxSyscall ? &shapes[nr] : nullptr;
  }
  void setDest(std::string_view name, DestArg d) {
    int nr = syscallNumber(name);
    if (nr >= 0 && nr < kMaxSyscall) {
      shapes[nr].dest = d;
      destination[nr] = true;
    }
  }
};

const Tables &tables() {
  static const Tables t;
  return t;
}

} // namespace

int syscallNumber(std::string_view name) {
  return ir::syscallNumber(name);
}

std::string_view syscallName(int nr) {
  if (nr >= 0 && nr < kMaxSyscall)
    return tables().names[nr];
  thread_local std::string other;
  other = "syscall_" + std::to_string(nr);
  return other;
}

const SyscallShape &syscallShape(int nr) {
  static const SyscallShape none;
  return nr >= 0 && nr < kMaxSyscall ? tables().shapes[nr] : none;
}

bool isDestinationSyscall(int nr) {
  return nr >= 0 && nr < kMaxSyscall && tables().destination[nr];
}

} // namespace fbc::rt
