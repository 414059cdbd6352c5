// The networks a run's containers join, one per network namespace that
// runs containers at a time.
//
// In the host's network (fbc run --host-network, or without root) that is
// one network for the run: containers publish their ports on 127.0.0.1 and
// reach each other by service name on it. A leaf in a network namespace of
// its own (fbc run's default as root, at any -j) gets a network of its own
// while its containers run, so the services of two leaves running at once
// never share a name on one network (.internal_addr), nor a gateway
// address for the relays to the leaf's loopback (host_relay.h). Networks
// are taken from a pool (created on first need, fbc-<run>-<n>, labelled as
// the run's), given back when the namespace's last container stops, and
// removed with the run (container_run.h): -j N makes at most N of them.
#pragma once

#include "runtime/containers/engine.h"
#include "runtime/containers/host_relay.h"

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt::containers {

class ContainerNetwork {
public:
  ContainerNetwork(std::string name, std::string gateway)
      : name_(std::move(name)), gateway_(std::move(gateway)) {}
  const std::string &name() const { return name_; }
  // The host's address on it (its gateway, IPv4): what Podman names
  // host.containers.internal.
  const std::string &gateway() const { return gateway_; }
  // A relay from gateway:`port` to 127.0.0.1:`port` in the caller's
  // network (the host's or the leaf's), shared by the containers that use
  // it and closed with the last; null with `error`. In the host's network,
  // null without an error when something already answers there (bound to
  // every address).
  std::shared_ptr<HostRelay> relayTo(uint16_t port, std::string &error);
  // When its namespace gives it back: no relay outlives its containers.
  void forgetRelays();

private:
  std::string name_, gateway_;
  std::mutex mu_;
  std::map<uint16_t, std::weak_ptr<HostRelay>> relays_;
};

class NetworkPool {
public:
  // Networks are created through `engine` named "fbc-<runId>-<n>" with
  // `labels`.
  NetworkPool(const Engine &engine, std::string runId,
              std::vector<std::pair<std::string, std::string>> labels)
      : engine_(engine), runId_(std::move(runId)), labels_(std::move(labels)) {}
  NetworkPool(const NetworkPool &) = delete;
  NetworkPool &operator=(const NetworkPool &) = delete;

  // The network of the caller's network namespace, held while the pointer
  // (or a copy) lives; null with `error` when none can be created.
  std::shared_ptr<ContainerNetwork> join(std::string &error);

private:
  using NetnsKey = std::pair<dev_t, ino_t>;
  std::unique_ptr<ContainerNetwork> create(std::string &error);
  void release(ContainerNetwork *net);

  const Engine &engine_;
  std::string runId_;
  std::vector<std::pair<std::string, std::string>> labels_;
  std::mutex mu_;
  unsigned created_ = 0;
  std::vector<std::unique_ptr<ContainerNetwork>> all_;
  std::map<NetnsKey, std::pair<ContainerNetwork *, int>> inUse_; // namespace -> (network, holders)
  std::vector<ContainerNetwork *> free_;
};

} // namespace fbc::rt::containers
