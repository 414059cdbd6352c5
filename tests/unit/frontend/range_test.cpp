// The range type and builtin: exact results and Go's messages (ported from
// go.starlark.net/starlark/testdata/builtins.star).
#include "frontend/eval/interpreter.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/struct.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace fbc::star {
namespace {

Value freezeFn(Thread &, Value, const Args &args) {
  args.positional[0].obj()->freeze();
  return args.positional[0];
}

// Runs a program with every dialect option on, plus freeze() and struct(),
// and returns repr(_) or "error: <message>".
class RangeTest : public ::testing::Test {
protected:
  frontend::SourceManager sources;
  Builtin freeze{"freeze", freezeFn};
  int files = 0;

  std::string run(const std::string &program) {
    syntax::Dialect all{true, true, true, true, false};
    Interpreter in(sources, all);
    in.predeclared["freeze"] = Value::object(&freeze);
    in.predeclared["struct"] = makeStructBuiltin();
    frontend::DiagnosticList diags;
    auto *file = sources.add(std::to_string(files++).append(".star"), program + "\n");
    Interpreter::Result r = in.execFile(*file, diags);
    std::string out; // appended, not "literal" + string: GCC 12 -Wrestrict false positive
    if (r.staticErrors)
      out.append("static error: ").append(diags.all().front().message);
    else if (r.error)
      out.append("error: ").append(r.error->message());
    else
      out = repr(r.module->get("_"));
    return out;
  }
  std::string eval(const std::string &expr) { return run("_ = " + expr); }
};

TEST_F(RangeTest, Repr) {
  EXPECT_EQ(eval("range(10)"), "range(10)");
  EXPECT_EQ(eval("range(0, 10, 1)"), "range(10)");
  EXPECT_EQ(eval("range(1, 10)"), "range(1, 10)");
  EXPECT_EQ(eval("range(0, 10, -1)"), "range(0, 10, -1)");
  EXPECT_EQ(eval("type(range(1))"), "\"range\"");
}

TEST_F(RangeTest, Elements) {
  EXPECT_EQ(eval("list(range(5))"), "[0, 1, 2, 3, 4]");
  EXPECT_EQ(eval("list(range(-5))"), "[]");
  EXPECT_EQ(eval("list(range(2, 5))"), "[2, 3, 4]");
  EXPECT_EQ(eval("list(range(5, 2))"), "[]");
  EXPECT_EQ(eval("list(range(-5, -2))"), "[-5, -4, -3]");
  EXPECT_EQ(eval("list(range(2, 10, 3))"), "[2, 5, 8]");
  EXPECT_EQ(eval("list(range(10, 2, -3))"), "[10, 7, 4]");
  EXPECT_EQ(eval("list(range(-2, -10, -3))"), "[-2, -5, -8]");
  EXPECT_EQ(eval("list(range(-10, -2, 3))"), "[-10, -7, -4]");
  EXPECT_EQ(eval("[x * x for x in range(5)]"), "[0, 1, 4, 9, 16]");
  EXPECT_EQ(eval("list(range(9223372036854775805, 9223372036854775807))"),
            "[9223372036854775805, 9223372036854775806]");
}

TEST_F(RangeTest, LengthTruthIndex) {
  EXPECT_EQ(eval("len(range(0x7fffffff))"), "2147483647");
  EXPECT_EQ(eval("len(range(-9223372036854775807, 9223372036854775807, 2))"),
            "9223372036854775807");
  EXPECT_EQ(eval("bool(range(1, 2))"), "True");
  EXPECT_EQ(eval("bool(range(2, 1))"), "False");
  EXPECT_EQ(eval("range(10, 0, -2)[1]"), "8");
  EXPECT_EQ(eval("range(10, 0, -2)[-1]"), "2");
  EXPECT_EQ(eval("range(3)[3]"), "error: range index 3 out of range [-3:2]");
  EXPECT_EQ(eval("range(3)[1.0]"), "error: range index: got float, want int");
  EXPECT_EQ(eval("range(0, 0, 2)[:][0]"), "error: index 0 out of range: empty range");
}

TEST_F(RangeTest, Equality) {
  EXPECT_EQ(eval("range(0, 5, 10) == range(0, 5, 11)"), "True");
  EXPECT_EQ(eval("range(0) == range(2, 1, 3)"), "True");
  EXPECT_EQ(eval("range(0, 3, 2) == range(0, 4, 2)"), "True");
  EXPECT_EQ(eval("range(1, 10) == range(2, 10)"), "False");
  EXPECT_EQ(eval("range(0) < range(0)"), "error: range < range not implemented");
  EXPECT_EQ(eval("{range(10): 10}"), "error: unhashable: range");
}

TEST_F(RangeTest, ArgumentErrors) {
  EXPECT_EQ(eval("range()"), "error: range: got 0 arguments, want at least 1");
  EXPECT_EQ(eval("range(1, 2, 3, 4)"), "error: range: got 4 arguments, want at most 3");
  EXPECT_EQ(eval("range(1, 2, 0)"), "error: range: step argument must not be zero");
  EXPECT_EQ(eval("range('a')"), "error: range: for parameter 1: got string, want int");
  EXPECT_EQ(eval("range(1<<64)"), "error: range: for parameter 1: 18446744073709551616 out of "
                                  "range (want value in signed 64-bit range)");
  EXPECT_EQ(eval("range(x=1)"), "error: range: unexpected keyword arguments");
}

} // namespace
} // namespace fbc::star
