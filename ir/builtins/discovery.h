// Test discovery: the tests of a spec come from five sources, which claim
// names in this order (the reference's DiscoverTests):
//   1. root-file globals named test_* that are callable   (kind def)
//   2. scenario(fn)                       -> test_<fn>      (scenario)
//   3. fault_scenario("x", ...)           -> test_x         (fault_scenario)
//      fault_matrix cells                 -> test_matrix_<scenario>_<fault>
//   4. test("x", ...)                     -> test_x         (test_builtin)
// The first claim of a name wins; a later one is dropped with a warning
// that names both definitions. The result is sorted by name (bytewise),
// which is the execution order.
#pragma once

#include "frontend/source/diagnostic.h"
#include "ir/spec.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fbc::ir {

// `candidates` in the precedence order above.
std::vector<Test> discoverTests(std::vector<Test> candidates, frontend::DiagnosticList &diags);
// The same over tests stored in any order: `precedence` lists every
// position of `tests` once, in the claim order above.
std::vector<Test> discoverTests(std::vector<Test> tests, llvm::ArrayRef<uint32_t> precedence,
                                frontend::DiagnosticList &diags);

// How a test was defined, for messages: `def test_x`, `scenario(f)`,
// `fault_scenario("x")`, `fault_matrix cell (s, f)`, `test("x")`.
std::string describeTest(const Test &t);

} // namespace fbc::ir
