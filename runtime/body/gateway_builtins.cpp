// bandwidth() mtu() partition() partition_start() partition_stop() watch()
// watch_start() watch_stop(), and the packet rules (packet_drop(), ...):
// the reference runs them in its gVisor packet gateway and sandbox, which
// fbc does not drive. A test that reaches one is an error row before it
// starts (ir/host_needs.h, runtime/os/host_check.h); a call the plan could not
// see (through a computed name) checks its arguments as the plan does
// (ir/gateway_calls.h) and then ends the test as an error row with the same
// reason (CannotRunSignal), never running as something weaker (a partition
// as a connect() deny).
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "ir/builtins/surface.h"
#include "ir/gateway_calls.h"
#include "ir/host_needs.h"
#include "runtime/body/builtin_args.h"
#include "runtime/os/host_check.h"

namespace fbc::rt {

void Executor::refuseGatewayNeed(star::Thread &t, std::string_view builtin) {
  const ir::HostNeed *n = ir::callNeed(builtin);
  std::string why = n ? cannotRunReason(loaded_.spec(), {*n}) : "";
  throw CannotRunSignal(
      atCaller(t, why.empty() ? std::string(builtin) + "() is not run by fbc yet" : why));
}

void Executor::refusePacketRules(star::Thread &t, const star::Args &args) {
  for (star::Value v : args.positional)
    if (auto *p = ir::builtins::valueAs<ir::builtins::PacketRuleValue>(v))
      refuseGatewayNeed(t, p->data.builtin);
}

star::Value Executor::gatewayBuiltin(star::Thread &t, std::string_view name,
                                     const star::Args &args) {
  std::vector<ir::GatewayArg> in;
  for (star::Value v : args.positional)
    in.push_back(ir::builtins::gatewayArgOf(v, ""));
  for (const star::Kwarg &kw : args.kwargs)
    in.push_back(ir::builtins::gatewayArgOf(kw.value, std::string(kw.name->view())));
  if (std::optional<ir::GatewayArgError> e = ir::gatewayArgError(name, in))
    failBadArgument(t, e->message);
  refuseGatewayNeed(t, name);
}

} // namespace fbc::rt
