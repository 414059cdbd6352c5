// Methods of set: newer Go's full set API (add, clear, difference, discard,
// intersection, issubset, issuperset, pop, remove, symmetric_difference,
// union, update), with Go's error messages.
#include "frontend/eval/args.h"
#include "frontend/eval/iteration.h"
#include "frontend/eval/methods.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/lib/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

// Fails with "fn: cannot <verb> frozen hash table" if s may not change.
void checkSetMutable(Thread &t, const char *fn, const Set &s, std::string_view verb) {
  std::string err = mutationError(s, verb, "hash table");
  if (!err.empty())
    t.fail(std::string(fn) + ": " + err);
}

Set *cloneSet(Thread &t, const Set &s) {
  Set *copy = t.heap.make<Set>();
  copy->table.assign(t, s.table);
  return copy;
}

// Runs body(x) for each element of the single iterable argument; errors
// from hashing or comparing elements are prefixed with fn.
template <class F> void eachOf(Thread &t, const char *fn, const Args &args, F &&body) {
  Value other;
  bindPositional(t, fn, args, 1, {&other});
  wantIterable(t, fn, "1", other);
  try {
    forEachElement(t, other, [&](Value x) {
      body(x);
      return true;
    });
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

bool has(Thread &t, const char *fn, const Set &s, Value x) {
  try {
    return !s.table.get(t, x).isNull();
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

// union and update: any number of iterables, no keywords.
void insertAll(Thread &t, const char *fn, Set &s, const Args &args) {
  if (!args.kwargs.empty())
    t.fail(std::string(fn) + ": does not accept keyword arguments");
  for (size_t i = 0; i < args.positional.size(); ++i) {
    Value arg = args.positional[i];
    if (!isIterable(arg))
      t.fail(std::string(fn) + ": argument #" + std::to_string(i + 1) +
             " is not iterable: " + std::string(typeName(arg)));
    try {
      forEachElement(t, arg, [&](Value x) {
        s.insert(t, x);
        return true;
      });
    } catch (const EvalError &e) {
      failPrefixed(t, fn, e);
    }
  }
}

Value setAdd(Thread &t, Value self, const Args &args) {
  Set &s = *self.as<Set>();
  Value x;
  bindPositional(t, "add", args, 1, {&x});
  if (has(t, "add", s, x))
    return none(); // no mutation, so fine on a frozen set
  checkSetMutable(t, "add", s, "insert into");
  s.table.set(t, x, none());
  return none();
}

Value setClear(Thread &t, Value self, const Args &args) {
  Set &s = *self.as<Set>();
  bindNone(t, "clear", args);
  if (s.table.size() == 0)
    return none();
  checkSetMutable(t, "clear", s, "clear");
  s.table.clear();
  return none();
}

Value setDifference(Thread &t, Value self, const Args &args) {
  Set *diff = cloneSet(t, *self.as<Set>());
  eachOf(t, "difference", args, [&](Value x) { diff->table.erase(t, x); });
  return Value::object(diff);
}

Value setDiscard(Thread &t, Value self, const Args &args) {
  Set &s = *self.as<Set>();
  Value x;
  bindPositional(t, "discard", args, 1, {&x});
  if (!has(t, "discard", s, x))
    return none(); // no mutation, so fine on a frozen set
  checkSetMutable(t, "discard", s, "delete from");
  s.table.erase(t, x);
  return none();
}

Value setIntersection(Thread &t, Value self, const Args &args) {
  const Set &s = *self.as<Set>();
  Set *result = t.heap.make<Set>();
  eachOf(t, "intersection", args, [&](Value x) {
    if (!s.table.get(t, x).isNull())
      result->table.set(t, x, none());
  });
  return Value::object(result);
}

Value setIssubset(Thread &t, Value self, const Args &args) {
  const Set &s = *self.as<Set>();
  Set seen; // the distinct elements of other that s holds
  eachOf(t, "issubset", args, [&](Value x) {
    if (!s.table.get(t, x).isNull())
      seen.table.set(t, x, none());
  });
  return boolean(seen.table.size() == s.table.size());
}

Value setIssuperset(Thread &t, Value self, const Args &args) {
  const Set &s = *self.as<Set>();
  bool all = true;
  eachOf(t, "issuperset", args, [&](Value x) {
    if (all && s.table.get(t, x).isNull())
      all = false;
  });
  return boolean(all);
}

Value setPop(Thread &t, Value self, const Args &args) {
  Set &s = *self.as<Set>();
  bindNone(t, "pop", args);
  int64_t i = s.table.first();
  if (i < 0)
    t.fail("pop: empty set");
  checkSetMutable(t, "pop", s, "delete from");
  Value x = s.table.entries()[i].key;
  s.table.erase(t, x);
  return x;
}

Value setRemove(Thread &t, Value self, const Args &args) {
  Set &s = *self.as<Set>();
  Value x;
  bindPositional(t, "remove", args, 1, {&x});
  checkSetMutable(t, "remove", s, "delete from");
  Value removed;
  try {
    removed = s.table.erase(t, x);
  } catch (const EvalError &e) {
    failPrefixed(t, "remove", e);
  }
  if (removed.isNull())
    t.fail("remove: missing key");
  return none();
}

Value setSymmetricDifference(Thread &t, Value self, const Args &args) {
  Set *diff = cloneSet(t, *self.as<Set>());
  // Elements are toggled against the receiver's original contents.
  const Set &s = *self.as<Set>();
  eachOf(t, "symmetric_difference", args, [&](Value x) {
    if (!s.table.get(t, x).isNull())
      diff->table.erase(t, x);
    else
      diff->table.set(t, x, none());
  });
  return Value::object(diff);
}

Value setUnion(Thread &t, Value self, const Args &args) {
  Set *result = cloneSet(t, *self.as<Set>());
  insertAll(t, "union", *result, args);
  return Value::object(result);
}

Value setUpdate(Thread &t, Value self, const Args &args) {
  insertAll(t, "update", *self.as<Set>(), args);
  return none();
}

const Method kSetMethods[] = {
    {"add", setAdd},
    {"clear", setClear},
    {"difference", setDifference},
    {"discard", setDiscard},
    {"intersection", setIntersection},
    {"issubset", setIssubset},
    {"issuperset", setIssuperset},
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
