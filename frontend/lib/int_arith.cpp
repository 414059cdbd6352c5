// Arithmetic, ordering and hashing of numbers: int (inline or BigInt) and
// float operands in any mix, with Go Starlark's semantics: floored // and %,
// true division /, exact int/float comparison, NaN ordered above +inf.
#include "frontend/lib/int_detail.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <cmath>
#include <cstring>

namespace fbc::star {

using llvm::APInt;
using namespace intdetail;

namespace {

constexpr double kTwo63 = 9223372036854775808.0;

double floatOf(Value v) {
  return static_cast<const Float *>(v.obj())->value;
}
bool isFloat(Value v) {
  return v.isObject() && v.obj()->kind() == Kind::Float;
}

// --- shifts ----------------------------------------------------------------

// The shift count as Go's AsInt32 checks it, then the range checks.
int64_t shiftCount(Thread &t, BinOp op, Value y) {
  if (!y.isInt())
    t.fail("got " + std::string(typeName(y)) + ", want int");
  int64_t n;
  if (!toInt64(y, n) || n < INT32_MIN || n > INT32_MAX)
    t.fail(intToString(y) + " out of range");
  if (n < 0)
    t.fail("negative shift count: " + std::to_string(n));
  if (op == BinOp::Shl && n >= 512)
    t.fail("shift count too large: " + std::to_string(n));
  return n;
}

Value shift(Thread &t, BinOp op, Value x, Value y) {
  int64_t n = shiftCount(t, op, y);
  if (x.isSmallInt()) {
    int64_t a = x.smallInt();
    if (op == BinOp::Shr)
      return Value::small(n >= 63 ? (a < 0 ? -1 : 0) : a >> n);
    if (n < 64) {
      __int128 r = static_cast<__int128>(a) << n;
      if (r >= INT64_MIN && r <= INT64_MAX)
        return makeInt(t.heap, static_cast<int64_t>(r));
    }
  }
  APInt a = toAPInt(x);
  unsigned w = a.getBitWidth();
  if (op == BinOp::Shr)
    return makeInt(t.heap, a.ashr(static_cast<unsigned>(std::min<int64_t>(n, w - 1))));
  return makeInt(t.heap, a.sext(w + static_cast<unsigned>(n)).shl(static_cast<unsigned>(n)));
}

// --- int op int -------------------------------------------------------------

Value floatDivide(Thread &t, double x, double y) {
  if (y == 0.0)
    t.fail("floating-point division by zero");
  return makeFloat(t.heap, x / y);
}

Value smallBinary(Thread &t, BinOp op, int64_t a, int64_t b) {
  // Inline ints have 62 bits, so sums and differences cannot overflow.
  switch (op) {
  case BinOp::Add:
    return makeInt(t.heap, a + b);
  case BinOp::Sub:
    return makeInt(t.heap, a - b);
  case BinOp::Mul: {
    int64_t r;
    if (!__builtin_mul_overflow(a, b, &r))
      return makeInt(t.heap, r);
    APInt x(128, static_cast<uint64_t>(a), true), y(128, static_cast<uint64_t>(b), true);
    return makeInt(t.heap, x * y);
  }
  case BinOp::Div:
    return floatDivide(t, static_cast<double>(a), static_cast<double>(b));
  case BinOp::FloorDiv: {
    if (b == 0)
      t.fail("floored division by zero");
    int64_t q = a / b; // kMinSmall / -1 still fits int64
    if (a % b != 0 && (a < 0) != (b < 0))
      --q;
    return makeInt(t.heap, q);
  }
  case BinOp::Mod: {
    if (b == 0)
      t.fail("integer modulo by zero");
    int64_t r = a % b;
    if (r != 0 && (a < 0) != (b < 0))
      r += b;
    return Value::small(r);
  }
  case BinOp::BitAnd:
    return Value::small(a & b);
  case BinOp::BitOr:
    return Value::small(a | b);
  case BinOp::BitXor:
    return Value::small(a ^ b);
  default:
    return Value();
  }
}

// Both operands ints, at least one a BigInt.
Value bigBinary(Thread &t, BinOp op, Value x, Value y) {
  APInt a = toAPInt(x), b = toAPInt(y);
  unsigned w = std::max(a.getBitWidth(), b.getBitWidth());
  switch (op) {
  case BinOp::Add:
    return makeInt(t.heap, widen(a, w + 1) + widen(b, w + 1));
  case BinOp::Sub:
    return makeInt(t.heap, widen(a, w + 1) - widen(b, w + 1));
  case BinOp::Mul: {
    unsigned mw = a.getBitWidth() + b.getBitWidth();
    return makeInt(t.heap, widen(a, mw) * widen(b, mw));
  }
  case BinOp::Div:
    return floatDivide(t, intToFloat(t, x), intToFloat(t, y));
  case BinOp::FloorDiv:
  case BinOp::Mod: {
    if (b.isZero())
      t.fail(op == BinOp::FloorDiv ? "floored division by zero" : "integer modulo by zero");
    // One spare bit: the quotient of the most negative value by -1.
    APInt p = widen(a, w + 1), q = widen(b, w + 1), quo, rem;
    APInt::sdivrem(p, q, quo, rem);
    bool adjust = !rem.isZero() && p.isNegative() != q.isNegative();
    if (op == BinOp::FloorDiv)
      return makeInt(t.heap, adjust ? quo - 1 : quo);
    return makeInt(t.heap, adjust ? rem + q : rem);
  }
  case BinOp::BitAnd:
    return makeInt(t.heap, widen(a, w) & widen(b, w));
  case BinOp::BitOr:
    return makeInt(t.heap, widen(a, w) | widen(b, w));
  case BinOp::BitXor:
    return makeInt(t.heap, widen(a, w) ^ widen(b, w));
  default:
    return Value();
  }
}

// --- with a float operand ---------------------------------------------------

// Go's Float.Mod: the result takes the sign of the divisor.
double floatMod(double x, double y) {
  double z = std::fmod(x, y);
  if ((x < 0) != (y < 0) && z != 0)
    z += y;
  return z;
}

// At least one operand is a float, the other an int or float. Ints are
// converted first ("int too large to convert to float"), then zero divisors
// are reported.
Value floatBinary(Thread &t, BinOp op, Value x, Value y) {
  switch (op) {
  case BinOp::Add:
  case BinOp::Sub:
  case BinOp::Mul:
  case BinOp::Div:
  case BinOp::FloorDiv:
  case BinOp::Mod:
    break;
  default:
    return Value();
  }
  double a = x.isInt() ? intToFloat(t, x) : floatOf(x);
  double b = y.isInt() ? intToFloat(t, y) : floatOf(y);
  switch (op) {
  case BinOp::Add:
    return makeFloat(t.heap, a + b);
  case BinOp::Sub:
    return makeFloat(t.heap, a - b);
  case BinOp::Mul:
    return makeFloat(t.heap, a * b);
  case BinOp::Div:
    return floatDivide(t, a, b);
  case BinOp::FloorDiv:
    if (b == 0.0)
      t.fail("floored division by zero");
    return makeFloat(t.heap, std::floor(a / b));
  default: // Mod
    if (b == 0.0)
      t.fail("floating-point modulo by zero");
    return makeFloat(t.heap, floatMod(a, b));
  }
}

// --- comparison -------------------------------------------------------------

int sign(int64_t d) {
  return (d > 0) - (d < 0);
}

// Floats are totally ordered, with every NaN equal and above +inf.
int floatCompare(double a, double b) {
  if (a > b)
    return 1;
  if (a < b)
    return -1;
  if (a == b)
    return 0;
  bool aNaN = std::isnan(a), bNaN = std::isnan(b);
  return aNaN == bNaN ? 0 : (aNaN ? 1 : -1);
}

// An int against a float, exactly (no rounding of the int).
int intFloatCompare(Value i, double f) {
  if (std::isnan(f))
    return -1;
  if (std::isinf(f))
    return f > 0 ? -1 : 1;
  double whole = std::trunc(f);
  int c;
  if (i.isSmallInt()) {
    if (f >= kTwo63)
      return -1;
    if (f < -kTwo63)
      return 1;
    c = sign(i.smallInt() - static_cast<int64_t>(whole));
  } else {
    c = compareSigned(static_cast<const BigInt *>(i.obj())->value, truncToAPInt(f));
  }
  if (c != 0)
    return c;
  // Equal integer parts: the fraction decides.
  return f > whole ? -1 : (f < whole ? 1 : 0);
}

} // namespace

Value numericBinary(Thread &t, BinOp op, Value x, Value y) {
  if (x.isSmallInt() && y.isSmallInt() && op != BinOp::Shl && op != BinOp::Shr)
    return smallBinary(t, op, x.smallInt(), y.smallInt());
  bool xInt = x.isInt(), yInt = y.isInt();
  if (op == BinOp::Shl || op == BinOp::Shr)
    return xInt ? shift(t, op, x, y) : Value();
  if (xInt && yInt)
    return bigBinary(t, op, x, y);
  if ((xInt || isFloat(x)) && (yInt || isFloat(y)))
    return floatBinary(t, op, x, y);
  return Value();
}

int numericCompare(Value x, Value y) {
  if (x.isSmallInt() && y.isSmallInt())
    return sign(x.smallInt() - y.smallInt());
  bool xInt = x.isInt(), yInt = y.isInt();
  if (xInt && yInt) {
    // A BigInt lies outside the inline range, so against an inline int
    // its sign decides.
    if (x.isSmallInt())
      return static_cast<const BigInt *>(y.obj())->value.isNegative() ? 1 : -1;
    if (y.isSmallInt())
      return static_cast<const BigInt *>(x.obj())->value.isNegative() ? -1 : 1;
    return compareSigned(static_cast<const BigInt *>(x.obj())->value,
                         static_cast<const BigInt *>(y.obj())->value);
  }
  if (xInt)
    return intFloatCompare(x, floatOf(y));
  if (yInt)
    return -intFloatCompare(y, floatOf(x));
  return floatCompare(floatOf(x), floatOf(y));
}

uint32_t numericHash(Value v) {
  if (v.isSmallInt())
    return hashInt64(v.smallInt());
  if (v.obj()->kind() == Kind::Int)
    return hashAPInt(static_cast<const BigInt *>(v.obj())->value);
  double f = floatOf(v);
  if (std::isnan(f))
    return 1618033;
  if (std::isinf(f))
    return f > 0 ? 1618034 : 1618035;
  double whole = std::trunc(f);
  if (whole == f) // integral: hash as the equal int
    return std::fabs(f) < kTwo63 ? hashInt64(static_cast<int64_t>(f)) : hashAPInt(truncToAPInt(f));
  uint64_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return hashInt64(static_cast<int64_t>(bits ^ 0x5bd1e9955bd1e995ull));
}

} // namespace fbc::star
