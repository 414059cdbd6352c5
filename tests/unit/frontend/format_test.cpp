// The % operator (formatPercent) and str.format, with outputs and messages
// checked against Go Starlark (string.star and the Go interpreter).
#include "frontend/lib/format.h"
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace fbc::star {
namespace {

class FormatTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value S(std::string_view s) { return makeString(heap, s); }
  Value I(int64_t v) { return makeInt(heap, v); }
  Value F(double v) { return makeFloat(heap, v); }
  Value big(const char *literal) { return parseIntLiteral(heap, literal); }
  Value tuple(std::vector<Value> v) { return Value::object(makeTuple(heap, v)); }
  Value list(std::vector<Value> v) { return Value::object(heap.make<List>(std::move(v))); }
  Value dict(std::vector<std::pair<Value, Value>> items) {
    Dict *d = heap.make<Dict>();
    for (auto &[k, v] : items)
      d->put(t, k, v);
    return Value::object(d);
  }

  // format % args: the resulting text, or "error: <message>".
  std::string pct(std::string_view format, Value args) {
    try {
      return str(formatPercent(t, format, args));
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }

  // format.format(*positional, **kwargs)
  std::string fmt(std::string_view format, std::vector<Value> positional,
                  std::vector<std::pair<const char *, Value>> kwargs = {}) {
    std::vector<Kwarg> kw;
    for (auto &[name, v] : kwargs)
      kw.push_back(Kwarg{S(name).as<String>(), v});
    const Method *m = nullptr;
    for (const Method &x : stringMethods())
      if (std::string_view(x.name) == "format")
        m = &x;
    try {
      return str(m->fn(t, S(format), Args{positional, kw}));
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
};

TEST_F(FormatTest, PercentBasics) {
  EXPECT_EQ(pct("A %d %x Z", tuple({I(123), I(456)})), "A 123 1c8 Z");
  EXPECT_EQ(pct("A %(foo)d %(bar)s Z", dict({{S("foo"), I(123)}, {S("bar"), S("hi")}})),
            "A 123 hi Z");
  EXPECT_EQ(pct("%s %r", tuple({S("hi"), S("hi")})), "hi \"hi\"");
  EXPECT_EQ(pct("%%d %d", I(1)), "%d 1");
  EXPECT_EQ(pct("%d %d", I(1)), "error: not enough arguments for format string");
  EXPECT_EQ(pct("%d %d", tuple({I(1), I(2), I(3)})), "error: too many arguments for format string");
  EXPECT_EQ(pct("", I(1)), "error: too many arguments for format string");
  EXPECT_EQ(pct("%s", tuple({})), "error: not enough arguments for format string");
  // An unused mapping is fine (the recent Go; the 2021 snapshot rejected it).
  EXPECT_EQ(pct("A", dict({{S("x"), I(1)}})), "A");
  EXPECT_EQ(pct("A %(x)d", dict({{S("x"), I(1)}, {S("y"), I(2)}})), "A 1");
  EXPECT_EQ(pct("no verbs", tuple({})), "no verbs");
}

TEST_F(FormatTest, PercentValues) {
  EXPECT_EQ(pct("%r %s", tuple({list({I(1), S("a")}), tuple({S("x")})})), "[1, \"a\"] (\"x\",)");
  EXPECT_EQ(pct("%s", dict({{S("x"), I(1)}})), "{\"x\": 1}");
  EXPECT_EQ(pct("%s", list({I(1)})), "[1]");
  EXPECT_EQ(pct("%s|%r", tuple({none(), trueValue()})), "None|True");
  EXPECT_EQ(pct("%(a)s %(b)r %(a)%", dict({{S("a"), I(1)}, {S("b"), S("x")}})), "1 \"x\" %");
}

TEST_F(FormatTest, PercentIntegers) {
  EXPECT_EQ(pct("%d %i %o %x %X", tuple({I(255), I(-255), I(8), I(-255), I(255)})),
            "255 -255 10 -ff FF");
  EXPECT_EQ(pct("%d", F(3.9)), "3");
  EXPECT_EQ(pct("%x", F(123.1)), "7b");
  EXPECT_EQ(pct("%d", F(-3.9)), "-3");
  EXPECT_EQ(pct("%d", big("1180591620717411303424")), "1180591620717411303424");
  EXPECT_EQ(pct("%X", big("1180591620717411303424")), "400000000000000000");
  EXPECT_EQ(pct("%o", unary(t, UnOp::Neg, big("1180591620717411303424"))),
            "-200000000000000000000000");
  EXPECT_EQ(pct("%d", S("x")), "error: %d format requires integer: cannot convert string to int");
  EXPECT_EQ(pct("%d", trueValue()),
            "error: %d format requires integer: cannot convert bool to int");
  EXPECT_EQ(pct("%x", F(std::nan(""))),
            "error: %x format requires integer: cannot convert float NaN to integer");
  EXPECT_EQ(pct("%d", F(INFINITY)),
            "error: %d format requires integer: cannot convert float infinity to integer");
}

TEST_F(FormatTest, PercentFloats) {
  EXPECT_EQ(pct("%e %f %g %E %G", tuple({F(1.5), F(1.5), F(1.5), F(1e20), F(1e-20)})),
            "1.500000e+00 1.500000 1.5 1.000000E+20 1E-20");
  EXPECT_EQ(pct("%f", I(3)), "3.000000");
  EXPECT_EQ(pct("%g", I(123)), "123.0");
  EXPECT_EQ(pct("%e", big("1208925819614629174706176")), "1.208926e+24");
  EXPECT_EQ(pct("%f", F(1.23e45)), "1229999999999999973814869011019624571608236032.000000");
  EXPECT_EQ(pct("%g", F(1.110)), "1.11");
  EXPECT_EQ(pct("%e", S("x")), "error: %e format requires float, not string");
}

TEST_F(FormatTest, PercentChar) {
  EXPECT_EQ(pct("%c", I(65)), "A");
  EXPECT_EQ(pct("%c", I(0x3b1)), "α");
  EXPECT_EQ(pct("%c", S("A")), "A");
  EXPECT_EQ(pct("%c", S("α")), "α");
  EXPECT_EQ(pct("%c%c", tuple({I(0x1F63F), S("é")})), "😿é");
  EXPECT_EQ(pct("%c", I(0xD800)), "\xef\xbf\xbd"); // surrogates become U+FFFD
  EXPECT_EQ(pct("%c", S("abc")), "error: %c format requires a single-character string");
  EXPECT_EQ(pct("%c", S("")), "error: %c format requires a single-character string");
  EXPECT_EQ(pct("%c", F(65.0)),
            "error: %c format requires int or single-character string, not float");
  EXPECT_EQ(pct("%c", I(10000000)),
            "error: %c format requires a valid Unicode code point, got 10000000");
  EXPECT_EQ(pct("%c", I(-1)), "error: %c format requires a valid Unicode code point, got -1");
  EXPECT_EQ(pct("%c", I(int64_t(1) << 40)),
            "error: %c format requires a valid Unicode code point, got 1099511627776");
}

TEST_F(FormatTest, PercentSyntaxErrors) {
  EXPECT_EQ(pct("%5d", I(1)), "error: unknown conversion %5");
  EXPECT_EQ(pct("%.2f", F(1)), "error: unknown conversion %.");
  EXPECT_EQ(pct("%é", I(1)), "error: unknown conversion %Ã"); // the byte 0xC3 as a code point
  EXPECT_EQ(pct("%", I(1)), "error: incomplete format");
  EXPECT_EQ(pct("%(a", dict({})), "error: incomplete format key");
  EXPECT_EQ(pct("%(a)s", I(1)), "error: format requires a mapping");
  EXPECT_EQ(pct("%(a)s", dict({})), "error: key not found: a");
}

TEST_F(FormatTest, StrFormat) {
  EXPECT_EQ(fmt("a{}b", {I(123)}), "a123b");
  EXPECT_EQ(fmt("a{}b{}c{}d{}", {I(1), I(2), I(3), I(4)}), "a1b2c3d4");
  EXPECT_EQ(fmt("a{{b", {}), "a{b");
  EXPECT_EQ(fmt("a}}b", {}), "a}b");
  EXPECT_EQ(fmt("a{{b}}c", {}), "a{b}c");
  EXPECT_EQ(fmt("a{x}b{y}c{}", {I(1)}, {{"x", I(2)}, {"y", I(3)}}), "a2b3c1");
  EXPECT_EQ(fmt("{0000000000001}", {I(0), I(1)}), "1");
  std::vector<Value> hundred;
  for (int i = 0; i < 100; ++i)
    hundred.push_back(I(i));
  EXPECT_EQ(fmt("{012}", hundred), "12");
  EXPECT_EQ(fmt("a{010}b", hundred), "a10b");
  EXPECT_EQ(fmt("a{!s}c", {S("b")}), "abc");
  EXPECT_EQ(fmt("a{!r}c", {S("b")}), "a\"b\"c");
  EXPECT_EQ(fmt("a{x!r}c", {}, {{"x", S("b")}}), "a\"b\"c");
  EXPECT_EQ(fmt("{} {!r} {x}", {S("a"), S("b")}, {{"x", list({I(1)})}}), "a \"b\" [1]");
}

TEST_F(FormatTest, StrFormatErrors) {
  EXPECT_EQ(fmt("a{z}b", {}, {{"x", I(1)}}), "error: format: keyword z not found");
  EXPECT_EQ(fmt("{-1}", {I(1)}), "error: format: keyword -1 not found");
  EXPECT_EQ(fmt("{-0}", {I(1)}), "error: format: keyword -0 not found");
  EXPECT_EQ(fmt("{+0}", {I(1)}), "error: format: keyword +0 not found");
  EXPECT_EQ(fmt("{0,1} and {1}", {I(1), I(2)}), "error: format: keyword 0,1 not found");
  EXPECT_EQ(fmt("{99999999999999999999}", {I(1)}),
            "error: format: keyword 99999999999999999999 not found");
  EXPECT_EQ(fmt("a{123}b", {}), "error: format: tuple index out of range");
  EXPECT_EQ(fmt("a{}b{}c", {I(1)}), "error: format: tuple index out of range");
  EXPECT_EQ(fmt("a{}b{1}c", {I(1), I(2)}),
            "error: format: cannot switch from automatic field numbering to manual field "
            "specification");
  EXPECT_EQ(fmt("{0}{}", {I(1), I(2)}),
            "error: format: cannot switch from manual field specification to automatic field "
            "numbering");
  EXPECT_EQ(fmt("{x!}", {}, {{"x", I(1)}}), "error: format: unknown conversion \"\"");
  EXPECT_EQ(fmt("{x!:}", {}, {{"x", I(1)}}), "error: format: unknown conversion \"\"");
  EXPECT_EQ(fmt("{x!z}", {}, {{"x", I(1)}}), "error: format: unknown conversion \"z\"");
  EXPECT_EQ(fmt("{a.b}", {I(1)}),
            "error: format: attribute syntax x.y is not supported in replacement fields: a.b");
  EXPECT_EQ(fmt("{a[0]}", {I(1)}),
            "error: format: element syntax a[i] is not supported in replacement fields: a[0]");
  EXPECT_EQ(fmt("{a:b!r}", {I(1)}), "error: format: keyword a:b not found");
  EXPECT_EQ(fmt("{ {} }", {I(1)}), "error: format: nested replacement fields not supported");
  EXPECT_EQ(fmt("{{}", {I(1)}), "error: format: single '}' in format");
  EXPECT_EQ(fmt("{}}", {I(1)}), "error: format: single '}' in format");
  EXPECT_EQ(fmt("}}{", {I(1)}), "error: format: unmatched '{' in format");
  EXPECT_EQ(fmt("}{{", {I(1)}), "error: format: single '}' in format");
  EXPECT_EQ(fmt("{:>5}", {I(1)}),
            "error: format spec features not supported in replacement fields: >5");
}

} // namespace
} // namespace fbc::star
