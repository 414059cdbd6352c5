#include "tools/fbc/load_for_command.h"

#include "ir/load/load_limits.h"

#include <CLI/CLI.hpp>
#include <llvm/Support/raw_ostream.h>

namespace fbc::tools {

void addLoadLimitOptions(CLI::App &sub) {
  ir::LoadLimits &l = ir::loadLimits();
  sub.add_option("--max-load-steps", l.maxSteps,
                 "execution steps loading the spec may take (default " +
                     std::to_string(ir::LoadLimits::kDefaultSteps) + ")")
      ->check(CLI::PositiveNumber);
  sub.add_option("--max-load-memory", l.maxMemoryMiB,
                 "MiB of memory loading the spec may add (default " +
                     std::to_string(ir::LoadLimits::kDefaultMemoryMiB) + ")")
      ->check(CLI::PositiveNumber);
}

std::unique_ptr<ir::LoadedSpec> loadSpecForCommand(const std::string &path) {
  std::unique_ptr<ir::LoadedSpec> loaded = ir::loadSpec(path);
  loaded->printDiagnostics(llvm::errs());
  llvm::errs().flush();
  if (!loaded->ok())
    return nullptr;
  return loaded;
}

} // namespace fbc::tools
