// The set type and newer Go's full set API: exact results and Go's
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

TEST_F(SetTest, EqualityAndInclusion) {
  EXPECT_EQ(eval("set([1, 2, 3]) == set([3, 2, 1])"), "True");
  EXPECT_EQ(eval("set([1, 2]) != set([1, 3])"), "True");
  EXPECT_EQ(eval("set([1, 2]) < set([1, 2, 3])"), "True");
  EXPECT_EQ(eval("set([1, 2, 3]) < set([1, 2, 3])"), "False");
  EXPECT_EQ(eval("set([1, 2, 3]) <= set([1, 2, 3])"), "True");
  EXPECT_EQ(eval("set([1, 2, 3]) > set([1, 2])"), "True");
  EXPECT_EQ(eval("set([1, 2, 3]) <= set([1, 2, 4])"), "False");
  EXPECT_EQ(eval("{set(): 1}"), "error: unhashable type: set");
}

// Sets neither of which contains the other are unordered: Set::compare
// reports 2, like numericCompare's "unordered", rather than -1, 0 or 1.
TEST_F(SetTest, IncomparableSets) {
  Heap heap;
  Thread t(heap);
  Set *a = heap.make<Set>(), *b = heap.make<Set>();
  a->insert(t, Value::small(1));
  a->insert(t, Value::small(2));
  b->insert(t, Value::small(1));
  b->insert(t, Value::small(3));
  EXPECT_EQ(a->compare(t, *b, 0), 2);
  EXPECT_EQ(b->compare(t, *a, 0), 2);
  b->insert(t, Value::small(2));
  EXPECT_EQ(a->compare(t, *b, 0), -1);
  EXPECT_EQ(b->compare(t, *a, 0), 1);
  EXPECT_EQ(eval("set([1, 2, 3]) < set([1, 2, 4])"), "False");
  EXPECT_EQ(eval("set([1, 2, 3]) <= set([1, 2, 4])"), "False");
}

TEST_F(SetTest, AddRemoveDiscard) {
  EXPECT_EQ(run("s = set([1, 2, 3])\ns.add(4)\ns.add(1)\n_ = s"), "set([1, 2, 3, 4])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.add(1)\n_ = s"), "set([1])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.add(5)"),
            "error: add: cannot insert into frozen hash table");
  EXPECT_EQ(run("s = set([1, 2, 3])\ns.remove(3)\n_ = s"), "set([1, 2])");
  EXPECT_EQ(eval("set([1]).remove(3)"), "error: remove: missing key");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.remove(3)"),
            "error: remove: cannot delete from frozen hash table");
  EXPECT_EQ(run("s = set([1, 2, 3])\ns.discard(3)\ns.discard(3)\n_ = s"), "set([1, 2])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.discard(3)\n_ = s"), "set([1])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.discard(1)"),
            "error: discard: cannot delete from frozen hash table");
  EXPECT_EQ(run("s = set([1, 2])\nfor x in s:\n  s.add(3)"),
            "error: add: cannot insert into hash table during iteration");
  EXPECT_EQ(eval("set().add([])"), "error: add: unhashable type: list");
}

TEST_F(SetTest, PopAndClear) {
  EXPECT_EQ(run("s = set([1, 2, 3])\n_ = [s.pop(), s.pop(), s.pop()]"), "[1, 2, 3]");
  EXPECT_EQ(eval("set().pop()"), "error: pop: empty set");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.pop()"),
            "error: pop: cannot delete from frozen hash table");
  EXPECT_EQ(run("s = set([1, 2])\ns.clear()\n_ = s"), "set([])");
  EXPECT_EQ(run("s = freeze(set())\n_ = s.clear()"), "None");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.clear()"), "error: clear: cannot clear frozen hash table");
}

TEST_F(SetTest, Algebra) {
  EXPECT_EQ(eval("set([1, 2, 3]).union([5, 1], (6,))"), "set([1, 2, 3, 5, 6])");
  EXPECT_EQ(eval("set().union([])"), "set([])");
  EXPECT_EQ(eval("set([1]).union(1)"), "error: union: argument #1 is not iterable: int");
  EXPECT_EQ(eval("set([1]).union([1, 2, {}])"), "error: union: unhashable type: dict");
  EXPECT_EQ(eval("set([1]).union(x=[1])"), "error: union: does not accept keyword arguments");
  EXPECT_EQ(eval("set('ab'.elems()).intersection('bc'.elems())"), "set([\"b\"])");
  EXPECT_EQ(eval("set([1, 2, 3, 4]).difference([1, 2])"), "set([3, 4])");
  EXPECT_EQ(eval("set([1, 2, 3, 4]).difference(set([1, 2, 3, 4]))"), "set([])");
  EXPECT_EQ(eval("set([1, 2, 3, 4]).symmetric_difference([3, 4, 5, 6])"), "set([1, 2, 5, 6])");
  EXPECT_EQ(eval("set([1, 2, 3, 4]).symmetric_difference(set([]))"), "set([1, 2, 3, 4])");
  EXPECT_EQ(eval("[set([1, 2]).issubset([1, 2, 3]), set([1, 2, 3]).issubset(set([1, 2, 4]))]"),
            "[True, False]");
  EXPECT_EQ(eval("[set([1, 2, 3]).issuperset([1, 2]), set([1, 2, 3]).issuperset([1, 4])]"),
            "[True, False]");
  EXPECT_EQ(eval("set([1]).difference()"), "error: difference: got 0 arguments, want 1");
  EXPECT_EQ(eval("set([1]).issubset(1)"), "error: issubset: for parameter 1: got int, want "
                                          "iterable");
  EXPECT_EQ(run("s = set([1])\ns.update([2], [3, 1])\n_ = s"), "set([1, 2, 3])");
  EXPECT_EQ(run("s = freeze(set([1]))\ns.update([2])"),
            "error: update: cannot insert into frozen hash table");
}

TEST_F(SetTest, MethodNames) {
  EXPECT_EQ(eval("dir(set())"), "[\"add\", \"clear\", \"difference\", \"discard\", "
                                "\"intersection\", \"issubset\", \"issuperset\", \"pop\", "
                                "\"remove\", \"symmetric_difference\", \"union\", \"update\"]");
  EXPECT_EQ(eval("str(getattr(set(), 'union'))"), "\"<built-in method union of set value>\"");
}

} // namespace
} // namespace fbc::star
