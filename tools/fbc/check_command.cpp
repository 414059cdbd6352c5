#include "tools/fbc/check_command.h"

#include "backend/check.h"
#include "frontend/eval/big_stack.h"
#include "ir/load/load_spec.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {

void addCheckOptions(CLI::App &sub, CheckOptions &opts) {
  sub.add_option("spec", opts.spec, "spec file (.star)")->required();
  sub.add_option("--format", opts.format, "text (default) or json");
  sub.add_flag("--strict", opts.strict,
               "Vacuity findings (TEST_NO_ASSERTIONS, NO_POSITIVE_CONTROL) are errors");
  sub.add_option("--max-instances", opts.maxInstances,
                 "PLAN_COST_EXCEEDED when the plan has more instances");
}

int runCheck(const CheckOptions &opts) {
  if (opts.format != "text" && opts.format != "json") {
    std::fprintf(stderr, "error: unknown --format=%s (valid: text, json)\n", opts.format.c_str());
    return 1;
  }
  return star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> loaded = ir::loadSpec(opts.spec);
    // The loader's own located diagnostics (warnings too), as every command
    // prints them.
    loaded->printDiagnostics(llvm::errs());
    llvm::errs().flush();
    backend::CheckOptions check;
    check.strict = opts.strict;
    if (opts.maxInstances >= 0)
      check.maxInstances = uint64_t(opts.maxInstances);
    backend::CheckReport report = backend::checkSpec(opts.spec, *loaded, check);
    if (opts.format == "json")
      backend::emitCheckJson(report, llvm::outs());
    else
      backend::emitCheckText(report, llvm::outs());
    llvm::outs().flush();
    return report.loaded && report.errors() == 0 ? 0 : 1;
  });
}

} // namespace fbc::tools
