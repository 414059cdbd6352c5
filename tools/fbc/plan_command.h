// `fbc plan`: its options and entry point. The command's logic lives in the
// pipeline libraries (passes/ builds the plan, backend/ renders it); this
// file only binds flags and calls them. docs/plan.md is the user doc.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct PlanOptions {
  std::string spec;
  std::string format = "text"; // text | json | dot
  bool coverage = false;
  bool suggest = false;           // implies coverage
  std::string strategy = "rules"; // rules | llm (reserved)
  std::string from;               // --from RUN.fb (with --suggest): suggestions from a run
  bool checkCost = false;
  int64_t maxInstances = -1; // -1: not given
  int64_t shards = -1;       // --shards N: each shard's leaves and cost (-1: not asked)
  std::string durationsFrom; // --durations-from BUNDLE: measured leaf durations
};

// Declares the subcommand's positional arguments and flags on `sub`.
void addPlanOptions(CLI::App &sub, PlanOptions &opts);

// Returns the process exit code: 0; 1 on a usage or load error; 2 when the
// cost gate (--check-cost --max-instances N) finds more than N instances.
int runPlan(const PlanOptions &opts);

} // namespace fbc::tools
