// Fault rules from the IR as the supervisor's RuleSpecs: an assumption's
// rules (composed ones included), a `keyword = fault` on a service (a named
// op stands for its syscalls). What each service's filter traps is not
// here: the leaf program says it (ir::LeafTest::traps and trapsFor()).
#pragma once

#include "ir/leaf_program.h"
#include "ir/spec.h"
#include "runtime/rules/rules.h"

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
// `at` is where the rule is attached (ir::RuleSite::at): the fault() call,
// or the assumption's keyword argument.
void keywordRules(ServiceId target, const ir::Service &svc, const std::string &keyword,
                  const ir::Fault &f, const ir::Loc &at, std::vector<RuleSpec> &out);

} // namespace fbc::rt
