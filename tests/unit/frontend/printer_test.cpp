// str() and repr(): Go-style string quoting (strconv.Quote), bytes
// literals, small ints, and the cycle guard containers use.
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fbc::star {
namespace {

class PrinterTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};
  Value S(std::string_view s) { return makeString(heap, s); }
  Value list(std::vector<Value> v) { return Value::object(heap.make<List>(std::move(v))); }
};

TEST_F(PrinterTest, SmallInts) {
  EXPECT_EQ(repr(Value::small(0)), "0");
  EXPECT_EQ(repr(Value::small(-42)), "-42");
  EXPECT_EQ(repr(Value::small(Value::kMaxSmall)), "4611686018427387903");
  EXPECT_EQ(str(Value::small(Value::kMinSmall)), "-4611686018427387904");
}

TEST_F(PrinterTest, StringQuoting) {
  EXPECT_EQ(repr(S("hello")), "\"hello\"");
  EXPECT_EQ(repr(S("it's")), "\"it's\"");
  EXPECT_EQ(repr(S("it\"s")), "\"it\\\"s\"");
  EXPECT_EQ(repr(S(std::string_view("\a\b\f\n\r\t\v\0\x7f\"\\'", 12))),
            R"("\a\b\f\n\r\t\v\x00\x7f\"\\'")");
  // Non-printable code points use \u / \U; printable ones stay as UTF-8;
  // invalid bytes (including encoded surrogates) use \x.
  EXPECT_EQ(repr(S("\u0085\u200b\ue000😿\U000e0001\xff\u00a0\u00adé")),
            R"("\u0085\u200b\ue000😿\U000e0001\xff\u00a0\u00adé")");
  EXPECT_EQ(repr(S("\xed\xa0\x80\ufffd")), "\"\\xed\\xa0\\x80\ufffd\"");
  EXPECT_EQ(repr(S("Hello, 世界!")), "\"Hello, 世界!\"");
}

TEST_F(PrinterTest, StrWritesTopLevelStringsRaw) {
  EXPECT_EQ(str(S("a\nb")), "a\nb");
  EXPECT_EQ(str(list({Value::small(1), S("a")})), "[1, \"a\"]");
  Printer p;
  p.str(S("x"));
  p.write(' ');
  p.repr(S("x"));
  p.write(std::string_view("!"));
  EXPECT_EQ(p.out, "x \"x\"!");
}

TEST_F(PrinterTest, OtherValues) {
  EXPECT_EQ(repr(none()), "None");
  EXPECT_EQ(repr(trueValue()), "True");
  EXPECT_EQ(repr(makeFloat(heap, 1e6)), "1e+06");
  EXPECT_EQ(repr(Value()), "<nil>");
  EXPECT_EQ(repr(makeBytes(heap, "a\"\xff")), "b\"a\\\"\\xff\"");
}

TEST_F(PrinterTest, EnterDetectsCycles) {
  Printer p;
  List *a = heap.make<List>();
  List *b = heap.make<List>();
  EXPECT_TRUE(p.enter(a));
  EXPECT_TRUE(p.enter(b));
  EXPECT_FALSE(p.enter(a));
  p.leave();
  p.leave();
  EXPECT_TRUE(p.enter(a));
  p.leave();

  // A list that contains itself prints as [1, [...], 3].
  List *l = heap.make<List>();
  l->elems = {Value::small(1), Value::object(l), Value::small(3)};
  EXPECT_EQ(repr(Value::object(l)), "[1, [...], 3]");
}

TEST_F(PrinterTest, QuoteRune) {
  auto q = [](char32_t c) {
    std::string out;
    utf8::appendQuotedRune(out, c);
    return out;
  };
  EXPECT_EQ(q('a'), "'a'");
  EXPECT_EQ(q('\''), "'\\''");
  EXPECT_EQ(q('"'), "'\"'");
  EXPECT_EQ(q('\\'), "'\\\\'");
  EXPECT_EQ(q(0), "'\\x00'");
  EXPECT_EQ(q('\n'), "'\\n'");
  EXPECT_EQ(q(0x80), "'\\u0080'");
  EXPECT_EQ(q(0xE9), "'é'");
  EXPECT_EQ(q(0x1F63F), "'😿'");
}

} // namespace
} // namespace fbc::star
