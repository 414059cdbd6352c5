// A connection through the fault proxy: see proxy_conn.h.
#include "runtime/proxy/proxy_conn.h"

#include "ir/protocols.h"
#include "runtime/os/clock.h"

#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

namespace fbc::rt {

using tcp_relay::abortiveClose;
using tcp_relay::kHighWater;

namespace {
// The most client bytes a connection holds while its codec waits for the
// rest of one unit (a 2 MiB SQL statement is one PostgreSQL message): past
// it the unit cannot be decided and the rest of the connection is relayed
// as TCP, as with bytes that are not the protocol.
constexpr size_t kMaxUnit = size_t(64) << 20;
} // namespace

namespace {

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

void ProxyHub::Conn::onEvents(Side &s, uint32_t ev) {
  if (dead)
    return;
  if (&s == &server && !connected && (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(server.fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err && err != ECONNRESET) {
      // The real service refused: the caller sees its connection reset,
      // as it would have connecting directly.
      abortiveClose(client.fd);
      return hub.retire(this);
    }
    // A reset here came after the service accepted (a TLS terminator
    // refusing the service's certificate, before this loop turned): the
    // connection existed, so it ends as any reset of the service's side
    // does (readSide), not as a refused dial.
    connected = true;
    if (err == ECONNRESET)
      server.eof = true;
  }
  if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
    readSide(s);
  if (!dead)
    pump();
}

void ProxyHub::Conn::readSide(Side &s) {
  if (s.fd < 0)
    return; // not dialed yet
  Side &peer = s.client ? server : client;
  char buf[65536];
  while (!s.eof && !dead) {
    if (s.client ? (held || replyQueued || closeAfterReply || pending.size() >= readAhead())
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
    if (h2 && s.client) {
      h2FromClient(std::string_view(buf, size_t(n)));
    } else if (h2) {
      h2FromServer(std::string_view(buf, size_t(n)));
    } else if (s.client) {
      pending.append(buf, size_t(n));
      processClient();
    } else {
      fromServer(std::string_view(buf, size_t(n)));
    }
  }
}

void ProxyHub::Conn::fromServer(std::string_view b) {
  std::string kept; // what the codec lets the client have of `b` (AMQP)
  bool filtered = codec && codec->filterResponse(b, kept);
  if (filtered)
    b = kept;
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
  if (filtered && !pending.empty())
    processClient(); // a unit the codec held for the server's word (AMQP)
}

size_t ProxyHub::Conn::readAhead() const {
  return wantsMore ? kMaxUnit : kHighWater;
}

bool ProxyHub::Conn::waitForMore() {
  if (pending.size() < kMaxUnit) {
    wantsMore = true;
    return true;
  }
  codec.reset(); // a unit larger than the proxy holds: relayed as plain TCP from here
  return false;
}

void ProxyHub::Conn::processClient() {
  while (!dead && !held && !replyQueued && !closeAfterReply && !pending.empty()) {
    wantsMore = false;
    if (!codec) {
      if (!unit(RequestInfo{Split::Request, pending.size(), true, "", ""}))
        return;
      continue;
    }
    if (body != Body::None) {
      RequestInfo info = codec->splitRequest(pending);
      if (info.split == Split::NeedMore && waitForMore())
        return;
      if (!codec)
        continue;
      bool forward = body == Body::Forward;
      if (info.last || info.split != Split::Body)
        body = Body::None;
      take(info.length, forward);
      continue;
    }
    RequestInfo info = codec->splitRequest(pending);
    switch (info.split) {
    case Split::NeedMore:
      if (waitForMore())
        return;
      break;
    case Split::Passthrough:
      if (holdForExplorer(info, true))
        return;
      take(info.length, true);
      break;
    case Split::NotThisProtocol:
      codec.reset(); // the rest of the connection is relayed as plain TCP
      break;
    case Split::Discard:
      take(info.length, false); // bytes the server must not see (AMQP)
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

void ProxyHub::Conn::take(size_t n, bool forward) {
  if (forward) {
    server.out.append(std::string_view(pending).substr(0, n));
    if (server.fd < 0)
      hub.dial(*this);
  }
  pending.erase(0, n);
}

bool ProxyHub::Conn::unit(const RequestInfo &info) {
  return apply(info, decideUnit(codec ? ProxyUnit::Request : ProxyUnit::Chunk, info));
}

ProxyDecision ProxyHub::Conn::decideUnit(ProxyUnit u, const RequestInfo &info) {
  ProxyDecision d = hub.rules_.decide(iface, u, info.method, info.target);
  if (d.rule)
    event(d, info);
  return d;
}

bool ProxyHub::Conn::apply(const RequestInfo &info, ProxyDecision d) {
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
    // The message twice, back to back (only the UDP relay and codecs that
    // frame messages meet one: ir::Protocol::duplicates), each copy owed
    // its reply:
    // the first here, the second relayed as any forwarded unit. Not held
    // for an explorer's window (it is a fault, not a release choice).
    server.out.append(std::string_view(pending).substr(0, info.length));
    if (!info.noReply)
      ++owed;
    relay(info);
    return true;
  }
  if (*d.action == ir::ProxyAction::Drop) {
    drop(d.rule->reset);
    return false;
  }
  // error() / response(): the codec's reply, after the server's replies
  // still owed on this connection.
  std::string reply = codec->reply(replySpec(*d.rule), info);
  take(info.length, false);
  // What the server gets in the request's place (AMQP: the close of its
  // end of the channel the reply closes, so that both ends agree).
  if (std::string instead = codec->replacement(); !instead.empty()) {
    server.out.append(instead);
    if (server.fd < 0)
      hub.dial(*this);
  }
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

void ProxyHub::Conn::relay(const RequestInfo &info) {
  take(info.length, true);
  if (codec && !info.noReply)
    ++owed;
  if (info.split == Split::Head && !info.last)
    body = Body::Forward;
}

bool ProxyHub::Conn::holdForExplorer(const RequestInfo &info, bool passthrough) {
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

void ProxyHub::Conn::releaseHeld() {
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

void ProxyHub::Conn::resume() {
  if (!dead)
    readSide(client);
  if (!dead)
    pump();
}

void ProxyHub::Conn::drop(bool reset) {
  if (reset)
    abortiveClose(client.fd);
  hub.retire(this);
}

void ProxyHub::Conn::later(int64_t ns, std::function<void(Conn &)> fn) {
  uint64_t cid = id;
  ProxyHub &h = hub;
  ++hub.armed_;
  hub.loop_.addTimer(deadlineAfter(ns), [&h, cid, fn = std::move(fn)] {
    --h.armed_;
    if (auto it = h.conns_.find(cid); it != h.conns_.end())
      fn(*it->second);
  });
}

void ProxyHub::Conn::hold(int64_t ns) {
  held = true;
  later(ns, [](Conn &c) {
    c.held = false;
    Delayed u = std::move(*c.delayed);
    c.delayed.reset();
    if (c.apply(u.info, std::move(u.decision)))
      c.processClient();
    c.resume();
  });
}

void ProxyHub::Conn::pump() {
  pumpSides();
  updateFlight();
}

void ProxyHub::Conn::updateFlight() {
  bool now =
      !dead && ((server.fd >= 0 && !connected) || server.out.size() > 0 || client.out.size() > 0);
  if (now != flight) {
    flight = now;
    hub.inFlight_ += now ? 1 : -1;
  }
}

void ProxyHub::Conn::pumpSides() {
  if (connected && !server.out.flush(server.fd))
    return hub.retire(this);
  if (!client.out.flush(client.fd))
    return hub.retire(this);
  // Resume reading a side whose backlog drained.
  if (!client.eof && !held && !replyQueued && pending.size() < readAhead())
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

void ProxyHub::Conn::event(const ProxyDecision &d, const RequestInfo &info) {
  const std::string &proto = ep().protocol;
  std::vector<std::pair<std::string, std::string>> f;
  if (!codec && !h2) { // plain TCP, or bytes the codec could not parse
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

} // namespace fbc::rt
