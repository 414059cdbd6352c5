#include "backend/rule_lower.h"

#include "ir/composed_assumptions.h"
#include "ir/fanout_sites.h"
#include "ir/syscalls.h"

#include <algorithm>

namespace fbc::backend {

void lowerKeywordRules(const ir::Spec &spec, int service, const std::string &keyword,
                       const ir::Fault &f, const ir::Loc &at, std::vector<ir::LoweredRule> &out) {
  const ir::Service &svc = spec.services[size_t(service)];
  const ir::Op *op = svc.findOp(keyword);
  std::vector<std::string> one{keyword};
  for (const std::string &sc : op ? op->syscalls : one) {
    ir::LoweredRule r;
    r.service = service;
    r.keyword = sc;
    r.syscalls = keywordSyscalls(sc);
    r.action = f.action;
    r.errnoNumber = f.errnoNumber;
    r.delayNs = f.delayNs;
    r.probability = f.probability;
    if (ir::fansOutByProbability(f.probability, f.maxFires, f.mode))
      r.leafBits = uint64_t(f.maxFires);
    r.label = f.label;
    r.pathGlob = f.path;
    r.site = {f.loc, at, keyword, service};
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
    }
    out.push_back(std::move(lowered));
  }
  return out;
}

} // namespace fbc::backend
