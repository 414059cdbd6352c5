// What this machine has of what tests may need (ir::HostNeed): a container
// runtime, the gVisor runtime. Decided once per run; a test that needs
// something missing gets one error row naming the need and the machine's
// answer, and is not started (docs/run.md "What this machine cannot run").
#pragma once

#include "ir/spec.h"

#include <optional>
#include <string>
#include <vector>

namespace fbc::rt {

// Why `n` cannot be met here, in words for the row's parenthesis ("docker
// or podman not found"; "" when the need's own words say it: a part fbc
// does not have); nullopt for a need this machine and fbc can meet. Probes
// the machine at most once per feature per process.
std::optional<std::string> hostNeedUnmet(const ir::HostNeed &n);

// The error row's reason for a test with `needs`: each unmet need's
// ir::hostNeedReason (ir::wrongRuntimeReason for a gVisor need in a spec
// on another runtime), in order, joined by "; "; "" when all are met.
std::string cannotRunReason(const ir::Spec &spec, const std::vector<ir::HostNeed> &needs);

} // namespace fbc::rt
