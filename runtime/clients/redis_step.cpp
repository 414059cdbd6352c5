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
                          int64_t ioTimeoutMs, const std::function<bool()> &cancelled) {
  RedisStepResult out;
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
  std::vector<RespValue> elems;
  for (const std::string &a : args)
    elems.push_back(RespValue::string(a));
  int64_t ioDeadline = monotonicNs() + ioTimeoutMs * 1000000;
  if (std::string e =
          sendAll(fd, encodeResp(RespValue::array(std::move(elems))), ioDeadline, cancelled);
      !e.empty()) {
    close(fd);
    return done(e);
  }
  RespReplyReader reader;
  for (;;) {
    std::string chunk, error;
    long n = recvSome(fd, chunk, ioDeadline, cancelled, error);
    if (n <= 0) {
      close(fd);
      return done(n == 0 ? "connection closed before a reply" : error);
    }
    reader.feed(chunk);
    RespReplyReader::Next next = reader.next(out.reply, error);
    if (next == RespReplyReader::Next::NeedMore)
      continue;
    close(fd);
    if (next == RespReplyReader::Next::ProtocolError)
      return done("protocol error: " + error);
    out.ok = true;
    out.durationMs = (monotonicNs() - t0) / 1000000;
    return out;
  }
}

} // namespace

RedisStepResult redisStep(const std::string &host, uint16_t port,
                          const std::vector<std::string> &args,
                          const std::function<bool()> &cancelled, int64_t ioTimeoutMs) {
  return roundTrip(host, port, args, monotonicNs() + 5 * 1000000000LL, ioTimeoutMs, cancelled);
}

bool probeRedis(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error) {
  RedisStepResult r =
      roundTrip(host, port, {"PING"}, monotonicNs() + timeoutMs * 1000000, timeoutMs, nullptr);
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
