// The set type: an insertion-ordered hash set, locked while iterated.
#include "frontend/eval/objects.h"
#include "frontend/eval/ops.h"
#include "frontend/eval/printer.h"
#include "frontend/lib/universe_helpers.h"

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

} // namespace fbc::star
