// fbc run's flags checked and turned into what the run needs: the
// executor's configuration, the explore settings, the shard. Every bad flag
// is one "<command>: error: ..." line on stderr, before anything loads.
#pragma once

#include "tools/fbc/run_command.h"
#include "tools/fbc/shard_options.h"

#include <cstdint>
#include <optional>

namespace fbc::tools {

struct RunSettings {
  rt::RunConfig cfg;
  ir::ExploreOptions explore;
  std::optional<ShardRequest> shard;
  int64_t startUnix = 0; // the run's start: the bundle's name and created_at
  bool bundling = true;  // not --no-bundle

  bool exploring() const { return explore.policy != ir::ExploreOptions::Policy::None; }
};

// Prints "<cmd>: error: <message>" (fbc run's and replay's usage and
// preparation errors) and returns false.
bool commandError(const char *cmd, const std::string &message);

// False after printing the error. `interrupted` is the flag the signal
// thread sets (RunConfig::interrupted).
bool runSettings(const RunOptions &opts, std::atomic<bool> *interrupted, RunSettings &out);

} // namespace fbc::tools
