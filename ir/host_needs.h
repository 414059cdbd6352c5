// The one table of what a spec's parts need of the machine (ir::HostNeed):
// the body-time builtins whose calls need it, and how a need and the
// machine's answer read in a run's error row. The plan side records needs
// (ir::Service::needs, the lowering's per-test scan); the run decides what
// the machine has (runtime/os/host_check.h).
#pragma once

#include "ir/spec.h"

#include <optional>
#include <string>
#include <string_view>

namespace fbc::ir {

// "container runtime", "gvisor", "unbuilt" (fbc ir, fbc plan).
const char *hostFeatureName(HostFeature f);

// A body-time builtin whose call needs something (packet_drop(),
// partition(), watch(), ...): its need as the scan records it; null for
// any other name.
const HostNeed *callNeed(std::string_view builtin);

// A proxy rule on interface `iface` of service `service` that fbc's proxy
// cannot enforce (proxyRuleGap(): a Kafka topic, a MongoDB collection, a
// gRPC status), as the need the row names: `interface "bus.main": kafka
// rules that match or answer its messages need a proxy that speaks kafka, ...`.
std::optional<HostNeed> proxyRuleNeed(const ProxyRule &r, const std::string &service,
                                      const Interface &iface);

// The row's reason: `service "pg": container services need a container
// runtime (docker or podman not found)`; `why` is the machine's answer ("":
// no parenthesis).
std::string hostNeedReason(const HostNeed &n, std::string_view why);

// Why a syscall rule (`keyword`=, a fault or a trace) cannot apply to remote
// service `s` (fbc does not run its process), as `who` refuses it:
// `fault_assumption("blip"): service "cache" is remote (remote="10.0.0.5");
// syscall-level faults are not available on remote services: write= needs
// the service's process, which fbc does not run. Fault its interface with a
// protocol rule instead (rules= with target=cache.main, or
// fault(cache.main, error(...), run=...)), or declare it with mock_service()`.
// fault_assumption() refuses it at load, the body's fault() family when called.
std::string remoteSyscallRefusal(std::string_view who, const Service &s, std::string_view keyword);

// The reason for a gVisor need in a spec on another runtime, as the
// reference refuses these rather than downgrade them: `partition() needs the
// packet gateway, but this spec runs on runtime="default"; add
// determinism(runtime="gvisor") at the top of the spec.` (with its note on
// why a partition is not a connect() deny); bandwidth()/mtu() the same
// without the period; watch*() "needs filesystem observation".
std::string wrongRuntimeReason(const HostNeed &n, std::string_view runtime);

} // namespace fbc::ir
