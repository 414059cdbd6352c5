// The IR verifier. It checks what no single builtin call can: references
// between entities (depends_on names a declared service, no dependency
// cycle, assumptions and matrices name existing entities), and the
// invariants every stage after loading relies on (errnos from the table,
// probability in [0, 1], max_fires/mode consistent, tests sorted and
// unique, services in dependency order, ...). Each problem is an error at
// the entity's source location.
#pragma once

#include "frontend/source/diagnostic.h"
#include "ir/spec.h"

namespace fbc::ir {

// Returns true when the spec is well-formed; errors go to `diags`.
bool verifySpec(const Spec &spec, frontend::DiagnosticList &diags);

} // namespace fbc::ir
