#include "tools/fbc/ir_command.h"

#include "frontend/eval/big_stack.h"
#include "ir/load_spec.h"
#include "ir/print.h"

#include <llvm/Support/raw_ostream.h>

#include <cstdio>

namespace fbc::tools {

int runIr(const IrOptions &opts) {
  if (opts.format != "text" && opts.format != "json") {
    std::fprintf(stderr, "fbc: error: unknown format '%s' (formats: text, json)\n",
                 opts.format.c_str());
    return 1;
  }
  return star::runWithLargeStack([&] {
    std::unique_ptr<ir::LoadedSpec> loaded = ir::loadSpec(opts.spec);
    loaded->printDiagnostics(llvm::errs());
    llvm::errs().flush();
    if (!loaded->ok())
      return 1;
    if (opts.format == "json")
      ir::printSpecJson(loaded->spec(), llvm::outs());
    else
      ir::printSpecText(loaded->spec(), llvm::outs());
    llvm::outs().flush();
    return 0;
  });
}

} // namespace fbc::tools
