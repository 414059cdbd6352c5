// Which syscalls a test could put a rule on, per service, read from the
// IR before anything runs, so that each service's seccomp filter traps
// exactly those (the lowering stores them in the leaf program; the run
// traps them and nothing else).
//
// Sources: the assumptions of a fault_scenario / matrix cell (with their
// composed faults=), and every fault() / fault_start() / fault_all() /
// trace() / trace_start() call reachable from the test's functions: the
// body (or scenario), its setup and expectation, the lambdas and nested
// defs inside them, and the root-file functions they name, transitively.
// A call's target is resolved by passes/fault_calls.h: a service gives its
// keywords (syscalls, or a named op's syscalls), a fault_assumption its
// rules. A target that cannot be resolved statically (a local variable, a
// parameter) is widened: its keywords go on every service, and an
// unresolved assumption stands for all of them.
#pragma once

#include "ir/spec.h"

#include <string>
#include <vector>

namespace fbc::passes {

// Per service (by index in spec.services): the syscall keywords and names
// `t`'s rules could name there, sorted and unique (families unexpanded).
std::vector<std::vector<std::string>> scanTraps(const ir::Spec &spec, const ir::Test &t);

// Per service: the interfaces `t`'s protocol rules could target (an
// assumption's rules= on its interface, fault(svc.iface, <rule>, ...) and
// fault_start(svc.iface, <rule>, ...) calls; an unresolved target widens
// to every interface), sorted. The run puts a proxy in front of each.
std::vector<std::vector<std::string>> scanProxies(const ir::Spec &spec, const ir::Test &t);

} // namespace fbc::passes
