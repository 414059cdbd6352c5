// The fault proxy of one test (leaf): a listener on 127.0.0.1 for every
// interface the test's protocol rules can target, each relaying to the
// service's real address (loopback, or a remote service's host), all
// served by one event-loop thread of its own (the supervisor's loop keeps
// answering syscalls undisturbed).
//
// Callers reach the service through it: services whose env names the
// interface's address get the proxy's address instead (launch_config.h),
// and the body's steps dial it (step_builtins.cpp). Healthchecks dial the
// real address. Per connection the proxy keeps the bytes the client sent but
// the proxy has not yet decided on; a protocol codec (proxy_protocol.h)
// splits them into requests, each of which the rule table decides:
// forwarded untouched, delayed, answered by the proxy (error()/response()),
// or the connection dropped (FIN, or RST with drop(reset=True)). Without a
// codec (tcp and other protocols) every chunk read from the client is a
// unit. Server bytes are forwarded as they arrive. Every decision a rule
// made is a `proxy` trace event. A datagram interface (udp) gets a UDP
// relay instead (proxy_udp.h), deciding each datagram. While fbc run
// --explore's hold window is open, what a connection relays to the service
// waits for the explorer, a message at a time (proxy_hold.h).
#pragma once

#include "ir/spec.h"
#include "runtime/clients/tls_dial.h"
#include "runtime/os/event_loop.h"
#include "runtime/proxy/proxy_hold.h"
#include "runtime/proxy/proxy_rules.h"
#include "runtime/rules/rules.h"

#include <netinet/in.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace fbc::rt {

class Trace;
class DatagramRelay;
class TlsTerminator;
class Acceptor;

struct ProxyEndpoint {
  ServiceId service = kNoService;
  std::string serviceName, interface, protocol;
  uint16_t realPort = 0;
  uint16_t proxyPort = 0; // bound by add()
  // The upstream's host: "" for loopback (a service fbc runs), else a
  // remote service's (an IPv4 address or a name resolved by add()).
  std::string realHost;
  // interface(tls=): callers dial a TLS terminator whose clear side is
  // this proxy, and the proxy reaches the service through another
  // (tls_bridge.h); null for a clear interface.
  std::shared_ptr<const TlsClientConfig> tls = nullptr;
};

// The endpoint of interface `iface` of service `svc` (id `id`) reached at
// `at`, its tls_cert's paths resolved against `specDir`.
ProxyEndpoint proxyEndpoint(ServiceId id, const ir::Service &svc, const ir::Interface &iface,
                            const ir::Address &at, const std::string &specDir);

// A decision's `proxy` event fields: the interface, the unit's own fields
// (`unit`: a request's under its protocol's matcher names, or a chunk's
// size), then what the deciding rule did (proxy_endpoints.cpp).
std::vector<std::pair<std::string, std::string>>
decisionFields(const ProxyEndpoint &ep, const ProxyDecision &d,
               std::vector<std::pair<std::string, std::string>> unit);

class ProxyHub {
public:
  explicit ProxyHub(Trace &trace);
  ~ProxyHub(); // closes every connection and stops the thread
  ProxyHub(const ProxyHub &) = delete;
  ProxyHub &operator=(const ProxyHub &) = delete;

  // Before start(): listens for interface `iface` of `service`; its index,
  // or nullopt with `error` set.
  std::optional<size_t> add(ProxyEndpoint ep, std::string &error);
  void start();

  const std::vector<ProxyEndpoint> &endpoints() const { return endpoints_; }
  std::optional<size_t> find(std::string_view service, std::string_view iface) const;
  ProxyRuleTable &rules() { return rules_; }
  // The loop thread's id once it runs (0 before): what the explorer's
  // quiescence check watches, so that a release waits for a relayed
  // request to reach the server.
  pid_t threadId() const { return tid_.load(); }

  // fbc run --explore (proxy_hold.h): from the return on, every message a
  // connection would relay to its service is held and goes to `sink`; null
  // stops holding new ones (those held stay held until released). Waits
  // for the loop thread (call it from another).
  void holdMessages(MessageSink *sink);
  // Relays the message held on connection `conn` and lets the connection
  // go on (nothing when none is held there: it closed). Any thread.
  void releaseMessage(uint64_t conn);
  // Whether the loop has nothing left to do on its own, for the explorer's
  // quiescence check: no delay() timer armed (a delayed request or
  // connection, a delayed datagram) and no connection still dialing its
  // service or with bytes a socket has not taken yet. Any thread.
  bool idle() const { return armed_.load() == 0 && inFlight_.load() == 0; }

  // Loop-thread internals (proxy.cpp).
  struct Conn;

private:
  friend struct Conn;
  void accept(size_t iface, int fd);
  void dial(Conn &c);   // connects c to the real address (non-blocking)
  void retire(Conn *c); // closes c's fds now, frees it on a later loop turn
  void record(size_t iface, std::vector<std::pair<std::string, std::string>> fields);

  Trace &trace_;
  EventLoop loop_;
  std::thread thread_;
  std::atomic<pid_t> tid_{0};
  ProxyRuleTable rules_;
  std::vector<ProxyEndpoint> endpoints_;
  std::vector<in_addr> upstreams_; // per endpoint: where dial() connects
  std::vector<std::unique_ptr<Acceptor>> listeners_;
  // Datagram interfaces' relays (proxy_udp.h), in place of listeners.
  std::vector<std::unique_ptr<DatagramRelay>> datagrams_;
  // Per endpoint: its TLS terminator (tls_bridge.h), null when clear.
  std::vector<std::unique_ptr<TlsTerminator>> tls_;
  std::map<uint64_t, std::unique_ptr<Conn>> conns_; // by id (timers look them up)
  MessageSink *holdSink_ = nullptr;                 // the loop thread's; set through call()
  std::atomic<int> armed_{0};                       // delay() timers armed
  std::atomic<int> inFlight_{0};                    // connections with work of their own
  std::vector<std::unique_ptr<Conn>> retired_;
  uint64_t nextConn_ = 1;
};

} // namespace fbc::rt
