// The fault proxy's hub: its listeners, relays and terminators, its loop
// thread, and accepting, dialing and retiring connections (what a
// connection does on its own is proxy_conn.cpp). See proxy.h.
#include "runtime/proxy/proxy.h"

#include "ir/protocols.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/proxy_protocol.h"
#include "runtime/proxy/acceptor.h"
#include "runtime/proxy/proxy_conn.h"
#include "runtime/proxy/proxy_udp.h"
#include "runtime/proxy/relay_socket.h"
#include "runtime/proxy/tls_bridge.h"
#include "runtime/trace/trace.h"

#include <netinet/in.h>
#include <sys/epoll.h>
#include <unistd.h>

namespace fbc::rt {

using tcp_relay::abortiveClose;
using tcp_relay::noDelay;

ProxyHub::ProxyHub(Trace &trace) : trace_(trace) {}

ProxyHub::~ProxyHub() {
  if (thread_.joinable()) {
    // Posted work runs inside an epoll batch whose other events may still
    // name a connection's sides: close every connection as retire() does,
    // and free them (retired_, conns_) only once the loop thread has
    // stopped. Freeing them here crashed the loop on the next event of the
    // batch (bench/proxy's last client closing as the hub went away).
    loop_.call([this] {
      std::vector<Conn *> open;
      for (auto &[id, c] : conns_)
        open.push_back(c.get());
      for (Conn *c : open)
        retire(c);
      for (auto &t : tls_)
        if (t)
          t->closeAll();
    });
    loop_.stop();
    thread_.join();
  }
}

void ProxyHub::start() {
  thread_ = std::thread([this] {
    tid_ = gettid();
    loop_.run();
  });
  loop_.call([this] {
    for (auto &l : listeners_)
      loop_.add(l->fd(), EPOLLIN | EPOLLET, l.get());
    for (auto &d : datagrams_)
      loop_.add(d->fd(), EPOLLIN | EPOLLET, d.get());
    for (auto &t : tls_)
      if (t)
        t->start();
  });
}

void ProxyHub::accept(size_t iface, int fd) {
  noDelay(fd);
  uint64_t id = nextConn_++;
  auto owned = std::make_unique<Conn>(*this, id, iface);
  Conn &c = *owned;
  c.client.fd = fd;
  conns_.emplace(id, std::move(owned));
  bool dialNow = true;
  const ir::Protocol *proto = ir::findProtocol(endpoints_[iface].protocol);
  if (proto && proto->http2 != ir::Http2::None) {
    c.startH2(proto->http2 == ir::Http2::Grpc);
    dialNow = false; // the first request the bridge forwards dials
  } else if (const ProxyProtocol *p = findProxyProtocol(endpoints_[iface].protocol)) {
    c.codec = p->makeCodec();
    dialNow = p->serverFirst;
  }
  // Per-connection rules decide before anything is relayed.
  int64_t delayNs = 0;
  if (rules_.hasConnectionRules(iface)) {
    ProxyDecision d = rules_.decide(iface, ProxyUnit::Connection, "", "");
    if (d.rule) {
      RequestInfo none;
      c.event(d, none);
      if (d.action == ir::ProxyAction::Drop) {
        if (d.rule->reset)
          abortiveClose(fd);
        ::close(fd);
        conns_.erase(id);
        return;
      }
      delayNs = d.delayNs;
    }
  }
  loop_.add(fd, tcp_relay::kEvents, &c.client);
  // Client-first protocols (a codec, the HTTP/2 bridge) dial the real port when the first
  // byte is forwarded, so a connection whose requests the proxy answers
  // itself never occupies the service; plain TCP and server-first
  // protocols (MySQL) dial at once (the server speaks first).
  auto begin = [this, dialNow](Conn &c) {
    c.held = false;
    if (dialNow)
      dial(c);
    c.resume();
  };
  if (delayNs > 0) {
    c.held = true;
    c.later(delayNs, begin);
  } else {
    begin(c);
  }
}

void ProxyHub::dial(Conn &c) {
  in_addr addr = upstreams_[c.iface];
  uint16_t port = endpoints_[c.iface].realPort;
  if (const TlsTerminator *t = tls_[c.iface].get()) { // TLS to the service: its terminator
    addr.s_addr = htonl(INADDR_LOOPBACK);
    port = t->backPort();
  }
  int s = tcp_relay::connectTo(addr, port, c.connected);
  if (s < 0) {
    abortiveClose(c.client.fd); // refused: the caller sees a reset, as directly
    return retire(&c);
  }
  c.server.fd = s;
  loop_.add(s, tcp_relay::kEvents, &c.server);
}

void ProxyHub::retire(Conn *c) {
  if (c->dead)
    return;
  c->dead = true;
  if (c->flight) {
    c->flight = false;
    --inFlight_;
  }
  loop_.remove(c->client.fd);
  ::close(c->client.fd);
  if (c->server.fd >= 0) {
    loop_.remove(c->server.fd);
    ::close(c->server.fd);
  }
  auto it = conns_.find(c->id);
  if (it == conns_.end())
    return;
  // Other events of this epoll batch may still name the Conn's sides: free
  // it on a later turn of the loop.
  retired_.push_back(std::move(it->second));
  conns_.erase(it);
  loop_.addTimer(deadlineAfter(100000000), [this] {
    if (retired_.size() > 0)
      retired_.erase(retired_.begin());
  });
}

void ProxyHub::holdMessages(MessageSink *sink) {
  if (!thread_.joinable()) { // not started (no interface to stand in front of): nothing to hold
    holdSink_ = sink;
    return;
  }
  loop_.call([this, sink] { holdSink_ = sink; });
}

void ProxyHub::releaseMessage(uint64_t conn) {
  if (!thread_.joinable())
    return;
  // Waits for the relay: the explorer's next quiescence check then sees
  // the request on its way (bytes in the service's socket, or a dial).
  loop_.call([this, conn] {
    auto it = conns_.find(conn);
    if (it != conns_.end() && it->second->heldUnit)
      it->second->releaseHeld();
  });
}

void ProxyHub::record(size_t iface, std::vector<std::pair<std::string, std::string>> fields) {
  trace_.record(EventType::Proxy, endpoints_[iface].service, std::move(fields));
}

} // namespace fbc::rt
