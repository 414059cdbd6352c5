// The Redis step (svc.<iface>.command("GET", "k") and its sugar) and the
// Redis readiness probe: one command over a fresh connection, encoded and
// decoded by hiredis (runtime/protocols/proto_redis.h), with the socket driven here so
// the wait has a deadline and gives up when `cancelled()` turns true.
#pragma once

#include "runtime/protocols/proto_redis.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fbc::rt {

struct TlsClientConfig;

struct RedisStepResult {
  bool ok = false;   // a reply arrived (an error reply too)
  RespValue reply;   // when ok
  std::string error; // when !ok: "dial tcp ...", "read: i/o timeout",
                     // "connection closed before a reply", "cancelled"
  int64_t durationMs = 0;
};

// Sends `args` (args[0] is the command) to host:port and reads one reply.
// Dial timeout 5 s, I/O timeout `ioTimeoutMs`.
RedisStepResult redisStep(const std::string &host, uint16_t port,
                          const std::vector<std::string> &args,
                          const std::function<bool()> &cancelled, int64_t ioTimeoutMs = 10000,
                          const TlsClientConfig *tls = nullptr);

// One readiness probe: PING answers +PONG. A server still loading its data
// answers -LOADING: not ready, and `error` says so.
bool probeRedis(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
                const TlsClientConfig *tls = nullptr);

} // namespace fbc::rt
