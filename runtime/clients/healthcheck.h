// Readiness probes, polled by the thread that starts a service while the
// event loop keeps answering its syscalls: tcp (a connect succeeds), http
// (a GET answers 2xx, over libcurl), redis (PING answers PONG, not
// -LOADING), postgres (libpq's ping: the server accepts connections) and
// kafka (a Metadata request names a broker and a controller), memcached
// (`version`), mysql (a login and a ping over libmariadb), nats (the
// server's INFO, then PONG for a PING), amqp (Connection.Start for the
// AMQP 0-9-1 protocol header) and grpc (the server's SETTINGS for the
// HTTP/2 connection preface).
#pragma once

#include "runtime/clients/mysql_step.h"
#include "runtime/clients/postgres_step.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fbc::rt {

struct Healthcheck {
  enum class Kind { None, Tcp, Http, Redis, Postgres, Kafka, Memcached, Mysql, Nats, Amqp, Grpc };
  Kind kind = Kind::None;
  std::string host = "127.0.0.1"; // tcp, redis, kafka
  uint16_t port = 0;              // tcp, redis, kafka
  PgConnParams pg;                // postgres
  MysqlConnParams my;             // mysql
  std::string url;                // http: "http://127.0.0.1:8080/health"
  int64_t timeoutMs = 10000;
  int64_t intervalMs = 25; // the longest pause between probes (from 1 ms, see waitHealthy)
  // The checked interface's tls= (http, redis, memcached, nats, amqp: the
  // probe speaks TLS; postgres and mysql carry theirs in pg / my).
  std::shared_ptr<const TlsClientConfig> tls;
  bool http2 = false; // http: HTTP/2 with prior knowledge (ready() on an http2 interface)
  // The service's datagram (udp) interfaces' ports on 127.0.0.1: ready
  // also needs each bound, as no probe of another port says so (memcached
  // binds its UDP port after its TCP one).
  std::vector<uint16_t> datagramPorts;

  static Healthcheck tcp(std::string host, uint16_t port, int64_t timeoutMs = 10000);
  static Healthcheck http(std::string url, int64_t timeoutMs = 10000);
  static Healthcheck redis(std::string host, uint16_t port, int64_t timeoutMs = 10000);
  static Healthcheck postgres(PgConnParams conn, int64_t timeoutMs = 10000);
  static Healthcheck kafka(std::string host, uint16_t port, int64_t timeoutMs);
  // memcached's `version` answers VERSION <v>.
  static Healthcheck memcached(std::string host, uint16_t port, int64_t timeoutMs);
  static Healthcheck mysql(MysqlConnParams conn, int64_t timeoutMs);
  // NATS: the server's INFO, then PONG for a PING.
  static Healthcheck nats(std::string host, uint16_t port, int64_t timeoutMs);
  // AMQP 0-9-1: Connection.Start for the protocol header (amqp_probe.h).
  static Healthcheck amqp(std::string host, uint16_t port, int64_t timeoutMs);
  // gRPC: the server's SETTINGS for HTTP/2's connection preface (grpc_probe.h).
  static Healthcheck grpc(std::string host, uint16_t port, int64_t timeoutMs);
  // "tcp 127.0.0.1:8080", "http http://...", "redis 127.0.0.1:6379",
  // "postgres 127.0.0.1:5432", "kafka 127.0.0.1:9092"
  std::string describe() const;
};

enum class HealthResult { Ready, TimedOut, Aborted };

// Why `hc` timed out: "tcp 127.0.0.2:6379 not ready after 500ms:
// Connection refused" (`lastError` from waitHealthy(), "" for none).
std::string notReadyMessage(const Healthcheck &hc, const std::string &lastError);

// Polls until ready, the timeout, or `abort()` returns true (the service
// died). `lastError` says what the last failed probe saw.
HealthResult waitHealthy(const Healthcheck &hc, const std::function<bool()> &abort,
                         std::string &lastError);

// One probe each.
bool probeTcp(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error);
// Whether a UDP socket is bound to `port` in this thread's network
// namespace (/proc/thread-self/net/udp, udp6); else false with `error`.
bool probeUdpBound(uint16_t port, std::string &error);
// A 2xx answer to GET `url`; with `http2`, over HTTP/2 with prior knowledge.
bool probeHttp(const std::string &url, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls = nullptr, bool http2 = false);

} // namespace fbc::rt
