// The proxy's side of the hold queue (fbc run --explore, docs/run.md
// "Exploring orderings"): while a hold window is open, every message a
// connection of the proxy would relay to its service (a request the rules
// let through, after any delay(); a unit the codec passes through; a chunk
// of an unframed stream) waits in the proxy and goes to the window's
// MessageSink; the connection reads nothing more from its client until the
// window releases it (ProxyHub::releaseMessage), so a connection has at
// most one message held and its messages go in the order sent. Replies
// from the service are relayed as they come.
#pragma once

#include "runtime/rules/rules.h"

#include <cstdint>
#include <string>

namespace fbc::rt {

struct HeldMessage {
  ServiceId service = kNoService; // the proxied service
  uint64_t conn = 0;              // the connection (the proxy's accept order): releaseMessage(conn)
  // What the message's name says it is: the request's method ("GET"), the
  // first word of its target when it has no method (a PostgreSQL query's
  // "SELECT"), "passthrough" (a unit the codec relays undecided), "bytes"
  // (an unframed chunk).
  std::string what;
  std::string protocol;    // the interface's
  uint16_t serverPort = 0; // the service's own port (what its resources are named by)
  std::string bytes;       // the message as sent, at most kHeldBytes
  // Its bytes are one request the codec framed, whole (else what it
  // touches cannot be read from them: the whole service).
  bool framed = false;
};

// The most of a held message's bytes kept for what it touches (as for a
// held send: runtime/explore/resources.cpp); a longer one is not framed.
inline constexpr size_t kHeldBytes = 64 << 10;

// Where held messages go (runtime/explore/hold_window.h implements it).
class MessageSink {
public:
  virtual ~MessageSink() = default;
  // On the proxy's loop thread.
  virtual void heldMessage(const HeldMessage &m) = 0;
};

} // namespace fbc::rt
