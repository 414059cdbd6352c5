// `fbc ir SPEC [--format=text|json] [--stage=spec|plan] [--print-after=PASS]`:
// load a spec, verify its IR, print it; with --stage=plan, run the plan
// passes and print the plan IR; with --print-after, print the plan IR after
// the named pass (axes, cost, coverage, suggest, diagnostics).
#pragma once

#include <string>

namespace fbc::tools {

struct IrOptions {
  std::string spec;
  std::string format = "text"; // text | json
  std::string stage = "spec";  // spec | plan
  std::string printAfter;      // a plan pass name, "" for none
};

// Returns the process exit code: 0, or 1 on any load or validation error
// (diagnostics on stderr, nothing on stdout).
int runIr(const IrOptions &opts);

} // namespace fbc::tools
