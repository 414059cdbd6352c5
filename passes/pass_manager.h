// The plan pipeline: named passes over (ir::Spec, ir::Plan), run in order by
// a PassManager, with a hook after each pass for `fbc ir --print-after=`.
//
//   axes → cost → coverage → suggest → diagnostics
//
// Each pass lives in its own file (passes/<name>.cpp) and reads the Spec
// and what earlier passes wrote into the Plan. None of them prints.
#pragma once

#include "ir/plan.h"
#include "ir/spec.h"

#include <functional>
#include <string_view>
#include <vector>

namespace fbc::passes {

using PassFn = void (*)(const ir::Spec &, ir::Plan &);

struct Pass {
  const char *name;
  PassFn run;
};

// The passes (see ir/plan.h for what each fills).
void runAxesPass(const ir::Spec &spec, ir::Plan &plan);
void runCostPass(const ir::Spec &spec, ir::Plan &plan);
void runCoveragePass(const ir::Spec &spec, ir::Plan &plan);
void runSuggestPass(const ir::Spec &spec, ir::Plan &plan);
void runDiagnosticsPass(const ir::Spec &spec, ir::Plan &plan);

class PassManager {
public:
  void add(Pass p) { passes_.push_back(p); }
  const std::vector<Pass> &passes() const { return passes_; }
  // Whether a pass of that name is registered.
  bool has(std::string_view name) const;

  // Called after each pass with its name and the plan as it stands.
  std::function<void(const Pass &, const ir::Plan &)> afterPass;

  // Runs every pass on a fresh plan of `spec`.
  ir::Plan run(const ir::Spec &spec) const;

  // axes, cost, coverage, suggest, diagnostics; without `coverage`, the
  // coverage and suggest passes are left out (the plan's coverage stays
  // `computed = false`).
  static PassManager planPipeline(bool coverage = true);

private:
  std::vector<Pass> passes_;
};

// The pipeline (see planPipeline), no hooks.
ir::Plan buildPlan(const ir::Spec &spec, bool coverage = true);

} // namespace fbc::passes
