// The memcached steps (svc.<iface>.get(key=), .set(key=, value=, ttl=),
// .delete(key=), .incr(key=, delta=)) and the memcached readiness probe:
// one text-protocol command over a fresh connection (the protocol is a line
// and a data block; runtime/proto_memcached.h reads the reply), with the
// socket driven here so the wait has a deadline and gives up when
// `cancelled()` turns true.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace fbc::rt {

struct TlsClientConfig;

struct MemcachedStepResult {
  bool ok = false;    // a reply arrived (an error reply too)
  std::string status; // its first word: "STORED", "VALUE", "END", "5", "SERVER_ERROR"
  std::string line;   // its first line
  std::string value;  // a get's value, when hasValue
  bool hasValue = false;
  std::string error; // when !ok: "dial tcp ...", "read: i/o timeout",
                     // "connection closed before a reply", "cancelled"
  int64_t durationMs = 0;
};

// Sends `request` (a command line with its "\r\n", and a storage
// command's data block) to host:port and reads one reply. Dial timeout 5 s,
// I/O timeout `ioTimeoutMs`.
MemcachedStepResult memcachedStep(const std::string &host, uint16_t port,
                                  const std::string &request,
                                  const std::function<bool()> &cancelled,
                                  int64_t ioTimeoutMs = 10000,
                                  const TlsClientConfig *tls = nullptr);

// Whether a reply is one of the protocol's errors: ERROR, CLIENT_ERROR ...,
// SERVER_ERROR ...
bool isMemcachedError(const std::string &status);

// One readiness probe: `version` answers VERSION <v>.
bool probeMemcached(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
                    const TlsClientConfig *tls = nullptr);

} // namespace fbc::rt
