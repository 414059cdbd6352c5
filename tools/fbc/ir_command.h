// `fbc ir SPEC [--format=text|json] [--stage=spec|plan|leaves] [--print-after=PASS]
//  [--test T] [--leaf ID]`: load a spec, verify its IR, print it; with
// --stage=plan, run the plan passes and print the plan IR; with
// --print-after, print the plan IR after the named pass (axes, cost,
// coverage, suggest, body_check, diagnostics); with --stage=leaves, lower the plan to
// the leaf program and print per test its axes, leaf count and the
// assignment of leaf ID (default: the last leaf).
#pragma once

#include "tools/fbc/explore_options.h"

#include <string>

namespace fbc::tools {

struct IrOptions {
  std::string spec;
  std::string format = "text"; // text | json
  std::string stage = "spec";  // spec | plan | leaves
  std::string printAfter;      // a plan pass name, "" for none
  std::string test;            // --stage=leaves: one test
  std::string leaf;            // --stage=leaves: a leaf id, "" for the last
  bool verifyEach = false;     // run the verifier after every stage
  ExploreFlags explore;        // --stage=leaves: lower as fbc run --explore=... does
};

// Returns the process exit code: 0, or 1 on any load or validation error
// (diagnostics on stderr, nothing on stdout).
int runIr(const IrOptions &opts);

} // namespace fbc::tools
