// Identity-level operations on any value: type(), truth, hashing, equality
// and ordering. Inline ints and strings are handled before any virtual call
// because dict lookups and comparisons in loops go through here.
#include "frontend/lib/ops.h"

#include "frontend/lib/int_detail.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/set_algebra.h"

namespace fbc::star {

namespace {

// Go's maxdepth: comparisons of values nested deeper than this fail, which
// is how cyclic structures are caught. `depth` counts up from 0 at the
// outermost comparison; containers pass depth + 1 for their elements.
constexpr int kMaxCompareDepth = 10;

bool isNumber(Kind k) {
  return k == Kind::Int || k == Kind::Float;
}

// Kinds whose values are equal to themselves without looking inside:
// identity implies equality (even for NaN, which Go's == treats as equal).
// Containers are excluded because comparing a cyclic one must fail.
bool identityImpliesEqual(Kind k) {
  switch (k) {
  case Kind::None:
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float:
  case Kind::String:
  case Kind::Bytes:
  case Kind::Range:
  case Kind::Function:
  case Kind::Builtin:
  case Kind::Module:
    return true;
  default:
    return false;
  }
}

// Kinds with == but no ordering; Go reports "T < T not implemented" with
// the operator actually used.
bool isUnordered(Kind k) {
  switch (k) {
  case Kind::None:
  case Kind::Dict:
  case Kind::Set:
  case Kind::Range:
  case Kind::Function:
  case Kind::Builtin:
  case Kind::Module:
  case Kind::Struct:
    return true;
  default:
    return false;
  }
}

[[noreturn]] void failDepth(Thread &t) {
  t.fail("comparison exceeded maximum recursion depth");
}

[[noreturn]] void failUnordered(Thread &t, CmpOp op, Value x, Value y) {
  t.fail(std::string(typeName(x)) + " " + cmpOpSpelling(op) + " " + std::string(typeName(y)) +
         " not implemented");
}

int threeWay(int64_t a, int64_t b) {
  return (a > b) - (a < b);
}

bool applyOp(CmpOp op, int c) {
  switch (op) {
  case CmpOp::Eq:
    return c == 0;
  case CmpOp::Ne:
    return c != 0;
  case CmpOp::Lt:
    return c < 0;
  case CmpOp::Le:
    return c <= 0;
  case CmpOp::Gt:
    return c > 0;
  case CmpOp::Ge:
    return c >= 0;
  }
  return false;
}

// Three-way ordering of x and y; `op` only names the operator in errors.
int orderOf(Thread &t, CmpOp op, Value x, Value y, int depth) {
  Kind kx = x.kind(), ky = y.kind();
  if (kx != ky) {
    if (isNumber(kx) && isNumber(ky))
      return numericCompare(x, y);
    failUnordered(t, op, x, y);
  }
  switch (kx) {
  case Kind::Int:
  case Kind::Float:
    return numericCompare(x, y);
  case Kind::String: {
    int c = static_cast<const String *>(x.obj())->view().compare(
        static_cast<const String *>(y.obj())->view());
    return (c > 0) - (c < 0);
  }
  case Kind::Host:
    if (x.obj()->typeName() != y.obj()->typeName())
      failUnordered(t, op, x, y);
    break;
  default:
    if (isUnordered(kx))
      failUnordered(t, op, x, y);
    break;
  }
  int c = x.obj()->compare(t, *y.obj(), depth);
  return (c > 0) - (c < 0);
}

} // namespace

std::string_view typeName(Value v) {
  return v.isSmallInt() ? "int" : v.obj()->typeName();
}

bool truth(Value v) {
  if (v.isSmallInt())
    return v.smallInt() != 0;
  Object *o = v.obj();
  switch (o->kind()) {
  case Kind::Bool:
    return static_cast<const Bool *>(o)->value;
  case Kind::None:
    return false;
  default:
    return o->truth();
  }
}

uint32_t hashValue(Thread &t, Value v) {
  if (v.isSmallInt())
    return intdetail::hashInt64(v.smallInt());
  Object *o = v.obj();
  switch (o->kind()) {
  case Kind::String:
    return static_cast<String *>(o)->String::hash(t); // no virtual dispatch
  case Kind::Int:
  case Kind::Float:
    return numericHash(v);
  default:
    return o->hash(t);
  }
}

bool equals(Thread &t, Value x, Value y, int depth) {
  // Go checks the depth before anything else, even for two ints.
  if (depth >= kMaxCompareDepth)
    failDepth(t);
  if (x.isSmallInt() && y.isSmallInt())
    return x == y;
  Kind kx = x.kind();
  if (x == y && identityImpliesEqual(kx))
    return true;
  Kind ky = y.kind();
  if (kx != ky)
    return isNumber(kx) && isNumber(ky) && numericCompare(x, y) == 0;
  switch (kx) {
  case Kind::Int:
  case Kind::Float:
    return numericCompare(x, y) == 0;
  case Kind::String:
    return static_cast<const String *>(x.obj())->view() ==
           static_cast<const String *>(y.obj())->view();
  case Kind::Host:
    // Different host types never compare equal (Go: different Type()).
    if (x.obj()->typeName() != y.obj()->typeName())
      return false;
    break;
  default:
    break;
  }
  return x.obj()->equals(t, *y.obj(), depth);
}

bool compare(Thread &t, CmpOp op, Value x, Value y, int depth) {
  if (depth >= kMaxCompareDepth)
    failDepth(t);
  if (x.isSmallInt() && y.isSmallInt())
    return applyOp(op, threeWay(x.smallInt(), y.smallInt()));
  if (op == CmpOp::Eq)
    return equals(t, x, y, depth);
  if (op == CmpOp::Ne)
    return !equals(t, x, y, depth);
  // Sets are ordered by inclusion, which is not a total order.
  if (x.kind() == Kind::Set && y.kind() == Kind::Set)
    return setCompare(t, op, *static_cast<const Set *>(x.obj()),
                      *static_cast<const Set *>(y.obj()));
  return applyOp(op, orderOf(t, op, x, y, depth));
}

int order(Thread &t, Value x, Value y) {
  if (x.isSmallInt() && y.isSmallInt())
    return threeWay(x.smallInt(), y.smallInt());
  return orderOf(t, CmpOp::Lt, x, y, 0);
}

} // namespace fbc::star
