#include "passes/pass_manager.h"

namespace fbc::passes {

bool PassManager::has(std::string_view name) const {
  for (const Pass &p : passes_)
    if (name == p.name)
      return true;
  return false;
}

ir::Plan PassManager::run(const ir::Spec &spec) const {
  ir::Plan plan;
  plan.spec = &spec;
  for (const Pass &p : passes_) {
    p.run(spec, plan);
    if (afterPass)
      afterPass(p, plan);
  }
  return plan;
}

PassManager PassManager::planPipeline(bool coverage) {
  PassManager pm;
  pm.add({"axes", runAxesPass});
  pm.add({"cost", runCostPass});
  if (coverage) {
    pm.add({"coverage", runCoveragePass});
    pm.add({"suggest", runSuggestPass});
  }
  pm.add({"diagnostics", runDiagnosticsPass});
  return pm;
}

ir::Plan buildPlan(const ir::Spec &spec, bool coverage) {
  return PassManager::planPipeline(coverage).run(spec);
}

} // namespace fbc::passes
