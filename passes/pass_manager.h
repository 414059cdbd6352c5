// The plan pipeline: named passes over (ir::Spec, ir::Plan), run in order by
// a PassManager, with a hook after each pass for `fbc ir --print-after=`,
// then (when one is set) the lowering stage to the leaf program:
//
//   axes → cost → coverage → suggest → body_check → diagnostics → leaves
//
// Between stages the verifier (ir/verify/pipeline_verifier.h) checks the plan and
// the leaf program: always in debug builds, and when `verifyEach` is set
// (`fbc ir --verify-each`).
//
// Each pass lives in its own file (passes/<name>.cpp) and reads the Spec
// and what earlier passes wrote into the Plan. None of them prints.
#pragma once

#include "frontend/source/diagnostic.h"
#include "ir/leaf_program.h"
#include "ir/plan.h"
#include "ir/spec.h"

#include <functional>
#include <optional>
#include <string>
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
void runBodyCheckPass(const ir::Spec &spec, ir::Plan &plan);
void runDiagnosticsPass(const ir::Spec &spec, ir::Plan &plan);

// The lowering stage: backend/ provides it (passes/ cannot call backend/).
using LowerFn = std::function<ir::LeafProgram(const ir::Plan &)>;
struct Lowering {
  const char *name;
  LowerFn run;
};

class PassManager {
public:
  void add(Pass p) { passes_.push_back(p); }
  const std::vector<Pass> &passes() const { return passes_; }
  void setLowering(Lowering l) { lowering_ = l; }
  const std::optional<Lowering> &lowering() const { return lowering_; }
  // Whether a pass or the lowering stage of that name is registered.
  bool has(std::string_view name) const;
  // "axes, cost, ..., leaves": every stage, in order.
  std::string stageNames() const;

  // Called after each pass with its name and the plan as it stands.
  std::function<void(const Pass &, const ir::Plan &)> afterPass;
  // Called after the lowering stage with the leaf program.
  std::function<void(const Lowering &, const ir::LeafProgram &)> afterLowering;
  // Verify after every stage (debug builds always do).
  bool verifyEach = false;

  // Runs every pass on `plan` (a fresh plan of `spec`), then the lowering
  // into `leaves` when both are there. False when the verifier found a
  // broken invariant after a stage (located errors in `diags`); the stages
  // after it do not run.
  bool run(const ir::Spec &spec, ir::Plan &plan, ir::LeafProgram *leaves,
           frontend::DiagnosticList &diags) const;
  // Runs every stage into `plan` and, when there is a lowering stage,
  // `leaves` (nullptr: the passes only). A verifier failure is an internal
  // error: reported on stderr, then abort().
  void runOrAbort(const ir::Spec &spec, ir::Plan &plan, ir::LeafProgram *leaves) const;
  // Runs every pass on a fresh plan of `spec` (runOrAbort, no lowering).
  ir::Plan run(const ir::Spec &spec) const;

  // axes, cost, coverage, suggest, body_check, diagnostics; without `coverage`, the
  // coverage and suggest passes are left out (the plan's coverage stays
  // `computed = false`).
  static PassManager planPipeline(bool coverage = true);

private:
  std::vector<Pass> passes_;
  std::optional<Lowering> lowering_;
};

// The pipeline (see planPipeline), no hooks.
ir::Plan buildPlan(const ir::Spec &spec, bool coverage = true);

} // namespace fbc::passes
