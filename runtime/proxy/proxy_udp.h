// The proxy of a datagram interface (ir::Protocol::datagrams: udp): fbc's
// UDP socket on 127.0.0.1:<proxy port> in place of the TCP listener. Each
// client address gets an upstream socket of its own, connected to the
// service's address, so the service's replies find their way back to that
// client. Every datagram a client sends is one unit the rule table decides
// (ProxyUnit::Chunk: no reply to answer in): forwarded, delayed (a timer
// of the hub's loop), sent on twice (duplicate()) or dropped, each decision
// a `proxy` event with its size. Replies are relayed as they come, undecided.
#pragma once

#include "runtime/os/event_loop.h"
#include "runtime/proxy/proxy_rules.h"

#include <netinet/in.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fbc::rt {

class DatagramRelay final : public EventLoop::Handler {
public:
  // Records a decision's event: the chunk's size, and the decision.
  using Record = std::function<void(size_t bytes, const ProxyDecision &)>;
  // `fd` a bound UDP socket (non-blocking), owned; datagrams go on to
  // `upstream`. The relay runs on `loop`'s thread from the first event.
  // `armed` counts its delay() timers armed (ProxyHub::idle()).
  DatagramRelay(EventLoop &loop, ProxyRuleTable &rules, size_t iface, int fd, sockaddr_in upstream,
                std::atomic<int> &armed, Record record)
      : loop_(loop), rules_(rules), iface_(iface), fd_(fd), upstream_(upstream), armed_(armed),
        record_(std::move(record)) {}
  ~DatagramRelay() override;
  DatagramRelay(const DatagramRelay &) = delete;
  DatagramRelay &operator=(const DatagramRelay &) = delete;
  int fd() const { return fd_; }
  void onEvents(uint32_t events) override; // datagrams from clients

private:
  struct Peer final : EventLoop::Handler {
    DatagramRelay *relay = nullptr;
    sockaddr_in client{};
    int fd = -1;                             // connected to the upstream
    void onEvents(uint32_t events) override; // replies from the service
  };
  using Key = std::pair<uint32_t, uint16_t>; // a client's address and port
  Peer *peer(const sockaddr_in &client);
  void forward(const Key &client, const std::string &datagram);

  EventLoop &loop_;
  ProxyRuleTable &rules_;
  size_t iface_;
  int fd_;
  sockaddr_in upstream_;
  std::atomic<int> &armed_;
  Record record_;
  std::map<Key, std::unique_ptr<Peer>> peers_;
};

} // namespace fbc::rt
