// The proxy's TLS terminators: see tls_bridge.h.
//
// One Bridge per connection joins a TLS side (a caller's connection at the
// front, the connection to the service at the back) and a clear side (to
// or from the clear proxy). It goes through phases: the protocol's clear
// prelude (Greeting: the MySQL server's first packet relayed in clear;
// Negotiate: the SSLRequest or SSL request packet), the Handshake, then
// Relay; or Clear when the caller never asks for TLS (its bytes then pass
// as they are, and the service decides). Every fd is edge-triggered, so
// each pump reads until EAGAIN (or a full buffer) and writes until EAGAIN.
#include "runtime/proxy/tls_bridge.h"

#include "runtime/os/clock.h"
#include "runtime/protocols/proto_mysql.h"
#include "runtime/protocols/proto_nats.h"
#include "runtime/protocols/proto_postgres.h"
#include "runtime/proxy/acceptor.h"
#include "runtime/proxy/relay_socket.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fbc::rt {

using tcp_relay::abortiveClose;
using tcp_relay::kEvents;
using tcp_relay::kHighWater;

namespace {

constexpr size_t kMysqlHeader = 4;

uint32_t le(std::string_view s, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v |= uint32_t(uint8_t(s[at + i])) << (8 * i);
  return v;
}

uint32_t be32(std::string_view s) {
  return uint32_t(uint8_t(s[0])) << 24 | uint32_t(uint8_t(s[1])) << 16 |
         uint32_t(uint8_t(s[2])) << 8 | uint32_t(uint8_t(s[3]));
}

// The length of the MySQL packet at the front of `b` (header included), or
// 0 when its header is not all there.
size_t mysqlPacket(std::string_view b) {
  return b.size() < kMysqlHeader ? 0 : kMysqlHeader + le(b, 0, 3);
}

int listenLoopback(uint16_t &port, std::string &error) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 || listen(fd, 512) < 0 ||
      getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) < 0) {
    error = std::string("tls terminator: ") + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return -1;
  }
  port = ntohs(a.sin_port);
  return fd;
}

} // namespace

struct TlsTerminator::Bridge {
  struct Side final : EventLoop::Handler {
    Bridge *b = nullptr;
    int fd = -1;
    bool eof = false, shutDown = false;
    std::string out; // bytes to write to this side (clear bytes: TLS encrypts them)
    void onEvents(uint32_t) override { b->pump(); }
  };
  enum class Phase { Greeting, Negotiate, Handshake, Relay, Clear };

  TlsTerminator &t;
  uint64_t id;
  bool front; // TLS server to a caller (else TLS client to the service)
  Side tlsSide, clearSide;
  bool dialing = true; // the side this bridge connected is not connected yet
  bool dead = false;
  Phase phase = Phase::Handshake;
  std::string prelude;                // clear bytes read from the TLS side before TLS
  std::string clearPending;           // clear bytes for the TLS side once the session is up
  bool fixMysqlResponse = false;      // the next clear packet is a handshake response to fix
  std::unique_ptr<TlsStream> session; // from the Handshake on

  Bridge(TlsTerminator &term, uint64_t i, bool f) : t(term), id(i), front(f) {
    tlsSide.b = clearSide.b = this;
    switch (t.cfg_.start) {
    case ir::TlsStart::SslRequest:
      phase = Phase::Negotiate; // the front reads the caller's request; the back sends one
      break;
    case ir::TlsStart::AfterGreeting:
    case ir::TlsStart::AfterInfo:
      phase = Phase::Greeting;
      break;
    default:
      break;
    }
  }

  Side &dialed() { return front ? clearSide : tlsSide; }

  void fail(const std::string &why) {
    if (t.cfg_.onFailure)
      t.cfg_.onFailure(front ? "caller" : "service", why);
    abortiveClose(clearSide.fd);
    t.retire(this);
  }

  void pump() {
    if (dead)
      return;
    if (dialing) {
      int err = 0;
      socklen_t len = sizeof err;
      if (getsockopt(dialed().fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err != 0)
        return front ? t.retire(this) : fail(std::string("connect: ") + std::strerror(err));
      sockaddr_in peer{};
      socklen_t plen = sizeof peer;
      if (getpeername(dialed().fd, reinterpret_cast<sockaddr *>(&peer), &plen) < 0)
        return; // still connecting
      dialing = false;
      if (!front && phase == Phase::Negotiate) { // PostgreSQL: ask the service for TLS
        char req[8] = {0, 0, 0, 8};
        uint32_t code = htonl(kPgSslRequest);
        std::memcpy(req + 4, &code, 4);
        tlsSide.out.append(req, sizeof req);
      }
    }
    for (bool progress = true; progress && !dead;) {
      progress = false;
      switch (phase) {
      case Phase::Greeting:
        progress = greeting();
        break;
      case Phase::Negotiate:
        progress = negotiate();
        break;
      case Phase::Handshake:
        progress = handshake();
        break;
      case Phase::Relay:
      case Phase::Clear:
        progress = relay();
        break;
      }
    }
  }

  // Clear reads of a side into `into`, until EAGAIN; false when it ended.
  bool readClear(Side &s, std::string &into) {
    char buf[16384];
    for (;;) {
      ssize_t n = ::recv(s.fd, buf, sizeof buf, 0);
      if (n > 0) {
        into.append(buf, size_t(n));
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return true;
      s.eof = true;
      return false;
    }
  }

  // Exactly `n` clear bytes of the TLS side's fd into `prelude`, once they
  // are all there (peeked until then): the bytes after them are the
  // peer's TLS handshake, which the session must read from the fd itself
  // (a client may send its ClientHello right behind its SSL request). 1
  // taken, 0 not yet, -1 the side ended.
  int takeExact(size_t n) {
    std::string buf(n, '\0');
    ssize_t got = ::recv(tlsSide.fd, buf.data(), n, MSG_PEEK);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
      tlsSide.eof = true;
      return -1;
    }
    if (got < ssize_t(n))
      return 0;
    ::recv(tlsSide.fd, buf.data(), n, 0);
    prelude += buf;
    return 1;
  }

  // Clear writes of a side's `out`; false when the peer is gone.
  bool flushClear(Side &s) {
    while (!s.out.empty()) {
      ssize_t n = ::send(s.fd, s.out.data(), s.out.size(), MSG_NOSIGNAL);
      if (n < 0)
        return errno == EAGAIN || errno == EINTR;
      s.out.erase(0, size_t(n));
    }
    return true;
  }

  // The server's greeting, relayed in clear to the caller: MySQL's first
  // packet (the caller's SSL request follows: Negotiate) or NATS's INFO
  // line (the caller begins the handshake at once).
  bool greeting() {
    if (dialing)
      return false;
    Side &server = front ? clearSide : tlsSide; // where the greeting comes from
    Side &caller = front ? tlsSide : clearSide;
    std::string got;
    bool open = readClear(server, got);
    prelude += got;
    bool info = t.cfg_.start == ir::TlsStart::AfterInfo;
    size_t n = info ? natsGreetingLength(prelude) : mysqlPacket(prelude);
    bool whole = n && prelude.size() >= n;
    if (whole) {
      caller.out.append(prelude, 0, n);
      prelude.erase(0, n);
    } else if (!open) {
      return finishEarly();
    }
    if (!flushClear(caller))
      return finishEarly();
    if (!whole)
      return false;
    if (info)
      return startHandshake();
    phase = Phase::Negotiate;
    return true;
  }

  bool negotiate() {
    if (dialing)
      return false;
    if (t.cfg_.start == ir::TlsStart::SslRequest)
      return front ? pgAnswer() : pgAsk();
    return front ? mysqlTake() : mysqlSend();
  }

  // Front, PostgreSQL: the caller's SSLRequest answered 'S' (GSSENCRequest
  // 'N'); any other startup passes in clear.
  bool pgAnswer() {
    if (int got = takeExact(8); got <= 0)
      return got == 0 ? false : finishEarly();
    uint32_t code = be32(std::string_view(prelude).substr(4));
    if (be32(prelude) == 8 && code == kPgGssEncRequest) {
      prelude.erase(0, 8);
      tlsSide.out += 'N';
      return flushClear(tlsSide) ? true : finishEarly();
    }
    if (be32(prelude) == 8 && code == kPgSslRequest) {
      prelude.erase(0, 8);
      tlsSide.out += 'S';
      if (!flushClear(tlsSide))
        return finishEarly();
      return startHandshake();
    }
    clearSide.out += prelude; // a clear startup: the service decides
    prelude.clear();
    phase = Phase::Clear;
    return true;
  }

  // Back, PostgreSQL: the SSLRequest sent (pump), the service's answer read.
  bool pgAsk() {
    if (!flushClear(tlsSide))
      return finishEarly();
    if (!tlsSide.out.empty())
      return false;
    if (int got = takeExact(1); got <= 0)
      return got == 0 ? false : (fail("the service closed the connection on SSLRequest"), false);
    if (prelude[0] != 'S')
      return fail("the service does not accept TLS (it answered SSLRequest with '" +
                  prelude.substr(0, 1) + "')"),
             false;
    prelude.erase(0, 1);
    return startHandshake();
  }

  // Front, MySQL: the caller's SSL request packet (CLIENT_SSL, 32 bytes)
  // taken; any other first packet passes in clear.
  bool mysqlTake() {
    char header[kMysqlHeader];
    ssize_t got = ::recv(tlsSide.fd, header, sizeof header, MSG_PEEK);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
      return finishEarly();
    if (got < ssize_t(sizeof header))
      return false;
    size_t n = mysqlPacket(std::string_view(header, sizeof header));
    if (int taken = takeExact(n); taken <= 0)
      return taken == 0 ? false : finishEarly();
    if (n == kMysqlHeader + 32 && (le(prelude, kMysqlHeader, 4) & kMysqlClientSsl)) {
      prelude.erase(0, n);
      fixMysqlResponse = true; // the response that follows inside TLS
      return startHandshake();
    }
    clearSide.out += prelude;
    prelude.clear();
    phase = Phase::Clear;
    return true;
  }

  // Back, MySQL: the first packet from the proxy is the caller's handshake
  // response. Sequence 2 means the caller asked for TLS (its SSL request was
  // packet 1): the service gets an SSL request built from the response's
  // first 32 bytes, the handshake, then the response with CLIENT_SSL set
  // again (the front cleared it for the proxy's codec). Sequence 1: clear.
  bool mysqlSend() {
    std::string got;
    bool open = readClear(clearSide, got);
    prelude += got;
    size_t n = mysqlPacket(prelude);
    if (!n || prelude.size() < n || prelude.size() < kMysqlHeader + 32)
      return open ? false : finishEarly();
    if (uint8_t(prelude[3]) != 2) {
      tlsSide.out += prelude;
      prelude.clear();
      phase = Phase::Clear;
      return true;
    }
    prelude[kMysqlHeader + 1] = char(uint8_t(prelude[kMysqlHeader + 1]) | (kMysqlClientSsl >> 8));
    std::string request{char(32), 0, 0, 1};
    request.append(prelude, kMysqlHeader, 32);
    tlsSide.out += request;
    if (!flushClear(tlsSide) || !tlsSide.out.empty())
      return finishEarly(); // 36 bytes on a fresh connection: written at once or never
    return startHandshake();
  }

  bool startHandshake() {
    if (!front && !prelude.empty() && t.cfg_.start != ir::TlsStart::AfterGreeting)
      return fail("the service sent bytes before the TLS handshake"), false;
    std::string verify = front ? "" : t.cfg_.verifyHost;
    session = std::make_unique<TlsStream>(front ? t.serverCtx_ : t.clientCtx_, tlsSide.fd, verify);
    phase = Phase::Handshake;
    if (front || t.cfg_.start != ir::TlsStart::AfterGreeting)
      return true;
    // Back, MySQL: the caller's handshake response waits for the session.
    clearPending = std::move(prelude);
    prelude.clear();
    return true;
  }
  bool handshake() {
    if (dialing)
      return false;
    if (!session) {
      if (front && t.cfg_.start != ir::TlsStart::AtConnect)
        return false;
      return startHandshake();
    }
    switch (session->handshake()) {
    case TlsStream::Io::Ok:
      phase = Phase::Relay;
      tlsSide.out = std::move(clearPending);
      clearPending.clear();
      return true;
    case TlsStream::Io::Failed:
      return fail(session->error()), false;
    default:
      return false; // waits for the peer
    }
  }

  // TLS side <-> clear side, both ways.
  bool relay() {
    bool progress = false;
    // TLS (or clear, Phase::Clear) side -> clear side.
    while (!tlsSide.eof && clearSide.out.size() < kHighWater && !dead) {
      size_t before = clearSide.out.size();
      if (session && phase == Phase::Relay) {
        char buf[16384];
        size_t n = 0;
        TlsStream::Io io = session->read(buf, sizeof buf, n);
        if (io == TlsStream::Io::Ok) {
          clearSide.out.append(buf, n);
        } else if (io == TlsStream::Io::Closed) {
          tlsSide.eof = true;
        } else if (io == TlsStream::Io::Failed) {
          abortiveClose(clearSide.fd);
          return t.retire(this), false;
        }
      } else {
        readClear(tlsSide, clearSide.out);
      }
      if (clearSide.out.size() == before)
        break;
      progress = true;
    }
    if (fixMysqlResponse && clearSide.out.size() >= kMysqlHeader + 4) {
      // The proxy's codec reads CLIENT_SSL as "TLS follows": cleared, as
      // for a caller that spoke in clear; the back sets it again.
      clearSide.out[kMysqlHeader + 1] =
          char(uint8_t(clearSide.out[kMysqlHeader + 1]) & ~(kMysqlClientSsl >> 8));
      fixMysqlResponse = false;
    }
    // Clear side -> TLS side.
    while (!clearSide.eof && tlsSide.out.size() < kHighWater) {
      size_t before = tlsSide.out.size();
      errno = 0;
      bool open = readClear(clearSide, tlsSide.out);
      if (tlsSide.out.size() == before) {
        if (!open && errno == ECONNRESET) { // the proxy reset the caller
          abortiveClose(tlsSide.fd);
          return t.retire(this), false;
        }
        break;
      }
      progress = true;
    }
    if (!fixMysqlResponse && !flushClear(clearSide))
      return t.retire(this), false;
    if (!flushTls())
      return false;
    // Ends: a side that ended is ended on the other once its bytes are out.
    if (tlsSide.eof && clearSide.out.empty() && !clearSide.shutDown) {
      ::shutdown(clearSide.fd, SHUT_WR);
      clearSide.shutDown = true;
    }
    if (clearSide.eof && tlsSide.out.empty() && !tlsSide.shutDown) {
      if (session && phase == Phase::Relay)
        session->shutdown();
      ::shutdown(tlsSide.fd, SHUT_WR);
      tlsSide.shutDown = true;
    }
    if ((tlsSide.eof && clearSide.eof) || (tlsSide.shutDown && clearSide.shutDown))
      return t.retire(this), false;
    return progress;
  }

  bool flushTls() {
    if (!session || phase != Phase::Relay)
      return flushClear(tlsSide) || (t.retire(this), false);
    while (!tlsSide.out.empty()) {
      size_t n = 0;
      TlsStream::Io io = session->write(tlsSide.out.data(), tlsSide.out.size(), n);
      tlsSide.out.erase(0, n);
      if (io == TlsStream::Io::Ok)
        continue;
      if (io == TlsStream::Io::WantRead || io == TlsStream::Io::WantWrite)
        return true;
      abortiveClose(clearSide.fd);
      t.retire(this);
      return false;
    }
    return true;
  }

  // A side ended before TLS began: the connection ends as it would have.
  bool finishEarly() {
    t.retire(this);
    return false;
  }
};

std::unique_ptr<TlsTerminator> TlsTerminator::open(EventLoop &loop, TlsTerminatorConfig cfg,
                                                   std::string &error) {
  std::unique_ptr<TlsTerminator> t(new TlsTerminator(loop, std::move(cfg)));
  const TlsClientConfig &c = *t->cfg_.tls;
  if (c.proxyCert.empty() || c.proxyKey.empty()) {
    error = "tls_cert has no proxy_cert and proxy_key: fbc's proxy cannot present a certificate "
            "to the interface's callers";
    return nullptr;
  }
  if (!(t->serverCtx_ = TlsContext::server(c.proxyCert, c.proxyKey, error)) ||
      !(t->clientCtx_ = c.context(error)))
    return nullptr;
  int front = listenLoopback(t->callerPort_, error);
  if (front < 0)
    return nullptr;
  TlsTerminator *self = t.get();
  auto accept = [self](bool isFront) {
    return [self, isFront](int c) {
      int one = 1;
      setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      self->accepted(isFront, c);
    };
  };
  t->front_ = std::make_unique<Acceptor>(front, accept(true));
  int back = listenLoopback(t->backPort_, error);
  if (back < 0)
    return nullptr;
  t->back_ = std::make_unique<Acceptor>(back, accept(false));
  return t;
}

TlsTerminator::TlsTerminator(EventLoop &loop, TlsTerminatorConfig cfg)
    : loop_(loop), cfg_(std::move(cfg)) {}

TlsTerminator::~TlsTerminator() {
  for (auto &[id, b] : bridges_)
    for (Bridge::Side *s : {&b->tlsSide, &b->clearSide})
      if (s->fd >= 0)
        ::close(s->fd);
}

void TlsTerminator::start() {
  loop_.add(front_->fd(), EPOLLIN | EPOLLET, front_.get());
  loop_.add(back_->fd(), EPOLLIN | EPOLLET, back_.get());
}

void TlsTerminator::closeAll() {
  std::vector<Bridge *> open;
  for (auto &[id, b] : bridges_)
    open.push_back(b.get());
  for (Bridge *b : open)
    retire(b);
}

void TlsTerminator::accepted(bool front, int fd) {
  uint64_t id = next_++;
  auto owned = std::make_unique<Bridge>(*this, id, front);
  Bridge &b = *owned;
  // The front's TLS side is the caller it accepted, its clear side a
  // connection to the proxy; the back's clear side is the proxy's
  // connection, its TLS side a connection to the service.
  Bridge::Side &accepted = front ? b.tlsSide : b.clearSide;
  Bridge::Side &dialed = front ? b.clearSide : b.tlsSide;
  accepted.fd = fd;
  in_addr loopback{htonl(INADDR_LOOPBACK)};
  bool connectedNow = false; // the bridge learns it from the socket's first event (dialing)
  dialed.fd = front ? tcp_relay::connectTo(loopback, cfg_.clearPort, connectedNow)
                    : tcp_relay::connectTo(cfg_.upstream, cfg_.upstreamPort, connectedNow);
  if (dialed.fd < 0) {
    abortiveClose(fd); // refused: the caller sees a reset, as directly
    ::close(fd);
    return;
  }
  bridges_.emplace(id, std::move(owned));
  loop_.add(accepted.fd, kEvents, &accepted);
  loop_.add(dialed.fd, kEvents, &dialed);
  b.pump();
}

void TlsTerminator::retire(Bridge *b) {
  if (b->dead)
    return;
  b->dead = true;
  for (Bridge::Side *s : {&b->tlsSide, &b->clearSide})
    if (s->fd >= 0) {
      loop_.remove(s->fd);
      ::close(s->fd);
      s->fd = -1;
    }
  auto it = bridges_.find(b->id);
  if (it == bridges_.end())
    return;
  // Other events of this epoll batch may still name the bridge's sides.
  retired_.push_back(std::move(it->second));
  bridges_.erase(it);
  loop_.addTimer(deadlineAfter(100000000), [this] {
    if (!retired_.empty())
      retired_.erase(retired_.begin());
  });
}

} // namespace fbc::rt
