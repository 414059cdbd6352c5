// Builtins about values in general: bool, len, type, str, repr, print,
// fail, hash, dir, getattr, hasattr.
#include "frontend/lib/args.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/universe/universe_builtins.h"
#include "frontend/lib/universe/universe_helpers.h"
#include "frontend/lib/utf8.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace fbc::star::builtins {

namespace {

// Builtins taking exactly one positional argument and no keywords, with
// Go's wording for that family ("str: got 2 arguments, want exactly 1").
Value exactlyOne(Thread &t, const char *fn, const Args &args) {
  if (!args.kwargs.empty())
    t.fail(std::string(fn) + " does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail(std::string(fn) + ": got " + std::to_string(args.positional.size()) +
           " arguments, want exactly 1");
  return args.positional[0];
}

// print and fail: strings and bytes raw, everything else as repr, joined by
// the `sep` keyword (default " ").
std::string joinForOutput(Thread &t, const char *fn, const Args &args) {
  Value sepValue;
  bindArgs(t, fn, Args{{}, args.kwargs}, {"sep?"}, {&sepValue});
  std::string_view sep = sepValue.isNull() ? " " : wantString(t, fn, "sep", sepValue);
  Printer p;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i)
      p.write(sep);
    Value v = args.positional[i];
    if (String *s = v.as<String>())
      p.write(s->view());
    else if (Bytes *b = v.as<Bytes>())
      p.write(b->view());
    else
      p.repr(v);
  }
  return std::move(p.out);
}

} // namespace

Value boolFn(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "bool", args, 0, {&x});
  return boolean(!x.isNull() && truth(x));
}

Value len(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "len", args, 1, {&x});
  int64_t n = length(x);
  if (n < 0)
    t.fail("len: value of type " + std::string(typeName(x)) + " has no len");
  return makeInt(t.heap, n);
}

Value type(Thread &t, Value, const Args &args) {
  return makeString(t.heap, typeName(exactlyOne(t, "type", args)));
}

Value str(Thread &t, Value, const Args &args) {
  Value x = exactlyOne(t, "str", args);
  if (x.is(Kind::String))
    return x;
  if (Bytes *b = x.as<Bytes>()) // invalid UTF-8 becomes U+FFFD
    return makeString(t.heap, utf8::toValid(b->view()));
  return makeString(t.heap, star::str(x));
}

Value repr(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "repr", args, 1, {&x});
  return makeString(t.heap, star::repr(x));
}

Value print(Thread &t, Value, const Args &args) {
  std::string line = joinForOutput(t, "print", args);
  if (t.print)
    t.print(line);
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  return none();
}

Value fail(Thread &t, Value, const Args &args) {
  t.fail("fail: " + joinForOutput(t, "fail", args));
}

// Go's hash(): Java's String.hashCode for strings (deterministic across
// runs, as the spec requires), FNV-32 for bytes.
Value hash(Thread &t, Value, const Args &args) {
  Value x;
  bindPositional(t, "hash", args, 1, {&x});
  if (String *s = x.as<String>())
    return Value::small(static_cast<int32_t>(s->hashCode()));
  if (Bytes *b = x.as<Bytes>()) {
    uint32_t h = 2166136261u;
    for (char c : b->view())
      h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return Value::small(h);
  }
  t.fail("hash: got " + std::string(typeName(x)) + ", want string or bytes");
}

Value dir(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("dir does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail("dir: got " + std::to_string(args.positional.size()) + " arguments, want 1");
  std::vector<std::string> names = attrNames(args.positional[0]);
  std::sort(names.begin(), names.end());
  std::vector<Value> elems;
  elems.reserve(names.size());
  for (const std::string &n : names)
    elems.push_back(makeString(t.heap, n));
  return newList(t, std::move(elems));
}

// An attribute lookup may fail for a reason other than absence (a struct's
// "no .x attribute", a host type's computed field): getattr then returns
// its default, as Go does. Without a default, an error the embedder gave a
// code (a name its type never has) goes on as it is, code and message.
Value getattr(Thread &t, Value, const Args &args) {
  Value object, nameValue, dflt;
  bindPositional(t, "getattr", args, 2, {&object, &nameValue, &dflt});
  std::string_view name = wantString(t, "getattr", "2", nameValue);
  Value v;
  try {
    v = getAttrOrNull(t, object, name);
  } catch (const EvalError &e) {
    if (!dflt.isNull())
      return dflt;
    if (!e.code.empty())
      throw;
    failPrefixed(t, "getattr", e);
  }
  if (!v.isNull())
    return v;
  if (!dflt.isNull())
    return dflt;
  t.fail("getattr: " + std::string(typeName(object)) + " has no ." + std::string(name) +
         " field or method");
}

Value hasattr(Thread &t, Value, const Args &args) {
  Value object, nameValue;
  bindPositional(t, "hasattr", args, 2, {&object, &nameValue});
  std::string_view name = wantString(t, "hasattr", "2", nameValue);
  try {
    return boolean(!getAttrOrNull(t, object, name).isNull());
  } catch (const EvalError &) {
    // Not conclusive: the attribute may exist but have failed to compute.
    std::vector<std::string> names = attrNames(object);
    return boolean(std::find(names.begin(), names.end(), name) != names.end());
  }
}

} // namespace fbc::star::builtins
