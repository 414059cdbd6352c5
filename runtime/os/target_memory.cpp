#include "runtime/os/target_memory.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace fbc::rt {
namespace {

constexpr uint64_t kPage = 4096;

bool readLink(const char *link, std::string &out) {
  char buf[4096];
  ssize_t n = readlink(link, buf, sizeof buf);
  if (n <= 0)
    return false;
  out.assign(buf, static_cast<size_t>(n));
  return true;
}

} // namespace

bool readTargetMemory(pid_t tid, uint64_t addr, void *buf, size_t len) {
  if (addr == 0)
    return false;
  iovec local{buf, len};
  iovec remote{reinterpret_cast<void *>(addr), len};
  return process_vm_readv(tid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(len);
}

bool readTargetString(pid_t tid, uint64_t addr, std::string &out, size_t max) {
  if (addr == 0)
    return false;
  char buf[4096];
  if (max > sizeof buf)
    max = sizeof buf;
  // Read page by page: a string near the end of a mapping must not fail
  // because the bytes after it are unmapped.
  size_t got = 0;
  while (got < max) {
    uint64_t at = addr + got;
    size_t chunk = static_cast<size_t>(kPage - (at % kPage));
    if (chunk > max - got)
      chunk = max - got;
    iovec local{buf + got, chunk};
    iovec remote{reinterpret_cast<void *>(at), chunk};
    ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
    if (n <= 0)
      return false;
    if (void *nul = std::memchr(buf + got, 0, static_cast<size_t>(n))) {
      out.assign(buf, static_cast<size_t>(static_cast<char *>(nul) - buf));
      return true;
    }
    got += static_cast<size_t>(n);
  }
  return false;
}

bool readTargetFdPath(pid_t tid, int fd, std::string &out) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/%d/fd/%d", tid, fd);
  return readLink(link, out);
}

bool readTargetCwd(pid_t tid, std::string &out) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/%d/cwd", tid);
  return readLink(link, out);
}

int borrowTargetFd(pid_t tid, int fd) {
  // PIDFD_THREAD (O_EXCL, Linux 6.9) lets a non-leader thread id in.
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, tid, O_EXCL));
  if (pidfd < 0)
    pidfd = static_cast<int>(syscall(SYS_pidfd_open, tid, 0));
  if (pidfd < 0)
    return -1;
  int local = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, fd, 0));
  close(pidfd);
  return local;
}

bool readTargetPeer(pid_t tid, int fd, Destination &out) {
  int local = borrowTargetFd(tid, fd);
  if (local < 0)
    return false;
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  bool ok = getpeername(local, reinterpret_cast<sockaddr *>(&ss), &len) == 0;
  close(local);
  if (ok)
    out = parseSockaddr(&ss, len);
  return ok;
}

} // namespace fbc::rt
