// The client side of an interface(tls=tls_cert(...)): what the steps, the
// readiness probes and the fault proxy's re-originated connections trust
// and present, with the tls_cert's paths resolved against the spec's
// folder (where tls_cert() checked them at load). And the blocking TLS
// helpers the hand-written step clients use, as tcp_dial.h's for TCP.
#pragma once

#include "ir/spec.h"
#include "runtime/os/tls.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace fbc::rt {

struct TlsClientConfig {
  std::string ca;                  // "" with insecure: no verification
  bool insecure = false;           // tls_cert(insecure=True)
  std::string cert, key;           // client_cert / client_key ("": none presented)
  std::string proxyCert, proxyKey; // what fbc's proxy presents to callers

  // A client context with these files, or null with `error`. Made on the
  // first call and shared by every later one (a probe loop dials every few
  // milliseconds; reading the CA and certificate each time cost more than
  // the handshake): the files are the ones tls_cert() checked at load.
  std::shared_ptr<TlsContext> context(std::string &error) const;

private:
  mutable std::once_flag made_;
  mutable std::shared_ptr<TlsContext> context_;
  mutable std::string error_;
};

// `c` with its paths made absolute against `specDir` (absolute ones kept):
// the same config (and so one SSL_CTX) for every call naming the same files.
std::shared_ptr<const TlsClientConfig> tlsClientConfig(const ir::TlsCert &c,
                                                       const std::string &specDir);

// On a connected non-blocking fd: the handshake, a write of all of `data`,
// one read appended to `out` (bytes read, 0 when the peer closed, -1 with
// `error`), each by `deadlineNs` (monotonicNs) with tcp_dial.h's errors
// ("write: i/o timeout", "cancelled") or the session's ("tls handshake:
// certificate verify failed (...)").
std::string tlsHandshake(TlsStream &s, int fd, int64_t deadlineNs,
                         const std::function<bool()> &cancelled);
std::string tlsSendAll(TlsStream &s, int fd, std::string_view data, int64_t deadlineNs,
                       const std::function<bool()> &cancelled);
long tlsRecvSome(TlsStream &s, int fd, std::string &out, int64_t deadlineNs,
                 const std::function<bool()> &cancelled, std::string &error);

} // namespace fbc::rt
