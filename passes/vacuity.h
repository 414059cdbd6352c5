// Vacuity: tests whose pass would prove little, found statically (`fbc
// check`; warnings, errors under --strict):
//   TEST_NO_ASSERTIONS   the test sets no expectation (expect=, a temporal
//                        property, require_faults_fire) and nothing it
//                        reaches calls an assertion (assert_*(), expect_*(),
//                        fail(), always/eventually/never): it can only pass.
//   NO_POSITIVE_CONTROL  a fault test (fault_scenario / matrix cell with
//                        faults, or a body calling fault() / fault_start() /
//                        fault_all()) whose scenario no unfaulted test runs:
//                        without a passing baseline, a pass (or a failure)
//                        says nothing about the fault. The scenario is the
//                        scenario function, or the module functions a
//                        fault(run=...) callback calls; a test without
//                        faults that reaches one of them is the control.
// Reached = the test's functions and every global function they name,
// transitively, in any module.
#pragma once

#include "ir/plan.h"
#include "ir/spec.h"

#include <vector>

namespace fbc::passes {

// Warnings, one per test (one per scenario row of a fault matrix), in test
// order.
std::vector<ir::PlanDiagnostic> vacuityFindings(const ir::Spec &spec);

} // namespace fbc::passes
