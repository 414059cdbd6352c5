// Fault rules from the IR as RuleSpecs: see test_rules.h.
#include "runtime/rules/rules_from_ir.h"

#include "ir/composed_assumptions.h"
#include "ir/fanout_sites.h"
#include "ir/syscalls.h"

#include <algorithm>

namespace fbc::rt {
namespace {

// The service's position in Spec::services (its ServiceId), by the spec's
// name index.
std::optional<ServiceId> serviceIndex(const ir::Spec &spec, std::string_view name) {
  const ir::Service *s = spec.findService(name);
  if (!s)
    return std::nullopt;
  return static_cast<ServiceId>(s - spec.services.data());
}

// The rules of one assumption on its target service (op keywords expanded
// to the op's syscalls).
void addAssumptionRules(const ir::Spec &spec, const ir::FaultAssumption &a,
                        std::vector<RuleSpec> &out) {
  if (!a.target.valid())
    return;
  std::optional<ServiceId> id = serviceIndex(spec, a.target.service);
  if (!id)
    return;
  const ir::Service &svc = spec.services[*id];
  size_t first = out.size();
  for (const ir::FaultRule &fr : a.rules)
    keywordRules(*id, svc, fr.keyword, fr.fault, fr.loc, out);
  for (size_t i = first; i < out.size(); ++i)
    out[i].fault = a.name; // one fault for the zero-traffic verdict
}

// Every rule the assumption `name` installs, composed ones included.
void addAssumption(const ir::Spec &spec, std::string_view name, std::vector<RuleSpec> &out) {
  for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, name))
    addAssumptionRules(spec, *a, out);
}

} // namespace

void applyFault(const ir::Fault &f, RuleSpec &r) {
  switch (f.action) {
  case ir::FaultAction::Deny:
    r.action = Action::deny(f.errnoNumber); // resolved at load, checked by the IR verifier
    break;
  case ir::FaultAction::Delay:
    r.action = Action::delay(f.delayNs);
    break;
  case ir::FaultAction::Allow:
    r.action = Action::allow();
    break;
  }
  r.probability = f.probability;
  if (ir::fansOutByProbability(f.probability, f.maxFires, f.mode))
    r.leafBits = static_cast<uint64_t>(f.maxFires);
  r.label = f.label;
  if (!f.path.empty())
    r.pathGlob = f.path;
}

void keywordRules(ServiceId target, const ir::Service &svc, const std::string &keyword,
                  const ir::Fault &f, const ir::Loc &at, std::vector<RuleSpec> &out) {
  const ir::Op *op = svc.findOp(keyword);
  std::vector<std::string> one{keyword};
  for (const std::string &sc : op ? op->syscalls : one) {
    RuleSpec r;
    r.target = target;
    r.syscall = sc;
    applyFault(f, r);
    r.site = {f.loc, at, keyword, int(target)};
    r.siteKey = ir::probabilitySiteKey(r.label, svc.name, keyword);
    if (op) {
      if (f.path.empty())
        r.pathGlob = op->path;
      if (r.label.empty())
        r.label = keyword;
    }
    out.push_back(std::move(r));
  }
}

void assumptionRules(const ir::Spec &spec, const std::string &name, std::vector<RuleSpec> &out) {
  addAssumption(spec, name, out);
}

} // namespace fbc::rt
