// How a container reaches what listens on the host's loopback (a binary
// service, fbc's proxy in front of any service): a container's loopback is
// its own, and the published ports of the engine do not go that way. fbc
// listens on the run network's gateway address (the host's side of the
// container network, which Podman also names host.containers.internal)
// at the same port number, and relays each connection to 127.0.0.1:<port>.
// A container's env= values that name `localhost:<port>` or
// `127.0.0.1:<port>` of such a listener are rewritten to `<gateway>:<port>`
// (container_service.cpp).
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

class HostRelay {
public:
  ~HostRelay(); // stops accepting, ends every connection, joins
  HostRelay(const HostRelay &) = delete;
  HostRelay &operator=(const HostRelay &) = delete;

  // Listens on `gateway`:`port` (IPv4) and relays to 127.0.0.1:`port`; null
  // with `error` when the address cannot be bound. A port something already
  // listens on at every address (0.0.0.0) is reachable from the container
  // as it is: the caller checks that first (reachableOnGateway()).
  static std::unique_ptr<HostRelay> open(const std::string &gateway, uint16_t port,
                                         std::string &error);
  uint16_t port() const { return port_; }

private:
  HostRelay() = default;
  void acceptLoop();
  void relay(int client);

  int listenFd_ = -1;
  int stopFd_ = -1; // an eventfd: readable once the relay stops
  uint16_t port_ = 0;
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> conns_;
};

// Whether something accepts connections at `gateway`:`port` already (a
// service bound to every address).
bool reachableOnGateway(const std::string &gateway, uint16_t port);

// `value` with each `localhost:<port>` and `127.0.0.1:<port>` (a whole
// port number) replaced by what `to(port)` names; left as it is where `to`
// says nullopt.
std::string rewriteLoopback(std::string_view value,
                            const std::function<std::optional<std::string>(uint16_t)> &to);

} // namespace fbc::rt::containers
