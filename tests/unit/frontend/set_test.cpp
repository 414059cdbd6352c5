// The set type as the Debian go.starlark.net snapshot defines it (one
// method, union; | & ^ operators; == and != only): exact results and Go's
// messages (ported from go.starlark.net/starlark/testdata/set.star).
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

TEST_F(SetTest, EqualityAndInclusion) {
  EXPECT_EQ(eval("set([1, 2, 3]) == set([3, 2, 1])"), "True");
  EXPECT_EQ(eval("set([1, 2]) != set([1, 3])"), "True");
  EXPECT_EQ(eval("set([1, 2]) == set([1, 2, 3])"), "False");
  // The ordered operators test inclusion (the recent Go).
  EXPECT_EQ(eval("[set([1, 2]) < set([1, 2, 3]), set([1, 2]) < set([1, 2])]"), "[True, False]");
  EXPECT_EQ(eval("[set([1, 2]) <= set([1, 2]), set([1, 4]) <= set([1, 2, 3])]"), "[True, False]");
  EXPECT_EQ(eval("[set([1, 2, 3]) > set([1, 2]), set([1, 2]) > set([1, 2])]"), "[True, False]");
  EXPECT_EQ(eval("[set([1, 2, 3]) >= set([1, 2]), set([1]) >= set([2])]"), "[True, False]");
  EXPECT_EQ(eval("set([1]) < [1]"), "error: set < list not implemented");
  EXPECT_EQ(eval("{set(): 1}"), "error: unhashable type: set");
}

TEST_F(SetTest, Operators) {
  EXPECT_EQ(eval("set([1, 2, 3]) | set([5, 1])"), "set([1, 2, 3, 5])");
  EXPECT_EQ(eval("set('ab'.elems()) & set('bc'.elems())"), "set([\"b\"])");
  // & keeps the left operand's order, whatever the sizes.
  EXPECT_EQ(eval("set([3, 2, 1]) & set([1, 2])"), "set([2, 1])");
  EXPECT_EQ(eval("set([1, 2, 3]) ^ set([4, 5, 3])"), "set([1, 2, 4, 5])");
  EXPECT_EQ(run("x = set([1, 2, 3])\nx &= set([2, 3])\nx |= set([1])\n_ = x"), "set([2, 3, 1])");
  EXPECT_EQ(eval("set([1, 2]) - set([1])"), "set([2])");
  EXPECT_EQ(eval("set([1]) + set([2])"), "error: unknown binary op: set + set");
  EXPECT_EQ(eval("set() | []"), "error: unknown binary op: set | list");
}

TEST_F(SetTest, Union) {
  EXPECT_EQ(eval("set([1, 2, 3]).union([5, 1])"), "set([1, 2, 3, 5])");
  EXPECT_EQ(eval("set([1, 2, 3]).union((6, 5, 4))"), "set([1, 2, 3, 6, 5, 4])");
  EXPECT_EQ(eval("set().union([])"), "set([])");
  EXPECT_EQ(eval("set([1]).union()"), "set([1])");
  EXPECT_EQ(run("s = set([1])\nu = s.union([2])\n_ = [s, u]"), "[set([1]), set([1, 2])]");
  EXPECT_EQ(eval("set([1]).union(1)"), "error: union: argument #1 is not iterable: int");
  EXPECT_EQ(eval("set([1]).union([2], 3)"), "error: union: argument #2 is not iterable: int");
  EXPECT_EQ(eval("set([1]).union([1, 2, {}])"), "error: union: unhashable type: dict");
  EXPECT_EQ(eval("set([1]).union([1], [2])"), "set([1, 2])");
  EXPECT_EQ(eval("set([1]).union(x=[1])"), "error: union: does not accept keyword arguments");
  // Frozen sets still make new sets.
  EXPECT_EQ(run("s = freeze(set([1]))\n_ = s.union([2])"), "set([1, 2])");
}

TEST_F(SetTest, Mutation) {
  EXPECT_EQ(run("s = set([1, 2])\ns.add(3)\ns.add(1)\n_ = s"), "set([1, 2, 3])");
  EXPECT_EQ(run("s = set([1, 2, 3])\ns.remove(2)\ns.discard(7)\n_ = s"), "set([1, 3])");
  EXPECT_EQ(run("s = set([1])\ns.remove(2)"), "error: remove: missing key");
  EXPECT_EQ(run("s = set([1, 2])\n_ = [s.pop(), s.pop(), s]"), "[1, 2, set([])]");
  EXPECT_EQ(eval("set().pop()"), "error: pop: empty set");
  EXPECT_EQ(run("s = set([1, 2])\ns.update([3], (4, 1))\n_ = s"), "set([1, 2, 3, 4])");
  EXPECT_EQ(run("s = set([1])\ns.update(9)"), "error: update: argument #1 is not iterable: int");
  EXPECT_EQ(run("s = set([1])\ns.update(gee = [3])"),
            "error: update: does not accept keyword arguments");
  EXPECT_EQ(run("s = set([1])\ns.clear()\n_ = s"), "set([])");
  // A frozen set refuses even a change that would do nothing.
  EXPECT_EQ(run("s = freeze(set([1]))\ns.add(1)"),
            "error: add: cannot insert into frozen hash table");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.discard(2)"),
            "error: discard: cannot delete from frozen hash table");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.update()"),
            "error: update: cannot insert into frozen hash table");
  EXPECT_EQ(run("s = freeze(set())\ns.clear()\n_ = s"), "set([])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.clear()"), "error: clear: cannot clear frozen hash table");
  EXPECT_EQ(run("s = set([1])\ndef f():\n  for x in s:\n    s.add(2)\nf()"),
            "error: add: cannot insert into hash table during iteration");
  EXPECT_EQ(run("s = set()\ns.add([1])"), "error: add: unhashable type: list");
}

TEST_F(SetTest, Queries) {
  EXPECT_EQ(eval("set([1, 2, 3]).intersection((3, 2))"), "set([2, 3])");
  EXPECT_EQ(eval("set([1, 2, 3]).difference([1])"), "set([2, 3])");
  // One iterable each, as in the main line of go.starlark.net.
  EXPECT_EQ(eval("set([1, 2, 3]).difference([1], [3])"),
            "error: difference: got 2 arguments, want 1");
  EXPECT_EQ(eval("set([1, 2, 3]).symmetric_difference({0: 0, 1: 1})"), "set([2, 3, 0])");
  EXPECT_EQ(eval("set([1, 2]).symmetric_difference()"),
            "error: symmetric_difference: got 0 arguments, want 1");
  EXPECT_EQ(eval("[set([1]).issubset([1, 2]), set([1, 2]).issuperset((2,))]"), "[True, True]");
  EXPECT_EQ(eval("set([1]).issubset(2)"),
            "error: issubset: for parameter 1: got int, want iterable");
}

TEST_F(SetTest, MethodNames) {
  EXPECT_EQ(eval("dir(set())"),
            "[\"add\", \"clear\", \"difference\", \"discard\", \"intersection\", "
            "\"issubset\", \"issuperset\", \"pop\", \"remove\", \"symmetric_difference\", "
            "\"union\", \"update\"]");
  // The methods a development branch of go.starlark.net had and its main
  // line does not.
  EXPECT_EQ(eval("set().isdisjoint([])"), "error: set has no .isdisjoint field or method");
  EXPECT_EQ(eval("[hasattr(set(), 'union'), hasattr(set(), 'onion')]"), "[True, False]");
  EXPECT_EQ(eval("str(getattr(set(), 'union'))"), "\"<built-in method union of set value>\"");
  EXPECT_EQ(run("s = set()\ns.addd(1)"),
            "error: set has no .addd field or method (did you mean .add?)");
}

} // namespace
} // namespace fbc::star
