// Host values the Go conformance suite predeclares (starlark/eval_test.go):
// `hasfields()` (a type with settable fields), `fibonacci` (an infinite
// iterable) and the assert module's helpers (starlarktest).
#pragma once

#include "frontend/lib/heap.h"
#include "frontend/lib/value.h"

#include <string>
#include <vector>

namespace fbc::conformance {

struct Failure {
  int line; // in the test file; 0 if unknown
  std::string message;
};

// Collects assert.error() reports of the chunk being run.
struct Reporter {
  std::string testFile;
  std::vector<Failure> failures;
};

star::Value makeHasFieldsBuiltin();
star::Value makeFibonacci();
// The predeclared builtins of assert.star: error, catch, matches, module,
// _freeze. `error` reports to the Reporter stored in Thread::userData.
star::Value makeErrorBuiltin();
star::Value makeCatchBuiltin();
star::Value makeMatchesBuiltin();
star::Value makeModuleBuiltin();
star::Value makeFreezeBuiltin();
// _floateq(x, y) of the recent assert.star: floats equal within one ULP.
star::Value makeFloatEqBuiltin();

// The frozen `math` module of math.star (go.starlark.net/lib/math), defined
// in math_module.cpp.
star::Value makeMathModule(star::Heap &h);
// The frozen `time` module of time.star (go.starlark.net/lib/time), defined
// in time_module.cpp.
star::Value makeTimeModule(star::Heap &h);

} // namespace fbc::conformance
