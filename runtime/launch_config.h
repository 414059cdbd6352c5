// Launch configuration: what the supervisor starts for an IR service (its
// binary resolved against the spec's directory, args, the discovery
// environment of every interface, cwd, trapped syscalls, ports and
// healthcheck). Nothing here runs a process.
#pragma once

#include "ir/spec.h"
#include "runtime/service.h"

#include <string>
#include <vector>

namespace fbc::rt {

// The directory of the spec file (absolute when it resolves): relative
// binaries and every service's cwd.
std::string specDir(const std::string &specPath);

// The single interface, else the one named "default"; null when neither.
const ir::Interface *defaultInterface(const ir::Service &s);

// Service `s` of `spec` as the supervisor starts it, trapping `trapped`
// (sorted syscall numbers).
ServiceSpec launchConfig(const ir::Spec &spec, const ir::Service &s, const std::string &dir,
                         std::vector<int> trapped);

} // namespace fbc::rt
