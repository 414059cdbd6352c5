// The AMQP 0-9-1 steps (svc.<iface>.publish(routing_key=, body=, exchange=),
// .get(queue=)), over librabbitmq (the
// RabbitMQ C client, loaded on first use: rabbitmq_loader.h). Each is one
// connection of its own: fbc dials it (with the deadline and the cancel
// hook of tcp_dial.h) and hands the socket to librabbitmq, whose blocking
// calls each wait at most the step's timeouts (the login 5 s, every other
// exchange 10 s); a publish's wait for its confirmation is polled in short
// slices, so a cancelled test stops it at once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace fbc::rt {

// Where and as whom (RabbitMQ's default account, guest, is allowed from
// loopback only).
struct AmqpConnParams {
  std::string host = "127.0.0.1";
  uint16_t port = 5672;
  std::string user = "guest", password = "guest", vhost = "/";
};

struct AmqpStepResult {
  bool ok = false;
  // When !ok: "dial tcp ...", "login: ...", "channel closed: 404 NOT_FOUND
  // - no exchange 'x' in vhost '/'", "connection closed: 320 ...", "nack"
  // (the broker refused the message), "timeout", "cancelled", or
  // librabbitmq's own ("a socket error occurred").
  std::string error;
  bool empty = false;           // get: the queue had no message
  std::string routingKey, body; // get: the message
  int64_t durationMs = 0;
};

// Publishes `body` to `exchange` ("" the default exchange) with
// `routingKey`, in confirm mode: ok once the broker acknowledged it.
AmqpStepResult amqpPublish(const AmqpConnParams &at, const std::string &exchange,
                           const std::string &routingKey, const std::string &body,
                           const std::function<bool()> &cancelled);
// Takes one message off `queue` (Basic.Get, acknowledged as it is taken):
// `empty` when there is none.
AmqpStepResult amqpGet(const AmqpConnParams &at, const std::string &queue,
                       const std::function<bool()> &cancelled);

} // namespace fbc::rt
