// Reading a notification's arguments for the rule table, and the
// NOTIF_ID_VALID checks: see notif_facts.h.
#include "runtime/supervisor/notif_facts.h"

#include "runtime/os/target_memory.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

namespace fbc::rt {

bool NotifFacts::stillValid() {
  if (checked_ && !unchecked_)
    return valid_;
  checked_ = true;
  unchecked_ = false;
  valid_ = ioctl(fd_, SECCOMP_IOCTL_NOTIF_ID_VALID, &req_.id) == 0;
  return valid_;
}

bool NotifFacts::readPath() {
  const SyscallShape &s = syscallShape(req_.data.nr);
  if (s.pathArg >= 0) {
    if (!readTargetString(tid(), arg(s.pathArg), path_))
      return false;
    if (!path_.empty() && path_[0] == '/')
      return true;
    // Relative: resolve against the dirfd (or the cwd) so globs see the
    // absolute path the kernel will open.
    std::string base;
    int dirfd = s.dirfdArg >= 0 ? static_cast<int>(arg(s.dirfdArg)) : AT_FDCWD;
    bool ok = dirfd == AT_FDCWD ? readTargetCwd(tid(), base) : readTargetFdPath(tid(), dirfd, base);
    if (!ok)
      return false;
    if (base != "/")
      base += '/';
    path_.insert(0, base);
    return true;
  }
  if (s.fdArg >= 0)
    return readTargetFdPath(tid(), static_cast<int>(arg(s.fdArg)), path_);
  return false;
}

bool NotifFacts::readDest() {
  const SyscallShape &s = syscallShape(req_.data.nr);
  uint64_t addr = 0, len = 0;
  switch (s.dest) {
  case DestArg::None:
    return false;
  case DestArg::Sockaddr:
    addr = arg(1);
    len = arg(2);
    break;
  case DestArg::SendTo:
    addr = arg(4);
    len = arg(5);
    break;
  case DestArg::MsgHdr:
  case DestArg::MMsgHdr: {
    // struct mmsghdr starts with its msghdr.
    msghdr m{};
    if (!readTargetMemory(tid(), arg(1), &m, sizeof m))
      return false;
    addr = reinterpret_cast<uint64_t>(m.msg_name);
    len = m.msg_namelen;
    break;
  }
  }
  if (addr == 0) // a connected socket: ask it for its peer
    return readTargetPeer(tid(), static_cast<int>(arg(0)), dest_);
  sockaddr_storage ss{};
  if (len > sizeof ss)
    len = sizeof ss;
  if (!readTargetMemory(tid(), addr, &ss, static_cast<size_t>(len)))
    return false;
  dest_ = parseSockaddr(&ss, static_cast<size_t>(len));
  return true;
}

} // namespace fbc::rt
