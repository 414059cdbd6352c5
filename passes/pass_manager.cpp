// The pass manager: runs the passes and the lowering stage in order, with
// the print hooks and the verifier between stages (see pass_manager.h).
#include "passes/pass_manager.h"

#include "ir/verify/pipeline_verifier.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdlib>

namespace fbc::passes {

bool PassManager::has(std::string_view name) const {
  for (const Pass &p : passes_)
    if (name == p.name)
      return true;
  return lowering_ && name == lowering_->name;
}

std::string PassManager::stageNames() const {
  std::string names;
  for (const Pass &p : passes_)
    names += std::string(names.empty() ? "" : ", ") + p.name;
  if (lowering_)
    names += std::string(names.empty() ? "" : ", ") + lowering_->name;
  return names;
}

namespace {

#ifdef NDEBUG
constexpr bool kDebugBuild = false;
#else
constexpr bool kDebugBuild = true;
#endif

} // namespace

bool PassManager::run(const ir::Spec &spec, ir::Plan &plan, ir::LeafProgram *leaves,
                      frontend::DiagnosticList &diags) const {
  plan = ir::Plan{};
  plan.spec = &spec;
  bool verify = verifyEach || kDebugBuild;
  bool counted = false;
  for (const Pass &p : passes_) {
    p.run(spec, plan);
    counted = counted || std::string_view(p.name) == "cost";
    if (afterPass)
      afterPass(p, plan);
    if (verify && !ir::verifyPlan(plan, p.name, counted, diags))
      return false;
  }
  if (!lowering_ || !leaves)
    return true;
  *leaves = lowering_->run(plan);
  if (afterLowering)
    afterLowering(*lowering_, *leaves);
  return !verify || ir::verifyLeafProgram(plan, *leaves, lowering_->name, diags);
}

void PassManager::runOrAbort(const ir::Spec &spec, ir::Plan &plan, ir::LeafProgram *leaves) const {
  frontend::DiagnosticList diags;
  if (!run(spec, plan, leaves, diags)) {
    llvm::errs() << "fbc: internal error: the plan pipeline broke an invariant\n";
    diags.print(llvm::errs());
    llvm::errs().flush();
    std::abort();
  }
}

ir::Plan PassManager::run(const ir::Spec &spec) const {
  ir::Plan plan;
  runOrAbort(spec, plan, nullptr);
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
  pm.add({"body_check", runBodyCheckPass});
  pm.add({"diagnostics", runDiagnosticsPass});
  return pm;
}

ir::Plan buildPlan(const ir::Spec &spec, bool coverage) {
  return PassManager::planPipeline(coverage).run(spec);
}

} // namespace fbc::passes
