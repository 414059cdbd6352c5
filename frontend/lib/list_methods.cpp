// Methods of list (Go's library.go list_*), with Go's error messages.
#include "frontend/lib/args.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <string>

namespace fbc::star {

namespace {

// The receiver may change: fails with "fn: cannot <verb> frozen list".
void checkListMutable(Thread &t, const char *fn, const List &l, std::string_view verb) {
  if (l.frozen() || IterationGuard::locked(l))
    t.fail(std::string(fn) + ": " + mutationError(l, verb, "list"));
}

Value listAppend(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  Value x;
  bindPositional(t, "append", args, 1, {&x});
  checkListMutable(t, "append", l, "append to");
  l.elems.push_back(x);
  return none();
}

Value listClear(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  bindNone(t, "clear", args);
  checkListMutable(t, "clear", l, "clear");
  l.elems.clear();
  return none();
}

Value listExtend(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  Value x;
  bindPositional(t, "extend", args, 1, {&x});
  wantIterable(t, "extend", "1", x);
  checkListMutable(t, "extend", l, "extend");
  if (List *src = x.as<List>()) {
    std::vector<Value> copy = src->elems; // src may be l itself
    l.elems.insert(l.elems.end(), copy.begin(), copy.end());
    return none();
  }
  forEachElement(t, x, [&](Value v) {
    l.elems.push_back(v);
    return true;
  });
  return none();
}

Value listIndex(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  Value x, start, end;
  bindPositional(t, "index", args, 1, {&x, &start, &end});
  int64_t from, to;
  std::string err;
  if (!clampedIndices(start, end, static_cast<int64_t>(l.elems.size()), from, to, err))
    t.fail("index: " + err);
  try {
    for (int64_t i = from; i < to && i < static_cast<int64_t>(l.elems.size()); ++i)
      if (equals(t, l.elems[i], x))
        return Value::small(i);
  } catch (const EvalError &e) {
    failPrefixed(t, "index", e);
  }
  t.fail("index: value not in list");
}

Value listInsert(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  Value iv, x;
  bindPositional(t, "insert", args, 2, {&iv, &x});
  int64_t index = wantInt(t, "insert", "1", iv);
  checkListMutable(t, "insert", l, "insert into");
  const int64_t n = static_cast<int64_t>(l.elems.size());
  if (index < 0)
    index += n;
  if (index >= n)
    l.elems.push_back(x);
  else
    l.elems.insert(l.elems.begin() + (index < 0 ? 0 : index), x);
  return none();
}

Value listPop(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  const int64_t n = static_cast<int64_t>(l.elems.size());
  Value iv;
  bindPositional(t, "pop", args, 0, {&iv});
  int64_t i = iv.isNull() ? n - 1 : wantInt(t, "pop", "1", iv);
  int64_t orig = i;
  if (i < 0)
    i += n;
  if (i < 0 || i >= n)
    t.fail("pop: " + outOfRange(orig, n, "list"));
  checkListMutable(t, "pop", l, "pop from");
  Value v = l.elems[i];
  l.elems.erase(l.elems.begin() + i);
  return v;
}

Value listRemove(Thread &t, Value self, const Args &args) {
  List &l = *self.as<List>();
  Value x;
  bindPositional(t, "remove", args, 1, {&x});
  checkListMutable(t, "remove", l, "remove from");
  try {
    for (size_t i = 0; i < l.elems.size(); ++i)
      if (equals(t, l.elems[i], x)) {
        l.elems.erase(l.elems.begin() + static_cast<ptrdiff_t>(i));
        return none();
      }
  } catch (const EvalError &e) {
    failPrefixed(t, "remove", e);
  }
  t.fail("remove: element not found");
}

const Method kListMethods[] = {
    {"append", listAppend}, {"clear", listClear}, {"extend", listExtend}, {"index", listIndex},
    {"insert", listInsert}, {"pop", listPop},     {"remove", listRemove},
};

} // namespace

llvm::ArrayRef<Method> listMethods() {
  return kListMethods;
}

} // namespace fbc::star
