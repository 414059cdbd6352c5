// Strings: the String object (hash, comparison, indexing) and every string
// method, with the expected values and messages of Go Starlark (most cases
// are ported from go.starlark.net/starlark/testdata/string.star).
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/utf8.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::star {
namespace {

class StringTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value S(std::string_view s) { return makeString(heap, s); }
  Value I(int64_t v) { return makeInt(heap, v); }
  Value tuple(std::vector<Value> v) { return Value::object(makeTuple(heap, v)); }
  Value list(std::vector<Value> v) { return Value::object(heap.make<List>(std::move(v))); }

  // recv.name(args...) as repr text, or "error: <message>".
  std::string call(std::string_view recv, const char *name, std::vector<Value> args = {}) {
    return callOn(S(recv), name, std::move(args));
  }
  std::string callOn(Value self, const char *name, std::vector<Value> args) {
    auto methods = stringMethods();
    auto it = std::lower_bound(methods.begin(), methods.end(), std::string_view(name),
                               [](const Method &m, std::string_view n) { return m.name < n; });
    if (it == methods.end() || it->name != std::string_view(name))
      return "no such method";
    try {
      return repr(it->fn(t, self, Args{args, {}}));
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
  std::string err(const std::function<void()> &f) {
    try {
      f();
    } catch (const EvalError &e) {
      return e.message();
    }
    return "<no error>";
  }
  // list(view) as repr text.
  std::string iterate(Value view) {
    std::vector<Value> out;
    IterationScope it(t, view);
    for (Value v; it.next(v);)
      out.push_back(v);
    return repr(list(out));
  }
};

TEST_F(StringTest, MethodTableIsSorted) {
  auto m = stringMethods();
  ASSERT_EQ(m.size(), 35u);
  for (size_t i = 1; i < m.size(); ++i)
    EXPECT_LT(std::string_view(m[i - 1].name), std::string_view(m[i].name));
}

TEST_F(StringTest, SmallStringsAreShared) {
  EXPECT_EQ(S("a"), S("a"));
  EXPECT_EQ(S(""), S(""));
  EXPECT_EQ(S(std::string_view("\0", 1)).as<String>()->size(), 1u);
  EXPECT_EQ(S("\xff").as<String>()->view(), "\xff");
  EXPECT_EQ(S("abc").as<String>()->view(), "abc");
}

TEST_F(StringTest, HashIsJavaHashCodeAsGoComputesIt) {
  auto h = [&](std::string_view s) { return static_cast<int32_t>(S(s).as<String>()->hashCode()); };
  EXPECT_EQ(h(""), 0);
  EXPECT_EQ(h(std::string(100, '\0')), 0);
  EXPECT_EQ(h("hello"), 99162322);
  EXPECT_EQ(h("world"), 113318802);
  EXPECT_EQ(h("Hello, 世界!"), 417292677);
  // Go adds code points above U+FFFF whole, and U+FFFD for invalid bytes.
  EXPECT_EQ(h("😿"), 128575);
  EXPECT_EQ(h("\x80"), 0xFFFD);
  Value s = S("hello");
  EXPECT_EQ(s.obj()->hash(t), 99162322u);
}

TEST_F(StringTest, EqualityAndOrderingAreBytewise) {
  Value a = S("abc"), b = S("abd"), c = S("ab"), hi = S("\x80");
  EXPECT_TRUE(a.obj()->equals(t, *S("abc").obj(), 0));
  EXPECT_FALSE(a.obj()->equals(t, *b.obj(), 0));
  EXPECT_EQ(a.obj()->compare(t, *b.obj(), 0), -1);
  EXPECT_EQ(b.obj()->compare(t, *a.obj(), 0), 1);
  EXPECT_EQ(c.obj()->compare(t, *a.obj(), 0), -1);
  EXPECT_EQ(a.obj()->compare(t, *S("abc").obj(), 0), 0);
  EXPECT_EQ(S("\x7f").obj()->compare(t, *hi.obj(), 0), -1); // unsigned bytes
  EXPECT_TRUE(S("x").obj()->truth());
  EXPECT_FALSE(S("").obj()->truth());
  EXPECT_EQ(S("Hello, 世界!").obj()->length(), 14);
}

TEST_F(StringTest, Index) {
  Value s = S("Hello, 世界!");
  EXPECT_EQ(repr(s.obj()->index(t, I(0))), "\"H\"");
  EXPECT_EQ(repr(s.obj()->index(t, I(7))), "\"\\xe4\"");
  EXPECT_EQ(repr(s.obj()->index(t, I(13))), "\"!\"");
  Value abc = S("abc");
  EXPECT_EQ(repr(abc.obj()->index(t, I(-3))), "\"a\"");
  EXPECT_EQ(repr(abc.obj()->index(t, I(-1))), "\"c\"");
  EXPECT_EQ(err([&] { abc.obj()->index(t, I(-4)); }), "string index -4 out of range [-3:2]");
  EXPECT_EQ(err([&] { abc.obj()->index(t, I(4)); }), "string index 4 out of range [-3:2]");
  EXPECT_EQ(err([&] { S("").obj()->index(t, I(0)); }), "index 0 out of range: empty string");
  EXPECT_EQ(err([&] { abc.obj()->index(t, S("x")); }), "string index: got string, want int");
  EXPECT_EQ(err([&] { abc.obj()->index(t, I(int64_t(1) << 40)); }),
            "string index: 1099511627776 out of range");
  EXPECT_EQ(err([&] { abc.obj()->index(t, parseIntLiteral(heap, "0x10000000000000000")); }),
            "string index: 18446744073709551616 out of range");
  EXPECT_TRUE(abc.obj()->attr(t, "split").isNull());
}

TEST_F(StringTest, Views) {
  EXPECT_EQ(call("abcЙ😿", "codepoint_ords"), "\"abcЙ😿\".codepoint_ords()");
  EXPECT_EQ(call("abcЙ😿", "codepoints"), "\"abcЙ😿\".codepoints()");
  EXPECT_EQ(call("abcЙ😿", "elem_ords"), "\"abcЙ😿\".elem_ords()");
  EXPECT_EQ(call("abcЙ😿", "elems"), "\"abcЙ😿\".elems()");
  auto view = [&](std::string_view s, const char *name) {
    auto methods = stringMethods();
    for (const Method &m : methods)
      if (std::string_view(m.name) == name)
        return m.fn(t, S(s), Args{});
    return Value();
  };
  EXPECT_EQ(typeName(view("abc", "codepoints")), "string.codepoints");
  EXPECT_EQ(typeName(view("abc", "codepoint_ords")), "string.codepoints");
  EXPECT_EQ(typeName(view("abc", "elems")), "string.elems");
  EXPECT_EQ(typeName(view("abc", "elem_ords")), "string.elems");
  EXPECT_EQ(iterate(view("abcЙ😿", "codepoint_ords")), "[97, 98, 99, 1049, 128575]");
  std::string broken = std::string("A") + std::string("😿Z").substr(1);
  EXPECT_EQ(iterate(view(broken, "codepoint_ords")), "[65, 65533, 65533, 65533, 90]");
  EXPECT_EQ(iterate(view("", "codepoint_ords")), "[]");
  EXPECT_EQ(iterate(view("abcЙ😿", "codepoints")), "[\"a\", \"b\", \"c\", \"Й\", \"😿\"]");
  // Each invalid byte is a U+FFFD code point (the recent Go).
  EXPECT_EQ(iterate(view(broken, "codepoints")),
            "[\"A\", \"\uFFFD\", \"\uFFFD\", \"\uFFFD\", \"Z\"]");
  EXPECT_EQ(iterate(view("abcЙ😿", "elem_ords")), "[97, 98, 99, 208, 153, 240, 159, 152, 191]");
  EXPECT_EQ(iterate(view(broken, "elem_ords")), "[65, 159, 152, 191, 90]");
  EXPECT_EQ(iterate(view("abcЙ", "elems")), "[\"a\", \"b\", \"c\", \"\\xd0\", \"\\x99\"]");
  EXPECT_EQ(iterate(view("", "elems")), "[]");
  // The byte views have a length and can be indexed (newer Go).
  Value elems = view("abc", "elems");
  EXPECT_EQ(elems.obj()->length(), 3);
  EXPECT_EQ(repr(elems.obj()->index(t, I(-1))), "\"c\"");
  EXPECT_EQ(repr(view("abc", "elem_ords").obj()->index(t, I(0))), "97");
  EXPECT_EQ(err([&] { elems.obj()->index(t, I(3)); }), "string.elems index 3 out of range [-3:2]");
  EXPECT_EQ(view("abc", "codepoints").obj()->length(), -1);
  EXPECT_EQ(err([&] { hashValue(t, elems); }), "unhashable: string.elems");
  EXPECT_EQ(call("abc", "elems", {I(1)}), "error: elems: got 1 arguments, want 0");
}

TEST_F(StringTest, FindAndIndex) {
  EXPECT_EQ(call("foofoo", "find", {S("oo")}), "1");
  EXPECT_EQ(call("foofoo", "find", {S("ox")}), "-1");
  EXPECT_EQ(call("foofoo", "find", {S("oo"), I(2)}), "4");
  EXPECT_EQ(call("foofoo", "rfind", {S("oo")}), "4");
  EXPECT_EQ(call("foofoo", "rfind", {S("ox")}), "-1");
  EXPECT_EQ(call("foofoo", "rfind", {S("oo"), I(1), I(4)}), "1");
  EXPECT_EQ(call("foofoo", "find", {S("")}), "0");
  EXPECT_EQ(call("foofoo", "rfind", {S("")}), "6");
  EXPECT_EQ(call("foofoo", "find", {S("o"), none(), I(-4)}), "1");
  EXPECT_EQ(call("foofoo", "find", {S("o"), I(5), I(2)}), "-1");
  EXPECT_EQ(call("foofoo", "index", {S("oo"), I(2)}), "4");
  EXPECT_EQ(call("foofoo", "rindex", {S("f")}), "3");
  EXPECT_EQ(call("foofoo", "index", {S("x")}), "error: index: substring not found");
  EXPECT_EQ(call("foofoo", "rindex", {S("x")}), "error: rindex: substring not found");
  EXPECT_EQ(call("abc", "find", {I(1)}), "error: find: for parameter 1: got int, want string");
  EXPECT_EQ(call("abc", "find", {S("a"), makeFloat(heap, 1.0)}),
            "error: find: invalid start index: got float, want int");
  EXPECT_EQ(call("abc", "find", {S("a"), I(0), S("")}),
            "error: find: invalid end index: got string, want int");
  EXPECT_EQ(call("abc", "find", {}), "error: find: got 0 arguments, want at least 1");
  EXPECT_EQ(call("abc", "find", {S("a"), I(0), I(1), I(2)}),
            "error: find: got 4 arguments, want at most 3");
}

TEST_F(StringTest, Count) {
  EXPECT_EQ(call("banana", "count", {S("a")}), "3");
  EXPECT_EQ(call("banana", "count", {S("a"), I(2)}), "2");
  EXPECT_EQ(call("banana", "count", {S("a"), I(-4), I(-2)}), "1");
  EXPECT_EQ(call("banana", "count", {S("a"), I(1), I(4)}), "2");
  EXPECT_EQ(call("banana", "count", {S("a"), I(0), I(-100)}), "0");
  EXPECT_EQ(call("aaaa", "count", {S("aa")}), "2");
  EXPECT_EQ(call("héllo", "count", {S("")}), "6"); // code points + 1
}

TEST_F(StringTest, StartsWithEndsWith) {
  EXPECT_EQ(call("foo", "endswith", {S("oo")}), "True");
  EXPECT_EQ(call("foo", "endswith", {S("x")}), "False");
  EXPECT_EQ(call("foo", "startswith", {S("fo")}), "True");
  EXPECT_EQ(call("foo", "startswith", {S("x")}), "False");
  EXPECT_EQ(call("foo", "startswith", {I(1)}),
            "error: startswith: got int, want string or tuple of string");
  EXPECT_EQ(call("abc", "startswith", {tuple({S("a"), S("A")})}), "True");
  EXPECT_EQ(call("ABC", "startswith", {tuple({S("a"), S("A")})}), "True");
  EXPECT_EQ(call("ABC", "startswith", {tuple({S("b"), S("B")})}), "False");
  EXPECT_EQ(call("123", "startswith", {tuple({I(1), I(2)})}),
            "error: startswith: want string, got int, for element 0");
  EXPECT_EQ(call("123", "startswith", {list({S("3")})}),
            "error: startswith: got list, want string or tuple of string");
  EXPECT_EQ(call("abc", "endswith", {tuple({S("c"), S("C")})}), "True");
  EXPECT_EQ(call("ABC", "endswith", {tuple({S("c"), S("C")})}), "True");
  EXPECT_EQ(call("ABC", "endswith", {tuple({S("b"), S("B")})}), "False");
  EXPECT_EQ(call("123", "endswith", {tuple({I(1), I(2)})}),
            "error: endswith: want string, got int, for element 0");
  EXPECT_EQ(call("123", "endswith", {list({S("3")})}),
            "error: endswith: got list, want string or tuple of string");
  EXPECT_EQ(call("abc", "startswith", {S("bc"), I(1)}), "True");
  EXPECT_EQ(call("abc", "startswith", {S("b"), I(999)}), "False");
  EXPECT_EQ(call("abc", "endswith", {S("ab"), none(), I(-1)}), "True");
  EXPECT_EQ(call("abc", "endswith", {S("b"), none(), I(-999)}), "False");
  EXPECT_EQ(call("abc", "startswith", {S(""), I(3), I(1)}), "True");
}

TEST_F(StringTest, Replace) {
  EXPECT_EQ(call("banana", "replace", {S("a"), S("o"), I(1)}), "\"bonana\"");
  EXPECT_EQ(call("banana", "replace", {S("a"), S("o")}), "\"bonono\"");
  EXPECT_EQ(call("banana", "replace", {S("a"), S("o"), I(-1)}), "\"bonono\"");
  EXPECT_EQ(call("banana", "replace", {S("a"), S("o"), I(0)}), "\"banana\"");
  EXPECT_EQ(call("banana", "replace", {S("x"), S("o")}), "\"banana\"");
  EXPECT_EQ(call("aaa", "replace", {S("aa"), S("b")}), "\"ba\"");
  EXPECT_EQ(call("abé", "replace", {S(""), S("-")}), "\"-a-b-é-\"");
  EXPECT_EQ(call("abc", "replace", {S(""), S("-"), I(2)}), "\"-a-bc\"");
  EXPECT_EQ(call("abc", "replace", {S("a")}), "error: replace: got 1 arguments, want at least 2");
  EXPECT_EQ(call("abc", "replace", {S("a"), S("b"), S("c")}),
            "error: replace: for parameter 3: got string, want int");
}

TEST_F(StringTest, Partition) {
  EXPECT_EQ(call("foo/bar/wiz", "partition", {S("/")}), "(\"foo\", \"/\", \"bar/wiz\")");
  EXPECT_EQ(call("foo/bar/wiz", "rpartition", {S("/")}), "(\"foo/bar\", \"/\", \"wiz\")");
  EXPECT_EQ(call("foo/bar/wiz", "partition", {S(".")}), "(\"foo/bar/wiz\", \"\", \"\")");
  EXPECT_EQ(call("foo/bar/wiz", "rpartition", {S(".")}), "(\"\", \"\", \"foo/bar/wiz\")");
  EXPECT_EQ(call("foo/bar/wiz", "partition", {S("")}), "error: partition: empty separator");
  EXPECT_EQ(call("foo/bar/wiz", "rpartition", {S("")}), "error: rpartition: empty separator");
}

TEST_F(StringTest, Join) {
  EXPECT_EQ(call(",", "join", {list({})}), "\"\"");
  EXPECT_EQ(call(",", "join", {list({S("a")})}), "\"a\"");
  EXPECT_EQ(call(",", "join", {list({S("a"), S("b"), S("c")})}), "\"a,b,c\"");
  EXPECT_EQ(call(",", "join", {tuple({S("a"), S("b"), S("c")})}), "\"a,b,c\"");
  EXPECT_EQ(call("", "join", {tuple({S("a"), S("b"), S("c")})}), "\"abc\"");
  EXPECT_EQ(call("", "join", {none()}),
            "error: join: for parameter 1: got NoneType, want iterable");
  EXPECT_EQ(call(",", "join", {S("abc")}),
            "error: join: for parameter 1: got string, want iterable");
  EXPECT_EQ(call("", "join", {list({S("one"), I(2)})}),
            "error: join: in list, want string, got int");
  EXPECT_EQ(call("?", "join", {Value::object(heap.make<Range>(0, 0, 1, 0))}), "\"\"");
}

TEST_F(StringTest, Strip) {
  EXPECT_EQ(call(" \tfoo\n ", "strip"), "\"foo\"");
  EXPECT_EQ(call(" \tfoo\n ", "lstrip"), "\"foo\\n \"");
  EXPECT_EQ(call(" \tfoo\n ", "rstrip"), "\" \\tfoo\"");
  EXPECT_EQ(call(" \tfoo\n ", "strip", {S("")}), "\"foo\"");
  EXPECT_EQ(call(" \tfoo\n ", "lstrip", {S("")}), "\"foo\\n \"");
  EXPECT_EQ(call(" \tfoo\n ", "rstrip", {S("")}), "\" \\tfoo\"");
  EXPECT_EQ(call("blah.h", "strip", {S("b.h")}), "\"la\"");
  EXPECT_EQ(call("blah.h", "lstrip", {S("b.h")}), "\"lah.h\"");
  EXPECT_EQ(call("blah.h", "rstrip", {S("b.h")}), "\"bla\"");
  EXPECT_EQ(call("\u00a0x\u2003", "strip"), "\"x\""); // Unicode white space
  EXPECT_EQ(call("ééaéé", "strip", {S("é")}), "\"a\"");
  EXPECT_EQ(call("x", "strip", {none()}),
            "error: strip: for parameter 1: got NoneType, want string");
}

TEST_F(StringTest, RemovePrefixSuffix) {
  EXPECT_EQ(call("foobar", "removeprefix", {S("foo")}), "\"bar\"");
  EXPECT_EQ(call("foobar", "removeprefix", {S("bar")}), "\"foobar\"");
  EXPECT_EQ(call("foobar", "removesuffix", {S("bar")}), "\"foo\"");
  EXPECT_EQ(call("foobar", "removesuffix", {S("")}), "\"foobar\"");
  EXPECT_EQ(call("foo", "removesuffix", {S("foo")}), "\"\"");
  EXPECT_EQ(call("foo", "removeprefix", {}), "error: removeprefix: got 0 arguments, want 1");
}

TEST_F(StringTest, Split) {
  auto list = [](std::initializer_list<const char *> xs) {
    std::string s = "[";
    for (const char *x : xs) {
      if (s.size() > 1)
        s += ", ";
      s += utf8::quote(x);
    }
    return s + "]";
  };
  EXPECT_EQ(call("a.b.c.d", "split", {S(".")}), list({"a", "b", "c", "d"}));
  EXPECT_EQ(call("a.b.c.d", "rsplit", {S(".")}), list({"a", "b", "c", "d"}));
  EXPECT_EQ(call("a.b.c.d", "split", {S("."), I(-1)}), list({"a", "b", "c", "d"}));
  EXPECT_EQ(call("a.b.c.d", "rsplit", {S("."), I(-1)}), list({"a", "b", "c", "d"}));
  EXPECT_EQ(call("a.b.c.d", "split", {S("."), I(0)}), list({"a.b.c.d"}));
  EXPECT_EQ(call("a.b.c.d", "rsplit", {S("."), I(0)}), list({"a.b.c.d"}));
  EXPECT_EQ(call("a.b.c.d", "split", {S("."), I(1)}), list({"a", "b.c.d"}));
  EXPECT_EQ(call("a.b.c.d", "rsplit", {S("."), I(1)}), list({"a.b.c", "d"}));
  EXPECT_EQ(call("a.b.c.d", "split", {S("."), I(2)}), list({"a", "b", "c.d"}));
  EXPECT_EQ(call("a.b.c.d", "rsplit", {S("."), I(2)}), list({"a.b", "c", "d"}));
  EXPECT_EQ(call("  ", "split", {S(".")}), list({"  "}));
  EXPECT_EQ(call("  ", "rsplit", {S(".")}), list({"  "}));
  EXPECT_EQ(call("a", "split", {S("a")}), list({"", ""}));
  EXPECT_EQ(call("aaa", "rsplit", {S("aa"), I(1)}), list({"", "a"})); // left-to-right matches

  const char *ws = " a bc\n  def \t  ghi";
  EXPECT_EQ(call(ws, "split"), list({"a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "split", {none()}), list({"a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "split", {none(), I(0)}), list({"a bc\n  def \t  ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(0)}), list({" a bc\n  def \t  ghi"}));
  EXPECT_EQ(call(ws, "split", {none(), I(1)}), list({"a", "bc\n  def \t  ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(1)}), list({" a bc\n  def", "ghi"}));
  EXPECT_EQ(call(ws, "split", {none(), I(2)}), list({"a", "bc", "def \t  ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(2)}), list({" a bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "split", {none(), I(3)}), list({"a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(3)}), list({" a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "split", {none(), I(4)}), list({"a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(4)}), list({"a", "bc", "def", "ghi"}));
  EXPECT_EQ(call(ws, "rsplit", {none(), I(5)}), list({"a", "bc", "def", "ghi"}));
  const char *ws2 = " a bc\n  def \t  ghi ";
  EXPECT_EQ(call(ws2, "split", {none(), I(0)}), list({"a bc\n  def \t  ghi "}));
  EXPECT_EQ(call(ws2, "rsplit", {none(), I(0)}), list({" a bc\n  def \t  ghi"}));
  EXPECT_EQ(call(ws2, "split", {none(), I(1)}), list({"a", "bc\n  def \t  ghi "}));
  EXPECT_EQ(call(ws2, "rsplit", {none(), I(1)}), list({" a bc\n  def", "ghi"}));

  EXPECT_EQ(call("--aa--bb--cc--", "split", {S("-"), I(0)}), list({"--aa--bb--cc--"}));
  EXPECT_EQ(call("  aa  bb  cc  ", "split", {none(), I(0)}), list({"aa  bb  cc  "}));
  EXPECT_EQ(call("--aa--bb--cc--", "rsplit", {S("-"), I(0)}), list({"--aa--bb--cc--"}));
  EXPECT_EQ(call("  aa  bb  cc  ", "rsplit", {none(), I(0)}), list({"  aa  bb  cc"}));
  EXPECT_EQ(call("--aa--bb--cc--", "split", {S("-"), I(1)}), list({"", "-aa--bb--cc--"}));
  EXPECT_EQ(call("--aa--bb--cc--", "rsplit", {S("-"), I(1)}), list({"--aa--bb--cc-", ""}));
  EXPECT_EQ(call("  aa  bb  cc  ", "split", {none(), I(1)}), list({"aa", "bb  cc  "}));
  EXPECT_EQ(call("  aa  bb  cc  ", "rsplit", {none(), I(1)}), list({"  aa  bb", "cc"}));
  EXPECT_EQ(call("--aa--bb--cc--", "split", {S("-"), I(-1)}),
            list({"", "", "aa", "", "bb", "", "cc", "", ""}));
  EXPECT_EQ(call("--aa--bb--cc--", "rsplit", {S("-"), I(-1)}),
            list({"", "", "aa", "", "bb", "", "cc", "", ""}));
  EXPECT_EQ(call("  aa  bb  cc  ", "split", {none(), I(-1)}), list({"aa", "bb", "cc"}));
  EXPECT_EQ(call("  aa  bb  cc  ", "rsplit", {none(), I(-1)}), list({"aa", "bb", "cc"}));
  EXPECT_EQ(call("  ", "split", {none()}), list({}));
  EXPECT_EQ(call("  ", "rsplit", {none()}), list({}));
  EXPECT_EQ(call("localhost:80", "rsplit", {S(":"), I(1)}), list({"localhost", "80"}));

  EXPECT_EQ(call("abc", "split", {S("")}), "error: split: empty separator");
  EXPECT_EQ(call("abc", "rsplit", {S("")}), "error: split: empty separator");
  EXPECT_EQ(call("abc", "split", {I(1)}), "error: split: got int for separator, want string");
  EXPECT_EQ(call("abc", "split", {S("b"), S("x")}),
            "error: split: for parameter 2: got string, want int");
}

TEST_F(StringTest, Splitlines) {
  EXPECT_EQ(call("\nabc\ndef", "splitlines"), "[\"\", \"abc\", \"def\"]");
  EXPECT_EQ(call("\nabc\ndef", "splitlines", {trueValue()}), "[\"\\n\", \"abc\\n\", \"def\"]");
  EXPECT_EQ(call("\nabc\ndef\n", "splitlines"), "[\"\", \"abc\", \"def\"]");
  EXPECT_EQ(call("\nabc\ndef\n", "splitlines", {trueValue()}), "[\"\\n\", \"abc\\n\", \"def\\n\"]");
  EXPECT_EQ(call("", "splitlines"), "[]");
  EXPECT_EQ(call("", "splitlines", {trueValue()}), "[]");
  EXPECT_EQ(call("a", "splitlines"), "[\"a\"]");
  EXPECT_EQ(call("\n", "splitlines"), "[\"\"]");
  EXPECT_EQ(call("\n", "splitlines", {trueValue()}), "[\"\\n\"]");
  EXPECT_EQ(call("a\n\nb", "splitlines"), "[\"a\", \"\", \"b\"]");
  EXPECT_EQ(call("a\n\nb", "splitlines", {trueValue()}), "[\"a\\n\", \"\\n\", \"b\"]");
  EXPECT_EQ(call("a\nb\nc\n", "splitlines", {trueValue()}), "[\"a\\n\", \"b\\n\", \"c\\n\"]");
  EXPECT_EQ(call("a\r\nb", "splitlines"), "[\"a\\r\", \"b\"]"); // only \n ends a line
  EXPECT_EQ(call("a", "splitlines", {I(1)}),
            "error: splitlines: for parameter 1: got int, want bool");
}

TEST_F(StringTest, CaseConversion) {
  EXPECT_EQ(call("hElLo, WoRlD!", "capitalize"), "\"Hello, world!\"");
  EXPECT_EQ(call("por qué", "capitalize"), "\"Por qué\"");
  EXPECT_EQ(call("¿Por qué?", "capitalize"), "\"¿por qué?\"");
  EXPECT_EQ(call("hElLo, WoRlD!", "lower"), "\"hello, world!\"");
  EXPECT_EQ(call("por qué", "lower"), "\"por qué\"");
  EXPECT_EQ(call("¿Por qué?", "lower"), "\"¿por qué?\"");
  EXPECT_EQ(call("ǇUBOVIĆ", "lower"), "\"ǉubović\"");
  EXPECT_EQ(call("hElLo, WoRlD!", "upper"), "\"HELLO, WORLD!\"");
  EXPECT_EQ(call("por qué", "upper"), "\"POR QUÉ\"");
  EXPECT_EQ(call("¿Por qué?", "upper"), "\"¿POR QUÉ?\"");
  EXPECT_EQ(call("ǉubović", "upper"), "\"ǇUBOVIĆ\"");
  EXPECT_EQ(call("hElLo, WoRlD!", "title"), "\"Hello, World!\"");
  EXPECT_EQ(call("por qué", "title"), "\"Por Qué\"");
  EXPECT_EQ(call("¿Por qué?", "title"), "\"¿Por Qué?\"");
  EXPECT_EQ(call("ǉubović", "title"), "\"ǈubović\"");
  EXPECT_EQ(call("ß", "upper"), "\"ß\""); // simple mappings only, as in Go
  // Invalid bytes come out as U+FFFD, as Go's strings.Map writes them.
  EXPECT_EQ(call("a\x80", "upper"), "\"A�\"");
  EXPECT_EQ(call("x", "lower", {I(1)}), "error: lower: got 1 arguments, want 0");
}

TEST_F(StringTest, Predicates) {
  // The table from string.star's test_predicates.
  const std::pair<const char *, const char *> table[] = {
      {"Hello, World!", "title"}, {"hello, world!", "lower"},   {"base64", "alnum lower"},
      {"HAL-9000", "upper"},      {"Catch-22", "title"},        {"", ""},
      {"\n\t\r", "space"},        {"abc", "alnum alpha lower"}, {"ABC", "alnum alpha upper"},
      {"123", "alnum digit"},     {"ǄǇ", "alnum alpha upper"},  {"ǅǈ", "alnum alpha"},
      {"ǅ ǈ", "title"},           {"ǆǉ", "alnum alpha lower"},
  };
  const char *predicates[] = {"alnum", "alpha", "digit", "lower", "space", "title", "upper"};
  for (auto [s, want] : table) {
    std::string got;
    for (const char *p : predicates) {
      if (call(s, ("is" + std::string(p)).c_str()) == "True") {
        if (!got.empty())
          got += ' ';
        got += p;
      }
    }
    EXPECT_EQ(got, want) << "for " << utf8::quote(s);
  }
  EXPECT_EQ(call("ǆenan ǉubović", "islower"), "True");
  EXPECT_EQ(call("ǄENAN ǇUBOVIĆ", "isupper"), "True");
  EXPECT_EQ(call("ǅenan ǈubović", "istitle"), "True");
  EXPECT_EQ(call("Ǆenan Ǉubović", "istitle"), "False");
  EXPECT_EQ(call("١٢٣", "isdigit"), "True"); // Arabic-Indic digits are Nd
  EXPECT_EQ(call("abc\x80", "islower"), "False");
}

TEST_F(StringTest, Utf8Decoding) {
  using utf8::decode;
  using utf8::decodeLast;
  EXPECT_EQ(decode("\xe4\xb8\x96").rune, U'世');
  EXPECT_EQ(decode("\xe4\xb8").size, 1u);          // truncated
  EXPECT_EQ(decode("\xed\xa0\x80").rune, 0xFFFDu); // surrogate
  EXPECT_EQ(decode("\xc0\x80").size, 1u);          // overlong
  EXPECT_EQ(decode("\xf4\x90\x80\x80").size, 1u);  // > U+10FFFF
  EXPECT_EQ(decodeLast("a\xe4\xb8\x96").rune, U'世');
  EXPECT_EQ(decodeLast("a\xe4\xb8\x96").size, 3u);
  EXPECT_EQ(decodeLast("\xe4\xb8").size, 1u);
  EXPECT_EQ(utf8::countRunes("a\xe4\xb8\x96\x80"), 3u);
  EXPECT_EQ(utf8::toValid("a\x80\xe4\xb8\x96"), "a\xef\xbf\xbd\xe4\xb8\x96");
  std::string out;
  utf8::encode(out, 0xD800);
  utf8::encode(out, 0x1F63F);
  EXPECT_EQ(out, "\xef\xbf\xbd\xf0\x9f\x98\xbf");
}

} // namespace
} // namespace fbc::star
