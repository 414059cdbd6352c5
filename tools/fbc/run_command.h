// `fbc run`: its options and entry point. The command's logic lives in the
// pipeline libraries; this file only binds flags and calls them.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct RunOptions {
  std::string spec;
};

// Declares the subcommand's positional arguments and flags on `sub`.
void addRunOptions(CLI::App &sub, RunOptions &opts);

// Returns the process exit code.
int runRun(const RunOptions &opts);

} // namespace fbc::tools
