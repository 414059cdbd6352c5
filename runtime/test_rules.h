// Which fault rules a test could put in force, computed from the IR before
// its services start, so that each service's seccomp filter traps exactly
// the syscalls those rules could touch (runtime/rules.h trapSets) and
// nothing else runs through the supervisor.
//
// Sources: the assumptions of a fault_scenario / matrix cell (with their
// composed faults=), and every fault(...) / fault_start(...) call reachable
// from the test's functions: the body (or scenario), its expectation, the
// lambdas and nested defs inside them, and the root-file functions they
// name, transitively. A call's target is resolved through the root
// module's globals: a service gives its keywords (syscalls or service ops),
// a fault_assumption gives its rules. A target that cannot be resolved
// statically (a local variable, a parameter) is widened: its keywords go
// on every service, and an unresolved assumption stands for all of them.
#pragma once

#include "ir/load_spec.h"
#include "ir/spec.h"
#include "runtime/rules.h"

#include <string>
#include <vector>

namespace fbc::rt {

// Rules of assumption `name` (composed faults= included, each once) as
// RuleSpecs on service indices of spec.services. Unknown names are skipped.
void assumptionRules(const ir::Spec &spec, const std::string &name, std::vector<RuleSpec> &out);

// A fault value as a rule action: deny(errno), delay(duration), allow.
void applyFault(const ir::Fault &f, RuleSpec &r);

// The rules of `keyword = f` on service `svc` (index `target`): one per
// syscall of a named op (labelled with the op's name; the fault's own path=
// wins over the op's path), else one on the syscall keyword.
void keywordRules(ServiceId target, const ir::Service &svc, const std::string &keyword,
                  const ir::Fault &f, std::vector<RuleSpec> &out);

// RuleSpecs (actions irrelevant) for every rule test `t` could activate.
std::vector<RuleSpec> potentialRules(const ir::LoadedSpec &loaded, const ir::Test &t);

} // namespace fbc::rt
