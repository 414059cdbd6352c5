// The bytes type (newer Go): repr, hashing, ordering, indexing, elems().
// Cases from go.starlark.net's later testdata/bytes.star.
#include "frontend/lib/methods.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace fbc::star {
namespace {

class BytesTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};
  Value B(std::string_view s) { return makeBytes(heap, s); }
  Value I(int64_t v) { return makeInt(heap, v); }
  std::string err(const std::function<void()> &f) {
    try {
      f();
    } catch (const EvalError &e) {
      return e.message();
    }
    return "<no error>";
  }
};

TEST_F(BytesTest, Repr) {
  EXPECT_EQ(repr(B("hello, 世界")), "b\"hello, 世界\"");
  EXPECT_EQ(repr(B(std::string_view("hello, 世界").substr(0, 12))), "b\"hello, 世\\xe7\\x95\"");
  EXPECT_EQ(repr(B("goodbye")), "b\"goodbye\"");
  EXPECT_EQ(repr(B("")), "b\"\"");
  EXPECT_EQ(repr(B("\t\n\x7f\u200d")), "b\"\\t\\n\\x7f\\u200d\"");
  EXPECT_EQ(str(B("ab")), "b\"ab\"");
  EXPECT_EQ(typeName(B("")), "bytes");
}

TEST_F(BytesTest, HashIsFnv1a) {
  auto h = [&](std::string_view s) { return B(s).obj()->hash(t); };
  EXPECT_EQ(h(""), 0x811c9dc5u);
  EXPECT_EQ(h("a"), 0xe40c292cu);
  EXPECT_EQ(h("ab"), 0x4d2505cau);
  EXPECT_EQ(h("abc"), 0x1a47e90bu);
}

TEST_F(BytesTest, EqualityOrderingTruth) {
  Value abc = B("abc");
  EXPECT_TRUE(abc.obj()->equals(t, *B("abc").obj(), 0));
  EXPECT_FALSE(abc.obj()->equals(t, *B("abd").obj(), 0));
  EXPECT_EQ(abc.obj()->compare(t, *B("abd").obj(), 0), -1);
  EXPECT_EQ(abc.obj()->compare(t, *B("abcd").obj(), 0), -1);
  EXPECT_EQ(B("\x7f").obj()->compare(t, *B("\x80").obj(), 0), -1); // bytes are unsigned
  EXPECT_EQ(B("b").obj()->compare(t, *abc.obj(), 0), 1);
  EXPECT_TRUE(abc.obj()->truth());
  EXPECT_FALSE(B("").obj()->truth());
  EXPECT_EQ(B("😿").obj()->length(), 4);
}

TEST_F(BytesTest, Index) {
  Value goodbye = B("goodbye");
  EXPECT_EQ(repr(goodbye.obj()->index(t, I(0))), "b\"g\"");
  EXPECT_EQ(repr(goodbye.obj()->index(t, I(-1))), "b\"e\"");
  EXPECT_EQ(err([&] { goodbye.obj()->index(t, I(100)); }), "bytes index 100 out of range [-7:6]");
  EXPECT_EQ(err([&] { B("").obj()->index(t, I(0)); }), "index 0 out of range: empty bytes");
  EXPECT_EQ(err([&] { goodbye.obj()->index(t, none()); }), "bytes index: got NoneType, want int");
}

TEST_F(BytesTest, NotIterableButElemsIs) {
  Value hello = B("hello, 世界");
  EXPECT_EQ(hello.obj()->iterate(t), nullptr);
  auto methods = bytesMethods();
  ASSERT_EQ(methods.size(), 1u);
  EXPECT_STREQ(methods[0].name, "elems");
  Value elems = methods[0].fn(t, hello, Args{});
  EXPECT_EQ(typeName(elems), "bytes.elems");
  EXPECT_EQ(repr(elems), "b\"hello, 世界\".elems()");
  std::vector<Value> got;
  IterationScope it(t, elems);
  for (Value v; it.next(v);)
    got.push_back(v);
  EXPECT_EQ(repr(Value::object(heap.make<List>(got))),
            "[104, 101, 108, 108, 111, 44, 32, 228, 184, 150, 231, 149, 140]");
  EXPECT_EQ(elems.obj()->length(), 13);
  EXPECT_EQ(repr(elems.obj()->index(t, I(-1))), "140");
  EXPECT_EQ(err([&] {
              methods[0].fn(t, hello, Args{{&elems, 1}, {}});
            }),
            "elems: got 1 arguments, want 0");
}

} // namespace
} // namespace fbc::star
