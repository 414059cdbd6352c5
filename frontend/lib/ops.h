// Generic operations on values: what the evaluator and the builtins call.
// Each dispatches on the kind, fast-pathing the core types, and falls back
// to the Object virtuals for host types. All of them throw EvalError (via
// Thread::fail) with Go's wording on a type error.
#pragma once

#include "frontend/eval/thread.h"
#include "frontend/lib/value.h"

#include <string>
#include <string_view>

namespace fbc::star {

// type(x)
std::string_view typeName(Value v);
// bool(x)
bool truth(Value v);
// The hash used by dicts and sets ("unhashable type: list" if none).
uint32_t hashValue(Thread &t, Value v);
// x == y, with cycle protection (Go: "comparison exceeded maximum recursion depth").
// `depth` is the nesting level, 0 at the outermost comparison: containers
// compare their elements with depth + 1, and depth 10 fails, as in Go.
bool equals(Thread &t, Value x, Value y, int depth = 0);
// x <op> y for ordered comparisons and ==/!=.
bool compare(Thread &t, CmpOp op, Value x, Value y, int depth = 0);
// Three-way ordering used by sorted(), min(), max(): throws if x and y are
// not mutually ordered.
int order(Thread &t, Value x, Value y);
// x <op> y for arithmetic, bitwise, `in` and `not in`.
Value binary(Thread &t, BinOp op, Value x, Value y);
// Unary minus, plus and bitwise not.
enum class UnOp : uint8_t { Neg, Plus, Invert };
Value unary(Thread &t, UnOp op, Value x);

// x.name: a field, else a method of x's type bound to x. Throws "T has no
// .name field or method" with a "did you mean" suggestion.
Value getAttr(Thread &t, Value x, std::string_view name);
// getattr() / hasattr() flavour: null instead of an error.
Value getAttrOrNull(Thread &t, Value x, std::string_view name);
void setField(Thread &t, Value x, std::string_view name, Value v);
// dir(x): fields and methods, sorted.
std::vector<std::string> attrNames(Value x);

// x[i] and x[i] = v
Value getIndex(Thread &t, Value x, Value i);
void setIndex(Thread &t, Value x, Value i, Value v);
// x[lo:hi:step]; absent bounds are null.
Value slice(Thread &t, Value x, Value lo, Value hi, Value step);

// len(x), or -1 if x has no length.
int64_t length(Value v);
// An iterator over x; throws "T value is not iterable" if none. The caller
// must call done() on it (use IterationScope).
Iterator *iterate(Thread &t, Value x);

// Calls any callable with the given arguments. Defined by the evaluator.
Value call(Thread &t, Value fn, const Args &args);
inline Value call(Thread &t, Value fn, llvm::ArrayRef<Value> positional) {
  return call(t, fn, Args{positional, {}});
}

// Runs iterate() and guarantees done().
class IterationScope {
public:
  IterationScope(Thread &t, Value x) : it_(iterate(t, x)) {}
  ~IterationScope() { it_->done(); }
  bool next(Value &out) { return it_->next(out); }

private:
  Iterator *it_;
};

// Converts a list, tuple, or any iterable into a vector of its elements.
std::vector<Value> toVector(Thread &t, Value iterable);

} // namespace fbc::star
