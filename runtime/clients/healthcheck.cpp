#include "runtime/clients/healthcheck.h"

#include "runtime/clients/handshake_probe.h"
#include "runtime/clients/kafka_probe.h"
#include "runtime/clients/memcached_step.h"
#include "runtime/clients/nats_step.h"
#include "runtime/clients/redis_step.h"
#include "runtime/clients/steps.h"
#include "runtime/clients/tcp_dial.h"
#include "runtime/os/proc_net.h"
#include "runtime/trace/trace.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace fbc::rt {

Healthcheck Healthcheck::tcp(std::string host, uint16_t port, int64_t timeoutMs) {
  Healthcheck h;
  h.kind = Kind::Tcp;
  h.host = std::move(host);
  h.port = port;
  h.timeoutMs = timeoutMs;
  return h;
}

namespace {

// A probe of `kind` that dials host:port itself (TCP's fields).
Healthcheck dialled(Healthcheck::Kind kind, std::string host, uint16_t port, int64_t timeoutMs) {
  Healthcheck h = Healthcheck::tcp(std::move(host), port, timeoutMs);
  h.kind = kind;
  return h;
}

} // namespace

Healthcheck Healthcheck::http(std::string url, int64_t timeoutMs) {
  Healthcheck h;
  h.kind = Kind::Http;
  h.url = std::move(url);
  h.timeoutMs = timeoutMs;
  return h;
}

Healthcheck Healthcheck::redis(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Redis, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::kafka(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Kafka, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::memcached(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Memcached, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::nats(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Nats, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::amqp(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Amqp, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::grpc(std::string host, uint16_t port, int64_t timeoutMs) {
  return dialled(Kind::Grpc, std::move(host), port, timeoutMs);
}

Healthcheck Healthcheck::mysql(MysqlConnParams conn, int64_t timeoutMs) {
  Healthcheck h;
  h.kind = Kind::Mysql;
  h.my = std::move(conn);
  h.timeoutMs = timeoutMs;
  return h;
}

Healthcheck Healthcheck::postgres(PgConnParams conn, int64_t timeoutMs) {
  Healthcheck h;
  h.kind = Kind::Postgres;
  h.pg = std::move(conn);
  h.timeoutMs = timeoutMs;
  return h;
}

std::string Healthcheck::describe() const {
  switch (kind) {
  case Kind::None:
    return "none";
  case Kind::Tcp:
    return "tcp " + host + ":" + std::to_string(port);
  case Kind::Http:
    return "http " + url;
  case Kind::Redis:
    return "redis " + host + ":" + std::to_string(port);
  case Kind::Postgres:
    return "postgres " + pg.host + ":" + std::to_string(pg.port);
  case Kind::Kafka:
    return "kafka " + host + ":" + std::to_string(port);
  case Kind::Memcached:
    return "memcached " + host + ":" + std::to_string(port);
  case Kind::Mysql:
    return "mysql " + my.host + ":" + std::to_string(my.port);
  case Kind::Nats:
    return "nats " + host + ":" + std::to_string(port);
  case Kind::Amqp:
    return "amqp " + host + ":" + std::to_string(port);
  case Kind::Grpc:
    return "grpc " + host + ":" + std::to_string(port);
  }
  return "";
}

bool probeTcp(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error) {
  int fd = dialTcp(host, port, monotonicNs() + timeoutMs * 1000000, nullptr, error);
  if (fd < 0)
    return false;
  close(fd);
  return true;
}

bool probeUdpBound(uint16_t port, std::string &error) {
  // Read, not bound: a bind of ours to find out could take the port from
  // the service in the instant it binds (memcached then exits with
  // "Address already in use").
  for (const char *file : {"udp", "udp6"})
    for (const ProcSocket &s : procNetSockets("/proc/thread-self", file))
      if (s.localPort == port)
        return true;
  error = "udp 127.0.0.1:" + std::to_string(port) + " not bound yet";
  return false;
}

namespace {

size_t discardBody(char *, size_t size, size_t n, void *) {
  return size * n;
}

} // namespace

bool probeHttp(const std::string &url, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls, bool http2) {
  CURL *c = curl_easy_init();
  if (!c) {
    error = std::string("curl_easy_init failed: ") + curl_easy_strerror(CURLE_FAILED_INIT);
    return false;
  }
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeoutMs));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discardBody);
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*"); // probes go to this machine only
  if (http2)
    curl_easy_setopt(c, CURLOPT_HTTP_VERSION,
                     static_cast<long>(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE));
  setCurlTls(c, tls);
  CURLcode rc = curl_easy_perform(c);
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(c);
  if (rc != CURLE_OK) {
    error = curl_easy_strerror(rc);
    return false;
  }
  if (status < 200 || status > 299) {
    error = "status " + std::to_string(status);
    return false;
  }
  return true;
}

std::string notReadyMessage(const Healthcheck &hc, const std::string &lastError) {
  std::string m = hc.describe() + " not ready after " + std::to_string(hc.timeoutMs) + "ms";
  return lastError.empty() ? m : m + ": " + lastError;
}

HealthResult waitHealthy(const Healthcheck &hc, const std::function<bool()> &abort,
                         std::string &lastError) {
  int64_t deadline = monotonicNs() + hc.timeoutMs * 1000000;
  // Most services are ready within a few milliseconds of their exec, and
  // every test (every leaf) starts them afresh, so the pause between probes
  // grows with the wait: an eighth of the time waited so far, from 1 ms up
  // to the interval. Readiness is then seen at most ~12% late, and a
  // refused loopback connect costs microseconds.
  int64_t start = monotonicNs();
  for (;;) {
    if (abort())
      return HealthResult::Aborted;
    int64_t left = (deadline - monotonicNs()) / 1000000;
    if (left <= 0)
      return HealthResult::TimedOut;
    int64_t probeTimeout = left < 1000 ? left : 1000;
    bool ok = false;
    std::string error;
    int64_t probeStart = monotonicNs();
    switch (hc.kind) {
    case Healthcheck::Kind::None:
      return HealthResult::Ready;
    case Healthcheck::Kind::Tcp:
      ok = probeTcp(hc.host, hc.port, probeTimeout, error);
      break;
    case Healthcheck::Kind::Http:
      ok = probeHttp(hc.url, probeTimeout, error, hc.tls.get(), hc.http2);
      break;
    case Healthcheck::Kind::Redis:
      ok = probeRedis(hc.host, hc.port, probeTimeout, error, hc.tls.get());
      break;
    case Healthcheck::Kind::Postgres:
      ok = probePostgres(hc.pg, probeTimeout, error);
      break;
    case Healthcheck::Kind::Kafka:
      ok = probeKafka(hc.host, hc.port, probeTimeout, error);
      break;
    case Healthcheck::Kind::Memcached:
      ok = probeMemcached(hc.host, hc.port, probeTimeout, error, hc.tls.get());
      break;
    case Healthcheck::Kind::Mysql:
      ok = probeMysql(hc.my, probeTimeout, error);
      break;
    case Healthcheck::Kind::Nats:
      ok = probeNats(hc.host, hc.port, probeTimeout, error, hc.tls.get());
      break;
    case Healthcheck::Kind::Amqp:
      ok = probeAmqp(hc.host, hc.port, probeTimeout, error, hc.tls.get());
      break;
    case Healthcheck::Kind::Grpc:
      ok = probeGrpc(hc.host, hc.port, probeTimeout, error);
      break;
    }
    for (size_t i = 0; ok && i < hc.datagramPorts.size(); ++i)
      ok = probeUdpBound(hc.datagramPorts[i], error);
    if (ok)
      return HealthResult::Ready;
    // A probe given only the rest of the wait that used it all up was cut
    // short by fbc, not answered by the service: the reason names what the
    // last whole probe saw (a refused connect, not the last millisecond's
    // timeout).
    bool cutShort = probeTimeout == left && monotonicNs() >= probeStart + probeTimeout * 1000000;
    if (lastError.empty() || !cutShort)
      lastError = std::move(error);
    int64_t waitedMs = (monotonicNs() - start) / 1000000;
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::clamp<int64_t>(waitedMs / 8, 1, hc.intervalMs)));
  }
}

} // namespace fbc::rt
