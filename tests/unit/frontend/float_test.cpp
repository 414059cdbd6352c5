// Floats: Go's str(float) and %e/%f/%g formatting, float arithmetic with
// floored // and %, exact int/float comparison, NaN ordering and hashing.
// Expected strings were produced by Go (strconv.FormatFloat, float.star).
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace fbc::star {
namespace {

class FloatTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value F(double d) { return makeFloat(heap, d); }
  Value I(int64_t v) { return makeInt(heap, v); }
  Value L(const char *literal) { return parseIntLiteral(heap, literal); }
  // A signed literal (parseIntLiteral takes unsigned scanner text).
  Value P0(std::string_view s) { return parseInt(t, s, 0); }
  Value op(BinOp o, Value x, Value y) { return numericBinary(t, o, x, y); }
  // The result of a float operation, as str() prints it.
  std::string R(BinOp o, Value x, Value y) {
    Value r = op(o, x, y);
    EXPECT_TRUE(r.as<Float>()) << "not a float";
    return floatToString(r.as<Float>()->value);
  }
  std::string err(const std::function<void()> &f) {
    try {
      f();
    } catch (const EvalError &e) {
      return e.message();
    }
    return "<no error>";
  }
};

struct FormatCase {
  double value;
  const char *str, *g, *G, *e, *E, *f;
};

// Go 1.19: FormatFloat(v, 'g'/'G', -1, 64) and (v, 'e'/'E'/'f', 6, 64),
// with Starlark's ".0" suffix for %g.
const FormatCase kFormatCases[] = {
    {0.0, "0.0", "0.0", "0.0", "0.000000e+00", "0.000000E+00", "0.000000"},
    {-0.0, "-0.0", "-0.0", "-0.0", "-0.000000e+00", "-0.000000E+00", "-0.000000"},
    {1.0, "1.0", "1.0", "1.0", "1.000000e+00", "1.000000E+00", "1.000000"},
    {1.5, "1.5", "1.5", "1.5", "1.500000e+00", "1.500000E+00", "1.500000"},
    {123.0, "123.0", "123.0", "123.0", "1.230000e+02", "1.230000E+02", "123.000000"},
    {1e5, "100000.0", "100000.0", "100000.0", "1.000000e+05", "1.000000E+05", "100000.000000"},
    {1e6, "1e+06", "1e+06", "1E+06", "1.000000e+06", "1.000000E+06", "1000000.000000"},
    {1234567.0, "1.234567e+06", "1.234567e+06", "1.234567E+06", "1.234567e+06", "1.234567E+06",
     "1234567.000000"},
    {1e16, "1e+16", "1e+16", "1E+16", "1.000000e+16", "1.000000E+16", "10000000000000000.000000"},
    {1e22, "1e+22", "1e+22", "1E+22", "1.000000e+22", "1.000000E+22",
     "10000000000000000000000.000000"},
    {0.0001, "0.0001", "0.0001", "0.0001", "1.000000e-04", "1.000000E-04", "0.000100"},
    {0.00001, "1e-05", "1e-05", "1E-05", "1.000000e-05", "1.000000E-05", "0.000010"},
    {1e-7, "1e-07", "1e-07", "1E-07", "1.000000e-07", "1.000000E-07", "0.000000"},
    {1.23e45, "1.23e+45", "1.23e+45", "1.23E+45", "1.230000e+45", "1.230000E+45",
     "1229999999999999973814869011019624571608236032.000000"},
    {-1.23e-45, "-1.23e-45", "-1.23e-45", "-1.23E-45", "-1.230000e-45", "-1.230000E-45",
     "-0.000000"},
    {5e-324, "5e-324", "5e-324", "5E-324", "4.940656e-324", "4.940656E-324", "0.000000"},
    {1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308",
     "1.7976931348623157E+308", "1.797693e+308", "1.797693E+308", nullptr},
    {0.1, "0.1", "0.1", "0.1", "1.000000e-01", "1.000000E-01", "0.100000"},
    {2.0 / 3, "0.6666666666666666", "0.6666666666666666", "0.6666666666666666", "6.666667e-01",
     "6.666667E-01", "0.666667"},
    {100.0 / 7, "14.285714285714286", "14.285714285714286", "14.285714285714286", "1.428571e+01",
     "1.428571E+01", "14.285714"},
    {123456.789, "123456.789", "123456.789", "123456.789", "1.234568e+05", "1.234568E+05",
     "123456.789000"},
    {3.3e9, "3.3e+09", "3.3e+09", "3.3E+09", "3.300000e+09", "3.300000E+09", "3300000000.000000"},
    {-1.5557538194652854e-61, "-1.5557538194652854e-61", "-1.5557538194652854e-61",
     "-1.5557538194652854E-61", "-1.555754e-61", "-1.555754E-61", "-0.000000"},
};

TEST_F(FloatTest, GoFormatting) {
  for (const FormatCase &c : kFormatCases) {
    SCOPED_TRACE(c.str);
    EXPECT_EQ(floatToString(c.value), c.str);
    EXPECT_EQ(formatFloat(c.value, 'g'), c.g);
    EXPECT_EQ(formatFloat(c.value, 'G'), c.G);
    EXPECT_EQ(formatFloat(c.value, 'e'), c.e);
    EXPECT_EQ(formatFloat(c.value, 'E'), c.E);
    if (c.f) {
      EXPECT_EQ(formatFloat(c.value, 'f'), c.f);
    }
    // Go's strconv does not know 'F' and echoes it.
    EXPECT_EQ(formatFloat(c.value, 'F'), "%F");
  }
  EXPECT_EQ(formatFloat(1.7976931348623157e308, 'f').size(), 316u);
  for (char verb : {'g', 'G', 'e', 'E', 'f', 'F'}) {
    EXPECT_EQ(formatFloat(NAN, verb), "nan");
    EXPECT_EQ(formatFloat(INFINITY, verb), "+inf");
    EXPECT_EQ(formatFloat(-INFINITY, verb), "-inf");
  }
  EXPECT_EQ(floatToString(-NAN), "nan");
  EXPECT_EQ(floatToString(INFINITY), "+inf");
  EXPECT_EQ(floatToString(-INFINITY), "-inf");
  EXPECT_EQ(floatToString(5.60012e+07), "5.60012e+07");
  EXPECT_EQ(floatToString(-5.59988e+07), "-5.59988e+07");
}

TEST_F(FloatTest, Arithmetic) {
  double nan = NAN, inf = INFINITY;
  EXPECT_EQ(R(BinOp::Add, F(1.2e3), F(5.6e7)), "5.60012e+07");
  EXPECT_EQ(R(BinOp::Add, F(1.2e3), I(1)), "1201.0");
  EXPECT_EQ(R(BinOp::Add, I(1), F(1.2e3)), "1201.0");
  EXPECT_EQ(R(BinOp::Add, F(inf), F(-inf)), "nan");
  EXPECT_EQ(R(BinOp::Sub, I(1), F(1.2e3)), "-1199.0");
  EXPECT_EQ(R(BinOp::Sub, F(inf), F(-inf)), "+inf");
  EXPECT_EQ(R(BinOp::Mul, F(1.5e6), I(123)), "1.845e+08");
  EXPECT_EQ(R(BinOp::Mul, F(inf), I(0)), "nan");
  EXPECT_EQ(R(BinOp::Mul, F(inf), F(-inf)), "-inf");
  // % takes the sign of the divisor.
  EXPECT_EQ(R(BinOp::Mod, F(100), F(7)), "2.0");
  EXPECT_EQ(R(BinOp::Mod, F(100), F(-7)), "-5.0");
  EXPECT_EQ(R(BinOp::Mod, F(-100), F(7)), "5.0");
  EXPECT_EQ(R(BinOp::Mod, F(-100), F(-7)), "-2.0");
  EXPECT_EQ(R(BinOp::Mod, F(-100), I(7)), "5.0");
  EXPECT_EQ(R(BinOp::Mod, I(100), F(7)), "2.0");
  EXPECT_EQ(R(BinOp::Mod, F(2.5), I(2)), "0.5");
  EXPECT_EQ(R(BinOp::Mod, F(-98), F(8)), "6.0");
  EXPECT_EQ(R(BinOp::Mod, F(1.2e3), F(nan)), "nan");
  EXPECT_EQ(R(BinOp::Mod, F(inf), I(1)), "nan");
  EXPECT_EQ(R(BinOp::Div, F(100), F(7)), "14.285714285714286");
  EXPECT_EQ(R(BinOp::Div, I(100), F(7)), "14.285714285714286");
  EXPECT_EQ(R(BinOp::Div, I(5), I(4)), "1.25");
  EXPECT_EQ(R(BinOp::Div, F(inf), F(-inf)), "nan");
  EXPECT_EQ(R(BinOp::FloorDiv, F(100), F(-7)), "-15.0");
  EXPECT_EQ(R(BinOp::FloorDiv, I(100), F(-7)), "-15.0");
  EXPECT_EQ(R(BinOp::FloorDiv, F(-98), F(8)), "-13.0");
  EXPECT_EQ(R(BinOp::FloorDiv, I(1), F(-inf)), "-0.0");
  EXPECT_EQ(R(BinOp::FloorDiv, F(100), F(nan)), "nan");
  EXPECT_EQ(floatToString(op(BinOp::Sub, F(1.23e-45),
                             op(BinOp::Div, F(1.23),
                                L("1000000000000000000000000000"
                                  "000000000000000000")))
                              .as<Float>()
                              ->value),
            "-1.5557538194652854e-61");

  EXPECT_EQ(err([&] { op(BinOp::Div, F(1), I(0)); }), "floating-point division by zero");
  EXPECT_EQ(err([&] { op(BinOp::Div, I(1), F(0)); }), "floating-point division by zero");
  EXPECT_EQ(err([&] { op(BinOp::FloorDiv, F(1), I(0)); }), "floored division by zero");
  EXPECT_EQ(err([&] { op(BinOp::FloorDiv, I(1), F(0)); }), "floored division by zero");
  EXPECT_EQ(err([&] { op(BinOp::Mod, F(1), I(0)); }), "floating-point modulo by zero");
  EXPECT_EQ(err([&] { op(BinOp::Mod, I(1), F(0)); }), "floating-point modulo by zero");
  Value huge = op(BinOp::Shl, op(BinOp::Shl, op(BinOp::Shl, I(1), I(500)), I(500)), I(500));
  for (BinOp o : {BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::FloorDiv, BinOp::Mod}) {
    EXPECT_EQ(err([&] { op(o, huge, F(1)); }), "int too large to convert to float");
    EXPECT_EQ(err([&] { op(o, F(1), huge); }), "int too large to convert to float");
  }
  // Bitwise operators are for ints only: the caller reports the type error.
  EXPECT_FALSE(op(BinOp::BitOr, F(1), I(1)));
  EXPECT_EQ(err([&] { binary(t, BinOp::BitAnd, I(1), F(1)); }), "unknown binary op: int & float");
  EXPECT_EQ(floatToString(unary(t, UnOp::Neg, F(nan)).as<Float>()->value), "nan");
  EXPECT_EQ(unary(t, UnOp::Neg, F(-inf)).as<Float>()->value, inf);
  EXPECT_EQ(err([&] { unary(t, UnOp::Invert, F(1)); }), "unknown unary op: ~ float");
}

TEST_F(FloatTest, ExactIntFloatComparison) {
  Value f = F(1.23e45);
  EXPECT_EQ(numericCompare(f, L("1229999999999999973814869011019624571608236031")), 1);
  EXPECT_EQ(numericCompare(f, L("1229999999999999973814869011019624571608236032")), 0);
  EXPECT_EQ(numericCompare(f, L("1229999999999999973814869011019624571608236033")), -1);
  EXPECT_EQ(numericCompare(L("1229999999999999973814869011019624571608236033"), f), 1);
  Value p53 = op(BinOp::Shl, I(1), I(53));
  Value p53plus1 = op(BinOp::Add, p53, I(1));
  EXPECT_EQ(numericCompare(F(intToFloat(t, p53plus1)), p53plus1), -1);
  EXPECT_EQ(numericCompare(I(-1), F(-1.0 + 1e-7)), -1);
  EXPECT_EQ(numericCompare(I(-2), F(-2 + 1e-15)), -1);
  EXPECT_EQ(numericCompare(I(0), F(-0.0)), 0);
  EXPECT_EQ(numericCompare(I(3), F(2.5)), 1);
  EXPECT_EQ(numericCompare(I(-3), F(-2.5)), -1);
  EXPECT_EQ(numericCompare(I(Value::kMaxSmall), F(9223372036854775808.0)), -1);
  EXPECT_EQ(numericCompare(L("9223372036854775808"), F(9223372036854775808.0)), 0);
  EXPECT_EQ(numericCompare(P0("-9223372036854775809"), F(-9223372036854775808.0)), -1);
  EXPECT_EQ(numericCompare(L("100000000000000000000000"), F(INFINITY)), -1);
  EXPECT_EQ(numericCompare(L("100000000000000000000000"), F(-INFINITY)), 1);
  EXPECT_EQ(numericCompare(F(1e300), L("100000000000000000000000")), 1);
}

TEST_F(FloatTest, NaNIsGreatestAndEqualToItself) {
  double nan = NAN, inf = INFINITY;
  EXPECT_EQ(numericCompare(F(nan), F(nan)), 0);
  EXPECT_EQ(numericCompare(F(nan), F(inf)), 1);
  EXPECT_EQ(numericCompare(F(-inf), F(nan)), -1);
  EXPECT_EQ(numericCompare(I(1), F(nan)), -1);
  EXPECT_EQ(numericCompare(F(nan), L("100000000000000000000000")), 1);
  EXPECT_TRUE(compare(t, CmpOp::Eq, F(nan), F(nan)));
  EXPECT_TRUE(compare(t, CmpOp::Ge, F(nan), F(nan)));
  EXPECT_TRUE(compare(t, CmpOp::Le, F(nan), F(nan)));
  EXPECT_FALSE(compare(t, CmpOp::Gt, F(nan), F(nan)));
  EXPECT_FALSE(compare(t, CmpOp::Lt, F(nan), F(nan)));
  EXPECT_FALSE(compare(t, CmpOp::Ne, F(nan), F(nan)));
  EXPECT_TRUE(compare(t, CmpOp::Eq, F(0.0), F(-0.0)));
  EXPECT_TRUE(compare(t, CmpOp::Lt, F(-1.7976931348623157e308), F(-1.0)));
  EXPECT_TRUE(compare(t, CmpOp::Lt, I(0), F(4.9406564584124654e-324)));
  EXPECT_TRUE(compare(t, CmpOp::Lt, F(1.7976931348623157e308), F(inf)));
}

TEST_F(FloatTest, EqualNumbersHashEqually) {
  EXPECT_EQ(numericHash(F(123.0)), numericHash(I(123)));
  EXPECT_EQ(numericHash(F(-0.0)), numericHash(I(0)));
  EXPECT_EQ(numericHash(F(NAN)), numericHash(F(-NAN)));
  EXPECT_NE(numericHash(F(1.5)), numericHash(I(1)));
  for (const char *lit : {"4611686018427387904", "9223372036854775808", "0x100000000000000000000",
                          "1229999999999999973814869011019624571608236032"}) {
    Value i = L(lit);
    Value f = F(intToFloat(t, i));
    ASSERT_EQ(numericCompare(i, f), 0) << lit;
    EXPECT_EQ(numericHash(i), numericHash(f)) << lit;
    Value neg = unary(t, UnOp::Neg, i);
    EXPECT_EQ(numericHash(neg), numericHash(F(-intToFloat(t, i)))) << lit;
  }
  // float.star's checkhash().
  for (double a :
       {1.23e100, 1.23e10, 1.23e1, 1.23, 1.0, 4294967295.0, 8589934591.0, 9223372036854775807.0}) {
    for (double b : {a, -a, 1 / a, -1 / a}) {
      Value i = floatToInt(t, b);
      if (numericCompare(i, F(b)) == 0) {
        EXPECT_EQ(numericHash(i), numericHash(F(b))) << b;
      }
    }
  }
  EXPECT_EQ(hashValue(t, F(7.0)), hashValue(t, I(7)));
}

} // namespace
} // namespace fbc::star
