// Service dependency order and cycle detection over depends_on edges.
// Names that are not declared services are ignored here (the verifier
// reports them).
#pragma once

#include "ir/spec.h"

#include <string>
#include <vector>

namespace fbc::ir {

// Indices of `services` in start order: every service after the services
// it depends on, ties broken by name. Services on or behind a dependency
// cycle follow, in name order.
std::vector<size_t> topologicalOrder(const std::vector<Service> &services);

// A dependency cycle, as service names from the smallest name back to it
// ("a", "b", "a"); empty when there is none. Deterministic: the same
// services give the same cycle.
std::vector<std::string> findCycle(const std::vector<Service> &services);

} // namespace fbc::ir
