// One memcached command per connection: see memcached_step.h.
#include "runtime/clients/memcached_step.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/proto_memcached.h"

#include <unistd.h>

namespace fbc::rt {
namespace {

MemcachedStepResult roundTrip(const std::string &host, uint16_t port, const std::string &request,
                              int64_t dialDeadline, int64_t ioTimeoutMs,
                              const std::function<bool()> &cancelled) {
  MemcachedStepResult out;
  int64_t t0 = monotonicNs();
  auto done = [&](std::string error) {
    out.error = std::move(error);
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  };
  std::string dialError;
  int fd = dialForStep(host, port, dialDeadline, cancelled, dialError);
  if (fd < 0)
    return done(dialError);
  int64_t ioDeadline = monotonicNs() + ioTimeoutMs * 1000000;
  if (std::string e = sendAll(fd, request, ioDeadline, cancelled); !e.empty()) {
    close(fd);
    return done(e);
  }
  MemcachedReplyReader reader;
  for (;;) {
    std::string chunk, error;
    long n = recvSome(fd, chunk, ioDeadline, cancelled, error);
    if (n <= 0) {
      close(fd);
      return done(n == 0 ? "connection closed before a reply" : error);
    }
    reader.feed(chunk);
    if (!reader.next(out.status, out.line, out.value, out.hasValue))
      continue;
    close(fd);
    out.ok = true;
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  }
}

} // namespace

MemcachedStepResult memcachedStep(const std::string &host, uint16_t port,
                                  const std::string &request,
                                  const std::function<bool()> &cancelled, int64_t ioTimeoutMs) {
  return roundTrip(host, port, request, monotonicNs() + 5 * 1000000000LL, ioTimeoutMs, cancelled);
}

bool isMemcachedError(const std::string &status) {
  return status == "ERROR" || status == "CLIENT_ERROR" || status == "SERVER_ERROR";
}

bool probeMemcached(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error) {
  MemcachedStepResult r =
      roundTrip(host, port, "version\r\n", monotonicNs() + timeoutMs * 1000000, timeoutMs, nullptr);
  if (!r.ok) {
    error = r.error;
    return false;
  }
  if (r.status == "VERSION")
    return true;
  error = "version answered " + r.line;
  return false;
}

} // namespace fbc::rt
