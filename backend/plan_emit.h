// The plan's user-facing forms (docs/plan.md):
//   text  the seed's plan tree, totals, services; the coverage table; the
//         suggestion stubs
//   json  the seed's plan.json schema (schema_version 1); probability and
//         interleaving compositions, per-axis sizes and diagnostics are
//         additive fields
//   dot   a Graphviz digraph of tests, compositions and axes
// All three are deterministic: the same plan gives the same bytes.
#pragma once

#include "ir/json_writer.h"
#include "ir/plan.h"

#include <functional>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace fbc::backend {

struct PlanEmitOptions {
  bool coverage = false; // the coverage table / JSON "coverage"
  bool suggest = false;  // the suggestion stubs (text only)
  // JSON only: writes members after the plan's own (`fbc plan --shards`).
  std::function<void(ir::JsonWriter &)> jsonTail;
};

void emitPlanText(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os);
void emitPlanJson(const ir::Plan &plan, const PlanEmitOptions &opts, llvm::raw_ostream &os);
void emitPlanDot(const ir::Plan &plan, llvm::raw_ostream &os);

// One axis line of the plan tree ("retries: [0, 1, 3]", "db:fsync:
// max_fires=2 → 4 outcomes (in disk_full)", "spec.star:21: 3 branches,
// interleavings=\"all\" → 6 orderings"), and "N instances" / "at least N
// instances": the text tree and the HTML report's Plan tab share them.
std::string planAxisText(const ir::PlanAxis &a);
std::string planInstancesText(const ir::Count &c);

// The coverage table alone (with its leading blank line).
void emitCoverageText(const ir::Plan &plan, llvm::raw_ostream &os);
// The suggestions alone: the header and one stub per uncovered edge, or the
// "nothing to suggest" line.
void emitSuggestionsText(const ir::Plan &plan, llvm::raw_ostream &os);

} // namespace fbc::backend
