// The proxy of a datagram interface: see proxy_udp.h.
#include "runtime/proxy/proxy_udp.h"

#include "runtime/os/clock.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace fbc::rt {

DatagramRelay::~DatagramRelay() {
  for (auto &[key, p] : peers_)
    ::close(p->fd);
  ::close(fd_);
}

DatagramRelay::Peer *DatagramRelay::peer(const sockaddr_in &client) {
  Key key{client.sin_addr.s_addr, client.sin_port};
  if (auto it = peers_.find(key); it != peers_.end())
    return it->second.get();
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, reinterpret_cast<const sockaddr *>(&upstream_), sizeof upstream_) < 0) {
    if (fd >= 0)
      ::close(fd);
    return nullptr; // the datagram is lost, as on a network
  }
  auto p = std::make_unique<Peer>();
  p->relay = this;
  p->client = client;
  p->fd = fd;
  loop_.add(fd, EPOLLIN | EPOLLET, p.get());
  return (peers_[key] = std::move(p)).get();
}

void DatagramRelay::forward(const Key &client, const std::string &datagram) {
  if (auto it = peers_.find(client); it != peers_.end())
    ::send(it->second->fd, datagram.data(), datagram.size(), MSG_DONTWAIT);
}

void DatagramRelay::onEvents(uint32_t) {
  static char buf[65536]; // the loop's thread only
  for (;;) {
    sockaddr_in from{};
    socklen_t len = sizeof from;
    ssize_t n = recvfrom(fd_, buf, sizeof buf, 0, reinterpret_cast<sockaddr *>(&from), &len);
    if (n < 0)
      return; // drained (edge-triggered)
    if (!peer(from))
      continue;
    Key key{from.sin_addr.s_addr, from.sin_port};
    std::string datagram(buf, static_cast<size_t>(n));
    ProxyDecision d = rules_.decide(iface_, ProxyUnit::Chunk, "", "");
    if (d.rule)
      record_(datagram.size(), d);
    bool drop = d.action && *d.action == ir::ProxyAction::Drop;
    // duplicate(): the service gets it twice, back to back.
    int copies = drop ? 0 : d.action && *d.action == ir::ProxyAction::Duplicate ? 2 : 1;
    if (d.delayNs > 0) {
      // Held by a timer; a drop that a delay preceded still drops.
      if (copies) {
        ++armed_;
        loop_.addTimer(deadlineAfter(d.delayNs),
                       [this, key, copies, datagram = std::move(datagram)] {
                         --armed_;
                         for (int i = 0; i < copies; ++i)
                           forward(key, datagram);
                       });
      }
      continue;
    }
    for (int i = 0; i < copies; ++i)
      forward(key, datagram);
  }
}

void DatagramRelay::Peer::onEvents(uint32_t) {
  static char buf[65536];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n < 0)
      return;
    sendto(relay->fd_, buf, static_cast<size_t>(n), MSG_DONTWAIT,
           reinterpret_cast<const sockaddr *>(&client), sizeof client);
  }
}

} // namespace fbc::rt
