#include "frontend/lib/universe/universe_helpers.h"

#include "frontend/lib/numeric.h"
#include "frontend/lib/ops.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace fbc::star {

bool asInt32(Value v, int64_t &out, std::string &err) {
  if (v.isSmallInt()) {
    int64_t i = v.smallInt();
    if (i >= std::numeric_limits<int32_t>::min() && i <= std::numeric_limits<int32_t>::max()) {
      out = i;
      return true;
    }
  } else if (!v.is(Kind::Int)) {
    err = "got " + std::string(typeName(v)) + ", want int";
    return false;
  }
  err = intToString(v) + " out of range";
  return false;
}

std::string outOfRange(int64_t i, int64_t n, std::string_view type) {
  if (n == 0)
    return "index " + std::to_string(i) + " out of range: empty " + std::string(type);
  return std::string(type) + " index " + std::to_string(i) + " out of range [" +
         std::to_string(-n) + ":" + std::to_string(n - 1) + "]";
}

int64_t sequenceIndex(Thread &t, std::string_view type, Value key, int64_t n) {
  int64_t i;
  if (key.isSmallInt()) {
    i = key.smallInt();
    if (i >= 0 && i < n) // the common case
      return i;
  }
  std::string err;
  if (!asInt32(key, i, err))
    t.fail(std::string(type) + " index: " + err);
  int64_t orig = i;
  if (i < 0)
    i += n;
  if (i < 0 || i >= n)
    t.fail(outOfRange(orig, n, type));
  return i;
}

// Go's asIndex(): absent bounds leave `result` alone; negative ones count
// from the end.
static bool asIndex(Value v, int64_t len, int64_t &result, std::string &err) {
  if (v.isNull() || v.is(Kind::None))
    return true;
  if (!asInt32(v, result, err))
    return false;
  if (result < 0)
    result += len;
  return true;
}

static int64_t clamp(int64_t x, int64_t len) {
  return x < 0 ? 0 : x > len ? len : x;
}

bool clampedIndices(Value start, Value end, int64_t len, int64_t &from, int64_t &to,
                    std::string &err) {
  from = 0;
  if (!asIndex(start, len, from, err)) {
    err = "invalid start index: " + err;
    return false;
  }
  from = clamp(from, len);
  to = len;
  if (!asIndex(end, len, to, err)) {
    err = "invalid end index: " + err;
    return false;
  }
  to = clamp(to, len);
  return true;
}

std::string mutationError(const Object &o, std::string_view verb, std::string_view what) {
  if (o.frozen())
    return "cannot " + std::string(verb) + " frozen " + std::string(what);
  if (IterationGuard::locked(o))
    return "cannot " + std::string(verb) + " " + std::string(what) + " during iteration";
  return {};
}

// Orders two elements already known to differ. Returns 2 when neither is
// less than the other (e.g. sets that are not subsets of each other), the
// same "unordered" convention numericCompare() uses.
static int orderUnequal(Thread &t, Value a, Value b, int depth) {
  if (a.isSmallInt() && b.isSmallInt())
    return a.smallInt() < b.smallInt() ? -1 : 1;
  if (compare(t, CmpOp::Lt, a, b, depth))
    return -1;
  return compare(t, CmpOp::Gt, a, b, depth) ? 1 : 2;
}

int compareSequences(Thread &t, llvm::ArrayRef<Value> x, llvm::ArrayRef<Value> y, int depth) {
  size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i)
    if (!equals(t, x[i], y[i], depth + 1))
      return orderUnequal(t, x[i], y[i], depth + 1);
  return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
}

bool equalSequences(Thread &t, llvm::ArrayRef<Value> x, llvm::ArrayRef<Value> y, int depth) {
  if (x.size() != y.size())
    return false;
  for (size_t i = 0, n = x.size(); i < n; ++i)
    if (x[i] != y[i] || !x[i].isSmallInt()) // identical small ints are equal
      if (!equals(t, x[i], y[i], depth + 1))
        return false;
  return true;
}

Heap &staticHeap() {
  static Heap *heap = new Heap; // leaked on purpose: lives as long as the process
  return *heap;
}

void failPrefixed(Thread &t, std::string_view fn, const std::exception &e) {
  t.fail(std::string(fn) + ": " + e.what());
}

} // namespace fbc::star
