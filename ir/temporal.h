// What a test's monitors and temporal properties are (ir/spec.h
// "temporal"), as plan, IR printers and run all read them: one place.
#pragma once

#include "ir/spec.h"

#include <vector>

namespace fbc::ir {

// The monitors a test runs, indices into Spec::monitors in this order:
// the spec-wide ones (declared at load time, not claimed), then those of
// its assumptions (fault_scenario faults=, the matrix cell's fault, and
// the assumptions they compose), then its own monitors= list. No index
// twice.
std::vector<uint32_t> testMonitors(const Spec &spec, const Test &t);

// The parts of a test's monitors and temporal properties that `fbc run`
// cannot execute, as host needs (HostFeature::Unbuilt): the reference's
// causal queries (`trace.causal_chain()`, `e.happens_before()`, ...) in the
// test's body, setup, monitors or expect=/terminate_when= predicates.
std::vector<HostNeed> temporalNeeds(const Spec &spec, const Test &t);

} // namespace fbc::ir
