// Loopback TCP sockets for the proxy's unit tests (proxy_memcached_test,
// proxy_hold_test, proxy_delay_test): a listener on a free port, a
// connected client, what a socket is sent.
#pragma once

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace fbc::rt {

// A listening socket on 127.0.0.1 and a port the kernel picks (`port`);
// -1 on failure.
inline int listenLoopback(uint16_t &port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || listen(fd, 8) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0)
    return -1;
  port = ntohs(a.sin_port);
  return fd;
}

// A socket connected to 127.0.0.1:`port`; -1 on failure.
inline int dialLoopback(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  return connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 ? fd : -1;
}

// Sends all of `s` on `fd` (a test's few bytes: one send).
inline void sendAll(int fd, const std::string &s) {
  ASSERT_EQ(send(fd, s.data(), s.size(), MSG_NOSIGNAL), ssize_t(s.size()));
}

// What arrives on `fd` until `want` bytes, its end, or 5 s without more.
inline std::string readUpTo(int fd, size_t want) {
  std::string got;
  char buf[4096];
  while (got.size() < want) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0)
      break;
    ssize_t n = recv(fd, buf, std::min(sizeof buf, want - got.size()), 0);
    if (n <= 0)
      break;
    got.append(buf, size_t(n));
  }
  return got;
}

} // namespace fbc::rt
