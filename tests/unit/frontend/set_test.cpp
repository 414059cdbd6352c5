// The set type as the Debian go.starlark.net snapshot defines it (one
// method, union; | & ^ operators; == and != only): exact results and Go's
// messages (ported from go.starlark.net/starlark/testdata/set.star).
#include "frontend/eval/interpreter.h"
#include "frontend/eval/objects.h"
#include "frontend/eval/printer.h"
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
class SetTest : public ::testing::Test {
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

TEST_F(SetTest, ConstructorAndRepr) {
  EXPECT_EQ(eval("set()"), "set([])");
  EXPECT_EQ(eval("set([1, 3, 2, 3])"), "set([1, 3, 2])");
  EXPECT_EQ(eval("list(set('hello'.elems()))"), "[\"h\", \"e\", \"l\", \"o\"]");
  EXPECT_EQ(eval("set(range(3))"), "set([0, 1, 2])");
  EXPECT_EQ(eval("set(1)"), "error: set: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("set(1, 2, 3)"), "error: set: got 3 arguments, want at most 1");
  EXPECT_EQ(eval("set([1, 2, {}])"), "error: set: unhashable type: dict");
  EXPECT_EQ(eval("type(set())"), "\"set\"");
  EXPECT_EQ(eval("[bool(set()), bool(set([False]))]"), "[False, True]");
}

TEST_F(SetTest, EqualityButNoOrdering) {
  EXPECT_EQ(eval("set([1, 2, 3]) == set([3, 2, 1])"), "True");
  EXPECT_EQ(eval("set([1, 2]) != set([1, 3])"), "True");
  EXPECT_EQ(eval("set([1, 2]) == set([1, 2, 3])"), "False");
  EXPECT_EQ(eval("set([1, 2]) < set([1, 2, 3])"), "error: set < set not implemented");
  EXPECT_EQ(eval("set([1, 2, 3]) >= set([1, 2])"), "error: set >= set not implemented");
  EXPECT_EQ(eval("sorted([set([2]), set([1])])"), "error: set < set not implemented");
  EXPECT_EQ(eval("{set(): 1}"), "error: unhashable type: set");
}

TEST_F(SetTest, Operators) {
  EXPECT_EQ(eval("set([1, 2, 3]) | set([5, 1])"), "set([1, 2, 3, 5])");
  EXPECT_EQ(eval("set('ab'.elems()) & set('bc'.elems())"), "set([\"b\"])");
  EXPECT_EQ(eval("set([1, 2, 3]) ^ set([4, 5, 3])"), "set([1, 2, 4, 5])");
  EXPECT_EQ(run("x = set([1, 2, 3])\nx &= set([2, 3])\nx |= set([1])\n_ = x"), "set([2, 3, 1])");
  EXPECT_EQ(eval("set([1, 2]) - set([1])"), "error: unknown binary op: set - set");
  EXPECT_EQ(eval("set([1]) + set([2])"), "error: unknown binary op: set + set");
  EXPECT_EQ(eval("set() | []"), "error: unknown binary op: set | list");
}

TEST_F(SetTest, Union) {
  EXPECT_EQ(eval("set([1, 2, 3]).union([5, 1])"), "set([1, 2, 3, 5])");
  EXPECT_EQ(eval("set([1, 2, 3]).union((6, 5, 4))"), "set([1, 2, 3, 6, 5, 4])");
  EXPECT_EQ(eval("set().union([])"), "set([])");
  EXPECT_EQ(run("s = set([1])\nu = s.union([2])\n_ = [s, u]"), "[set([1]), set([1, 2])]");
  EXPECT_EQ(eval("set([1]).union(1)"), "error: union: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("set([1]).union([1, 2, {}])"), "error: union: unhashable type: dict");
  EXPECT_EQ(eval("set([1]).union([1], [2])"), "error: union: got 2 arguments, want at most 1");
  EXPECT_EQ(eval("set([1]).union(x=[1])"), "error: union: unexpected keyword arguments");
  // Frozen sets still make new sets.
  EXPECT_EQ(run("s = freeze(set([1]))\n_ = s.union([2])"), "set([1, 2])");
}

TEST_F(SetTest, MethodNames) {
  EXPECT_EQ(eval("dir(set())"), "[\"union\"]");
  EXPECT_EQ(eval("[hasattr(set(), 'union'), hasattr(set(), 'add')]"), "[True, False]");
  EXPECT_EQ(eval("str(getattr(set(), 'union'))"), "\"<built-in method union of set value>\"");
  EXPECT_EQ(run("s = set()\ns.add(1)"), "error: set has no .add field or method");
}

} // namespace
} // namespace fbc::star
