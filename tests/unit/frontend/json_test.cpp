// The json module: encode, decode (simdjson and the Go-compatible path)
// and indent. Expected values and messages come from Go Starlark
// (starlark/testdata/json.star and the Go interpreter).
#include "frontend/eval/big_stack.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/json/json_scan.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/struct.h"
#include "frontend/lib/utf8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fbc::star {
namespace {

Value dummyBuiltin(Thread &, Value, const Args &) {
  return none();
}

class JsonTest : public ::testing::Test {
protected:
  Heap heap;
  Thread t{heap};

  Value S(std::string_view s) { return makeString(heap, s); }
  Value I(int64_t v) { return makeInt(heap, v); }
  Value F(double v) { return makeFloat(heap, v); }
  Value tuple(std::vector<Value> v) { return Value::object(makeTuple(heap, v)); }
  Value list(std::vector<Value> v) { return Value::object(heap.make<List>(std::move(v))); }
  Value dict(std::vector<std::pair<Value, Value>> items) {
    Dict *d = heap.make<Dict>();
    for (auto &[k, v] : items)
      d->put(t, k, v);
    return Value::object(d);
  }
  Value builtin() { return Value::object(heap.make<Builtin>("len", dummyBuiltin)); }

  std::string encode(Value x) {
    try {
      return encodeJson(t, x);
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
  // decode(s) as repr text, or "error: <message>".
  std::string decode(std::string_view s) {
    try {
      return repr(decodeJson(t, s));
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
  std::string indent(std::string_view s, std::string_view prefix = "",
                     std::string_view unit = "\t") {
    try {
      return indentJson(t, s, prefix, unit);
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
  // module.name(positional..., **kwargs) as repr text or "error: ...".
  std::string callMember(const char *name, std::vector<Value> positional,
                         std::vector<std::pair<const char *, Value>> kwargs = {}) {
    Value m = makeJsonModule(heap);
    Value fn = m.obj()->attr(t, name);
    std::vector<Kwarg> kw;
    for (auto &[k, v] : kwargs)
      kw.push_back(Kwarg{S(k).as<String>(), v});
    try {
      auto *b = static_cast<Builtin *>(fn.obj());
      return repr(b->fn(t, Value(), Args{positional, kw}));
    } catch (const EvalError &e) {
      return "error: " + e.message();
    }
  }
};

TEST_F(JsonTest, Module) {
  Value m = makeJsonModule(heap);
  EXPECT_EQ(typeName(m), "module");
  EXPECT_TRUE(m.obj()->frozen());
  std::vector<std::string> names;
  m.obj()->attrNames(names);
  EXPECT_EQ(names, (std::vector<std::string>{"decode", "encode", "encode_indent", "indent"}));
  EXPECT_EQ(repr(m.obj()->attr(t, "encode")), "<built-in function json.encode>");
}

TEST_F(JsonTest, EncodeScalarsAndContainers) {
  Value big = parseIntLiteral(heap, "3539537889086624823140625");
  EXPECT_EQ(
      encode(list({none(), trueValue(), falseValue(), I(-123), big, F(3539537889086624823140625.0),
                   F(12.345e67), F(1.0), F(1e6), F(-0.0), F(0.5)})),
      "[null,true,false,-123,3539537889086624823140625,3.539537889086625e+24,1.2345e+68,1.0,"
      "1e+06,-0.0,0.5]");
  // A float keeps a '.' or an exponent, so it decodes back as a float
  // (go.starlark.net #564; json.star number_roundtrip).
  EXPECT_EQ(decode(encode(F(1.0))), "1.0");
  EXPECT_EQ(decode(encode(F(-3.0))), "-3.0");
  EXPECT_EQ(encode(S("hello")), "\"hello\"");
  EXPECT_EQ(encode(tuple({I(1), I(2), I(3)})), "[1,2,3]");
  EXPECT_EQ(encode(Value::object(heap.make<Range>(0, 3, 1, 3))), "[0,1,2]");
  EXPECT_EQ(encode(dict(
                {{S("y"), I(1)}, {S("x"), list({I(1), tuple({I(2), I(3)})})}, {S("a"), dict({})}})),
            "{\"a\":{},\"x\":[1,[2,3]],\"y\":1}");
  EXPECT_EQ(encode(Value::object(makeStruct(heap, {{"y", S("two")}, {"x", I(1)}}))),
            "{\"x\":1,\"y\":\"two\"}");
  Set *set = heap.make<Set>();
  set->insert(t, I(3));
  set->insert(t, I(1));
  EXPECT_EQ(encode(Value::object(set)), "[3,1]");
}

TEST_F(JsonTest, EncodeStrings) {
  EXPECT_EQ(encode(S("\x80")), "\"\\ufffd\"");
  EXPECT_EQ(encode(S("a\"b\\c")), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(encode(S("\x7f<>&\u2028\u2029\x01\b\f\n\r\t\"\\é")),
            "\"\x7f\\u003c\\u003e\\u0026\\u2028\\u2029\\u0001\\u0008\\u000c\\n\\r\\t\\\"\\\\é\"");
  EXPECT_EQ(encode(S("\x7f")), "\"\\x7f\""); // Go's strconv.Quote path, sic
  EXPECT_EQ(encode(S("<")), "\"<\"");
}

TEST_F(JsonTest, EncodeErrors) {
  EXPECT_EQ(encode(F(std::nan(""))), "error: json.encode: cannot encode non-finite float nan");
  EXPECT_EQ(encode(F(-INFINITY)), "error: json.encode: cannot encode non-finite float -inf");
  EXPECT_EQ(encode(dict({{I(1), S("two")}})), "error: json.encode: dict has int key, want string");
  EXPECT_EQ(encode(builtin()),
            "error: json.encode: cannot encode builtin_function_or_method as JSON");
  Value nested =
      Value::object(makeStruct(heap, {{"x", list({I(1), dict({{S("x"), builtin()}})})}}));
  EXPECT_EQ(encode(nested), "error: json.encode: in field .x: at list index 1: in dict key \"x\": "
                            "cannot encode builtin_function_or_method as JSON");
  EXPECT_EQ(encode(dict({{S("k"), list({I(1), tuple({I(2), F(INFINITY)})})}})),
            "error: json.encode: in dict key \"k\": at list index 1: at tuple index 1: cannot "
            "encode non-finite float +inf");
  List *cyclic = heap.make<List>();
  cyclic->elems.push_back(Value::object(cyclic));
  EXPECT_EQ(encode(Value::object(cyclic)),
            "error: json.encode: at list index 0: cycle in JSON structure");
  EXPECT_EQ(callMember("encode", {}), "error: json.encode: got 0 arguments, want 1");
  EXPECT_EQ(callMember("encode", {I(1), I(2)}), "error: json.encode: got 2 arguments, want 1");
}

TEST_F(JsonTest, DecodeValues) {
  EXPECT_EQ(decode("null"), "None");
  EXPECT_EQ(decode("true"), "True");
  EXPECT_EQ(decode("false"), "False");
  EXPECT_EQ(decode("-123"), "-123");
  EXPECT_EQ(decode("-0"), "0");
  EXPECT_EQ(decode("-0.0"), "-0.0");
  EXPECT_EQ(decode("0e+1"), "0.0");
  EXPECT_EQ(decode("3539537889086624823140625"), "3539537889086624823140625");
  EXPECT_EQ(decode("3539537889086624823140625.0"), "3.539537889086625e+24");
  EXPECT_EQ(decode("3.539537889086625e+24"), "3.539537889086625e+24");
  EXPECT_EQ(decode("18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(decode("9223372036854775808"), "9223372036854775808");
  EXPECT_EQ(decode("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(decode("-9223372036854775809"), "-9223372036854775809");
  EXPECT_EQ(decode("4611686018427387904"), "4611686018427387904"); // just past the inline range
  EXPECT_EQ(decode("[]"), "[]");
  EXPECT_EQ(decode(" \t\n[ ] "), "[]");
  EXPECT_EQ(decode("[1,2,3]"), "[1, 2, 3]");
  EXPECT_EQ(decode("[1,2,{\"a\":[true,false,null]}]"), "[1, 2, {\"a\": [True, False, None]}]");
  EXPECT_EQ(decode("{\"one\": 1, \"two\": 2}"), "{\"one\": 1, \"two\": 2}");
  EXPECT_EQ(decode("{\"a\":1,\"a\":2,\"b\":3}"), "{\"a\": 2, \"b\": 3}");
  EXPECT_EQ(decode("{\"foo\\u0000bar\": 42}"), "{\"foo\\x00bar\": 42}");
  EXPECT_EQ(decode("\"\\ud83d\\ude39\\ud83d\\udc8d\""), "\"😹💍\"");
  EXPECT_EQ(decode("\"\\u0123\""), "\"ģ\"");
  EXPECT_EQ(decode("\"\x7f\""), "\"\\x7f\"");
  EXPECT_EQ(decode("\"a\\\"b\""), "\"a\\\"b\"");
  EXPECT_EQ(decode("\"\\/\""), "\"/\"");
  EXPECT_EQ(decode("-0.000000000000000000000000000000000000000000000000000000000000000000000000000"
                   "001"),
            "-1e-78");
  // Decoded containers are new and mutable.
  Value l = decodeJson(t, "[1]");
  EXPECT_FALSE(l.obj()->frozen());
}

TEST_F(JsonTest, DecodeGoLeniencies) {
  // Accepted by Go's decoder although not RFC 8259 JSON.
  EXPECT_EQ(decode("\"\x01\""), "\"\\x01\"");
  EXPECT_EQ(decode("\"\xff\""), "\"\ufffd\"");
  EXPECT_EQ(decode("\"\\ud800\""), "\"\ufffd\"");
  EXPECT_EQ(decode("\"\\ud800\\u0041\""), "\"\ufffdA\"");
  EXPECT_EQ(decode("\"\\udc00\\ud800\""), "\"\ufffd\ufffd\"");
  EXPECT_EQ(decode("1."), "1.0");
  EXPECT_EQ(decode("-.5"), "-0.5");
  EXPECT_EQ(decode("1e-400"), "0.0");
  std::string deep(2000, '[');
  deep += std::string(2000, ']');
  // The decoder recurses per level; like every embedder of the evaluator,
  // run it on a large stack (2000 levels overflow 8 MiB under ASan).
  std::string got;
  runWithLargeStack([&] {
    got = decode(deep);
    return 0;
  });
  EXPECT_EQ(got.substr(0, 4), "[[[[");
}

TEST_F(JsonTest, DecodeErrors) {
  struct Case {
    const char *in, *want;
  } cases[] = {
      {"truefalse", "at offset 4, unexpected character 'f' after value"},
      {"\"abc", "at offset 0, unclosed string literal"},
      {"\"ab\\gc\"", "at offset 7, invalid character 'g' in string escape code"},
      {"'abc'", "at offset 0, unexpected character '\\''"},
      {"1.2.3", "at offset 5, invalid number: 1.2.3"},
      {"+1", "at offset 0, unexpected character '+'"},
      {"-abc", "at offset 1, invalid number: -"},
      {"-", "at offset 1, invalid number: -"},
      {"-00", "at offset 3, invalid number: -00"},
      {"00", "at offset 2, invalid number: 00"},
      {"--1", "at offset 3, invalid number: --1"},
      {"-+1", "at offset 3, invalid number: -+1"},
      {"1e1e1", "at offset 5, invalid number: 1e1e1"},
      {"0123", "at offset 4, invalid number: 0123"},
      {"000.123", "at offset 7, invalid number: 000.123"},
      {"-0123", "at offset 5, invalid number: -0123"},
      {"-000.123", "at offset 8, invalid number: -000.123"},
      {"0x123", "at offset 1, unexpected character 'x' after value"},
      {"[1, 2 ", "at offset 6, unexpected end of file"},
      {"[1, 2, ", "at offset 7, unexpected end of file"},
      {"[1, 2, ]", "at offset 7, unexpected character ']'"},
      {"[1, 2, }", "at offset 7, unexpected character '}'"},
      {"[1, 2}", "at offset 5, got '}', want ',' or ']'"},
      {"{\"one\": 1", "at offset 9, unexpected end of file"},
      {"{\"one\" 1", "at offset 7, after object key, got '1', want ':' "},
      {"{\"one\": 1 \"two\": 2", "at offset 10, in object, got '\"', want ',' or '}'"},
      {"{\"one\": 1,", "at offset 10, unexpected end of file"},
      {"{\"one\": 1, }", "at offset 11, unexpected character '}'"},
      {"{\"one\": 1]", "at offset 9, in object, got ']', want ',' or '}'"},
      {"{1: 2}", "at offset 2, got int for object key, want string"},
      {"", "at offset 0, unexpected end of file"},
      {"   ", "at offset 3, unexpected end of file"},
      {"nul", "at offset 0, unexpected character 'n'"},
      {"[1] 2", "at offset 4, unexpected character '2' after value"},
      {"\"\x01\\n\"", "at offset 5, invalid character '\\x01' in string literal"},
      {"\"é\x01\"", "at offset 5, invalid character '\\x01' in string literal"},
      {"\"\\u12\"", "at offset 6, invalid character '\"' in \\u hexadecimal character escape"},
      {"\"\\u12zz\"", "at offset 8, invalid character 'z' in \\u hexadecimal character escape"},
      {"1e400", "at offset 5, invalid number: 1e400"},
      {"\xef\xbb\xbf[1]", "at offset 0, unexpected character 'ï'"},
      {"[1,2,3", "at offset 6, unexpected end of file"},
      {"truex", "at offset 4, unexpected character 'x' after value"},
      {"[truex]", "at offset 5, got 'x', want ',' or ']'"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(decode(c.in), std::string("error: json.decode: ") + c.want) << "input: " << c.in;
  EXPECT_EQ(callMember("decode", {I(1)}),
            "error: json.decode: for parameter x: got int, want string");
  EXPECT_EQ(callMember("decode", {S("1")}, {{"x", I(1)}}),
            "error: json.decode: got multiple values for keyword argument \"x\"");
  EXPECT_EQ(callMember("decode", {S("1")}, {{"defualt", I(1)}}),
            "error: json.decode: unexpected keyword argument \"defualt\" (did you mean default?)");
  // With a default, a decoding error returns it (the recent Go's json.decode).
  EXPECT_EQ(callMember("decode", {S("[1,")}, {{"default", I(7)}}), "7");
  EXPECT_EQ(callMember("decode", {S("[1]"), I(7)}), "[1]");
  // x is positional only, as in Go.
  EXPECT_EQ(callMember("decode", {}, {{"x", S("[1]")}, {"default", I(7)}}),
            "error: json.decode: unexpected keyword argument x");
}

TEST_F(JsonTest, RoundTrip) {
  std::string every16;
  for (uint32_t c = 0; c < 65536; ++c) {
    if (c >= 0xD800 && c < 0xE000)
      c = 0xE000; // '%c' % c writes U+FFFD for these; keep the string valid
    utf8::encode(every16, c);
  }
  Value s = S(every16);
  Value back = decodeJson(t, encodeJson(t, s));
  EXPECT_EQ(str(back), every16);
  Value numbers =
      list({I(0), I(1), I(-1), F(1.23e45), F(-1.23e-45),
            parseIntLiteral(heap, "3539537889086624823140625"), F(3539537889086624823140625.0)});
  EXPECT_EQ(repr(decodeJson(t, encodeJson(t, numbers))), repr(numbers));
  Value cats = list({S("😿"), S("🐱‍👤")}); // with a zero-width joiner
  EXPECT_TRUE(equals(t, decodeJson(t, encodeJson(t, cats)), cats));
}

TEST_F(JsonTest, Indent) {
  std::string s = encodeJson(t, dict({{S("x"), I(1)}, {S("y"), list({S("one"), S("two")})}}));
  EXPECT_EQ(indent(s), "{\n\t\"x\": 1,\n\t\"y\": [\n\t\t\"one\",\n\t\t\"two\"\n\t]\n}");
  EXPECT_EQ(indent(s, "¶", "–––"),
            "{\n¶–––\"x\": 1,\n¶–––\"y\": [\n¶––––––\"one\",\n¶––––––\"two\"\n¶–––]\n¶}");
  EXPECT_EQ(repr(decodeJson(t, indent(s))), "{\"x\": 1, \"y\": [\"one\", \"two\"]}");
  EXPECT_EQ(indent(" [ ] "), "[] ");
  EXPECT_EQ(indent("{ }  \n"), "{}  \n");
  EXPECT_EQ(indent("[1, {\"a\" : \"b,:{}\"}, [], {}]"),
            "[\n\t1,\n\t{\n\t\t\"a\": \"b,:{}\"\n\t},\n\t[],\n\t{}\n]");
  EXPECT_EQ(indent("-1.5e+3"), "-1.5e+3");
}

TEST_F(JsonTest, IndentErrors) {
  struct Case {
    const char *in, *want;
  } cases[] = {
      {"!@#$%^& this is not json", "invalid character '!' looking for beginning of value"},
      {"[1,", "unexpected end of JSON input"},
      {"[1 2]", "invalid character '2' after array element"},
      {"{\"a\" 1}", "invalid character '1' after object key"},
      {"{\"a\":1 \"b\"}", "invalid character '\"' after object key:value pair"},
      {"{1}", "invalid character '1' looking for beginning of object key string"},
      {"\"\x01\"", "invalid character '\\x01' in string literal"},
      {"\"\\x\"", "invalid character 'x' in string escape code"},
      {"\"\\u12x\"", "invalid character 'x' in \\u hexadecimal character escape"},
      {"-x", "invalid character 'x' in numeric literal"},
      {"1.x", "invalid character 'x' after decimal point in numeric literal"},
      {"1ex", "invalid character 'x' in exponent of numeric literal"},
      {"tx", "invalid character 'x' in literal true (expecting 'r')"},
      {"nul", "invalid character ' ' in literal null (expecting 'l')"},
      {"fals", "invalid character ' ' in literal false (expecting 'e')"},
      {"[1] x", "invalid character 'x' after top-level value"},
      {"", "unexpected end of JSON input"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(indent(c.in), std::string("error: json.indent: ") + c.want) << "input: " << c.in;
  json::Scanner scan; // nesting is limited as in Go
  for (int i = 0; i < 10000; ++i)
    ASSERT_EQ(scan.step('['), json::Scanner::Op::BeginArray);
  EXPECT_EQ(scan.step('['), json::Scanner::Op::Error);
  EXPECT_EQ(scan.error(), "invalid character '[' exceeded max depth");
  EXPECT_EQ(callMember("indent", {S("1")}, {{"prefix", I(1)}}),
            "error: json.indent: for parameter \"prefix\": got int, want string");
  EXPECT_EQ(callMember("indent", {S("1"), I(2)}), "error: json.indent: got 2 arguments, want 1");
  EXPECT_EQ(callMember("indent", {S("[1]")}, {{"indent", S("  ")}}), "\"[\\n  1\\n]\"");
}

// json.encode_indent(x, *, prefix="", indent="\t") = indent(encode(x)), the
// recent go.starlark.net's; its errors carry its own name.
TEST_F(JsonTest, EncodeIndent) {
  EXPECT_EQ(callMember("encode_indent", {I(1)}), "\"1\"");
  EXPECT_EQ(callMember("encode_indent", {list({I(1), S("a")})}, {{"indent", S(" ")}}),
            "\"[\\n 1,\\n \\\"a\\\"\\n]\"");
  EXPECT_EQ(callMember("encode_indent", {list({I(1)})}, {{"prefix", S(">")}}),
            "\"[\\n>\\t1\\n>]\"");
  EXPECT_EQ(callMember("encode_indent", {list({I(1)}), S(" ")}),
            "error: json.encode_indent: got 2 arguments, want 1");
  EXPECT_EQ(callMember("encode_indent", {dict({})}, {{"indnet", S("")}}),
            "error: json.encode_indent: unexpected keyword argument \"indnet\" (did you mean "
            "indent?)");
  EXPECT_EQ(callMember("encode_indent", {F(NAN)}),
            "error: json.encode_indent: cannot encode non-finite float nan");
}

} // namespace
} // namespace fbc::star
