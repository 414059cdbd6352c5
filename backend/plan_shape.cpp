#include "backend/plan_shape.h"

#include "ir/composed_assumptions.h"

#include <algorithm>

namespace fbc::backend {

// Compositions of an entry: the matrix axes are rendered separately; the
// choose and interleaving axes come from the body (shared by all cells of a
// matrix group); probability sites are the union over the cells.
std::vector<Composition> compositions(const ir::Plan &plan, const ir::PlanEntry &e) {
  std::vector<Composition> out;
  Composition choose{"choose", {}}, prob{"probability", {}}, inter{"interleaving", {}};
  for (size_t n = 0; n < e.tests.size(); ++n) {
    const ir::PlanTest &t = plan.tests[e.tests[n]];
    for (const ir::PlanAxis &a : t.axes()) {
      Composition *c = a.kind == ir::AxisKind::Choose        ? &choose
                       : a.kind == ir::AxisKind::Probability ? &prob
                                                             : &inter;
      if (n > 0 && a.kind != ir::AxisKind::Probability)
        continue;
      bool dup = false;
      for (const ir::PlanAxis *b : c->axes)
        dup = dup || (b->name == a.name && b->fault == a.fault);
      if (!dup)
        c->axes.push_back(&a);
    }
  }
  for (Composition *c : {&choose, &prob, &inter})
    if (!c->axes.empty())
      out.push_back(std::move(*c));
  return out;
}

// The proxy composition of an entry: every protocol rule its assumptions
// (composed ones included, each once) put on an interface, as
// "api.public (http): error(path=\"/kv/*\", status=503)", in assumption order.
std::vector<std::string> proxyRules(const ir::Spec &spec, const ir::PlanEntry &e) {
  std::vector<std::string> out;
  std::vector<const ir::FaultAssumption *> seen;
  for (const std::vector<std::string> *names : {&e.faults, &e.matrixFaults})
    for (const std::string &name : *names)
      for (const ir::FaultAssumption *a : ir::composedAssumptions(spec, name)) {
        if (std::find(seen.begin(), seen.end(), a) != seen.end())
          continue;
        seen.push_back(a);
        const ir::Service *svc = spec.findService(a->target.service);
        const ir::Interface *iface = svc ? svc->findInterface(a->target.interface) : nullptr;
        for (const ir::ProxyRule &r : a->proxyRules)
          out.push_back(a->target.service + "." + a->target.interface + " (" +
                        (iface ? iface->protocol : "?") + "): " + r.display());
      }
  return out;
}

} // namespace fbc::backend
