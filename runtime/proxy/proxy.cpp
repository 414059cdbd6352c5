// The fault proxy's sockets and per-connection state machine: see proxy.h.
//
// Every fd is registered edge-triggered once (in, out, hang-up), so a side
// is read until EAGAIN and written until EAGAIN; a side the proxy stops
// reading (a held delay, a full buffer on the other side) is read again
// when the reason goes away, not when epoll says so.
#include "runtime/proxy/proxy.h"

#include "ir/duration.h"
#include "ir/protocols.h"
#include "runtime/protocols/proxy_protocol.h"
#include "runtime/proxy/acceptor.h"
#include "runtime/proxy/proxy_udp.h"
#include "runtime/proxy/tls_bridge.h"
#include "runtime/trace/trace.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace fbc::rt {
namespace {

constexpr uint32_t kEvents = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
constexpr size_t kHighWater = 1 << 20; // stop reading a side whose peer owes this much

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

void noDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Close with RST instead of FIN.
void abortiveClose(int fd) {
  linger l{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
}

// A decision's `proxy` event: the interface, the unit's own fields
// (`unit`: a request's under its protocol's matcher names, or a chunk's
// size), then what the deciding rule did.
std::vector<std::pair<std::string, std::string>>
decisionFields(const ProxyEndpoint &ep, const ProxyDecision &d,
               std::vector<std::pair<std::string, std::string>> unit) {
  const ir::ProxyRule &r = *d.rule;
  std::vector<std::pair<std::string, std::string>> f{{"interface", ep.interface},
                                                     {"protocol", ep.protocol}};
  f.insert(f.end(), unit.begin(), unit.end());
  ir::ProxyAction action = d.action.value_or(ir::ProxyAction::Delay);
  std::string name = ir::proxyActionName(action);
  if (action == ir::ProxyAction::Drop && r.reset)
    name = "reset";
  f.emplace_back("action", name);
  if (d.delayNs > 0)
    f.emplace_back("delay", ir::formatDuration(d.delayNs));
  if (action == ir::ProxyAction::Error || action == ir::ProxyAction::Respond)
    f.emplace_back("status", !r.code.empty()                    ? r.code
                             : r.errorNumber                    ? std::to_string(r.errorNumber)
                             : r.status                         ? std::to_string(r.status)
                             : action == ir::ProxyAction::Error ? "error"
                                                                : "ok");
  f.emplace_back("rule", r.display());
  if (!d.label.empty())
    f.emplace_back("label", d.label);
  return f;
}

} // namespace

struct ProxyHub::Conn {
  struct Side final : EventLoop::Handler {
    Conn *conn = nullptr;
    bool client = true;
    int fd = -1;
    bool eof = false;      // read side ended
    bool shutDown = false; // we sent FIN on it
    OutBuffer out;         // bytes to write to this side
    void onEvents(uint32_t ev) override { conn->onEvents(*this, ev); }
  };

  ProxyHub &hub;
  uint64_t id;
  size_t iface;
  Side client, server;
  std::unique_ptr<ProtocolCodec> codec; // null: plain TCP
  bool connected = false;               // to the real port
  bool dead = false;
  std::string pending;                       // client bytes not yet decided
  bool held = false;                         // a delay timer owns the front unit
  std::optional<ProxyDecision> heldDecision; // its decision, applied when the timer fires
  enum class Body { None, Forward, Discard } body = Body::None;
  uint64_t owed = 0;       // replies the server owes for forwarded requests
  std::string queuedReply; // a reply of ours waiting for `owed` to reach 0
  bool replyQueued = false;
  bool closeAfterReply = false; // the client asked to close after our reply

  Conn(ProxyHub &h, uint64_t i, size_t f) : hub(h), id(i), iface(f) {
    client.conn = server.conn = this;
    server.client = false;
  }

  const ProxyEndpoint &ep() const { return hub.endpoints_[iface]; }

  void onEvents(Side &s, uint32_t ev) {
    if (dead)
      return;
    if (&s == &server && !connected && (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(server.fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err) {
        // The real service refused: the caller sees its connection reset,
        // as it would have connecting directly.
        abortiveClose(client.fd);
        return hub.retire(this);
      }
      connected = true;
    }
    if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
      readSide(s);
    if (!dead)
      pump();
  }

  // Reads what `s` has (unless its peer's buffer is full).
  void readSide(Side &s) {
    if (s.fd < 0)
      return; // not dialed yet
    Side &peer = s.client ? server : client;
    char buf[65536];
    while (!s.eof && !dead) {
      if (s.client ? (held || replyQueued || closeAfterReply || pending.size() >= kHighWater)
                   : peer.out.size() >= kHighWater)
        return;
      ssize_t n = ::recv(s.fd, buf, sizeof buf, 0);
      if (n < 0) {
        if (errno == EINTR)
          continue;
        if (errno != EAGAIN)
          s.eof = true; // reset: treated as the end of that side
        return;
      }
      if (n == 0) {
        s.eof = true;
        return;
      }
      if (s.client) {
        pending.append(buf, size_t(n));
        processClient();
      } else {
        fromServer(std::string_view(buf, size_t(n)));
      }
    }
  }

  void fromServer(std::string_view b) {
    if (codec) {
      std::string status;
      size_t ended = codec->feedResponse(b, status);
      owed = ended > owed ? 0 : owed - ended;
    }
    client.out.append(b);
    if (replyQueued && owed == 0) {
      client.out.append(queuedReply);
      queuedReply.clear();
      replyQueued = false;
      if (!closeAfterReply)
        processClient();
    }
  }

  // Decides and moves the front units of `pending`.
  void processClient() {
    while (!dead && !held && !replyQueued && !closeAfterReply && !pending.empty()) {
      if (!codec) {
        if (!unit(pending.size(), RequestInfo{Split::Request, pending.size(), true, "", ""}))
          return;
        continue;
      }
      if (body != Body::None) {
        RequestInfo info = codec->splitRequest(pending);
        if (info.split == Split::NeedMore)
          return;
        bool forward = body == Body::Forward;
        if (info.last || info.split != Split::Body)
          body = Body::None;
        take(info.length, forward);
        continue;
      }
      RequestInfo info = codec->splitRequest(pending);
      switch (info.split) {
      case Split::NeedMore:
        return;
      case Split::Passthrough:
        take(info.length, true);
        break;
      case Split::NotThisProtocol:
        codec.reset(); // the rest of the connection is relayed as plain TCP
        break;
      case Split::Body:
        take(info.length, true); // a body the codec did not announce: relay it
        break;
      case Split::Request:
      case Split::Head:
        if (!unit(info.length, info))
          return;
        break;
      }
    }
  }

  // Moves `n` bytes of `pending` to the server (or drops them).
  void take(size_t n, bool forward) {
    if (forward) {
      server.out.append(std::string_view(pending).substr(0, n));
      if (server.fd < 0)
        hub.dial(*this);
    }
    pending.erase(0, n);
  }

  // One request (or TCP chunk) at the front of `pending`; false when the
  // connection stops processing (held, waiting, dropped).
  bool unit(size_t length, const RequestInfo &info) {
    ProxyDecision d;
    if (heldDecision) {
      d = std::move(*heldDecision);
      heldDecision.reset();
      d.delayNs = 0; // served already
    } else {
      d = hub.rules_.decide(iface, codec ? ProxyUnit::Request : ProxyUnit::Chunk, info.method,
                            info.target);
      if (d.rule)
        event(d, info, length);
    }
    if (d.delayNs > 0) {
      heldDecision = d;
      hold(d.delayNs);
      return false;
    }
    bool head = info.split == Split::Head && !info.last;
    if (!d.action) {
      take(length, true);
      if (codec && !info.noReply)
        ++owed;
      if (head)
        body = Body::Forward;
      return true;
    }
    if (*d.action == ir::ProxyAction::Drop) {
      if (d.rule->reset)
        abortiveClose(client.fd);
      hub.retire(this);
      return false;
    }
    // error() / response(): the codec's reply, after the server's replies
    // still owed on this connection.
    std::string reply = codec->reply(replySpec(*d.rule), info);
    take(length, false);
    if (head)
      body = Body::Discard;
    closeAfterReply = closeAfterReply || info.closeAfter;
    if (owed == 0) {
      client.out.append(reply);
      return !closeAfterReply;
    }
    queuedReply = std::move(reply);
    replyQueued = true;
    return false;
  }

  void hold(int64_t ns) {
    held = true;
    uint64_t cid = id;
    ProxyHub &h = hub;
    hub.loop_.addTimer(deadlineAfter(ns), [&h, cid] {
      auto it = h.conns_.find(cid);
      if (it == h.conns_.end())
        return;
      Conn &c = *it->second;
      c.held = false;
      c.processClient(); // the held unit first, with its decision
      if (!c.dead)
        c.readSide(c.client);
      if (!c.dead)
        c.pump();
    });
  }

  // Writes what each side is owed; ends a direction whose reader is done.
  void pump() {
    if (connected && !server.out.flush(server.fd))
      return hub.retire(this);
    if (!client.out.flush(client.fd))
      return hub.retire(this);
    // Resume reading a side whose backlog drained.
    if (!client.eof && !held && !replyQueued && pending.size() < kHighWater)
      readSide(client);
    if (dead)
      return;
    if (connected && !server.eof && client.out.size() < kHighWater)
      readSide(server);
    if (dead)
      return;
    if (closeAfterReply && !replyQueued && client.out.size() == 0)
      return hub.retire(this); // our reply is out and the client asked to close
    if (client.eof && pending.empty() && !held && server.out.size() == 0 && connected &&
        !server.shutDown) {
      ::shutdown(server.fd, SHUT_WR);
      server.shutDown = true;
    }
    if (server.eof && client.out.size() == 0 && !client.shutDown && !replyQueued) {
      ::shutdown(client.fd, SHUT_WR);
      client.shutDown = true;
    }
    bool undialed = server.fd < 0 && pending.empty() && client.out.size() == 0;
    if ((client.eof && (server.eof || undialed)) || (client.shutDown && server.shutDown))
      hub.retire(this);
  }

  void event(const ProxyDecision &d, const RequestInfo &info, size_t length) {
    const std::string &proto = ep().protocol;
    std::vector<std::pair<std::string, std::string>> f;
    if (!codec) { // plain TCP, or bytes the codec could not parse
      f.emplace_back("bytes", std::to_string(length));
    } else if (const ir::Protocol *p = ir::findProtocol(proto)) {
      // The request's fields under the names of the matchers they feed.
      if (!p->methodField.empty())
        f.emplace_back(p->methodField, info.method);
      if (!p->targetField.empty())
        f.emplace_back(p->targetField, info.target);
    }
    f = decisionFields(ep(), d, std::move(f));
    hub.record(iface, std::move(f));
  }
};

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

std::optional<size_t> ProxyHub::add(ProxyEndpoint ep, std::string &error) {
  // The upstream, resolved once: loopback, or a remote service's host
  // (IPv4: the proxy dials with a sockaddr_in).
  in_addr upstream{htonl(INADDR_LOOPBACK)};
  if (!ep.realHost.empty()) {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *res = nullptr;
    if (int rc = getaddrinfo(ep.realHost.c_str(), nullptr, &hints, &res); rc != 0 || !res) {
      error = "proxy for " + ep.serviceName + "." + ep.interface + ": cannot resolve " +
              ep.realHost + " to an IPv4 address: " + gai_strerror(rc);
      return std::nullopt;
    }
    upstream = reinterpret_cast<sockaddr_in *>(res->ai_addr)->sin_addr;
    freeaddrinfo(res);
  }
  // A datagram protocol's proxy is a UDP relay, never the TCP listener.
  const ir::Protocol *proto = ir::findProtocol(ep.protocol);
  bool datagrams = proto && proto->datagrams;
  int fd =
      socket(AF_INET, (datagrams ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 ||
      (!datagrams && listen(fd, 512) < 0) ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) < 0) {
    error = "proxy for " + ep.serviceName + "." + ep.interface + ": " + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return std::nullopt;
  }
  ep.proxyPort = ntohs(a.sin_port);
  size_t index = endpoints_.size();
  std::unique_ptr<TlsTerminator> tls;
  if (ep.tls && !datagrams) {
    // Callers dial the terminator; its clear side is the listener above.
    TlsTerminatorConfig cfg;
    cfg.start = proto ? proto->tls : ir::TlsStart::AtConnect;
    cfg.clearPort = ep.proxyPort;
    cfg.upstream = upstream;
    cfg.upstreamPort = ep.realPort;
    cfg.verifyHost = ep.realHost.empty() ? "127.0.0.1" : ep.realHost;
    cfg.tls = ep.tls;
    cfg.onFailure = [this, index](const std::string &side, const std::string &why) {
      trace_.record(EventType::TlsFailed, endpoints_[index].service,
                    {{"interface", endpoints_[index].interface},
                     {"protocol", endpoints_[index].protocol},
                     {"side", side},
                     {"error", why}});
    };
    tls = TlsTerminator::open(loop_, std::move(cfg), error);
    if (!tls) {
      error = "proxy for " + ep.serviceName + "." + ep.interface + ": " + error;
      ::close(fd);
      return std::nullopt;
    }
    ep.proxyPort = tls->callerPort();
  }
  tls_.push_back(std::move(tls));
  endpoints_.push_back(std::move(ep));
  upstreams_.push_back(upstream);
  if (datagrams) {
    sockaddr_in up{};
    up.sin_family = AF_INET;
    up.sin_addr = upstream;
    up.sin_port = htons(endpoints_[index].realPort);
    datagrams_.push_back(std::make_unique<DatagramRelay>(
        loop_, rules_, index, fd, up, [this, index](size_t bytes, const ProxyDecision &d) {
          record(index, decisionFields(endpoints_[index], d, {{"bytes", std::to_string(bytes)}}));
        }));
  } else {
    listeners_.push_back(
        std::make_unique<Acceptor>(fd, [this, index](int c) { accept(index, c); }));
  }
  return index;
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

ProxyEndpoint proxyEndpoint(ServiceId id, const ir::Service &svc, const ir::Interface &iface,
                            const ir::Address &at, const std::string &specDir) {
  ProxyEndpoint ep;
  ep.service = id;
  ep.serviceName = svc.name;
  ep.interface = iface.name;
  ep.protocol = iface.protocol;
  ep.realPort = static_cast<uint16_t>(at.port);
  ep.realHost = at.host;
  if (iface.tls)
    ep.tls = tlsClientConfig(*iface.tls, specDir);
  return ep;
}

std::optional<size_t> ProxyHub::find(std::string_view service, std::string_view iface) const {
  for (size_t i = 0; i < endpoints_.size(); ++i)
    if (endpoints_[i].serviceName == service && endpoints_[i].interface == iface)
      return i;
  return std::nullopt;
}

std::string ProxyHub::normalizeTarget(size_t iface, const std::string &pattern) const {
  const ProxyProtocol *p = findProxyProtocol(endpoints_.at(iface).protocol);
  return p && p->normalizeTarget ? p->normalizeTarget(pattern) : pattern;
}

void ProxyHub::accept(size_t iface, int fd) {
  noDelay(fd);
  uint64_t id = nextConn_++;
  auto owned = std::make_unique<Conn>(*this, id, iface);
  Conn &c = *owned;
  c.client.fd = fd;
  conns_.emplace(id, std::move(owned));
  bool dialNow = true;
  if (const ProxyProtocol *p = findProxyProtocol(endpoints_[iface].protocol)) {
    c.codec = p->makeCodec();
    dialNow = p->serverFirst;
  }
  // Per-connection rules decide before anything is relayed.
  int64_t delayNs = 0;
  if (rules_.hasConnectionRules(iface)) {
    ProxyDecision d = rules_.decide(iface, ProxyUnit::Connection, "", "");
    if (d.rule) {
      RequestInfo none;
      c.event(d, none, 0);
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
  loop_.add(fd, kEvents, &c.client);
  // Client-first protocols (a codec) dial the real port when the first
  // byte is forwarded, so a connection whose requests the proxy answers
  // itself never occupies the service; plain TCP and server-first
  // protocols (MySQL) dial at once (the server speaks first).
  auto begin = [this, id, dialNow] {
    auto it = conns_.find(id);
    if (it == conns_.end())
      return;
    Conn &c = *it->second;
    c.held = false;
    if (dialNow)
      dial(c);
    if (!c.dead)
      c.readSide(c.client);
    if (!c.dead)
      c.pump();
  };
  if (delayNs > 0) {
    c.held = true;
    loop_.addTimer(deadlineAfter(delayNs), begin);
  } else {
    begin();
  }
}

void ProxyHub::dial(Conn &c) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s < 0) {
    abortiveClose(c.client.fd);
    return retire(&c);
  }
  noDelay(s);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr = upstreams_[c.iface];
  a.sin_port = htons(endpoints_[c.iface].realPort);
  if (const TlsTerminator *t = tls_[c.iface].get()) { // TLS to the service: its terminator
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(t->backPort());
  }
  c.server.fd = s;
  if (connect(s, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0) {
    c.connected = true;
  } else if (errno != EINPROGRESS) {
    abortiveClose(c.client.fd); // refused: the caller sees a reset, as directly
    ::close(s);
    c.server.fd = -1;
    return retire(&c);
  }
  loop_.add(s, kEvents, &c.server);
}

void ProxyHub::retire(Conn *c) {
  if (c->dead)
    return;
  c->dead = true;
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

void ProxyHub::record(size_t iface, std::vector<std::pair<std::string, std::string>> fields) {
  trace_.record(EventType::Proxy, endpoints_[iface].service, std::move(fields));
}

} // namespace fbc::rt
