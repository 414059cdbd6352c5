// The generic value operations (ops.h): type names, truth, equality and
// ordering across types, operator dispatch and its error messages,
// attributes with spelling hints, slicing and iteration. Messages are Go
// Starlark's (eval.go, value.go and the *.star conformance tests).
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/spellcheck.h"

#include <gtest/gtest.h>

#include <functional>

namespace fbc::star {
namespace {

class OpsTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value I(int64_t v) { return makeInt(heap, v); }
  Value L(const char *literal) { return parseIntLiteral(heap, literal); }
  Value F(double d) { return makeFloat(heap, d); }
  Value S(std::string_view s) { return makeString(heap, s); }
  Value B(std::string_view s) { return makeBytes(heap, s); }
  Value list(std::vector<Value> v) { return Value::object(heap.make<List>(std::move(v))); }
  Value tuple(std::vector<Value> v) { return Value::object(makeTuple(heap, v)); }
  Value range(int64_t start, int64_t stop, int64_t step, int64_t len) {
    return Value::object(heap.make<Range>(start, stop, step, len));
  }
  std::string str(Value v) {
    if (const String *s = v.as<String>())
      return std::string(s->view());
    if (const Bytes *b = v.as<Bytes>())
      return std::string(b->view());
    if (v.isInt())
      return intToString(v);
    if (const Float *f = v.as<Float>())
      return floatToString(f->value);
    std::string out = "<";
    out.append(typeName(v)).push_back('>');
    return out;
  }
  // Elements of a list or tuple, each through str(), comma-separated.
  std::string elems(Value v) {
    std::string out;
    for (Value e : toVector(t, v)) {
      if (!out.empty())
        out += ',';
      out += str(e);
    }
    return out;
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

// --- numbers, None and bool (no other engineer's code involved) ---------

TEST_F(OpsTest, TypeNamesAndTruth) {
  EXPECT_EQ(typeName(I(1)), "int");
  EXPECT_EQ(typeName(L("100000000000000000000")), "int");
  EXPECT_EQ(typeName(F(1)), "float");
  EXPECT_EQ(typeName(none()), "NoneType");
  EXPECT_EQ(typeName(trueValue()), "bool");
  EXPECT_FALSE(truth(I(0)));
  EXPECT_TRUE(truth(I(-1)));
  EXPECT_TRUE(truth(L("100000000000000000000")));
  EXPECT_FALSE(truth(F(0.0)));
  EXPECT_FALSE(truth(F(-0.0)));
  EXPECT_TRUE(truth(F(NAN)));
  EXPECT_TRUE(truth(F(-1e-45)));
  EXPECT_FALSE(truth(none()));
  EXPECT_FALSE(truth(falseValue()));
  EXPECT_TRUE(truth(trueValue()));
  EXPECT_EQ(boolean(true), trueValue());
  EXPECT_EQ(length(I(3)), -1);
}

TEST_F(OpsTest, EqualityAcrossTypes) {
  EXPECT_TRUE(equals(t, I(1), F(1.0)));
  EXPECT_TRUE(equals(t, F(0.0), I(0)));
  EXPECT_TRUE(equals(t, L("100000000000000000000"), F(1e20)));
  EXPECT_FALSE(equals(t, trueValue(), I(1))); // bool is not a number
  EXPECT_FALSE(equals(t, falseValue(), F(0.0)));
  EXPECT_FALSE(equals(t, none(), falseValue()));
  EXPECT_TRUE(equals(t, none(), none()));
  EXPECT_TRUE(compare(t, CmpOp::Ne, trueValue(), F(1.0)));
  EXPECT_TRUE(compare(t, CmpOp::Lt, falseValue(), trueValue()));
  EXPECT_FALSE(compare(t, CmpOp::Gt, falseValue(), trueValue()));
  EXPECT_EQ(order(t, I(-5), I(3)), -1);
  EXPECT_EQ(order(t, F(2.5), I(2)), 1);
  EXPECT_EQ(hashValue(t, I(1)), hashValue(t, F(1.0)));
  EXPECT_EQ(hashValue(t, L("100000000000000000000")), hashValue(t, F(1e20)));
}

TEST_F(OpsTest, OrderedComparisonErrors) {
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, none(), none()); }),
            "NoneType < NoneType not implemented");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Ge, none(), none()); }),
            "NoneType >= NoneType not implemented");
  EXPECT_EQ(err([&] { order(t, I(1), none()); }), "int < NoneType not implemented");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Le, trueValue(), I(1)); }), "bool <= int not implemented");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Gt, F(1), none()); }), "float > NoneType not implemented");
}

TEST_F(OpsTest, UnknownOperators) {
  EXPECT_EQ(err([&] { binary(t, BinOp::Add, trueValue(), I(1)); }),
            "unknown binary op: bool + int");
  EXPECT_EQ(err([&] { binary(t, BinOp::Sub, none(), none()); }),
            "unknown binary op: NoneType - NoneType");
  EXPECT_EQ(err([&] { binary(t, BinOp::FloorDiv, F(1), none()); }),
            "unknown binary op: float // NoneType");
  EXPECT_EQ(err([&] { binary(t, BinOp::In, I(1), I(2)); }), "unknown binary op: int in int");
  EXPECT_EQ(err([&] { binary(t, BinOp::NotIn, I(1), I(2)); }), "unknown binary op: int in int");
  EXPECT_EQ(err([&] { unary(t, UnOp::Neg, none()); }), "unknown unary op: - NoneType");
  EXPECT_EQ(err([&] { unary(t, UnOp::Plus, trueValue()); }), "unknown unary op: + bool");
  EXPECT_EQ(err([&] { binary(t, BinOp::Shl, I(1), none()); }), "got NoneType, want int");
  EXPECT_EQ(str(binary(t, BinOp::Add, I(Value::kMaxSmall), I(1))), "4611686018427387904");
  EXPECT_EQ(str(binary(t, BinOp::Mul, I(3), I(-4))), "-12");
  EXPECT_EQ(binOpSpelling(BinOp::NotIn), std::string("not in"));
  EXPECT_EQ(cmpOpSpelling(CmpOp::Ge), std::string(">="));
}

TEST_F(OpsTest, ScalarsHaveNoAttributesIndexOrIteration) {
  EXPECT_EQ(err([&] { getAttr(t, I(1), "real"); }), "int has no .real field or method");
  EXPECT_EQ(err([&] { getAttr(t, none(), "x"); }), "NoneType has no .x field or method");
  EXPECT_FALSE(getAttrOrNull(t, F(1), "x"));
  EXPECT_EQ(err([&] { setField(t, I(1), "x", I(2)); }), "can't assign to .x field of int");
  EXPECT_EQ(err([&] { setField(t, none(), "x", I(2)); }), "can't assign to .x field of NoneType");
  EXPECT_TRUE(attrNames(I(1)).empty());
  EXPECT_EQ(err([&] { getIndex(t, I(1), I(0)); }), "unhandled index operation int[int]");
  EXPECT_EQ(err([&] { getIndex(t, F(1), none()); }), "unhandled index operation float[NoneType]");
  EXPECT_EQ(err([&] { setIndex(t, I(1), I(0), I(0)); }),
            "int value does not support item assignment");
  EXPECT_EQ(err([&] { iterate(t, F(0.0)); }), "float value is not iterable");
  EXPECT_EQ(err([&] { iterate(t, I(1)); }), "int value is not iterable");
  EXPECT_EQ(err([&] { slice(t, I(1), Value(), Value(), Value()); }), "invalid slice operand int");
  EXPECT_EQ(err([&] { hashValue(t, none()); }), "<no error>");
}

TEST_F(OpsTest, SpellCheck) {
  std::vector<std::string> names = {"find", "format", "startswith", "forty_five", "one", "three"};
  EXPECT_EQ(nearestName("starts_with", names), "startswith");
  EXPECT_EQ(nearestName("StartsWith", names), "startswith");
  EXPECT_EQ(nearestName("fin", names), "find");
  EXPECT_EQ(nearestName("One", names), "one");
  EXPECT_EQ(nearestName("oone", names), "one");
  EXPECT_EQ(nearestName("FortyFive", names), "forty_five");
  EXPECT_EQ(nearestName("noForty_Five", names), "forty_five");
  EXPECT_EQ(nearestName("trhee", names), "three");
  EXPECT_EQ(nearestName("xyzzy", names), "");
  EXPECT_EQ(nearestName("", names), "");
  std::vector<std::string_view> module = {"eq", "fails", "lt", "true"};
  EXPECT_EQ(nearestName("falls", module), "fails");
  EXPECT_EQ(nearestName("nonesuch", module), "");
  // Two adjacent letters swapped are one edit (Levenshtein counts two,
  // which is no suggestion for a 4-letter name: 2 is not under half of 4).
  std::vector<std::string_view> steps = {"send", "get", "set"};
  EXPECT_EQ(nearestName("sned", steps), "send");
  EXPECT_EQ(nearestName("esnd", steps), "send");
  EXPECT_EQ(nearestName("gte", steps), "get");
  EXPECT_EQ(nearestName("dnes", steps), ""); // two swaps apart: too far
  std::vector<std::string_view> syscalls = {"write", "read", "fsync"};
  EXPECT_EQ(nearestName("wrtie", syscalls), "write");
  EXPECT_EQ(nearestName("fsnyc", syscalls), "fsync");
}

// --- strings, bytes and containers (with the string and container code) ---

TEST_F(OpsTest, StringOperators) {
  EXPECT_EQ(str(binary(t, BinOp::Add, S("ab"), S("cd"))), "abcd");
  EXPECT_EQ(str(binary(t, BinOp::Mul, S("ab"), I(3))), "ababab");
  EXPECT_EQ(str(binary(t, BinOp::Mul, I(2), S("xy"))), "xyxy");
  EXPECT_EQ(str(binary(t, BinOp::Mul, S("ab"), I(-1))), "");
  EXPECT_EQ(str(binary(t, BinOp::Mul, S(""), L("100000000000000000000"))), "");
  EXPECT_EQ(err([&] { binary(t, BinOp::Mul, S("abc"), I(1000000000000)); }),
            "repeat count 1000000000000 too large");
  EXPECT_EQ(err([&] { binary(t, BinOp::Mul, S("abc"), L("100000000000000000000")); }),
            "repeat count 100000000000000000000 too large");
  EXPECT_EQ(
      err([&] { binary(t, BinOp::Mul, binary(t, BinOp::Mul, S("abc"), I(1000000)), I(1000000)); }),
      "excessive repeat (3000000 * 1000000 elements)");
  EXPECT_EQ(err([&] { binary(t, BinOp::Add, S("a"), I(1)); }), "unknown binary op: string + int");
  EXPECT_EQ(err([&] { binary(t, BinOp::Mul, S("a"), F(2)); }), "unknown binary op: string * float");
  EXPECT_EQ(err([&] { unary(t, UnOp::Neg, S("a")); }), "unknown unary op: - string");
  EXPECT_TRUE(truth(binary(t, BinOp::In, S("ell"), S("hello"))));
  EXPECT_TRUE(truth(binary(t, BinOp::In, S(""), S("x"))));
  EXPECT_TRUE(truth(binary(t, BinOp::NotIn, S("z"), S("hello"))));
  EXPECT_EQ(err([&] { binary(t, BinOp::In, I(1), S("")); }),
            "'in <string>' requires string as left operand, not int");
  EXPECT_EQ(err([&] { binary(t, BinOp::In, S(""), I(1)); }), "unknown binary op: string in int");
  EXPECT_EQ(str(binary(t, BinOp::Mod, S("%d%%"), I(5))), "5%");
  EXPECT_EQ(str(binary(t, BinOp::Mul, B("ab"), I(2))), "abab");
  EXPECT_TRUE(truth(binary(t, BinOp::In, I('b'), B("abc"))));
  EXPECT_TRUE(truth(binary(t, BinOp::In, B("bc"), B("abc"))));
  EXPECT_EQ(err([&] { binary(t, BinOp::In, I(256), B("abc")); }),
            "int in bytes: 256 out of range (want value in unsigned 8-bit range)");
  EXPECT_EQ(err([&] { binary(t, BinOp::In, S("a"), B("abc")); }),
            "'in bytes' requires bytes or int as left operand, not string");
}

TEST_F(OpsTest, StringEqualityAndOrder) {
  EXPECT_TRUE(equals(t, S("abc"), S("abc")));
  EXPECT_FALSE(equals(t, S("abc"), S("abd")));
  EXPECT_FALSE(equals(t, S("1"), I(1)));
  EXPECT_TRUE(compare(t, CmpOp::Lt, S("abc"), S("abd")));
  EXPECT_TRUE(compare(t, CmpOp::Lt, S("ab"), S("abc")));
  EXPECT_TRUE(compare(t, CmpOp::Lt, S("z"), S("\xc3\xa9"))); // bytes compare unsigned
  EXPECT_EQ(order(t, S("b"), S("a")), 1);
  EXPECT_EQ(err([&] { order(t, S("one"), I(1)); }), "string < int not implemented");
  EXPECT_EQ(hashValue(t, S("abc")), hashValue(t, S("abc")));
}

TEST_F(OpsTest, Slicing) {
  auto sl = [&](Value x, Value lo, Value hi, Value step) { return str(slice(t, x, lo, hi, step)); };
  Value n;
  EXPECT_EQ(sl(S("abc"), I(-4), n, n), "abc");
  EXPECT_EQ(sl(S("banana"), I(7), n, I(-2)), "aaa");
  EXPECT_EQ(sl(S("banana"), n, n, I(-1)), "ananab");
  EXPECT_EQ(sl(S("banana"), I(1), I(-1), I(2)), "aa");
  EXPECT_EQ(sl(S("banana"), I(1), n, I(2)), "aaa");
  EXPECT_EQ(sl(S("banana"), I(4), I(1), n), "");
  EXPECT_EQ(sl(S("banana"), none(), none(), none()), "banana");
  EXPECT_EQ(sl(S("h\xc3\xa9llo"), I(1), I(3), n), "\xc3\xa9");
  EXPECT_EQ(sl(B("abcdef"), I(-2), n, n), "ef");
  EXPECT_EQ(err([&] { slice(t, S("banana"), n, n, I(0)); }), "zero is not a valid slice step");
  EXPECT_EQ(err([&] { slice(t, S("banana"), n, n, trueValue()); }),
            "invalid slice step: got bool, want int");
  EXPECT_EQ(err([&] { slice(t, S("abc"), F(1), n, n); }),
            "invalid start index: got float, want int");
  EXPECT_EQ(err([&] { slice(t, S("abc"), n, S("x"), I(-1)); }),
            "invalid end index: got string, want int");
  EXPECT_EQ(err([&] { slice(t, S("abc"), n, L("0x10000000000"), n); }),
            "invalid end index: 1099511627776 out of range");
  EXPECT_EQ(elems(slice(t, list({I(0), I(1), I(2), I(3)}), I(3), I(0), I(-1))), "3,2,1");
  EXPECT_EQ(elems(slice(t, tuple({I(0), I(1), I(2), I(3)}), I(1), n, n)), "1,2,3");
  EXPECT_EQ(elems(slice(t, tuple({I(0), I(1), I(2), I(3)}), n, n, I(2))), "0,2");
  Value r = slice(t, range(0, 10, 1, 10), I(1), I(8), I(3));
  ASSERT_TRUE(r.as<Range>());
  EXPECT_EQ(r.as<Range>()->start, 1);
  EXPECT_EQ(r.as<Range>()->step, 3);
  EXPECT_EQ(r.as<Range>()->len, 3);
  EXPECT_EQ(elems(r), "1,4,7");
  EXPECT_EQ(elems(slice(t, range(0, 10, 1, 10), n, n, I(-4))), "9,5,1");
  EXPECT_EQ(err([&] { slice(t, none(), n, n, n); }), "invalid slice operand NoneType");
}

TEST_F(OpsTest, SequenceOperators) {
  Value a = list({I(1), I(2)}), b = list({I(3)});
  EXPECT_EQ(elems(binary(t, BinOp::Add, a, b)), "1,2,3");
  EXPECT_EQ(elems(binary(t, BinOp::Mul, a, I(2))), "1,2,1,2");
  EXPECT_EQ(elems(binary(t, BinOp::Mul, I(2), tuple({I(7)}))), "7,7");
  EXPECT_EQ(elems(binary(t, BinOp::Add, tuple({I(1)}), tuple({S("x")}))), "1,x");
  EXPECT_EQ(elems(binary(t, BinOp::Mul, tuple({I(1)}), I(0))), "");
  EXPECT_EQ(err([&] { binary(t, BinOp::Add, a, tuple({})); }), "unknown binary op: list + tuple");
  EXPECT_EQ(err([&] { binary(t, BinOp::Add, a, I(1)); }), "unknown binary op: list + int");
  EXPECT_EQ(err([&] {
              binary(t, BinOp::Mul, tuple({I(1), I(2), I(3)}), I(1000000000000));
            }),
            "repeat count 1000000000000 too large");
  EXPECT_TRUE(truth(binary(t, BinOp::In, F(2.0), a)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, S("2"), a)));
  EXPECT_TRUE(truth(binary(t, BinOp::NotIn, I(5), tuple({I(1)}))));
  EXPECT_TRUE(equals(t, a, list({I(1), F(2.0)})));
  EXPECT_FALSE(equals(t, a, tuple({I(1), I(2)})));
  EXPECT_TRUE(compare(t, CmpOp::Lt, a, list({I(1), I(3)})));
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, a, tuple({})); }), "list < tuple not implemented");
  EXPECT_EQ(err([&] { hashValue(t, a); }), "unhashable type: list");
  EXPECT_EQ(err([&] { iterate(t, S("abc")); }), "string value is not iterable");
}

TEST_F(OpsTest, RangeMembership) {
  Value r = range(0, 10, 3, 4); // 0 3 6 9
  EXPECT_TRUE(truth(binary(t, BinOp::In, I(6), r)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, I(7), r)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, I(12), r)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, I(-3), r)));
  EXPECT_TRUE(truth(binary(t, BinOp::In, F(3.0), r)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, L("100000000000000000000"), r)));
  EXPECT_TRUE(truth(binary(t, BinOp::In, I(-4), range(0, -10, -2, 5))));
  EXPECT_EQ(err([&] { binary(t, BinOp::In, trueValue(), r); }),
            "'in <range>' requires integer as left operand, not bool");
  EXPECT_EQ(err([&] { binary(t, BinOp::In, S("one"), r); }),
            "'in <range>' requires integer as left operand, not string");
  EXPECT_EQ(err([&] { binary(t, BinOp::In, F(NAN), r); }),
            "'in <range>' requires integer as left operand, not float");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, r, r); }), "range < range not implemented");
}

TEST_F(OpsTest, DictsAndSets) {
  Dict *d = heap.make<Dict>();
  d->put(t, S("a"), I(1));
  d->put(t, I(2), S("b"));
  Value dv = Value::object(d);
  EXPECT_TRUE(truth(binary(t, BinOp::In, S("a"), dv)));
  EXPECT_TRUE(truth(binary(t, BinOp::In, F(2.0), dv)));
  EXPECT_FALSE(truth(binary(t, BinOp::In, list({}), dv))); // no "unhashable" error
  EXPECT_EQ(err([&] { binary(t, BinOp::Add, dv, dv); }), "unknown binary op: dict + dict");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, dv, dv); }), "dict < dict not implemented");
  Dict *e = heap.make<Dict>();
  e->put(t, S("a"), I(10));
  e->put(t, S("c"), I(3));
  Value u = binary(t, BinOp::BitOr, dv, Value::object(e));
  ASSERT_TRUE(u.as<Dict>());
  EXPECT_EQ(u.as<Dict>()->table.size(), 3u);
  EXPECT_EQ(str(u.as<Dict>()->table.get(t, S("a"))), "10");

  auto set = [&](std::vector<Value> v) {
    Set *s = heap.make<Set>();
    for (Value x : v)
      s->insert(t, x);
    return Value::object(s);
  };
  Value x = set({I(1), I(2), I(3)}), y = set({I(3), I(4), I(5)});
  auto keys = [&](Value s) {
    std::string out;
    for (const HashTable::Entry &en : s.as<Set>()->table.entries())
      if (!en.value.isNull()) {
        if (!out.empty())
          out += ',';
        out += str(en.key);
      }
    return out;
  };
  EXPECT_EQ(keys(binary(t, BinOp::BitOr, x, y)), "1,2,3,4,5");
  EXPECT_EQ(keys(binary(t, BinOp::BitAnd, x, y)), "3");
  EXPECT_EQ(keys(binary(t, BinOp::BitXor, x, y)), "1,2,4,5");
  EXPECT_EQ(keys(binary(t, BinOp::Sub, x, y)), "1,2");
  EXPECT_EQ(keys(binary(t, BinOp::Sub, y, x)), "4,5");
  EXPECT_TRUE(truth(binary(t, BinOp::In, I(2), x)));
  EXPECT_EQ(err([&] { binary(t, BinOp::In, list({}), x); }), "unhashable type: list");
  EXPECT_EQ(err([&] { binary(t, BinOp::BitOr, x, list({})); }), "unknown binary op: set | list");
}

TEST_F(OpsTest, CyclicComparisonFails) {
  List *cyclic = heap.make<List>(std::vector<Value>{I(1), I(2), I(3)});
  cyclic->elems[1] = Value::object(cyclic);
  Value c = Value::object(cyclic);
  EXPECT_EQ(err([&] { equals(t, c, c); }), "comparison exceeded maximum recursion depth");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, c, c); }),
            "comparison exceeded maximum recursion depth");
  // Nine levels of nesting are fine, ten are not (Go's maxdepth).
  Value deep9 = S("x"), deep10;
  for (int i = 0; i < 9; ++i)
    deep9 = list({deep9});
  deep10 = list({deep9});
  EXPECT_TRUE(equals(t, deep9, deep9));
  EXPECT_EQ(err([&] { equals(t, deep10, deep10); }), "comparison exceeded maximum recursion depth");
  // The limit applies to any operands, even two inline ints (Go checks it first).
  EXPECT_TRUE(equals(t, I(1), I(1), 9));
  EXPECT_EQ(err([&] { equals(t, I(1), I(1), 10); }), "comparison exceeded maximum recursion depth");
  EXPECT_EQ(err([&] { compare(t, CmpOp::Lt, I(1), I(2), 10); }),
            "comparison exceeded maximum recursion depth");
}

TEST_F(OpsTest, MethodsAndAttributes) {
  Value s = S("hello");
  Value m = getAttr(t, s, "startswith");
  ASSERT_TRUE(m.as<Builtin>());
  EXPECT_EQ(m.as<Builtin>()->self, s);
  EXPECT_EQ(err([&] { getAttr(t, s, "starts_with"); }),
            "string has no .starts_with field or method (did you mean .startswith?)");
  EXPECT_EQ(err([&] { getAttr(t, s, "fin"); }),
            "string has no .fin field or method (did you mean .find?)");
  EXPECT_EQ(err([&] { getAttr(t, list({}), "nonesuch"); }),
            "list has no .nonesuch field or method");
  std::vector<std::string> dictNames = attrNames(Value::object(heap.make<Dict>()));
  ASSERT_GE(dictNames.size(), 3u);
  EXPECT_EQ(dictNames[0], "clear");
  EXPECT_EQ(dictNames[1], "get");
  EXPECT_EQ(dictNames[2], "items");
  EXPECT_EQ(err([&] { setField(t, list({}), "x", I(1)); }), "can't assign to .x field of list");
}

TEST_F(OpsTest, ToVector) {
  EXPECT_EQ(elems(list({I(1), S("a")})), "1,a");
  EXPECT_EQ(elems(tuple({})), "");
  EXPECT_EQ(elems(range(2, 5, 1, 3)), "2,3,4");
  EXPECT_EQ(err([&] { toVector(t, I(3)); }), "int value is not iterable");
}

} // namespace
} // namespace fbc::star
