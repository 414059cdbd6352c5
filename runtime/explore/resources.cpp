#include "runtime/explore/resources.h"

#include "runtime/explore/server_access.h"
#include "runtime/os/sockaddr.h"
#include "runtime/os/syscalls.h"
#include "runtime/os/target_memory.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
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
  for (const std::string &x : a.keys)
    for (const std::string &y : b.keys)
      if (covers(x, y) || covers(y, x))
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

// The most of a send read for its request: a longer one is the whole server.
constexpr size_t kMaxRequest = 65536;

bool sends(int nr) {
  return nr == SYS_write || nr == SYS_writev || nr == SYS_sendto || nr == SYS_sendmsg ||
         nr == SYS_sendmmsg || nr == SYS_pwrite64 || nr == SYS_pwritev || nr == SYS_pwritev2;
}

// The bytes of `count` iovecs at `addr`; false when they cannot all be read.
bool readIovecs(pid_t tid, uint64_t addr, uint64_t count, std::string &out) {
  if (count > 64)
    return false;
  std::vector<iovec> iov(count);
  if (count && !readTargetMemory(tid, addr, iov.data(), count * sizeof(iovec)))
    return false;
  for (const iovec &v : iov) {
    if (out.size() + v.iov_len > kMaxRequest)
      return false;
    size_t at = out.size();
    out.resize(at + v.iov_len);
    if (v.iov_len && !readTargetMemory(tid, uint64_t(v.iov_base), out.data() + at, v.iov_len))
      return false;
  }
  return true;
}

// What the held send carries: write and sendto's buffer, writev and
// sendmsg's iovecs; false for any other send (sendmmsg), or one too long.
bool sentBytes(pid_t tid, int nr, const uint64_t (&args)[6], std::string &out) {
  if (nr == SYS_write || nr == SYS_sendto) {
    if (args[2] > kMaxRequest)
      return false;
    out.resize(args[2]);
    return !args[2] || readTargetMemory(tid, args[1], out.data(), out.size());
  }
  if (nr == SYS_writev)
    return readIovecs(tid, args[1], args[2], out);
  if (nr == SYS_sendmsg) {
    msghdr m{};
    return readTargetMemory(tid, args[1], &m, sizeof m) &&
           readIovecs(tid, uint64_t(m.msg_iov), m.msg_iovlen, out);
  }
  return false;
}

// A client's send: the server's resources it names (resources.h).
void addServerKeys(pid_t tid, int nr, const uint64_t (&args)[6], uint16_t port,
                   const ServerPorts &servers, std::vector<std::string> &keys) {
  auto it = servers.find(port);
  if (it != servers.end() && it->second.relayHolds)
    return;
  std::string bytes;
  bool complete = it != servers.end() && sentBytes(tid, nr, args, bytes);
  std::vector<std::string> k =
      it == servers.end() ? requestKeys("", port, bytes, false)
                          : requestKeys(it->second.protocol, it->second.server, bytes, complete);
  keys.insert(keys.end(), k.begin(), k.end());
}

// An inet socket's keys (docs: resources.h); unknown for any other family.
Access socketAccess(pid_t tid, int fd, int nr, const uint64_t (&args)[6],
                    const ServerPorts &servers) {
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
      if (sends(nr) && !servers.count(self->port))
        addServerKeys(tid, nr, args, peer->port, servers, a.keys);
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

Access accessOf(pid_t tid, int nr, const uint64_t (&args)[6], const ServerPorts &servers) {
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
      a = socketAccess(tid, fd, nr, args, servers);
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
