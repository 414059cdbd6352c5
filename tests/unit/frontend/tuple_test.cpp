// The tuple type: exact results and Go's messages (ported from
// go.starlark.net/starlark/testdata/tuple.star).
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
class TupleTest : public ::testing::Test {
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

TEST_F(TupleTest, ReprEqualityTruth) {
  EXPECT_EQ(eval("()"), "()");
  EXPECT_EQ(eval("(1,)"), "(1,)");
  EXPECT_EQ(eval("(1, \"a\", [2])"), "(1, \"a\", [2])");
  EXPECT_EQ(eval("(1) == (1,)"), "False");
  EXPECT_EQ(eval("(1, 2, 3) != (1, 2, 4)"), "True");
  EXPECT_EQ(eval("bool((False,))"), "True");
  EXPECT_EQ(eval("bool(())"), "False");
  EXPECT_EQ(eval("type(())"), "\"tuple\"");
}

TEST_F(TupleTest, Ordering) {
  EXPECT_EQ(eval("(1, 2) < (1, 3)"), "True");
  EXPECT_EQ(eval("(1, 2) < (1, 2)"), "False");
  EXPECT_EQ(eval("(1, 2) <= (1, 2)"), "True");
  EXPECT_EQ(eval("(1,) < (1, 0)"), "True");
  EXPECT_EQ(eval("(2,) > (1, 5)"), "True");
  EXPECT_EQ(eval("('a', 1) < ('a', 'b')"), "error: int < string not implemented");
  EXPECT_EQ(eval("sorted([(2, 'b'), (1, 'z'), (2, 'a')])"), "[(1, \"z\"), (2, \"a\"), (2, \"b\")]");
}

TEST_F(TupleTest, Indexing) {
  EXPECT_EQ(eval("('a', 'b')[1]"), "\"b\"");
  EXPECT_EQ(eval("('a', 'b')[-2]"), "\"a\"");
  EXPECT_EQ(eval("('a', 'b')[2]"), "error: tuple index 2 out of range [-2:1]");
  EXPECT_EQ(eval("()[0]"), "error: index 0 out of range: empty tuple");
  EXPECT_EQ(eval("(1,)['x']"), "error: tuple index: got string, want int");
  EXPECT_EQ(run("t = (1,)\nt[0] = 2"), "error: tuple value does not support item assignment");
}

TEST_F(TupleTest, Constructor) {
  EXPECT_EQ(eval("tuple()"), "()");
  EXPECT_EQ(eval("tuple('abc'.elems())"), "(\"a\", \"b\", \"c\")");
  EXPECT_EQ(eval("tuple(['a', 'b', 'c'])"), "(\"a\", \"b\", \"c\")");
  EXPECT_EQ(eval("tuple([1])"), "(1,)");
  EXPECT_EQ(eval("tuple({1: 2, 3: 4})"), "(1, 3)");
  EXPECT_EQ(eval("tuple(1)"), "error: tuple: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("tuple(1, 2)"), "error: tuple: got 2 arguments, want at most 1");
}

TEST_F(TupleTest, Hashing) {
  EXPECT_EQ(eval("{(1, 'a'): 1, (1, 'a'): 2}"), "error: duplicate key: (1, \"a\")");
  EXPECT_EQ(run("d = {}\nd[(1, 2)] = 'x'\nd[(1, 2.0)] = 'y'\n_ = d"), "{(1, 2): \"y\"}");
  EXPECT_EQ(eval("{(1, [2]): 3}"), "error: unhashable type: list");
  EXPECT_EQ(eval("hash((1, 2)) if False else len({(): 1, (1,): 2, (1, 2): 3})"), "3");
}

TEST_F(TupleTest, FreezeReachesElements) {
  EXPECT_EQ(run("t = ([1], {})\nfreeze(t)\nt[0].append(2)"),
            "error: append: cannot append to frozen list");
  EXPECT_EQ(run("t = ([1], {})\nfreeze(t)\nt[1]['a'] = 2"),
            "error: cannot insert into frozen hash table");
}

} // namespace
} // namespace fbc::star
