#include "frontend/lib/args.h"

#include "frontend/lib/arg_messages.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"
#include "frontend/lib/spellcheck.h"

#include <string>
#include <vector>

namespace fbc::star {

static std::string_view paramName(const char *p) {
  std::string_view n(p);
  if (!n.empty() && n.back() == '?')
    n.remove_suffix(1);
  return n;
}

std::string tooManyArgumentsMessage(std::string_view fn, size_t got, size_t most) {
  return std::string(fn) + ": got " + std::to_string(got) + " arguments, want at most " +
         std::to_string(most);
}

std::string unexpectedKeywordMessage(std::string_view fn, String *keyword,
                                     llvm::ArrayRef<std::string_view> params) {
  std::string msg =
      std::string(fn) + ": unexpected keyword argument " + repr(Value::object(keyword));
  std::string_view near = nearestName(keyword->view(), params);
  if (!near.empty())
    msg += " (did you mean " + std::string(near) + "?)";
  return msg;
}

std::string multipleValuesMessage(std::string_view fn, String *keyword) {
  return std::string(fn) + ": got multiple values for keyword argument " +
         repr(Value::object(keyword));
}

std::string missingArgumentMessage(std::string_view fn, std::string_view param) {
  return std::string(fn) + ": missing argument for " + std::string(param);
}

[[noreturn]] static void failUnexpectedKeyword(Thread &t, std::string_view fn, const Kwarg &kw,
                                               const char *const *names, size_t n) {
  std::vector<std::string_view> params;
  params.reserve(n);
  for (size_t i = 0; i < n; ++i)
    params.push_back(paramName(names[i]));
  t.fail(unexpectedKeywordMessage(fn, kw.name, params));
}

void bindArgs(Thread &t, std::string_view fn, const Args &args,
              std::initializer_list<const char *> params, std::initializer_list<Value *> out) {
  const size_t n = params.size();
  const char *const *names = params.begin();
  Value *const *slots = out.begin();
  if (args.positional.size() > n)
    t.fail(tooManyArgumentsMessage(fn, args.positional.size(), n));
  for (size_t i = 0; i < n; ++i)
    *slots[i] = Value();
  for (size_t i = 0; i < args.positional.size(); ++i)
    *slots[i] = args.positional[i];
  for (const Kwarg &kw : args.kwargs) {
    std::string_view name = kw.name->view();
    size_t i = 0;
    while (i < n && paramName(names[i]) != name)
      ++i;
    if (i == n)
      failUnexpectedKeyword(t, fn, kw, names, n);
    if (*slots[i])
      t.fail(multipleValuesMessage(fn, kw.name));
    *slots[i] = kw.value;
  }
  for (size_t i = args.positional.size(); i < n; ++i) {
    std::string_view name(names[i]);
    if (name.back() == '?')
      break;
    if (!*slots[i])
      t.fail(missingArgumentMessage(fn, name));
  }
}

void bindPositional(Thread &t, std::string_view fn, const Args &args, size_t min,
                    std::initializer_list<Value *> out) {
  if (!args.kwargs.empty())
    t.fail(std::string(fn) + ": unexpected keyword arguments");
  const size_t max = out.size(), got = args.positional.size();
  if (got < min)
    t.fail(std::string(fn) + ": got " + std::to_string(got) + " arguments, want " +
           (min < max ? "at least " : "") + std::to_string(min));
  if (got > max)
    t.fail(std::string(fn) + ": got " + std::to_string(got) + " arguments, want " +
           (max > min ? "at most " : "") + std::to_string(max));
  Value *const *slots = out.begin();
  for (size_t i = 0; i < max; ++i)
    *slots[i] = i < got ? args.positional[i] : Value();
}

void bindNone(Thread &t, std::string_view fn, const Args &args) {
  bindPositional(t, fn, args, 0, {});
}

void failParam(Thread &t, std::string_view fn, std::string_view param, std::string msg) {
  t.fail(std::string(fn) + ": for parameter " + std::string(param) + ": " + msg);
}

static void wrongType(Thread &t, std::string_view fn, std::string_view param, Value v,
                      const char *want) {
  failParam(t, fn, param, "got " + std::string(typeName(v)) + ", want " + want);
}

std::string_view wantString(Thread &t, std::string_view fn, std::string_view param, Value v) {
  return wantStringObj(t, fn, param, v)->view();
}

String *wantStringObj(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (String *s = v.as<String>())
    return s;
  wrongType(t, fn, param, v, "string");
  __builtin_unreachable();
}

bool wantBool(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (Bool *b = v.as<Bool>())
    return b->value;
  wrongType(t, fn, param, v, "bool");
  __builtin_unreachable();
}

int64_t wantInt(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (v.isSmallInt())
    return v.smallInt();
  if (!v.is(Kind::Int))
    wrongType(t, fn, param, v, "int");
  int64_t out;
  if (!toInt64(v, out))
    failParam(t, fn, param, str(v) + " out of range (want value in signed 64-bit range)");
  return out;
}

double wantFloat(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (Float *f = v.as<Float>())
    return f->value;
  if (v.isInt())
    return intToFloat(t, v);
  wrongType(t, fn, param, v, "float");
  __builtin_unreachable();
}

Value wantCallable(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (v.isObject() && v.obj()->callable())
    return v;
  wrongType(t, fn, param, v, "callable");
  __builtin_unreachable();
}

Value wantIterable(Thread &t, std::string_view fn, std::string_view param, Value v) {
  if (v.isObject() && v.kind() != Kind::String) {
    // Cheap structural test: core iterables, or a host type that iterates.
    switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple:
    case Kind::Dict:
    case Kind::Set:
    case Kind::Range:
      return v;
    default:
      if (v.obj()->iterable())
        return v;
      break;
    }
  }
  wrongType(t, fn, param, v, "iterable");
  __builtin_unreachable();
}

} // namespace fbc::star
