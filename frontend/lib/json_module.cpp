// The json module value and its three builtins.
#include "frontend/eval/args.h"
#include "frontend/eval/objects.h"
#include "frontend/lib/json.h"
#include "frontend/lib/json_scan.h"

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

Value jsonDecode(Thread &t, Value, const Args &args) {
  Value s;
  bindPositional(t, "json.decode", args, 1, {&s});
  return decodeJson(t, wantString(t, "json.decode", "1", s));
}

// json.indent(str, *, prefix="", indent="\t"). Go quotes keyword parameter
// names in its messages: `for parameter "prefix": got int, want string`.
Value jsonIndent(Thread &t, Value, const Args &args) {
  Value prefixV, indentV, strV;
  bindArgs(t, "json.indent", Args{{}, args.kwargs}, {"prefix?", "indent?"}, {&prefixV, &indentV});
  bindPositional(t, "json.indent", Args{args.positional, {}}, 1, {&strV});
  std::string_view prefix = prefixV ? wantString(t, "json.indent", "\"prefix\"", prefixV) : "";
  std::string_view indent = indentV ? wantString(t, "json.indent", "\"indent\"", indentV) : "\t";
  std::string_view str = wantString(t, "json.indent", "1", strV);
  return makeString(t.heap, indentJson(t, str, prefix, indent));
}

} // namespace

Value makeJsonModule(Heap &h) {
  Module *m = h.make<Module>("json");
  m->members = {
      {"decode", Value::object(h.make<Builtin>("json.decode", jsonDecode))},
      {"encode", Value::object(h.make<Builtin>("json.encode", jsonEncode))},
      {"indent", Value::object(h.make<Builtin>("json.indent", jsonIndent))},
  };
  m->freeze();
  return Value::object(m);
}

} // namespace fbc::star
