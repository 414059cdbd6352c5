// The json module value and its builtins: decode, encode, encode_indent, indent.
#include "frontend/lib/args.h"
#include "frontend/lib/json/json.h"
#include "frontend/lib/json/json_scan.h"
#include "frontend/lib/objects.h"

namespace fbc::star {

std::string indentJson(Thread &t, std::string_view s, std::string_view prefix,
                       std::string_view indent) {
  std::string out, error;
  if (!json::indent(s, prefix, indent, out, error))
    t.fail("json.indent: " + error);
  return out;
}

namespace {

Value jsonEncode(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "json.encode", args, 1, {&x});
  return makeString(t.heap, encodeJson(t, x));
}

// json.decode(x, default=unset): with a default, a decoding error returns
// it instead of failing (recent go.starlark.net lib/json). x is
// positional only, as in Go (which checks it after binding).
Value jsonDecode(Thread &t, Value, const Args &args) {
  Value s, dflt;
  bindArgs(t, "json.decode", args, {"x", "default?"}, {&s, &dflt});
  if (args.positional.empty())
    t.fail("json.decode: unexpected keyword argument x");
  std::string_view text = wantString(t, "json.decode", "x", s);
  if (dflt.isNull())
    return decodeJson(t, text);
  try {
    return decodeJson(t, text);
  } catch (const EvalError &) {
    return dflt;
  }
}

// The keyword-only prefix= and indent= of json.indent and json.encode_indent.
// Go quotes keyword parameter names in its messages: `for parameter
// "prefix": got int, want string`.
struct IndentOptions {
  std::string_view prefix, indent;
};

IndentOptions bindIndent(Thread &t, const char *fn, const Args &args, Value &positional) {
  Value prefixV, indentV;
  bindArgs(t, fn, Args{{}, args.kwargs}, {"prefix?", "indent?"}, {&prefixV, &indentV});
  bindPositional(t, fn, Args{args.positional, {}}, 1, {&positional});
  return {prefixV ? wantString(t, fn, "\"prefix\"", prefixV) : "",
          indentV ? wantString(t, fn, "\"indent\"", indentV) : "\t"};
}

// json.indent(str, *, prefix="", indent="\t").
Value jsonIndent(Thread &t, Value, const Args &args) {
  Value strV;
  IndentOptions o = bindIndent(t, "json.indent", args, strV);
  std::string_view str = wantString(t, "json.indent", "1", strV);
  return makeString(t.heap, indentJson(t, str, o.prefix, o.indent));
}

// json.encode_indent(x, *, prefix="", indent="\t") = indent(encode(x)).
Value jsonEncodeIndent(Thread &t, Value, const Args &args) {
  Value x;
  IndentOptions o = bindIndent(t, "json.encode_indent", args, x);
  return makeString(t.heap,
                    indentJson(t, encodeJson(t, x, "json.encode_indent"), o.prefix, o.indent));
}

} // namespace

Value makeJsonModule(Heap &h) {
  Module *m = h.make<Module>("json");
  m->members = {
      {"decode", Value::object(h.make<Builtin>("json.decode", jsonDecode))},
      {"encode", Value::object(h.make<Builtin>("json.encode", jsonEncode))},
      {"encode_indent", Value::object(h.make<Builtin>("json.encode_indent", jsonEncodeIndent))},
      {"indent", Value::object(h.make<Builtin>("json.indent", jsonIndent))},
  };
  m->freeze();
  return Value::object(m);
}

} // namespace fbc::star
