// Builtins that build or consume sequences: list, tuple, dict, set, range,
// enumerate, zip, reversed, any, all.
#include "frontend/lib/args.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/universe/universe_builtins.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

namespace fbc::star::builtins {

namespace {

// The elements of the optional single iterable argument of fn.
std::vector<Value> collectOptional(Thread &t, const char *fn, const Args &args) {
  Value x;
  bindPositional(t, fn, args, 0, {&x});
  std::vector<Value> elems;
  if (x.isNull())
    return elems;
  wantIterable(t, fn, "1", x);
  if (int64_t n = length(x); n > 0)
    elems.reserve(static_cast<size_t>(n));
  forEachElement(t, x, [&](Value v) {
    elems.push_back(v);
    return true;
  });
  return elems;
}

// Go's rangeLen(), in 128 bits so that no start/stop/step overflows.
int64_t rangeLength(Thread &t, int64_t start, int64_t stop, int64_t step) {
  __int128 n = 0;
  if (step > 0 && stop > start)
    n = (static_cast<__int128>(stop) - 1 - start) / step + 1;
  else if (step < 0 && start > stop)
    n = (static_cast<__int128>(start) - 1 - stop) / -static_cast<__int128>(step) + 1;
  if (n > std::numeric_limits<int64_t>::max())
    t.fail("range: too many elements");
  return static_cast<int64_t>(n);
}

} // namespace

Value all(Thread &t, Value, const Args &args) {
  // all(): true unless some element is false.
  Value x;
  bindPositional(t, "all", args, 1, {&x});
  wantIterable(t, "all", "1", x);
  bool result = true;
  forEachElement(t, x, [&](Value v) {
    result = truth(v);
    return result;
  });
  return boolean(result);
}

Value any(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "any", args, 1, {&x});
  wantIterable(t, "any", "1", x);
  bool result = false;
  forEachElement(t, x, [&](Value v) {
    result = truth(v);
    return !result;
  });
  return boolean(result);
}

Value list(Thread &t, Value, const Args &args) {
  return newList(t, collectOptional(t, "list", args));
}

Value tuple(Thread &t, Value, const Args &args) {
  if (args.positional.size() == 1 && args.kwargs.empty() && args.positional[0].is(Kind::Tuple))
    return args.positional[0]; // immutable: no copy needed
  return Value::object(makeTuple(t.heap, collectOptional(t, "tuple", args)));
}

Value set(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "set", args, 0, {&x});
  Set *s = t.heap.make<Set>();
  if (x.isNull())
    return Value::object(s);
  wantIterable(t, "set", "1", x);
  try {
    forEachElement(t, x, [&](Value v) {
      s->table.set(t, v, none());
      return true;
    });
  } catch (const EvalError &e) {
    failPrefixed(t, "set", e);
  }
  return Value::object(s);
}

Value dict(Thread &t, Value, const Args &args) {
  Dict *d = t.heap.make<Dict>();
  updateDict(t, *d, args, "dict");
  return Value::object(d);
}

Value range(Thread &t, Value, const Args &args) {
  Value a, b, c;
  bindPositional(t, "range", args, 1, {&a, &b, &c});
  int64_t start = wantInt(t, "range", "1", a), stop, step = 1;
  if (b.isNull()) {
    stop = start;
    start = 0;
  } else {
    stop = wantInt(t, "range", "2", b);
    if (!c.isNull())
      step = wantInt(t, "range", "3", c);
  }
  if (step == 0)
    t.fail("range: step argument must not be zero");
  int64_t len = rangeLength(t, start, stop, step);
  return Value::object(t.heap.make<Range>(start, stop, step, len));
}

Value enumerate(Thread &t, Value, const Args &args) {
  Value x, startValue;
  bindPositional(t, "enumerate", args, 1, {&x, &startValue});
  wantIterable(t, "enumerate", "1", x);
  int64_t start = startValue.isNull() ? 0 : wantInt(t, "enumerate", "2", startValue);
  std::vector<Value> pairs;
  if (int64_t n = length(x); n > 0)
    pairs.reserve(static_cast<size_t>(n));
  forEachElement(t, x, [&](Value v) {
    Value pair[2] = {makeInt(t.heap, start + static_cast<int64_t>(pairs.size())), v};
    pairs.push_back(Value::object(makeTuple(t.heap, pair)));
    return true;
  });
  return newList(t, std::move(pairs));
}

Value zip(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("zip does not accept keyword arguments");
  const size_t cols = args.positional.size();
  for (size_t i = 0; i < cols; ++i)
    if (!isIterable(args.positional[i]))
      t.fail("zip: argument #" + std::to_string(i + 1) +
             " is not iterable: " + std::string(typeName(args.positional[i])));
  if (cols == 0)
    return newList(t);
  // Iterators lock their containers; scopes release them on any exit.
  std::vector<std::unique_ptr<IterationScope>> iters;
  iters.reserve(cols);
  for (Value seq : args.positional)
    iters.push_back(std::make_unique<IterationScope>(t, seq));
  std::vector<Value> rows;
  std::vector<Value> row(cols);
  for (;;) {
    for (size_t j = 0; j < cols; ++j)
      if (!iters[j]->next(row[j]))
        return newList(t, std::move(rows));
    rows.push_back(Value::object(makeTuple(t.heap, row)));
  }
}

Value reversed(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "reversed", args, 1, {&x});
  wantIterable(t, "reversed", "1", x);
  std::vector<Value> elems;
  if (int64_t n = length(x); n > 0)
    elems.reserve(static_cast<size_t>(n));
  forEachElement(t, x, [&](Value v) {
    elems.push_back(v);
    return true;
  });
  std::reverse(elems.begin(), elems.end());
  return newList(t, std::move(elems));
}

} // namespace fbc::star::builtins
