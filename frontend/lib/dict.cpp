// The dict type: an insertion-ordered mapping, locked while iterated.
#include "frontend/lib/iteration.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

// Yields the keys of a dict or the elements of a set.
class KeyIterator final : public PooledIterator<KeyIterator> {
public:
  KeyIterator(Object *owner, const HashTable &table) : table_(table), guard_(owner) {}
  bool next(Value &out) override {
    llvm::ArrayRef<HashTable::Entry> entries = table_.entries();
    while (i_ < entries.size()) {
      const HashTable::Entry &e = entries[i_++];
      if (!e.value.isNull()) {
        out = e.key;
        return true;
      }
    }
    return false;
  }

private:
  const HashTable &table_;
  size_t i_ = 0;
  IterationGuard guard_; // released when done() deletes the iterator
};

} // namespace

Iterator *makeKeyIterator(Object *owner, const HashTable &table) {
  return new KeyIterator(owner, table);
}

void Dict::repr(Printer &p) const {
  p.write('{');
  if (!p.enter(this)) {
    p.write("...}"); // the dict contains itself
    return;
  }
  bool first = true;
  for (const HashTable::Entry &e : table.entries()) {
    if (e.value.isNull())
      continue;
    if (!first)
      p.write(", ");
    first = false;
    p.repr(e.key);
    p.write(": ");
    p.repr(e.value);
  }
  p.leave();
  p.write('}');
}

// Equal if they have the same keys mapped to equal values; order is ignored.
bool Dict::equals(Thread &t, const Object &other, int depth) const {
  const Dict &y = static_cast<const Dict &>(other);
  if (table.size() != y.table.size())
    return false;
  for (const HashTable::Entry &e : table.entries()) {
    if (e.value.isNull())
      continue;
    Value yv = y.table.get(t, e.key);
    if (yv.isNull() || !star::equals(t, e.value, yv, depth + 1))
      return false;
  }
  return true;
}

void Dict::freeze() {
  if (frozen_)
    return;
  frozen_ = true;
  for (const HashTable::Entry &e : table.entries()) {
    if (e.value.isNull())
      continue;
    freezeValue(e.key);
    freezeValue(e.value);
  }
}

Iterator *Dict::iterate(Thread &) {
  return makeKeyIterator(this, table);
}

Value Dict::index(Thread &t, Value key) {
  Value v = table.get(t, key);
  if (v.isNull())
    t.fail("key " + star::repr(key) + " not in dict");
  return v;
}

void Dict::setIndex(Thread &t, Value key, Value v) {
  put(t, key, v);
}

void Dict::put(Thread &t, Value key, Value v) {
  checkMutable(t, "insert into");
  table.set(t, key, v);
}

void Dict::checkMutable(Thread &t, std::string_view verb) const {
  if (frozen_ || IterationGuard::locked(*this))
    t.fail(mutationError(*this, verb, "hash table"));
}

// Go's updateDict(), with every error prefixed by the builtin's name.
void updateDict(Thread &t, Dict &d, const Args &args, std::string_view fn) {
  if (args.positional.size() > 1)
    t.fail(std::string(fn) + ": got " + std::to_string(args.positional.size()) +
           " arguments, want at most 1");
  try {
    if (args.positional.size() == 1) {
      Value updates = args.positional[0];
      if (Dict *src = updates.as<Dict>()) {
        // Index-based: `d.update(d)` only overwrites, but set() may grow
        // the table another dict's entries live in.
        for (size_t i = 0; i < src->table.entries().size(); ++i) {
          HashTable::Entry e = src->table.entries()[i];
          if (!e.value.isNull())
            d.put(t, e.key, e.value);
        }
      } else {
        if (!isIterable(updates))
          t.fail("got " + std::string(typeName(updates)) + ", want iterable");
        int64_t i = 0;
        forEachElement(t, updates, [&](Value pair) {
          if (!isIterable(pair))
            t.fail("dictionary update sequence element #" + std::to_string(i) +
                   " is not iterable (" + std::string(typeName(pair)) + ")");
          int64_t n = length(pair);
          if (n < 0)
            t.fail("dictionary update sequence element #" + std::to_string(i) +
                   " has unknown length (" + std::string(typeName(pair)) + ")");
          if (n != 2)
            t.fail("dictionary update sequence element #" + std::to_string(i) + " has length " +
                   std::to_string(n) + ", want 2");
          Value kv[2];
          int j = 0;
          forEachElement(t, pair, [&](Value x) {
            kv[j++] = x;
            return j < 2;
          });
          d.put(t, kv[0], kv[1]);
          ++i;
          return true;
        });
      }
    }
    size_t before = d.table.size();
    for (const Kwarg &kw : args.kwargs)
      d.put(t, Value::object(kw.name), kw.value);
    // Each keyword normally adds an entry; if not, look for a repeated one.
    if (d.table.size() < before + args.kwargs.size())
      for (size_t i = 0; i < args.kwargs.size(); ++i)
        for (size_t j = 0; j < i; ++j)
          if (args.kwargs[i].name->view() == args.kwargs[j].name->view())
            t.fail("duplicate keyword arg: " + star::repr(Value::object(args.kwargs[i].name)));
  } catch (const EvalError &e) {
    failPrefixed(t, fn, e);
  }
}

} // namespace fbc::star
