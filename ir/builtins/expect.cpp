// expect_success(), expect_error_within(ms=), expect_hang(): predicates on a
// scenario's result, made at load time and checked at run time.
#include "frontend/lib/args.h"
#include "frontend/lib/printer.h"
#include "ir/builtins/arg_util.h"
#include "ir/builtins/builtins.h"
#include "ir/builtins/expect_value.h"
#include "ir/builtins/spec_builder.h"

namespace fbc::ir::builtins {

using star::Value;

Expect expectFrom(Value v) {
  if (auto *e = valueAs<ExpectationValue>(v))
    return e->data;
  Expect x;
  x.kind = ExpectKind::Function;
  x.fn = functionRef(v);
  x.name = x.fn.name;
  x.loc = x.fn.loc;
  return x;
}

namespace {

Value makeExpectation(star::Thread &t, ExpectKind kind, const char *name, int64_t ms) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  auto *e = t.heap.make<ExpectationValue>();
  e->data.kind = kind;
  e->data.name = name;
  e->data.withinMs = ms;
  e->data.loc = site.loc();
  return Value::object(e);
}

} // namespace

Value expectSuccessFn(star::Thread &t, Value, const star::Args &args) {
  bindNoArgs(t, "expect_success", args);
  return makeExpectation(t, ExpectKind::Success, "expect_success", 0);
}

Value expectHangFn(star::Thread &t, Value, const star::Args &args) {
  bindNoArgs(t, "expect_hang", args);
  return makeExpectation(t, ExpectKind::Hang, "expect_hang", 0);
}

Value expectErrorWithinFn(star::Thread &t, Value, const star::Args &args) {
  CallSite site(t, SpecBuilder::of(t).callSites);
  Value ms;
  bindBuiltinArgs(t, "expect_error_within", args, {"ms"}, {&ms});
  if (!ms.isInt())
    site.fail(site.at(site.param(0, "ms")),
              "expect_error_within: for parameter ms: got " + typeOf(ms) + ", want int");
  if (!ms.isSmallInt())
    site.fail(site.at(site.param(0, "ms")),
              "expect_error_within: ms is out of range (got " + star::repr(ms) + ")");
  if (ms.smallInt() <= 0)
    site.fail(site.at(site.param(0, "ms")),
              "expect_error_within: ms must be > 0 (got " + std::to_string(ms.smallInt()) + ")");
  return makeExpectation(t, ExpectKind::ErrorWithin, "expect_error_within", ms.smallInt());
}

} // namespace fbc::ir::builtins
