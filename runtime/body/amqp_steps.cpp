// The AMQP 0-9-1 steps (protocol_steps.h): each call one connection of its
// own over librabbitmq (runtime/clients/amqp_step.h), its arguments by
// keyword or positionally in the order ir/protocols.h gives them, the
// outcome as the reference's step response: .ok, .error, and .body
// (publish: {"exchange", "routing_key"}; get: {"routing_key", "body"} of the
// message taken, null when the queue had none, so .data is None).
#include "ir/json_writer.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/amqp_step.h"
#include "runtime/trace/trace.h"
#include "runtime/values/response_value.h"

namespace fbc::rt {

using star::Value;

namespace {

// Where the step logs in: the interface's address, and the account the
// service's env= names as RabbitMQ's image does (RABBITMQ_DEFAULT_USER /
// RABBITMQ_DEFAULT_PASS / RABBITMQ_DEFAULT_VHOST), else guest/guest on "/".
AmqpConnParams connParams(const StepTarget &to) {
  AmqpConnParams p;
  p.host = to.at.dialHost();
  p.port = static_cast<uint16_t>(to.at.port);
  for (const auto &[k, v] : to.service.env) {
    if (k == "RABBITMQ_DEFAULT_USER")
      p.user = v;
    else if (k == "RABBITMQ_DEFAULT_PASS")
      p.password = v;
    else if (k == "RABBITMQ_DEFAULT_VHOST")
      p.vhost = v;
  }
  return p;
}

// AMQP short strings: an exchange, routing key or queue name is at most
// 255 bytes on the wire.
void checkShort(star::Thread &t, const StepTarget &to, std::string_view what,
                const std::string &s) {
  if (s.size() > 255)
    failBadArgument(t, to.what + "(): " + std::string(what) + " is longer than 255 bytes");
}

HttpStepResponse amqpResponse(std::string_view method, const std::string &exchange,
                              const std::string &routingKey, const AmqpStepResult &r) {
  HttpStepResponse out;
  out.durationMs = r.durationMs;
  if (!r.ok) {
    out.error = "amqp " + std::string(method) + ": " + r.error;
    return out;
  }
  out.ok = true;
  if (method == "get" && r.empty) {
    out.body = "null";
    return out;
  }
  ir::JsonWriter w(out.body, 0);
  if (method == "publish")
    w.beginObject(true).field("exchange", exchange).field("routing_key", routingKey).endObject();
  else
    w.beginObject(true).field("routing_key", r.routingKey).field("body", r.body).endObject();
  return out;
}

} // namespace

Value amqpStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                   const star::Args &args) {
  const ir::StepMethod &m = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<std::string> a = tableStepArgs(t, to, m, args);
  if (to.tls)
    t.fail(to.what + "(): fbc's AMQP steps do not speak TLS yet");
  bool publish = method == "publish";
  // publish(routing_key, body, exchange); get(queue).
  const std::string &name = a[0];
  std::string exchange = publish ? a[2] : "";
  checkShort(t, to, publish ? "routing_key" : "queue", name);
  checkShort(t, to, "exchange", exchange);
  StepFields sf = stepSendFields(to, method);
  // `key`: a publish's routing key, a get's queue (the exchange is in
  // the response).
  sf.emplace_back("key", name);
  if (publish)
    sf.emplace_back("data", clippedField(a[1], 200));
  to.trace.stepSend(to.id, std::move(sf));
  AmqpStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    AmqpConnParams at = connParams(to);
    r = publish ? amqpPublish(at, exchange, name, a[1], to.cancelled)
                : amqpGet(at, name, to.cancelled);
  }
  StepFields f = stepRecvFields(method, r.durationMs, r.ok);
  if (!r.ok)
    f.emplace_back("error", clippedField(r.error, 200));
  else if (!publish)
    f.emplace_back("reply", r.empty ? "" : clippedField(r.body, 200));
  endStep(t, to, std::move(f));
  return Value::object(t.heap.make<ResponseValue>(amqpResponse(method, exchange, name, r)));
}

} // namespace fbc::rt
