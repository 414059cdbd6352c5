// One memcached command per connection: see memcached_step.h.
#include "runtime/clients/memcached_step.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/proto_memcached.h"

namespace fbc::rt {
namespace {

MemcachedStepResult roundTrip(const std::string &host, uint16_t port, const std::string &request,
                              int64_t dialDeadline, int64_t ioTimeoutMs,
                              const std::function<bool()> &cancelled, const TlsClientConfig *tls) {
  MemcachedStepResult out;
  int64_t t0 = monotonicNs();
  MemcachedReplyReader reader;
  out.error = exchangeOnce(
      host, port, request, dialDeadline, ioTimeoutMs, cancelled,
      [&](std::string_view chunk, std::string &) {
        reader.feed(chunk);
        return reader.next(out.status, out.line, out.value, out.hasValue) ? ReplyState::Done
                                                                          : ReplyState::NeedMore;
      },
      "connection closed before a reply", tls);
  out.ok = out.error.empty();
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

} // namespace

MemcachedStepResult memcachedStep(const std::string &host, uint16_t port,
                                  const std::string &request,
                                  const std::function<bool()> &cancelled, int64_t ioTimeoutMs,
                                  const TlsClientConfig *tls) {
  return roundTrip(host, port, request, monotonicNs() + 5 * 1000000000LL, ioTimeoutMs, cancelled,
                   tls);
}

bool isMemcachedError(const std::string &status) {
  return status == "ERROR" || status == "CLIENT_ERROR" || status == "SERVER_ERROR";
}

bool probeMemcached(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
                    const TlsClientConfig *tls) {
  MemcachedStepResult r = roundTrip(host, port, "version\r\n", monotonicNs() + timeoutMs * 1000000,
                                    timeoutMs, nullptr, tls);
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
