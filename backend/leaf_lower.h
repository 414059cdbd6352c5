// Lowering ir::Plan -> ir::LeafProgram (ir/leaf_program.h): the fan-out
// `fbc run` executes, from the same axes `fbc plan` counts.
#pragma once

#include "ir/leaf_program.h"
#include "ir/plan.h"
#include "passes/pass_manager.h"

namespace fbc::backend {

ir::LeafProgram lowerToLeaves(const ir::Plan &plan);
// With fbc run --explore: every test that reaches a parallel() call and has
// no fan-out axis holds ir::kExploreHeld on each service with a seccomp
// filter (trapped there too); `explore` is the program's.
ir::LeafProgram lowerExploring(const ir::Plan &plan, const ir::ExploreOptions &explore);

// Per service, the syscall keywords and names its rules could name, as the
// sorted native numbers its filter traps: families expanded
// (ir::syscallNumbers), unknown names dropped, and a destination syscall
// (ir::isDestinationSyscall) trapped on one service trapped on every one
// (another service's connect() may address the faulted one's ports).
std::vector<std::vector<int>> trapNumbers(const std::vector<std::vector<std::string>> &names);

// The plan pipeline (passes::PassManager::planPipeline) with the lowering
// as its last stage, named "leaves".
passes::PassManager leafPipeline(bool coverage = true, ir::ExploreOptions explore = {});

} // namespace fbc::backend
