#include "tools/fbc/plan_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace fbc::tools {

void addPlanOptions(CLI::App &sub, PlanOptions &opts) {
  sub.add_option("spec", opts.spec, "spec file (.star)")->required();
}

int runPlan(const PlanOptions &) {
  std::fprintf(stderr, "fbc plan: not implemented yet\n");
  return 1;
}

} // namespace fbc::tools
