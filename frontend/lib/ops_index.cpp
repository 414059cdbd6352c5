// Indexing, slicing, len() and iteration of any value. Element access is
// the types' business (Object::index/setIndex); slicing is done here for
// every sliceable core type with Go's index clamping rules.
#include "frontend/lib/iteration.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

namespace fbc::star {

namespace {

// Go's AsInt32 and its messages; on success stores the value in `out`.
bool asInt32(Value v, int64_t &out, std::string &err) {
  if (!v.isInt()) {
    err = "got " + std::string(typeName(v)) + ", want int";
    return false;
  }
  if (!toInt64(v, out) || out < INT32_MIN || out > INT32_MAX) {
    err = intToString(v) + " out of range";
    return false;
  }
  return true;
}

bool isAbsent(Value v) {
  return v.isNull() || v == none();
}

// A slice bound: absent keeps `result`, a negative index counts from the end.
void sliceIndex(Thread &t, Value v, int64_t len, const char *which, int64_t &result) {
  if (isAbsent(v))
    return;
  std::string err;
  if (!asInt32(v, result, err))
    t.fail(std::string("invalid ") + which + " index: " + err);
  if (result < 0)
    result += len;
}

int64_t rangeLength(int64_t start, int64_t stop, int64_t step) {
  if (step > 0 && stop > start)
    return static_cast<int64_t>((static_cast<__int128>(stop) - 1 - start) / step + 1);
  if (step < 0 && start > stop)
    return static_cast<int64_t>((static_cast<__int128>(start) - 1 - stop) / -step + 1);
  return 0;
}

// Elements start, start+step, ... while on the same side of end as the
// direction of travel (Go's `signum(end-i) == signum(step)` loop).
template <class F> void forEachSliceIndex(int64_t start, int64_t end, int64_t step, F &&f) {
  if (step > 0)
    for (int64_t i = start; i < end; i += step)
      f(i);
  else
    for (int64_t i = start; i > end; i += step)
      f(i);
}

} // namespace

Value getIndex(Thread &t, Value x, Value i) {
  if (!x.isObject())
    t.fail("unhandled index operation " + std::string(typeName(x)) + "[" +
           std::string(typeName(i)) + "]");
  return x.obj()->index(t, i);
}

void setIndex(Thread &t, Value x, Value i, Value v) {
  if (!x.isObject())
    t.fail(std::string(typeName(x)) + " value does not support item assignment");
  x.obj()->setIndex(t, i, v);
}

namespace {

// The clamped [start, end) of x[lo:hi:step] on a sequence of length n.
std::pair<int64_t, int64_t> sliceBounds(Thread &t, Value lo, Value hi, int64_t n, int64_t step) {
  int64_t start, end;
  if (step > 0) {
    // Default [0:n]; bounds clamp to [0, n].
    start = 0;
    sliceIndex(t, lo, n, "start", start);
    start = std::clamp<int64_t>(start, 0, n);
    end = n;
    sliceIndex(t, hi, n, "end", end);
    end = std::clamp<int64_t>(end, 0, n);
    if (end < start)
      end = start;
  } else {
    // Default [n-1:-1] (which explicit indices cannot express); bounds
    // clamp to [-1, n-1].
    start = n - 1;
    sliceIndex(t, lo, n, "start", start);
    if (start >= n)
      start = n - 1;
    end = -1;
    sliceIndex(t, hi, n, "end", end);
    if (end < -1)
      end = -1;
    if (start < end)
      start = end;
  }
  return {start, end};
}

} // namespace

Value slice(Thread &t, Value x, Value lo, Value hi, Value stepValue) {
  Kind k = x.isObject() ? x.obj()->kind() : Kind::Int;
  if (k != Kind::String && k != Kind::Bytes && k != Kind::List && k != Kind::Tuple &&
      k != Kind::Range)
    t.fail("invalid slice operand " + std::string(typeName(x)));
  int64_t n = x.obj()->length();

  int64_t step = 1;
  if (!isAbsent(stepValue)) {
    std::string err;
    if (!asInt32(stepValue, step, err))
      t.fail("invalid slice step: " + err);
    if (step == 0)
      t.fail("zero is not a valid slice step");
  }

  auto [start, end] = sliceBounds(t, lo, hi, n, step);

  switch (k) {
  case Kind::String:
  case Kind::Bytes: {
    std::string_view s = k == Kind::String ? static_cast<const String *>(x.obj())->view()
                                           : static_cast<const Bytes *>(x.obj())->view();
    std::string out;
    if (step == 1)
      out.assign(s.substr(static_cast<size_t>(start), static_cast<size_t>(end - start)));
    else
      forEachSliceIndex(start, end, step, [&](int64_t i) { out.push_back(s[i]); });
    return k == Kind::String ? makeString(t.heap, out) : makeBytes(t.heap, out);
  }
  case Kind::List: {
    const auto &elems = static_cast<const List *>(x.obj())->elems;
    std::vector<Value> out;
    if (step == 1)
      out.assign(elems.begin() + start, elems.begin() + end);
    else
      forEachSliceIndex(start, end, step, [&](int64_t i) { out.push_back(elems[i]); });
    return Value::object(t.heap.make<List>(std::move(out)));
  }
  case Kind::Tuple: {
    llvm::ArrayRef<Value> elems = static_cast<const Tuple *>(x.obj())->elems();
    if (step == 1)
      return Value::object(makeTuple(t.heap, elems.slice(start, end - start)));
    std::vector<Value> out;
    forEachSliceIndex(start, end, step, [&](int64_t i) { out.push_back(elems[i]); });
    return Value::object(makeTuple(t.heap, out));
  }
  default: {
    const Range &r = *static_cast<const Range *>(x.obj());
    int64_t newStart = r.start + r.step * start;
    int64_t newStop = r.start + r.step * end;
    int64_t newStep = r.step * step;
    return Value::object(
        t.heap.make<Range>(newStart, newStop, newStep, rangeLength(newStart, newStop, newStep)));
  }
  }
}

int64_t length(Value v) {
  return v.isObject() ? v.obj()->length() : -1;
}

Iterator *iterate(Thread &t, Value x) {
  Iterator *it = x.isObject() ? x.obj()->iterate(t) : nullptr;
  if (!it)
    t.fail(std::string(typeName(x)) + " value is not iterable");
  return it;
}

std::vector<Value> toVector(Thread &t, Value iterable) {
  if (const List *l = iterable.as<List>())
    return l->elems;
  if (const Tuple *tu = iterable.as<Tuple>())
    return std::vector<Value>(tu->elems().begin(), tu->elems().end());
  std::vector<Value> out;
  if (int64_t n = length(iterable); n > 0)
    out.reserve(static_cast<size_t>(n));
  forEachElement(t, iterable, [&](Value v) {
    out.push_back(v);
    return true;
  });
  return out;
}

} // namespace fbc::star
