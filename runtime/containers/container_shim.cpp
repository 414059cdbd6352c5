// fbc's side of the shim hand-off: see container_shim.h.
#include "runtime/containers/container_shim.h"

#include "runtime/os/clock.h"
#include "runtime/os/helper_binary.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fbc::rt::containers {

std::string shimBinary(std::string &error) {
  return helperBinary("fbc-shim", "syscall rules inside a container", error);
}

std::string shimDirOf(const std::string &runId) {
  return "/tmp/fbc-shim-" + runId;
}

ShimSocket::~ShimSocket() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(path_.c_str());
  }
}

std::unique_ptr<ShimSocket> ShimSocket::listen(const std::string &path, std::string &error) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) {
    error = "shim socket path too long: " + path;
    return nullptr;
  }
  addr.sun_family = AF_UNIX;
  path.copy(addr.sun_path, path.size());
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) < 0 ||
      chmod(path.c_str(), 0777) < 0 || ::listen(fd, 1) < 0) {
    error = "shim socket " + path + ": " + std::strerror(errno);
    if (fd >= 0)
      close(fd);
    return nullptr;
  }
  return std::unique_ptr<ShimSocket>(new ShimSocket(fd, path));
}

namespace {

// Waits until `fd` is readable: true; false when `exited` names an end
// (`error` set) or the time is up.
bool waitReadable(int fd, const std::function<std::optional<std::string>()> &exited,
                  int64_t deadlineNs, std::string &error) {
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) > 0)
      return true;
    if (std::optional<std::string> how = exited()) {
      error = "its container " + *how + " before fbc-shim handed over its filter";
      return false;
    }
    if (monotonicNs() > deadlineNs) {
      error = "fbc-shim did not hand over its filter in time";
      return false;
    }
  }
}

} // namespace

int ShimSocket::handOff(const std::vector<sock_filter> &filter,
                        const std::function<std::optional<std::string>()> &exited,
                        int64_t timeoutMs, std::string &error) {
  int64_t deadline = monotonicNs() + timeoutMs * 1000000;
  if (!waitReadable(fd_, exited, deadline, error))
    return -1;
  int conn = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (conn < 0) {
    error = std::string("accepting fbc-shim: ") + std::strerror(errno);
    return -1;
  }
  int listener = -1;
  size_t bytes = filter.size() * sizeof(sock_filter);
  if (send(conn, filter.data(), bytes, MSG_NOSIGNAL) != static_cast<ssize_t>(bytes)) {
    error = std::string("sending fbc-shim its filter: ") + std::strerror(errno);
  } else if (waitReadable(conn, exited, deadline, error)) {
    char text[512];
    iovec iov{text, sizeof text};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
    cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&msg) : nullptr;
    if (c && c->cmsg_type == SCM_RIGHTS)
      std::memcpy(&listener, CMSG_DATA(c), sizeof listener);
    bool handedOver = n == 1 && text[0] == 'L' && listener >= 0;
    if (!handedOver && listener >= 0) {
      close(listener); // an fd on any other message is not the listener
      listener = -1;
    }
    if (!handedOver)
      error = n > 1 && text[0] == 'E' ? std::string(text + 1, static_cast<size_t>(n - 1))
                                      : "fbc-shim ended the hand-off without a listener";
  }
  close(conn);
  return listener;
}

} // namespace fbc::rt::containers
