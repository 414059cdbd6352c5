// The universe: None, True, False and Go's builtin functions, with exact
// results and Go's messages (ported from go.starlark.net/starlark/testdata/
// builtins.star and library.go).
#include "frontend/eval/interpreter.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/struct.h"
#include "frontend/lib/universe/universe.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace fbc::star {
namespace {

Value freezeFn(Thread &, Value, const Args &args) {
  args.positional[0].obj()->freeze();
  return args.positional[0];
}

// Runs a program with every dialect option on, plus freeze() and struct(),
// and returns repr(_) or "error: <message>".
class UniverseTest : public ::testing::Test {
protected:
  frontend::SourceManager sources;
  Builtin freeze{"freeze", freezeFn};
  int files = 0;
  std::vector<std::string> printed;

  std::string run(const std::string &program) {
    syntax::Dialect all{true, true, true, true, false};
    Interpreter in(sources, all);
    in.predeclared["freeze"] = Value::object(&freeze);
    in.predeclared["struct"] = makeStructBuiltin();
    in.thread.print = [this](std::string_view line) { printed.emplace_back(line); };
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

TEST_F(UniverseTest, Table) {
  EXPECT_EQ(lookupUniverse("None"), none());
  EXPECT_EQ(lookupUniverse("True"), trueValue());
  EXPECT_TRUE(lookupUniverse("nonesuch").isNull());
  EXPECT_TRUE(lookupUniverse("struct").isNull()); // predeclared by embedders only
  EXPECT_TRUE(isUniversal("len"));
  EXPECT_FALSE(isUniversal("assert"));
  std::vector<std::string> names;
  for (const auto &m : universeMembers())
    names.emplace_back(m.first);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "False",   "None",    "True",  "abs",   "all",       "any",      "bool",
                       "bytes",   "chr",     "dict",  "dir",   "enumerate", "fail",     "float",
                       "getattr", "hasattr", "hash",  "int",   "len",       "list",     "max",
                       "min",     "ord",     "print", "range", "repr",      "reversed", "set",
                       "sorted",  "str",     "tuple", "type",  "zip"}));
  for (size_t i = 1; i < names.size(); ++i)
    EXPECT_LT(std::strcmp(names[i - 1].c_str(), names[i].c_str()), 0);
  EXPECT_EQ(lookupUniverse("len"), lookupUniverse("len")); // one object per builtin
}

TEST_F(UniverseTest, ReprsAndTypes) {
  EXPECT_EQ(eval("str(len)"), "\"<built-in function len>\"");
  EXPECT_EQ(eval("type(print)"), "\"builtin_function_or_method\"");
  EXPECT_EQ(eval("type(None)"), "\"NoneType\"");
  EXPECT_EQ(eval("[len == len, len == print]"), "[True, False]");
  EXPECT_EQ(eval("{len: 1}[len]"), "1");
  EXPECT_EQ(eval("type(1, 2)"), "error: type: got 2 arguments, want exactly 1");
  EXPECT_EQ(eval("type(x=1)"), "error: type does not accept keyword arguments");
}

TEST_F(UniverseTest, LenBoolAnyAll) {
  EXPECT_EQ(eval("[len([1, 2, 3]), len((1, 2, 3)), len({1: 2}), len('abc'), len(range(4))]"),
            "[3, 3, 1, 3, 4]");
  EXPECT_EQ(eval("len(1)"), "error: len: value of type int has no len");
  EXPECT_EQ(eval("len()"), "error: len: got 0 arguments, want 1");
  EXPECT_EQ(eval("[bool(), bool(0), bool([1]), bool('')]"), "[False, False, True, False]");
  EXPECT_EQ(eval("[all([]), all([1, True, 'foo']), all([1, True, ''])]"), "[True, True, False]");
  EXPECT_EQ(eval("[any([]), any([0, False, 'foo']), any([0, False, ''])]"), "[False, True, False]");
  EXPECT_EQ(eval("any(1)"), "error: any: for parameter 1: got int, want iterable");
}

TEST_F(UniverseTest, StrReprPrint) {
  EXPECT_EQ(eval("[repr(1), repr('x'), repr(['x', 1])]"),
            "[\"1\", \"\\\"x\\\"\", \"[\\\"x\\\", 1]\"]");
  EXPECT_EQ(eval("str('abc')"), "\"abc\"");
  EXPECT_EQ(eval("str([1, 'a'])"), "\"[1, \\\"a\\\"]\"");
  EXPECT_EQ(eval("str(b'a\\xffb')"), "\"a\xef\xbf\xbd"
                                     "b\"");
  EXPECT_EQ(eval("str()"), "error: str: got 0 arguments, want exactly 1");
  EXPECT_EQ(run("print('a', 1, [2, 'x'], None)\nprint(1, 2, sep='/')\nprint()\n_ = None"), "None");
  EXPECT_EQ(printed, (std::vector<std::string>{"a 1 [2, \"x\"] None", "1/2", ""}));
  EXPECT_EQ(eval("print(1, sep=2)"), "error: print: for parameter sep: got int, want string");
  EXPECT_EQ(eval("print(end='')"), "error: print: unexpected keyword argument \"end\"");
}

TEST_F(UniverseTest, Fail) {
  EXPECT_EQ(run("fail()"), "error: fail: ");
  EXPECT_EQ(run("fail(1)"), "error: fail: 1");
  EXPECT_EQ(run("fail(1, 2, 3)"), "error: fail: 1 2 3");
  EXPECT_EQ(run("fail(1, 2, 3, sep='/')"), "error: fail: 1/2/3");
  EXPECT_EQ(run("fail('oops', [1, 'x'])"), "error: fail: oops [1, \"x\"]");
}

TEST_F(UniverseTest, Hash) {
  EXPECT_EQ(eval("hash('hello')"), "99162322");
  EXPECT_EQ(eval("hash('Hello, 世界!')"), "417292677");
  EXPECT_EQ(eval("hash('')"), "0");
  EXPECT_EQ(eval("hash(b'abc')"), "440920331");
  EXPECT_EQ(eval("hash(1)"), "error: hash: got int, want string or bytes");
}

TEST_F(UniverseTest, Sorted) {
  EXPECT_EQ(eval("sorted([42, 123, 3])"), "[3, 42, 123]");
  EXPECT_EQ(eval("sorted([42, 123, 3], reverse=True)"), "[123, 42, 3]");
  EXPECT_EQ(eval("sorted(['wiz', 'foo', 'bar'])"), "[\"bar\", \"foo\", \"wiz\"]");
  EXPECT_EQ(eval("sorted(['wiz', 'foo', 'bar'], reverse=True)"), "[\"wiz\", \"foo\", \"bar\"]");
  EXPECT_EQ(eval("sorted([3, 1.5, 2, float('nan'), -1.0])"), "[-1.0, 1.5, 2, 3, nan]");
  EXPECT_EQ(eval("sorted({'b': 1, 'a': 2})"), "[\"a\", \"b\"]");
  // Go reports the last failed comparison of its sort.Stable.
  EXPECT_EQ(eval("sorted([1, 2, None, 3])"), "error: int < NoneType not implemented");
  EXPECT_EQ(eval("sorted([1, 'one'])"), "error: string < int not implemented");
  EXPECT_EQ(eval("sorted(['two', 'three', 'four'], key=len)"), "[\"two\", \"four\", \"three\"]");
  EXPECT_EQ(eval("sorted(['two', 'three', 'four'], key=len, reverse=True)"),
            "[\"three\", \"four\", \"two\"]");
  EXPECT_EQ(eval("sorted([(4, 0), (3, 1), (4, 2), (2, 3), (3, 4), (1, 5), (2, 6), (3, 7)], "
                 "key=lambda x: x[0])"),
            "[(1, 5), (2, 3), (2, 6), (3, 1), (3, 4), (3, 7), (4, 0), (4, 2)]");
  EXPECT_EQ(eval("sorted([1, 2, 3], key=None)"),
            "error: sorted: for parameter key: got NoneType, want callable");
  EXPECT_EQ(eval("sorted(1)"), "error: sorted: for parameter iterable: got int, want iterable");
  EXPECT_EQ(eval("sorted([1], reverse=1)"),
            "error: sorted: for parameter reverse: got int, want bool");
  EXPECT_EQ(eval("sorted([3, 1], key=lambda x: 1 // 0)"), "error: floored division by zero");
}

// Large inputs of mixed ints and floats take Go's merge sort (not the
// homogeneous fast path); the result must be ordered and stable.
TEST_F(UniverseTest, SortedLargeMixed) {
  const char *program = R"(
def check(n, reverse):
    pairs = [((i * 7919) % 101 + (0.5 if i % 3 == 0 else 0), i) for i in range(n)]
    r = sorted(pairs, key=lambda p: p[0], reverse=reverse)
    for j in range(len(r) - 1):
        a, b = r[j], r[j + 1]
        if reverse:
            a, b = b, a
            if not (a[0] < b[0] or (a[0] == b[0] and a[1] > b[1])):
                return "unordered at %d" % j
        elif not (a[0] < b[0] or (a[0] == b[0] and a[1] < b[1])):
            return "unordered at %d" % j
    return sorted([p[1] for p in r]) == list(range(n))
_ = [check(n, rev) for n in (0, 1, 19, 20, 21, 100, 1000, 2500) for rev in (False, True)]
)";
  EXPECT_EQ(run(program), "[True, True, True, True, True, True, True, True, True, True, True, "
                          "True, True, True, True, True]");
}

TEST_F(UniverseTest, MinMax) {
  EXPECT_EQ(eval("[min(5, -2, 1, 7, 3), max(5, -2, 1, 7, 3), min([5, -2, 1, 7, 3])]"),
            "[-2, 7, -2]");
  EXPECT_EQ(eval("[min('one', 'two', 'three', 'four'), max('one', 'two', 'three', 'four')]"),
            "[\"four\", \"two\"]");
  EXPECT_EQ(eval("min()"), "error: min requires at least one positional argument");
  EXPECT_EQ(eval("min(1)"), "error: min: int value is not iterable");
  EXPECT_EQ(eval("min([])"), "error: min: argument is an empty sequence");
  EXPECT_EQ(eval("max(1, 'a')"), "error: max: string > int not implemented");
  EXPECT_EQ(eval("min(5, -2, 1, 7, 3, key=lambda x: x * x)"), "1");
  EXPECT_EQ(eval("min(5, -2, 1, 7, 3, key=lambda x: -x)"), "7");
  EXPECT_EQ(eval("max([1, 3, 3.0], key=lambda x: x)"), "3"); // the first of equals
  EXPECT_EQ(eval("max([1, 2], foo=1)"), "error: max: unexpected keyword argument \"foo\"");
}

TEST_F(UniverseTest, ListTupleReversedEnumerateZip) {
  EXPECT_EQ(eval("[list(), list('ab'.elems()), list({'a': 1}), list(range(3))]"),
            "[[], [\"a\", \"b\"], [\"a\"], [0, 1, 2]]");
  EXPECT_EQ(eval("list(1)"), "error: list: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("reversed([1, 144, 81, 16])"), "[16, 81, 144, 1]");
  EXPECT_EQ(eval("reversed(range(3))"), "[2, 1, 0]");
  EXPECT_EQ(eval("enumerate('abc'.elems())"), "[(0, \"a\"), (1, \"b\"), (2, \"c\")]");
  EXPECT_EQ(eval("enumerate([False, True, None], 42)"), "[(42, False), (43, True), (44, None)]");
  EXPECT_EQ(eval("enumerate(1)"), "error: enumerate: for parameter 1: got int, want iterable");
  EXPECT_EQ(eval("[zip(), zip([]), zip([1, 2, 3])]"), "[[], [], [(1,), (2,), (3,)]]");
  EXPECT_EQ(eval("zip('abc'.elems(), list('def'.elems()), 'hijk'.elems())"),
            "[(\"a\", \"d\", \"h\"), (\"b\", \"e\", \"i\"), (\"c\", \"f\", \"j\")]");
  EXPECT_EQ(eval("zip([1], 1)"), "error: zip: argument #2 is not iterable: int");
  EXPECT_EQ(eval("zip([1], x=1)"), "error: zip does not accept keyword arguments");
  EXPECT_EQ(run("z = [1]\nfor _ in zip(z, z):\n  pass\nz.append(2)\n_ = zip(z)"), "[(1,), (2,)]");
}

TEST_F(UniverseTest, DirGetattrHasattr) {
  EXPECT_EQ(eval("[dir(None), dir(1)]"), "[[], []]");
  EXPECT_EQ(eval("dir({})[:3]"), "[\"clear\", \"get\", \"items\"]");
  EXPECT_EQ(eval("dir([])[:3]"), "[\"append\", \"clear\", \"extend\"]");
  EXPECT_EQ(run("d = dir('')\nd.append('!')\n_ = '!' in dir('')"), "False");
  EXPECT_EQ(eval("dir()"), "error: dir: got 0 arguments, want 1");
  EXPECT_EQ(eval("[hasattr(set(), 'union'), hasattr(set(), 'onion'), hasattr(1, 'x')]"),
            "[True, False, False]");
  EXPECT_EQ(eval("getattr(set(), 'onion')"), "error: getattr: set has no .onion field or method");
  EXPECT_EQ(eval("getattr(set(), 'onion', 42)"), "42");
  EXPECT_EQ(eval("getattr([1], 'pop')()"), "1");
  EXPECT_EQ(eval("getattr(1, 2)"), "error: getattr: for parameter 2: got int, want string");
}

TEST_F(UniverseTest, IntAndFloat) {
  EXPECT_EQ(eval("[int(), int('12'), int('-0x1f', 16), int('0o17', 0), int(3.9), int(-3.9), "
                 "int(True)]"),
            "error: int: missing argument for x");
  EXPECT_EQ(eval("[int('12'), int('-0x1f', 16), int('0o17', 0), int(3.9), int(-3.9), int(True)]"),
            "[12, -31, 15, 3, -3, 1]");
  EXPECT_EQ(eval("int(1e20)"), "100000000000000000000");
  EXPECT_EQ(eval("int('0x12')"), "error: int: invalid literal with base 10: 0x12");
  EXPECT_EQ(eval("int('1', 99)"), "error: int: base must be an integer >= 2 && <= 36");
  EXPECT_EQ(eval("int(3, base=10)"), "error: int: can't convert non-string with explicit base");
  EXPECT_EQ(eval("int(float('inf'))"), "error: int: cannot convert float infinity to integer");
  EXPECT_EQ(eval("int(float('nan'))"), "error: int: cannot convert float NaN to integer");
  EXPECT_EQ(eval("int(None)"), "error: int: cannot convert NoneType to int");
  EXPECT_EQ(eval("[float(), float(1), float(True), float('1.5'), float('-1e3'), float(' 1'[1:])]"),
            "[0.0, 1.0, 1.0, 1.5, -1000.0, 1.0]");
  EXPECT_EQ(eval("[float('Inf'), float('-iNFiniTy'), float('nan'), float('0x1p-2')]"),
            "[+inf, -inf, nan, 0.25]");
  EXPECT_EQ(eval("float('1e1000')"), "error: floating-point number too large");
  EXPECT_EQ(eval("float(' 1')"), "error: invalid float literal:  1");
  EXPECT_EQ(eval("float('1.5x')"), "error: invalid float literal: 1.5x");
  EXPECT_EQ(eval("float('')"), "error: float: empty string");
  EXPECT_EQ(eval("float(None)"), "error: float got NoneType, want number or string");
  EXPECT_EQ(eval("float(1, 2)"), "error: float got 2 arguments, wants 1");
  EXPECT_EQ(eval("float(1 << 500 << 500 << 100)"), "error: int too large to convert to float");
}

TEST_F(UniverseTest, AbsChrOrdBytes) {
  EXPECT_EQ(eval("[abs(-1), abs(2), abs(-1.5), abs(-(1 << 70)) == 1 << 70]"), "[1, 2, 1.5, True]");
  EXPECT_EQ(eval("abs('x')"), "error: got string, want int or float");
  EXPECT_EQ(eval("[chr(65), chr(0x4e16), ord('A'), ord('世'), ord(b'A')]"),
            "[\"A\", \"世\", 65, 19990, 65]");
  EXPECT_EQ(eval("chr(-1)"), "error: chr: Unicode code point -1 out of range (<0)");
  EXPECT_EQ(eval("chr(0x110000)"),
            "error: chr: Unicode code point U+110000 out of range (>0x10FFFF)");
  EXPECT_EQ(eval("chr('a')"), "error: chr: got string, want int");
  EXPECT_EQ(eval("ord('ab')"), "error: ord: string encodes 2 Unicode code points, want 1");
  EXPECT_EQ(eval("ord('')"), "error: ord: string encodes 0 Unicode code points, want 1");
  EXPECT_EQ(eval("ord(b'ab')"), "error: ord: bytes has length 2, want 1");
  EXPECT_EQ(eval("ord(1)"), "error: ord: got int, want string or bytes");
  EXPECT_EQ(eval("[bytes('abc'), bytes(b'x'), bytes([65, 66])]"), "[b\"abc\", b\"x\", b\"AB\"]");
  EXPECT_EQ(eval("bytes([256])"),
            "error: bytes: at index 0, 256 out of range (want value in unsigned 8-bit range)");
  EXPECT_EQ(eval("bytes(['a'])"), "error: bytes: at index 0, got string, want int");
  EXPECT_EQ(eval("bytes(1)"), "error: bytes: got int, want string, bytes, or iterable of ints");
}

TEST_F(UniverseTest, DictAndSetBuiltins) {
  EXPECT_EQ(eval("dict([(1, 2), (3, 4)])"), "{1: 2, 3: 4}");
  EXPECT_EQ(eval("dict(a=1, b=2)"), "{\"a\": 1, \"b\": 2}");
  EXPECT_EQ(eval("set([3, 1, 3])"), "set([3, 1])");
  EXPECT_EQ(eval("sorted([x for x in set([1, 2, 3])])"), "[1, 2, 3]");
}

} // namespace
} // namespace fbc::star
