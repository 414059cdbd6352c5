// The fault proxy's sockets and per-connection state machine: see proxy.h.
//
// Every fd is registered edge-triggered once (in, out, hang-up), so a side
// is read until EAGAIN and written until EAGAIN; a side the proxy stops
// reading (a held delay, a message held for the explorer, a full buffer on
// the other side) is read again when the reason goes away, not when epoll
// says so.
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

#include <algorithm>
#include <cctype>
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

// A held message's word for its name (proxy_hold.h): the request's method,
// else the first word of its target (a query's verb), upper-cased.
std::string messageWord(const RequestInfo &info) {
  std::string w = info.method;
  if (w.empty())
    w = info.target.substr(0, info.target.find_first_of(" \t\r\n("));
  std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return std::toupper(c); });
  return w.empty() ? "request" : w;
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
  std::string pending; // client bytes not yet decided
  bool held = false;   // a delay timer (or the explorer) owns the front unit
  // The unit a delay() timer holds, as the codec split it and the rules
  // decided it: applied as is when the timer fires (the codec is not asked
  // to split the same bytes again: a stateful one, PostgreSQL's owed
  // cycles or HTTP's incremental parser, would count the request twice).
  struct Delayed {
    RequestInfo info;
    ProxyDecision decision;
  };
  std::optional<Delayed> delayed;
  enum class Body { None, Forward, Discard } body = Body::None;
  uint64_t owed = 0;       // replies the server owes for forwarded requests
  std::string queuedReply; // a reply of ours waiting for `owed` to reach 0
  bool replyQueued = false;
  bool closeAfterReply = false; // the client asked to close after our reply
  // fbc run --explore: the front unit, held for the explorer (`held` is
  // set too) until ProxyHub::releaseMessage() relays it.
  struct HeldUnit {
    RequestInfo info;
    bool passthrough = false; // a unit the codec relays undecided
  };
  std::optional<HeldUnit> heldUnit;
  bool flight = false; // counted in hub.inFlight_ (updateFlight())

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
        if (!unit(RequestInfo{Split::Request, pending.size(), true, "", ""}))
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
        if (holdForExplorer(info, true))
          return;
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
        if (!unit(info))
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
  bool unit(const RequestInfo &info) {
    ProxyDecision d = hub.rules_.decide(iface, codec ? ProxyUnit::Request : ProxyUnit::Chunk,
                                        info.method, info.target);
    if (d.rule)
      event(d, info);
    return apply(info, std::move(d));
  }

  // Carries out decision `d` on the unit at the front of `pending`; false
  // as unit().
  bool apply(const RequestInfo &info, ProxyDecision d) {
    if (d.delayNs > 0) {
      int64_t ns = d.delayNs;
      d.delayNs = 0; // served by the time the timer applies it
      delayed = Delayed{info, std::move(d)};
      hold(ns);
      return false;
    }
    bool head = info.split == Split::Head && !info.last;
    if (!d.action) {
      if (holdForExplorer(info, false))
        return false;
      relay(info);
      return true;
    }
    if (*d.action == ir::ProxyAction::Duplicate) {
      // The message twice, back to back (only codecs that frame messages
      // meet one: ir::Protocol::duplicatedByFbc), each copy owed its reply:
      // the first here, the second relayed as any forwarded unit. Not held
      // for an explorer's window (it is a fault, not a release choice).
      server.out.append(std::string_view(pending).substr(0, info.length));
      if (!info.noReply)
        ++owed;
      relay(info);
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
    take(info.length, false);
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

  // Moves a request on to the service: its body follows it, and the
  // service owes a reply.
  void relay(const RequestInfo &info) {
    take(info.length, true);
    if (codec && !info.noReply)
      ++owed;
    if (info.split == Split::Head && !info.last)
      body = Body::Forward;
  }

  // While an explorer's hold window is open: holds the front unit (true),
  // which releaseMessage() relays; the connection reads and decides
  // nothing more until then.
  bool holdForExplorer(const RequestInfo &info, bool passthrough) {
    if (!hub.holdSink_)
      return false;
    HeldMessage m;
    m.service = ep().service;
    m.conn = id;
    m.what = passthrough ? "passthrough" : codec ? messageWord(info) : "bytes";
    m.protocol = ep().protocol;
    m.serverPort = ep().realPort;
    m.bytes = pending.substr(0, std::min(info.length, kHeldBytes));
    m.framed = codec && !passthrough && info.length <= kHeldBytes;
    heldUnit = HeldUnit{info, passthrough};
    held = true;
    hub.holdSink_->heldMessage(m);
    return true;
  }

  // Relays the unit held for the explorer and goes on.
  void releaseHeld() {
    HeldUnit u = std::move(*heldUnit);
    heldUnit.reset();
    held = false;
    if (u.passthrough)
      take(u.info.length, true);
    else
      relay(u.info);
    processClient();
    resume();
  }

  // Reads on from the client and writes what each side is owed, once what
  // held the connection (a timer, the explorer) let it go.
  void resume() {
    if (!dead)
      readSide(client);
    if (!dead)
      pump();
  }

  void hold(int64_t ns) {
    held = true;
    uint64_t cid = id;
    ProxyHub &h = hub;
    ++hub.armed_;
    hub.loop_.addTimer(deadlineAfter(ns), [&h, cid] {
      --h.armed_;
      auto it = h.conns_.find(cid);
      if (it == h.conns_.end())
        return;
      Conn &c = *it->second;
      c.held = false;
      Delayed u = std::move(*c.delayed);
      c.delayed.reset();
      if (c.apply(u.info, std::move(u.decision)))
        c.processClient();
      c.resume();
    });
  }

  void pump() {
    pumpSides();
    updateFlight();
  }

  // Whether the connection has work of its own (dialing its service, bytes
  // a socket has not taken yet), counted in hub.inFlight_ for idle().
  void updateFlight() {
    bool now =
        !dead && ((server.fd >= 0 && !connected) || server.out.size() > 0 || client.out.size() > 0);
    if (now != flight) {
      flight = now;
      hub.inFlight_ += now ? 1 : -1;
    }
  }

  // Writes what each side is owed; ends a direction whose reader is done.
  void pumpSides() {
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

  void event(const ProxyDecision &d, const RequestInfo &info) {
    const std::string &proto = ep().protocol;
    std::vector<std::pair<std::string, std::string>> f;
    if (!codec) { // plain TCP, or bytes the codec could not parse
      f.emplace_back("bytes", std::to_string(info.length));
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
    c.resume();
  };
  if (delayNs > 0) {
    c.held = true;
    ++armed_;
    loop_.addTimer(deadlineAfter(delayNs), [this, begin] {
      --armed_;
      begin();
    });
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
