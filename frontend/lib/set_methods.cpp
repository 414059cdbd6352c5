// Methods of set. The Go implementation fbc follows (the Debian snapshot
// of go.starlark.net whose conformance suite fbc passes) defines one:
// union. Its suite asserts dir(set()) == ["union"], so the mutating and
// subset methods of later Go versions are deliberately absent.
#include "frontend/eval/args.h"
#include "frontend/eval/iteration.h"
#include "frontend/eval/methods.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/lib/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

// s.union(iterable): a new set, s's elements then the iterable's new ones
// (Go's set_union: at most one positional argument, no keywords).
Value setUnion(Thread &t, Value self, const Args &args) {
  Value other;
  bindPositional(t, "union", args, 0, {&other});
  Set *result = t.heap.make<Set>();
  result->table.assign(t, self.as<Set>()->table);
  if (other.isNull())
    return Value::object(result);
  wantIterable(t, "union", "1", other);
  try {
    forEachElement(t, other, [&](Value x) {
      result->insert(t, x);
      return true;
    });
  } catch (const EvalError &e) {
    failPrefixed(t, "union", e);
  }
  return Value::object(result);
}

const Method kSetMethods[] = {
    {"union", setUnion},
};

} // namespace

llvm::ArrayRef<Method> setMethods() {
  return kSetMethods;
}

} // namespace fbc::star
