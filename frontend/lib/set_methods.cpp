// Methods of set, as the main line of go.starlark.net (the reference tool's
// interpreter) defines them: add clear difference discard intersection
// issubset issuperset pop remove symmetric_difference union update, with its
// messages ("add: cannot insert into frozen hash table", "pop: empty set",
// "union: argument #1 is not iterable: int").
// A mutating method checks that the set may change before anything else, so
// even a no-op on a frozen set fails, as in Go.
#include "frontend/lib/args.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/set_algebra.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <string>
#include <vector>

namespace fbc::star {

namespace {

Set &self(Value v) {
  return *v.as<Set>();
}

// "fn: cannot insert into frozen hash table" and the like.
void checkMutable(Thread &t, const char *fn, const Set &s, std::string_view verb) {
  std::string err = mutationError(s, verb, "hash table");
  if (!err.empty())
    t.fail(std::string(fn) + ": " + err);
}

// Runs f, prefixing any error it raises with the method's name (Go's
// nameErr), e.g. "add: unhashable type: list".
template <class F> auto prefixed(Thread &t, const char *fn, F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

// The *iterables of union and update (Go's setUpdate): no keywords ("fn:
// does not accept keyword arguments"), each iterable ("fn: argument #2 is
// not iterable: int").
std::vector<Set *> iterables(Thread &t, const char *fn, const Args &args) {
  if (!args.kwargs.empty())
    t.fail(std::string(fn) + ": does not accept keyword arguments");
  std::vector<Set *> sets;
  sets.reserve(args.positional.size());
  for (size_t i = 0; i < args.positional.size(); ++i) {
    Value x = args.positional[i];
    if (!isIterable(x))
      t.fail(std::string(fn) + ": argument #" + std::to_string(i + 1) +
             " is not iterable: " + std::string(typeName(x)));
    sets.push_back(prefixed(t, fn, [&] { return setOf(t, x); }));
  }
  return sets;
}

// The one iterable of difference, intersection, symmetric_difference and
// the subset tests ("fn: for parameter 1: got int, want iterable").
Set *oneIterable(Thread &t, const char *fn, const Args &args) {
  Value x;
  bindPositional(t, fn, args, 1, {&x});
  wantIterable(t, fn, "1", x);
  return prefixed(t, fn, [&] { return setOf(t, x); });
}

// `op` applied to a copy of the set and one iterable.
using Combine = void (*)(Thread &t, Set &r, const Set &y);

Value combined(Thread &t, const char *fn, Value s, const Args &args, Combine op) {
  Set *other = oneIterable(t, fn, args);
  Set *r = copySet(t, self(s));
  op(t, *r, *other);
  return Value::object(r);
}

Value setDifference(Thread &t, Value s, const Args &args) {
  return combined(t, "difference", s, args, removeAll);
}
Value setIntersection(Thread &t, Value s, const Args &args) {
  return combined(t, "intersection", s, args, keepOnly);
}
Value setSymmetricDifference(Thread &t, Value s, const Args &args) {
  return combined(t, "symmetric_difference", s, args, toggleAll);
}
Value setUnion(Thread &t, Value s, const Args &args) {
  std::vector<Set *> others = iterables(t, "union", args);
  Set *r = copySet(t, self(s));
  for (Set *o : others)
    addAll(t, *r, *o);
  return Value::object(r);
}
Value setUpdate(Thread &t, Value s, const Args &args) {
  std::vector<Set *> others = iterables(t, "update", args);
  checkMutable(t, "update", self(s), "insert into");
  for (Set *o : others)
    addAll(t, self(s), *o);
  return none();
}

Value setAdd(Thread &t, Value s, const Args &args) {
  Value x;
  bindPositional(t, "add", args, 1, {&x});
  checkMutable(t, "add", self(s), "insert into");
  prefixed(t, "add", [&] { self(s).table.set(t, x, none()); });
  return none();
}

Value setClear(Thread &t, Value s, const Args &args) {
  bindNone(t, "clear", args);
  if (self(s).table.size() != 0) {
    checkMutable(t, "clear", self(s), "clear");
    self(s).table.clear();
  }
  return none();
}

Value setDiscard(Thread &t, Value s, const Args &args) {
  Value x;
  bindPositional(t, "discard", args, 1, {&x});
  checkMutable(t, "discard", self(s), "delete from");
  prefixed(t, "discard", [&] { self(s).table.erase(t, x); });
  return none();
}

Value setIsSubset(Thread &t, Value s, const Args &args) {
  Set *o = oneIterable(t, "issubset", args);
  return boolean(setCompare(t, CmpOp::Le, self(s), *o));
}

Value setIsSuperset(Thread &t, Value s, const Args &args) {
  Set *o = oneIterable(t, "issuperset", args);
  return boolean(setCompare(t, CmpOp::Ge, self(s), *o));
}

Value setPop(Thread &t, Value s, const Args &args) {
  bindNone(t, "pop", args);
  int64_t first = self(s).table.first();
  if (first < 0)
    t.fail("pop: empty set");
  checkMutable(t, "pop", self(s), "delete from");
  Value k = self(s).table.entries()[static_cast<size_t>(first)].key;
  self(s).table.erase(t, k);
  return k;
}

Value setRemove(Thread &t, Value s, const Args &args) {
  Value x;
  bindPositional(t, "remove", args, 1, {&x});
  checkMutable(t, "remove", self(s), "delete from");
  if (prefixed(t, "remove", [&] { return self(s).table.erase(t, x); }).isNull())
    t.fail("remove: missing key");
  return none();
}

const Method kSetMethods[] = {
    {"add", setAdd},
    {"clear", setClear},
    {"difference", setDifference},
    {"discard", setDiscard},
    {"intersection", setIntersection},
    {"issubset", setIsSubset},
    {"issuperset", setIsSuperset},
    {"pop", setPop},
    {"remove", setRemove},
    {"symmetric_difference", setSymmetricDifference},
    {"union", setUnion},
    {"update", setUpdate},
};

} // namespace

llvm::ArrayRef<Method> setMethods() {
  return kSetMethods;
}

} // namespace fbc::star
