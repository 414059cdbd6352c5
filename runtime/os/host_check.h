// What this machine has of what tests may need (ir::HostNeed): a container
// runtime, the gVisor runtime. Decided once per run; a test that needs
// something missing gets one error row naming the need and the machine's
// answer, and is not started (docs/run.md "What this machine cannot run").
#pragma once

#include "ir/spec.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::rt {

// Why `n` cannot be met here, in words for the row's parenthesis ("docker
// or podman not found"; "" when the need's own words say it: a part fbc
// does not have); nullopt for a need this machine and fbc can meet. Probes
// the machine at most once per feature per process.
std::optional<std::string> hostNeedUnmet(const ir::HostNeed &n);

// The first executable `name` on $PATH, or "".
std::string onPath(std::string_view name);

// How the container runtime need is decided: nullopt when an engine is
// reachable, else why not. Installed before the run by fbc run
// (runtime/containers/, a later room: containers::installEngineProbe()).
void setContainerEngineProbe(std::function<std::optional<std::string>()> probe);

// The error row's reason for a test with `needs`: each unmet need's
// ir::hostNeedReason (ir::wrongRuntimeReason for a gVisor need in a spec
// on another runtime), in order, joined by "; "; "" when all are met.
std::string cannotRunReason(const ir::Spec &spec, const std::vector<ir::HostNeed> &needs);

} // namespace fbc::rt
