// Integers: construction (inline small ints or normalised BigInts),
// conversion to and from int64/APInt/double, literal parsing, int(s, base)
// and formatting. Arithmetic lives in int_arith.cpp.
#include "frontend/lib/int_detail.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"

#include <llvm/ADT/SmallString.h>

#include <charconv>
#include <cmath>

namespace fbc::star {

using llvm::APInt;

// --- construction --------------------------------------------------------

Value makeInt(Heap &h, int64_t v) {
  if (Value::fitsSmall(v))
    return Value::small(v);
  return Value::object(h.make<BigInt>(APInt(64, static_cast<uint64_t>(v), /*isSigned=*/true)));
}

Value makeInt(Heap &h, const APInt &v) {
  unsigned bits = v.getSignificantBits();
  if (bits <= 64)
    return makeInt(h, v.getSExtValue());
  // Normalise to the minimal signed width so equal values have equal
  // representations (hashing and comparison rely on it).
  return Value::object(h.make<BigInt>(bits == v.getBitWidth() ? v : v.trunc(bits)));
}

// --- conversion ----------------------------------------------------------

bool toInt64(Value v, int64_t &out) {
  if (v.isSmallInt()) {
    out = v.smallInt();
    return true;
  }
  const BigInt *b = v.as<BigInt>();
  if (!b || b->value.getSignificantBits() > 64)
    return false;
  out = b->value.getSExtValue();
  return true;
}

APInt toAPInt(Value v) {
  if (v.isSmallInt())
    return APInt(64, static_cast<uint64_t>(v.smallInt()), /*isSigned=*/true);
  return static_cast<const BigInt *>(v.obj())->value;
}

double intToFloat(Thread &t, Value v) {
  if (v.isSmallInt())
    return static_cast<double>(v.smallInt());
  double d = intdetail::roundToDouble(static_cast<const BigInt *>(v.obj())->value);
  if (std::isinf(d))
    t.fail("int too large to convert to float");
  return d;
}

Value floatToInt(Thread &t, double f) {
  if (std::isnan(f))
    t.fail("cannot convert float NaN to integer");
  if (std::isinf(f))
    t.fail("cannot convert float infinity to integer");
  constexpr double kTwo63 = 9223372036854775808.0;
  if (f > -kTwo63 && f < kTwo63)
    return makeInt(t.heap, static_cast<int64_t>(f));
  return makeInt(t.heap, intdetail::truncToAPInt(f));
}

namespace intdetail {

int compareSigned(const APInt &a, const APInt &b) {
  if (a.getBitWidth() == b.getBitWidth())
    return a.slt(b) ? -1 : (a == b ? 0 : 1);
  unsigned w = std::max(a.getBitWidth(), b.getBitWidth());
  APInt x = widen(a, w), y = widen(b, w);
  return x.slt(y) ? -1 : (x == y ? 0 : 1);
}

double roundToDouble(const APInt &a) {
  if (a.getSignificantBits() <= 64)
    return static_cast<double>(a.getSExtValue());
  // Work on the magnitude (one extra bit so that negating the most
  // negative value of the width cannot overflow).
  bool negative = a.isNegative();
  APInt mag = a.sext(a.getBitWidth() + 1);
  if (negative)
    mag.negate();
  unsigned n = mag.getActiveBits();
  unsigned shift = n - 64;
  uint64_t top = mag.lshr(shift).getZExtValue();
  // A sticky bit for everything shifted out makes the single hardware
  // rounding of `top` (64 -> 53 bits) round the full value correctly.
  if (mag.countTrailingZeros() < shift)
    top |= 1;
  double d = std::ldexp(static_cast<double>(top), static_cast<int>(shift));
  return negative ? -d : d;
}

APInt truncToAPInt(double f) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (f > -kTwo63 && f < kTwo63)
    return APInt(64, static_cast<uint64_t>(static_cast<int64_t>(f)), /*isSigned=*/true);
  // |f| >= 2^63, so f is an integer: mantissa * 2^(exp-53), exactly.
  int exp = 0;
  double m = std::frexp(f, &exp);
  int64_t mantissa = static_cast<int64_t>(std::ldexp(m, 53));
  APInt r(static_cast<unsigned>(exp) + 2, static_cast<uint64_t>(mantissa), /*isSigned=*/true);
  return r.shl(static_cast<unsigned>(exp - 53));
}

uint32_t hashAPInt(const APInt &a) {
  unsigned bits = a.getSignificantBits();
  if (bits <= 64)
    return hashInt64(a.getSExtValue());
  // Hash the minimal-width representation so that the result does not
  // depend on the width the value happens to be stored in.
  APInt m = bits == a.getBitWidth() ? a : a.trunc(bits);
  uint32_t h = bits;
  for (unsigned i = 0, n = m.getNumWords(); i < n; ++i)
    h = h * 1000003u ^ hashInt64(static_cast<int64_t>(m.getRawData()[i]));
  return h;
}

} // namespace intdetail

// --- parsing -------------------------------------------------------------

namespace {

int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

// Parses a non-empty run of digits in `base` (no sign, prefix or
// underscores). Returns null if a character is not a digit of the base.
Value parseDigits(Heap &h, std::string_view digits, unsigned base, bool negative) {
  if (digits.empty())
    return Value();
  // Fast path: accumulate in 64 bits until it would overflow.
  uint64_t acc = 0;
  size_t i = 0;
  for (; i < digits.size(); ++i) {
    int d = digitValue(digits[i]);
    if (d >= static_cast<int>(base))
      return Value();
    uint64_t next;
    if (__builtin_mul_overflow(acc, base, &next) || __builtin_add_overflow(next, d, &next))
      break;
    acc = next;
  }
  if (i == digits.size() && acc <= static_cast<uint64_t>(INT64_MAX))
    return makeInt(h, negative ? -static_cast<int64_t>(acc) : static_cast<int64_t>(acc));

  // Arbitrary precision: enough bits for every digit plus a sign bit, and
  // the digits consumed in chunks that fit a uint64.
  unsigned bitsPerDigit = 1;
  while ((1u << bitsPerDigit) < base)
    ++bitsPerDigit;
  APInt r(static_cast<unsigned>(digits.size()) * bitsPerDigit + 2, 0);
  for (size_t j = 0; j < digits.size();) {
    uint64_t chunk = 0, scale = 1;
    for (; j < digits.size() && scale <= UINT64_MAX / base / base; ++j) {
      int d = digitValue(digits[j]);
      if (d >= static_cast<int>(base))
        return Value();
      chunk = chunk * base + d;
      scale *= base;
    }
    r *= scale;
    r += chunk;
  }
  if (negative)
    r.negate();
  return makeInt(h, r);
}

} // namespace

Value parseIntLiteral(Heap &h, std::string_view text) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0') {
    switch (text[1]) {
    case 'x':
    case 'X':
      base = 16;
      break;
    case 'o':
    case 'O':
      base = 8;
      break;
    case 'b':
    case 'B':
      base = 2;
      break;
    default:
      break;
    }
    if (base != 10)
      text.remove_prefix(2);
  }
  return parseDigits(h, text, base, false);
}

// Go's int(s, base) acceptance rules (library.go int_), including its
// quirks: the base named in the error is the one in effect when parsing
// gave up, and a prefix is stripped only when it agrees with the base.
Value parseInt(Thread &t, std::string_view s, int base) {
  if (base != 0 && (base < 2 || base > 36))
    t.fail("int: base must be an integer >= 2 && <= 36");
  const std::string_view orig = s;
  auto invalid = [&](int b) -> Value {
    t.fail("int: invalid literal with base " + std::to_string(b) + ": " + std::string(orig));
  };

  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }

  int prefixBase = 0;
  if (s.size() > 1 && s[0] == '0') {
    if (s.size() > 2) {
      switch (s[1]) {
      case 'o':
      case 'O':
        prefixBase = 8;
        break;
      case 'x':
      case 'X':
        prefixBase = 16;
        break;
      case 'b':
      case 'B':
        prefixBase = 2;
        break;
      default:
        break;
      }
    }
    // A prefix counts only with base 0 or its own base (the recent Go rule,
    // go.starlark.net issue 337: int("0b0", 16) == 0xb0); otherwise its
    // letter is just another digit, or an invalid one.
    if (prefixBase != 0 && (base == 0 || base == prefixBase)) {
      s.remove_prefix(2);
    } else {
      prefixBase = 0;
      // With automatic base detection a leading zero means all zeros
      // (int("0755", 0) is rejected, as in Python 3).
      if (base == 0) {
        for (size_t i = 1; i < s.size(); ++i)
          if (s[i] != '0')
            return invalid(base);
        return Value::small(0);
      }
    }
  }

  if (base == 0)
    base = prefixBase ? prefixBase : 10;
  if (!s.empty() && (s[0] == '+' || s[0] == '-'))
    return invalid(base);
  Value v = parseDigits(t.heap, s, static_cast<unsigned>(base), negative);
  if (!v)
    return invalid(base);
  return v;
}

// --- formatting ----------------------------------------------------------

std::string intToString(Value v, unsigned radix) {
  if (v.isSmallInt()) {
    char buf[72];
    auto r = std::to_chars(buf, buf + sizeof buf, v.smallInt(), static_cast<int>(radix));
    return std::string(buf, r.ptr);
  }
  llvm::SmallString<64> s;
  static_cast<const BigInt *>(v.obj())->value.toString(s, radix, /*Signed=*/true);
  std::string out(s.str());
  for (char &c : out) // APInt prints hex digits in upper case; Go does not.
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// --- BigInt object -------------------------------------------------------

void BigInt::repr(Printer &p) const {
  p.write(intToString(Value::object(this)));
}

uint32_t BigInt::hash(Thread &) const {
  return intdetail::hashAPInt(value);
}

} // namespace fbc::star
