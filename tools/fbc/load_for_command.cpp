#include "tools/fbc/load_for_command.h"

#include <llvm/Support/raw_ostream.h>

namespace fbc::tools {

std::unique_ptr<ir::LoadedSpec> loadSpecForCommand(const std::string &path) {
  std::unique_ptr<ir::LoadedSpec> loaded = ir::loadSpec(path);
  loaded->printDiagnostics(llvm::errs());
  llvm::errs().flush();
  if (!loaded->ok())
    return nullptr;
  return loaded;
}

} // namespace fbc::tools
