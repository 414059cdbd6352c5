// Builtins converting to and from numbers and code points: int, float,
// abs, chr, ord, bytes.
#include "frontend/lib/args.h"
#include "frontend/lib/iteration.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/universe/universe_builtins.h"
#include "frontend/lib/universe/universe_helpers.h"
#include "frontend/lib/utf8.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace fbc::star::builtins {

namespace {

bool equalFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z')
      x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z')
      y = static_cast<char>(y - 'A' + 'a');
    if (x != y)
      return false;
  }
  return true;
}

bool isDigitIn(char c, bool hex) {
  return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

// The syntax Go's strconv.ParseFloat accepts (apart from inf/nan, handled
// by the caller): [sign] digits [. digits] [e [sign] digits], or a hex
// mantissa with a mandatory p exponent. strtod is more lenient (leading
// spaces, "nan(...)", hex without exponent), so the text is checked first.
bool isFloatSyntax(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    ++i;
  bool hex = s.size() - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
  if (hex)
    i += 2;
  size_t digits = 0;
  while (i < s.size() && isDigitIn(s[i], hex))
    ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && isDigitIn(s[i], hex))
      ++i, ++digits;
  }
  if (digits == 0)
    return false;
  char expMark = hex ? 'p' : 'e';
  if (i < s.size() && (s[i] == expMark || s[i] == expMark - 'a' + 'A')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    size_t expDigits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i, ++expDigits;
    if (expDigits == 0)
      return false;
  } else if (hex) {
    return false;
  }
  return i == s.size();
}

Value parseFloat(Thread &t, std::string_view s) {
  if (s.empty())
    t.fail("float: empty string");
  const double inf = std::numeric_limits<double>::infinity();
  switch (s.back()) {
  case 'y':
  case 'Y':
    if (equalFold(s, "infinity") || equalFold(s, "+infinity"))
      return makeFloat(t.heap, inf);
    if (equalFold(s, "-infinity"))
      return makeFloat(t.heap, -inf);
    break;
  case 'f':
  case 'F':
    if (equalFold(s, "inf") || equalFold(s, "+inf"))
      return makeFloat(t.heap, inf);
    if (equalFold(s, "-inf"))
      return makeFloat(t.heap, -inf);
    break;
  case 'n':
  case 'N':
    if (equalFold(s, "nan") || equalFold(s, "+nan") || equalFold(s, "-nan"))
      return makeFloat(t.heap, std::numeric_limits<double>::quiet_NaN());
    break;
  }
  if (!isFloatSyntax(s))
    t.fail("invalid float literal: " + std::string(s));
  std::string text(s);
  errno = 0;
  double f = std::strtod(text.c_str(), nullptr);
  if (std::isinf(f))
    t.fail("floating-point number too large");
  return makeFloat(t.heap, f); // underflow rounds to zero, as in Go
}

} // namespace

Value intFn(Thread &t, Value, const Args &args) {
  Value x, baseValue;
  bindArgs(t, "int", args, {"x", "base?"}, {&x, &baseValue});
  if (String *s = x.as<String>()) {
    int base = 10;
    if (!baseValue.isNull()) {
      int64_t b;
      std::string err;
      if (!asInt32(baseValue, b, err) || (b != 0 && (b < 2 || b > 36)))
        t.fail("int: base must be an integer >= 2 && <= 36");
      base = static_cast<int>(b);
    }
    return parseInt(t, s->view(), base); // reports "int: invalid literal ..." itself
  }
  if (!baseValue.isNull())
    t.fail("int: can't convert non-string with explicit base");
  if (Bool *b = x.as<Bool>())
    return Value::small(b->value ? 1 : 0);
  if (x.isInt())
    return x;
  if (Float *f = x.as<Float>()) {
    if (std::isinf(f->value))
      t.fail("int: cannot convert float infinity to integer");
    if (std::isnan(f->value))
      t.fail("int: cannot convert float NaN to integer");
    return floatToInt(t, f->value);
  }
  t.fail("int: cannot convert " + std::string(typeName(x)) + " to int");
}

Value floatFn(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("float does not accept keyword arguments");
  if (args.positional.empty())
    return makeFloat(t.heap, 0.0);
  if (args.positional.size() != 1)
    t.fail("float got " + std::to_string(args.positional.size()) + " arguments, wants 1");
  Value x = args.positional[0];
  if (Bool *b = x.as<Bool>())
    return makeFloat(t.heap, b->value ? 1.0 : 0.0);
  if (x.isInt())
    return makeFloat(t.heap, intToFloat(t, x));
  if (x.is(Kind::Float))
    return x;
  if (String *s = x.as<String>())
    return parseFloat(t, s->view());
  t.fail("float got " + std::string(typeName(x)) + ", want number or string");
}

Value abs(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "abs", args, 1, {&x});
  if (Float *f = x.as<Float>())
    return makeFloat(t.heap, std::fabs(f->value));
  if (x.isSmallInt())
    return x.smallInt() >= 0 ? x : makeInt(t.heap, -x.smallInt());
  if (x.is(Kind::Int))
    return toAPInt(x).isNegative() ? unary(t, UnOp::Neg, x) : x;
  t.fail("got " + std::string(typeName(x)) + ", want int or float");
}

Value chr(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("chr does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail("chr: got " + std::to_string(args.positional.size()) + " arguments, want 1");
  int64_t i;
  std::string err;
  if (!asInt32(args.positional[0], i, err))
    t.fail("chr: " + err);
  if (i < 0)
    t.fail("chr: Unicode code point " + std::to_string(i) + " out of range (<0)");
  if (i > static_cast<int64_t>(utf8::kMaxRune)) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "%llX", static_cast<unsigned long long>(i));
    t.fail("chr: Unicode code point U+" + std::string(hex) + " out of range (>0x10FFFF)");
  }
  std::string s;
  utf8::encode(s, static_cast<uint32_t>(i)); // surrogates become U+FFFD, as in Go
  return makeString(t.heap, s);
}

Value ord(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("ord does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail("ord: got " + std::to_string(args.positional.size()) + " arguments, want 1");
  Value x = args.positional[0];
  if (String *s = x.as<String>()) {
    utf8::Decoded d = utf8::decode(s->view());
    if (d.size == 0 || d.size != s->size())
      t.fail("ord: string encodes " + std::to_string(utf8::countRunes(s->view())) +
             " Unicode code points, want 1");
    return Value::small(d.rune);
  }
  if (Bytes *b = x.as<Bytes>()) {
    if (b->view().size() != 1)
      t.fail("ord: bytes has length " + std::to_string(b->view().size()) + ", want 1");
    return Value::small(static_cast<unsigned char>(b->view()[0]));
  }
  t.fail("ord: got " + std::string(typeName(x)) + ", want string or bytes");
}

Value bytes(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("bytes does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail("bytes: got " + std::to_string(args.positional.size()) + " arguments, want exactly 1");
  Value x = args.positional[0];
  if (x.is(Kind::Bytes))
    return x;
  if (String *s = x.as<String>()) // invalid UTF-8 becomes U+FFFD
    return makeBytes(t.heap, utf8::toValid(s->view()));
  if (!isIterable(x))
    t.fail("bytes: got " + std::string(typeName(x)) + ", want string, bytes, or iterable of ints");
  std::string out;
  int64_t i = 0;
  forEachElement(t, x, [&](Value elem) {
    if (!elem.isInt())
      t.fail("bytes: at index " + std::to_string(i) + ", got " + std::string(typeName(elem)) +
             ", want int");
    if (!elem.isSmallInt() || elem.smallInt() < 0 || elem.smallInt() > 255)
      t.fail("bytes: at index " + std::to_string(i) + ", " + intToString(elem) +
             " out of range (want value in unsigned 8-bit range)");
    out.push_back(static_cast<char>(elem.smallInt()));
    ++i;
    return true;
  });
  return makeBytes(t.heap, out);
}

} // namespace fbc::star::builtins
