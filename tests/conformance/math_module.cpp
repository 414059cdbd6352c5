// The `math` module the recent Go test driver loads for math.star
// (go.starlark.net/lib/math): a host module of the conformance runner only,
// since neither the reference tool nor fbc gives specs a math module. Its
// functions take floats or ints and use the C library's functions, which
// agree with Go's on the values math.star checks.
#include "tests/conformance/host_values.h"

#include "frontend/lib/args.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace fbc::conformance {

using namespace fbc::star;

namespace {

// A float or int argument as a double ("math.sqrt: got string, want float or int").
double number(Thread &t, const std::string &fn, Value v) {
  if (Float *f = v.as<Float>())
    return f->value;
  if (v.isInt())
    return intToFloat(t, v);
  t.fail(fn + ": got " + std::string(typeName(v)) + ", want float or int");
}

double oneArg(Thread &t, const std::string &fn, const Args &args) {
  Value x;
  bindPositional(t, fn, args, 1, {&x});
  return number(t, fn, x);
}

using Unary = double (*)(double);
using Binary = double (*)(double, double);

struct Function {
  const char *name;
  Unary unary;
  Binary binary;
};

double degrees(double x) {
  return x * (180 / std::numbers::pi);
}
double radians(double x) {
  return x * (std::numbers::pi / 180);
}
double fabsOf(double x) {
  return std::fabs(x);
}

// The functions whose result is a float of their argument(s).
const Function kFloatFunctions[] = {
    {"math.acos", ::acos, nullptr},
    {"math.acosh", ::acosh, nullptr},
    {"math.asin", ::asin, nullptr},
    {"math.asinh", ::asinh, nullptr},
    {"math.atan", ::atan, nullptr},
    {"math.atan2", nullptr, ::atan2},
    {"math.atanh", ::atanh, nullptr},
    {"math.copysign", nullptr, ::copysign},
    {"math.cos", ::cos, nullptr},
    {"math.cosh", ::cosh, nullptr},
    {"math.degrees", degrees, nullptr},
    {"math.exp", ::exp, nullptr},
    {"math.fabs", fabsOf, nullptr},
    {"math.gamma", ::tgamma, nullptr},
    {"math.hypot", nullptr, ::hypot},
    {"math.mod", nullptr, ::fmod},
    {"math.pow", nullptr, ::pow},
    {"math.radians", radians, nullptr},
    {"math.remainder", nullptr, ::remainder},
    {"math.round", ::round, nullptr},
    {"math.sin", ::sin, nullptr},
    {"math.sinh", ::sinh, nullptr},
    {"math.sqrt", ::sqrt, nullptr},
    {"math.tan", ::tan, nullptr},
    {"math.tanh", ::tanh, nullptr},
};

// The builtin's receiver is its index in kFloatFunctions.
Value floatFunction(Thread &t, Value self, const Args &args) {
  const Function &f = kFloatFunctions[self.smallInt()];
  const std::string fn = f.name;
  if (f.unary)
    return makeFloat(t.heap, f.unary(oneArg(t, fn, args)));
  Value x, y;
  bindPositional(t, fn, args, 2, {&x, &y});
  return makeFloat(t.heap, f.binary(number(t, fn, x), number(t, fn, y)));
}

// ceil and floor return ints: an int argument as it is, a float rounded.
Value ceilOrFloor(Thread &t, const Args &args, bool ceil) {
  const std::string fn = ceil ? "math.ceil" : "math.floor";
  Value x;
  bindPositional(t, fn, args, 1, {&x});
  if (x.isInt())
    return x;
  double d = number(t, fn, x);
  return floatToInt(t, ceil ? std::ceil(d) : std::floor(d));
}

Value mathCeil(Thread &t, Value, const Args &args) {
  return ceilOrFloor(t, args, true);
}
Value mathFloor(Thread &t, Value, const Args &args) {
  return ceilOrFloor(t, args, false);
}

// log(x, base=e); base 1 divides by log(1) == 0.
Value mathLog(Thread &t, Value, const Args &args) {
  Value x, base;
  bindPositional(t, "math.log", args, 1, {&x, &base});
  double v = number(t, "math.log", x);
  if (base.isNull())
    return makeFloat(t.heap, std::log(v));
  double b = number(t, "math.log", base);
  if (b == 1)
    t.fail("division by zero");
  return makeFloat(t.heap, std::log(v) / std::log(b));
}

} // namespace

Value makeMathModule(Heap &h) {
  Module *m = h.make<Module>("math");
  for (size_t i = 0; i < std::size(kFloatFunctions); ++i) {
    const char *name = kFloatFunctions[i].name;
    m->members.emplace_back(
        name + 5, // after "math."
        Value::object(h.make<Builtin>(name, floatFunction, Value::small(static_cast<int64_t>(i)))));
  }
  m->members.emplace_back("ceil", Value::object(h.make<Builtin>("math.ceil", mathCeil)));
  m->members.emplace_back("floor", Value::object(h.make<Builtin>("math.floor", mathFloor)));
  m->members.emplace_back("log", Value::object(h.make<Builtin>("math.log", mathLog)));
  m->members.emplace_back("e", makeFloat(h, std::numbers::e));
  m->members.emplace_back("pi", makeFloat(h, std::numbers::pi));
  std::sort(m->members.begin(), m->members.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  m->freeze();
  return Value::object(m);
}

} // namespace fbc::conformance
