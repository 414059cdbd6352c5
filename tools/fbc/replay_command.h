// `fbc replay BUNDLE [--test F] [--leaf ID] [--seed N]`: re-runs a bundle's
// spec snapshot with its seed and writes a new bundle, warning about plan
// drift. bundle/replay.h extracts; the run is `fbc run`'s (run_command.h).
#pragma once

#include "tools/fbc/run_command.h"

#include <string>

namespace CLI {
class App;
}

namespace fbc::tools {

struct ReplayOptions {
  std::string bundle;
  std::string spec; // --spec: run this spec instead of the snapshot ("" = the snapshot)
  RunOptions run;   // --test, --leaf, --seed, --format, --timeout, -v, bundle flags
};

void addReplayOptions(CLI::App &sub, ReplayOptions &opts);

// `fbc run`'s exit codes; 1 also when the bundle cannot be replayed.
int runReplay(const ReplayOptions &opts);

} // namespace fbc::tools
