// Where `fbc run`'s leaves run (docs/run.md "One network namespace per
// leaf"): each in a network namespace of its own when fbc can make them
// (root) and the spec's services do not need the host's network; else in
// fbc's own namespace, said in a warning, since services then bind this
// host's ports and a second run on the same ports collides.
#pragma once

#include "ir/spec.h"
#include "runtime/driver/executor.h"

#include <string>

namespace fbc::tools {

// Sets cfg.leafNetns, and cfg.jobs to 1 where leaves cannot run at once;
// prints the warnings, prefixed with `cmd`. `jobsText` is -j as given.
// `hostNetwork`: --host-network, leaves in fbc's namespace by request.
void chooseLeafNetwork(const ir::Spec &spec, bool hostNetwork, const std::string &jobsText,
                       const char *cmd, rt::RunConfig &cfg);

} // namespace fbc::tools
