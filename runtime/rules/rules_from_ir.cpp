// The supervisor's RuleSpecs from lowered rules: see rules_from_ir.h.
#include "runtime/rules/rules_from_ir.h"

#include "backend/rule_lower.h"

namespace fbc::rt {

RuleSpec ruleSpecOf(const ir::LoweredRule &l) {
  RuleSpec r;
  r.target = static_cast<ServiceId>(l.service);
  r.syscall = l.keyword;
  r.nrs = l.syscalls;
  switch (l.action) {
  case ir::FaultAction::Deny:
    r.action = Action::deny(l.errnoNumber);
    break;
  case ir::FaultAction::Delay:
    r.action = Action::delay(l.delayNs);
    break;
  case ir::FaultAction::Allow:
    r.action = Action::allow();
    break;
  }
  r.probability = l.probability;
  r.leafBits = l.leafBits;
  r.label = l.label;
  r.pathGlob = l.pathGlob;
  r.site = l.site;
  r.siteKey = l.siteKey;
  r.fault = l.fault;
  return r;
}

void assumptionRules(const ir::LeafProgram &leaves, const std::string &name,
                     std::vector<RuleSpec> &out) {
  if (const ir::LoweredAssumption *a = leaves.findAssumption(name))
    for (const ir::LoweredRule &l : a->rules)
      out.push_back(ruleSpecOf(l));
}

void boundRules(const ir::Spec &spec, std::span<const ir::LoweredRule> planned, const ir::Fault &f,
                std::vector<RuleSpec> &out) {
  for (const ir::LoweredRule &shape : planned)
    out.push_back(ruleSpecOf(backend::bindFault(spec, shape, f)));
}

void keywordRules(const ir::Spec &spec, ServiceId target, const std::string &keyword,
                  const ir::Fault &f, const ir::Loc &at, std::vector<RuleSpec> &out) {
  std::vector<ir::LoweredRule> lowered;
  backend::lowerKeywordRules(spec, int(target), keyword, f, at, lowered);
  for (const ir::LoweredRule &l : lowered)
    out.push_back(ruleSpecOf(l));
}

} // namespace fbc::rt
