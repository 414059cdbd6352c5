// What the proxy's TCP relays share (proxy_conn.cpp and tls_bridge.cpp,
// private to runtime/proxy/): how a relayed socket is registered, when a
// side stops being read, the bytes owed to a side, and the socket options
// a relay sets.
#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fbc::rt::tcp_relay {

// Every relayed fd is registered edge-triggered once (in, out, hang-up).
constexpr uint32_t kEvents = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
// A side whose peer is owed this much is not read until the peer drains.
constexpr size_t kHighWater = 1 << 20;

// Bytes waiting to be written to one side, written as the socket takes them.
struct OutBuffer {
  std::string data;
  size_t off = 0;
  size_t size() const { return data.size() - off; }
  void append(std::string_view b) {
    if (off == data.size()) {
      data.clear();
      off = 0;
    }
    data.append(b);
  }
  // False on a write error (the peer is gone).
  bool flush(int fd) {
    while (off < data.size()) {
      ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      off += size_t(n);
    }
    return true;
  }
};

inline void noDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Close with RST instead of FIN: what the other side sees is a reset, as
// it would have seen from the service.
inline void abortiveClose(int fd) {
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
}

// A non-blocking TCP connect to addr:port with TCP_NODELAY; -1 when it
// failed at once. `connectedNow` says whether it completed already.
inline int connectTo(in_addr addr, uint16_t port, bool &connectedNow) {
  connectedNow = false;
  int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s < 0)
    return -1;
  noDelay(s);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr = addr;
  a.sin_port = htons(port);
  if (connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0) {
    connectedNow = true;
  } else if (errno != EINPROGRESS) {
    ::close(s);
    return -1;
  }
  return s;
}

} // namespace fbc::rt::tcp_relay
