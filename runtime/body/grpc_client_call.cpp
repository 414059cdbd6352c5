// A gRPC client()'s calls in a test body (client(descriptors=,
// grpc_service=)): `geo.GetCity(body={"id": 42})` or `geo.call("GetCity",
// body=...)`. body= (a dict, or JSON text) is encoded as the method's input
// message with the client's descriptor set; the call is the gRPC step's
// (runtime/clients/grpc_step.h: one unary call over HTTP/2, through the
// target's proxy when the test has one, so protocol rules apply); the
// response is the step's (.status the grpc-status, .ok, .error) with .body
// the reply decoded to JSON text (.data / .json() its dict). The trace
// records client_call and client_return with the client as the actor, as
// an OpenAPI client's calls.
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "ir/builtins/client_value.h"
#include "ir/contract.h"
#include "ir/duration.h"
#include "ir/grpc_descriptors.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/clients/grpc_step.h"
#include "runtime/supervisor/supervisor.h"
#include "runtime/values/response_value.h"

namespace fbc::rt {

using star::Value;

Value Executor::callGrpcClient(star::Thread &t, const ir::builtins::ClientValue &cv,
                               const ir::ContractOperation &op,
                               const std::map<std::string, Value> &kw, int64_t timeoutNs) {
  const ir::Client &c = cv.data;
  const ir::GrpcDescriptors &set = *c.contract->grpc;
  std::string who = "client " + ir::quote(c.name) + " " + op.name;
  for (const auto &[k, v] : kw)
    if (k != "body" && k != "timeout")
      failUnknownKeyword(t, who + ": unknown argument " + ir::quote(k) +
                                "; a gRPC method takes body= (its input message as a dict) "
                                "and timeout=");
  const ir::GrpcMethod *m = set.findMethod(op.path);
  if (m->streaming)
    failBadArgument(t, who + ": " + op.path + " streams, and fbc makes unary calls only");
  std::string json = "{}";
  if (auto body = kw.find("body"); body != kw.end()) {
    auto *s = body->second.as<star::String>();
    if (!s && !body->second.as<star::Dict>())
      failBadArgument(t, who + ": body= must be a dict (the " + m->input + " message), got " +
                             std::string(star::typeName(body->second)));
    json = s ? std::string(s->view()) : star::encodeJson(t, body->second);
  }
  std::string request, error;
  if (!set.encode(m->input, json, request, error))
    failBadArgument(t, who + ": body= does not fit " + m->input + ": " + error);

  std::optional<ServiceId> target = sup_ ? sup_->findService(c.service) : std::nullopt;
  if (!target)
    t.fail("service " + ir::quote(c.service) + " is not running");
  // A client's target interface is checked at load (a grpc one).
  const ir::Interface *iface = loaded_.spec().findService(c.service)->findInterface(c.interface);
  ir::Address at = dialAddress(c.service, *iface);
  // Neither the call nor the client says: the gRPC step's own default
  // (its timeout= keyword in the protocol table).
  int64_t timeoutMs = 0;
  if (timeoutNs > 0) {
    timeoutMs = std::max<int64_t>(1, timeoutNs / 1000000);
  } else {
    const ir::StepMethod &call = *ir::findStepMethod(iface->protocol, "call");
    std::string error;
    for (const ir::StepKeyword &k : call.keywords)
      if (k.name == "timeout")
        timeoutMs = ir::parseDuration(k.fallback, error).value_or(0) / 1000000;
  }

  ServiceId self = clientActor(c);
  Trace &trace = sup_->trace();
  trace.record(EventType::ClientCall, self,
               {{"client", c.name},
                {"target", c.service},
                {"interface", c.interface},
                {"protocol", iface->protocol},
                {"operation", op.name},
                {"contract", c.contract->id()},
                {"method", op.method},
                {"path", op.path},
                {"params", ""},
                {"body", clippedField(json, 200)}});
  GrpcCallResult got;
  {
    InterpreterLock::Released waiting(body_.lock());
    got = grpcCall(at.dialHost(), static_cast<uint16_t>(at.port), op.path, request, timeoutMs,
                   [this] { return cancelled(); });
  }
  if (cancelled())
    t.fail(who + "(): cancelled");
  HttpStepResponse res = grpcResponse(got, false);
  // The reply as JSON: what .data and .json() read.
  std::string reply, decodeError;
  if (res.ok && set.decode(m->output, res.body, reply, decodeError)) {
    res.body = std::move(reply);
  } else if (res.ok) {
    res.ok = false;
    res.error = "the reply is no " + m->output + ": " + decodeError;
  }
  std::vector<std::pair<std::string, std::string>> back{
      {"client", c.name},
      {"target", c.service},
      {"operation", op.name},
      {"grpc_status", std::to_string(res.status)},
      {"duration_ms", std::to_string(res.durationMs)},
      {"success", res.ok ? "true" : "false"},
      {"contract_ok", "true"}};
  if (!res.ok)
    back.emplace_back("error", clippedField(res.error, 200));
  trace.record(EventType::ClientReturn, self, std::move(back));
  if (!decodeError.empty())
    t.fail(who + ": " + res.error);
  auto *resp = t.heap.make<ResponseValue>(std::move(res));
  resp->client = c.name;
  resp->operation = op.name;
  return Value::object(resp);
}

} // namespace fbc::rt
