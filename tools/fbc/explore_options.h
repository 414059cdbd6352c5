// --explore=all|sample and its settings (fbc run, fbc ir --stage=leaves):
// docs/run.md, "Exploring orderings".
#pragma once

#include "ir/leaf_program.h"

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct ExploreFlags {
  std::string policy;     // --explore: all | sample ("" = not exploring)
  std::string budget;     // --explore-budget N (default: all 1000, sample 100)
  std::string settle;     // --explore-settle D (default 2ms)
  std::string quietBound; // --explore-quiet-bound D (default 1s)
};

void addExploreOptions(CLI::App &sub, ExploreFlags &flags);
// The options the flags say; false with `error` for a bad value. The
// settings without --explore are for parallel(interleavings="dpor") sites:
// fbc run refuses them when the run has none (it knows after lowering).
bool exploreOptions(const ExploreFlags &flags, ir::ExploreOptions &out, std::string &error);

} // namespace fbc::tools
