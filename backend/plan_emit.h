// The plan's user-facing forms (docs/plan.md):
//   text  the seed's plan tree, totals, services; the coverage table; the
//         suggestion stubs
//   json  the seed's plan.json schema (schema_version 1); probability and
//         interleaving compositions, per-axis sizes and diagnostics are
//         additive fields
//   dot   a Graphviz digraph of tests, compositions and axes
// All three are deterministic: the same plan gives the same bytes.
#pragma once

#include "ir/plan.h"

namespace llvm {
class raw_ostream;
}

namespace fbc::backend {

struct PlanEmitOptions {
  bool coverage = false; // the coverage table / JSON "coverage"
  bool suggest = false;  // the suggestion stubs (text only)
};

void emitPlanText(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os);
void emitPlanJson(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os);
void emitPlanDot(const ir::Plan &plan, llvm::raw_ostream &os);

// The coverage table alone (with its leading blank line).
void emitCoverageText(const ir::Plan &plan, llvm::raw_ostream &os);
// The suggestions alone: the header and one stub per uncovered edge, or the
// "nothing to suggest" line.
void emitSuggestionsText(const ir::Plan &plan, llvm::raw_ostream &os);

} // namespace fbc::backend
