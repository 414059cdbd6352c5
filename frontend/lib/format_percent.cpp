// The `%` operator on strings (Go's interpolate): "%s" % x, "%d %x" % (a, b),
// "%(name)s" % {"name": v}. There are no flags, widths or precisions.
#include "frontend/lib/format.h"

#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/utf8.h"

#include <llvm/ADT/APFloat.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace fbc::star {

namespace {

// An int as a double, rounding to nearest and overflowing to ±inf without
// an error (Go's AsFloat).
double intAsDouble(Value v) {
  if (v.isSmallInt())
    return static_cast<double>(v.smallInt());
  llvm::APFloat f(llvm::APFloat::IEEEdouble());
  f.convertFromAPInt(toAPInt(v), /*IsSigned=*/true, llvm::APFloat::rmNearestTiesToEven);
  return f.convertToDouble();
}

void appendInt(std::string &out, Value v, char verb) {
  unsigned radix = verb == 'o' ? 8 : (verb == 'x' || verb == 'X') ? 16 : 10;
  std::string digits;
  if (v.isSmallInt()) {
    char buf[72];
    auto res = std::to_chars(buf, buf + sizeof buf, v.smallInt(), static_cast<int>(radix));
    digits.assign(buf, res.ptr);
  } else {
    digits = intToString(v, radix);
  }
  if (verb == 'X')
    for (char &c : digits)
      if (c >= 'a' && c <= 'f')
        c = static_cast<char>(c - 'a' + 'A');
  out += digits;
}

// %d and friends accept ints, and floats truncated toward zero.
Value asInteger(Thread &t, Value arg, char verb) {
  if (arg.isInt())
    return arg;
  std::string prefix = std::string("%") + verb + " format requires integer: ";
  if (Float *f = arg.as<Float>()) {
    if (std::isinf(f->value))
      t.fail(prefix + "cannot convert float infinity to integer");
    if (std::isnan(f->value))
      t.fail(prefix + "cannot convert float NaN to integer");
    return floatToInt(t, f->value);
  }
  t.fail(prefix + "cannot convert " + std::string(typeName(arg)) + " to int");
}

void appendChar(Thread &t, std::string &out, Value arg) {
  if (arg.isInt()) {
    int64_t r;
    if (!toInt64(arg, r) || r < 0 || r > utf8::kMaxRune)
      t.fail("%c format requires a valid Unicode code point, got " + str(arg));
    utf8::encode(out, static_cast<uint32_t>(r));
    return;
  }
  if (String *s = arg.as<String>()) {
    utf8::Decoded d = utf8::decode(s->view());
    if (s->size() == 0 || d.size != s->size())
      t.fail("%c format requires a single-character string");
    utf8::encode(out, d.rune);
    return;
  }
  t.fail("%c format requires int or single-character string, not " + std::string(typeName(arg)));
}

// One conversion `%<verb>` of `arg`, appended to `out`.
void appendConversion(Thread &t, std::string &out, char verb, Value arg) {
  switch (verb) {
  case 's':
  case 'r':
    appendConverted(out, arg, verb == 'r');
    break;
  case 'd':
  case 'i':
  case 'o':
  case 'x':
  case 'X':
    appendInt(out, asInteger(t, arg, verb), verb);
    break;
  case 'e':
  case 'f':
  case 'g':
  case 'E':
  case 'F':
  case 'G': {
    double f;
    if (Float *fl = arg.as<Float>())
      f = fl->value;
    else if (arg.isInt())
      f = intAsDouble(arg);
    else
      t.fail(std::string("%") + verb + " format requires float, not " + std::string(typeName(arg)));
    out += formatFloat(f, verb);
    break;
  }
  case 'c':
    appendChar(t, out, arg);
    break;
  case '%': // only reachable as "%(key)%"
    out.push_back('%');
    break;
  default: {
    // Go prints the offending byte as a code point (%c of a byte).
    std::string msg = "unknown conversion %";
    utf8::encode(msg, static_cast<unsigned char>(verb));
    t.fail(msg);
  }
  }
}

} // namespace

void appendConverted(std::string &out, Value v, bool repr) {
  if (String *s = v.as<String>(); s && !repr) {
    out.append(s->view());
    return;
  }
  Printer p;
  p.out = std::move(out);
  p.repr(v);
  out = std::move(p.out);
}

Value formatPercent(Thread &t, std::string_view format, Value args) {
  Tuple *tuple = args.as<Tuple>();
  const size_t nargs = tuple ? tuple->size() : 1;
  size_t index = 0;
  std::string out;
  out.reserve(format.size() + 16);
  for (;;) {
    size_t pct = format.find('%');
    if (pct == std::string_view::npos) {
      out.append(format);
      break;
    }
    out.append(format.substr(0, pct));
    format.remove_prefix(pct + 1);
    if (!format.empty() && format[0] == '%') {
      out.push_back('%');
      format.remove_prefix(1);
      continue;
    }

    Value arg;
    if (!format.empty() && format[0] == '(') {
      format.remove_prefix(1);
      size_t close = format.find(')');
      if (close == std::string_view::npos)
        t.fail("incomplete format key");
      std::string_view key = format.substr(0, close);
      Dict *dict = args.as<Dict>();
      if (!dict)
        t.fail("format requires a mapping");
      arg = dict->table.get(t, makeString(t.heap, key));
      if (arg.isNull())
        t.fail("key not found: " + std::string(key));
      format.remove_prefix(close + 1);
    } else {
      if (index >= nargs)
        t.fail("not enough arguments for format string");
      arg = tuple ? tuple->elems()[index] : args;
    }

    if (format.empty())
      t.fail("incomplete format");
    appendConversion(t, out, format[0], arg);
    format.remove_prefix(1);
    ++index;
  }
  // A mapping operand may go unused ("A" % {"x": 1} == "A"), as in the recent
  // go.starlark.net; the 2021 snapshot called that too many arguments.
  if (index < nargs && !args.as<Dict>())
    t.fail("too many arguments for format string");
  return makeString(t.heap, out);
}

} // namespace fbc::star
