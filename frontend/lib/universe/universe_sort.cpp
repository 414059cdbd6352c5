// sorted, min and max: the builtins that order values.
#include "frontend/lib/args.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/universe/universe_builtins.h"
#include "frontend/lib/universe/universe_helpers.h"

#include <algorithm>
#include <string>
#include <utility>

namespace fbc::star::builtins {

namespace {

// Go's sorted() runs sort.Stable (insertion-sorted blocks of 20, then
// SymMerge) over a Less() that records a failed comparison and carries on,
// so an ill-typed input reports the *last* failing comparison. This is that
// algorithm, comparison for comparison, so errors read as in Go. Inputs whose
// keys are all small ints or all strings cannot fail and take std::stable_sort
// (a stable sort's result does not depend on the algorithm).
class GoStableSort {
public:
  GoStableSort(Thread &t, std::vector<Value> &values, std::vector<Value> *keys, bool reverse)
      : t_(t), values_(values), keys_(keys ? *keys : values), separateKeys_(keys != nullptr),
        reverse_(reverse) {}

  void run() {
    const size_t n = values_.size();
    size_t blockSize = 20;
    size_t a = 0, b = blockSize;
    while (b <= n) {
      insertionSort(a, b);
      a = b;
      b += blockSize;
    }
    insertionSort(a, n);
    while (blockSize < n) {
      a = 0;
      b = 2 * blockSize;
      while (b <= n) {
        symMerge(a, a + blockSize, b);
        a = b;
        b += 2 * blockSize;
      }
      if (size_t m = a + blockSize; m < n)
        symMerge(a, m, n);
      blockSize *= 2;
    }
  }

  const std::string &error() const { return error_; }
  bool failed() const { return failed_; }

private:
  bool less(size_t i, size_t j) {
    if (reverse_)
      std::swap(i, j);
    Value x = keys_[i], y = keys_[j];
    if (x.isSmallInt() && y.isSmallInt())
      return x.smallInt() < y.smallInt();
    try {
      return compare(t_, CmpOp::Lt, x, y);
    } catch (const EvalError &e) {
      failed_ = true;
      error_ = e.message();
      return false;
    }
  }
  void swap(size_t i, size_t j) {
    std::swap(values_[i], values_[j]);
    if (separateKeys_)
      std::swap(keys_[i], keys_[j]);
  }
  void insertionSort(size_t a, size_t b) {
    for (size_t i = a + 1; i < b; ++i)
      for (size_t j = i; j > a && less(j, j - 1); --j)
        swap(j, j - 1);
  }
  void symMerge(size_t a, size_t m, size_t b) {
    if (m - a == 1) {
      size_t i = m, j = b;
      while (i < j) {
        size_t h = (i + j) / 2;
        if (less(h, a))
          i = h + 1;
        else
          j = h;
      }
      for (size_t k = a; k + 1 < i; ++k)
        swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      size_t i = a, j = m;
      while (i < j) {
        size_t h = (i + j) / 2;
        if (!less(m, h))
          i = h + 1;
        else
          j = h;
      }
      for (size_t k = m; k > i; --k)
        swap(k, k - 1);
      return;
    }
    size_t mid = (a + b) / 2;
    size_t n = mid + m;
    size_t start, r;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    size_t p = n - 1;
    while (start < r) {
      size_t c = (start + r) / 2;
      if (!less(p - c, c))
        start = c + 1;
      else
        r = c;
    }
    size_t end = n - start;
    if (start < m && m < end)
      rotate(start, m, end);
    if (a < start && start < mid)
      symMerge(a, start, mid);
    if (mid < end && end < b)
      symMerge(mid, end, b);
  }
  void swapRange(size_t a, size_t b, size_t n) {
    for (size_t i = 0; i < n; ++i)
      swap(a + i, b + i);
  }
  void rotate(size_t a, size_t m, size_t b) {
    size_t i = m - a, j = b - m;
    while (i != j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  }

  Thread &t_;
  std::vector<Value> &values_;
  std::vector<Value> &keys_;
  bool separateKeys_;
  bool reverse_;
  bool failed_ = false;
  std::string error_;
};

// Sorts values by keys with std::stable_sort when every key is a small int
// (or every key a string); returns false, leaving values alone, otherwise.
bool sortHomogeneous(std::vector<Value> &values, std::vector<Value> *keys, bool reverse) {
  const std::vector<Value> &k = keys ? *keys : values;
  bool ints = std::all_of(k.begin(), k.end(), [](Value v) { return v.isSmallInt(); });
  bool strings =
      !ints && std::all_of(k.begin(), k.end(), [](Value v) { return v.is(Kind::String); });
  if (!ints && !strings)
    return false;
  auto keyLess = [ints](Value a, Value b) {
    if (ints)
      return a.smallInt() < b.smallInt();
    return a.as<String>()->view() < b.as<String>()->view();
  };
  auto cmp = [&](Value a, Value b) { return reverse ? keyLess(b, a) : keyLess(a, b); };
  if (!keys) {
    std::stable_sort(values.begin(), values.end(), cmp);
    return true;
  }
  std::vector<std::pair<Value, Value>> pairs(values.size()); // (key, value)
  for (size_t i = 0; i < values.size(); ++i)
    pairs[i] = {(*keys)[i], values[i]};
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const auto &a, const auto &b) { return cmp(a.first, b.first); });
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = pairs[i].second;
  return true;
}

// min and max: Go's minmax(), with op Lt for min and Gt for max.
Value extremum(Thread &t, const char *fn, CmpOp op, const Args &args) {
  if (args.positional.empty())
    t.fail(std::string(fn) + " requires at least one positional argument");
  Value keyFn;
  bindArgs(t, fn, Args{{}, args.kwargs}, {"key?"}, {&keyFn});
  if (!keyFn.isNull())
    wantCallable(t, fn, "key", keyFn);
  Value iterable = args.positional.size() == 1 ? args.positional[0] : Value();
  if (!iterable.isNull() && !isIterable(iterable))
    t.fail(std::string(fn) + ": " + std::string(typeName(iterable)) + " value is not iterable");

  Value best, bestKey;
  auto consider = [&](Value x) {
    Value key = keyFn.isNull() ? x : call(t, keyFn, llvm::ArrayRef<Value>(x));
    if (best.isNull()) {
      best = x;
      bestKey = key;
      return true;
    }
    bool better;
    if (key.isSmallInt() && bestKey.isSmallInt()) {
      better = op == CmpOp::Lt ? key.smallInt() < bestKey.smallInt()
                               : key.smallInt() > bestKey.smallInt();
    } else {
      try {
        better = compare(t, op, key, bestKey);
      } catch (const EvalError &e) {
        failPrefixed(t, fn, e);
      }
    }
    if (better) {
      best = x;
      bestKey = key;
    }
    return true;
  };
  if (iterable.isNull())
    for (Value x : args.positional)
      consider(x);
  else
    forEachElement(t, iterable, consider);
  if (best.isNull())
    t.fail(std::string(fn) + ": argument is an empty sequence");
  return best;
}

} // namespace

Value sorted(Thread &t, Value, const Args &args) {
  Value iterable, keyFn, reverseValue;
  bindArgs(t, "sorted", args, {"iterable", "key?", "reverse?"}, {&iterable, &keyFn, &reverseValue});
  wantIterable(t, "sorted", "iterable", iterable);
  if (!keyFn.isNull())
    wantCallable(t, "sorted", "key", keyFn);
  bool reverse = !reverseValue.isNull() && wantBool(t, "sorted", "reverse", reverseValue);

  std::vector<Value> values;
  if (int64_t n = length(iterable); n > 0)
    values.reserve(static_cast<size_t>(n));
  forEachElement(t, iterable, [&](Value v) {
    values.push_back(v);
    return true;
  });
  std::vector<Value> keys;
  if (!keyFn.isNull()) {
    keys.reserve(values.size());
    for (Value v : values)
      keys.push_back(call(t, keyFn, llvm::ArrayRef<Value>(v)));
  }
  std::vector<Value> *keysPtr = keyFn.isNull() ? nullptr : &keys;
  if (!sortHomogeneous(values, keysPtr, reverse)) {
    GoStableSort sort(t, values, keysPtr, reverse);
    sort.run();
    if (sort.failed())
      t.fail(sort.error());
  }
  return newList(t, std::move(values));
}

Value min(Thread &t, Value, const Args &args) {
  return extremum(t, "min", CmpOp::Lt, args);
}

Value max(Thread &t, Value, const Args &args) {
  return extremum(t, "max", CmpOp::Gt, args);
}

} // namespace fbc::star::builtins
