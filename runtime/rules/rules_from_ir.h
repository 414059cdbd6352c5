// The supervisor's RuleSpecs from the rules the backend lowered
// (backend/rule_lower.h, ir::LoweredRule): an assumption's, looked up in the
// leaf program, and a body `keyword = fault` on a service: the keyword as
// the leaf program lowered it at that call, bound to the fault's value. The runtime resolves
// nothing here: ops, families and errnos arrive resolved. What each
// service's filter traps is not here either: the leaf program says it
// (ir::LeafTest::traps and trapsFor()).
#pragma once

#include "ir/leaf_program.h"
#include "ir/spec.h"
#include "runtime/rules/rules.h"

#include <span>
#include <string>
#include <vector>

namespace fbc::rt {

// A lowered rule as the rule table takes it.
RuleSpec ruleSpecOf(const ir::LoweredRule &l);

// The rules of assumption `name` (composed faults= included, each once),
// as the leaf program lowered them. An unknown name adds nothing.
void assumptionRules(const ir::LeafProgram &leaves, const std::string &name,
                     std::vector<RuleSpec> &out);

// The rules of a body's `keyword = f` (fault(), fault_start(),
// fault_all()) whose keyword the plan lowered at that call
// (ir::LeafTest::findCallRules), with f's value (backend::bindFault).
void boundRules(const ir::Spec &spec, std::span<const ir::LoweredRule> planned, const ir::Fault &f,
                std::vector<RuleSpec> &out);

// The rules of `keyword = f` on spec.services[target] when the plan could
// not read the keyword (a **kwargs dict), lowered by
// backend::lowerKeywordRules. `at` is where the rule is attached
// (ir::RuleSite::at): the fault() call.
void keywordRules(const ir::Spec &spec, ServiceId target, const std::string &keyword,
                  const ir::Fault &f, const ir::Loc &at, std::vector<RuleSpec> &out);

} // namespace fbc::rt
