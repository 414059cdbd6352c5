// The NATS steps (svc.<iface>.publish(subject=, data=), .request(subject=,
// data=, timeout=), .subscribe(subject=, count=, timeout=)) and the NATS
// readiness probe: each one connection of its own, written by hand over
// the deadline-and-cancel socket helpers (tcp_dial.h) and read with
// runtime/protocols/proto_nats.h. Every exchange sends CONNECT (not
// verbose, headers and no_responders on) and ends its commands with a
// PING: the server answers PONG once it has processed them, so a PONG
// means the publish or the subscription took effect, and a -ERR before
// it says why not. With `tls` (interface(tls=) on the server's nats
// interface), the server's INFO is read in clear and the rest of the
// exchange runs in the TLS session the client then begins, as NATS
// clients do when INFO says tls_required.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fbc::rt {

struct TlsClientConfig;

struct NatsMessage {
  std::string subject, reply, headers, data;
};

struct NatsStepResult {
  bool ok = false;
  // When !ok: the transport's error ("dial tcp ...", "read: i/o timeout",
  // "connection closed before PONG"), the server's ("-ERR 'Permissions
  // Violation for Publish to \"x\"'"), "no responders" or "timeout".
  std::string error;
  std::vector<NatsMessage> messages; // a request's reply; a subscription's messages
  int64_t durationMs = 0;
};

// Publishes `data` on `subject` and waits (up to `ioTimeoutMs`) for the
// PONG that says the server took it.
NatsStepResult natsPublish(const std::string &host, uint16_t port, const std::string &subject,
                           const std::string &data, const std::function<bool()> &cancelled,
                           const TlsClientConfig *tls = nullptr, int64_t ioTimeoutMs = 10000);
// Publishes `data` on `subject` with a reply inbox of its own and waits
// up to `timeoutMs` for the first reply.
NatsStepResult natsRequest(const std::string &host, uint16_t port, const std::string &subject,
                           const std::string &data, int64_t timeoutMs,
                           const std::function<bool()> &cancelled,
                           const TlsClientConfig *tls = nullptr);
// Subscribes to `subject` and collects messages until `count` arrived or
// `timeoutMs` passed (then ok with those that came; an unconfirmed
// subscription is an error).
NatsStepResult natsSubscribe(const std::string &host, uint16_t port, const std::string &subject,
                             int64_t count, int64_t timeoutMs,
                             const std::function<bool()> &cancelled,
                             const TlsClientConfig *tls = nullptr);

// One readiness probe: the server's INFO, then PONG for a PING.
bool probeNats(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls = nullptr);

} // namespace fbc::rt
