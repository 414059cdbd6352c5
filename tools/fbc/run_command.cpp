#include "tools/fbc/run_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace fbc::tools {

void addRunOptions(CLI::App &sub, RunOptions &opts) {
  sub.add_option("spec", opts.spec, "spec file (.star)")->required();
}

int runRun(const RunOptions &) {
  std::fprintf(stderr, "fbc run: not implemented yet\n");
  return 1;
}

} // namespace fbc::tools
