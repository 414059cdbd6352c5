// `fbc plan`: its options and entry point. The command's logic lives in the
// pipeline libraries; this file only binds flags and calls them.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct PlanOptions {
  std::string spec;
};

// Declares the subcommand's positional arguments and flags on `sub`.
void addPlanOptions(CLI::App &sub, PlanOptions &opts);

// Returns the process exit code.
int runPlan(const PlanOptions &opts);

} // namespace fbc::tools
