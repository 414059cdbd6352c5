// Lowering ir::Plan -> ir::LeafProgram (ir/leaf_program.h): the fan-out
// `fbc run` executes, from the same axes `fbc plan` counts.
#pragma once

#include "ir/leaf_program.h"
#include "ir/plan.h"

namespace fbc::backend {

ir::LeafProgram lowerToLeaves(const ir::Plan &plan);

} // namespace fbc::backend
