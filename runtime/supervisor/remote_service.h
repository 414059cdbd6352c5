// What the supervisor "starts" for a remote service (service(remote=...)):
// nothing. fbc does not run, mediate or stop its process; starting it waits
// for its healthcheck against the remote address, after which it is ready,
// and its lifecycle events name the addresses instead of a pid.
#pragma once

#include "ir/spec.h"
#include "runtime/supervisor/service.h"

#include <string>

namespace fbc::rt {

// "main=10.0.0.5:6379", "public=h:8080 internal=h2:9090": service `s`'s
// interfaces at their addresses (Service::address()), in declaration order.
std::string remoteAddresses(const ir::Service &s);

// Remote service `s` as the supervisor starts it: no launch, no ports of
// its own (nothing local binds them), its healthcheck, and an in-process
// stand-in whose start and stop do nothing but say where it is.
ServiceSpec remoteServiceSpec(const ir::Service &s, const std::string &specDir);

} // namespace fbc::rt
