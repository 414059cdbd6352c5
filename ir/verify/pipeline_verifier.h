// The verifier that runs between the stages of the plan pipeline (after
// each pass, and after the lowering to leaves) in debug builds and under
// `fbc ir --verify-each`. It checks the invariants later stages and the
// run rely on, so a pass that breaks one fails at that pass with a located
// message instead of a wrong count or a wrong leaf later:
//   plan   one PlanTest per spec test, in order; axes in leaf-enumeration
//          order (choose, probability, interleaving); one axis per key and
//          kind; every axis has call sites, the first being its location;
//          a known size is >= 1 (2^max_fires for a probability site, the
//          parallel() policy's size for an interleaving site); once the
//          cost pass ran, each test's count is the product of its axes
//   leaves one LeafTest per PlanTest, each axis referencing an axis of its
//          plan test with the same size, in the same order (size-1 axes
//          dropped); counts are the products; trap sets per service, sorted
//          and unique; the total equals the plan's
// Each problem is an error at the axis or test location, naming the stage.
#pragma once

#include "frontend/source/diagnostic.h"
#include "ir/leaf_program.h"
#include "ir/plan.h"

#include <string_view>

namespace fbc::ir {

// `after` is the stage just run ("axes", "cost", ..., "leaves"); `counted`
// whether the cost pass has run (counts are checked from then on).
bool verifyPlan(const Plan &plan, std::string_view after, bool counted,
                frontend::DiagnosticList &diags);
bool verifyLeafProgram(const Plan &plan, const LeafProgram &leaves, std::string_view after,
                       frontend::DiagnosticList &diags);

} // namespace fbc::ir
