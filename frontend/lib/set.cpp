// The set type: an insertion-ordered hash set, locked while iterated.
#include "frontend/lib/iteration.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/set_algebra.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <vector>

namespace fbc::star {

void Set::repr(Printer &p) const {
  p.write("set([");
  bool first = true;
  for (const HashTable::Entry &e : table.entries()) {
    if (e.value.isNull())
      continue;
    if (!first)
      p.write(", ");
    first = false;
    p.repr(e.key);
  }
  p.write("])");
}

static bool containsAll(Thread &t, const HashTable &big, const HashTable &small) {
  for (const HashTable::Entry &e : small.entries())
    if (!e.value.isNull() && big.get(t, e.key).isNull())
      return false;
  return true;
}

bool Set::equals(Thread &t, const Object &other, int) const {
  const Set &y = static_cast<const Set &>(other);
  return table.size() == y.table.size() && containsAll(t, y.table, table);
}

void Set::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (const HashTable::Entry &e : table.entries())
    if (!e.value.isNull())
      freezeValue(e.key);
}

Iterator *Set::iterate(Thread &) {
  return makeKeyIterator(this, table);
}

void Set::insert(Thread &t, Value key) {
  checkMutable(t, "insert into");
  table.set(t, key, none());
}

void Set::checkMutable(Thread &t, std::string_view verb) const {
  if (frozen_ || IterationGuard::locked(*this))
    t.fail(mutationError(*this, verb, "hash table"));
}

// --- algebra ---------------------------------------------------------------

Set *copySet(Thread &t, const Set &x) {
  Set *r = t.heap.make<Set>();
  r->table.assign(t, x.table);
  return r;
}

bool setHas(Thread &t, const Set &x, Value key) {
  return !x.table.get(t, key).isNull();
}

Set *setOf(Thread &t, Value iterable) {
  if (Set *s = iterable.as<Set>())
    return s;
  Set *r = t.heap.make<Set>();
  forEachElement(t, iterable, [&](Value x) {
    r->table.set(t, x, none());
    return true;
  });
  return r;
}

static std::vector<Value> liveKeys(const HashTable &table) {
  std::vector<Value> keys;
  keys.reserve(table.size());
  for (const HashTable::Entry &e : table.entries())
    if (!e.value.isNull())
      keys.push_back(e.key);
  return keys;
}

void addAll(Thread &t, Set &r, const Set &y) {
  for (Value k : liveKeys(y.table))
    r.table.set(t, k, none());
}

void keepOnly(Thread &t, Set &r, const Set &y) {
  for (Value k : liveKeys(r.table))
    if (!setHas(t, y, k))
      r.table.erase(t, k);
}

void removeAll(Thread &t, Set &r, const Set &y) {
  for (Value k : liveKeys(y.table))
    r.table.erase(t, k);
}

void toggleAll(Thread &t, Set &r, const Set &y) {
  for (Value k : liveKeys(y.table)) {
    if (r.table.erase(t, k).isNull())
      r.table.set(t, k, none());
  }
}

Value setBinary(Thread &t, BinOp op, const Set &x, const Set &y) {
  Set *r = copySet(t, x);
  switch (op) {
  case BinOp::BitOr:
    addAll(t, *r, y);
    break;
  case BinOp::BitAnd:
    keepOnly(t, *r, y);
    break;
  case BinOp::BitXor:
    toggleAll(t, *r, y);
    break;
  case BinOp::Sub:
    removeAll(t, *r, y);
    break;
  default:
    return Value();
  }
  return Value::object(r);
}

static bool isSubset(Thread &t, const Set &x, const Set &y) {
  if (x.table.size() > y.table.size())
    return false;
  for (const HashTable::Entry &e : x.table.entries())
    if (!e.value.isNull() && !setHas(t, y, e.key))
      return false;
  return true;
}

bool setCompare(Thread &t, CmpOp op, const Set &x, const Set &y) {
  switch (op) {
  case CmpOp::Lt:
    return x.table.size() < y.table.size() && isSubset(t, x, y);
  case CmpOp::Le:
    return isSubset(t, x, y);
  case CmpOp::Gt:
    return y.table.size() < x.table.size() && isSubset(t, y, x);
  case CmpOp::Ge:
    return isSubset(t, y, x);
  case CmpOp::Eq: // equals() and compare() answer these
  case CmpOp::Ne:
    break;
  }
  return false;
}

} // namespace fbc::star
