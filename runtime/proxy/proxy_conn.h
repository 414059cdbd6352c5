// One connection through the fault proxy (private to runtime/proxy/):
// the client's and the service's sockets, the client bytes not yet
// decided, and the state machine that splits them into units (the
// interface's codec), has the rule table decide each, and relays, delays,
// answers, duplicates or drops it; what the service sends back is relayed
// as it arrives. ProxyHub (proxy.cpp) accepts, dials and retires
// connections; everything a connection does on its own is here
// (proxy_conn.cpp).
//
// A side the connection stops reading (a held delay, a message held for
// the explorer, a full buffer on the other side) is read again when the
// reason goes away, not when epoll says so: fds are edge-triggered
// (relay_socket.h).
#pragma once

#include "runtime/os/event_loop.h"
#include "runtime/protocols/proxy_protocol.h"
#include "runtime/proxy/proxy.h"
#include "runtime/proxy/proxy_h2.h"
#include "runtime/proxy/relay_socket.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fbc::rt {

// An http2 or grpc interface's connection carries an HTTP/2 bridge
// (proxy_h2.h) in place of a codec, and is its Host (proxy_conn_h2.cpp).
struct ProxyHub::Conn final : H2Bridge::Host {
  struct Side final : EventLoop::Handler {
    Conn *conn = nullptr;
    bool client = true;
    int fd = -1;
    bool eof = false;         // read side ended
    bool shutDown = false;    // we sent FIN on it
    tcp_relay::OutBuffer out; // bytes to write to this side
    void onEvents(uint32_t ev) override { conn->onEvents(*this, ev); }
  };

  ProxyHub &hub;
  uint64_t id;
  size_t iface;
  Side client, server;
  std::unique_ptr<ProtocolCodec> codec; // null: plain TCP, or the bridge
  std::unique_ptr<H2Bridge> h2;         // http2 / grpc (startH2())
  bool connected = false;               // to the real port
  bool dead = false;
  std::string pending; // client bytes not yet decided
  bool held = false;   // a delay timer (or the explorer) owns the front unit
  // The codec waits for the rest of the front unit: the client is read past
  // the high-water mark, up to kMaxUnit (proxy_conn.cpp), since the unit
  // cannot be decided before it is whole.
  bool wantsMore = false;
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

  // What epoll says about side `s`: the service's connect completed or
  // failed, bytes to read, a hang-up.
  void onEvents(Side &s, uint32_t ev);

  // Reads what `s` has (unless its peer's buffer is full).
  void readSide(Side &s);

  // Bytes from the service: counted against the replies it owes (the
  // codec), relayed to the client, then our queued reply once none is owed.
  void fromServer(std::string_view b);

  // Decides and moves the front units of `pending`.
  void processClient();
  // How far the client is read ahead of what was decided.
  size_t readAhead() const;
  // The codec needs more of the front unit: true (wait for it) while
  // `pending` is under kMaxUnit; past it the codec is dropped (false).
  bool waitForMore();

  // Moves `n` bytes of `pending` to the server (or drops them).
  void take(size_t n, bool forward);

  // One request (or TCP chunk) at the front of `pending`; false when the
  // connection stops processing (held, waiting, dropped).
  bool unit(const RequestInfo &info);

  // Carries out decision `d` on the unit at the front of `pending`; false
  // as unit().
  bool apply(const RequestInfo &info, ProxyDecision d);

  // Moves a request on to the service: its body follows it, and the
  // service owes a reply.
  void relay(const RequestInfo &info);

  // While an explorer's hold window is open: holds the front unit (true),
  // which releaseMessage() relays; the connection reads and decides
  // nothing more until then.
  bool holdForExplorer(const RequestInfo &info, bool passthrough);

  // Relays the unit held for the explorer and goes on.
  void releaseHeld();

  // Reads on from the client and writes what each side is owed, once what
  // held the connection (a timer, the explorer) let it go.
  void resume();

  // Holds the front unit `ns` nanoseconds (a delay() rule); the timer
  // applies the decision that `delayed` keeps.
  void hold(int64_t ns);

  // Runs `fn` on this connection after `ns`, unless it is gone by then
  // (ProxyHub::idle() counts the armed timer): hold(), and the HTTP/2
  // bridge's after().
  void later(int64_t ns, std::function<void(Conn &)> fn);

  // Writes and reads what each side can now; updates the in-flight count.
  void pump();

  // Whether the connection has work of its own (dialing its service, bytes
  // a socket has not taken yet), counted in hub.inFlight_ for idle().
  void updateFlight();

  // Writes what each side is owed; ends a direction whose reader is done.
  void pumpSides();

  // The rule table's decision on `info`, its `proxy` event recorded when a
  // rule decided it: unit(), and the HTTP/2 bridge's decide().
  ProxyDecision decideUnit(ProxyUnit u, const RequestInfo &info);

  // The `proxy` trace event of rule decision `d` on `info`.
  void event(const ProxyDecision &d, const RequestInfo &info);

  // The HTTP/2 bridge (proxy_conn_h2.cpp): started for an http2 or grpc
  // interface, fed each side's bytes; h2Flush() queues what it owes
  // either side (and dials the service once it owes it bytes).
  void startH2(bool grpc);
  void h2FromClient(std::string_view b);
  void h2FromServer(std::string_view b);
  void h2Flush();
  // H2Bridge::Host (drop() is also a codec's drop(): apply()).
  ProxyDecision decide(const std::string &method, const std::string &target) override;
  void after(int64_t ns, std::function<void()> fn) override;
  void drop(bool reset) override;
};

} // namespace fbc::rt
