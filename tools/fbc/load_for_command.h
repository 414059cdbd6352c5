// The first step of `fbc ir`, `fbc plan` and `fbc run`: load the spec and
// print its diagnostics (warnings too) to stderr.
#pragma once

#include "ir/load/load_spec.h"

#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

// The flags that set the budgets of loading a spec (ir/load/load_limits.h):
// --max-load-steps N, --max-load-memory MiB, for plan, check, ir, run, replay
// and merge.
void addLoadLimitOptions(CLI::App &sub);

// The loaded spec, or null when loading or verification failed (the
// diagnostics are printed either way; the command then exits 1).
std::unique_ptr<ir::LoadedSpec> loadSpecForCommand(const std::string &path);

} // namespace fbc::tools
