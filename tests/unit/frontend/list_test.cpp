// The list type and its methods: exact results and Go's error messages
// (ported from go.starlark.net/starlark/testdata/list.star and library.go).
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
class ListTest : public ::testing::Test {
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

TEST_F(ListTest, ReprAndTruth) {
  EXPECT_EQ(eval("[]"), "[]");
  EXPECT_EQ(eval("[1, \"a\", None, (2,)]"), "[1, \"a\", None, (2,)]");
  EXPECT_EQ(eval("bool([0])"), "True");
  EXPECT_EQ(eval("bool([])"), "False");
  EXPECT_EQ(run("x = [1, 2, 3]\nx[1] = x\n_ = str(x)"), "\"[1, [...], 3]\"");
  EXPECT_EQ(eval("type([])"), "\"list\"");
}

TEST_F(ListTest, Indexing) {
  EXPECT_EQ(run("abc = list('abc'.elems())\n_ = [abc[-3], abc[-1], abc[0], abc[2]]"),
            "[\"a\", \"c\", \"a\", \"c\"]");
  EXPECT_EQ(eval("['a', 'b', 'c'][-4]"), "error: list index -4 out of range [-3:2]");
  EXPECT_EQ(eval("['a', 'b', 'c'][3]"), "error: list index 3 out of range [-3:2]");
  EXPECT_EQ(eval("[][0]"), "error: index 0 out of range: empty list");
  EXPECT_EQ(eval("[1][1.0]"), "error: list index: got float, want int");
  EXPECT_EQ(eval("[1][1 << 40]"), "error: list index: 1099511627776 out of range");
}

TEST_F(ListTest, SetIndex) {
  EXPECT_EQ(run("x3 = [0, 1, 2]\nx3[1] = 2\nx3[2] += 3\n_ = x3"), "[0, 2, 5]");
  EXPECT_EQ(run("x = [0]\nx[3] = 4"), "error: list index 3 out of range [-1:0]");
  EXPECT_EQ(run("x = [0]\nx['a'] = 4"), "error: got string, want int");
  EXPECT_EQ(run("x = freeze([0])\nx[0] = 1"), "error: cannot assign to element of frozen list");
  EXPECT_EQ(run("x = [0, 1, 2]\nfor i in x:\n  x[i] = 1"),
            "error: cannot assign to element of list during iteration");
}

TEST_F(ListTest, EqualityAndOrder) {
  EXPECT_EQ(eval("[1, 2] == [1, 2]"), "True");
  EXPECT_EQ(eval("[1, 2, 3] == [1, 2, 4]"), "False");
  EXPECT_EQ(eval("[1, 2] == (1, 2)"), "False");
  EXPECT_EQ(eval("[1, 2] < [1, 3]"), "True");
  EXPECT_EQ(eval("[1, 2] < [1, 2, 0]"), "True");
  EXPECT_EQ(eval("[2] > [1, 9]"), "True");
  EXPECT_EQ(eval("[1.0] == [1]"), "True");
  EXPECT_EQ(eval("[1] < ['a']"), "error: int < string not implemented");
  EXPECT_EQ(run("x = []\nx.append(x)\n_ = x == x"),
            "error: comparison exceeded maximum recursion depth");
}

TEST_F(ListTest, AppendClearExtend) {
  EXPECT_EQ(run("x = [1, 2, 3]\nx.append(4)\nx.append('abc')\n_ = x"), "[1, 2, 3, 4, \"abc\"]");
  EXPECT_EQ(run("x = [1, 2, 3]\nx.extend('abc'.elems())\nx.extend((True, False))\n_ = x"),
            "[1, 2, 3, \"a\", \"b\", \"c\", True, False]");
  EXPECT_EQ(run("x = [1, 2]\nx.extend(x)\n_ = x"), "[1, 2, 1, 2]");
  EXPECT_EQ(run("x = [1, 2]\nx.clear()\n_ = x"), "[]");
  EXPECT_EQ(run("x = freeze([1])\nx.clear()"), "error: clear: cannot clear frozen list");
  EXPECT_EQ(run("x = freeze([1])\nx.append(2)"), "error: append: cannot append to frozen list");
  EXPECT_EQ(eval("[].extend(1)"), "error: extend: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("[].append()"), "error: append: got 0 arguments, want 1");
  EXPECT_EQ(eval("[].append(1, 2)"), "error: append: got 2 arguments, want 1");
  EXPECT_EQ(eval("[].append(x=1)"), "error: append: unexpected keyword arguments");
}

TEST_F(ListTest, MutationDuringIteration) {
  EXPECT_EQ(run("x = [0, 1, 2]\nfor e in x:\n  x.remove(e)"),
            "error: remove: cannot remove from list during iteration");
  EXPECT_EQ(run("x = [0, 1, 2]\nfor e in x:\n  x.append(3)"),
            "error: append: cannot append to list during iteration");
  EXPECT_EQ(run("x = [0, 1, 2]\nfor e in x:\n  x.extend([3, 4])"),
            "error: extend: cannot extend list during iteration");
  EXPECT_EQ(run("def f(x):\n  x.append(4)\nx = [1, 2, 3]\n_ = [f(x) for e in x]"),
            "error: append: cannot append to list during iteration");
  // The lock is released when the loop ends, even by break or an error.
  EXPECT_EQ(run("x = [1, 2]\nfor e in x:\n  break\nx.append(3)\n_ = x"), "[1, 2, 3]");
  EXPECT_EQ(run("x = [1, 2]\n_ = sorted(x)\nx.append(0)\n_ = x"), "[1, 2, 0]");
}

TEST_F(ListTest, Insert) {
  const char *insertAt = "def insert_at(i):\n  x = list(range(3))\n  x.insert(i, 42)\n  return x\n";
  auto at = [&](int i) {
    return run(std::string(insertAt) + "_ = insert_at(" + std::to_string(i) + ")");
  };
  EXPECT_EQ(at(-99), "[42, 0, 1, 2]");
  EXPECT_EQ(at(-2), "[0, 42, 1, 2]");
  EXPECT_EQ(at(-1), "[0, 1, 42, 2]");
  EXPECT_EQ(at(0), "[42, 0, 1, 2]");
  EXPECT_EQ(at(1), "[0, 42, 1, 2]");
  EXPECT_EQ(at(2), "[0, 1, 42, 2]");
  EXPECT_EQ(at(3), "[0, 1, 2, 42]");
  EXPECT_EQ(at(4), "[0, 1, 2, 42]");
  EXPECT_EQ(eval("[].insert(1.0, 'D')"), "error: insert: for parameter 1: got float, want int");
}

TEST_F(ListTest, Pop) {
  EXPECT_EQ(run("x = [1, 2, 3, 4, 5]\n_ = [x.pop(), x.pop(1), x.pop(0), x.pop(-2), x]"),
            "[5, 2, 1, 3, [4]]");
  EXPECT_EQ(eval("[1, 2, 3, 4, 5].pop(-6)"), "error: pop: list index -6 out of range [-5:4]");
  EXPECT_EQ(eval("[1, 2, 3, 4, 5].pop(6)"), "error: pop: list index 6 out of range [-5:4]");
  EXPECT_EQ(eval("[].pop()"), "error: pop: index -1 out of range: empty list");
  EXPECT_EQ(run("x = freeze([1])\nx.pop()"), "error: pop: cannot pop from frozen list");
}

TEST_F(ListTest, Remove) {
  EXPECT_EQ(run("x = [3, 1, 4, 1]\nx.remove(1)\n_ = x"), "[3, 4, 1]");
  EXPECT_EQ(run("x = [3, 1, 4, 1]\nx.remove(4)\n_ = x"), "[3, 1, 1]");
  EXPECT_EQ(eval("[3, 1, 4, 1].remove(42)"), "error: remove: element not found");
}

TEST_F(ListTest, Index) {
  const char *bananas = "b = list('bananas'.elems())\n";
  auto idx = [&](const std::string &args) {
    return run(std::string(bananas) + "_ = b.index(" + args + ")");
  };
  EXPECT_EQ(idx("'a'"), "1");
  EXPECT_EQ(idx("'d'"), "error: index: value not in list");
  EXPECT_EQ(idx("'a', -1000"), "1");
  EXPECT_EQ(idx("'a', 2"), "3");
  EXPECT_EQ(idx("'n', -3"), "4");
  EXPECT_EQ(idx("'n', -2"), "error: index: value not in list");
  EXPECT_EQ(idx("'s', -1000, 7"), "6");
  EXPECT_EQ(idx("'s', -1000, 6"), "error: index: value not in list");
  EXPECT_EQ(idx("'s', None, None"), "6");
  EXPECT_EQ(idx("'s', 1.5"), "error: index: invalid start index: got float, want int");
  EXPECT_EQ(idx("'s', 0, 'x'"), "error: index: invalid end index: got string, want int");
}

TEST_F(ListTest, FreezeIsDeep) {
  EXPECT_EQ(run("x = [[1], {'a': [2]}]\nfreeze(x)\nx[1]['a'].append(3)"),
            "error: append: cannot append to frozen list");
  EXPECT_EQ(run("x = ([1],)\nfreeze(x)\nx[0].append(3)"),
            "error: append: cannot append to frozen list");
}

TEST_F(ListTest, MethodValues) {
  EXPECT_EQ(eval("str([].append)"), "\"<built-in method append of list value>\"");
  EXPECT_EQ(eval("dir([])"),
            "[\"append\", \"clear\", \"extend\", \"index\", \"insert\", \"pop\", \"remove\"]");
  EXPECT_EQ(run("x = []\nf = x.append\nf(1)\nf(2)\n_ = x"), "[1, 2]");
}

TEST_F(ListTest, LargeListsGrow) {
  EXPECT_EQ(run("x = []\nfor i in range(100000):\n  x.append(i)\n_ = [len(x), x[-1], x[50000]]"),
            "[100000, 99999, 50000]");
}

} // namespace
} // namespace fbc::star
