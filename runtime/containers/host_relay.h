// TCP relays between the host's network and a container's or a leaf's.
//
// Egress, how a container reaches what listens on loopback (a binary
// service, fbc's proxy in front of any service): a container's loopback is
// its own, and the engine's published ports do not go that way. fbc
// listens on the container network's gateway address (the host's side of
// that network, which Podman also names host.containers.internal) at the
// same port number, and relays each connection to 127.0.0.1:<port> in the
// network the service is in (the host's, or the leaf's own namespace: the
// listener is then bound in the host's and the connections made from the
// leaf's). A container's env= values that name `localhost:<port>` or
// `127.0.0.1:<port>` of such a listener are rewritten to `<gateway>:<port>`
// (container_service.cpp).
//
// Ingress, how a leaf in a network namespace of its own reaches a
// container (fbc run's default as root, and under -j N): nothing is
// published on the host; fbc listens on 127.0.0.1:<the address port> in
// the leaf's namespace and relays to the container's own address on its
// network, from the host's namespace. It accepts only once the container
// listens on that port (read from /proc/<pid>/net/tcp, so no connection of
// fbc's reaches the service): until then a connection is refused, as by
// the service itself, and a tcp() healthcheck means what it says.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace fbc::rt::containers {

// Where a relay listens and where it connects, and in which network
// namespaces (an fd from runtime/os/leaf_isolation.h; -1: the caller's).
struct RelayEnds {
  std::string listenHost; // an IPv4 address
  uint16_t listenPort = 0;
  int listenNetns = -1;
  std::string upHost; // an IPv4 address
  uint16_t upPort = 0;
  int upNetns = -1;
  // Above 0: accept only once a process in this process's network
  // namespace listens on upPort on an address that is not loopback.
  int readyPid = 0;
};

class HostRelay {
public:
  ~HostRelay(); // stops accepting, ends every connection, joins
  HostRelay(const HostRelay &) = delete;
  HostRelay &operator=(const HostRelay &) = delete;

  // Binds ends.listenHost:listenPort and relays each connection to
  // ends.upHost:upPort; null with `error` when the address cannot be bound.
  // (Egress: a port something already listens on at every address of the
  // host, 0.0.0.0, is reachable from the container as it is: the caller
  // checks that first, reachableOnGateway().)
  static std::unique_ptr<HostRelay> open(const RelayEnds &ends, std::string &error);
  uint16_t port() const { return ends_.listenPort; }

private:
  HostRelay() = default;
  void acceptLoop();
  // Until the upstream listens (ends_.readyPid); false when stopped first.
  bool awaitUpstream();
  void relay(int client);

  RelayEnds ends_;
  int listenFd_ = -1;
  int stopFd_ = -1; // an eventfd: readable once the relay stops
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> conns_;
};

// Whether a process in `pid`'s network namespace listens on TCP `port` on
// an address other than loopback (/proc/<pid>/net/tcp and tcp6).
bool listensOutside(int pid, uint16_t port);

// Whether something accepts connections at `gateway`:`port` already (a
// service bound to every address).
bool reachableOnGateway(const std::string &gateway, uint16_t port);

// `value` with each `localhost:<port>` and `127.0.0.1:<port>` (a whole
// port number) replaced by what `to(port)` names; left as it is where `to`
// says nullopt.
std::string rewriteLoopback(std::string_view value,
                            const std::function<std::optional<std::string>(uint16_t)> &to);

} // namespace fbc::rt::containers
