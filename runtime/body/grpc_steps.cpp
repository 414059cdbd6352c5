// The gRPC step (protocol_steps.h): svc.<iface>.call(method=, body=,
// timeout="5s"), one unary call on a connection of its own
// (runtime/clients/grpc_step.h), its arguments by keyword or positionally in
// the order ir/protocols.h gives them. The outcome is a response as a gRPC
// client sees the call (grpcResponse()), .body the reply's message in its
// protobuf encoding.
#include "ir/protocols.h"
#include "ir/quote.h"
#include "runtime/body/builtin_args.h"
#include "runtime/body/protocol_steps.h"
#include "runtime/clients/grpc_step.h"
#include "runtime/trace/trace.h"
#include "runtime/values/response_value.h"

namespace fbc::rt {

using star::Value;

Value grpcStepCall(star::Thread &t, const StepTarget &to, std::string_view method,
                   const star::Args &args) {
  const ir::StepMethod &m = *ir::findStepMethod(to.iface.protocol, method);
  std::vector<std::string> a = tableStepArgs(t, to, m, args);
  const std::string &rpc = a[0];
  if (rpc.size() < 4 || rpc[0] != '/' || rpc.find('/', 1) == std::string::npos || rpc.back() == '/')
    failBadArgument(t, to.what +
                           "(): method must be the full method name, "
                           "\"/package.Service/Method\", got " +
                           ir::quote(rpc));
  int64_t timeoutMs = stepTimeoutMs(t, to, a[2]);
  to.trace.stepSend(to.id, {{"method", std::string(method)},
                            {"interface", to.iface.name},
                            {"protocol", to.iface.protocol},
                            {"rpc", rpc},
                            {"body", clippedField(a[1], 200)}});
  GrpcCallResult r;
  {
    InterpreterLock::Released waiting(to.lock);
    r = grpcCall(to.at.dialHost(), static_cast<uint16_t>(to.at.port), rpc, a[1], timeoutMs,
                 to.cancelled);
  }
  HttpStepResponse out = grpcResponse(r, to.cancelled());
  std::vector<std::pair<std::string, std::string>> f{{"method", std::string(method)},
                                                     {"grpc_status", std::to_string(out.status)},
                                                     {"duration_ms", std::to_string(r.durationMs)},
                                                     {"success", out.ok ? "true" : "false"}};
  if (!out.ok)
    f.emplace_back("error", clippedField(out.error, 200));
  to.trace.stepRecv(to.id, std::move(f));
  if (to.cancelled())
    t.fail(to.what + "(): cancelled");
  return Value::object(t.heap.make<ResponseValue>(std::move(out)));
}

} // namespace fbc::rt
