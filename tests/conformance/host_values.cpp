#include "tests/conformance/host_values.h"

#include "frontend/eval/thread.h"
#include "frontend/lib/args.h"
#include "frontend/lib/numeric.h"
#include "frontend/lib/objects.h"
#include "frontend/lib/ops.h"
#include "frontend/lib/printer.h"

#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace fbc::conformance {
using namespace fbc::star;

namespace {

// Static storage for the builtin objects themselves.
Heap &hostHeap() {
  static Heap heap;
  return heap;
}

class HasFields final : public Object {
public:
  static constexpr bool kNeedsDestroy = true;
  HasFields() : Object(Kind::Host) {}
  std::string_view typeName() const override { return "hasfields"; }
  void repr(Printer &p) const override { p.write("hasfields"); }
  uint32_t hash(Thread &) const override { return 42; }
  void freeze() override {
    if (frozen_)
      return;
    frozen_ = true;
    for (auto &[k, v] : attrs_)
      if (v.isObject())
        v.obj()->freeze();
  }
  Value attr(Thread &, std::string_view name) override {
    auto it = attrs_.find(std::string(name));
    return it == attrs_.end() ? Value() : it->second;
  }
  void setField(Thread &t, std::string_view name, Value v) override {
    if (frozen_)
      t.fail("cannot set field on a frozen hasfields");
    if (name.substr(0, 2) == "no")
      t.fail("no ." + std::string(name) + " field" + suggestion(name));
    attrs_[std::string(name)] = v;
  }
  void attrNames(std::vector<std::string> &out) const override {
    for (auto &[k, v] : attrs_)
      out.push_back(k);
  }
  Value binary(Thread &t, BinOp op, Value, Value other, bool) override {
    if (op == BinOp::Add && other.is(Kind::List))
      return makeInt(t.heap, 42);
    return Value();
  }

private:
  // Go appends a spelling suggestion to NoSuchAttrError messages; the
  // only case the suite checks differs from a field by case and '_'.
  std::string suggestion(std::string_view name) const {
    auto fold = [](std::string_view s) {
      std::string r;
      for (char c : s)
        if (c != '_')
          r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return r;
    };
    for (auto &[k, v] : attrs_)
      if (fold(k) == fold(name.substr(2)) || fold("no" + k) == fold(name))
        return " (did you mean ." + k + "?)";
    return "";
  }
  std::map<std::string, Value> attrs_; // sorted: dir() order
};

class FibIterator final : public Iterator {
public:
  FibIterator(Heap &h) : heap_(h) {}
  bool next(Value &out) override {
    out = makeInt(heap_, x_);
    int64_t z = x_ + y_;
    x_ = y_;
    y_ = z;
    return true;
  }

private:
  Heap &heap_;
  int64_t x_ = 0, y_ = 1;
};

class Fib final : public Object {
public:
  static constexpr bool kNeedsDestroy = false;
  Fib() : Object(Kind::Host) { frozen_ = true; }
  std::string_view typeName() const override { return "fib"; }
  void repr(Printer &p) const override { p.write("fib"); }
  uint32_t hash(Thread &t) const override { t.fail("fib is unhashable"); }
  bool iterable() const override { return true; }
  Iterator *iterate(Thread &t) override { return t.heap.makeUnmanaged<FibIterator>(t.heap); }
};

Value newHasFields(Thread &t, Value, const Args &args) {
  bindNone(t, "hasfields", args);
  return Value::object(t.heap.make<HasFields>());
}

Value errorFn(Thread &t, Value, const Args &args) {
  if (args.positional.size() != 1)
    t.fail("error: got " + std::to_string(args.positional.size()) + " arguments, want 1");
  Value x = args.positional[0];
  std::string msg = x.is(Kind::String) ? std::string(x.as<String>()->view()) : str(x);
  auto *rep = static_cast<Reporter *>(t.userData);
  int line = 0;
  for (const CallFrame *f = t.top; f; f = f->parent)
    if (f->file && f->file->path() == rep->testFile) {
      line = static_cast<int>(f->pos.line);
      break;
    }
  rep->failures.push_back({line, msg});
  return none();
}

Value catchFn(Thread &t, Value, const Args &args) {
  Value f;
  bindPositional(t, "catch", args, 1, {&f});
  try {
    call(t, f, llvm::ArrayRef<Value>{});
  } catch (EvalError &e) {
    return makeString(t.heap, e.message());
  }
  return none();
}

Value matchesFn(Thread &t, Value, const Args &args) {
  Value pattern, s;
  bindPositional(t, "matches", args, 2, {&pattern, &s});
  std::string_view p = wantString(t, "matches", "1", pattern);
  std::string_view text = wantString(t, "matches", "2", s);
  RE2 re(p, RE2::Quiet);
  if (!re.ok())
    t.fail("matches: " + re.error());
  return boolean(RE2::PartialMatch(text, re));
}

Value moduleFn(Thread &t, Value, const Args &args) {
  Value name;
  bindPositional(t, "module", Args{args.positional, {}}, 1, {&name});
  Module *m = t.heap.make<Module>(std::string(wantString(t, "module", "1", name)));
  for (const Kwarg &kw : args.kwargs)
    m->members.emplace_back(std::string(kw.name->view()), kw.value);
  std::sort(m->members.begin(), m->members.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  return Value::object(m);
}

Value freezeFn(Thread &t, Value, const Args &args) {
  if (!args.kwargs.empty())
    t.fail("freeze does not accept keyword arguments");
  if (args.positional.size() != 1)
    t.fail("freeze got " + std::to_string(args.positional.size()) + " arguments, wants 1");
  Value x = args.positional[0];
  if (x.isObject())
    x.obj()->freeze();
  return x;
}

// The Go driver's _floateq(x, y) (starlarktest.floateq): equal, both NaN,
// or one unit in the last place apart.
Value floateqFn(Thread &t, Value, const Args &args) {
  Value xv, yv;
  bindPositional(t, "floateq", args, 2, {&xv, &yv});
  auto asFloat = [&](Value v, const char *which) {
    if (auto *f = v.as<Float>())
      return f->value;
    t.fail(std::string("floateq: for parameter ") + which + ": got " + std::string(typeName(v)) +
           ", want float");
  };
  double x = asFloat(xv, "1"), y = asFloat(yv, "2");
  if (x == y)
    return boolean(true);
  if (std::isnan(x) || std::isnan(y))
    return boolean(std::isnan(x) && std::isnan(y));
  uint64_t xb, yb;
  std::memcpy(&xb, &x, sizeof x);
  std::memcpy(&yb, &y, sizeof y);
  return boolean(xb == yb + 1 || yb == xb + 1);
}

Value builtin(const char *name, BuiltinFn fn) {
  return Value::object(hostHeap().make<Builtin>(name, fn));
}

} // namespace

Value makeHasFieldsBuiltin() {
  return builtin("hasfields", newHasFields);
}
Value makeFibonacci() {
  return Value::object(hostHeap().make<Fib>());
}
Value makeErrorBuiltin() {
  return builtin("error", errorFn);
}
Value makeCatchBuiltin() {
  return builtin("catch", catchFn);
}
Value makeMatchesBuiltin() {
  return builtin("matches", matchesFn);
}
Value makeModuleBuiltin() {
  return builtin("module", moduleFn);
}
Value makeFreezeBuiltin() {
  return builtin("freeze", freezeFn);
}
Value makeFloatEqBuiltin() {
  return builtin("floateq", floateqFn);
}

} // namespace fbc::conformance
