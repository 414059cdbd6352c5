#include "backend/rule_lower.h"

#include "ir/composed_assumptions.h"
#include "ir/fanout_sites.h"
#include "ir/protocols.h"
#include "ir/syscalls.h"

#include <algorithm>

namespace fbc::backend {

void lowerKeyword(const ir::Spec &spec, int service, const std::string &keyword, const ir::Loc &at,
                  std::vector<ir::LoweredRule> &out) {
  const ir::Service &svc = spec.services[size_t(service)];
  const ir::Op *op = svc.findOp(keyword);
  std::vector<std::string> one{keyword};
  for (const std::string &sc : op ? op->syscalls : one) {
    ir::LoweredRule r;
    r.service = service;
    r.keyword = sc;
    r.syscalls = keywordSyscalls(sc);
    r.site = {ir::Loc{}, at, keyword, service};
    if (op) {
      r.pathGlob = op->path;
      r.label = keyword;
    }
    out.push_back(std::move(r));
  }
}

ir::LoweredRule bindFault(const ir::Spec &spec, const ir::LoweredRule &shape, const ir::Fault &f) {
  ir::LoweredRule r = shape;
  r.action = f.action;
  r.errnoNumber = f.errnoNumber;
  r.delayNs = f.delayNs;
  r.probability = f.probability;
  if (ir::fansOutByProbability(f.probability, f.maxFires, f.mode))
    r.leafBits = uint64_t(f.maxFires);
  // The fault's own label= and path= win over a named op's.
  if (!f.label.empty())
    r.label = f.label;
  if (!f.path.empty())
    r.pathGlob = f.path;
  r.siteKey = ir::probabilitySiteKey(f.label, spec.services[size_t(shape.service)].name,
                                     shape.site.keyword);
  r.site.rule = f.loc;
  return r;
}

void lowerKeywordRules(const ir::Spec &spec, int service, const std::string &keyword,
                       const ir::Fault &f, const ir::Loc &at, std::vector<ir::LoweredRule> &out) {
  std::vector<ir::LoweredRule> shapes;
  lowerKeyword(spec, service, keyword, at, shapes);
  for (const ir::LoweredRule &shape : shapes)
    out.push_back(bindFault(spec, shape, f));
}

ir::LoweredProxyRule lowerProxyRule(const ir::Spec &spec, int service, const ir::Interface &iface,
                                    const ir::ProxyRule &rule, const ir::Loc &at) {
  const ir::Service &svc = spec.services[size_t(service)];
  const ir::Protocol *p = ir::findProtocol(iface.protocol);
  std::string action(ir::proxyActionName(rule.action));
  ir::LoweredProxyRule l;
  l.service = service;
  l.interface = iface.name;
  l.source = &rule;
  l.target = p ? p->normalizedTarget(rule.target()) : rule.target();
  if (ir::fansOutByProbability(rule.probability, rule.maxFires, rule.mode))
    l.leafBits = uint64_t(rule.maxFires);
  l.siteKey = ir::probabilitySiteKey(rule.label, svc.name + "." + iface.name, action);
  l.site = {rule.loc, at, action, service};
  return l;
}

std::vector<int> keywordSyscalls(std::string_view keyword) {
  std::vector<int> nrs = ir::syscallNumbers(keyword);
  std::sort(nrs.begin(), nrs.end());
  return nrs;
}

std::vector<int> observedSyscalls(const ir::ObservedEntry &entry) {
  if (entry.when == ir::TrapWhen::Always)
    return ir::syscallNumbers(entry.syscall);
  int nr = ir::syscallNumber(entry.syscall);
  return nr >= 0 ? std::vector<int>{nr} : std::vector<int>{};
}

std::vector<ir::LoweredAssumption> lowerAssumptions(const ir::Spec &spec) {
  std::vector<ir::LoweredAssumption> out;
  for (const ir::FaultAssumption &declared : spec.assumptions) {
    ir::LoweredAssumption lowered;
    lowered.name = declared.name;
    for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, declared.name)) {
      const ir::Service *svc = a->target.valid() ? spec.findService(a->target.service) : nullptr;
      if (!svc)
        continue;
      size_t first = lowered.rules.size();
      for (const ir::FaultRule &fr : a->rules)
        lowerKeywordRules(spec, int(svc - spec.services.data()), fr.keyword, fr.fault, fr.loc,
                          lowered.rules);
      for (size_t i = first; i < lowered.rules.size(); ++i)
        lowered.rules[i].fault = a->name; // one fault for the zero-traffic verdict
      // rules= on an interface: source points into the spec's IR.
      const ir::Interface *iface = svc->findInterface(a->target.interface);
      for (size_t i = 0; iface && i < a->proxyRules.size(); ++i) {
        lowered.proxyRules.push_back(lowerProxyRule(spec, int(svc - spec.services.data()), *iface,
                                                    a->proxyRules[i], a->loc));
        lowered.proxyRules.back().fault = a->name;
        lowered.proxyRules.back().index = i;
      }
    }
    out.push_back(std::move(lowered));
  }
  return out;
}

} // namespace fbc::backend
