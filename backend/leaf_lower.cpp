// Lowering: per test, the axes the leaves enumerate (the plan's axes,
// referenced; a known axis of size 1 adds no digit), its count, and the
// syscalls each service's filter traps (passes/trap_scan.h).
#include "backend/leaf_lower.h"

#include "ir/unmediated.h"
#include "passes/trap_scan.h"

namespace fbc::backend {

ir::LeafProgram lowerToLeaves(const ir::Plan &plan) {
  ir::LeafProgram out;
  out.spec = plan.spec;
  out.tests.reserve(plan.tests.size());
  for (const ir::PlanTest &pt : plan.tests) {
    ir::LeafTest lt;
    lt.test = pt.test;
    for (const ir::PlanAxis &pa : pt.axes) {
      ir::LeafAxis ax;
      ax.plan = &pa;
      ax.known = pa.size.has_value() && pa.unknown == ir::UnknownReason::None;
      ax.size = pa.factor();
      // A known axis of size 1 adds no leaves and no digit worth keeping.
      if (ax.known && ax.size <= 1)
        continue;
      lt.axes.push_back(ax);
    }
    lt.recount();
    lt.traps = passes::scanTraps(*plan.spec, *pt.test);
    // determinism() at L1 observes every unmediated source; otherwise only
    // the bypasses of the families a rule could name.
    const ir::Determinism &det = plan.spec->determinism;
    bool detect = det.explicitCall && det.level == "L1";
    for (size_t s = 0; s < lt.traps.size(); ++s)
      lt.observes.push_back(plan.spec->services[s].seccomp ? ir::observedFor(lt.traps[s], detect)
                                                           : std::vector<std::string>{});
    lt.proxies = passes::scanProxies(*plan.spec, *pt.test);
    out.total += lt.count;
    out.tests.push_back(std::move(lt));
  }
  return out;
}

passes::PassManager leafPipeline(bool coverage) {
  passes::PassManager pm = passes::PassManager::planPipeline(coverage);
  pm.setLowering({"leaves", lowerToLeaves});
  return pm;
}

} // namespace fbc::backend
