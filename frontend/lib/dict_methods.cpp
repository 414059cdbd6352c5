// Methods of dict (Go's library.go dict_*), with Go's error messages.
#include "frontend/lib/args.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

// Go's Dict.Get/Delete/SetKey report frozen tables and unhashable keys;
// the methods prefix those errors with their name.
Value lookup(Thread &t, const char *fn, const Dict &d, Value key) {
  try {
    return d.table.get(t, key);
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

Value removeKey(Thread &t, const char *fn, Dict &d, Value key) {
  std::string err = mutationError(d, "delete from", "hash table");
  if (!err.empty())
    t.fail(std::string(fn) + ": " + err);
  try {
    return d.table.erase(t, key);
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

Value dictClear(Thread &t, Value self, const Args &args) {
  Dict &d = *self.as<Dict>();
  bindNone(t, "clear", args);
  d.checkMutable(t, "clear"); // unprefixed, as in Go
  d.table.clear();
  return none();
}

Value dictGet(Thread &t, Value self, const Args &args) {
  Value key, dflt;
  bindPositional(t, "get", args, 1, {&key, &dflt});
  Value v = lookup(t, "get", *self.as<Dict>(), key);
  if (!v.isNull())
    return v;
  return dflt.isNull() ? none() : dflt;
}

Value dictItems(Thread &t, Value self, const Args &args) {
  const Dict &d = *self.as<Dict>();
  bindNone(t, "items", args);
  std::vector<Value> items;
  items.reserve(d.table.size());
  for (const HashTable::Entry &e : d.table.entries())
    if (!e.value.isNull()) {
      Value pair[2] = {e.key, e.value};
      items.push_back(Value::object(makeTuple(t.heap, pair)));
    }
  return newList(t, std::move(items));
}

Value dictKeys(Thread &t, Value self, const Args &args) {
  const Dict &d = *self.as<Dict>();
  bindNone(t, "keys", args);
  std::vector<Value> keys;
  keys.reserve(d.table.size());
  for (const HashTable::Entry &e : d.table.entries())
    if (!e.value.isNull())
      keys.push_back(e.key);
  return newList(t, std::move(keys));
}

Value dictValues(Thread &t, Value self, const Args &args) {
  const Dict &d = *self.as<Dict>();
  bindNone(t, "values", args);
  std::vector<Value> values;
  values.reserve(d.table.size());
  for (const HashTable::Entry &e : d.table.entries())
    if (!e.value.isNull())
      values.push_back(e.value);
  return newList(t, std::move(values));
}

Value dictPop(Thread &t, Value self, const Args &args) {
  Value key, dflt;
  bindPositional(t, "pop", args, 1, {&key, &dflt});
  Value v = removeKey(t, "pop", *self.as<Dict>(), key);
  if (!v.isNull())
    return v;
  if (!dflt.isNull())
    return dflt;
  t.fail("pop: missing key");
}

Value dictPopitem(Thread &t, Value self, const Args &args) {
  Dict &d = *self.as<Dict>();
  bindNone(t, "popitem", args);
  int64_t i = d.table.first();
  if (i < 0)
    t.fail("popitem: empty dict");
  Value key = d.table.entries()[i].key;
  Value pair[2] = {key, removeKey(t, "popitem", d, key)};
  return Value::object(makeTuple(t.heap, pair));
}

Value dictSetdefault(Thread &t, Value self, const Args &args) {
  Dict &d = *self.as<Dict>();
  Value key, dflt;
  bindPositional(t, "setdefault", args, 1, {&key, &dflt});
  if (dflt.isNull())
    dflt = none();
  Value v = lookup(t, "setdefault", d, key);
  if (!v.isNull())
    return v; // no mutation, so fine on a frozen dict
  std::string err = mutationError(d, "insert into", "hash table");
  if (!err.empty())
    t.fail("setdefault: " + err);
  d.table.set(t, key, dflt);
  return dflt;
}

Value dictUpdate(Thread &t, Value self, const Args &args) {
  updateDict(t, *self.as<Dict>(), args, "update");
  return none();
}

const Method kDictMethods[] = {
    {"clear", dictClear},
    {"get", dictGet},
    {"items", dictItems},
    {"keys", dictKeys},
    {"pop", dictPop},
    {"popitem", dictPopitem},
    {"setdefault", dictSetdefault},
    {"update", dictUpdate},
    {"values", dictValues},
};

} // namespace

llvm::ArrayRef<Method> dictMethods() {
  return kDictMethods;
}

} // namespace fbc::star
