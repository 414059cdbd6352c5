// One Redis command per connection: see redis_step.h.
#include "runtime/clients/redis_step.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/trace/trace.h"

#include <unistd.h>

#include <algorithm>

namespace fbc::rt {
namespace {

RedisStepResult roundTrip(const std::string &host, uint16_t port,
                          const std::vector<std::string> &args, int64_t dialDeadline,
                          int64_t ioTimeoutMs, const std::function<bool()> &cancelled,
                          const TlsClientConfig *tls) {
  RedisStepResult out;
  int64_t t0 = monotonicNs();
  std::vector<RespValue> elems;
  for (const std::string &a : args)
    elems.push_back(RespValue::string(a));
  RespReplyReader reader;
  out.error = exchangeOnce(
      host, port, encodeResp(RespValue::array(std::move(elems))), dialDeadline, ioTimeoutMs,
      cancelled,
      [&](std::string_view chunk, std::string &error) {
        reader.feed(chunk);
        switch (reader.next(out.reply, error)) {
        case RespReplyReader::Next::NeedMore:
          return ReplyState::NeedMore;
        case RespReplyReader::Next::ProtocolError:
          error = "protocol error: " + error;
          return ReplyState::Failed;
        case RespReplyReader::Next::Reply:
          break;
        }
        return ReplyState::Done;
      },
      "connection closed before a reply", tls);
  out.ok = out.error.empty();
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

} // namespace

RedisStepResult redisStep(const std::string &host, uint16_t port,
                          const std::vector<std::string> &args,
                          const std::function<bool()> &cancelled, int64_t ioTimeoutMs,
                          const TlsClientConfig *tls) {
  return roundTrip(host, port, args, monotonicNs() + 5 * 1000000000LL, ioTimeoutMs, cancelled, tls);
}

bool probeRedis(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
                const TlsClientConfig *tls) {
  RedisStepResult r =
      roundTrip(host, port, {"PING"}, monotonicNs() + timeoutMs * 1000000, timeoutMs, nullptr, tls);
  if (!r.ok) {
    error = r.error;
    return false;
  }
  if (r.reply.type == RespValue::Type::Status && r.reply.str == "PONG")
    return true;
  error = "PING answered " + describeResp(r.reply);
  return false;
}

} // namespace fbc::rt
