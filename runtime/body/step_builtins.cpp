// Steps: svc.get()/post()/put()/patch()/delete() over HTTP and
// svc.send() over TCP to the receiver's interface, traced as step_send /
// step_recv events; the interpreter lock is released while they wait. The
// redis and postgres interfaces' steps are in protocol_steps.cpp; which
// client serves an interface is kStepClients (below), by the protocols of
// ir/protocols.h.
#include "runtime/driver/executor.h"

#include "llvm/ADT/StringRef.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/binder.h"
#include "ir/builtins/call_site.h"
#include "ir/builtins/client_value.h"
#include "ir/builtins/values.h"
#include "ir/duration.h"
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/steps.h"
#include "runtime/clients/udp_step.h"
#include "runtime/supervisor/launch_config.h"
#include "runtime/supervisor/supervisor.h"
#include "runtime/values/response_value.h"

namespace fbc::rt {

using ir::builtins::bindStep;
using ir::builtins::InterfaceRefValue;
using ir::builtins::ServiceValue;
using ir::builtins::valueAs;
using star::Value;

namespace {

Value tcpStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                  const star::Args &args) {
  const ir::StepMethod &step = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<Value> given =
      bindStep(t, to.what, step, args, 1, "tcp.send requires 'data' argument");
  std::string data = strArg(t, given[0], to.what + "(): data");
  to.trace.stepSend(to.id, {{"method", "send"},
                            {"interface", to.iface.name},
                            {"protocol", to.iface.protocol},
                            {"data", clippedField(data, 200)}});
  TcpStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = tcpStep(to.at.dialHost(), static_cast<uint16_t>(to.at.port), data, to.cancelled,
                to.tls.get());
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", "send"},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (r.ok)
    f.emplace_back("reply", clippedField(r.reply, 200));
  else
    f.emplace_back("error", clippedField(r.error, 200));
  to.trace.stepRecv(to.id, std::move(f));
  if (!r.ok)
    t.fail("tcp send failed: " + r.error);
  return star::makeString(t.heap, r.reply);
}

// udp: send(data=, timeout="5s") returns the first datagram back, or None
// when none came in time (a datagram dropped on the way is no error);
// send_no_reply(data=) only sends and returns None.
Value udpStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                  const star::Args &args) {
  const ir::StepMethod &step = *ir::findStepMethod(to.iface.protocol, method);
  if (args.positional.size() > 1)
    failBadArgument(t, to.what + "(): takes at most one positional argument (data)");
  std::vector<Value> given =
      bindStep(t, to.what, step, args, 1, to.what + "(): requires 'data' argument");
  std::string data = strArg(t, given[0], to.what + "(): data");
  int64_t waitNs = method == "send" ? 5000000000LL : 0;
  if (given.size() > 1 && given[1]) {
    std::string error;
    std::optional<int64_t> d =
        ir::parseDuration(strArg(t, given[1], to.what + "(): timeout"), error);
    if (!d || *d <= 0)
      failBadArgument(t, to.what + "(): timeout: " + (d ? "must be positive" : error));
    waitNs = *d;
  }
  to.trace.stepSend(to.id, {{"method", std::string(method)},
                            {"interface", to.iface.name},
                            {"protocol", to.iface.protocol},
                            {"data", clippedField(data, 200)}});
  UdpStepResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = udpStep(to.at.dialHost(), static_cast<uint16_t>(to.at.port), data, waitNs / 1000000,
                to.cancelled);
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", r.ok ? "true" : "false"}};
  if (!r.ok)
    f.emplace_back("error", clippedField(r.error, 200));
  else if (method == "send")
    f.emplace_back("reply", r.reply ? clippedField(*r.reply, 200) : "none");
  to.trace.stepRecv(to.id, std::move(f));
  if (!r.ok)
    t.fail("udp " + std::string(method) + " failed: " + r.error);
  return r.reply ? star::makeString(t.heap, *r.reply) : star::none();
}

Value httpStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                   const star::Args &args) {
  HttpStepRequest req;
  req.method = llvm::StringRef(method.data(), method.size()).upper();
  if (args.positional.size() > 1)
    failBadArgument(t, to.what + "(): takes at most one positional argument (path)");
  // path, body, headers (ir/protocols.h)
  std::vector<Value> given =
      bindStep(t, to.what, *ir::findStepMethod(to.iface.protocol, method), args, 1);
  std::string path = given[0] ? strArg(t, given[0], to.what + "(): path") : "/";
  if (Value body = given[1]) {
    if (auto *s = body.as<star::String>())
      req.body = std::string(s->view());
    else if (!body.is(star::Kind::None))
      req.body = star::encodeJson(t, body);
    req.hasBody = !body.is(star::Kind::None);
  }
  if (Value headers = given[2]) {
    auto *d = headers.as<star::Dict>();
    if (!d)
      failBadArgument(t, to.what + "(): headers must be a dict, got " +
                             std::string(star::typeName(headers)));
    for (const auto &e : d->table.entries())
      if (e.value)
        req.headers.emplace_back(star::str(e.key), star::str(e.value));
  }
  if (path.empty() || path.front() != '/')
    path.insert(path.begin(), '/');
  req.url = (to.tls ? "https://" : "http://") + to.at.dialHostPort() + path;
  req.tls = to.tls;
  req.http2 = ir::findProtocol(to.iface.protocol)->http2 != ir::Http2::None;
  std::vector<std::pair<std::string, std::string>> sf{{"method", std::string(method)},
                                                      {"interface", to.iface.name},
                                                      {"protocol", to.iface.protocol},
                                                      {"path", path}};
  if (req.hasBody)
    sf.emplace_back("body", clippedField(req.body, 200));
  to.trace.stepSend(to.id, std::move(sf));
  HttpStepResponse r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = httpStep(req, to.cancelled);
  }
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)}};
  if (r.status)
    f.emplace_back("status_code", std::to_string(r.status));
  f.emplace_back("duration_ms", std::to_string(r.durationMs));
  f.emplace_back("success", r.ok ? "true" : "false");
  if (!r.ok)
    f.emplace_back("error", clippedField(r.error, 200));
  if (r.status && (r.status < 200 || r.status > 299))
    f.emplace_back("body", clippedField(r.body, 2048));
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(std::move(r)));
}

// The step clients, attached to the entries of ir/protocols.h that have
// step methods (tests/unit/protocol_table_test.cpp checks they agree).
struct StepClient {
  std::string_view protocol;
  StepCall call;
};
constexpr StepClient kStepClients[] = {
    {"amqp", amqpStepCall},         {"http", httpStepCall},
    {"grpc", grpcStepCall},         {"http2", httpStepCall}, // over HTTP/2
    {"kafka", kafkaStepCall},       {"memcached", memcachedStepCall},
    {"mysql", mysqlStepCall},       {"nats", natsStepCall},
    {"postgres", postgresStepCall}, {"redis", redisStepCall},
    {"tcp", tcpStepCall},           {"udp", udpStepCall}};

} // namespace

StepCall findStepClient(std::string_view protocol) {
  for (const StepClient &c : kStepClients)
    if (c.protocol == protocol)
      return c.call;
  return nullptr;
}

Value Executor::callStep(star::Thread &t, Value receiver, std::string_view method,
                         const star::Args &args) {
  if (!sup_)
    t.fail(std::string(method) + "() can only be called inside a test body");
  if (auto *client = valueAs<ir::builtins::ClientValue>(receiver))
    return callClient(t, *client, method, args);
  const ir::Spec &spec = loaded_.spec();
  std::string svcName;
  ir::Interface iface;
  if (auto *sv = valueAs<ServiceValue>(receiver)) {
    svcName = sv->data.name;
    const ir::Service *s = spec.findService(svcName);
    const ir::Interface *def = s ? s->defaultInterface() : nullptr;
    if (!def)
      t.fail("service " + ir::quote(svcName) + " has multiple interfaces, specify which one");
    iface = *def;
  } else if (auto *ref = valueAs<InterfaceRefValue>(receiver)) {
    svcName = ref->service;
    iface = ref->iface;
  } else {
    t.fail(std::string(method) + "(): not a service step");
  }
  std::optional<ServiceId> id = sup_->findService(svcName);
  if (!id)
    t.fail("service " + ir::quote(svcName) + " is not running");
  std::string what = svcName + "." + iface.name + "." + std::string(method);
  auto cancelledFn = [this] { return cancelled(); };
  // Through the interface's proxy when the test has one, as the services do.
  ir::Address at = dialAddress(svcName, iface);
  // The load binds only the steps of ir/protocols.h, each with a client.
  if (std::string why = ir::stepMethodMismatch(iface.protocol, svcName + "." + iface.name, method);
      !why.empty())
    ir::builtins::failMistake(t, ir::DiagCode::UnknownStep, std::move(why));
  StepCall call = findStepClient(iface.protocol);
  if (!call)
    t.fail(what + "(): fbc has no step client for " + ir::quote(iface.protocol) + " interfaces");
  StepTarget to{
      sup_->trace(), *id,  *spec.findService(svcName),
      iface,         at,   body_.lock(),
      cancelledFn,   what, iface.tls ? tlsClientConfig(*iface.tls, specDir(spec.path)) : nullptr};
  return call(t, to, method, args);
}

} // namespace fbc::rt
