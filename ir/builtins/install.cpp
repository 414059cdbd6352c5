#include "ir/builtins/install.h"

#include "frontend/eval/interpreter.h"
#include "frontend/eval/objects.h"
#include "frontend/lib/struct.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/spec_builder.h"

namespace fbc::ir::builtins {

namespace {

struct Entry {
  const char *name;
  star::BuiltinFn fn;
};

// Sorted by name.
constexpr Entry kLoadTime[] = {
    {"allow", allowFn},
    {"choose", chooseFn},
    {"delay", delayFn},
    {"deny", denyFn},
    {"determinism", determinismFn},
    {"duration", durationFn},
    {"expect_error_within", expectErrorWithinFn},
    {"expect_hang", expectHangFn},
    {"expect_success", expectSuccessFn},
    {"fault_assumption", faultAssumptionFn},
    {"fault_matrix", faultMatrixFn},
    {"fault_scenario", faultScenarioFn},
    {"http", httpFn},
    {"interface", interfaceFn},
    {"op", opFn},
    {"ready", readyFn},
    {"scenario", scenarioFn},
    {"service", serviceFn},
    {"tcp", tcpFn},
    {"test", testFn},
};

// The reference's Tier-1 builtins that act on running services or on the
// running test; implemented by the runtime. Sorted.
constexpr const char *kBodyTime[] = {
    "assert_before", "assert_eq",  "assert_eventually", "assert_never", "assert_true",
    "events",        "fault",      "fault_all",         "fault_start",  "fault_stop",
    "halt",          "nondet",     "parallel",          "sleep",        "trace",
    "trace_start",   "trace_stop",
};

std::vector<std::string_view> names(bool loadTime) {
  std::vector<std::string_view> out;
  if (loadTime)
    for (const Entry &e : kLoadTime)
      out.push_back(e.name);
  else
    for (const char *n : kBodyTime)
      out.push_back(n);
  return out;
}

} // namespace

void installSpecBuiltins(star::Interpreter &interp, SpecBuilder &builder) {
  interp.thread.userData = &builder;
  for (const Entry &e : kLoadTime)
    interp.predeclared[e.name] = star::Value::object(interp.heap.make<star::Builtin>(e.name, e.fn));
  for (const char *n : kBodyTime)
    interp.predeclared[n] = star::Value::object(interp.heap.make<star::Builtin>(n, bodyOnlyFn));
  interp.predeclared["struct"] = star::makeStructBuiltin();
}

llvm::ArrayRef<std::string_view> loadTimeBuiltinNames() {
  static const std::vector<std::string_view> v = names(true);
  return v;
}

llvm::ArrayRef<std::string_view> bodyTimeBuiltinNames() {
  static const std::vector<std::string_view> v = names(false);
  return v;
}

} // namespace fbc::ir::builtins
