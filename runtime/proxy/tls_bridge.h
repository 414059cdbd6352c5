// TLS termination for the fault proxy of an interface(tls=tls_cert(...)).
//
// The proxy's rules read requests in clear, so on a TLS interface fbc
// stands a terminator on each side of the clear proxy (proxy.h), on the
// same event-loop thread:
//
//   caller --TLS--> front (proxy_cert) --clear--> proxy --clear--> back --TLS--> service
//                                                                   (ca, client_cert)
//
// The front listens where callers dial the interface's proxy, answers
// each caller's handshake with the tls_cert's proxy_cert and relays the
// clear bytes to the proxy's own listener; the proxy dials the back
// instead of the service, and the back re-originates TLS to the service,
// verifying it with the tls_cert's CA (not with insecure=True) and
// presenting its client_cert. How TLS begins is the protocol's
// (ir::TlsStart): at connect; after PostgreSQL's SSLRequest, which the
// front answers and the back sends; after MySQL's greeting, where the
// front takes the caller's SSL request packet and the back sends one built
// from the caller's handshake response; or after NATS's INFO line, relayed
// in clear, when the client begins the handshake. The clear segment in between
// carries what a clear connection would, so every codec and rule of the
// protocol works unchanged.
//
// A handshake that fails on either side closes the caller's connection,
// as the service would have, and is a `tls_failed` trace event saying
// which side and why.
#pragma once

#include "ir/protocols.h"
#include "runtime/clients/tls_dial.h"
#include "runtime/os/event_loop.h"

#include <netinet/in.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace fbc::rt {

struct TlsTerminatorConfig {
  ir::TlsStart start = ir::TlsStart::AtConnect;
  uint16_t clearPort = 0; // the proxy's own listener (the front relays to it)
  in_addr upstream{};     // the service's address and port (the back dials it)
  uint16_t upstreamPort = 0;
  std::string verifyHost; // the name or address the service's certificate must carry
  std::shared_ptr<const TlsClientConfig> tls;
  // A failed handshake: "caller" or "service", and why.
  std::function<void(const std::string &side, const std::string &error)> onFailure;
};

class Acceptor;

class TlsTerminator {
public:
  // Binds both listeners on 127.0.0.1 (the contexts read the tls_cert's
  // files now); null with `error` when a file or a socket fails.
  static std::unique_ptr<TlsTerminator> open(EventLoop &loop, TlsTerminatorConfig cfg,
                                             std::string &error);
  ~TlsTerminator();
  TlsTerminator(const TlsTerminator &) = delete;
  TlsTerminator &operator=(const TlsTerminator &) = delete;

  uint16_t callerPort() const { return callerPort_; } // where callers dial
  uint16_t backPort() const { return backPort_; }     // where the proxy dials
  void start();                                       // on the loop thread: listens
  void closeAll();                                    // on the loop thread: closes every connection

  struct Bridge;

private:
  TlsTerminator(EventLoop &loop, TlsTerminatorConfig cfg);
  void accepted(bool front, int fd);
  void retire(Bridge *b);

  EventLoop &loop_;
  TlsTerminatorConfig cfg_;
  std::shared_ptr<TlsContext> serverCtx_, clientCtx_;
  std::unique_ptr<Acceptor> front_, back_;
  uint16_t callerPort_ = 0, backPort_ = 0;
  std::map<uint64_t, std::unique_ptr<Bridge>> bridges_;
  std::vector<std::unique_ptr<Bridge>> retired_;
  uint64_t next_ = 1;
};

} // namespace fbc::rt
