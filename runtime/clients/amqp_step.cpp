// The AMQP steps and probe: see amqp_step.h.
#include "runtime/clients/amqp_step.h"

#include "runtime/clients/rabbitmq_loader.h"
#include "runtime/clients/tcp_dial.h"
#include "runtime/os/clock.h"

#include <amqp.h>
#include <amqp_tcp_socket.h>

#include <unistd.h>

namespace fbc::rt {
namespace {

constexpr int64_t kDialMs = 5000, kLoginMs = 5000, kRpcMs = 10000;
constexpr amqp_channel_t kChannel = 1;

timeval millis(int64_t ms) {
  return timeval{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>(ms % 1000 * 1000)};
}

amqp_bytes_t bytes(const std::string &s) {
  return amqp_bytes_t{s.size(), const_cast<char *>(s.data())};
}

std::string text(amqp_bytes_t b) {
  return std::string(static_cast<const char *>(b.bytes), b.len);
}

// "404 NOT_FOUND - no queue 'x' in vhost '/'": a close's code and text.
template <class Close> std::string closeText(const void *decoded) {
  const auto *c = static_cast<const Close *>(decoded);
  return std::to_string(c->reply_code) + " " + text(c->reply_text);
}

// Why an RPC failed ("" when it did not).
std::string rpcError(const amqp_rpc_reply_t &r) {
  switch (r.reply_type) {
  case AMQP_RESPONSE_NORMAL:
    return "";
  case AMQP_RESPONSE_NONE:
    return "no reply";
  case AMQP_RESPONSE_LIBRARY_EXCEPTION:
    return amqp_error_string2(r.library_error);
  case AMQP_RESPONSE_SERVER_EXCEPTION:
    if (r.reply.id == AMQP_CHANNEL_CLOSE_METHOD)
      return "channel closed: " + closeText<amqp_channel_close_t>(r.reply.decoded);
    if (r.reply.id == AMQP_CONNECTION_CLOSE_METHOD)
      return "connection closed: " + closeText<amqp_connection_close_t>(r.reply.decoded);
    return "the broker closed with method " + std::to_string(r.reply.id);
  }
  return "";
}

// One logged-in connection: null `conn` with `error` set when it could not
// be made.
struct Session {
  amqp_connection_state_t conn = nullptr;
  std::string error; // a failed exchange: the connection is dropped, not closed

  Session(const AmqpConnParams &at, int64_t loginMs, const std::function<bool()> &cancelled) {
    if (!loadRabbitmq(error))
      return;
    int fd = dialForStep(at.host, at.port, monotonicNs() + kDialMs * 1000000, cancelled, error);
    if (fd < 0)
      return;
    conn = amqp_new_connection();
    amqp_socket_t *s = conn ? amqp_tcp_socket_new(conn) : nullptr;
    if (!s) {
      ::close(fd);
      error = "cannot make a librabbitmq connection";
      return;
    }
    amqp_tcp_socket_set_sockfd(s, fd); // closed with the connection
    timeval login = millis(loginMs), rpc = millis(kRpcMs);
    amqp_set_handshake_timeout(conn, &login);
    amqp_set_rpc_timeout(conn, &rpc);
    amqp_rpc_reply_t r = amqp_login(conn, at.vhost.c_str(), 0, AMQP_DEFAULT_FRAME_SIZE, 0,
                                    AMQP_SASL_METHOD_PLAIN, at.user.c_str(), at.password.c_str());
    if (std::string e = rpcError(r); !e.empty())
      error = "login: " + e;
  }
  ~Session() {
    if (!conn)
      return;
    if (error.empty())
      amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
  }
  // Channel.Open on kChannel; false with `error` set.
  bool openChannel() {
    amqp_channel_open(conn, kChannel);
    error = rpcError(amqp_get_rpc_reply(conn));
    return error.empty();
  }
  void failed(std::string e) { error = std::move(e); }
};

// The broker's answer to a publish in confirm mode: its Basic.Ack, or the
// close it sent instead; polled in slices for `cancelled`.
std::string awaitConfirm(Session &s, const std::function<bool()> &cancelled) {
  int64_t deadline = monotonicNs() + kRpcMs * 1000000;
  while (monotonicNs() < deadline) {
    if (cancelled())
      return "cancelled";
    amqp_frame_t f;
    timeval slice = millis(100);
    int st = amqp_simple_wait_frame_noblock(s.conn, &f, &slice);
    if (st == AMQP_STATUS_TIMEOUT)
      continue;
    if (st != AMQP_STATUS_OK)
      return amqp_error_string2(st);
    if (f.frame_type != AMQP_FRAME_METHOD)
      continue;
    switch (f.payload.method.id) {
    case AMQP_BASIC_ACK_METHOD:
      return "";
    case AMQP_BASIC_NACK_METHOD:
      return "nack";
    case AMQP_CHANNEL_CLOSE_METHOD:
      return "channel closed: " + closeText<amqp_channel_close_t>(f.payload.method.decoded);
    case AMQP_CONNECTION_CLOSE_METHOD:
      return "connection closed: " + closeText<amqp_connection_close_t>(f.payload.method.decoded);
    default:
      break;
    }
  }
  return "timeout";
}

template <class Fn>
AmqpStepResult step(const AmqpConnParams &at, const std::function<bool()> &cancelled, Fn &&fn) {
  AmqpStepResult out;
  int64_t t0 = monotonicNs();
  {
    Session s(at, kLoginMs, cancelled);
    if (s.error.empty() && s.openChannel())
      fn(s, out);
    out.error = s.error;
  }
  out.ok = out.error.empty();
  out.durationMs = (monotonicNs() - t0) / 1000000;
  return out;
}

} // namespace

AmqpStepResult amqpPublish(const AmqpConnParams &at, const std::string &exchange,
                           const std::string &routingKey, const std::string &body,
                           const std::function<bool()> &cancelled) {
  return step(at, cancelled, [&](Session &s, AmqpStepResult &) {
    amqp_confirm_select(s.conn, kChannel);
    if (std::string e = rpcError(amqp_get_rpc_reply(s.conn)); !e.empty())
      return s.failed(e);
    amqp_basic_properties_t props{};
    if (int st = amqp_basic_publish(s.conn, kChannel, bytes(exchange), bytes(routingKey), 0, 0,
                                    &props, bytes(body));
        st != AMQP_STATUS_OK)
      return s.failed(amqp_error_string2(st));
    if (std::string e = awaitConfirm(s, cancelled); !e.empty())
      s.failed(e);
  });
}

AmqpStepResult amqpGet(const AmqpConnParams &at, const std::string &queue,
                       const std::function<bool()> &cancelled) {
  return step(at, cancelled, [&](Session &s, AmqpStepResult &out) {
    amqp_rpc_reply_t r = amqp_basic_get(s.conn, kChannel, bytes(queue), 1);
    if (std::string e = rpcError(r); !e.empty())
      return s.failed(e);
    if (r.reply.id == AMQP_BASIC_GET_EMPTY_METHOD) {
      out.empty = true;
      return;
    }
    const auto *ok = static_cast<const amqp_basic_get_ok_t *>(r.reply.decoded);
    out.routingKey = text(ok->routing_key);
    amqp_message_t m;
    r = amqp_read_message(s.conn, kChannel, &m, 0);
    if (std::string e = rpcError(r); !e.empty())
      return s.failed(e);
    out.body = text(m.body);
    amqp_destroy_message(&m);
  });
}

} // namespace fbc::rt
