// Methods of set, as the recent go.starlark.net (the reference tool's
// interpreter) defines them: add clear difference difference_update discard
// intersection intersection_update isdisjoint issubset issuperset pop remove
// symmetric_difference symmetric_difference_update union update, with its
// messages ("add: cannot insert into frozen hash table", "pop: empty set").
// A mutating method checks that the set may change before anything else, so
// even a no-op on a frozen set fails, as in Go.
#include "frontend/eval/args.h"
#include "frontend/eval/methods.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/lib/set_algebra.h"
#include "frontend/lib/universe_helpers.h"

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

// The variadic *iterables of union, update, intersection...: each must be
// iterable ("fn: for parameter 2: got int, want iterable"), no keywords.
std::vector<Set *> iterables(Thread &t, const char *fn, const Args &args) {
  if (!args.kwargs.empty())
    t.fail(std::string(fn) + ": unexpected keyword arguments");
  std::vector<Set *> sets;
  sets.reserve(args.positional.size());
  for (size_t i = 0; i < args.positional.size(); ++i) {
    Value x = args.positional[i];
    wantIterable(t, fn, std::to_string(i + 1), x);
    sets.push_back(prefixed(t, fn, [&] { return setOf(t, x); }));
  }
  return sets;
}

// The single iterable of symmetric_difference and the subset tests.
Set *oneIterable(Thread &t, const char *fn, const Args &args, size_t min) {
  Value x;
  bindPositional(t, fn, args, min, {&x});
  if (x.isNull())
    return nullptr;
  wantIterable(t, fn, "1", x);
  return prefixed(t, fn, [&] { return setOf(t, x); });
}

// The methods that combine the set with *iterables (difference, intersection,
// union, and symmetric_difference with exactly one): `op` applied to a copy,
// or, for the _update forms, to the set itself once it may change (`verb`
// names the change Go reports: "insert into", "delete from").
using Combine = void (*)(Thread &t, Set &r, const Set &y);

std::vector<Set *> operands(Thread &t, const char *fn, const Args &args, bool exactlyOne) {
  if (!exactlyOne)
    return iterables(t, fn, args);
  return {oneIterable(t, fn, args, 1)};
}

Value combined(Thread &t, const char *fn, Value s, const Args &args, Combine op,
               bool exactlyOne = false) {
  std::vector<Set *> others = operands(t, fn, args, exactlyOne);
  Set *r = copySet(t, self(s));
  for (Set *o : others)
    op(t, *r, *o);
  return Value::object(r);
}

Value combinedInPlace(Thread &t, const char *fn, Value s, const Args &args, Combine op,
                      std::string_view verb, bool exactlyOne = false) {
  std::vector<Set *> others = operands(t, fn, args, exactlyOne);
  checkMutable(t, fn, self(s), verb);
  for (Set *o : others)
    op(t, self(s), *o);
  return none();
}

Value setDifference(Thread &t, Value s, const Args &args) {
  return combined(t, "difference", s, args, removeAll);
}
Value setDifferenceUpdate(Thread &t, Value s, const Args &args) {
  return combinedInPlace(t, "difference_update", s, args, removeAll, "delete from");
}
Value setIntersection(Thread &t, Value s, const Args &args) {
  return combined(t, "intersection", s, args, keepOnly);
}
Value setIntersectionUpdate(Thread &t, Value s, const Args &args) {
  return combinedInPlace(t, "intersection_update", s, args, keepOnly, "delete from");
}
Value setSymmetricDifference(Thread &t, Value s, const Args &args) {
  return combined(t, "symmetric_difference", s, args, toggleAll, true);
}
Value setSymmetricDifferenceUpdate(Thread &t, Value s, const Args &args) {
  return combinedInPlace(t, "symmetric_difference_update", s, args, toggleAll, "insert into", true);
}
Value setUnion(Thread &t, Value s, const Args &args) {
  return combined(t, "union", s, args, addAll);
}
Value setUpdate(Thread &t, Value s, const Args &args) {
  return combinedInPlace(t, "update", s, args, addAll, "insert into");
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

Value setIsDisjoint(Thread &t, Value s, const Args &args) {
  Set *o = oneIterable(t, "isdisjoint", args, 0);
  if (o)
    for (const HashTable::Entry &e : o->table.entries())
      if (!e.value.isNull() && setHas(t, self(s), e.key))
        return boolean(false);
  return boolean(true);
}

Value setIsSubset(Thread &t, Value s, const Args &args) {
  Set *o = oneIterable(t, "issubset", args, 1);
  return boolean(setCompare(t, CmpOp::Le, self(s), *o));
}

Value setIsSuperset(Thread &t, Value s, const Args &args) {
  Set *o = oneIterable(t, "issuperset", args, 1);
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
    {"difference_update", setDifferenceUpdate},
    {"discard", setDiscard},
    {"intersection", setIntersection},
    {"intersection_update", setIntersectionUpdate},
    {"isdisjoint", setIsDisjoint},
    {"issubset", setIsSubset},
    {"issuperset", setIsSuperset},
    {"pop", setPop},
    {"remove", setRemove},
    {"symmetric_difference", setSymmetricDifference},
    {"symmetric_difference_update", setSymmetricDifferenceUpdate},
    {"union", setUnion},
    {"update", setUpdate},
};

} // namespace

llvm::ArrayRef<Method> setMethods() {
  return kSetMethods;
}

} // namespace fbc::star
