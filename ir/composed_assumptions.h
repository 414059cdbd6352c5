// The assumptions a fault name installs: the assumption itself, then the ones
// it composes through faults=, depth first in the order given. Coverage, the
// plan's probability sites and the runtime's rule tables all walk this one
// closure, so they agree on what a fault scenario or matrix cell faults.
#pragma once

#include "ir/spec.h"

#include <string_view>
#include <vector>

namespace fbc::ir {

// Appends to `out` the assumptions `name` installs that are not in `out`
// already (so composition cycles and diamonds add each assumption once, and
// several names can share one `out`). Unknown names add nothing.
void appendComposedAssumptions(const Spec &spec, std::string_view name,
                               std::vector<const FaultAssumption *> &out);

// The same for one name, from an empty list.
std::vector<const FaultAssumption *> composedAssumptions(const Spec &spec, std::string_view name);

} // namespace fbc::ir
