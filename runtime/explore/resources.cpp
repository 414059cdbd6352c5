#include "runtime/explore/resources.h"

#include "runtime/os/sockaddr.h"
#include "runtime/os/syscalls.h"
#include "runtime/os/target_memory.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

namespace fbc::rt::explore {

std::string Access::str() const {
  if (!known)
    return "unknown";
  std::string out;
  for (const std::string &k : keys)
    out.append(out.empty() ? "" : " ").append(k);
  return out;
}

bool dependent(const Access &a, const Access &b) {
  if (!a.known || !b.known)
    return true;
  for (const std::string &k : a.keys)
    if (std::binary_search(b.keys.begin(), b.keys.end(), k))
      return true;
  return false;
}

namespace {

std::optional<std::string> inodeKey(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return std::nullopt;
  return "file:" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

std::optional<Destination> sockName(int fd, bool peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  auto *sa = reinterpret_cast<sockaddr *>(&ss);
  if ((peer ? getpeername(fd, sa, &len) : getsockname(fd, sa, &len)) != 0)
    return std::nullopt;
  Destination d = parseSockaddr(&ss, len);
  return d.valid() ? std::optional<Destination>(d) : std::nullopt;
}

// The address a connect() or sendto() names in the thread's memory.
std::optional<Destination> namedAddress(pid_t tid, int nr, const uint64_t (&args)[6]) {
  uint64_t addr = 0, len = 0;
  switch (syscallShape(nr).dest) {
  case DestArg::Sockaddr:
    addr = args[1], len = args[2];
    break;
  case DestArg::SendTo:
    addr = args[4], len = args[5];
    break;
  default:
    return std::nullopt;
  }
  if (!addr)
    return std::nullopt;
  sockaddr_storage ss{};
  len = std::min<uint64_t>(len, sizeof ss);
  if (!readTargetMemory(tid, addr, &ss, size_t(len)))
    return std::nullopt;
  Destination d = parseSockaddr(&ss, size_t(len));
  return d.valid() ? std::optional<Destination>(d) : std::nullopt;
}

// An inet socket's keys (docs: resources.h); unknown for any other family.
Access socketAccess(pid_t tid, int fd, int nr, const uint64_t (&args)[6]) {
  Access a;
  int local = borrowTargetFd(tid, fd);
  if (local < 0)
    return a;
  int domain = 0, type = 0;
  socklen_t len = sizeof domain;
  bool inet = getsockopt(local, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 &&
              (domain == AF_INET || domain == AF_INET6);
  len = sizeof type;
  inet = inet && getsockopt(local, SOL_SOCKET, SO_TYPE, &type, &len) == 0;
  std::optional<Destination> self = sockName(local, false), peer = sockName(local, true);
  close(local);
  std::optional<Destination> named = namedAddress(tid, nr, args);
  if (!inet || !self)
    return a;
  if (type == SOCK_STREAM) {
    if (peer) {
      std::string x = self->text(), y = peer->text();
      a.keys.push_back("tcp:" + std::min(x, y) + "|" + std::max(x, y));
    } else if (named) {
      a.keys.push_back("tcp-accept:" + std::to_string(named->port));
    } else {
      return a; // a listening or unconnected socket: unknown
    }
  } else if (type == SOCK_DGRAM) {
    a.keys.push_back("udp:" + std::to_string(self->port));
    for (const auto &d : {peer, named})
      if (d)
        a.keys.push_back("udp:" + std::to_string(d->port));
  } else {
    return a;
  }
  a.known = true;
  return a;
}

} // namespace

Access accessOf(pid_t tid, int nr, const uint64_t (&args)[6]) {
  const SyscallShape &s = syscallShape(nr);
  Access a;
  if (s.pathArg >= 0) {
    std::string path;
    if (!readTargetString(tid, args[s.pathArg], path))
      return a;
    if (path.empty() || path[0] != '/') {
      std::string base;
      int dirfd = s.dirfdArg >= 0 ? static_cast<int>(args[s.dirfdArg]) : AT_FDCWD;
      bool ok = dirfd == AT_FDCWD ? readTargetCwd(tid, base) : readTargetFdPath(tid, dirfd, base);
      if (!ok)
        return a;
      path.insert(0, base == "/" ? base : base + "/");
    }
    a.keys.push_back("path:" + path);
    if (std::optional<std::string> k = inodeKey(path))
      a.keys.push_back(*k);
    a.known = true;
  } else if (s.fdArg >= 0) {
    int fd = static_cast<int>(args[s.fdArg]);
    std::string link;
    if (!readTargetFdPath(tid, fd, link))
      return a;
    if (link.starts_with("socket:[")) {
      a = socketAccess(tid, fd, nr, args);
    } else if (link.starts_with("pipe:[")) {
      a.keys.push_back("pipe:" + link.substr(5));
      a.known = true;
    } else if (link.starts_with("/")) {
      std::optional<std::string> k =
          inodeKey("/proc/" + std::to_string(tid) + "/fd/" + std::to_string(fd));
      if (!k)
        return a;
      a.keys.push_back(*k);
      a.keys.push_back("path:" + link);
      a.known = true;
    }
  }
  std::sort(a.keys.begin(), a.keys.end());
  a.keys.erase(std::unique(a.keys.begin(), a.keys.end()), a.keys.end());
  return a;
}

} // namespace fbc::rt::explore
