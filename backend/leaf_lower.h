// Lowering ir::Plan -> ir::LeafProgram (ir/leaf_program.h): the fan-out
// `fbc run` executes, from the same axes `fbc plan` counts.
#pragma once

#include "ir/leaf_program.h"
#include "ir/plan.h"
#include "passes/pass_manager.h"

namespace fbc::backend {

ir::LeafProgram lowerToLeaves(const ir::Plan &plan);

// The plan pipeline (passes::PassManager::planPipeline) with the lowering
// as its last stage, named "leaves".
passes::PassManager leafPipeline(bool coverage = true);

} // namespace fbc::backend
