// Integers: normalisation, literals, int(s, base), bigint arithmetic with
// Go's floored division, shifts, conversions and formatting. Expected
// values come from Go Starlark (int.star and direct runs of sgo).
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace fbc::star {
namespace {

class IntTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value I(int64_t v) { return makeInt(heap, v); }
  Value L(const char *literal) { return parseIntLiteral(heap, literal); }
  Value P(std::string_view s, int base = 10) { return parseInt(t, s, base); }
  // A signed literal (parseIntLiteral takes unsigned scanner text).
  Value P0(std::string_view s) { return parseInt(t, s, 0); }
  Value op(BinOp o, Value x, Value y) { return numericBinary(t, o, x, y); }
  std::string S(Value v) { return intToString(v); }
  // 2^n, shifting in steps below Go's 512-bit limit per shift.
  Value pow2(int n) {
    Value v = I(1);
    for (; n > 0; n -= 500)
      v = op(BinOp::Shl, v, I(std::min(n, 500)));
    return v;
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

TEST_F(IntTest, Normalisation) {
  EXPECT_TRUE(I(Value::kMaxSmall).isSmallInt());
  Value big = I(Value::kMaxSmall);
  big = op(BinOp::Add, big, I(1));
  ASSERT_FALSE(big.isSmallInt());
  EXPECT_EQ(big.as<BigInt>()->value.getBitWidth(), 64u);
  EXPECT_EQ(S(big), "4611686018427387904");
  // Back into the inline range: no BigInt survives.
  EXPECT_TRUE(op(BinOp::Sub, big, I(1)).isSmallInt());
  Value huge = L("100000000000000000000000000000");
  EXPECT_EQ(huge.as<BigInt>()->value.getBitWidth(), huge.as<BigInt>()->value.getSignificantBits());
  int64_t out = 0;
  EXPECT_FALSE(toInt64(huge, out));
  EXPECT_TRUE(toInt64(L("9223372036854775807"), out));
  EXPECT_EQ(out, INT64_MAX);
  EXPECT_EQ(toAPInt(I(-5)).getSExtValue(), -5);
}

TEST_F(IntTest, Literals) {
  EXPECT_EQ(S(L("0")), "0");
  EXPECT_EQ(S(L("0x1F")), "31");
  EXPECT_EQ(S(L("0XdeadBEEF")), "3735928559");
  EXPECT_EQ(S(L("0o755")), "493");
  EXPECT_EQ(S(L("0b101")), "5");
  EXPECT_EQ(S(L("123456789012345678901234567890")), "123456789012345678901234567890");
  EXPECT_EQ(S(L("0xffffffffffffffffffff")), "1208925819614629174706175");
  EXPECT_EQ(S(op(BinOp::Mul, L("0x1000000000000001"), L("0x1000000000000001"))),
            S(L("0x1000000000000002000000000000001")));
}

TEST_F(IntTest, ParseIntLikeGo) {
  EXPECT_EQ(S(P("100000000000000000000")), "100000000000000000000");
  EXPECT_EQ(S(P("-100000000000000000000")), "-100000000000000000000");
  EXPECT_EQ(S(P("0123")), "123");
  EXPECT_EQ(S(P("-0123")), "-123");
  EXPECT_EQ(err([&] { P("0x12"); }), "int: invalid literal with base 10: 0x12");
  EXPECT_EQ(err([&] { P("-0o123"); }), "int: invalid literal with base 10: -0o123");
  for (const char *zero : {"0", "00", "-0", "-00", "+0", "+00"})
    for (int base : {10, 8, 0})
      EXPECT_EQ(S(P(zero, base)), "0") << zero << " base " << base;
  EXPECT_EQ(S(P("11", 9)), "10");
  EXPECT_EQ(S(P("-10011", 2)), "-19");
  EXPECT_EQ(S(P("0123", 8)), "83");
  EXPECT_EQ(S(P("-00123", 8)), "-83");
  EXPECT_EQ(S(P("0o123", 8)), "83");
  EXPECT_EQ(S(P("-123", 7)), "-66");
  EXPECT_EQ(S(P("0x12", 16)), "18");
  EXPECT_EQ(S(P("-0x12", 16)), "-18");
  EXPECT_EQ(S(P("zz", 36)), "1295");
  EXPECT_EQ(S(P("0b0101", 0)), "5");
  EXPECT_EQ(S(P("0b00000", 0)), "0");
  EXPECT_EQ(err([&] { P("0x123", 8); }), "int: invalid literal with base 8: 0x123");
  EXPECT_EQ(err([&] { P("0o123", 16); }), "int: invalid literal with base 16: 0o123");
  EXPECT_EQ(err([&] { P("0x110", 2); }), "int: invalid literal with base 2: 0x110");
  EXPECT_EQ(S(P("+123", 0)), "123");
  EXPECT_EQ(S(P("-0x12", 0)), "-18");
  EXPECT_EQ(S(P("+0o123", 0)), "83");
  EXPECT_EQ(err([&] { P("0123", 0); }), "int: invalid literal with base 0: 0123");
  EXPECT_EQ(err([&] { P("-0123", 0); }), "int: invalid literal with base 0: -0123");
  EXPECT_EQ(err([&] { P("0Oxa", 8); }), "int: invalid literal with base 8: 0Oxa");
  EXPECT_EQ(err([&] { P("--4"); }), "int: invalid literal with base 10: --4");
  EXPECT_EQ(err([&] { P("++4"); }), "int: invalid literal with base 10: ++4");
  EXPECT_EQ(err([&] { P("+-4"); }), "int: invalid literal with base 10: +-4");
  EXPECT_EQ(err([&] { P("0x-4", 16); }), "int: invalid literal with base 16: 0x-4");
  // The base named is the one in effect when parsing failed.
  EXPECT_EQ(err([&] { P("12a", 0); }), "int: invalid literal with base 10: 12a");
  EXPECT_EQ(err([&] { P("0xg", 0); }), "int: invalid literal with base 16: 0xg");
  EXPECT_EQ(err([&] { P(""); }), "int: invalid literal with base 10: ");
  EXPECT_EQ(err([&] { P(" 12"); }), "int: invalid literal with base 10:  12");
  EXPECT_EQ(err([&] { P("1_000", 0); }), "int: invalid literal with base 10: 1_000");
  EXPECT_EQ(err([&] { P("1", 37); }), "int: base must be an integer >= 2 && <= 36");
  EXPECT_EQ(S(P("123456789abcdefghijklmnopqrstuvwxyz", 36)),
            "86846823611197163108337531226495015298096208677436155");
}

TEST_F(IntTest, Boundaries) {
  Value maxint64 = op(BinOp::Sub, op(BinOp::Shl, I(1), I(63)), I(1));
  Value minint64 = op(BinOp::Shl, I(-1), I(63));
  Value maxint32 = op(BinOp::Sub, op(BinOp::Shl, I(1), I(31)), I(1));
  Value minint32 = op(BinOp::Shl, I(-1), I(31));
  EXPECT_EQ(S(maxint64), "9223372036854775807");
  EXPECT_EQ(S(op(BinOp::Add, maxint64, I(1))), "9223372036854775808");
  EXPECT_EQ(S(minint64), "-9223372036854775808");
  EXPECT_EQ(S(op(BinOp::Sub, minint64, I(1))), "-9223372036854775809");
  EXPECT_EQ(S(op(BinOp::Mul, minint64, minint64)), "85070591730234615865843651857942052864");
  EXPECT_EQ(S(op(BinOp::Mul, minint32, minint32)), "4611686018427387904");
  EXPECT_EQ(S(op(BinOp::BitOr, minint32, maxint32)), "-1");
  EXPECT_EQ(S(op(BinOp::BitAnd, minint32, minint32)), "-2147483648");
  EXPECT_EQ(S(op(BinOp::BitXor, minint32, maxint32)), "-1");
  EXPECT_EQ(S(op(BinOp::FloorDiv, minint32, I(-1))), "2147483648");
  EXPECT_EQ(S(op(BinOp::FloorDiv, minint64, I(-1))), "9223372036854775808");
  EXPECT_EQ(S(op(BinOp::FloorDiv, I(Value::kMinSmall), I(-1))), "4611686018427387904");
  EXPECT_EQ(S(op(BinOp::Mul, L("1111111111111111"), L("1111111111111111"))),
            "1234567901234567654320987654321");
  EXPECT_EQ(S(op(BinOp::Mul, I(Value::kMinSmall), I(Value::kMinSmall))),
            "21267647932558653966460912964485513216");
  EXPECT_EQ(S(op(BinOp::Sub, I(0), op(BinOp::Shl, I(1), I(200)))),
            "-1606938044258990275541962092341162602522202993782792835301376");
}

// int.star's division() and remainder(), at three magnitudes so that the
// inline, mixed and BigInt paths are all exercised.
TEST_F(IntTest, FlooredDivisionAndModulo) {
  for (Value m : {I(1), I(2147483647), L("0x40000000000000000")}) {
    auto M = [&](int64_t k) { return op(BinOp::Mul, I(k), m); };
    auto div = [&](int64_t a, int64_t b) { return S(op(BinOp::FloorDiv, M(a), M(b))); };
    auto mod = [&](int64_t a, int64_t b) { return op(BinOp::Mod, M(a), M(b)); };
    EXPECT_EQ(div(100, 7), "14");
    EXPECT_EQ(div(100, -7), "-15");
    EXPECT_EQ(div(-100, 7), "-15");
    EXPECT_EQ(div(-100, -7), "14");
    EXPECT_EQ(div(98, 7), "14");
    EXPECT_EQ(div(98, -7), "-14");
    EXPECT_EQ(div(-98, 7), "-14");
    EXPECT_EQ(div(-98, -7), "14");
    EXPECT_EQ(S(mod(100, 7)), S(M(2)));
    EXPECT_EQ(S(mod(100, -7)), S(M(-5)));
    EXPECT_EQ(S(mod(-100, 7)), S(M(5)));
    EXPECT_EQ(S(mod(-100, -7)), S(M(-2)));
    for (auto [a, b] : {std::pair{98, 7}, {98, -7}, {-98, 7}, {-98, -7}})
      EXPECT_EQ(S(mod(a, b)), "0");
  }
  EXPECT_EQ(S(op(BinOp::FloorDiv, I(-7), I(2))), "-4");
  EXPECT_EQ(S(op(BinOp::Mod, I(-7), I(2))), "1");
  EXPECT_EQ(S(op(BinOp::Mod, I(7), I(-2))), "-1");
  EXPECT_EQ(err([&] { op(BinOp::FloorDiv, I(1), I(0)); }), "floored division by zero");
  EXPECT_EQ(err([&] { op(BinOp::Mod, L("100000000000000000000"), I(0)); }),
            "integer modulo by zero");
  EXPECT_EQ(err([&] { op(BinOp::Div, I(1), I(0)); }), "floating-point division by zero");
  // int / int is float division.
  Value q = op(BinOp::Div, I(5), I(4));
  ASSERT_TRUE(q.as<Float>());
  EXPECT_EQ(q.as<Float>()->value, 1.25);
  EXPECT_EQ(op(BinOp::Div, I(6), I(2)).as<Float>()->value, 3.0);
}

TEST_F(IntTest, Shifts) {
  EXPECT_EQ(S(op(BinOp::Shl, I(1), I(2))), "4");
  EXPECT_EQ(S(op(BinOp::Shr, I(2), I(1))), "1");
  EXPECT_EQ(S(op(BinOp::Shl, I(1), I(64))), "18446744073709551616");
  EXPECT_EQ(S(op(BinOp::Shl, I(-3), I(100))), "-3802951800684688204490109616128");
  EXPECT_EQ(S(op(BinOp::Shl, I(1), I(511))).size(), 154u);
  EXPECT_EQ(S(op(BinOp::Shr, P0("-18446744073709551616"), I(1000))), "-1");
  EXPECT_EQ(S(op(BinOp::Shr, L("18446744073709551616"), I(63))), "2");
  EXPECT_EQ(S(op(BinOp::Shr, I(-5), I(100))), "-1");
  EXPECT_EQ(S(op(BinOp::Shr, I(5), I(100))), "0");
  EXPECT_EQ(err([&] { op(BinOp::Shl, I(2), I(-1)); }), "negative shift count: -1");
  EXPECT_EQ(err([&] { op(BinOp::Shr, I(2), I(-1)); }), "negative shift count: -1");
  EXPECT_EQ(err([&] { op(BinOp::Shl, I(1), I(512)); }), "shift count too large: 512");
  EXPECT_EQ(err([&] { op(BinOp::Shl, I(1), makeFloat(heap, 1.0)); }), "got float, want int");
  EXPECT_EQ(err([&] { op(BinOp::Shr, I(1), L("0x10000000000")); }), "1099511627776 out of range");
  // Shifting a float is not a numeric operation.
  EXPECT_FALSE(op(BinOp::Shl, makeFloat(heap, 1.0), I(1)));
}

TEST_F(IntTest, BitwiseAndUnary) {
  EXPECT_EQ(S(op(BinOp::BitOr, I(1), I(2))), "3");
  EXPECT_EQ(S(op(BinOp::BitAnd, op(BinOp::BitOr, I(1), I(2)), op(BinOp::BitOr, I(2), I(4)))), "2");
  EXPECT_EQ(S(op(BinOp::BitXor, I(2), I(2))), "0");
  EXPECT_EQ(S(unary(t, UnOp::Invert, I(1))), "-2");
  EXPECT_EQ(S(unary(t, UnOp::Invert, I(0))), "-1");
  EXPECT_EQ(S(unary(t, UnOp::Invert, L("0x10000000000000000"))), "-18446744073709551617");
  EXPECT_EQ(S(unary(t, UnOp::Neg, I(Value::kMinSmall))), "4611686018427387904");
  EXPECT_EQ(S(unary(t, UnOp::Neg, P0("-9223372036854775808"))), "9223372036854775808");
  EXPECT_EQ(S(unary(t, UnOp::Neg, L("9223372036854775808"))), "-9223372036854775808");
  EXPECT_EQ(S(unary(t, UnOp::Plus, I(-3))), "-3");
  // Two's complement semantics across widths.
  EXPECT_EQ(S(op(BinOp::BitAnd, I(-1), L("0x1ffffffffffffffffffff"))), "2417851639229258349412351");
  EXPECT_EQ(S(op(BinOp::BitXor, P0("-0x10000000000000000"), I(-1))), "18446744073709551615");
}

TEST_F(IntTest, Formatting) {
  EXPECT_EQ(intToString(I(493), 8), "755");
  EXPECT_EQ(intToString(I(-95), 8), "-137");
  EXPECT_EQ(intToString(I(3735928559), 16), "deadbeef");
  EXPECT_EQ(intToString(I(-95), 16), "-5f");
  EXPECT_EQ(intToString(L("0xDEADBEEFDEADBEEFDEADBEEF"), 16), "deadbeefdeadbeefdeadbeef");
  EXPECT_EQ(intToString(P0("-0xDEADBEEFDEADBEEFDEADBEEF"), 16), "-deadbeefdeadbeefdeadbeef");
  EXPECT_EQ(intToString(L("0o7777777777777777777777777"), 8), "7777777777777777777777777");
}

TEST_F(IntTest, Comparison) {
  Value big = L("100000000000000000000");
  EXPECT_EQ(numericCompare(I(1), I(2)), -1);
  EXPECT_EQ(numericCompare(I(2), I(2)), 0);
  EXPECT_EQ(numericCompare(big, I(2)), 1);
  EXPECT_EQ(numericCompare(I(2), big), -1);
  EXPECT_EQ(numericCompare(unary(t, UnOp::Neg, big), I(-2)), -1);
  EXPECT_EQ(numericCompare(big, L("100000000000000000001")), -1);
  EXPECT_EQ(numericCompare(P0("-100000000000000000000000000"), P0("-100000000000000000001")), -1);
  EXPECT_EQ(numericCompare(big, L("100000000000000000000")), 0);
  EXPECT_EQ(numericHash(big), numericHash(L("100000000000000000000")));
}

TEST_F(IntTest, FloatConversion) {
  Value p53 = op(BinOp::Shl, I(1), I(53));
  auto f = [&](Value v) { return intToFloat(t, v); };
  EXPECT_EQ(f(op(BinOp::Add, p53, I(1))), f(p53)); // ties to even
  EXPECT_EQ(f(op(BinOp::Add, p53, I(3))), f(op(BinOp::Add, p53, I(4))));
  // Beyond 64 bits rounding must still be to nearest, ties to even.
  Value p100 = op(BinOp::Shl, I(1), I(100));
  auto plus = [&](Value v, int sh) { return op(BinOp::Add, v, op(BinOp::Shl, I(1), I(sh))); };
  EXPECT_EQ(f(op(BinOp::Add, plus(p100, 47), I(1))), std::ldexp(1.0, 100) + std::ldexp(1.0, 48));
  EXPECT_EQ(f(plus(p100, 47)), std::ldexp(1.0, 100));
  EXPECT_EQ(f(plus(plus(p100, 48), 47)), std::ldexp(1.0, 100) + std::ldexp(1.0, 49));
  EXPECT_EQ(f(unary(t, UnOp::Neg, op(BinOp::Add, plus(p100, 47), I(1)))),
            -(std::ldexp(1.0, 100) + std::ldexp(1.0, 48)));
  EXPECT_EQ(f(L("1229999999999999973814869011019624571608236033")), 1.23e45);
  Value p1024 = pow2(1024);
  EXPECT_EQ(err([&] { f(p1024); }), "int too large to convert to float");
  // The largest double, and the midpoint above it, which rounds to +inf.
  EXPECT_EQ(f(op(BinOp::Sub, p1024, pow2(971))), 1.7976931348623157e308);
  EXPECT_EQ(err([&] { f(op(BinOp::Sub, p1024, pow2(970))); }), "int too large to convert to float");

  auto toInt = [&](double d) { return S(floatToInt(t, d)); };
  EXPECT_EQ(toInt(100.1), "100");
  EXPECT_EQ(toInt(-99.9), "-99");
  EXPECT_EQ(toInt(-0.9), "0");
  EXPECT_EQ(toInt(1e100),
            "10000000000000000159028911097599180468360808563945281389781327557747838772"
            "170381060813469985856815104");
  EXPECT_EQ(toInt(1.23e32), "123000000000000004979083645550592");
  EXPECT_EQ(toInt(-1.23e32), "-123000000000000004979083645550592");
  EXPECT_EQ(toInt(9223372036854775808.0), "9223372036854775808");
  EXPECT_EQ(toInt(-9223372036854775808.0), "-9223372036854775808");
  EXPECT_EQ(err([&] { floatToInt(t, INFINITY); }), "cannot convert float infinity to integer");
  EXPECT_EQ(err([&] { floatToInt(t, -INFINITY); }), "cannot convert float infinity to integer");
  EXPECT_EQ(err([&] { floatToInt(t, NAN); }), "cannot convert float NaN to integer");
}

} // namespace
} // namespace fbc::star
