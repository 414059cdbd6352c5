// The networks of a run's containers: see container_network.h.
#include "runtime/containers/container_network.h"

#include "ir/json_writer.h"
#include "runtime/os/leaf_isolation.h"

#include <simdjson.h>
#include <sys/stat.h>

namespace fbc::rt::containers {

std::shared_ptr<HostRelay> ContainerNetwork::relayTo(uint16_t port, std::string &error) {
  std::lock_guard lock(mu_);
  if (std::shared_ptr<HostRelay> r = relays_[port].lock())
    return r;
  RelayEnds ends{gateway_, port, -1, "127.0.0.1", port, -1, 0};
  if (inLeafNetns()) {
    // The gateway is the host's: the listener is bound there, and the
    // connections are made here, in the leaf's namespace.
    ends.listenNetns = hostNetnsFd();
  } else if (reachableOnGateway(gateway_, port)) {
    return nullptr; // bound to every address: reachable as it is
  }
  std::shared_ptr<HostRelay> r = HostRelay::open(ends, error);
  relays_[port] = r;
  return r;
}

void ContainerNetwork::forgetRelays() {
  std::lock_guard lock(mu_);
  relays_.clear();
}

std::unique_ptr<ContainerNetwork> NetworkPool::create(std::string &error) {
  std::string name = "fbc-" + runId_ + "-" + std::to_string(++created_), body;
  ir::JsonWriter w(body);
  w.beginObject().field("Name", name).field("Driver", "bridge").field("CheckDuplicate", true);
  w.key("Labels").beginObject();
  for (const auto &[k, v] : labels_)
    w.field(k, v);
  w.endObject().endObject();
  EngineResponse r = engine_.call("POST", "/networks/create", body);
  if (!r.ok()) {
    error = "cannot create the run's container network " + name + ": " + r.message();
    return nullptr;
  }
  r = engine_.get("/networks/" + urlEncode(name));
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::dom::array configs;
  if (r.ok() && !parser.parse(r.body).get(doc) && !doc["IPAM"]["Config"].get(configs))
    for (simdjson::dom::element c : configs) {
      std::string_view gw;
      if (!c["Gateway"].get(gw) && gw.find('.') != std::string_view::npos)
        return std::make_unique<ContainerNetwork>(name, std::string(gw));
    }
  error = "the run's container network " + name + " names no IPv4 gateway: " + r.message();
  return nullptr;
}

std::shared_ptr<ContainerNetwork> NetworkPool::join(std::string &error) {
  struct stat st {};
  if (stat("/proc/thread-self/ns/net", &st) != 0) {
    error = "cannot read the thread's network namespace";
    return nullptr;
  }
  NetnsKey key{st.st_dev, st.st_ino};
  std::lock_guard lock(mu_);
  auto it = inUse_.find(key);
  if (it == inUse_.end()) {
    ContainerNetwork *net = nullptr;
    if (!free_.empty()) {
      net = free_.back();
      free_.pop_back();
    } else {
      std::unique_ptr<ContainerNetwork> made = create(error);
      if (!made)
        return nullptr;
      net = made.get();
      all_.push_back(std::move(made));
    }
    it = inUse_.emplace(key, std::pair{net, 0}).first;
  }
  ++it->second.second;
  return std::shared_ptr<ContainerNetwork>(it->second.first,
                                           [this](ContainerNetwork *n) { release(n); });
}

void NetworkPool::release(ContainerNetwork *net) {
  std::lock_guard lock(mu_);
  for (auto it = inUse_.begin(); it != inUse_.end(); ++it)
    if (it->second.first == net) {
      if (--it->second.second == 0) {
        net->forgetRelays();
        free_.push_back(net);
        inUse_.erase(it);
      }
      return;
    }
}

} // namespace fbc::rt::containers
