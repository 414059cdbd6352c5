// The NATS steps and probe: see nats_step.h.
#include "runtime/clients/nats_step.h"

#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"
#include "runtime/protocols/proto_nats.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace fbc::rt {
namespace {

constexpr int64_t kDialMs = 5000;
constexpr std::string_view kConnect =
    "CONNECT {\"verbose\":false,\"pedantic\":false,\"lang\":\"fbc\",\"version\":\"1\","
    "\"protocol\":1,\"headers\":true,\"no_responders\":true}\r\n";

std::string pub(const std::string &subject, const std::string &reply, const std::string &data) {
  return "PUB " + subject + (reply.empty() ? "" : " " + reply) + " " + std::to_string(data.size()) +
         "\r\n" + data + "\r\n";
}

// What the exchange saw of the server's operations.
struct Seen {
  std::string buffered; // bytes not yet parsed
  bool info = false, pong = false;
  std::vector<NatsMessage> messages;
};

// Feeds `chunk` and calls `on` for each whole operation, until it says
// Done or Failed; a stream that is not NATS fails. The operations are
// parsed where they lie and the buffer trimmed once per chunk.
template <class On> ReplyState feed(Seen &s, std::string_view chunk, std::string &error, On &&on) {
  s.buffered.append(chunk);
  std::string_view rest = s.buffered;
  ReplyState r = ReplyState::NeedMore;
  while (r == ReplyState::NeedMore) {
    NatsOp op;
    NatsParse p = parseNatsOp(rest, op);
    if (p == NatsParse::NeedMore)
      break;
    if (p == NatsParse::Bad) {
      error = "not the NATS protocol: " + std::string(rest.substr(0, rest.find('\r')));
      return ReplyState::Failed;
    }
    rest.remove_prefix(op.length);
    if (op.op == "INFO")
      s.info = true;
    if (op.op == "-ERR") {
      error = "-ERR '" + std::string(op.error) + "'";
      return ReplyState::Failed;
    }
    if (op.op == "PONG")
      s.pong = true;
    if (op.op == "MSG" || op.op == "HMSG")
      s.messages.push_back({std::string(op.subject), std::string(op.reply), std::string(op.headers),
                            std::string(op.payload)});
    r = on(op, error);
  }
  s.buffered.erase(0, s.buffered.size() - rest.size());
  return r;
}

template <class On>
NatsStepResult exchange(const std::string &host, uint16_t port, const std::string &request,
                        int64_t ioTimeoutMs, const std::function<bool()> &cancelled,
                        const TlsClientConfig *tls, Seen &seen, On &&on) {
  NatsStepResult out;
  int64_t t0 = monotonicNs();
  out.error = exchangeOnce(
      host, port, request, t0 + kDialMs * 1000000, ioTimeoutMs, cancelled,
      [&](std::string_view chunk, std::string &error) { return feed(seen, chunk, error, on); },
      "connection closed before PONG", tls, natsGreetingLength);
  out.ok = out.error.empty();
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

// A reply subject no other client of the server uses.
std::string inbox() {
  static std::atomic<uint64_t> next{0};
  char buf[64];
  std::snprintf(buf, sizeof buf, "_INBOX.fbc%d_%llu", int(getpid()),
                static_cast<unsigned long long>(next++));
  return buf;
}

} // namespace

NatsStepResult natsPublish(const std::string &host, uint16_t port, const std::string &subject,
                           const std::string &data, const std::function<bool()> &cancelled,
                           const TlsClientConfig *tls, int64_t ioTimeoutMs) {
  Seen seen;
  std::string request = std::string(kConnect) + pub(subject, "", data) + "PING\r\n";
  return exchange(host, port, request, ioTimeoutMs, cancelled, tls, seen,
                  [&](const NatsOp &op, std::string &) {
                    return op.op == "PONG" ? ReplyState::Done : ReplyState::NeedMore;
                  });
}

NatsStepResult natsRequest(const std::string &host, uint16_t port, const std::string &subject,
                           const std::string &data, int64_t timeoutMs,
                           const std::function<bool()> &cancelled, const TlsClientConfig *tls) {
  Seen seen;
  std::string box = inbox();
  // Unsubscribed by the server after one message: the first reply wins.
  std::string request = std::string(kConnect) + "SUB " + box + " 1\r\nUNSUB 1 1\r\n" +
                        pub(subject, box, data) + "PING\r\n";
  NatsStepResult r = exchange(
      host, port, request, timeoutMs, cancelled, tls, seen, [&](const NatsOp &op, std::string &) {
        return op.op == "MSG" || op.op == "HMSG" ? ReplyState::Done : ReplyState::NeedMore;
      });
  r.messages = std::move(seen.messages);
  if (r.ok && natsHeaderStatus(r.messages.front().headers) == "503") {
    r.ok = false; // the server's answer when no one subscribes to the subject
    r.error = "no responders";
    r.messages.clear();
  } else if (!r.ok && r.error == "read: i/o timeout") {
    r.error = "timeout";
  }
  return r;
}

NatsStepResult natsSubscribe(const std::string &host, uint16_t port, const std::string &subject,
                             int64_t count, int64_t timeoutMs,
                             const std::function<bool()> &cancelled, const TlsClientConfig *tls) {
  Seen seen;
  std::string request = std::string(kConnect) + "SUB " + subject + " 1\r\nPING\r\n";
  NatsStepResult r = exchange(
      host, port, request, timeoutMs, cancelled, tls, seen, [&](const NatsOp &, std::string &) {
        return seen.pong && int64_t(seen.messages.size()) >= count ? ReplyState::Done
                                                                   : ReplyState::NeedMore;
      });
  // Fewer messages than asked for in the time given is an answer, not a
  // failure, once the server confirmed the subscription.
  if (!r.ok && r.error == "read: i/o timeout" && seen.pong) {
    r.ok = true;
    r.error.clear();
  }
  r.messages = std::move(seen.messages);
  return r;
}

bool probeNats(const std::string &host, uint16_t port, int64_t timeoutMs, std::string &error,
               const TlsClientConfig *tls) {
  Seen seen;
  NatsStepResult r = exchange(host, port, std::string(kConnect) + "PING\r\n", timeoutMs, nullptr,
                              tls, seen, [&](const NatsOp &op, std::string &why) {
                                if (op.op != "PONG")
                                  return ReplyState::NeedMore;
                                if (seen.info)
                                  return ReplyState::Done;
                                why = "PONG before the server's INFO";
                                return ReplyState::Failed;
                              });
  if (!r.ok)
    error = r.error;
  return r.ok;
}

} // namespace fbc::rt
