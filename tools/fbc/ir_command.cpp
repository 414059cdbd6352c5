#include "tools/fbc/ir_command.h"

#include "backend/leaf_lower.h"
#include "frontend/eval/big_stack.h"
#include "ir/leaf_program.h"
#include "ir/plan.h"
#include "ir/print/print.h"
#include "passes/pass_manager.h"
#include "tools/fbc/load_for_command.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {

namespace {

// What is wrong with a combination of fbc ir's flags, or "".
std::string irUsageError(const IrOptions &opts) {
  if (opts.format != "text" && opts.format != "json")
    return "unknown format '" + opts.format + "' (formats: text, json)";
  if (opts.stage != "spec" && opts.stage != "plan" && opts.stage != "leaves")
    return "unknown stage '" + opts.stage + "' (stages: spec, plan, leaves)";
  bool leavesStage = opts.stage == "leaves";
  if ((!opts.test.empty() || !opts.leaf.empty()) && !leavesStage)
    return "--test and --leaf need --stage=leaves";
  if (leavesStage && (!opts.printAfter.empty() || opts.format != "text"))
    return "the leaf program has a text form only (and no --print-after)";
  return "";
}

// --print-after=PASS: the plan IR or leaf program after that pass.
void printAfter(passes::PassManager &pm, const std::string &name) {
  pm.afterPass = [name](const passes::Pass &p, const ir::Plan &plan) {
    if (name != p.name)
      return;
    llvm::outs() << "# plan IR after pass '" << p.name << "'\n";
    ir::printPlanText(plan, llvm::outs());
  };
  pm.afterLowering = [name](const passes::Lowering &l, const ir::LeafProgram &leaves) {
    if (name != l.name)
      return;
    llvm::outs() << "# leaf program after pass '" << l.name << "'\n";
    ir::LeafPrintOptions po;
    std::string err;
    ir::printLeafProgramText(leaves, po, llvm::outs(), err);
  };
}

} // namespace

int runIr(const IrOptions &opts) {
  if (std::string why = irUsageError(opts); !why.empty()) {
    std::fprintf(stderr, "fbc: error: %s\n", why.c_str());
    return 1;
  }
  bool leavesStage = opts.stage == "leaves";
  ir::ExploreOptions explore;
  {
    std::string error;
    if (!exploreOptions(opts.explore, explore, error)) {
      std::fprintf(stderr, "fbc: error: %s\n", error.c_str());
      return 1;
    }
  }
  // The whole pipeline: the plan passes, then the lowering to leaves.
  passes::PassManager pm = backend::leafPipeline(true, explore);
  pm.verifyEach = opts.verifyEach;
  bool planStage = opts.stage == "plan" || !opts.printAfter.empty();
  if (!opts.printAfter.empty() && !pm.has(opts.printAfter)) {
    std::fprintf(stderr, "fbc: error: unknown pass '%s' (passes: %s)\n", opts.printAfter.c_str(),
                 pm.stageNames().c_str());
    return 1;
  }
  if (planStage && opts.format != "text") {
    std::fprintf(stderr, "fbc: error: the plan IR has a text form only (use `fbc plan "
                         "--format=json` for the plan's JSON)\n");
    return 1;
  }
  return star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> loaded = loadSpecForCommand(opts.spec);
    if (!loaded)
      return 1;
    // The stages run when what is printed needs them, or when they are
    // verified.
    bool lower = leavesStage || opts.verifyEach || opts.printAfter == "leaves";
    bool plan = lower || planStage;
    if (!opts.printAfter.empty())
      printAfter(pm, opts.printAfter);
    ir::Plan planIr;
    ir::LeafProgram leaves;
    if (plan) {
      frontend::DiagnosticList diags;
      if (!pm.run(loaded->spec(), planIr, lower ? &leaves : nullptr, diags)) {
        llvm::outs().flush();
        diags.print(llvm::errs());
        return 1;
      }
    }
    if (leavesStage) {
      ir::LeafPrintOptions po;
      po.test = opts.test;
      if (!opts.leaf.empty())
        po.leaf = opts.leaf;
      std::string err;
      if (!ir::printLeafProgramText(leaves, po, llvm::outs(), err)) {
        llvm::outs().flush();
        llvm::errs() << "fbc: error: " << err << '\n';
        return 1;
      }
    } else if (planStage) {
      if (opts.printAfter.empty())
        ir::printPlanText(planIr, llvm::outs());
    } else if (opts.format == "json") {
      ir::printSpecJson(loaded->spec(), llvm::outs());
    } else {
      ir::printSpecText(loaded->spec(), llvm::outs());
    }
    llvm::outs().flush();
    return 0;
  });
}

} // namespace fbc::tools
