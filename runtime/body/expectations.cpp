// The expect_*() predicates on a scenario's result: expect_success,
// expect_error_within(ms=), expect_hang, or a user function; called by a
// fault_scenario / matrix cell after its scenario, or directly on a value.
#include "runtime/driver/executor.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "ir/duration.h"
#include "runtime/values/response_value.h"

#include <algorithm>
#include <string>
#include <vector>

namespace fbc::rt {

using star::Value;

namespace {

// A field of a scenario result: a dict key or an attribute, null when it
// has neither (asked of its names first: a step's result fails an
// attribute its type lacks, runtime/values/fixed_attribute.h).
Value resultField(star::Thread &t, Value v, std::string_view name) {
  if (auto *d = v.as<star::Dict>())
    return d->table.get(t, star::makeString(t.heap, name));
  std::vector<std::string> names = star::attrNames(v);
  if (std::find(names.begin(), names.end(), name) == names.end())
    return Value();
  return star::getAttrOrNull(t, v, name);
}

} // namespace

Value Executor::callExpect(star::Thread &t, const ir::Expect &e, const star::Args &args) {
  if (args.positional.size() != 1 || !args.kwargs.empty())
    t.fail(e.display() + ": takes one argument (the scenario's result)");
  checkExpect(t, e, args.positional[0]);
  return star::none();
}

void Executor::checkExpect(star::Thread &t, const ir::Expect &e, Value result, int64_t timeoutNs) {
  bool none = result.is(star::Kind::None);
  auto intField = [&](std::string_view name) -> std::optional<int64_t> {
    Value v = none ? Value() : resultField(t, result, name);
    if (v && v.isSmallInt())
      return v.smallInt();
    return std::nullopt;
  };
  auto status = [&] {
    std::optional<int64_t> s = intField("status");
    return s ? s : intField("status_code");
  };
  auto errorText = [&]() -> std::string {
    if (none)
      return "";
    if (ResponseValue *r = asResponse(result))
      return r->resp.ok ? "" : (r->resp.error.empty() ? "request failed" : r->resp.error);
    Value v = resultField(t, result, "error");
    auto *s = v ? v.as<star::String>() : nullptr;
    return s ? std::string(s->view()) : "";
  };
  switch (e.kind) {
  case ir::ExpectKind::Function:
    star::call(t, e.fn.value, llvm::ArrayRef<Value>{result});
    return;
  case ir::ExpectKind::Success: {
    if (none)
      t.fail("expect_success: scenario returned None (did it complete?)");
    if (std::string err = errorText(); !err.empty())
      t.fail("expect_success: request failed: " + err);
    if (std::optional<int64_t> s = status(); s && *s >= 500)
      t.fail("expect_success: status=" + std::to_string(*s) + " (want < 500)");
    return;
  }
  case ir::ExpectKind::ErrorWithin: {
    std::string head = "expect_error_within(ms=" + std::to_string(e.withinMs) + "): ";
    if (none)
      t.fail(head + "scenario didn't return (hang? use expect_hang instead)");
    std::optional<int64_t> s = status();
    bool errored = (s && *s >= 500) || !errorText().empty();
    // A value without a status (a TCP step's string) is no success with
    // status 0: say what it was.
    if (!errored)
      t.fail(head + "scenario returned " +
             (s ? "success (status=" + std::to_string(*s) + ")" : star::repr(result)) +
             " — expected an error");
    if (std::optional<int64_t> d = intField("duration_ms"); d && *d > e.withinMs)
      t.fail(head + "took " + std::to_string(*d) + "ms — exceeded budget");
    return;
  }
  case ir::ExpectKind::Hang:
    // Reached only when the scenario returned (a scenario that does not
    // return within its timeout passes: test_lifecycle.cpp), so it did
    // not hang, None included.
    t.fail("expect_hang: scenario returned " + star::repr(result) + " — expected no return" +
           (timeoutNs ? " within " + ir::formatDuration(timeoutNs) : std::string()));
  }
}

} // namespace fbc::rt
