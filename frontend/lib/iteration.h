// Fast iteration over any iterable: lists, tuples, ranges and dicts are
// walked directly; anything else goes through its Iterator. Mutable
// containers are locked for the duration (IterationGuard).
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

namespace fbc::star {

// True if x can be iterated (strings cannot, in Starlark).
inline bool isIterable(Value x) {
  if (!x.isObject())
    return false;
  switch (x.kind()) {
  case Kind::List:
  case Kind::Tuple:
  case Kind::Dict:
  case Kind::Set:
  case Kind::Range:
    return true;
  default:
    return x.obj()->iterable();
  }
}

// Calls body(element) for each element until it returns false. Throws
// "T value is not iterable" for a non-iterable x.
template <class F> void forEachElement(Thread &t, Value x, F &&body) {
  if (List *l = x.as<List>()) {
    IterationGuard guard(l);
    for (size_t i = 0, n = l->elems.size(); i < n; ++i)
      if (!body(l->elems[i]))
        return;
    return;
  }
  if (Tuple *tu = x.as<Tuple>()) {
    for (Value v : tu->elems())
      if (!body(v))
        return;
    return;
  }
  if (Range *r = x.as<Range>()) {
    int64_t v = r->start;
    for (int64_t i = 0; i < r->len; ++i, v += r->step)
      if (!body(Value::fitsSmall(v) ? Value::small(v) : makeInt(t.heap, v)))
        return;
    return;
  }
  if (Dict *d = x.as<Dict>()) {
    IterationGuard guard(d);
    auto entries = d->table.entries();
    for (size_t i = 0; i < entries.size(); ++i)
      if (!entries[i].value.isNull() && !body(entries[i].key))
        return;
    return;
  }
  IterationScope scope(t, x);
  Value v;
  while (scope.next(v))
    if (!body(v))
      return;
}

} // namespace fbc::star
